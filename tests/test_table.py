"""The one table model (report/table.py): every format's standings, odds still to play and
simulation go through it, and each of the four renderers shows the same rows."""

import csv
import io
import json

import pytest

import simcycle
from simcycle.report.table import (Column, Table, odds_table, simulation_table, standings_table,
                                   swing_tables, to_csv, to_html, to_json, to_text)

SCENARIOS = ["candidates-2022", "grand-prix-2019", "grand-prix-2022", "acp-tour-2004-05"]


def check_renderers(t: Table):
    names = [r.get("name") for r in t.rows if isinstance(r.get("name"), str)]
    text = to_text(t)
    assert text.splitlines()[0] == t.title
    for n in names:
        assert n in text
    rows = list(csv.reader(io.StringIO(to_csv(t))))
    assert rows[0][:1] == [t.columns[0].key] and len(rows) == len(t.rows) + 1
    assert set(rows[0]) >= {c.key for c in t.columns}
    back = json.loads(json.dumps(to_json(t)))
    assert back["title"] == t.title and len(back["rows"]) == len(t.rows)
    assert [c["key"] for c in back["columns"]] == [c.key for c in t.columns]
    html = to_html(t)
    assert html.count("<tr>") == len(t.rows) + 1
    for c in t.shown():
        assert c.label.replace("&", "&amp;") in html


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_format_through_the_table_model(name):
    ev = simcycle.load(name)
    cps = ev.checkpoints()
    at = cps[len(cps) // 2]
    st = standings_table(ev.standings(at))
    assert len(st.rows) == len(ev.standings(at).players)
    check_renderers(st)
    od = ev.odds(at)
    if od.items:
        check_renderers(odds_table(od))
    if name == "candidates-2022":            # the kernels of the others compile slowly
        sim = ev.simulate(at=at, sims=2000)
        t = simulation_table(sim)
        check_renderers(t)
        # one place qualifies: no second column repeating P(1st) as P(qualify)
        assert [c.key for c in t.shown()][:3] == ["name", "expected_points", "p_first"]
        assert "p_qualify" not in [c.key for c in t.shown()]
        row = {r["name"]: r for r in t.rows}
        for p in sim.players:
            assert row[p.name]["p_first"] == p.p_first


def test_two_qualify_shows_p_qualify():
    ev = simcycle.load("grand-prix-2019")
    sim = ev.simulate(at=ev.checkpoints()[-2], sims=1000)
    t = simulation_table(sim)
    assert "p_qualify" in [c.key for c in t.shown()]
    assert any("top 2" in c.label for c in t.columns)


def test_html_escapes_and_text_aligns():
    t = Table(title="<T>", columns=[Column(key="name", label="player"),
                                    Column(key="p", label="P %", kind="pct", se="se")],
              rows=[{"name": "<script>x</script>", "p": 0.25, "se": 0.01},
                    {"name": "B", "p": 1.0, "se": 0.0}])
    html = to_html(t)
    assert "<script>" not in html and "&lt;script&gt;x&lt;/script&gt;" in html
    assert "&lt;T&gt;" in html and "± 1.00" in html
    lines = to_text(t).splitlines()
    assert lines[2].startswith("player") and "25.0 ±1.00" in lines[4]
    assert to_csv(t).splitlines()[:2] == ["name,p,se", "<script>x</script>,0.25,0.01"]


def test_cli_csv_goes_through_the_table_model():
    """simulate --csv and history --csv: the table model's CSV, values those of --json."""
    from click.testing import CliRunner

    from simcycle.cli import main
    args = ["simulate", "candidates-2022", "--at", "round12", "--sims", "1000"]
    d = json.loads(CliRunner().invoke(main, args + ["--json"]).output)
    rows = list(csv.DictReader(io.StringIO(CliRunner().invoke(main, args + ["--csv"]).output)))
    assert [r["name"] for r in rows] == [p["name"] for p in d["players"]]
    for r, p in zip(rows, d["players"]):
        assert float(r["p_first"]) == p["p_first"]
        assert [float(r[f"p_place_{k + 1}"]) for k in range(8)] == p["p_place"]


def test_swing_text_does_not_repeat_p_first_where_one_place_qualifies():
    from click.testing import CliRunner

    from simcycle.cli import main
    out = CliRunner().invoke(main, ["swing", "candidates-2022", "--at", "round12", "--sims",
                                    "1000"]).output
    assert "1st % if 1-0  if draw  if 0-1" in out and "qualify %" not in out


@pytest.mark.parametrize("name, at, words", [
    ("candidates-2022", "round9", "after round 9"),
    ("candidates-2022", "start", "before the start"),
    ("candidates-2022", None, "after round 14"),            # every result in the file
    ("grand-prix-2019", "event3-qf", "after event 3's quarter-finals"),
    ("grand-prix-2022", "event2-round3", "after event 2, round 3"),
])
def test_checkpoints_in_words(name, at, words):
    from simcycle.report.words import after_text
    ev = simcycle.load(name)
    assert after_text(ev.format, ev.scenario, at) == words


# every format's results through the one table model: (scenario, checkpoint, swing?, whocan?);
# checkpoints where the runs are short (few games or matches left)
EVERY = [("candidates-2022", "round12", True, True), ("grand-prix-2019", "event4-qf", True, True),
         ("grand-prix-2022", "event3-groups", False, True), ("acp-tour-2004-05", "event3",
                                                             True, True),
         ("grand-swiss-2025", None, False, False), ("cycle-2022", None, False, False)]


def _tables(x) -> list[Table]:
    return x if isinstance(x, list) else [x]


def check_all_media(tables: list[Table], text: str):
    """The command's text is the table model's text renderer; every table with rows renders
    the same rows to CSV, JSON and HTML."""
    assert text == to_text(tables)
    for t in tables:
        assert isinstance(t, Table)
        if t.columns and t.rows:
            check_renderers(t)
        assert to_json(t)["title"] == t.title
    html = to_html(tables, id_="x")
    assert html.count("<section") == 1
    return html


@pytest.mark.parametrize("name,at,swing,whocan", EVERY, ids=[e[0] for e in EVERY])
def test_every_format_every_result_through_one_table_model(name, at, swing, whocan):
    import importlib

    ev = simcycle.load(name)
    fmt = ev.format
    render = importlib.import_module(type(fmt).__module__ + ".render")
    st = ev.standings(at)
    tables = _tables(render.standings_tables(st))
    check_all_media(tables, fmt.render_standings(st.to_json()))
    names = [p.name for p in st.players]
    text = to_text(tables)
    assert all(n.split(",")[0] in text for n in names)      # every player of the table
    od = ev.odds(at)
    check_all_media(_tables(render.odds_tables(od)), fmt.render_odds(od.to_json()))
    if swing:
        sw = ev.swing(at, sims=512)
        tables = swing_tables(sw)
        check_all_media(tables, fmt.render_swing(sw.to_json()))
        assert len(tables) == len(sw.items) + 2          # head, one per game or match, legend
        moved = {p.name for it in sw.items for p in it.rows
                 if max(p.swing_first, p.swing_qualify) >= 0.005}
        shown = {r["name"] for t in tables for r in t.rows}
        assert shown == moved
    if whocan:
        w = ev.whocan(at)
        tables = _tables(render.whocan_tables(w))
        check_all_media(tables, fmt.render_whocan(w.to_json()))
        rows = [r for t in tables for r in t.rows]
        assert len(rows) == sum(len(v) for v in w.targets.values())
        assert {(r["name"], r["status"]) for r in rows} == {
            (x.name, x.status) for v in w.targets.values() for x in v}


def test_place_columns_of_a_large_field_say_21st_22nd_23rd():
    """The place columns of a 116-player Swiss: 21st, 22nd, 23rd (not "21th"), 111th-113th,
    as English writes them; the same labels as the charts (``report.ordinal``)."""
    sim = simcycle.load("grand-swiss-2025").simulate(at="round8", sims=200, seed=1)
    labels = [c.label for c in simulation_table(sim, places=116).columns
              if c.key.startswith("p_place_")]
    assert labels[:4] == ["1st", "2nd", "3rd", "4th"]
    assert labels[10:13] == ["11th", "12th", "13th"]
    assert labels[20:23] == ["21st", "22nd", "23rd"]
    assert labels[110:113] == ["111th", "112th", "113th"]
    assert labels[100:102] == ["101st", "102nd"]
