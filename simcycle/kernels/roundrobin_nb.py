"""Numba code over arrays: the rest of a round robin, its first-place play-off and the
ranking criteria, replica-parallel with streaming tallies.

Units: points in half points, Sonneborn-Berger in quarter points.  Rating uncertainty is
either per-event strength offsets or "hot" Elo (ratings updated after each simulated game of
the event, K per rating class), never both.  The plain-Python twin is
``simcycle.reference.roundrobin``; both draw the same numbers in the same order:
offsets (player-major, class-minor), the remaining games in plan order, the play-off,
then lots in the ranking criteria, top group first.
"""

import numpy as np
from numba import prange

from ..enums import (PO_ARMAGEDDON, PO_LOTS, PO_MATCH, PO_ROUND_ROBIN, PO_SUDDEN_DEATH_KO,
                     TB_LOTS, TB_SONNEBORN_BERGER, TB_WINS)
from .config import CHUNK, jit, pjit
from .games_nb import armageddon_nb, pair_nb, round_robin_nb, sudden_death_knockout_nb, wdl_nb
from .ranking_nb import lots_segment_nb, segment_end_nb, sort_segment_nb
from .rng_nb import normal_nb, randint_nb, replica_state_nb, u01_nb
from .tally_nb import tally_order_nb

# counters tallied by the kernel (names in formats/roundrobin.py)
N_COUNTERS = 4  # play-off for first; play-off reached stage 2; reached stage 3; lots decided a place


@jit
def playoff_nb(params, rt, offsets, stages, cand, k, score, work, st, counters):
    """Settle the players cand[:k] (k >= 2) level for first.  Returns the winner.

    counters (per-replica flags): [0] a play-off was needed, [1] it reached its second
    stage, [2] its third or later stage, [3] lots decided something.

    stages[s, o] = (min tied, max tied, kind, control row); a stage with no option for the
    number still level is skipped; after the last stage, lots.
    """
    counters[0] = 1
    for s in range(stages.shape[0]):
        if k == 1:
            break
        opt = -1
        for o in range(stages.shape[1]):
            if stages[s, o, 2] != 0 and stages[s, o, 0] <= k <= stages[s, o, 1]:
                opt = o
                break
        if opt < 0:
            continue
        if s == 1:
            counters[1] = 1
        elif s >= 2:
            counters[2] = 1
        kind = stages[s, opt, 2]
        ci = stages[s, opt, 3]
        if kind == PO_MATCH and k == 2:
            d = pair_nb(params, rt, offsets, ci, cand[0], cand[1], st)
            if d > 0:
                k = 1
            elif d < 0:
                cand[0] = cand[1]
                k = 1
        elif kind == PO_ROUND_ROBIN or (kind == PO_MATCH and k > 2):
            round_robin_nb(params, rt, offsets, ci, cand, k, score, st)
            best = score[0]
            for i in range(1, k):
                if score[i] > best:
                    best = score[i]
            m = 0
            for i in range(k):
                if score[i] == best:
                    cand[m] = cand[i]
                    m += 1
            k = m
        elif kind == PO_SUDDEN_DEATH_KO:
            cand[0] = sudden_death_knockout_nb(params, rt, offsets, ci, cand, k, work, st)
            k = 1
        elif kind == PO_ARMAGEDDON and k == 2:
            cand[0] = armageddon_nb(params, rt, offsets, ci, cand[0], cand[1], st)
            k = 1
        elif kind == PO_LOTS:
            counters[3] = 1
            cand[0] = cand[randint_nb(st, k)]
            k = 1
    if k > 1:
        counters[3] = 1
        cand[0] = cand[randint_nb(st, k)]
    return cand[0]


@jit
def rank_nb(n, pts, sb, wins, res, criteria, playoff_first, forced_first, params, rt, offsets,
            stages, order, brk, val, cand, score, work, st, counters):
    """Fill order[:n] with the final ranking (strict: lots settle what the rules leave level).

    forced_first >= 0 is the winner of a play-off already played (used when he is among
    those level for first)."""
    # by points, stable (ties keep index order)
    for i in range(n):
        order[i] = i
    brk[0] = 1
    for i in range(1, n):
        brk[i] = 0
    sort_segment_nb(order, brk, pts, 0, n)
    # play-off for first
    if playoff_first:
        e = segment_end_nb(brk, 0, n)
        if e > 1:
            w = -1
            for i in range(e):
                cand[i] = order[i]
                if order[i] == forced_first:
                    w = forced_first
            if w >= 0:
                counters[0] = 1
            else:
                w = playoff_nb(params, rt, offsets, stages, cand, e, score, work, st, counters)
            p = 0
            while order[p] != w:
                p += 1
            while p > 0:
                order[p] = order[p - 1]
                p -= 1
            order[0] = w
            brk[1] = 1
    # the criteria, group by group
    for c in range(criteria.shape[0]):
        crit = criteria[c]
        k = 0
        while k < n:
            e = segment_end_nb(brk, k, n)
            if e - k > 1:
                if crit == TB_LOTS:
                    counters[3] = 1
                    lots_segment_nb(order, brk, work, k, e, st)
                else:
                    for i in range(k, e):
                        p = order[i]
                        if crit == TB_SONNEBORN_BERGER:
                            val[p] = sb[p]
                        elif crit == TB_WINS:
                            val[p] = wins[p]
                        else:  # TB_HEAD_TO_HEAD: points among the players of this group
                            v = 0
                            for j in range(k, e):
                                v += res[p, order[j]]
                            val[p] = v
                    sort_segment_nb(order, brk, val, k, e)
            k = e

@pjit
def simulate_round_robin_nb(seed, first, nrep, base_pts, base_wins, base_res,
                            gw, gb, thr_w, thr_d, game_ci, params, rt0, offsets, offset_sd,
                            hot, hot_k, criteria, playoff_first, forced_first, stages, n_qual,
                            place_prize, per_half,
                            place_out, qual_out, pts_out, pts2_out, prize_out, prize2_out,
                            counters_out):
    n = base_pts.shape[0]
    m = gw.shape[0]
    n_chunks = (nrep + CHUNK - 1) // CHUNK
    for c in prange(n_chunks):
        st = np.empty(1, np.uint64)
        pts = np.empty(n, np.int64)
        wins = np.empty(n, np.int64)
        res = np.empty((n, n), np.int64)
        sb = np.empty(n, np.int64)
        order = np.empty(n, np.int64)
        brk = np.empty(n, np.int64)
        val = np.empty(n, np.int64)
        cand = np.empty(n, np.int64)
        score = np.empty(n, np.int64)
        work = np.empty(n, np.int64)
        rt = rt0.copy()
        counters = np.zeros(N_COUNTERS, np.int64)
        flags = np.zeros(N_COUNTERS, np.int64)
        for r in range(c * CHUNK, min(nrep, (c + 1) * CHUNK)):
            st[0] = replica_state_nb(np.uint64(seed), np.uint64(first + r))
            if offsets:
                for i in range(n):
                    for cls in range(3):
                        rt[i, cls] = rt0[i, cls] + normal_nb(st) * offset_sd[cls]
            elif hot:
                for i in range(n):
                    for cls in range(3):
                        rt[i, cls] = rt0[i, cls]
            for k in range(N_COUNTERS):
                flags[k] = 0
            for i in range(n):
                pts[i] = base_pts[i]
                wins[i] = base_wins[i]
                for j in range(n):
                    res[i, j] = base_res[i, j]
            for g in range(m):
                w = gw[g]
                b = gb[g]
                if offsets or hot:
                    # as game_nb (one uniform), keeping pw and pd for the Elo update
                    cls = np.int64(params[game_ci, 4])
                    pw, pd = wdl_nb(params, game_ci, rt[w, cls], rt[b, cls], offsets)
                    u = u01_nb(st)
                    out = 0 if u < pw else (1 if u < pw + pd else 2)
                    if hot:  # "hot" Elo: ratings move inside the simulated event
                        sc = 1.0 if out == 0 else (0.5 if out == 1 else 0.0)
                        dlt = hot_k[cls] * (sc - (pw + 0.5 * pd))
                        rt[w, cls] += dlt
                        rt[b, cls] -= dlt
                else:
                    u = u01_nb(st)
                    out = 0 if u < thr_w[g] else (1 if u < thr_d[g] else 2)
                if out == 0:
                    pts[w] += 2
                    wins[w] += 1
                    res[w, b] += 2
                elif out == 2:
                    pts[b] += 2
                    wins[b] += 1
                    res[b, w] += 2
                else:
                    pts[w] += 1
                    pts[b] += 1
                    res[w, b] += 1
                    res[b, w] += 1
            for i in range(n):
                s = 0
                for j in range(n):
                    s += res[i, j] * pts[j]
                sb[i] = s
            rank_nb(n, pts, sb, wins, res, criteria, playoff_first, forced_first, params, rt,
                    offsets, stages, order, brk, val, cand, score, work, st, flags)
            for k in range(N_COUNTERS):
                counters[k] += flags[k]
            tally_order_nb(c, order, n, n_qual, pts, place_out, qual_out, pts_out, pts2_out)
            for p in range(n):
                i = order[p]
                z = place_prize[p] + per_half * np.float64(pts[i])
                prize_out[c, i] += z
                prize2_out[c, i] += z * z
        for k in range(N_COUNTERS):
            counters_out[c, k] = counters[k]
