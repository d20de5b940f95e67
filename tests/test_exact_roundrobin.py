"""Exact enumeration (simcycle/exact.py) of round-robin events: hand-checked play-offs, and the
Monte Carlo kernel (formats/roundrobin/nb.py through driver.run) checked against it."""

import math

import pytest

from conftest import SCENARIOS, write
from simcycle import driver
from simcycle.errors import ScenarioError
from simcycle.formats.roundrobin.exact import _Playoffs, exact_round_robin
from simcycle.formats.base import CompileOptions
from simcycle.formats.roundrobin import FORMAT as RR
from simcycle.formats.roundrobin import rules
from simcycle.formats.shared.schedules import berger_rounds
from simcycle.model import load_model
from simcycle.scenario import load_scenario

CAND = SCENARIOS / "candidates-2022.toml"

# The Candidates 2022 play-off cascade (Asturian Wikipedia, "Tornéu de Candidatos de 2022",
# "Normes", as in scenarios/candidates-2022.toml)
CAND_PLAYOFF = """playoff = [
  [ { tied = [2, 2], kind = "match", control = "rapid-15+10" },
    { tied = [3, 6], kind = "round-robin", control = "rapid-15+10" },
    { tied = [7, 8], kind = "round-robin", control = "rapid-10+5" } ],
  [ { tied = [2, 2], kind = "match", control = "blitz-3+2" },
    { tied = [3, 8], kind = "round-robin", control = "blitz-3+2" } ],
  [ { tied = [2, 8], kind = "sudden-death-knockout", control = "blitz-3+2" } ],
]"""
# A made-up cascade that exercises the other kinds: Armageddon, a lots stage, a stage skipped
# because no option fits, and the fallback lots after the last stage (4 still level).
OTHER_PLAYOFF = """playoff = [
  [ { tied = [2, 2], kind = "match", control = "rapid-15+10" },
    { tied = [3, 4], kind = "round-robin", control = "rapid-15+10" } ],
  [ { tied = [2, 2], kind = "armageddon", control = "armageddon-5v4" } ],
  [ { tied = [3, 3], kind = "lots" } ],
]"""


def four_players(tmp_path, results, *, ratings=(2750, 2760, 2740, 2755), rapid=(None,) * 4,
                 playoff=CAND_PLAYOFF, playoff_places=1, order=None, name="four.toml"):
    """A made-up double round robin of 4 players, Berger schedule (12 games in 6 rounds).

    ``results[r]`` lists the results of round r+1 in the order of berger_rounds(4, 2)[r];
    rounds not listed are unplayed.  Prizes 1000/500 + 10 a half point, 2 qualify."""
    sched = berger_rounds(4, 2)
    text = ('[scenario]\nname = "four"\nformat = "round-robin"\n\n'
            '[event]\ncycles = 2\ncontrol = "classical"\nschedule = "berger"\n'
            'qualifying_places = 2\n\n'
            f'[tiebreak]\nplayoff_places = {playoff_places}\n{playoff}\n')
    if order is not None:
        text += "order = [" + ", ".join(f'"{c}"' for c in order) + "]\n"
    text += '\n[prizes]\nplaces = [1000, 500]\nper_half_point = 10\n\n'
    for i in range(4):
        text += f'[[players]]\nname = "P{i}"\nrating = {ratings[i]}\n'
        if rapid[i] is not None:
            text += f"rapid = {rapid[i]}\nblitz = {rapid[i]}\n"
        text += "\n"
    for r, res in enumerate(results):
        games = ", ".join(f'["P{w}", "P{b}", "{x}"]' for (w, b), x in zip(sched[r], res))
        text += f"[[rounds]]\nround = {r + 1}\ngames = [{games}]\n\n"
    return load_scenario(write(tmp_path, name, text))[1]


@pytest.fixture(scope="module")
def model():
    return load_model()


def drawish_model(tmp_path):
    """The shipped model with the rapid-15+10 and blitz-3+2 draw rates raised to 0.8, so that
    play-offs often go to their second and third stages (a test model, not a fit)."""
    text = open(load_model().path, encoding="utf-8").read()
    for head in ('[controls."rapid-15+10"]', '[controls."blitz-3+2"]'):
        i = text.index(head)
        j = text.index("draw0 = ", i)
        text = text[:j] + "draw0 = 0.80" + text[j + len("draw0 = 0.xx"):]
    return load_model(write(tmp_path, "drawish.toml", text))


DRAWS = ["1/2-1/2", "1/2-1/2"]


# -- (a) hand-checkable cases --------------------------------------------------------------

def test_two_player_tie_closed_form(tmp_path, model):
    # Made-up, all 12 games played: every game drawn except, in the first cycle (rounds 1-3),
    # P0 beats P2 and P1 beats P3; so P0 and P1 end level on 3.5 points (7 half points),
    # P2 and P3 on 2.5, and a play-off decides first.
    sched = berger_rounds(4, 2)
    results = []
    for r in sched:
        row = []
        for w, b in r:
            # one decisive game each for P0 (beats P2) and P1 (beats P3), first cycle only
            if (w, b) in ((0, 2), (2, 0)) and len(results) < 3:
                row.append("1-0" if w == 0 else "0-1")
            elif (w, b) in ((1, 3), (3, 1)) and len(results) < 3:
                row.append("1-0" if w == 1 else "0-1")
            else:
                row.append("1/2-1/2")
        results.append(row)
    scn = four_players(tmp_path, results, rapid=(2700, None, None, None))
    pts, _, _ = rules.tally(4, rules.split_games(scn, None)[0])
    assert pts == [7, 7, 5, 5]
    ex = exact_round_robin(scn, model, None)
    assert ex["games_left"] == 0 and ex["p_playoff"] == 1.0

    # Hand derivation.  Ratings a play-off game uses: P1 has none but classical (2760); P0's
    # rapid/blitz rating is the blend 0.5 * 2700 + 0.5 * 2750 = 2725 (models/davidson-elo-v1.toml
    # rating_blend = 0.5).  For a control c write (w1, d1, l1) = wdl(c, P0 White) and
    # (w2, d2, l2) = wdl(c, P1 White), each from White's side.
    #  Stage 1, two rapid-15+10 games (P0 White first): P0 is ahead after the two games when
    #   he wins one and does not lose the other, or draws one and wins the other:
    #       M0 = w1 (d2 + l2) + d1 l2,  M1 = l1 (d2 + w2) + d1 w2,  level L1 = 1 - M0 - M1.
    #  Stage 2, two blitz-3+2 games: the same formulas with blitz: B0, B1, L2.
    #  Stage 3, sudden-death knock-out of two = one sudden-death mini-match (blitz-3+2): with
    #   P0 White first, P0 wins when he wins the first game, or it is drawn and he wins the
    #   second (Black), or both are drawn and it starts again:
    #       S0|P0 White = (w1 + d1 l2) / (1 - d1 d2),   S0|P1 White = (l2 + d2 w1) / (1 - d1 d2)
    #   (geometric series; the kernel's cap of MAX_SUDDEN_DEATH = 100 games changes it by
    #   (d1 d2)^50, far below 1e-15), first colour by lot: S0 = the mean of the two.
    #  P(P0 first) = M0 + L1 (B0 + L2 S0).
    def wdl(c, a_white):
        r0 = 2725.0 if c != "classical" else 2750.0
        return model.wdl(c, r0, 2760.0) if a_white else model.wdl(c, 2760.0, r0)

    w1, d1, l1 = wdl("rapid-15+10", True)
    w2, d2, l2 = wdl("rapid-15+10", False)
    M0, M1 = w1 * (d2 + l2) + d1 * l2, l1 * (d2 + w2) + d1 * w2
    L1 = 1 - M0 - M1
    w1, d1, l1 = wdl("blitz-3+2", True)
    w2, d2, l2 = wdl("blitz-3+2", False)
    B0, B1 = w1 * (d2 + l2) + d1 * l2, l1 * (d2 + w2) + d1 * w2
    L2 = 1 - B0 - B1
    S0 = 0.5 * ((w1 + d1 * l2) + (l2 + d2 * w1)) / (1 - d1 * d2)
    p0 = M0 + L1 * (B0 + L2 * S0)
    assert 0.3 < p0 < 0.7
    P = ex["players"]
    assert P[0]["p_first"] == pytest.approx(p0, abs=1e-12)
    assert P[1]["p_first"] == pytest.approx(1 - p0, abs=1e-12)
    # the loser of the play-off is second: P0 and P1 take places 1-2 between them
    assert P[0]["p_place"][1] == pytest.approx(1 - p0, abs=1e-12)
    assert P[0]["p_qualify"] == pytest.approx(1.0) and P[1]["p_qualify"] == pytest.approx(1.0)
    c = ex["counters"]
    assert c["play-off reached its second stage"] == pytest.approx(L1, abs=1e-12)
    assert c["play-off reached its third stage"] == pytest.approx(L1 * L2, abs=1e-12)
    # prize: 1000 first, 500 second, + 10 a half point (the scenario above)
    assert P[0]["expected_prize"] == pytest.approx(1000 * p0 + 500 * (1 - p0) + 70)


def test_three_player_round_robin_playoff(tmp_path, model):
    scn = four_players(tmp_path, [], ratings=(2750,) * 4)
    po = _Playoffs(scn, model)
    d = po.round_robin("rapid-15+10", (0, 1, 2))
    assert sum(d.values()) == pytest.approx(1.0, abs=1e-14)
    singles = [d[(i,)] for i in range(3)]
    pairs = [d[p] for p in ((0, 1), (0, 2), (1, 2))]
    assert max(singles) - min(singles) < 1e-14 and max(pairs) - min(pairs) < 1e-14
    # By hand, equal ratings: each game (colours by lot) is won by either player with
    # w = (pw + pb) / 2 and drawn with d = pd (model.wdl at 2750 v 2750).  All three stay
    # level when all three games are drawn or the wins go round in a cycle (2 ways):
    #     P(level) = d^3 + 2 w^3.
    pw, pd, pb = model.wdl("rapid-15+10", 2750.0, 2750.0)
    w = (pw + pb) / 2
    assert d[(0, 1, 2)] == pytest.approx(pd ** 3 + 2 * w ** 3, abs=1e-14)
    # every outcome is one player alone on top, two level on top, or all three level:
    assert 3 * singles[0] + 3 * pairs[0] + d[(0, 1, 2)] == pytest.approx(1.0, abs=1e-14)
    # the whole cascade: each of three equal players wins it with probability 1/3
    win, _, _ = po.cascade((0, 1, 2))
    assert [sum(win[i]) for i in range(3)] == pytest.approx([1 / 3] * 3, abs=1e-12)


def test_three_player_knockout_bracket(tmp_path, model):
    # Lots order x, y, z; the bracket is 4 wide, so the first two in lot order play and the
    # winner meets the third (a bye).  With s(a, b) = P(a beats b in a sudden-death
    # mini-match), each of the 3 players has the bye with probability 1/3:
    #   P(x) = 1/3 [x has the bye: s(y,z) s(x,y) + s(z,y) s(x,z)]
    #        + 1/3 [y has the bye: s(x,z) s(x,y)] + 1/3 [z has the bye: s(x,y) s(x,z)]
    scn = four_players(tmp_path, [], ratings=(2850, 2750, 2650, 2750))
    po = _Playoffs(scn, model)
    d = po.knockout("blitz-3+2", (0, 1, 2))

    def s(a, b):
        return po.sudden_death("blitz-3+2", a, b)

    for x, y, z in ((0, 1, 2), (1, 2, 0), (2, 0, 1)):
        hand = (s(y, z) * s(x, y) + s(z, y) * s(x, z) + 2 * s(x, y) * s(x, z)) / 3
        assert d[x] == pytest.approx(hand, abs=1e-14)
    assert d[0] > d[1] > d[2]
    # s itself: P(a) + P(b) = 1, and for equal ratings 1/2 (first colour by lot)
    assert s(0, 1) + s(1, 0) == pytest.approx(1.0, abs=1e-15)
    assert s(1, 3) == pytest.approx(0.5, abs=1e-15)


def test_place_distribution_is_a_doubly_stochastic_matrix(tmp_path, model):
    scn = four_players(tmp_path, [DRAWS] * 3, ratings=(2750, 2700, 2800, 2750))
    ex = exact_round_robin(scn, model, None)
    assert ex["games_left"] == 6 and ex["total_probability"] == pytest.approx(1.0, abs=1e-12)
    for p in ex["players"]:
        assert sum(p["p_place"]) == pytest.approx(1.0, abs=1e-12)
    for k in range(4):
        assert sum(p["p_place"][k] for p in ex["players"]) == pytest.approx(1.0, abs=1e-12)
    # expected points: each of the 12 games gives 1 point in all
    assert sum(p["expected_points"] for p in ex["players"]) == pytest.approx(12.0)


def test_too_many_games_refused(model):
    scn = load_scenario(CAND)[1]
    with pytest.raises(ScenarioError, match="16 games left"):
        exact_round_robin(scn, model, "round10")   # 4 rounds x 4 games left
    with pytest.raises(ScenarioError, match="checkpoint"):
        RR.exact(scn, model, "round99")


# -- (b) the Monte Carlo kernel against the enumeration --------------------------------------

def _compare(scn, model, at, sims, seed, k=4.0):
    """Every p_place, p_qualify and counter within k SE (SE from the exact p, + 1e-9), expected
    points and prizes within k of the Monte Carlo SE.  Returns the largest |MC - exact| / SE."""
    ex = exact_round_robin(scn, model, at)
    res = driver.run(RR.compile(scn, model, CompileOptions(at=at)), sims, seed, progress=False)
    worst = 0.0
    bad = []

    def check(what, e, mc, se):
        nonlocal worst
        z = abs(mc - e) / se
        worst = max(worst, z)
        if z > k:
            bad.append(f"{what}: exact {e:.6g}, MC {mc:.6g}, {z:.1f} SE")

    def se_p(p):
        return math.sqrt(p * (1 - p) / sims) + 1e-9

    for pe, pm in zip(ex["players"], res.players()):
        assert pe["name"] == pm["name"]
        for j, (e, mc) in enumerate(zip(pe["p_place"], pm["p_place"])):
            check(f"{pe['name']} place {j + 1}", e, mc, se_p(e))
        check(f"{pe['name']} first", pe["p_first"], pm["p_first"], se_p(pe["p_first"]))
        check(f"{pe['name']} qualify", pe["p_qualify"], pm["p_qualify"], se_p(pe["p_qualify"]))
        check(f"{pe['name']} points", pe["expected_points"], pm["expected_points"],
              pm["se_expected_points"] + 1e-9)
        check(f"{pe['name']} prize", pe["expected_prize"], pm["expected_prize"],
              pm["se_expected_prize"] + 1e-9)
    mc_counters = res.counters()
    for name, e in ex["counters"].items():
        check(name, e, mc_counters[name]["p"], se_p(e))
    assert not bad, "\n".join(bad)
    return ex, worst


def test_candidates_round12_monte_carlo_matches_exact(model):
    scn = load_scenario(CAND)[1]
    ex, worst = _compare(scn, model, "round12", 1_000_000, 2022)
    # 8 games left; a play-off for first needs Nepomniachtchi (8.5) to lose both and Ding or
    # Nakamura (6.5) to win both: rare but possible (standings after round 12:
    # Asturian Wikipedia, "Tornéu de Candidatos de 2022", "Resultaos por partía",
    # the "Ptos." columns of "Ronda 13")
    assert ex["games_left"] == 8 and 1e-4 < ex["p_playoff"] < 1e-3
    assert worst < 4.0


@pytest.mark.parametrize("variant", ["candidates-cascade", "other-cascade", "no-playoff"])
def test_tie_heavy_four_players_monte_carlo_matches_exact(tmp_path, variant):
    # made-up: the first cycle (rounds 1-3) all drawn, so all four are level with 3 rounds
    # (6 games) left; play-off games drawn 80 % of the time (drawish_model)
    model = drawish_model(tmp_path)
    kw = {"candidates-cascade": {},
          "other-cascade": {"playoff": OTHER_PLAYOFF},
          "no-playoff": {"playoff_places": 0,
                         "order": ["wins", "head-to-head", "sonneborn-berger"]}}[variant]
    scn = four_players(tmp_path, [DRAWS] * 3, rapid=(2800, None, 2700, None), **kw)
    ex, worst = _compare(scn, model, None, 1_000_000, 7)
    c = ex["counters"]
    if variant == "no-playoff":
        assert c["play-off for first needed"] == 0.0
    else:
        # ties for first are frequent here (exact: 0.330), and the cascade goes deep:
        # exact P(third stage) 0.101 with the Candidates cascade, 0.0023 with the other one
        assert ex["p_playoff"] > 0.3
        assert c["play-off reached its third stage"] > (0.05 if variant == "candidates-cascade"
                                                         else 0.001)
    assert worst < 4.0
