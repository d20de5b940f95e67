"""swing for knock-out and group series: outcome probabilities add up, and the conditional odds
mix back to the unconditional ones (law of total probability) within Monte Carlo error.

The mixture and the unconditional estimate share random numbers, so the standard error of their
difference is at most SE(mix) + SE(base) <= 2 SE; the tests allow 4 of those (8 SE)."""

import json

from click.testing import CliRunner

from conftest import SCENARIOS
from simcycle.cli import main
from simcycle.formats.knockout_series import FORMAT as KS
from simcycle.model import load_model
from simcycle.scenario import load_scenario

GP19 = SCENARIOS / "grand-prix-2019.toml"


def test_knockout_swing_mixes_back_to_the_unconditional_odds():
    scn = load_scenario(GP19)[1]
    n = 40000
    d = KS.swing(scn, load_model(), "event3-qf", sims=n, seed=3)
    odds = {tuple(m["players"]): m for m in KS.odds(scn, load_model(), "event3-qf")["matches"]}
    now = {p["name"]: p for p in d["now"]}
    assert [m["round"] for m in d["matches"]] == ["sf", "sf"]     # Hamburg semi-finals next
    for m in d["matches"]:
        ps = [o["p"] for o in m["outcomes"]]
        assert abs(sum(ps) - 1) < 1e-12 and min(ps) > 0
        o = odds[tuple(m["players"])]           # the same match in `odds`
        assert len(ps) == 6   # 2-0, 1.5-0.5, tiebreaks for the upper player, then the lower
        assert abs(ps[0] + ps[1] + ps[2] - o["p_win"][0]) < 1e-12
        assert abs(ps[2] + ps[3] - o["p_tiebreak"]) < 1e-12
        for row in m["swing"]:
            for key in ("p_first", "p_qualify"):
                mix = sum(p * x for p, x in zip(ps, row[key]))
                p0 = now[row["name"]][key]
                q = max(p0, mix)
                se = (q * (1 - q) / n) ** 0.5
                assert abs(mix - p0) < 8 * se + 3 / n, (m["players"], row["name"], key)
        # the winner of a semi-final can only gain from winning it
        up = next(r for r in m["swing"] if r["name"] == m["players"][0])
        assert min(up["p_first"][:3]) >= max(up["p_first"][3:])


def test_swing_cli_for_series_and_refusals():
    r = CliRunner().invoke(main, ["swing", str(GP19), "--at", "event4-sf", "--sims", "2000",
                                  "--json"])
    d = json.loads(r.output)
    assert [m["round"] for m in d["matches"]] == ["final"]
    r = CliRunner().invoke(main, ["swing", str(GP19), "--sims", "2000"])
    assert r.exit_code == 2 and "no match left" in r.output
    r = CliRunner().invoke(main, ["swing", str(GP19), "--at", "event2", "--round", "3"])
    assert r.exit_code == 2 and "--round" in r.output


def test_group_swing_mixes_back_to_the_unconditional_odds():
    gs, scn = load_scenario(SCENARIOS / "grand-prix-2022.toml")
    n = 30000
    # the last group round of event 3: a fixed result completes a group (its places follow)
    d = gs.swing(scn, load_model(), "event3-round5", sims=n, seed=5)
    assert d["round"] == 6 and len(d["games"]) == 8          # 4 groups x 2 games
    now = {p["name"]: p for p in d["now"]}
    for g in d["games"]:
        w = {"1-0": g["p_white"], "1/2-1/2": g["p_draw"], "0-1": g["p_black"]}
        assert abs(sum(w.values()) - 1) < 1e-12
        for row in g["players"]:
            for key in ("p_first", "p_qualify"):
                mix = sum(w[k] * row[key][k] for k in w)
                p0 = now[row["name"]][key]
                q = max(p0, mix)
                assert abs(mix - p0) < 8 * (q * (1 - q) / n) ** 0.5 + 3 / n, (g["white"],
                                                                              row["name"])
        white = next(r for r in g["players"] if r["name"] == g["white"])["p_qualify"]
        assert white["1-0"] >= white["0-1"] - 5 * (0.25 / n) ** 0.5
    r = CliRunner().invoke(main, ["swing", str(SCENARIOS / "grand-prix-2022.toml"), "--at",
                                  "event3-round5", "--round", "2", "--sims", "2000"])
    assert r.exit_code == 2 and "--round" in r.output      # round 2 of event 3 is played


def test_group_series_knockout_swing_mixes_back():
    gs, scn = load_scenario(SCENARIOS / "grand-prix-2022.toml")
    n = 30000
    for at, rounds in (("event2-groups", ["sf1", "sf2"]), ("event2-sf", ["final"])):
        d = gs.swing(scn, load_model(), at, sims=n, seed=8)
        assert [m["round"] for m in d["matches"]] == rounds
        now = {p["name"]: p for p in d["now"]}
        for m in d["matches"]:
            ps = [o["p"] for o in m["outcomes"]]
            assert abs(sum(ps) - 1) < 1e-12 and min(ps) > 0
            for row in m["swing"]:
                for key in ("p_first", "p_qualify"):
                    mix = sum(p * x for p, x in zip(ps, row[key]))
                    p0 = now[row["name"]][key]
                    q = max(p0, mix)
                    assert abs(mix - p0) < 8 * (q * (1 - q) / n) ** 0.5 + 3 / n, (at, row["name"])
    r = CliRunner().invoke(main, ["swing", str(SCENARIOS / "grand-prix-2022.toml"),
                                  "--sims", "2000"])
    assert r.exit_code == 2 and "knock-out match" in r.output
