"""The HTML report: one self-contained page per shipped scenario, rendered by headless Chromium
(the screenshot must show the page and its chart; the console must stay clean)."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import SCENARIOS
from simcycle.cli import main
from simcycle.commentary.branches import needs
from simcycle.commentary.scores import scores
from simcycle.formats.roundrobin.rules import fmt_points
from simcycle.model import load_model
from simcycle.report.html import pct
from simcycle.scenario import load_scenario

SHIPPED = sorted(str(p) for p in SCENARIOS.glob("*.toml"))
CAND = str(SCENARIOS / "candidates-2022.toml")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# the history chart's line colours (report.words.PALETTE: one colour per player)
from simcycle.report.words import PALETTE  # noqa: E402

LINE_COLOURS = [tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in PALETTE]


def ok(*args):
    r = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return r.output


def report(tmp_path, scenario, *extra):
    out = tmp_path / (Path(scenario).stem + ".html")
    ok("report", scenario, "-o", out, "--sims", 2000, "--swing-sims", 1000, *extra)
    return out


def self_contained(page: str) -> None:
    low = page.lower()
    for bad in ("http://", "https://", "//cdn", "<script", "<link", "<img", "@import",
                "<iframe", "src="):
        assert bad not in low, bad


@pytest.mark.parametrize("scenario", SHIPPED, ids=lambda p: p.rsplit("/", 1)[-1])
def test_report_of_every_shipped_scenario(tmp_path, scenario):
    out = report(tmp_path, scenario)
    page = out.read_text(encoding="utf-8")
    self_contained(page)
    for section in ("standings", "odds", "next", "needs", "history", "swing", "scores", "whocan",
                    "about"):
        assert f'<section id="{section}">' in page
    history = _section(page, "history")
    if "one checkpoint so far: no history to draw yet" in page:   # at its start (2020)
        assert history.count("<svg") == 0
    else:
        assert history.count("<svg") == 1 and "the odds after each checkpoint" in history
    if "grand-swiss" in scenario:      # mid-event: the score-is-enough chart as well
        assert _section(page, "scores").count("<svg") == 1
    assert "davidson-elo" in page and "2,000 simulations" in page and "seed" in page
    if "acp-tour" in scenario:
        assert "has no swing analysis" not in page and "has no exact who-can analysis" not in page
        # the tour's swing: each member's place in the next event (formats/tour/swing.py)
        assert "Illustrative Round Robin II (organisers declined): Cedar&#x27;s place" in (
            _section(page, "swing"))
        assert "Cedar" in page.split('<section id="whocan">')[1].split("</section>")[0]
    if "cycle-2020" in scenario:       # the Candidates 2020 still to play: its round 1 swings
        sw = _section(page, "swing")
        assert "has no swing analysis" not in sw and "Fabiano Caruana" in sw
    if "cycle-2022" in scenario:       # every part complete
        assert "nothing left to play in any part" in _section(page, "swing")
    if "candidates-2022" in scenario:  # complete: nothing left to swing, the winner clinched
        assert "nothing left to play" in page
        assert re.search(r"clinched</td><td class=l>Ian Nepomniachtchi", page)


def test_report_mid_event_has_swing_and_paths_in_words(tmp_path):
    page = report(tmp_path, CAND, "--at", "round12").read_text(encoding="utf-8")
    assert "Next round&#x27;s swing (round 13)" in page
    assert ("Ian Nepomniachtchi's own:</b> round 13: Ian Nepomniachtchi beats Richárd Rapport; "
            "round 14: Ian Nepomniachtchi beats Jan-Krzysztof Duda (with Black).") in page
    assert re.search(r"round 1[34]: [^;<]+ (beats|and [^;<]+ draw)", page)
    assert "Standings after round 12" in page and "Next round (13)" in page
    assert "/models/" not in page                   # the model file by its name, no path
    # the next round's 4 games x 3 results as what-ifs to click (CSS only: no script)
    wi = page[page.index('<section id="whatif">'):]
    wi = wi[:wi.index("</section>")]
    assert wi.count("<input type=radio") == 1 + 4 * 3 and wi.count('class=wip id=') == 13
    assert "Ian Nepomniachtchi – Richárd Rapport 0-1 (not played)" in wi
    # what each player needs from round 13 (exact: 8 games left) and what score is enough,
    # each as the command line computes it (commentary/branches.py, commentary/scores.py)
    fmt, scn = load_scenario(CAND)
    model = load_model(scn.model_file).for_kind(scn.kind)     # as the command line's
    nd = needs(fmt, scn, model, "round12")
    sec = _section(page, "needs")
    assert "What each player needs from round 13" in sec and "exact" in sec
    for p in nd.players:
        rows = re.findall(r"<tr><td class=l>([^<]+)</td><td>([^<]+) %</td><td>([^<]+) %",
                          sec.split(f"{p.name}: P(1st)", 1)[1].split("</table>", 1)[0])
        assert [(r[0], r[1], r[2]) for r in rows] == [
            (b.label, pct(b.p), pct(b.p_first)) for b in p.branches]
    sc = scores(fmt, scn, model, "round12")
    sec = _section(page, "scores")
    assert page.count("<svg") == 2 and "what score is enough chart" in sec
    nepo = next(p for p in sc.players if p.name == "Ian Nepomniachtchi")
    table = sec.split("Ian Nepomniachtchi: P(1st)", 1)[1].split("</table>", 1)[0]
    assert f"more likely than not first from {fmt_points(nepo.enough)} points" in table
    got = re.findall(r"<tr><td>([^<]+)</td><td>[^<]+</td><td><b>([^<]+) %</b>", table)
    assert got == [(fmt_points(r.points), pct(r.first_given)) for r in nepo.rows if r.p > 0]
    gp = report(tmp_path, str(SCENARIOS / "grand-prix-2019.toml"), "--at", "event3-qf")
    page = gp.read_text(encoding="utf-8")
    assert "Hamburg sf:" in page and "(1) Maxime Vachier-Lagrave wins 2-0: " in page
    # the series' branches are simulated (± a standard error)
    sec = _section(page, "needs")
    assert "Maxime Vachier-Lagrave: P(1st)" in sec and "beats Alexander Grischuk" in sec
    assert "simulations per branch" in sec and "class=se>±" in sec
    # the series' score tables: simulated (4,096 runs at least), by final GP points, as
    # ``scores`` computes them with the same seed; P(1st | final) = alone + level
    fmt, scn = load_scenario(SCENARIOS / "grand-prix-2019.toml")
    model = load_model(scn.model_file).for_kind(scn.kind)
    sc = scores(fmt, scn, model, "event3-qf", exact=False, sims=4096, seed=1)
    sec = _section(page, "scores")
    assert "Simulated, 4,096 runs" in sec and "what score is enough chart" in sec
    assert "<th>final GP points</th>" in sec and "level on points" in sec
    mvl = next(p for p in sc.players if p.name == "Maxime Vachier-Lagrave")
    table = sec.split("Maxime Vachier-Lagrave: P(qualify)", 1)[1].split("</table>", 1)[0]
    assert f"to qualify from {fmt_points(mvl.enough_qualify)} GP points" in table
    got = re.findall(r"<tr><td>([^<]+)</td><td>[^<]+</td><td><b>([^<]+) %</b></td>"
                     r"<td>([^<]+) %</td>", table)
    assert got == [(fmt_points(r.points), pct(r.p_qualify / r.p), pct(r.first_given))
                   for r in mvl.rows if r.p >= 0.0005 or r.p_qualify > 0 or r.p_first > 0]
    assert len(got) >= 3
    for r in mvl.rows:
        assert abs(r.first["outright"] + r.first["tiebreak"] - r.p_first) < 1e-12


def _section(page: str, name: str) -> str:
    sec = page[page.index(f'<section id="{name}">'):]
    return sec[:sec.index("</section>")]


def test_report_with_what_ifs_says_them(tmp_path):
    # after round 12 (scenarios/candidates-2022.toml), assume Nepomniachtchi loses to Rapport
    # in round 13: the swing is then about the other three games of round 13
    page = report(tmp_path, CAND, "--at", "round12", "--fix",
                  "r13 Nepomniachtchi-Rapport 0-1").read_text(encoding="utf-8")
    assert '<section id="assumed">' in page
    assert "round 13: Ian Nepomniachtchi - Richárd Rapport 0-1" in page
    swing = page[page.index('<section id="swing">'):]
    swing = swing[:swing.index("</section>")]
    assert "Firouzja" in swing and "Rapport" not in swing
    plain = report(tmp_path, CAND, "--at", "round12").read_text(encoding="utf-8")
    assert '<section id="assumed">' not in plain


def test_report_escapes_every_text(tmp_path):
    text = Path(CAND).read_text(encoding="utf-8").replace(
        'name = "Candidates Tournament 2022"',
        'name = "Candidates <script>alert(1)</script> & \\"Co\\""').replace(
        'name = "Ding Liren"', 'name = "Ding <b>Liren</b>"').replace(
        '"Ding Liren"', '"Ding <b>Liren</b>"')
    p = tmp_path / "x.toml"
    p.write_text(text, encoding="utf-8")
    page = report(tmp_path, p, "--at", "round10").read_text(encoding="utf-8")
    assert "<script" not in page and "<b>Liren" not in page
    assert "Candidates &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;" in page
    assert "Ding &lt;b&gt;Liren&lt;/b&gt;" in page


def test_report_refuses_what_is_not_html(tmp_path):
    r = CliRunner().invoke(main, ["report", CAND, "-o", str(tmp_path / "r.pdf")])
    assert r.exit_code == 2 and "name the file *.html" in r.stderr
    r = CliRunner().invoke(main, ["report", CAND])
    assert r.exit_code == 2 and "-o" in r.stderr


# ---- a real browser ------------------------------------------------------------------------
def chromium(tmp_path, url, *args, timeout=120):
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--disable-extensions", "--hide-scrollbars",
         f"--user-data-dir={tmp_path / 'chromium-profile'}", "--enable-logging=stderr",
         "--v=0", *args, url], capture_output=True, text=True, timeout=timeout)


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed: apt-get install chromium")
@pytest.mark.parametrize("scenario", SHIPPED, ids=lambda p: p.rsplit("/", 1)[-1])
def test_report_renders_in_headless_chromium(tmp_path, scenario):
    from matplotlib.image import imread
    import numpy as np

    out = report(tmp_path, scenario)
    url = out.resolve().as_uri()
    dom = chromium(tmp_path, url, "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert '<section id="history">' in dom.stdout and "</html>" in dom.stdout
    for bad in ("Uncaught", "ERROR:CONSOLE", "Failed to load resource", "net::ERR_"):
        assert bad not in dom.stderr, dom.stderr[-2000:]
    shot = tmp_path / "shot.png"
    r = chromium(tmp_path, url, f"--screenshot={shot}", "--window-size=1200,6000")
    assert r.returncode == 0 and shot.exists(), r.stderr[-2000:]
    img = (imread(str(shot))[..., :3] * 255).astype(np.int16)
    assert img.shape[:2] == (6000, 1200)
    colours = {tuple(x) for x in img.reshape(-1, 3)[::37]}
    assert len(colours) > 200                                  # text, tables, a chart
    header = img[:60, :600].reshape(-1, 3)
    assert (np.abs(header - (29, 43, 68)).sum(1) < 12).mean() > 0.5   # the page's header
    lines = sum(int((np.abs(img - c).sum(2) < 30).sum()) for c in LINE_COLOURS)
    assert lines > 500, lines                                  # the chart's lines are drawn


def test_certain_probabilities_read_the_same_in_text_page_and_commentary():
    # an exact branch's odds are a sum of leaves: 0.1 x 1.0 + 0.3 x 1.0 over 0.4 is
    # 0.9999999999999999, which the needs text wrote "100 %" and the page ">99.9 %"; every
    # medium now writes a probability with report.percent (certain up to report.CERTAIN)
    from simcycle.commentary.branches import _combine, _pct
    from simcycle.report import CERTAIN, percent

    mixed = _combine((["1-0"], 0.1, 0.0, 1.0, 0.0, 0.0),
                     (["1/2-1/2"], 0.3, 0.0, 1.0, 0.0, 0.0))[3]
    assert mixed != 1.0 and 1.0 - mixed < CERTAIN
    cases = {1.0: "100", mixed: "100", 0.0: "0", 1e-17: "0", 1 - 1e-6: ">99.9",
             1e-6: "<0.1", 0.5: "50.0", 0.99949: "99.9"}
    for p, want in cases.items():
        assert percent(p) == want, p
        assert _pct(p) == f"{want} %", p
        assert pct(p) == want.replace(">", "&gt;").replace("<", "&lt;"), p
    # a simulated share k/n is certain only when it is 0 or n
    n = 100_000_000
    assert percent((n - 1) / n) == ">99.9" and percent(1 / n) == "<0.1"
