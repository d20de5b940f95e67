"""``simcycle odds`` on a Swiss: the next round's published boards when the scenario has
them; otherwise the boards the Dutch pairing kernel makes from the results so far (the
pairing is a function of those results), each with the outcome model's W/D/L."""

from __future__ import annotations

from click.testing import CliRunner

from conftest import SCENARIOS
from simcycle.cli import main
from simcycle.formats.swiss import rules
from simcycle.model import load_model
from simcycle.scenario import load_scenario

GS = SCENARIOS / "grand-swiss-2025.toml"


def test_published_then_predicted_boards():
    fmt, scn = load_scenario(GS)
    model = load_model(None).for_kind(scn.kind)
    names = scn.names
    # after round 7 the scenario has round 8's pairing: shown as published, board by board
    d = fmt.odds(scn, model, "round7")
    real8 = [(names[g.white], names[g.black]) for g in scn.games if g.round == 8]
    assert d["published"] and not d["predicted"]
    assert [(g["white"], g["black"]) for g in d["games"]] == real8
    # after round 8 nothing is published: the kernel's pairing of the standings
    d = fmt.odds(scn, model, "round8")
    assert not d["published"] and d["predicted"] and d["round"] == 9
    boards = rules.kernel_pairing(scn, 8)
    assert [(g["white"], g["black"]) for g in d["games"]] == [
        (names[w], names[b]) for w, b in boards if b >= 0]
    seen = [p for g in d["games"] for p in (g["white"], g["black"])]
    assert sorted(seen) == sorted(names)            # 116 players, each on one board
    met = {frozenset((names[g.white], names[g.black])) for g in scn.games}
    assert not any(frozenset((g["white"], g["black"])) in met for g in d["games"])
    for g in d["games"]:
        assert abs(g["p_white"] + g["p_draw"] + g["p_black"] - 1) < 1e-12
    # board 1 holds two of the leaders after round 8
    pts = {names[i]: p for i, p in enumerate(rules.crosstable(scn, 8).res.sum(1))}
    top = max(pts.values())
    assert pts[d["games"][0]["white"]] >= top - 1 and pts[d["games"][0]["black"]] >= top - 1


def test_kernel_pairing_reproduces_a_real_round():
    # round 2 of the 2025 open: the kernel's pairing of round 1's results is the real one
    # (docs/format-swiss.md, pairing fidelity: round 2, 100 % of pairs and colours)
    _, scn = load_scenario(GS)
    real2 = [(g.white, g.black) for g in scn.games if g.round == 2]
    assert sorted(rules.kernel_pairing(scn, 1)) == sorted(real2)


def test_the_command_says_the_boards_are_predicted():
    r = CliRunner().invoke(main, ["odds", str(GS), "--at", "round8"])
    assert r.exit_code == 0, r.output
    assert "round 9 (predicted pairings;" in r.output and "may differ" in r.output
    assert "1-0 %, draw %, 0-1 %: the chance of each result" in r.output


def test_the_report_table_carries_the_note():
    from simcycle.api.results import Odds
    from simcycle.report.table import odds_table
    fmt, scn = load_scenario(GS)
    d = fmt.odds(scn, load_model(None).for_kind(scn.kind), "round8")
    t = odds_table(Odds.from_json(d))
    assert len(t.rows) == 58 and any("may differ" in n for n in t.notes)
