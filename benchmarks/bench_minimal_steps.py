"""Where the Candidates kernel's time goes: the bars-style yardstick (``bench_minimal.bars_nb``)
with simcycle's own pieces put in one at a time, in CPU time on one thread.

Every step is one kernel over the compiled plan's arrays (``RoundRobinArgs``), one thread,
chunks of ``CHUNK`` replicas, compiled for its step only (the step is a constant of the
closure, so the pieces it leaves out are not in its code):

0. ``bars``: every remaining game read off ``gthr`` into the points, the top score, a tie for
   first by lots; P(first) and the points tallied (the yardstick).
1. ``+ per-game tallies``: the games through ``nb.play_nb`` (the crosstable's results,
   copied from the standings first: ``nb.start_nb``; the points its rows' sums, ``nb.points_nb``).
2. ``+ full order``: ``nb.rank_nb`` over the ``Crosstable`` (points, the scenario's C.07
   criteria through ``kernels/criteria_nb``: Sonneborn-Berger, wins, direct encounter; the
   play-off cascade for first, lots) instead of the top score by lots; its counters.
3. ``+ prizes``: ``nb.prizes_nb``.
4. ``+ every tally``: ``tally_nb`` (every place, qualifying, points and prize money with
   their squares) and the counters, stored per chunk, instead of P(first).
5. ``+ simcycle's RNG and replica``: ``nb.replica_nb`` itself, called once a replica as a
   cycle calls the stage (``rng_nb``'s draws, the ``Games`` record, the offsets / hot-Elo /
   parameter-draw checks), and ``tally_nb``.
Then ``simcycle``: the driver's ``run`` (the parallel kernel on one thread, batches), whose
chunk loop runs the stage over a chunk's replicas with its arrays read once a chunk
(``nb.replicas_nb``), not once a replica as step 5 does.

Steps 2 to 5 and simcycle draw the same numbers in the same order, so they give the same
P(first) to the replica (checked exactly before timing), and every step the same points.

    NUMBA_NUM_THREADS=1 python benchmarks/bench_minimal_steps.py [--sims N] [--repeat R]
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import options, warm_plan  # noqa: E402
from bench_minimal import CHUNK, PHI, _mix, _u01, cpu  # noqa: E402

from simcycle.formats.roundrobin import nb  # noqa: E402
from simcycle.kernels.criteria_nb import Crosstable  # noqa: E402
from simcycle.kernels.game_nb import Games, result_of_nb, terms_nb  # noqa: E402
from simcycle.kernels.tally_nb import Tallies, count_flags_nb, tally_nb  # noqa: E402

STEPS = ["bars", "+ per-game tallies", "+ full order", "+ prizes", "+ every tally",
         "+ simcycle's RNG and replica"]
NFLAGS = 6


def make(step: int):
    @njit(nogil=True)
    def kernel(seed, nrep, a, out):
        n = a.base_pts.shape[0]
        m = a.gw.shape[0]
        g = Games(a.params, a.rt.copy(), a.thr, a.live, a.offsets)
        s = nb.scratch_nb(a, NFLAGS)
        cells = s.res.reshape(s.res.size)
        terms = terms_nb(a.params, a.game_ci, a.offsets)
        st = np.empty(1, np.uint64)
        pts = s.pts
        for c in range(out.shape[0]):
            t = Tallies(np.zeros((n, n), np.int64), np.zeros(n, np.int64), np.zeros(n),
                        np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(NFLAGS, np.int64),
                        np.zeros((0, n), np.int64))
            for r in range(c * CHUNK, min(nrep, (c + 1) * CHUNK)):
                st[0] = _mix(_mix(np.uint64(seed) + PHI) + np.uint64(r) * PHI)
                if step >= 5:
                    nb.replica_nb(a, g, a.rt, st, terms, s)
                else:
                    if step >= 1:
                        nb.start_nb(a.base_res, s.res)
                    else:
                        for i in range(n):
                            pts[i] = a.base_pts[i]
                    for q in range(m):
                        u = _u01(st)
                        if step >= 1:
                            nb.play_nb(cells, s.cw[q], s.cb[q],
                                       result_of_nb(u, a.gthr[q, 0], a.gthr[q, 1]))
                        elif u < a.gthr[q, 0]:
                            pts[a.gw[q]] += 2
                        elif u < a.gthr[q, 1]:
                            pts[a.gw[q]] += 1
                            pts[a.gb[q]] += 1
                        else:
                            pts[a.gb[q]] += 2
                    if step >= 1:
                        nb.points_nb(s.res, s.res.shape[1], pts)
                    if step >= 2:
                        s.flags[:] = 0
                        t_ = Crosstable(a.opp, s.res, a.kind, a.colour, pts, pts, a.rating)
                        nb.rank_nb(a.criteria, a.stages, a.n_qual, a.forced_first,
                                   a.playoff_seg, g, t_, n, s.order, s.brk, s.val, s.group,
                                   s.cand, s.score, s.work, st, s.flags)
                    else:
                        top = pts[0]
                        k = 1
                        win = 0
                        for i in range(1, n):
                            if pts[i] > top:
                                top = pts[i]
                                k = 1
                                win = i
                            elif pts[i] == top:
                                k += 1
                                if _u01(st) * k < 1.0:
                                    win = i
                        s.order[0] = win
                    if step >= 3:
                        nb.prizes_nb(a.prize_split, a.place_prize, a.per_half, n, s.order, pts,
                                    s.prize)
                if step >= 4:
                    for p in range(n):
                        s.val[s.order[p]] = a.qualified[p]
                    tally_nb(t, s.order, n, s.val, pts, s.prize)
                    count_flags_nb(t, s.flags)
                else:
                    t.place[s.order[0], 0] += 1
                    for i in range(n):
                        t.points[i] += pts[i]
            for i in range(n):      # the chunk's row: P(first) counts, then the points
                out[c, i] = t.place[i, 0]
                out[c, n + i] = np.int64(t.points[i])
    return kernel


def run(kernel, plan, seed, sims):
    out = np.zeros(((sims + CHUNK - 1) // CHUNK, 2 * plan.args.base_pts.shape[0]), np.int64)
    kernel(np.uint64(seed), np.int64(sims), plan.args, out)
    return out.sum(axis=0)


def main(argv=None):
    a = options(argv, sims=300_000, seed=7)
    from simcycle import driver

    _, scn, _, plan = warm_plan("candidates-2022.toml", a)
    k = plan.args
    assert not k.live and not k.offsets and k.draw_factor.shape[0] == 0, "thresholds only"
    n = k.base_pts.shape[0]
    kernels = [make(i) for i in range(len(STEPS))]
    check = 20_000
    res = driver.run(plan, check, a.seed, progress=False)
    got = [run(f, plan, a.seed, check) for f in kernels]      # compiles each step
    for i, x in enumerate(got):     # the same games: the same points, step by step
        assert (x[n:] == got[0][n:]).all(), (STEPS[i], x[n:], got[0][n:])
        if i >= 2:                  # the same order: simcycle's P(first), replica for replica
            assert (x[:n] == res.tallies["place"][:, 0]).all(), (STEPS[i], x[:n])
    assert np.allclose(got[0][n:] / check, res.tallies["points"] / check)
    runs = {name: (lambda f=f: run(f, plan, a.seed, a.sims)) for name, f in zip(STEPS, kernels)}
    runs["simcycle (driver.run)"] = lambda: driver.run(plan, a.sims, a.seed, progress=False)
    t = {key: [] for key in runs}
    for _ in range(a.repeat):
        for key, fn in runs.items():
            t[key].append(cpu(fn))
    print(f"Candidates 2022 from {a.at}: {k.gw.shape[0]} games per tournament, {a.sims:,} "
          f"tournaments, CPU seconds, {a.repeat} rounds of every step in turn")
    print(f"{'step':<32}{'tournaments/CPU-s':>19}{'of bars':>9}{'this step':>11}")
    names = list(runs)
    for j, key in enumerate(names):
        rate = a.sims / statistics.median(t[key])
        rel = statistics.median(x / y for x, y in zip(t["bars"], t[key]))
        prev = "" if j == 0 else (
            f"{statistics.median(y / x for x, y in zip(t[names[j - 1]], t[key])):.2f}x")
        print(f"{key:<32}{rate:>19,.0f}{rel:>9.2f}{prev:>11}")


if __name__ == "__main__":
    main()
