"""The Grand Prix 2019 kernel against a minimal knock-out kernel doing the same matches, in
CPU time.

The yardstick works over the compiled plan's own arrays (``KnockoutArgs``: the brackets
``pos``, the per-event thresholds ``thr``, the match ``steps``, the GP points ``place_pts``
and ``bonus``) with a SplitMix64 stream per replica and chunked tallies, as simcycle does:
every match of every event is played step by step (classical games with colours by lot, the
tiebreak steps: games, Armageddon, sudden death, lots), the GP points added, and the
qualifying places given to the best totals with lots for a tie (no series tiebreaks, no
prizes, no other tallies).  simcycle's kernel does more per replica (events won, second
places and classical points as tiebreaks, the head-to-head log, every place, prize money,
counters), so the ratio says what that generality costs.  Both play the same matches: the
script checks that every player's expected GP points agree within 5 standard errors before
it times.  From ``start`` only (no match known).

    python benchmarks/bench_minimal_knockout.py [--sims N] [--repeat R]
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import numpy as np
from numba import njit, prange

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import options, warm_plan  # noqa: E402
from bench_minimal import CHUNK, PHI, _mix, _u01, cpu  # noqa: E402

from simcycle.enums import STEP_ARMAGEDDON, STEP_GAMES, STEP_SUDDEN_DEATH  # noqa: E402


@njit(inline="always")
def _game(thr, e, ci, w, b, st):
    """2 white wins, 1 draw, 0 black wins."""
    u = _u01(st)
    if u < thr[e, ci, w, b, 0]:
        return 2
    if u < thr[e, ci, w, b, 1]:
        return 1
    return 0


@njit(inline="always")
def _match(thr, steps, e, a, b, st):
    """(winner 0 = a / 1 = b, decided in the classical games)."""
    for s in range(steps.shape[0]):
        kind, ci, n = steps[s, 0], steps[s, 1], steps[s, 2]
        if kind == STEP_GAMES:
            first_a = _u01(st) < 0.5 if s == 0 else True
            diff = 0
            for j in range(n):
                if (j % 2 == 0) == first_a:
                    diff += _game(thr, e, ci, a, b, st) - 1
                else:
                    diff -= _game(thr, e, ci, b, a, st) - 1
            if diff != 0:
                return (0 if diff > 0 else 1), s == 0
        elif kind == STEP_ARMAGEDDON:
            if _u01(st) < 0.5:
                return (0 if _game(thr, e, ci, a, b, st) == 2 else 1), False
            return (1 if _game(thr, e, ci, b, a, st) == 2 else 0), False
        elif kind == STEP_SUDDEN_DEATH:
            a_white = _u01(st) < 0.5
            while True:
                r = _game(thr, e, ci, a, b, st) if a_white else _game(thr, e, ci, b, a, st)
                if r != 1:
                    return (0 if (r == 2) == a_white else 1), False
                a_white = not a_white
    return (0 if _u01(st) < 0.5 else 1), False


@njit(cache=True, parallel=True, nogil=True)
def knockout_nb(seed, nrep, thr, steps, ev_size, ev_rounds, pos, place_pts, bonus, plan_index,
                qual_else, n_qual, out):
    """out[c, i]: replicas of chunk c in which plan player i qualified; out[c, n + i]: the
    player's GP points summed over them."""
    n = qual_else.shape[0]
    nchunk = out.shape[0]
    for c in prange(nchunk):
        pts = np.empty(n, np.int64)
        alive = np.empty(pos.shape[1], np.int64)
        key = np.empty(n, np.float64)
        st = np.empty(1, np.uint64)
        for r in range(c * CHUNK, min(nrep, (c + 1) * CHUNK)):
            st[0] = _mix(_mix(np.uint64(seed) + PHI) + np.uint64(r) * PHI)
            pts[:] = 0
            for e in range(pos.shape[0]):
                m = ev_size[e]
                for i in range(m):
                    alive[i] = pos[e, i]
                R = ev_rounds[e]
                for rd in range(R):
                    for k in range(m // 2):
                        a, b = alive[2 * k], alive[2 * k + 1]
                        w, classical = _match(thr, steps, e, a, b, st)
                        win, lose = (a, b) if w == 0 else (b, a)
                        if classical and plan_index[win] >= 0:
                            pts[plan_index[win]] += bonus
                        if plan_index[lose] >= 0:
                            pts[plan_index[lose]] += place_pts[R - rd]
                        alive[k] = win
                    m //= 2
                if plan_index[alive[0]] >= 0:
                    pts[plan_index[alive[0]]] += place_pts[0]
            for i in range(n):   # best totals first, lots (a random fraction) for a tie
                key[i] = -1.0 if qual_else[i] else pts[i] + _u01(st)
            for q in range(n_qual):
                best = 0
                for i in range(1, n):
                    if key[i] > key[best]:
                        best = i
                out[c, best] += 1
                key[best] = -2.0
            for i in range(n):
                out[c, n + i] += pts[i]


def minimal(plan, seed, sims):
    a = plan.args
    n = a.qual_else.shape[0]
    out = np.zeros(((sims + CHUNK - 1) // CHUNK, 2 * n), np.int64)
    knockout_nb(np.uint64(seed), np.int64(sims), a.thr, a.steps, a.ev_size, a.ev_rounds, a.pos,
                a.place_pts, np.int64(a.bonus), a.plan_index, a.qual_else, np.int64(a.n_qual),
                out)
    return out.sum(axis=0)


def main(argv=None):
    a = options(argv, sims=400_000, seed=7)
    from simcycle import driver

    _, scn, _, plan = warm_plan("grand-prix-2019.toml", a)
    k = plan.args
    assert a.at == "start" and not k.live and not k.offsets, "from start, thresholds only"
    games = None
    check = 100_000
    n = k.qual_else.shape[0]
    res = driver.run(plan, check, a.seed, progress=False)
    got = minimal(plan, a.seed + 1, check)
    scale = plan.info.points_scale
    pts_mine = res.tallies["points"] / check / scale
    pts_min = got[n:] / check
    sd = np.sqrt(np.maximum(res.tallies["points_sq"] / check / scale ** 2 - pts_mine ** 2,
                            1e-12))
    assert (np.abs(pts_mine - pts_min) < 5 * np.sqrt(2 / check) * sd).all(), (pts_mine, pts_min)
    q_mine = res.tallies["qualify"] / check
    q_min = got[:n] / check
    runs = {"simcycle": lambda: driver.run(plan, a.sims, a.seed, progress=False),
            "minimal": lambda: minimal(plan, a.seed, a.sims)}
    t = {key: [] for key in runs}
    for _ in range(a.repeat):
        for key, fn in runs.items():
            t[key].append(cpu(fn))
    matches = int(sum(k.ev_size) - len(k.ev_size))
    print(f"Grand Prix 2019 from start: {matches} matches per series, {a.sims:,} series, "
          f"CPU seconds, {a.repeat} alternations")
    print(f"{'kernel':<10}{'series/CPU-s':>16}{'simcycle speed':>16}")
    for key in runs:
        rate = a.sims / statistics.median(t[key])
        ratio = statistics.median(x / y for x, y in zip(t[key], t["simcycle"]))
        print(f"{key:<10}{rate:>16,.0f}{ratio:>16.2f}")
    print(f"P(qualify) simcycle v minimal ({check:,} each), largest difference "
          f"{np.max(np.abs(q_mine - q_min)):.4f}: "
          + ", ".join(f"{nm.split()[-1]} {100 * x:.1f}/{100 * y:.1f}"
                      for nm, x, y in zip(scn.names, q_mine, q_min) if max(x, y) > 0.01))
    del games


if __name__ == "__main__":
    main()
