"""Kernel of the group-series format (simcycle.formats.group_series.nb) against its plain-Python
twin (simcycle.reference.groups), against exact enumeration, and on every tie shape.

Sources: [RU] Russian Wikipedia, "Гран-при ФИДЕ 2022",
https://ru.wikipedia.org/wiki/Гран-при_ФИДЕ_2022 ."""

import math

import numpy as np
import pytest

from simcycle.enums import (BLACK_WINS, DRAW, KO_DECIDED, KO_IN_PROGRESS, KO_OPEN,
                            STEP_ARMAGEDDON, STEP_GAMES, UNKNOWN_TB_STEP, UNPLAYED, WHITE_WINS)
from simcycle.kernels.config import CHUNK
from simcycle.formats.base import CompileOptions
from simcycle.formats.group_series.nb import simulate_group_nb
from simcycle.formats.group_series.rules import schedule
from simcycle.model import load_model
from simcycle.reference import groups as RG
from simcycle.scenario import load_scenario

SCENARIO = "scenarios/grand-prix-2022.toml"
GP6 = np.array([42, 24, 12, 0], np.int64)  # 7/4/2/0 points ([RU] rules) in sixths
ELIM, FIRST_ONLY = 0, 1
NEXT, RESTART = 0, 1


@pytest.fixture(scope="module")
def model():
    return load_model()


@pytest.fixture(scope="module")
def gp():
    return load_scenario(SCENARIO)


def steps_for(model):
    ctl = [model.index(c) for c in ("classical", "rapid-15+10", "blitz-3+2", "armageddon-5v4")]
    return np.array([[STEP_GAMES, ctl[0], 2], [STEP_GAMES, ctl[1], 2],
                     [STEP_GAMES, ctl[2], 2], [STEP_ARMAGEDDON, ctl[3], 1]], np.int64)


def compile_at(mod, scn, model, at, offsets=False):
    return mod.compile(scn, model, CompileOptions(at=at, offsets=offsets))


def run_group(model, tab, games, n, seed=11, places=ELIM, reduced=NEXT):
    players = np.arange(4, dtype=np.int64)
    nc = (n + CHUNK - 1) // CHUNK
    hist = np.zeros((nc, 4, 43), np.int64)
    simulate_group_nb(np.uint64(seed), np.int64(0), np.int64(n), model.params, tab,
                      steps_for(model), players, games, GP6, np.int64(places), np.int64(reduced),
                      hist)
    return hist.sum(0)


def games_from_scores(rows):
    """rows[i][j] = (i's score with White v j, i's score with Black v j) -> 12 games
    [round, white slot, black slot, result]; rounds from the Berger schedule."""
    out = []
    for rd, w, b in schedule("berger-swapped"):
        s = rows[w][b][0]
        out.append([rd, w, b, {1.0: 0, 0.5: 1, 0.0: 2}[s]])
    return np.array(out, np.int64)


def forced_tab(win=None, draws=(), white_wins=()):
    """Threshold table [1 segment, model controls, 4, 4, 2] of (P White wins, P White wins or
    draws) for the match steps' controls k = 0 classical, 1 rapid, 2 blitz, 3 Armageddon:
    win[k] is a strength order (earlier always beats later, with either colour); controls in
    ``draws`` always drawn; in ``white_wins`` White always wins."""
    rows = steps_for(load_model())[:, 1]
    tab = np.zeros((1, int(rows.max()) + 1, 4, 4, 2))
    for k in range(4):
        ci = rows[k]
        for w in range(4):
            for b in range(4):
                if k in draws:
                    tab[0, ci, w, b] = (0.0, 1.0)
                elif k in white_wins:
                    tab[0, ci, w, b] = (1.0, 1.0)
                else:
                    order = win[k]
                    tab[0, ci, w, b] = (1.0, 1.0) if order.index(w) < order.index(b) else (0.0, 0.0)
    return tab


ALL_DRAWN = [[(0.5, 0.5)] * 4 for _ in range(4)]


def three_level():
    """Slots 0-2 on 3.5, slot 3 on 1.5: all drawn except slot 3 losing with Black to each."""
    rows = [[(0.5, 0.5)] * 4 for _ in range(4)]
    for i in range(3):
        rows[i][3] = (1.0, 0.5)
        rows[3][i] = (0.5, 0.0)
    return rows


# ---- kernel = twin ------------------------------------------------------------------------
@pytest.mark.parametrize("places,reduced", [(ELIM, NEXT), (FIRST_ONLY, RESTART)])
def test_group_kernel_equals_twin(model, gp, places, reduced):
    # a real group (Belgrade group D, [RU]) with its last three rounds open, and an
    # all-drawn four-way tie, on the same seeds
    mod, scn = gp
    plan = compile_at(mod, scn, model, "event2-round3")
    a = plan.args
    players = a.roster[1, 12:16].copy()
    games = a.gm[1, 3].copy()
    tab = a.thr[1:2]
    n = 3000
    nc = (n + CHUNK - 1) // CHUNK
    hist = np.zeros((nc, 4, 43), np.int64)
    simulate_group_nb(np.uint64(5), np.int64(100), np.int64(n), model.params, tab, a.steps,
                      players, games, GP6, np.int64(places), np.int64(reduced), hist)
    twin = RG.simulate_group(model.params, tab, a.steps, list(players), games.tolist(),
                             list(GP6), places, reduced, 5, 100, n)
    assert hist.sum(0).tolist() == twin
    tab4 = a.thr[1:2]
    allg = games_from_scores(ALL_DRAWN)
    hist = np.zeros((nc, 4, 43), np.int64)
    simulate_group_nb(np.uint64(6), np.int64(0), np.int64(n), model.params, tab4, a.steps,
                      players, allg, GP6, np.int64(places), np.int64(reduced), hist)
    twin = RG.simulate_group(model.params, tab4, a.steps, list(players), allg.tolist(),
                             list(GP6), places, reduced, 6, 0, n)
    assert hist.sum(0).tolist() == twin


def assert_kernel_equals_twin(plan, seed, first, n):
    k = plan.run_batch(seed, first, n)
    t = RG.simulate_series(plan.args, seed, first, n)
    for key in ("place", "qualify", "counters"):
        assert np.array_equal(k[key], t[key]), key
    for key in ("points", "points_sq", "prize", "prize_sq"):
        assert np.allclose(k[key], t[key], rtol=1e-12, atol=1e-6), key


@pytest.mark.parametrize("at,offsets", [("start", False), ("event1-round5", False),
                                        ("event2", True), ("event3-groups", False),
                                        ("event1-sf", False), ("event2-sf", True)])
def test_series_kernel_equals_twin(model, gp, at, offsets):
    mod, scn = gp
    plan = compile_at(mod, scn, model, at, offsets=offsets)
    assert_kernel_equals_twin(plan, 3, 500, 300)


@pytest.mark.parametrize("white", [-1, 0])
def test_knockout_in_progress_kernel_equals_twin(model, gp, white):
    """Event 3's knock-out through the bracket walk with semi-final 1 in progress (its first
    classical game won by the leading player, the walk's KO_IN_PROGRESS), semi-final 2
    decided for the other player (a draw and a loss: 1/2-3/2) and colours by lot (-1) or the
    leading player White (0): kernel and twin draw alike (tallies equal)."""
    mod, scn = gp
    plan = compile_at(mod, scn, model, "event3-groups")
    a = plan.args
    stat, win, step, cls, fx = (x.copy() for x in (a.ko_stat, a.ko_win, a.ko_step, a.ko_cls,
                                                  a.ko_fixed))
    assert (stat[2] == KO_OPEN).all()
    stat[2, 0] = KO_IN_PROGRESS
    fx[2, 0] = [WHITE_WINS, UNPLAYED]
    stat[2, 1] = KO_DECIDED
    win[2, 1] = 1
    step[2, 1] = 0
    fx[2, 1] = [DRAW, BLACK_WINS]
    cls[2, 1] = [1, 3, 0, 1]
    plan.args = a._replace(ko_stat=stat, ko_win=win, ko_step=step, ko_cls=cls, ko_fixed=fx,
                           ko_white=np.full_like(a.ko_white, white))
    assert_kernel_equals_twin(plan, 9, 0, 300)


@pytest.mark.parametrize("at,stat", [("event1-sf", [KO_DECIDED, KO_DECIDED, KO_OPEN]),
                                     ("event1", [KO_DECIDED] * 3)])
def test_plan_bracket_rows(model, gp, at, stat):
    """The walk's rows the plan builds from Berlin's played knock-out (event 1 of the
    scenario file): decided matches' classical half points and wins are those of their known
    games from the leading player's side, the step 0 only when the classical games decided
    it; later events open; colours by lot (the file's knockout_colours = "lots")."""
    mod, scn = gp
    a = compile_at(mod, scn, model, at).args
    assert a.ko_stat[0].tolist() == stat
    assert (a.ko_stat[1:] == KO_OPEN).all() and (a.ko_win[1:] < 0).all()
    assert (a.ko_white == -1).all()
    for m in range(3):
        if stat[m] != KO_DECIDED:
            assert a.ko_win[0, m] < 0 and (a.ko_fixed[0, m] == UNPLAYED).all()
            continue
        known = [int(c) for c in a.ko_fixed[0, m] if c != UNPLAYED]
        cu, cl, wu, wl = a.ko_cls[0, m].tolist()
        assert cu == sum(2 - c for c in known) and cl == sum(known)
        assert wu == known.count(WHITE_WINS) and wl == known.count(BLACK_WINS)
        by_games = len(known) == 2 and cu != cl
        assert a.ko_step[0, m] == (0 if by_games else UNKNOWN_TB_STEP)
        if by_games:
            assert a.ko_win[0, m] == (0 if cu > cl else 1)


# ---- exact enumeration ---------------------------------------------------------------------
@pytest.mark.parametrize("group,places,reduced", [(1, ELIM, NEXT), (3, FIRST_ONLY, RESTART)])
def test_last_rounds_exact_vs_monte_carlo(model, gp, group, places, reduced):
    # Berlin 1, groups B (Rapport, Wojtaszek, Fedoseev, Oparin) and D after round 3 ([RU]
    # cross tables): the 6 games of rounds 4-6 open, 3^6 = 729 results, each with its
    # play-off probabilities computed exactly; Monte Carlo within 4 standard errors.
    mod, scn = gp
    plan = compile_at(mod, scn, model, "event1-round3")
    a = plan.args
    players = a.roster[0, 4 * group:4 * group + 4].copy()
    games = a.gm[0, group].copy()
    assert (games[:, 3] < 0).sum() == 6
    tab = a.thr[0:1]
    exact = RG.group_exact(tab[0], a.steps.tolist(), list(players), games.tolist(), list(GP6),
                           places, reduced)
    for s in range(4):
        assert math.isclose(sum(exact[s]), 1.0, abs_tol=1e-12)
    n = 200_000
    nc = (n + CHUNK - 1) // CHUNK
    hist = np.zeros((nc, 4, 43), np.int64)
    simulate_group_nb(np.uint64(2024), np.int64(0), np.int64(n), model.params, tab, a.steps,
                      players, games, GP6, np.int64(places), np.int64(reduced), hist)
    mc = hist.sum(0) / n
    for s in range(4):
        for v in range(43):
            p = exact[s][v]
            if p == 0.0:
                assert mc[s, v] == 0.0, (s, v)
            else:
                se = math.sqrt(p * (1 - p) / n)
                assert abs(mc[s, v] - p) < 4 * se + 1e-12, (s, v, mc[s, v], p)


def test_exact_two_player_armageddon_is_colour_lot(model):
    # rapid and blitz always drawn, Armageddon always won by White: the colour lot decides,
    # so each player wins with probability 1/2 (hand check)
    tab = forced_tab(draws=(0, 1, 2), white_wins=(3,))
    p = RG.two_player_exact(tab[0], steps_for(model).tolist(), 1, 0, 1)
    assert p == pytest.approx(0.5)


# ---- tie shapes, hand-checked -----------------------------------------------------------------
def values(h, s):
    return {v for v in range(43) if h[s, v]}


def test_no_tie_and_level_for_second_and_third(model, gp):
    # Belgrade groups B and C ([RU] group tables): Giri 4, Vitiugov 3, Tabatabaei 3,
    # Harikrishna 2 -> 7, 3, 3, 0; Rapport 4, Vidit 3, Shirov 2.5, Fedoseev 2.5 -> 7, 4, 1, 1
    # ([RU] final table)
    mod, scn = gp
    plan = compile_at(mod, scn, model, "event2-round6")
    a = plan.args
    for g, expect in ((1, [42, 18, 18, 0]), (2, [42, 24, 6, 6])):
        h = np.zeros((1, 4, 43), np.int64)
        simulate_group_nb(np.uint64(1), np.int64(0), np.int64(50), model.params, a.thr[1:2],
                          a.steps, a.roster[1, 4 * g:4 * g + 4].copy(), a.gm[1, g].copy(),
                          GP6, np.int64(0), np.int64(0), h)
        assert [int(np.argmax(h[0, s])) for s in range(4)] == expect
        assert all(h[0, s, expect[s]] == 50 for s in range(4))


def test_three_level_for_second(model):
    # slot 0 wins every game with White and draws with Black (4.5); the others draw among
    # themselves (2.5 each): they share places 2-4, (4 + 2 + 0) / 3 = 2 points = 12 sixths
    rows = [[(0.5, 0.5)] * 4 for _ in range(4)]
    for j in (1, 2, 3):
        rows[0][j] = (1.0, 0.5)
        rows[j][0] = (0.5, 0.0)
    h = run_group(model, forced_tab(draws=(0, 1, 2, 3)), games_from_scores(rows), 20)
    assert [values(h, s) for s in range(4)] == [{42}, {12}, {12}, {12}]


def test_two_level_for_first(model):
    # Berlin 1 group B shape ([RU]): Rapport and Wojtaszek 3.5, Fedoseev 3, Oparin 2.
    # Rapid pair: slot 1 always wins -> slot 1 first (7), slot 0 second (4).
    rows = [[None, (0.5, 0.0), (1.0, 1.0), (0.5, 0.5)],
            [(1.0, 0.5), None, (0.5, 0.5), (0.5, 0.5)],
            [(0.0, 0.0), (0.5, 0.5), None, (1.0, 1.0)],
            [(0.5, 0.5), (0.5, 0.5), (0.0, 0.0), None]]
    games = games_from_scores(rows)
    tab = forced_tab(win={1: [1, 0, 2, 3], 2: [0, 1, 2, 3], 3: [0, 1, 2, 3]}, draws=(0,))
    h = run_group(model, tab, games, 30)
    assert [values(h, s) for s in range(4)] == [{24}, {42}, {12}, {0}]
    # all tiebreak games drawn but the Armageddon, which White always wins: the colour lot
    # decides, 1/2 each (hand check), within 4 standard errors
    n = 20_000
    h = run_group(model, forced_tab(draws=(0, 1, 2), white_wins=(3,)), games, n)
    assert values(h, 0) | values(h, 1) == {42, 24}
    assert abs(h[0, 42] / n - 0.5) < 4 * math.sqrt(0.25 / n)


@pytest.mark.parametrize("places,expect", [(ELIM, [{42}, {24}, {12}, {0}]),
                                           (FIRST_ONLY, [{42}, {18}, {18}, {0}])])
def test_three_level_decided_by_rapid_round_robin(model, places, expect):
    # slots 0-2 level on 3.5; the rapid round robin follows a strength order 0 > 1 > 2 (4, 2,
    # 0 half points): slot 0 first; "elimination" then orders 1 before 2 (4 and 2 points),
    # "first-only" has them share 2nd-3rd ((4 + 2) / 2 = 3 points = 18 sixths)
    tab = forced_tab(win={1: [0, 1, 2, 3], 2: [0, 1, 2, 3], 3: [0, 1, 2, 3]}, draws=(0,))
    h = run_group(model, tab, games_from_scores(three_level()), 40, places=places)
    assert [values(h, s) for s in range(4)] == expect


def test_three_level_cut_to_two(model):
    # rapid round robin: 0 and 1 beat 2, 0-1 drawn (colour-free outcomes via strength and a
    # draw table would need colours, so: rapid all drawn except games against slot 2) ->
    # cut to 0 and 1; blitz pair: 1 always wins -> 1 first (7), 0 second (4), 2 third (2)
    tab = forced_tab(win={1: [0, 1, 2, 3], 2: [1, 0, 2, 3], 3: [1, 0, 2, 3]}, draws=(0,))
    rapid = steps_for(model)[1, 1]
    tab[0, rapid, 0, 1] = (0.0, 1.0)
    tab[0, rapid, 1, 0] = (0.0, 1.0)
    for reduced in (NEXT, RESTART):
        h = run_group(model, tab, games_from_scores(three_level()), 40, reduced=reduced)
        # RESTART replays the rapid pair first (drawn), then blitz: same places
        assert [values(h, s) for s in range(4)] == [{24}, {42}, {12}, {0}]


def test_three_level_to_armageddon_by_lots(model):
    # every rapid and blitz game drawn; Armageddon always won by White: lots pick the two
    # who play it, the colour lot decides, the loser and the player left out share 2nd-3rd
    # ((4 + 2) / 2 = 3 points = 18 sixths).  By symmetry each of the three wins with
    # probability 1/3 (hand check)
    n = 30_000
    h = run_group(model, forced_tab(draws=(0, 1, 2), white_wins=(3,)),
                  games_from_scores(three_level()), n)
    for s in range(3):
        assert values(h, s) == {42, 18}
        assert abs(h[s, 42] / n - 1 / 3) < 4 * math.sqrt(2 / 9 / n)
    assert values(h, 3) == {0}


def test_four_level(model):
    # all 12 games drawn (3 points each); tiebreak games: a strength order 0 > 1 > 2 > 3 that
    # always wins.  Slot 0 always wins the group; second is the winner of the other pair:
    # slot 1 unless lots paired 0 with 1 (probability 1/3), then slot 2.  The two pair
    # losers share 3rd-4th: (2 + 0) / 2 = 1 point = 6 sixths (hand check)
    n = 30_000
    order = [0, 1, 2, 3]
    h = run_group(model, forced_tab(win={1: order, 2: order, 3: order}, draws=(0,)),
                  games_from_scores(ALL_DRAWN), n)
    assert values(h, 0) == {42}
    assert values(h, 1) == {24, 6}
    assert values(h, 2) == {24, 6}
    assert values(h, 3) == {6}
    assert abs(h[1, 24] / n - 2 / 3) < 4 * math.sqrt(2 / 9 / n)
    assert (h[:, 42].sum(), h[:, 24].sum(), h[:, 6].sum()) == (n, n, 2 * n)


# ---- the table follows the live model draw for draw ------------------------------------------
def test_table_functions_match_games_nb(model, gp):
    # Without offsets the kernel reads thresholds from a table filled by game_nb.wdl_nb; a
    # match from any step, a round robin of three and an Armageddon read from the table must
    # give the live computation's results on the same stream, and leave the stream in the
    # same state.
    from simcycle.kernels.game_nb import Games, armageddon_nb, match_nb, round_robin_nb
    from simcycle.kernels.rng_nb import replica_state_nb
    mod, scn = gp
    a = compile_at(mod, scn, model, "start").args
    rt, steps, params = a.rt[2:3].copy(), a.steps, model.params
    table = Games(params, rt, a.thr[2:3].copy(), False, False)
    live = Games(params, rt, a.thr[2:3].copy(), True, False)
    nofix = np.empty(0, np.int64)
    pl = np.array([3, 9, 16], np.int64)
    for r in range(1500):
        s1 = np.array([replica_state_nb(np.uint64(9), np.uint64(r))], np.uint64)
        s2 = s1.copy()
        o1, o2 = np.zeros(6, np.int64), np.zeros(6, np.int64)
        s0 = r % 4
        match_nb(live, 0, 3, 9, steps[s0:].copy(), nofix, s1, o1)
        match_nb(table, 0, 3, 9, steps[s0:].copy(), nofix, s2, o2)
        assert o1[0] == o2[0] and o1[1] == o2[1] and list(o1[2:]) == list(o2[2:])
        sc1, sc2 = np.zeros(3, np.int64), np.zeros(3, np.int64)
        round_robin_nb(live, 0, steps[2, 1], pl, 3, sc1, s1)
        round_robin_nb(table, 0, steps[2, 1], pl, 3, sc2, s2)
        assert list(sc1) == list(sc2)
        assert armageddon_nb(live, 0, steps[3, 1], 3, 16, s1) == \
            armageddon_nb(table, 0, steps[3, 1], 3, 16, s2)
        assert s1[0] == s2[0]


@pytest.mark.parametrize("rule", ["lots", "snake"])
def test_draw_rules_kernel_equals_twin(tmp_path, model, rule):
    # undrawn groups (events 2 and 3 at event1-round2) made by lots or by snake order
    text = open(SCENARIO, encoding="utf-8").read().replace('draw_rule = "baskets"',
                                                           f'draw_rule = "{rule}"')
    f = tmp_path / "gp.toml"
    f.write_text(text, encoding="utf-8")
    mod, scn = load_scenario(f)
    plan = compile_at(mod, scn, model, "event1-round2")
    assert list(plan.args.draw) == ([0, 1, 1] if rule == "lots" else [0, 0, 0])
    k = plan.run_batch(4, 0, 200)
    t = RG.simulate_series(plan.args, 4, 0, 200)
    assert np.array_equal(k["place"], t["place"]) and np.array_equal(k["counters"], t["counters"])
    # every series hands out 3 events x (7 + 4 + 2 + 0) x 4 groups + 3 x 3 knock-out points
    # = 3 x 61 = 183 GP points ([RU] point rules), tallied in sixths
    assert k["points"].sum() == 183 * 6 * 200


def test_substitutes_left_out_of_the_table(tmp_path, model):
    text = open(SCENARIO, encoding="utf-8").read().replace("substitutes_count = true",
                                                           "substitutes_count = false")
    f = tmp_path / "gp.toml"
    f.write_text(text, encoding="utf-8")
    mod, scn = load_scenario(f)
    d = mod.standings(scn, None)
    out = [p["name"] for p in d["players"] if p["rank"] is None]
    assert out == ["Andrey Esipenko", "Radoslaw Wojtaszek"]   # the substitutes ([RU])
    # Keymer no longer shares =16 with Esipenko: 15 players above him (=14 is two players)
    assert [(p["rank"], p["shared"]) for p in d["players"]
            if p["name"] == "Vincent Keymer"] == [(16, False)]
    plan = compile_at(mod, scn, model, "start")
    assert plan.info.n_places == 24
    k = plan.run_batch(1, 0, 500)
    i = plan.info.names.index("Andrey Esipenko")
    assert k["place"][i].sum() == 0 and k["qualify"][i] == 0
    assert k["qualify"].sum() == 2 * 500


# ---- properties ---------------------------------------------------------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as hs  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(results=hs.lists(hs.integers(0, 2), min_size=12, max_size=12),
       seed=hs.integers(0, 2**32), places=hs.sampled_from([ELIM, FIRST_ONLY]),
       reduced=hs.sampled_from([NEXT, RESTART]))
def test_group_places_properties(gp, model, results, seed, places, reduced):
    # any finished group: exactly one winner, the 13 points ([RU]: 7 + 4 + 2 + 0) are all
    # handed out, and a higher classical score never earns fewer GP points
    from simcycle.reference.rng import Stream
    mod, scn = gp
    a = compile_at(mod, scn, model, "start").args
    players = [9, 6, 1, 23]
    score = [0] * 4
    for (rd, w, b), r in zip(schedule("berger-swapped"), results):
        score[w] += (2, 1, 0)[r]
        score[b] += (0, 1, 2)[r]
    g = RG.Games(model.params, None, a.thr, False, False)
    win, out = RG.group_places(g, 0, a.steps.tolist(), players, score, list(GP6), places,
                               reduced, Stream(seed, 0), [0] * 4)
    assert out.count(42) == 1 and out[win] == 42
    assert sum(out) == 78
    for s in range(4):
        for t in range(4):
            if score[s] > score[t]:
                assert out[s] >= out[t]
