"""Numba code over arrays: the rest of a tour season (ACP Tour 2004-05, seed 004), event by
event, then each member's best-N total and the seed's tiebreaks, replica-parallel with
streaming tallies.

Units: ACP points in hundredths (int64).  The plain-Python twin is ``simcycle.reference.tour``;
both draw the same numbers in the same order: offsets (player-major, class-minor, real players
only), then the remaining events in date order -- a round robin's games pair by pair (i < j,
cycle by cycle; colours by lot in a single round robin), an open's games player by player and
round by round, a knock-out's matches round by round in bracket-slot order -- with lots for
level scores (``shared_places = "lots"``) after each event, top group first; then lots among
members level on every tiebreak, top group first.

The event table ``ev`` has one row per event to play; its columns are named in
``formats/tour.py`` (EV_*) and repeated here as plain integers.
"""

import numpy as np
from numba import prange

from .config import CHUNK, jit, pjit
from .tally_nb import tally_order_nb
from .games_nb import game_nb, match_nb, shuffle_nb
from .rng_nb import normal_nb, replica_state_nb, u01_nb

N_COUNTERS = 2  # a tiebreak decided a qualifying place; lots decided one

EV_SYS, EV_CYCLES, EV_CI, EV_ROUNDS, EV_OPP, EV_FS, EV_FL, EV_PS, EV_SS, EV_SL, EV_BS, EV_BL, EV_TS = range(13)
SIM_RR, SIM_KO, SIM_OPEN = 0, 1, 2


@jit
def places_from_scores_nb(k, score, order, work, share_lots, st, lo, hi):
    """Final places of k players from their half-point scores: lo[i]..hi[i] (1-based).

    Level scores share the places they cover, or (share_lots) are ordered by lots, top
    group first."""
    for i in range(k):
        order[i] = i
    for i in range(1, k):
        x = order[i]
        j = i - 1
        while j >= 0 and score[order[j]] < score[x]:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = x
    i = 0
    while i < k:
        j = i + 1
        while j < k and score[order[j]] == score[order[i]]:
            j += 1
        if share_lots and j - i > 1:
            for t in range(i, j):
                work[t - i] = order[t]
            shuffle_nb(work, j - i, st)
            for t in range(i, j):
                order[t] = work[t - i]
                lo[order[t]] = t + 1
                hi[order[t]] = t + 1
        else:
            for t in range(i, j):
                lo[order[t]] = i + 1
                hi[order[t]] = j
        i = j


@jit
def quick_game_nb(thr, t, st):
    """One game from precomputed thresholds thr[t] = (P White wins, P White wins or draws):
    the same single draw as ``game_nb``."""
    u = u01_nb(st)
    if u < thr[t, 0]:
        return 0
    if u < thr[t, 1]:
        return 1
    return 2


@jit
def simulate_event_nb(e, ev, field, pp, steps, slots, thr, share_lots, params, rt, offsets, st,
                      score, order, work, alive, fixed, mout, lo, hi, pts):
    """Play event row ``e``; fill lo/hi (places) and pts (ACP points, hundredths) of its
    listed players in field order.  Without offsets, RR and open games read the thresholds
    ``thr`` (rows from ev[e, EV_TS]); with offsets they call ``game_nb``."""
    sysk = ev[e, EV_SYS]
    fs = ev[e, EV_FS]
    fl = ev[e, EV_FL]
    ci = ev[e, EV_CI]
    ts = ev[e, EV_TS]
    if sysk == SIM_RR:
        for i in range(fl):
            score[i] = 0
        cyc = ev[e, EV_CYCLES]
        for c in range(cyc):
            for i in range(fl):
                for j in range(i + 1, fl):
                    if cyc == 1:
                        iw = u01_nb(st) < 0.5
                    else:
                        iw = c % 2 == 0
                    a = field[fs + i]
                    b = field[fs + j]
                    if offsets:
                        if iw:
                            r = game_nb(params, rt, offsets, ci, a, b, st)
                        else:
                            r = 2 - game_nb(params, rt, offsets, ci, b, a, st)
                    elif iw:
                        r = quick_game_nb(thr, ts + i * fl + j, st)
                    else:
                        r = 2 - quick_game_nb(thr, ts + j * fl + i, st)
                    # r from i's side: 0 i won, 1 draw, 2 j won
                    if r == 0:
                        score[i] += 2
                    elif r == 2:
                        score[j] += 2
                    else:
                        score[i] += 1
                        score[j] += 1
        places_from_scores_nb(fl, score, order, work, share_lots, st, lo, hi)
    elif sysk == SIM_OPEN:
        opp = ev[e, EV_OPP]
        nr = ev[e, EV_ROUNDS]
        for i in range(fl):
            a = field[fs + i]
            s = 0
            for rd in range(nr):
                if offsets:
                    if rd % 2 == 0:
                        r = game_nb(params, rt, offsets, ci, a, opp, st)
                    else:
                        r = 2 - game_nb(params, rt, offsets, ci, opp, a, st)
                elif rd % 2 == 0:
                    r = quick_game_nb(thr, ts + 2 * i, st)
                else:
                    r = 2 - quick_game_nb(thr, ts + 2 * i + 1, st)
                s += 2 if r == 0 else (1 if r == 1 else 0)
            score[i] = s
        places_from_scores_nb(fl, score, order, work, share_lots, st, lo, hi)
    else:  # knock-out bracket
        bs = ev[e, EV_BS]
        size = ev[e, EV_BL]
        ss = ev[e, EV_SS]
        stp = steps[ss: ss + ev[e, EV_SL]]
        for s in range(size):
            alive[s] = slots[bs + s]
        n = size
        while n > 1:
            h = n // 2
            nloss = 0
            nsurv = 0
            for i in range(h):
                a = alive[2 * i]
                b = alive[2 * i + 1]
                if a < 0:
                    w = b
                elif b < 0:
                    w = a
                else:
                    match_nb(params, rt, offsets, field[fs + a], field[fs + b], stp, fixed, st, mout)
                    if mout[0] == 0:
                        w = a
                        work[nloss] = b
                    else:
                        w = b
                        work[nloss] = a
                    nloss += 1
                alive[i] = w
                if w >= 0:
                    nsurv += 1
            for t in range(nloss):
                lo[work[t]] = nsurv + 1
                hi[work[t]] = nsurv + nloss
            n = h
        lo[alive[0]] = 1
        hi[alive[0]] = 1
    ps = ev[e, EV_PS]
    for i in range(fl):
        s = 0
        for p in range(lo[i], hi[i] + 1):
            s += pp[ps + p - 1]
        k = hi[i] - lo[i] + 1
        pts[i] = (2 * s + k) // (2 * k)


@jit
def insert_nb(top, cnt, m, x, nbest):
    """Add result x (> 0) to member m's counted list (best first, at most nbest long)."""
    c = cnt[m]
    if c == nbest:
        if x <= top[m, nbest - 1]:
            return
        c -= 1
    j = c
    while j > 0 and top[m, j - 1] < x:
        top[m, j] = top[m, j - 1]
        j -= 1
    top[m, j] = x
    cnt[m] = c + 1


@jit
def compare_nb(top, cnt, tot, a, b):
    """< 0 when member a ranks above b, > 0 below, 0 level on every criterion before lots:
    total, (1) fewer counted events, (2) the total without the worst, the next worst, ..."""
    if tot[a] != tot[b]:
        return -1 if tot[a] > tot[b] else 1
    if cnt[a] != cnt[b]:
        return -1 if cnt[a] < cnt[b] else 1
    ra = 0
    rb = 0
    c = cnt[a]
    for k in range(1, c):
        ra += top[a, c - k]
        rb += top[b, c - k]
        if ra != rb:
            return -1 if ra < rb else 1
    return 0


@jit
def rank_members_nb(nm, top, cnt, tot, morder, work, n_qual, st, flags):
    for i in range(nm):
        morder[i] = i
    for i in range(1, nm):
        x = morder[i]
        j = i - 1
        while j >= 0 and compare_nb(top, cnt, tot, morder[j], x) > 0:
            morder[j + 1] = morder[j]
            j -= 1
        morder[j + 1] = x
    flags[0] = 0
    flags[1] = 0
    if 0 < n_qual < nm:
        a = morder[n_qual - 1]
        b = morder[n_qual]
        if compare_nb(top, cnt, tot, a, b) == 0:
            flags[1] = 1
        elif tot[a] == tot[b]:
            flags[0] = 1
    i = 0
    while i < nm:
        j = i + 1
        while j < nm and compare_nb(top, cnt, tot, morder[i], morder[j]) == 0:
            j += 1
        if j - i > 1:
            for t in range(i, j):
                work[t - i] = morder[t]
            shuffle_nb(work, j - i, st)
            for t in range(i, j):
                morder[t] = work[t - i]
        i = j


@pjit
def simulate_tour_nb(seed, first, nrep, ev, field, pp, steps, slots, thr, member_of, base_top, base_cnt,
                     share_lots, n_real, max_field, params, rt0, offsets, offset_sd, n_qual,
                     place_out, qual_out, pts_out, pts2_out, prize_out, prize2_out, counters_out):
    nm = base_top.shape[0]
    nbest = base_top.shape[1]
    ne = ev.shape[0]
    size_max = 2
    for e in range(ne):
        if ev[e, EV_BL] > size_max:
            size_max = ev[e, EV_BL]
    n_chunks = (nrep + CHUNK - 1) // CHUNK
    for c in prange(n_chunks):
        st = np.empty(1, np.uint64)
        rt = rt0.copy()
        score = np.zeros(max_field, np.int64)
        order = np.zeros(max_field, np.int64)
        work = np.zeros(max(max_field, nm) + 1, np.int64)
        alive = np.zeros(size_max, np.int64)
        fixed = np.empty(0, np.int64)
        mout = np.zeros(6, np.int64)
        lo = np.zeros(max_field, np.int64)
        hi = np.zeros(max_field, np.int64)
        pts = np.zeros(max_field, np.int64)
        top = np.zeros((nm, nbest), np.int64)
        cnt = np.zeros(nm, np.int64)
        tot = np.zeros(nm, np.int64)
        morder = np.zeros(nm, np.int64)
        flags = np.zeros(N_COUNTERS, np.int64)
        counters = np.zeros(N_COUNTERS, np.int64)
        for r in range(c * CHUNK, min(nrep, (c + 1) * CHUNK)):
            st[0] = replica_state_nb(np.uint64(seed), np.uint64(first + r))
            if offsets:
                for i in range(n_real):
                    for cls in range(3):
                        rt[i, cls] = rt0[i, cls] + normal_nb(st) * offset_sd[cls]
            for m in range(nm):
                cnt[m] = base_cnt[m]
                for t in range(nbest):
                    top[m, t] = base_top[m, t]
            for e in range(ne):
                simulate_event_nb(e, ev, field, pp, steps, slots, thr, share_lots, params, rt,
                                  offsets, st, score, order, work, alive, fixed, mout, lo, hi, pts)
                fs = ev[e, EV_FS]
                for i in range(ev[e, EV_FL]):
                    m = member_of[field[fs + i]]
                    if m >= 0 and pts[i] > 0:
                        insert_nb(top, cnt, m, pts[i], nbest)
            for m in range(nm):
                s = 0
                for t in range(cnt[m]):
                    s += top[m, t]
                tot[m] = s
            rank_members_nb(nm, top, cnt, tot, morder, work, n_qual, st, flags)
            for k in range(N_COUNTERS):
                counters[k] += flags[k]
            tally_order_nb(c, morder, nm, n_qual, tot, place_out, qual_out, pts_out, pts2_out)
        for k in range(N_COUNTERS):
            counters_out[c, k] = counters[k]


@jit
def event_odds_nb(seed, nrep, e, ev, field, pp, steps, slots, thr, share_lots, max_field, params, rt,
                  prob, pts_sum):
    """Play event row ``e`` alone nrep times (replica r draws from stream (seed, r)).

    prob[i, p] += the share of place p+1 that listed player i holds (1/k when k players share
    k places); pts_sum[i] += his ACP points (hundredths)."""
    st = np.empty(1, np.uint64)
    fl = ev[e, EV_FL]
    size = max(ev[e, EV_BL], 2)
    score = np.zeros(max_field, np.int64)
    order = np.zeros(max_field, np.int64)
    work = np.zeros(max_field + 1, np.int64)
    alive = np.zeros(size, np.int64)
    fixed = np.empty(0, np.int64)
    mout = np.zeros(6, np.int64)
    lo = np.zeros(max_field, np.int64)
    hi = np.zeros(max_field, np.int64)
    pts = np.zeros(max_field, np.int64)
    for r in range(nrep):
        st[0] = replica_state_nb(np.uint64(seed), np.uint64(r))
        simulate_event_nb(e, ev, field, pp, steps, slots, thr, share_lots, params, rt, False, st,
                          score, order, work, alive, fixed, mout, lo, hi, pts)
        for i in range(fl):
            k = hi[i] - lo[i] + 1
            for p in range(lo[i], hi[i] + 1):
                prob[i, p - 1] += 1.0 / k
            pts_sum[i] += pts[i]
