"""The Candidates kernel against minimal kernels doing the same games, in CPU time.

Yardsticks, all over the compiled plan's own arrays (``RoundRobinArgs``: the remaining games
``gw``/``gb`` and their thresholds ``gthr``, the points so far ``base_pts``), all with a
SplitMix64 stream per replica and chunked tallies as simcycle does:

* ``bars``: the minimal round robin (as a bars-style reference kernel does it): play every
  remaining game, add the half points, find the top score, break a tie for first by lots;
  tally P(first) only.
* ``games``: the bare game loop: draw every game's result and add its half points, nothing
  else (no ranking, no tally but a checksum): the ceiling in games per CPU-second.

simcycle's kernel does more per replica (wins and the head-to-head matrix, Sonneborn-Berger,
the full tiebreak order and the play-off for first, every place, qualifying, prize money and
counters), so the ratio says what that generality costs.  Both play the same games: the
script checks that every player's expected points agree within 5 standard errors before it
times (P(first) differs a little: the scenario's play-off favours the stronger player where
the yardstick draws lots).  The kernels
run alternately (A B A B ...), each timed with the process's CPU time, and the ratios are taken
pair by pair.

    python benchmarks/bench_minimal.py [--sims N] [--at CHECKPOINT] [--repeat R]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit, prange

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import options, warm_plan  # noqa: E402

CHUNK = 512
PHI = np.uint64(0x9E3779B97F4A7C15)


@njit(inline="always")
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(inline="always")
def _u01(st):
    st[0] += PHI
    return (_mix(st[0]) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, parallel=True, nogil=True)
def bars_nb(seed, nrep, gw, gb, gthr, base_pts, out):
    """out[c, i]: replicas of chunk c that player i won (ties for first by lots);
    out[c, n + i]: player i's half points summed over them."""
    n = base_pts.shape[0]
    m = gw.shape[0]
    nchunk = out.shape[0]
    for c in prange(nchunk):
        pts = np.empty(n, np.int64)
        st = np.empty(1, np.uint64)
        for r in range(c * CHUNK, min(nrep, (c + 1) * CHUNK)):
            st[0] = _mix(_mix(np.uint64(seed) + PHI) + np.uint64(r) * PHI)
            for i in range(n):
                pts[i] = base_pts[i]
            for q in range(m):
                u = _u01(st)
                if u < gthr[q, 0]:
                    pts[gw[q]] += 2
                elif u < gthr[q, 1]:
                    pts[gw[q]] += 1
                    pts[gb[q]] += 1
                else:
                    pts[gb[q]] += 2
            top = pts[0]
            k = 1
            win = 0
            for i in range(1, n):
                if pts[i] > top:
                    top = pts[i]
                    k = 1
                    win = i
                elif pts[i] == top:   # reservoir: each of the k tied equally likely
                    k += 1
                    if _u01(st) * k < 1.0:
                        win = i
            out[c, win] += 1
            for i in range(n):
                out[c, n + i] += pts[i]


@njit(cache=True, parallel=True, nogil=True)
def games_nb(seed, nrep, gw, gb, gthr, base_pts, out):
    """The bare game loop; out[c, 0] a checksum of the points so nothing is optimised away."""
    n = base_pts.shape[0]
    m = gw.shape[0]
    nchunk = out.shape[0]
    for c in prange(nchunk):
        pts = np.empty(n, np.int64)
        st = np.empty(1, np.uint64)
        acc = 0
        for r in range(c * CHUNK, min(nrep, (c + 1) * CHUNK)):
            st[0] = _mix(_mix(np.uint64(seed) + PHI) + np.uint64(r) * PHI)
            for i in range(n):
                pts[i] = base_pts[i]
            for q in range(m):
                u = _u01(st)
                if u < gthr[q, 0]:
                    pts[gw[q]] += 2
                elif u < gthr[q, 1]:
                    pts[gw[q]] += 1
                    pts[gb[q]] += 1
                else:
                    pts[gb[q]] += 2
            acc += pts[0]
        out[c, 0] = acc


def minimal(kernel, plan, seed, sims):
    a = plan.args
    out = np.zeros(((sims + CHUNK - 1) // CHUNK, 2 * a.base_pts.shape[0]), np.int64)
    kernel(np.uint64(seed), np.int64(sims), a.gw, a.gb, a.gthr, a.base_pts, out)
    return out.sum(axis=0)


def cpu(fn) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def main(argv=None):
    a = options(argv, sims=1_000_000, seed=7)
    from simcycle import driver

    _, scn, _, plan = warm_plan("candidates-2022.toml", a)
    assert not plan.args.live, "the yardsticks read the plan's per-game thresholds"
    m = plan.args.gw.shape[0]
    check = 200_000
    n = plan.args.base_pts.shape[0]
    res = driver.run(plan, check, a.seed, progress=False)
    mine = res.tallies["place"][:, 0] / check
    got = minimal(bars_nb, plan, a.seed + 1, check)
    bars = got[:n] / check
    # the same games: the same expected points (simcycle's tallies hold half points)
    pts_mine = res.tallies["points"] / check / plan.info.points_scale
    pts_bars = got[n:] / check / 2
    sd = np.sqrt(np.maximum(res.tallies["points_sq"] / check / plan.info.points_scale ** 2
                            - pts_mine ** 2, 1e-12))
    assert (np.abs(pts_mine - pts_bars) < 5 * np.sqrt(2 / check) * sd).all(), (pts_mine,
                                                                              pts_bars)
    minimal(games_nb, plan, a.seed, 1000)
    runs = {"simcycle": lambda: driver.run(plan, a.sims, a.seed, progress=False),
            "bars": lambda: minimal(bars_nb, plan, a.seed, a.sims),
            "games": lambda: minimal(games_nb, plan, a.seed, a.sims)}
    t = {k: [] for k in runs}
    for _ in range(a.repeat):
        for k, fn in runs.items():
            t[k].append(cpu(fn))
    print(f"Candidates 2022 from {a.at}: {m} games per tournament, {a.sims:,} tournaments, "
          f"CPU seconds, {a.repeat} alternations")
    print(f"{'kernel':<10}{'tournaments/CPU-s':>20}{'games/CPU-s':>16}{'simcycle speed':>16}")
    for k in runs:
        rate = a.sims / statistics.median(t[k])
        ratio = statistics.median(x / y for x, y in zip(t[k], t["simcycle"]))
        print(f"{k:<10}{rate:>20,.0f}{rate * m:>16,.0f}{ratio:>16.2f}")
    print("P(first), simcycle v bars (200,000 each): "
          + ", ".join(f"{nm.split()[-1]} {100 * x:.1f}/{100 * y:.1f}"
                      for nm, x, y in zip(scn.names, mine, bars)))


if __name__ == "__main__":
    main()
