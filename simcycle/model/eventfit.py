"""Candidate fixes whose parameter is fitted on earlier whole events (``simcycle backtest
--candidate shrink-fitted / event-slope / hot``), every one time-ordered: an event is scored
with a parameter estimated only on the complete round robins that ended before the first day
of its month (the same cutoff as its game fit), and the same parameter scores its games.

- ``shrink-fitted``: every rating pulled toward the field's mean by the fraction L (negative L:
  spread out), L chosen from ``SHRINK_GRID`` by the mean -ln P(real winner) at the start of the
  earlier events (their simulations with their own time-ordered fits).
- ``event-slope``: the strength spread measured on earlier events' final scores rather than on
  game residuals: the slope b of the players' final points on the points their fit expected
  (both about the field's mean; least squares through 0).  b < 1: the ratings spread the field
  more than the results did; the event's ratings are then scaled about its mean by b.
- ``hot``: in-event form, "hot" Elo: after every game both players' ratings move by K (score -
  expected score), K from the model's ``[hot]`` (10 classical, 20 rapid and blitz); per game
  through the real earlier games of the event, in a simulation through the simulated ones.
"""

from __future__ import annotations

import math

import numpy as np

from .fit import L as LOG_SCALE
from .gamedata import DRAW, WHITE_WINS

SHRINK_GRID = (-0.3, -0.15, 0.15, 0.3, 0.5)   # simulated for shrink-fitted (0: the fit itself)
MIN_EARLIER_EVENTS = 3        # fewer earlier complete events: the parameter stays neutral
FITTED_CANDIDATES = ("shrink-fitted", "event-slope", "hot")
EVENT_SLOPE_RANGE = (0.0, 2.0)   # b is clipped to this range (never reached on the data)
CLASS_OF = {"classical": "classical", "rapid": "rapid", "armageddon": "blitz"}


def shrink_name(x: float) -> str:
    """The candidate name of a fixed shrinkage L: shrink-L (L >= 0) or widen-|L| (L < 0)."""
    return f"shrink-{x:g}" if x >= 0 else f"widen-{-x:g}"


def _score(r: int) -> float:
    return 1.0 if r == WHITE_WINS else 0.5 if r == DRAW else 0.0


def earlier_rows(rows: list[dict], cutoff: str) -> list[dict]:
    """The complete events (backtest rows) whose last game was played before ``cutoff``."""
    return [r for r in rows if r["dates"][1] < cutoff]


def choose_shrink(rows: list[dict], cutoff: str, grid=SHRINK_GRID) -> tuple[float, int]:
    """(L, events used): the shrinkage of ``grid`` (and 0, the fit) with the lowest mean
    -ln P(real winner) at the start over the events ended before ``cutoff``; 0 with fewer than
    MIN_EARLIER_EVENTS of them."""
    use = earlier_rows(rows, cutoff)
    if len(use) < MIN_EARLIER_EVENTS:
        return 0.0, len(use)
    cands = [(0.0, "fit"), *((x, shrink_name(x)) for x in grid)]
    best = min(cands, key=lambda c: (float(np.mean([r["models"][c[1]][0]["neg_log_p"]
                                                     for r in use])), abs(c[0])))
    return best[0], len(use)


def points_against_expected(games, P: np.ndarray, ev: dict) -> tuple[np.ndarray, np.ndarray]:
    """(expected, real) final points of each player of a complete event about the field's mean:
    expected from the scored probabilities ``P`` of its games (rows of ``games``)."""
    pos = {p: j for j, p in enumerate(ev["players"])}
    exp_, real = np.zeros(len(pos)), np.zeros(len(pos))
    for i in ev["idx"]:
        w, b = pos[games.white[i]], pos[games.black[i]]
        ew = P[i, 0] + 0.5 * P[i, 1]
        s = _score(int(games.result[i]))
        exp_[w] += ew
        exp_[b] += 1.0 - ew
        real[w] += s
        real[b] += 1.0 - s
    return exp_ - exp_.mean(), real - real.mean()


def event_slope(games, P: np.ndarray, events: list[dict], dates: dict,
                cutoff: str) -> dict:
    """The event-level slope b (with its standard error, robust to unequal variances) of real
    on expected final points over the complete ``events`` ended before ``cutoff``
    (``dates``: event -> last day); b = 1 (and no estimate, None) with fewer than
    MIN_EARLIER_EVENTS."""
    xs, ys = [], []
    n = 0
    for ev in events:
        if dates[ev["event"]] < cutoff:
            x, y = points_against_expected(games, P, ev)
            xs.append(x)
            ys.append(y)
            n += 1
    x = np.concatenate(xs) if xs else np.zeros(0)
    sxx = float(x @ x)
    if n < MIN_EARLIER_EVENTS or sxx == 0.0:
        return {"b": 1.0, "b_raw": None, "se": None, "events": n}   # not estimated
    y = np.concatenate(ys)
    b = float(x @ y) / sxx
    r = y - b * x
    se = math.sqrt(float(np.sum(x * x * r * r))) / sxx
    return {"b": float(np.clip(b, *EVENT_SLOPE_RANGE)), "b_raw": b, "se": se, "events": n}


def hot_ratings(model, games, rounds: list[list[int]], played: int, kind: str | None) -> dict:
    """Each player's rating after the first ``played`` rounds of an event under hot Elo
    (K = the model's classical K): the ratings a forecaster with in-event form starts from."""
    m = model.for_kind(kind)
    k = m.hot_k["classical"]
    rating: dict = {}
    for r in rounds:
        for i in r:
            rating.setdefault(games.white[i], float(games.white_rating[i]))
            rating.setdefault(games.black[i], float(games.black_rating[i]))
    for r in rounds[:played]:
        moves = []
        for i in r:
            w, b = games.white[i], games.black[i]
            pw, pd, _ = m.wdl("classical", rating[w], rating[b])
            moves.append((w, b, k * (_score(int(games.result[i])) - (pw + 0.5 * pd))))
        for w, b, dlt in moves:          # a round's games are simultaneous
            rating[w] += dlt
            rating[b] -= dlt
    return rating


def hot_probabilities(oos, hot_k: dict) -> np.ndarray:
    """[n, 3] per-game probabilities of the scored games with in-event hot Elo: each game of
    an event scored by its time-ordered fit with both players' ratings moved by K (score -
    expected) after each earlier game of that event (games in date order; a day's games see
    the days before)."""
    data, g = oos.data, oos.games
    P = oos.P["fit"].copy()
    pos = {nm: j for j, nm in enumerate(data.des.names)}
    ev = np.array(g.event, dtype=object)
    for e in oos.fits:
        idx = np.flatnonzero(ev == e)
        if not len(idx):
            continue
        th = data.full_theta(oos.fits[e]["fit"])
        delta: dict = {}
        by_day: dict = {}
        for i in idx:
            by_day.setdefault(g.date[i], []).append(i)
        for day in sorted(by_day):
            moves = []
            for i in by_day[day]:
                row = oos.rows[i]
                cls = data.classes[data.cls[row]]
                dw, db = delta.get(g.white[i], 0.0), delta.get(g.black[i], 0.0)
                u = data.des.Zu[row] @ th + th[pos[f"level:{cls}"]] * (dw + db) / 200.0
                e_ = data.des.W[row] @ th + th[pos[f"slope:{cls}"]] * (dw - db)
                a = LOG_SCALE * (1.0 + math.exp(u) / 2.0) * e_
                m = max(abs(a), u)
                norm = math.exp(a - m) + math.exp(-a - m) + math.exp(u - m)
                pw, pd = math.exp(a - m) / norm, math.exp(u - m) / norm
                P[i] = (pw, pd, 1.0 - pw - pd)
                k = hot_k[CLASS_OF[cls]]
                moves.append((g.white[i], g.black[i],
                              k * (_score(int(g.result[i])) - (pw + 0.5 * pd))))
            for w, b, dlt in moves:
                delta[w] = delta.get(w, 0.0) + dlt
                delta[b] = delta.get(b, 0.0) - dlt
    return P

