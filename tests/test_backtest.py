"""Backtest metrics on a tiny hand-checked set, the baselines, leave-one-event-out, and the
event simulations."""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from conftest import write
from simcycle.model import backtest as B
from simcycle.cli import main
from simcycle.model.fit import PRIOR, fit
from simcycle.model import load_model
from test_fit import games_from, simulate

# Four games: predicted (White, draw, Black) and what happened.
P4 = np.array([[0.5, 0.3, 0.2], [0.2, 0.6, 0.2], [0.1, 0.7, 0.2], [0.25, 0.5, 0.25]])
Y4 = np.array([0, 1, 2, 1])


def test_metrics_by_hand():
    m = B.game_metrics(P4, Y4)
    # log-loss: -(ln .5 + ln .6 + ln .2 + ln .5) / 4 = (.693147 + .510826 + 1.609438 + .693147)/4
    assert m["log_loss"] == pytest.approx(0.876640, abs=1e-6)
    # Brier (sum over outcomes): .38, .24, 1.14, .375 -> mean .53375
    assert m["brier"] == pytest.approx(0.53375, abs=1e-12)
    # RPS over (White, draw, Black): cumulative (.5,.8) v (1,1): (.25+.04)/2 = .145;
    # (.2,.8) v (0,1): .04; (.1,.8) v (0,0): (.01+.64)/2 = .325; (.25,.75) v (0,1): .0625
    assert m["rps"] == pytest.approx((0.145 + 0.04 + 0.325 + 0.0625) / 4, abs=1e-12)
    # draws: predicted 2.1 of 4, observed 2; sd = sqrt(.21 + .24 + .21 + .25) = sqrt(.91)
    assert (m["draw_pred"], m["draw_obs"]) == pytest.approx((0.525, 0.5))
    assert m["draw_z"] == pytest.approx(-0.1 / math.sqrt(0.91), abs=1e-12)
    # White's score: predicted .65 + .5 + .45 + .5 = 2.1, observed 1 + .5 + 0 + .5 = 2;
    # variances p_w + p_d/4 - s^2: .1525 + .1 + .0725 + .125 = .45
    assert (m["white_pred"], m["white_obs"]) == pytest.approx((0.525, 0.5))
    assert m["white_z"] == pytest.approx(-0.1 / math.sqrt(0.45), abs=1e-12)


def test_reliability_and_versus_by_hand():
    rel = B.reliability(P4, Y4, bins=(0.0, 0.55, 1.0))
    # below .55: games 1 (.3, not drawn) and 4 (.5, drawn); above: 2 (.6, drawn), 3 (.7, not)
    assert [r["n"] for r in rel] == [2, 2]
    assert rel[0]["pred"] == pytest.approx(0.4) and rel[0]["obs"] == pytest.approx(0.5)
    assert rel[1]["pred"] == pytest.approx(0.65) and rel[1]["obs"] == pytest.approx(0.5)
    flat = np.full((4, 3), 1 / 3)
    v = B.versus(P4, flat, Y4)
    # per game: -ln p + ln(1/3): .693147-1.098612, .510826-1.098612, 1.609438-1.098612, ...
    assert v["diff"] == pytest.approx(0.876640 - math.log(3), abs=1e-6)


def test_baselines_by_hand():
    train = games_from(["classical"] * 4, ["round-robin"] * 4, [2700] * 4, [2700] * 4,
                       [0, 0, 1, 2])
    test = games_from(["classical"], ["round-robin"], [2750], [2750], [1])
    # constant: training frequencies 2/4, 1/4, 1/4
    assert B.constant_probabilities(train, test)[0] == pytest.approx([0.5, 0.25, 0.25])
    # Elo, fixed draw rate .25; White's edge h = 400 log10(2/1) = 120.41 Elo, so equal players
    # split the decisive games 1/(1 + 10^(-120.41/400)) = 1/(1 + 1/2) = 2/3 for White
    assert B.elo_probabilities(train, test)[0] == pytest.approx([0.5, 0.25, 0.25])
    test2 = games_from(["classical"], ["round-robin"], [2879.588], [2700], [0])
    # 179.588 + 120.412 = 300 Elo: 1/(1 + 10^-0.75) = 0.849020; times .75 -> 0.636765
    assert B.elo_probabilities(train, test2)[0] == pytest.approx([0.636765, 0.25, 0.113235],
                                                                 abs=1e-6)


def test_model_probabilities_use_the_event_kind():
    m = load_model()
    g = games_from(["classical", "classical"], ["round-robin", "candidates"], [2760, 2760],
                   [2740, 2740], [1, 1])
    P = B.model_probabilities(m, g)
    assert P[0] == pytest.approx(m.wdl("classical", 2760, 2740))
    assert P[1] == pytest.approx(m.for_kind("candidates").wdl("classical", 2760, 2740))
    assert P[1][1] < P[0][1]     # the Candidates term lowers the draw odds (kappa < 0)


def test_leave_one_event_out_never_scores_in_sample():
    g = simulate(400, seed=9)                 # events of 50 games: e0 .. e15
    oos = B.leave_one_event_out(g, {}, 2750.0)
    ev = np.array(oos.games.event, dtype=object)
    for e in ("e0", "e7"):
        train = oos.games.take(ev != e)
        r = fit(train, prior=PRIOR)      # the default procedure (v4): with the prior
        P = r.probabilities(oos.games.take(ev == e))
        assert np.allclose(oos.P["fit"][ev == e], P, atol=1e-6)
        assert np.allclose(oos.P["constant"][ev == e],
                           B.constant_probabilities(train, oos.games.take(ev == e)))
    for P in oos.P.values():
        assert np.allclose(P.sum(axis=1), 1.0)


def _monthly(g, first_year=2016):
    """The games of event e<k> dated on the 10th of month k (counted from January of
    ``first_year``), so events follow each other a month apart."""
    def when(e):
        k = int(e[1:])
        return f"{first_year + k // 12}-{k % 12 + 1:02d}-10"
    return type(g)(**{**g.__dict__, "date": tuple(when(e) for e in g.event)})


def _with_game(g, date, event, rw, rb, result, control="classical"):
    """``g`` and one more game."""
    return type(g)(file=g.file, date=g.date + (date,), event=g.event + (event,),
                   kind=g.kind + ("round-robin",), control=g.control + (control,),
                   white=g.white + ("planted-w",), black=g.black + ("planted-b",),
                   white_rating=np.append(g.white_rating, rw),
                   black_rating=np.append(g.black_rating, rb),
                   result=np.append(g.result, np.int8(result)), round=g.round + ("",),
                   event_players=g.event_players + (0,))


def test_time_ordered_never_lets_a_later_game_into_a_fit():
    # classical events e0 .. e15 (2016-01 .. 2017-04), then rapid e16 .. e31, one a month
    g = _monthly(simulate(800, seed=5))
    base = B.time_ordered(g, {}, 2750.0)
    # every event's fit uses only games dated before the first day of its month
    for e, train in base.train.items():
        first = min(d for d, x in zip(base.data.games.date, base.data.games.event) if x == e)
        assert max(base.data.date[train]) < B.month_start(first) <= first
    # plant 40 absurd games (2000-rated White beats 3000-rated Black, in a new event) on
    # 2017-03-15: the odds of every event that starts before that day must not move at all,
    # the later ones must
    planted = g
    for _ in range(40):
        planted = _with_game(planted, "2017-03-15", "planted", 2000.0, 3000.0, 0)
    after = B.time_ordered(planted, {}, 2750.0)
    ev_b = np.array(base.games.event, dtype=object)
    ev_a = np.array(after.games.event, dtype=object)
    earlier = [e for e in base.fits if base.cutoff[e] <= "2017-03-01"]
    later = [e for e in base.fits if base.cutoff[e] == "2017-04-01"]
    assert len(earlier) == 9 and later == ["e15"]      # e6 .. e14 once 300 games precede
    for e in earlier:
        for nm in ("fit", "constant", "elo-fixed-draw"):
            assert np.array_equal(base.P[nm][ev_b == e], after.P[nm][ev_a == e]), (e, nm)
    moved = [e for e in later if not np.allclose(base.P["fit"][ev_b == e],
                                                 after.P["fit"][ev_a == e], atol=1e-9)]
    assert moved == later
    # and the fit of a scored event equals a fit on exactly the earlier games
    e = later[0]
    early = g.take(np.array([d < base.cutoff[e] for d in g.date], bool))
    r = fit(early, start=None, prior=PRIOR)
    assert np.allclose(base.P["fit"][ev_b == e], r.probabilities(base.games.take(ev_b == e)),
                       atol=1e-5)


def _round_robin_games():
    """A 4-player single round robin played on three days: A wins everything."""
    days = ["2021-05-01", "2021-05-02", "2021-05-03"]
    rounds = [[("A", "D", 0), ("B", "C", 1)], [("C", "A", 2), ("D", "B", 1)],
              [("A", "B", 0), ("C", "D", 1)]]
    rows = [(days[k], w, b, r) for k, rr in enumerate(rounds) for w, b, r in rr]
    g = games_from(["classical"] * 6, ["round-robin"] * 6, [2750, 2700, 2710, 2780, 2750, 2710],
                   [2780, 2710, 2750, 2700, 2700, 2780], [r[3] for r in rows],
                   event=["Test RR"] * 6, white=[r[1] for r in rows], black=[r[2] for r in rows])
    return type(g)(**{**g.__dict__, "date": tuple(r[0] for r in rows), "event_players": (4,) * 6})


def test_event_rounds_scenario_and_simulation():
    g = _round_robin_games()
    evs = B.complete_round_robins(g)
    assert [e["event"] for e in evs] == ["Test RR"] and evs[0]["cycles"] == 1
    rounds, real = B._rounds(g, evs[0])
    assert real and [len(r) for r in rounds] == [2, 2, 2]
    assert B.winners(g, evs[0]) == ["A"]     # final points: A 3, B 1, C 1, D 1
    raw = B.event_scenario(g, evs[0], rounds)
    m = load_model()
    p0, t0 = B.simulate_event(raw, m, "start", 4000, 1, False, 2)
    assert sum(p0.values()) == pytest.approx(1.0)
    assert sum(t0.values()) == pytest.approx(2.0)             # two places in the top 2
    assert all(t0[q] >= p0[q] for q in p0)
    p2, _ = B.simulate_event(raw, m, "round2", 4000, 1, False)
    assert p2["A"] > p0["A"]                  # two wins up: more likely first than at start
    # after round 2: A 2, B 1, C 0.5, D 0.5 with A-B and C-D to play: C and D cannot reach 2
    assert p2["C"] == 0.0 and p2["D"] == 0.0
    assert 0.0 < p0["A"] < 1.0


def test_backtest_command_on_a_small_file(tmp_path):
    g = simulate(400, seed=1)
    lines = ["date,event,kind,control,white,black,white_rating,black_rating,result,source"]
    res = {0: "1-0", 1: "1/2-1/2", 2: "0-1"}
    for i in range(len(g)):
        lines.append(f"2020-01-01,{g.event[i]},{g.kind[i]},{g.control[i]},{g.white[i]},"
                     f"{g.black[i]},{g.white_rating[i]:.1f},{g.black_rating[i]:.1f},"
                     f"{res[int(g.result[i])]},simulated")
    p = write(tmp_path, "g.csv", "\n".join(lines) + "\n")
    r = CliRunner().invoke(main, ["backtest", str(p), "--json", "--no-events",
                                  "--scheme", "leave-one-event-out"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["events_scored"] == 16
    assert d["games"] == {"classical": 400, "rapid": 400, "armageddon": 0}
    assert set(d["per_game"]["overall"]["classical"]) == {
        "davidson-elo-v1", "fit", "fit-no-kinds", "fit-no-level", "constant", "elo-fixed-draw"}
    # time-ordered (the default): every game on one day, so nothing precedes any event
    t = CliRunner().invoke(main, ["backtest", str(p), "--no-events"])
    assert t.exit_code == 2 and "nothing to score time-ordered" in t.output
    assert len(t.output.strip().splitlines()) == 1 and str(p) in t.output
    m = _monthly(g)
    q = write(tmp_path, "m.csv", "\n".join(
        [lines[0]] + [f"{m.date[i]}," + ln.split(",", 1)[1] for i, ln in enumerate(lines[1:])])
        + "\n")
    u = CliRunner().invoke(main, ["backtest", str(q), "--json", "--no-events"])
    assert u.exit_code == 0, u.output
    d = json.loads(u.output)
    # classical events e0..e7 then rapid e8..e15, a month apart, 50 games each: a class is
    # scored once 300 of its games precede the month: e6, e7 (classical), e14, e15 (rapid)
    assert d["scheme"] == "time-ordered" and d["events_scored"] == 4
    assert d["games"] == {"classical": 100, "rapid": 100, "armageddon": 0}
    assert d["unscored_burn_in"] == {"classical": 300, "rapid": 300}
    assert set(d["per_game"]["overall"]["classical"]) == {
        "davidson-elo-v1", "fit", "constant", "elo-fixed-draw"}
    t = CliRunner().invoke(main, ["backtest", str(q), "--no-events"])
    assert t.exit_code == 0 and "log-loss" in t.output and "time-ordered" in t.output


def test_top_k_shares_and_equal_ratings_by_hand():
    # points 3, 2, 2, 2, 1: the top 2 is the leader and one place shared by three
    sh = B.top_k_shares({"a": 3, "b": 2, "c": 2, "d": 2, "e": 1}, 2)
    assert sh == {"a": 1.0, "b": 1 / 3, "c": 1 / 3, "d": 1 / 3, "e": 0.0}
    assert sum(sh.values()) == pytest.approx(2.0)
    g = _round_robin_games()
    ev = B.complete_round_robins(g)[0]
    rounds, _ = B._rounds(g, ev)
    eq = B.event_scenario(g, ev, rounds, ("shrink", 1.0))
    assert {p["rating"] for p in eq["players"]} == {(2750 + 2700 + 2710 + 2780) / 4}
    half = {p["name"]: p["rating"] for p in B.event_scenario(g, ev, rounds,
                                                              ("shrink", 0.5))["players"]}
    assert half["D"] == pytest.approx(2735.0 + 0.5 * (2780 - 2735.0))


def test_event_reliability_by_hand():
    rows = [{"winners": ["A"], "models": {"m": [{"p_first": {"A": 0.6, "B": 0.4}}]}},
            {"winners": ["B", "C"], "models": {"m": [{"p_first": {"B": 0.04, "C": 0.56,
                                                                   "D": 0.4}}]}}]
    tab = B.event_reliability(rows, bins=(0.0, 0.5, 1.0))["m"]
    # below 0.5: B .4 (lost), B .04 (won, shared: 1/2), D .4 (lost); above: A .6 (won),
    # C .56 (won, 1/2)
    assert [t["n"] for t in tab] == [3, 2]
    assert tab[0]["pred"] == pytest.approx(0.84 / 3) and tab[0]["obs"] == pytest.approx(0.5 / 3)
    assert tab[1]["obs"] == pytest.approx(0.75)
    sd = math.sqrt(0.4 * 0.6 + 0.04 * 0.96 + 0.4 * 0.6)
    assert tab[0]["z"] == pytest.approx((0.5 - 0.84) / sd)


def test_hindsight_swaps_only_the_named_parameters():
    """B.hindsight: with no parameter swapped it gives the time-ordered fit's own
    probabilities; with every one swapped, the fit on all the games'; swapping the slope alone
    leaves the draw rate of a game between equal players as it was."""
    g = _monthly(simulate(800, seed=5))
    oos = B.time_ordered(g, {}, 2750.0)
    every = np.ones(len(oos.games), bool)
    assert np.allclose(B.hindsight(oos, every, ()), oos.P["fit"], atol=1e-12)
    allp = ("u0", "white_edge", "slope", "level", "kappa")
    want = oos.data.probabilities(oos.full["fit"], oos.rows)
    assert np.allclose(B.hindsight(oos, every, allp), want, atol=1e-12)
    assert not np.allclose(oos.P["fit"], want, atol=1e-3)      # the swap is not a no-op
    swapped = B.hindsight(oos, every, ("slope",))
    even = oos.games.white_rating == oos.games.black_rating
    if even.any():
        assert np.allclose(swapped[even, 1], oos.P["fit"][even, 1], atol=1e-12)
    assert not np.allclose(swapped, oos.P["fit"], atol=1e-4)
