"""Candidate fixes fitted on earlier whole events (simcycle.model.eventfit): only events ended
before an event's cutoff inform its parameter; the event-level slope by hand; hot Elo per game
against a plain-Python twin."""

import math

import numpy as np
import pytest

from simcycle.model import backtest as B
from simcycle.model import davidson_wdl
from simcycle.model import eventfit as F
from test_backtest import _monthly, _round_robin_games
from test_fit import simulate


def _row(name, last, scores):
    """A backtest row: the start's -ln P(winner) of the fit and of every grid shrinkage."""
    models = {nm: [{"neg_log_p": v}] for nm, v in scores.items()}
    return {"event": name, "dates": ["2000-01-01", last], "models": models}


def _scores(best):
    """-ln P(winner) 2.0 for every candidate but ``best`` (1.0)."""
    names = ["fit", *(F.shrink_name(x) for x in F.SHRINK_GRID)]
    return {nm: 1.0 if nm == best else 2.0 for nm in names}


def test_choose_shrink_uses_only_events_ended_before_the_cutoff():
    rows = [_row(f"e{k}", f"2020-0{k + 1}-20", _scores("shrink-0.3")) for k in range(3)]
    assert F.choose_shrink(rows, "2020-04-01") == (0.3, 3)
    assert F.choose_shrink(rows, "2020-03-01") == (0.0, 2)      # two earlier: stays neutral
    # a later event that strongly prefers spreading the ratings changes nothing before it ...
    planted = rows + [_row("late", "2020-06-30", {**_scores("widen-0.3"),
                                                  "shrink-0.3": 50.0})]
    assert F.choose_shrink(planted, "2020-06-01") == (0.3, 3)
    # ... and moves the choice once it has ended (mean 2 + 48/4 against 1.25)
    assert F.choose_shrink(planted, "2020-07-01") == (-0.3, 4)
    assert F.shrink_name(-0.15) == "widen-0.15" and F.shrink_name(0.5) == "shrink-0.5"


def test_event_slope_by_hand():
    g = _round_robin_games()         # A beats everyone; B, C, D draw the rest: 3, 1, 1, 1
    ev = B.complete_round_robins(g)[0]
    P = np.tile([0.5, 0.3, 0.2], (len(g), 1))      # White expects 0.65 in every game
    x, y = F.points_against_expected(g, P, ev)
    # A and C have White twice: 2(.65) + .35 = 1.65; B and D once: .65 + 2(.35) = 1.35
    assert x == pytest.approx([0.15, -0.15, 0.15, -0.15])
    assert y == pytest.approx([1.5, -0.5, -0.5, -0.5])
    evs = [dict(ev, event=f"RR{k}") for k in range(3)]
    dates = {"RR0": "2021-05-03", "RR1": "2021-06-03", "RR2": "2021-07-03"}
    s = F.event_slope(g, P, evs, dates, "2021-08-01")
    # sum xy = 3 (.225 + .075 - .075 + .075) = .9, sum x^2 = 3 (.09) = .27: b = 10/3, clipped
    # to 2; residuals y - (10/3) x = 1, 0, -1, 0: se = sqrt(3 (2 (.0225))) / .27
    assert s["b_raw"] == pytest.approx(10 / 3) and s["b"] == 2.0 and s["events"] == 3
    assert s["se"] == pytest.approx(math.sqrt(0.135) / 0.27)
    # the third event ends after the cutoff: two earlier events are too few, b stays 1
    few = F.event_slope(g, P, evs, dates, "2021-07-01")
    assert few == {"b": 1.0, "b_raw": None, "se": None, "events": 2}


def _hot_games():
    """Simulated monthly events; the last classical one (e15) among four players on five days."""
    g = _monthly(simulate(800, seed=5))
    date, white, black = list(g.date), list(g.white), list(g.black)
    k = 0
    for i, e in enumerate(g.event):
        if e == "e15":
            date[i] = f"2017-04-{10 + k // 10:02d}"
            white[i], black[i] = f"P{k % 4}", f"P{(k + 1 + k // 4) % 4}"
            k += 1
    return type(g)(**{**g.__dict__, "date": tuple(date), "white": tuple(white),
                      "black": tuple(black)})


def test_hot_probabilities_against_a_plain_twin():
    oos = B.time_ordered(_hot_games(), {}, 2750.0)
    hot_k = {"classical": 10.0, "rapid": 20.0, "blitz": 20.0}
    P = F.hot_probabilities(oos, hot_k)
    g = oos.games
    idx = [i for i, e in enumerate(g.event) if e == "e15"]
    r = oos.fits["e15"]["fit"]
    c = r.control("classical")
    kappa = {k: v for k, (v, _) in r.kappa().items()}
    delta: dict = {}
    for day in sorted({g.date[i] for i in idx}):
        moves = []
        for i in (i for i in idx if g.date[i] == day):
            nu0 = 2 * c["draw0"] / (1 - c["draw0"]) * math.exp(kappa.get(g.kind[i], 0.0))
            w, b = g.white[i], g.black[i]
            pw, pd, pb = davidson_wdl(nu0 / (2 + nu0), c["white_edge"], c["slope"],
                                      c["level"] / 100, 2750.0,
                                      g.white_rating[i] + delta.get(w, 0.0),
                                      g.black_rating[i] + delta.get(b, 0.0))
            assert P[i] == pytest.approx([pw, pd, pb], abs=1e-9)
            s = {0: 1.0, 1: 0.5, 2: 0.0}[int(g.result[i])]
            moves.append((w, b, 10.0 * (s - pw - pd / 2)))
        for w, b, dlt in moves:
            delta[w] = delta.get(w, 0.0) + dlt
            delta[b] = delta.get(b, 0.0) - dlt
    first = [i for i in idx if g.date[i] == "2017-04-10"]
    assert np.allclose(P[first], oos.P["fit"][first], atol=1e-12)   # nothing played before
    assert not np.allclose(P[idx], oos.P["fit"][idx], atol=1e-6)
    assert max(abs(v) for v in delta.values()) > 1.0


def test_hot_ratings_move_with_the_played_rounds():
    from simcycle.model import load_model
    g = _round_robin_games()
    ev = B.complete_round_robins(g)[0]
    rounds, _ = B._rounds(g, ev)
    m = load_model()
    r0 = F.hot_ratings(m, g, rounds, 0, "round-robin")
    r2 = F.hot_ratings(m, g, rounds, 2, "round-robin")
    assert r0 == {"A": 2750.0, "D": 2780.0, "B": 2700.0, "C": 2710.0}
    # round 1: A (W, 2750) beats D (2780); K = 10
    pw, pd, _ = m.wdl("classical", 2750.0, 2780.0)
    r1 = F.hot_ratings(m, g, rounds, 1, "round-robin")
    assert r1["A"] == pytest.approx(2750.0 + 10 * (1 - pw - pd / 2))
    assert r1["A"] + r1["D"] == pytest.approx(2750.0 + 2780.0)
    assert r2["A"] > r1["A"] > r0["A"]          # A won rounds 1 and 2
    assert sum(r2.values()) == pytest.approx(sum(r0.values()))


def test_an_unknown_candidate_is_one_line_exit_2(tmp_path):
    from click.testing import CliRunner

    from simcycle.cli import main
    r = CliRunner().invoke(main, ["backtest", "--no-events", "--candidate", "shrink-fitte"])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1
    assert "--candidate" in r.output and "shrink-fitte" in r.output
    assert "event-slope" in r.output and "widen-L" in r.output


def test_the_fitted_parameters_are_said_per_event():
    rows = [{"event": "Early", "fitted": {"shrink-fitted": {"L": 0.0, "events": 1},
                                          "event-slope": {"b": 1.0, "b_raw": None, "se": None,
                                                          "events": 1}}},
            {"event": "Late", "fitted": {"shrink-fitted": {"L": -0.3, "events": 4},
                                         "event-slope": {"b": 1.2, "b_raw": 1.2, "se": 0.25,
                                                         "events": 4}}}]
    text = "\n".join(B._render_fitted(rows))
    assert "Early" in text and "b 1.00 (not estimated)" in text
    assert "L -0.30,  b 1.20 (estimate +1.20 ± 0.25)" in text and "  4 earlier" in text
    assert B._render_fitted([{"event": "x", "fitted": {}}]) == []
