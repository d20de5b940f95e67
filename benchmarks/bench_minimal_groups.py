"""The Grand Prix 2022 kernel against a minimal group-series kernel doing the same games and
matches, in CPU time.

The yardstick works over the compiled plan's own arrays (``GroupSeriesArgs``: the rosters
and draw rules, each group's games ``gm``, the per-event thresholds ``thr``, the match
``steps``, the group-place points ``gp6`` and ``ko_gp6``) with a SplitMix64 stream per
replica and chunked tallies, as simcycle does: per event the draw (lots or baskets), each
group's twelve games, the play-off for first place when several are level (two level: the
two-player procedure, rapid pair, blitz pair, Armageddon; three level: a rapid then a blitz
round robin, a cut to two going on with the next step, lots picking two for an Armageddon;
four level: two pairs by lot then their winners), places behind shared by score, then the
semi-finals and the final (``bench_minimal_knockout._match``), group and knock-out points
added; the two qualifying places go to the best totals, then events won, then second
places, then lots (the series' classical points and wins left out: no per-game tallies, no
prizes, no other tallies).  simcycle's kernel does more per replica (offsets, known games
and matches, the counters, classical points and wins as series tiebreaks, every place,
prize money), so the
ratio says what that generality costs.  The script checks that every player's expected
series points agree within 5 standard errors before it times.  From ``start`` only.

    python benchmarks/bench_minimal_groups.py [--sims N] [--repeat R]
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
from bench_minimal_knockout import _game, _match, _take_best  # noqa: E402

from simcycle.enums import (DRAW_BASKETS, DRAW_LOTS, PLACES_ELIMINATION,  # noqa: E402
                            REDUCED_NEXT_STEP, UNPLAYED)


@njit(inline="always")
def _shuffle(x, lo, n, st):
    for i in range(n - 1, 0, -1):
        j = min(int(_u01(st) * (i + 1)), i)
        x[lo + i], x[lo + j] = x[lo + j], x[lo + i]


@njit(inline="always")
def _rest(score, gp6, gout, tmp):
    """Places of the slots still without points (gout < 0) after those placed, by score,
    the points of level slots shared."""
    q = (gout[0] >= 0) + (gout[1] >= 0) + (gout[2] >= 0) + (gout[3] >= 0)
    for s in range(4):
        above = 0
        level = 0
        for t in range(4):
            if gout[t] < 0:
                above += score[t] > score[s]
                level += score[t] == score[s]
        tmp[s] = sum(gp6[q + above:q + above + level]) // max(level, 1)
    for s in range(4):
        if gout[s] < 0:
            gout[s] = tmp[s]


@njit(inline="always")
def _places(thr, steps, e, grp, score, gp6, st, gout, tied, sc):
    """Group points of the four slots (gout, sixths); returns the winner's slot."""
    top = max(max(score[0], score[1]), max(score[2], score[3]))
    k = 0
    for s in range(4):
        gout[s] = -1
        if score[s] == top:
            tied[k] = s
            k += 1
    if k == 1:
        win = tied[0]
        gout[win] = gp6[0]
    elif k == 2:
        r, _, _, _ = _match(thr, steps[1:], e, grp[tied[0]], grp[tied[1]], st)
        win = tied[r]
        gout[win] = gp6[0]
        gout[tied[1 - r]] = gp6[1]
    elif k == 3:
        win = -1
        for stp in range(2):        # rapid, then blitz single round robin, colours by lot
            ci = steps[1 + stp, 1]
            sc[:3] = 0
            for i, j in ((0, 1), (0, 2), (1, 2)):
                if _u01(st) < 0.5:
                    v = _game(thr, e, ci, grp[tied[i]], grp[tied[j]], st)
                else:
                    v = 2 - _game(thr, e, ci, grp[tied[j]], grp[tied[i]], st)
                sc[i] += v
                sc[j] += 2 - v
            m = max(sc[0], max(sc[1], sc[2]))
            nw = (sc[0] == m) + (sc[1] == m) + (sc[2] == m)
            if nw == 1:
                wi = 0 if sc[0] == m else (1 if sc[1] == m else 2)
                o0, o1 = (wi + 1) % 3, (wi + 2) % 3
                win = tied[wi]
                gout[win] = gp6[0]
                if sc[o0] == sc[o1]:    # level again: second and third shared
                    gout[tied[o0]] = (gp6[1] + gp6[2]) // 2
                    gout[tied[o1]] = (gp6[1] + gp6[2]) // 2
                else:
                    hi, lo = (o0, o1) if sc[o0] > sc[o1] else (o1, o0)
                    gout[tied[hi]] = gp6[1]
                    gout[tied[lo]] = gp6[2]
                break
            if nw == 2:
                p0 = 0 if sc[0] == m else 1
                p1 = 2 if sc[2] == m else 1
                r, _, _, _ = _match(thr, steps[stp + 2:], e, grp[tied[p0]], grp[tied[p1]], st)
                win = tied[p0] if r == 0 else tied[p1]
                gout[win] = gp6[0]
                gout[tied[p1] if r == 0 else tied[p0]] = gp6[1]
                gout[tied[3 - p0 - p1]] = gp6[2]
                break
        if win < 0:                 # three level twice: lots pick two for an Armageddon
            _shuffle(tied, 0, 3, st)
            r, _, _, _ = _match(thr, steps[3:], e, grp[tied[0]], grp[tied[1]], st)
            win = tied[r]
            gout[win] = gp6[0]
            gout[tied[1 - r]] = (gp6[1] + gp6[2]) // 2
            gout[tied[2]] = (gp6[1] + gp6[2]) // 2
    else:                           # four level: two pairs by lot, then their winners
        _shuffle(tied, 0, 4, st)
        r1, _, _, _ = _match(thr, steps[1:], e, grp[tied[0]], grp[tied[1]], st)
        r2, _, _, _ = _match(thr, steps[1:], e, grp[tied[2]], grp[tied[3]], st)
        w1, w2 = tied[r1], tied[2 + r2]
        r, _, _, _ = _match(thr, steps[1:], e, grp[w1], grp[w2], st)
        win = w1 if r == 0 else w2
        gout[win] = gp6[0]
        gout[w2 if r == 0 else w1] = gp6[1]
        gout[tied[1 - r1]] = (gp6[2] + gp6[3]) // 2
        gout[tied[3 - r2]] = (gp6[2] + gp6[3]) // 2
    _rest(score, gp6, gout, sc)
    return win


@njit(cache=True, parallel=True, nogil=True)
def groups_nb(seed, nrep, thr, steps, roster, draw, gm, gp6, ko_gp6, eligible, n_qual, out):
    """out[c, i]: replicas of chunk c in which player i qualified; out[c, n + i]: the
    player's series points (sixths) summed over them."""
    n = eligible.shape[0]
    for c in prange(out.shape[0]):
        pts = np.empty(n, np.int64)
        won = np.empty(n, np.int64)     # events won * 4 + second places
        key = np.empty(n, np.float64)
        ros = np.empty(16, np.int64)
        grp = np.empty(4, np.int64)
        score = np.empty(4, np.int64)
        gout = np.empty(4, np.int64)
        gwin = np.empty(4, np.int64)
        tied = np.empty(4, np.int64)
        sc = np.empty(4, np.int64)
        st = np.empty(1, np.uint64)
        for r in range(c * CHUNK, min(nrep, (c + 1) * CHUNK)):
            st[0] = _mix(_mix(np.uint64(seed) + PHI) + np.uint64(r) * PHI)
            pts[:] = 0
            won[:] = 0
            for e in range(roster.shape[0]):
                ros[:] = roster[e]
                if draw[e] == DRAW_LOTS:
                    _shuffle(ros, 0, 16, st)
                elif draw[e] == DRAW_BASKETS:
                    for q in range(4):
                        _shuffle(ros, 4 * q, 4, st)
                for gi in range(4):
                    for s in range(4):
                        grp[s] = ros[4 * s + gi] if draw[e] == DRAW_BASKETS else ros[4 * gi + s]
                    score[:] = 0
                    for j in range(gm.shape[2]):
                        ws, bs, res = gm[e, gi, j, 1], gm[e, gi, j, 2], gm[e, gi, j, 3]
                        v = _game(thr, e, steps[0, 1], grp[ws], grp[bs], st) if res == UNPLAYED \
                            else 2 - res
                        score[ws] += v
                        score[bs] += 2 - v
                    gwin[gi] = grp[_places(thr, steps, e, grp, score, gp6, st, gout, tied, sc)]
                    for s in range(4):
                        pts[grp[s]] += gout[s]
                w = 0
                for m in range(3):          # A v B, C v D, the final; colours by lot
                    x, y = (gwin[2 * m], gwin[2 * m + 1]) if m < 2 else (gwin[0], gwin[2])
                    r, _, _, _ = _match(thr, steps, e, x, y, st)
                    w = x if r == 0 else y
                    pts[w] += ko_gp6
                    if m < 2:
                        gwin[2 * m] = w
                    else:
                        won[w] += 4
                        won[x if w == y else y] += 1
            for i in range(n):   # best totals, events won, seconds, then lots (a fraction)
                key[i] = pts[i] + (won[i] + _u01(st)) / 16.0 if eligible[i] else -1.0
            _take_best(key, n_qual, out, c)
            for i in range(n):
                out[c, n + i] += pts[i]


def minimal(plan, seed, sims):
    a = plan.args
    n = a.eligible.shape[0]
    out = np.zeros(((sims + CHUNK - 1) // CHUNK, 2 * n), np.int64)
    groups_nb(np.uint64(seed), np.int64(sims), a.thr, a.steps, a.roster, a.draw, a.gm, a.gp6,
              np.int64(a.ko_gp6), a.eligible, np.int64(a.n_qual), out)
    return out.sum(axis=0)


def main(argv=None):
    a = options(argv, sims=200_000, seed=7)
    from simcycle import driver

    _, scn, _, plan = warm_plan("grand-prix-2022.toml", a)
    k = plan.args
    assert a.at == "start" and not k.live and not k.offsets, "from start, thresholds only"
    assert (k.grp_fixed < 0).all() and (k.ko_win < 0).all() and (k.ko_fixed < 0).all()
    assert k.places_mode == PLACES_ELIMINATION and k.reduced_mode == REDUCED_NEXT_STEP
    assert k.ko_lots and k.win_gp6 == 0
    check = 100_000
    n = k.eligible.shape[0]
    res = driver.run(plan, check, a.seed, progress=False)
    got = minimal(plan, a.seed + 1, check)
    scale = plan.info.points_scale
    pts_mine = res.tallies["points"] / check / scale
    pts_min = got[n:] / check / scale
    sd = np.sqrt(np.maximum(res.tallies["points_sq"] / check / scale ** 2 - pts_mine ** 2,
                            1e-12))
    assert (np.abs(pts_mine - pts_min) < 5 * np.sqrt(2 / check) * sd).all(), (pts_mine, pts_min)
    q_mine = res.tallies["qualify"] / check
    q_min = got[:n] / check
    se = np.sqrt((q_mine * (1 - q_mine) + q_min * (1 - q_min)) / check)
    runs = {"simcycle": lambda: driver.run(plan, a.sims, a.seed, progress=False),
            "minimal": lambda: minimal(plan, a.seed, a.sims)}
    t = {key: [] for key in runs}
    for _ in range(a.repeat):
        for key, fn in runs.items():
            t[key].append(cpu(fn))
    games = k.roster.shape[0] * (4 * k.gm.shape[2] + 3 * 2)
    print(f"Grand Prix 2022 from start: {k.roster.shape[0]} events of four groups and three "
          f"matches ({games} classical games a series), {a.sims:,} series, CPU seconds, "
          f"{a.repeat} alternations")
    print(f"{'kernel':<10}{'series/CPU-s':>16}{'simcycle speed':>16}")
    for key in runs:
        rate = a.sims / statistics.median(t[key])
        ratio = statistics.median(x / y for x, y in zip(t[key], t["simcycle"]))
        print(f"{key:<10}{rate:>16,.0f}{ratio:>16.2f}")
    worst = int(np.argmax(np.abs(q_mine - q_min) / np.maximum(se, 1e-9)))
    print(f"P(qualify) simcycle v minimal ({check:,} each), largest difference "
          f"{np.max(np.abs(q_mine - q_min)):.4f}, largest in standard errors "
          f"{abs(q_mine[worst] - q_min[worst]) / max(se[worst], 1e-9):.1f}: "
          + ", ".join(f"{nm.split()[-1]} {100 * x:.1f}/{100 * y:.1f}"
                      for nm, x, y in zip(scn.names, q_mine, q_min) if max(x, y) > 0.01))


if __name__ == "__main__":
    main()
