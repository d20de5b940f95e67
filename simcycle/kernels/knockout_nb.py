"""Numba code over arrays: series of knock-out events (brackets of ``match_nb`` matches), the
points race, the series tiebreaks, qualification and prize money, replica-parallel with
streaming tallies.

Units: GP points whole, classical points in half points, money as floats.  The plain-Python
twin is ``simcycle.reference.knockout``; both draw the same numbers in the same order:
for each event in turn, the strength offsets of its players (bracket order, class-minor, only
with offsets on), then its undecided matches in playing order (round by round, slot by slot),
each drawing first the lot for White in game 1 (unless the colours are known) and then the
match's own draws (``games_nb.match_nb`` order); after the last event, lots in the series
tiebreaks, top group first.

With offsets off a game's probabilities depend only on (control, White, Black), so they are
read from a table filled once by ``threshold_table_nb`` (the same arithmetic as ``game_nb``);
``tmatch_nb`` is ``match_nb`` over that table and draws the same numbers.
"""

import numpy as np
from numba import prange

from ..enums import (BLACK_WINS, DRAW, MAX_SUDDEN_DEATH, STEP_ARMAGEDDON, STEP_GAMES,
                     STEP_SUDDEN_DEATH, UNPLAYED, WHITE_WINS)
from .config import CHUNK, ijit, jit, pjit
from .ranking_nb import lots_segment_nb, segment_end_nb, sort_segment_nb
from .games_nb import match_nb, wdl_nb
from .rng_nb import GOLDEN, INV53, S11, mix64_nb, normal_nb, replica_state_nb, u01_nb

# series tiebreak codes (formats/knockout_series.py SERIES_CRITERIA)
SER_EVENTS_WON, SER_SECOND, SER_CLASSICAL, SER_H2H, SER_LOTS = 1, 2, 3, 4, 5

# Hot helpers use ``ijit`` (config.py: inlined at numba-IR level into the replica loop): a call
# that passes arrays costs an atomic reference-count update per array, and on arrays shared by
# the threads (the probability table) those updates contend between cores.


@jit
def threshold_table_nb(params, rt):
    """thr[ci, w, b] = (P white wins, P white wins + P draw) for every control row and pair."""
    nc = params.shape[0]
    n = rt.shape[0]
    thr = np.zeros((nc, n, n, 2))
    for ci in range(nc):
        cls = np.int64(params[ci, 4])
        for w in range(n):
            for b in range(n):
                pw, pd = wdl_nb(params, ci, rt[w, cls], rt[b, cls], False)
                thr[ci, w, b, 0] = pw
                thr[ci, w, b, 1] = pw + pd
    return thr


@ijit
def tgame_nb(thr, ci, white, black, st):
    u = u01_nb(st)
    if u < thr[ci, white, black, 0]:
        return WHITE_WINS
    if u < thr[ci, white, black, 1]:
        return DRAW
    return BLACK_WINS


@ijit
def tmatch_nb(thr, a, b, steps, fixed, st, out):
    """``match_nb`` with the game probabilities read from ``thr`` (same draws, same order)."""
    for i in range(6):
        out[i] = 0
    g = 0
    diff = 0
    nf = fixed.shape[0]
    for s in range(steps.shape[0]):
        kind = steps[s, 0]
        ci = steps[s, 1]
        if s > 0 and diff != 0:
            break
        out[1] = s
        if kind == STEP_GAMES:
            for j in range(steps[s, 2]):
                known = fixed[g] if g < nf else UNPLAYED
                if known != UNPLAYED:
                    ra = known
                elif j % 2 == 0:
                    ra = tgame_nb(thr, ci, a, b, st)
                else:
                    ra = 2 - tgame_nb(thr, ci, b, a, st)
                g += 1
                if ra == 0:
                    diff += 2
                    if s == 0:
                        out[2] += 2
                        out[4] += 1
                elif ra == 2:
                    diff -= 2
                    if s == 0:
                        out[3] += 2
                        out[5] += 1
                elif s == 0:
                    out[2] += 1
                    out[3] += 1
        elif kind == STEP_ARMAGEDDON:
            if u01_nb(st) < 0.5:
                w, bl = a, b
            else:
                w, bl = b, a
            r = tgame_nb(thr, ci, w, bl, st)
            win = w if r == WHITE_WINS else bl
            diff = 1 if win == a else -1
            g += 1
        elif kind == STEP_SUDDEN_DEATH:
            if u01_nb(st) < 0.5:
                w, bl = a, b
            else:
                w, bl = b, a
            win = -1
            for _ in range(MAX_SUDDEN_DEATH):
                r = tgame_nb(thr, ci, w, bl, st)
                if r == WHITE_WINS:
                    win = w
                    break
                if r == BLACK_WINS:
                    win = bl
                    break
                t = w
                w = bl
                bl = t
            if win < 0:
                win = a if u01_nb(st) < 0.5 else b
            diff = 1 if win == a else -1
        else:  # STEP_LOTS
            diff = 1 if u01_nb(st) < 0.5 else -1
    if diff == 0:
        out[1] = steps.shape[0]
        diff = 1 if u01_nb(st) < 0.5 else -1
    out[0] = 0 if diff > 0 else 1


@ijit
def fmatch_nb(thr, a, b, steps, state):
    """``tmatch_nb`` for a match with no known game, the stream state kept in a register.
    Returns (winner 0 = a / 1 = b, deciding step, a's and b's classical half points, state);
    the same draws in the same order as ``match_nb``."""
    diff = 0
    ca = 0
    cb = 0
    step = 0
    for s in range(steps.shape[0]):
        kind = steps[s, 0]
        ci = steps[s, 1]
        if s > 0 and diff != 0:
            break
        step = s
        if kind == STEP_GAMES:
            for j in range(steps[s, 2]):
                state = state + GOLDEN
                u = np.float64(mix64_nb(state) >> S11) * INV53
                if j % 2 == 0:
                    w = a
                    bl = b
                else:
                    w = b
                    bl = a
                if u < thr[ci, w, bl, 0]:
                    d = 2
                elif u < thr[ci, w, bl, 1]:
                    d = 0
                else:
                    d = -2
                if j % 2 == 1:
                    d = -d
                diff += d
                if s == 0:
                    if d == 2:
                        ca += 2
                    elif d == -2:
                        cb += 2
                    else:
                        ca += 1
                        cb += 1
        elif kind == STEP_ARMAGEDDON:
            state = state + GOLDEN
            u = np.float64(mix64_nb(state) >> S11) * INV53
            if u < 0.5:
                w = a
                bl = b
            else:
                w = b
                bl = a
            state = state + GOLDEN
            u = np.float64(mix64_nb(state) >> S11) * INV53
            win = w if u < thr[ci, w, bl, 0] else bl
            diff = 1 if win == a else -1
        else:   # sudden death and lots: the general routine
            st = np.empty(1, np.uint64)
            st[0] = state
            fx = np.empty(0, np.int64)
            out = np.empty(6, np.int64)
            sub = steps[s:]
            tmatch_nb(thr, a, b, sub, fx, st, out)
            state = st[0]
            diff = 1 if out[0] == 0 else -1
            step = s + out[1]
            break
    if diff == 0:
        step = steps.shape[0]
        state = state + GOLDEN
        u = np.float64(mix64_nb(state) >> S11) * INV53
        diff = 1 if u < 0.5 else -1
    return (0 if diff > 0 else 1), step, ca, cb, state


@ijit
def rank_series_nb(n, pts, won, second, cls, la, lb, lca, lcb, nm, plan_index, criteria,
                   order, brk, val, work, ingrp, st):
    """Fill order[:n] with the series ranking: GP points, then the criteria in turn, group by
    group (head-to-head once among all level on the criteria before it), lots last."""
    # GP points and the leading criteria that are plain numbers, as one key (16 bits each):
    # one stable sort on it orders exactly as refining group by group with stable sorts
    npre = 0
    while npre < criteria.shape[0] and npre < 3 and (
            criteria[npre] == SER_EVENTS_WON or criteria[npre] == SER_SECOND
            or criteria[npre] == SER_CLASSICAL):
        npre += 1
    for i in range(n):
        order[i] = i
        key = np.int64(pts[i])
        for ci in range(npre):
            crit = criteria[ci]
            v = won[i] if crit == SER_EVENTS_WON else (second[i] if crit == SER_SECOND else cls[i])
            key = key * 65536 + v
        val[i] = key
    brk[0] = 1
    for i in range(1, n):
        brk[i] = 0
    sort_segment_nb(order, brk, val, 0, n)
    for ci in range(npre, criteria.shape[0]):
        crit = criteria[ci]
        k = 0
        while k < n:
            e = segment_end_nb(brk, k, n)
            if e - k > 1:
                if crit == SER_LOTS:
                    lots_segment_nb(order, brk, work, k, e, st)
                else:
                    for i in range(k, e):
                        p = order[i]
                        if crit == SER_EVENTS_WON:
                            val[p] = won[p]
                        elif crit == SER_SECOND:
                            val[p] = second[p]
                        elif crit == SER_CLASSICAL:
                            val[p] = cls[p]
                        else:
                            val[p] = 0
                            ingrp[p] = 1
                    if crit == SER_H2H:
                        for t in range(nm):
                            pa = plan_index[la[t]]
                            pb = plan_index[lb[t]]
                            if pa >= 0 and pb >= 0 and ingrp[pa] == 1 and ingrp[pb] == 1:
                                val[pa] += lca[t]
                                val[pb] += lcb[t]
                        for i in range(k, e):
                            ingrp[order[i]] = 0
                    sort_segment_nb(order, brk, val, k, e)
            k = e


@jit
def chunk_nb(c, lo, hi, seed, first, params, rt0, thr, offsets, offset_sd, steps, ev_size,
             pos, kstat, kwin, kstep, kcls, kwhite, kfixed, place_pts, place_prize, bonus,
             overall, criteria, plan_index, qual_else, n_qual, n_matches,
             place_out, qual_out, wild_out, pts_out, pts2_out, prize_out, prize2_out):
    """Replicas lo .. hi-1 (offsets from ``first``) into row c of the outputs.  One call per
    chunk: the hot helpers are inlined here, so no reference counts are touched per game."""
    n = qual_else.shape[0]
    S = pos.shape[1]
    G = kfixed.shape[2]
    n_ev = pos.shape[0]
    st = np.empty(1, np.uint64)
    rt = rt0.copy()
    alive = np.empty(S, np.int64)
    fx = np.empty(G, np.int64)
    out6 = np.empty(6, np.int64)
    pts = np.empty(n, np.int64)
    won = np.empty(n, np.int64)
    second = np.empty(n, np.int64)
    cls = np.empty(n, np.int64)
    prize = np.empty(n, np.float64)
    la = np.empty(max(n_matches, 1), np.int64)
    lb = np.empty(max(n_matches, 1), np.int64)
    lca = np.empty(max(n_matches, 1), np.int64)
    lcb = np.empty(max(n_matches, 1), np.int64)
    order = np.empty(n, np.int64)
    brk = np.empty(n, np.int64)
    val = np.empty(n, np.int64)
    work = np.empty(n, np.int64)
    ingrp = np.zeros(n, np.int64)
    # local tallies, written to row c once at the end (rows of neighbouring chunks share
    # cache lines, and the two threads run neighbouring chunks)
    t_place = np.zeros((n, place_out.shape[2]), np.int64)
    t_qual = np.zeros(n, np.int64)
    t_wild = np.zeros(n, np.int64)
    t_pts = np.zeros(n)
    t_pts2 = np.zeros(n)
    t_prize = np.zeros(n)
    t_prize2 = np.zeros(n)
    for r in range(lo, hi):
        st[0] = replica_state_nb(np.uint64(seed), np.uint64(first + r))
        for i in range(n):
            pts[i] = 0
            won[i] = 0
            second[i] = 0
            cls[i] = 0
            prize[i] = 0.0
        nm = 0
        for e in range(n_ev):
            # ---- event e: offsets, then its matches in playing order
            size = ev_size[e]
            if offsets:
                for k in range(size):
                    p = pos[e, k]
                    for cc in range(3):
                        rt[p, cc] = rt0[p, cc] + normal_nb(st) * offset_sd[cc]
            for k in range(size):
                alive[k] = pos[e, k]
            n_rounds = 0
            while (1 << n_rounds) < size:
                n_rounds += 1
            m = size
            flat = 0
            G = fx.shape[0]
            for rd in range(n_rounds):
                half = m // 2
                for j in range(half):
                    up = alive[2 * j]
                    dn = alive[2 * j + 1]
                    f = flat + j
                    if kstat[e, f] == 1:
                        wside = kwin[e, f]
                        step = kstep[e, f]
                        cu = kcls[e, f, 0]
                        cl = kcls[e, f, 1]
                    else:
                        wh = kwhite[e, f]
                        if wh < 0:
                            wh = 0 if u01_nb(st) < 0.5 else 1
                        if wh == 0:
                            a = up
                            b = dn
                        else:
                            a = dn
                            b = up
                        if kstat[e, f] == 0 and not offsets:
                            o0, o1, o2, o3, stv = fmatch_nb(thr, a, b, steps, st[0])
                            st[0] = stv
                            out6[0] = o0
                            out6[1] = o1
                            out6[2] = o2
                            out6[3] = o3
                        else:
                            for g in range(G):
                                v = kfixed[e, f, g]
                                fx[g] = v if (v < 0 or wh == 0) else 2 - v
                            if offsets:
                                match_nb(params, rt, True, a, b, steps, fx, st, out6)
                            else:
                                tmatch_nb(thr, a, b, steps, fx, st, out6)
                        step = out6[1]
                        if wh == 0:
                            wside = out6[0]
                            cu = out6[2]
                            cl = out6[3]
                        else:
                            wside = 1 - out6[0]
                            cu = out6[3]
                            cl = out6[2]
                    if wside == 0:
                        w = up
                        l = dn
                    else:
                        w = dn
                        l = up
                    la[nm] = up
                    lb[nm] = dn
                    lca[nm] = cu
                    lcb[nm] = cl
                    nm += 1
                    iu = plan_index[up]
                    il = plan_index[dn]
                    if iu >= 0:
                        cls[iu] += cu
                    if il >= 0:
                        cls[il] += cl
                    iw = plan_index[w]
                    if step == 0 and iw >= 0:
                        pts[iw] += bonus
                    ix = plan_index[l]
                    back = n_rounds - rd
                    if ix >= 0:
                        pts[ix] += place_pts[back]
                        prize[ix] += place_prize[back]
                        if back == 1:
                            second[ix] += 1
                    alive[j] = w
                flat += half
                m = half
            ic = plan_index[alive[0]]
            if ic >= 0:
                pts[ic] += place_pts[0]
                prize[ic] += place_prize[0]
                won[ic] += 1
        rank_series_nb(n, pts, won, second, cls, la, lb, lca, lcb, nm, plan_index, criteria,
                       order, brk, val, work, ingrp, st)
        # overall prizes: players level on GP points share the prizes of their places
        k = 0
        while k < n:
            e2 = k + 1
            while e2 < n and pts[order[e2]] == pts[order[k]]:
                e2 += 1
            s = 0.0
            for i in range(k, e2):
                s += overall[i]
            s /= e2 - k
            for i in range(k, e2):
                prize[order[i]] += s
            k = e2
        q = 0
        wild_done = False
        for p in range(n):
            i = order[p]
            t_place[i, p] += 1
            if qual_else[i] == 0:
                if q < n_qual:
                    t_qual[i] += 1
                    q += 1
                elif not wild_done:
                    t_wild[i] += 1
                    wild_done = True
            x = np.float64(pts[i])
            t_pts[i] += x
            t_pts2[i] += x * x
            z = prize[i]
            t_prize[i] += z
            t_prize2[i] += z * z
    for i in range(n):
        for p in range(place_out.shape[2]):
            place_out[c, i, p] = t_place[i, p]
        qual_out[c, i] = t_qual[i]
        wild_out[c, i] = t_wild[i]
        pts_out[c, i] = t_pts[i]
        pts2_out[c, i] = t_pts2[i]
        prize_out[c, i] = t_prize[i]
        prize2_out[c, i] = t_prize2[i]


@pjit
def simulate_series_nb(seed, first, nrep, params, rt0, thr, offsets, offset_sd, steps, ev_size,
                       pos, kstat, kwin, kstep, kcls, kwhite, kfixed, place_pts, place_prize,
                       bonus, overall, criteria, plan_index, qual_else, n_qual, n_matches,
                       place_out, qual_out, wild_out, pts_out, pts2_out, prize_out, prize2_out):
    """Replicas first .. first+nrep-1 of the series; tallies summed into row c of the outputs
    for chunk c.  Field players (every player of any event) are indexed as in rt0; plan players
    (those who count in the standings) through plan_index (-1 = does not count)."""
    n_chunks = (nrep + CHUNK - 1) // CHUNK
    for c in prange(n_chunks):
        chunk_nb(c, c * CHUNK, min(nrep, (c + 1) * CHUNK), seed, first, params, rt0, thr,
                 offsets, offset_sd, steps, ev_size, pos, kstat, kwin, kstep, kcls, kwhite,
                 kfixed, place_pts, place_prize, bonus, overall, criteria, plan_index,
                 qual_else, n_qual, n_matches, place_out, qual_out, wild_out, pts_out,
                 pts2_out, prize_out, prize2_out)
