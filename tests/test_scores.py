"""``scores`` (what score is enough): every row's split (outright + tiebreak + play-off +
lots) adds up to the player's P(1st and that score), the rows to the exact enumeration's
P(1st), the scores' probabilities to 1; the split follows the rules (alone on points is
outright; a Candidates tie for first goes to the play-off)."""

import json

import msgspec

from click.testing import CliRunner

from conftest import SCENARIOS
from simcycle.cli import main
from simcycle.commentary.scores import HOW, render, scores
from simcycle.model import load_model
from simcycle.scenario import load_scenario

CAND = SCENARIOS / "candidates-2022.toml"


def _fixed(fmt, scn, at, texts):
    out = {}
    for t in texts:
        out.update(fmt.parse_fix(scn, t, at, "--fix", out))
    return out


def test_rows_sum_to_p_first_at_every_score_and_match_exact():
    fmt, scn = load_scenario(CAND)
    model = load_model()
    fixed = _fixed(fmt, scn, "round12", ["r13 Nepomniachtchi - Rapport 0-1",
                                         "r13 Firouzja - Ding 0-1"])
    d = scores(fmt, scn, model, "round12", fixed)
    ex = {p["name"]: p for p in fmt.exact(scn, model, "round12", fixed=fixed)["players"]}
    seen = set()
    for p in d.players:
        assert abs(sum(r.p for r in p.rows) - 1) < 1e-12
        assert abs(p.p_first - ex[p.name]["p_first"]) < 1e-12
        assert abs(p.p_qualify - ex[p.name]["p_qualify"]) < 1e-12
        for r in p.rows:
            assert abs(sum(r.first[k] for k in HOW) - r.p_first) < 1e-12, (p.name, r.points)
            assert r.p_first <= r.p + 1e-12
            seen |= {k for k in HOW if r.first[k] > 0}
        first = [r.points for r in p.rows if r.first_given > 0.5]
        assert p.enough == (first[0] if first else None)
    assert {"outright", "playoff"} <= seen      # a tie for first goes to the play-off
    nepo = next(p for p in d.players if p.name == "Ian Nepomniachtchi")
    top = nepo.rows[-1]                         # 9½: nobody can reach it
    assert top.points == 9.5 and top.first_given == 1.0
    assert abs(top.first["outright"] - top.p) < 1e-12 and abs(top.p_first - top.p) < 1e-12


def test_scores_cli_and_refusals(tmp_path):
    png = tmp_path / "s.png"
    r = CliRunner().invoke(main, ["scores", str(CAND), "--at", "round13", "--json", "--plot",
                                  str(png)])
    assert r.exit_code == 0, r.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    d = json.loads(r.output)
    assert d["games_left"] == 4 and d["players"][0]["name"] == "Ian Nepomniachtchi"
    r = CliRunner().invoke(main, ["scores", str(CAND), "--at", "round5", "--exact"])
    assert r.exit_code == 2 and "games left" in r.output
    r = CliRunner().invoke(main, ["scores", str(SCENARIOS / "acp-tour-2004-05.toml")])
    assert r.exit_code == 2 and "round robins" in r.output


def test_simulated_table_matches_exact_within_3_se_and_the_kernel():
    """Simulated (``scores_nb``: the round-robin stage replica by replica): every share is the
    exact one within 3 standard errors (round 12 of the Candidates 2022, 8 games left), its
    rows add up to the player's P(1st) and every split to its row, and P(1st) is the
    simulation kernel's own tally on the same replicas (seed, index)."""
    import math

    from simcycle.formats.base import CompileOptions

    fmt, scn = load_scenario(CAND)
    model = load_model()
    ex = scores(fmt, scn, model, "round12")
    d = scores(fmt, scn, model, "round12", exact=False, sims=8192, seed=5)
    assert ex.exact and not d.exact and d.sims == 8192 and d.games_left == ex.games_left
    n = d.sims
    want = {(p.name, r.points): r for p in ex.players for r in p.rows}
    split_seen = set()
    for p in d.players:
        assert abs(sum(r.p for r in p.rows) - 1) < 1e-12
        assert abs(sum(r.p_first for r in p.rows) - p.p_first) < 1e-12
        for r in p.rows:
            assert abs(sum(r.first.values()) - r.p_first) < 1e-12
            e = want[(p.name, r.points)]            # a simulated score is a possible one
            for got, exp in [(r.p, e.p), (r.p_first, e.p_first), (r.p_qualify, e.p_qualify)] \
                    + [(r.first[k], e.first[k]) for k in HOW]:
                se = math.sqrt(exp * (1 - exp) / n)
                assert abs(got - exp) <= 3 * se + 1 / n, (p.name, r.points, got, exp)
            split_seen |= {k for k in HOW if r.first[k] > 0}
    assert {"outright", "playoff"} <= split_seen
    plan = fmt.compile(scn, model, CompileOptions(at="round12"))
    place = plan.run_batch(5, 0, n)["place"]
    names = list(plan.info.names)
    for p in d.players:
        assert p.p_first == place[names.index(p.name), 0] / n


def _series_check(fmt, scn, at, seed):
    """Rows by series points: they add up to P(1st) and P(qualify), each split to its row, and
    both are the format's own simulation tallies on the same replicas (seed, index)."""
    from simcycle.formats.base import CompileOptions

    model = load_model()
    d = scores(fmt, scn, model, at, sims=1024, seed=seed)
    assert d.series and not d.exact and d.sims == 1024
    plan = fmt.compile(scn, model, CompileOptions(at=at))
    t = plan.run_batch(seed, 0, 1024)
    names = list(plan.info.names)
    for p in d.players:
        i = names.index(p.name)
        assert p.p_first == t["place"][i, 0] / 1024
        assert p.p_qualify == t["qualify"][i] / 1024
        assert abs(sum(r.p for r in p.rows) - 1) < 1e-12
        assert abs(sum(r.p_first for r in p.rows) - p.p_first) < 1e-12
        assert abs(sum(r.p_qualify for r in p.rows) - p.p_qualify) < 1e-12
        for r in p.rows:
            assert abs(sum(r.first.values()) - r.p_first) < 1e-12
            assert r.p_qualify <= r.p + 1e-12
        q = [r.points for r in p.rows if r.p_qualify / r.p > 0.5]
        assert p.enough_qualify == (q[0] if q else None)
    return d


def test_series_scores_knockout_and_group_series():
    fmt, scn = load_scenario(SCENARIOS / "grand-prix-2019.toml")
    d = _series_check(fmt, scn, "event4-qf", 3)
    mvl = next(p for p in d.players if p.name == "Maxime Vachier-Lagrave")
    assert len(mvl.rows) >= 3                     # Jerusalem's semi-final and final left
    fmt, scn = load_scenario(SCENARIOS / "grand-prix-2022.toml")
    d = _series_check(fmt, scn, "event3-sf", 4)
    text = render(msgspec.to_builtins(d))
    assert "P(qualify|final)" in text and "GP points" in text


CYCLE = SCENARIOS / "cycle-2022.toml"


def test_cycle_scores_are_its_finals_table_from_a_checkpoint_of_the_final_on():
    # the cycle's question is winning its final (the Candidates, a round robin); at a
    # checkpoint of the final its field is known and its table is the final's, exact with 8
    # games left: P(wins the final) by final score, rows summing to it at every score
    fmt, scn = load_scenario(CYCLE)
    model = load_model()
    d = scores(fmt, scn, model, "candidates-round12")
    assert d.at == "candidates-round12" and d.exact and d.games_left == 8
    assert d.scenario.endswith("Candidates Tournament 2022")
    cfmt, cscn = load_scenario(CAND)
    ex = {p["name"]: p for p in cfmt.exact(cscn, model.for_kind(cscn.kind), "round12")["players"]}
    assert {p.name for p in d.players} == set(ex)
    for p in d.players:
        assert abs(p.p_first - ex[p.name]["p_first"]) < 1e-12
        assert abs(sum(r.p for r in p.rows) - 1) < 1e-12
        for r in p.rows:
            assert abs(sum(r.first[k] for k in HOW) - r.p_first) < 1e-12, (p.name, r.points)


def test_cycle_scores_refused_before_its_final_in_one_line():
    r = CliRunner().invoke(main, ["scores", str(CYCLE), "--at", "gp-event2"])
    assert r.exit_code == 2
    line = r.output.strip()
    assert "\n" not in line and "cycle-2022.toml" in line and "--at" in line
    assert "gp-event2" in line and "candidates-round1" in line
