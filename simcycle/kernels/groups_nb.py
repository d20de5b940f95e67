"""Numba code over arrays: groups of four feeding a knock-out, in a series of events (Grand Prix 2022).

Units: group and series points in sixths of a point (so that points shared by two or three
players stay integers), game points in half points, money as floats.

The plain-Python twin is ``simcycle.reference.groups``; both draw the same numbers in the same
order.  Per replica, event by event:
  1. offsets (when on): roster order, then rating class;
  2. the draw of groups not yet drawn (lots: one shuffle of the 16; baskets: a shuffle of each
     basket of four, strongest basket first);
  3. the unplayed group games, group A to D, each group's games in schedule order;
  4. the group play-offs, group A to D (see ``group_places_nb``);
  5. semi-final A v B, semi-final C v D, final (colour lot first when knockout_colours = lots);
then the lots between players level on every series criterion, best placed first.

Two-player play-off ``steps`` rows: (STEP_GAMES, rapid, 2), (STEP_GAMES, blitz, 2),
(STEP_ARMAGEDDON, armageddon, 1).  ``ko_steps`` is the classical pair followed by those rows.
"""

import numpy as np
from numba import prange

from .config import CHUNK, jit, pjit
from .games_nb import armageddon_nb, game_nb, match_nb, round_robin_nb, shuffle_nb
from .rng_nb import normal_nb, replica_state_nb, u01_nb

# rules codes (names in formats/group_series.py)
PLACES_ELIMINATION = 0   # play-off results order those knocked out of it (later out = higher)
PLACES_FIRST_ONLY = 1    # the play-off settles first place only; the other tied players share
REDUCED_NEXT_STEP = 0    # a 3-tie cut to 2 goes on with the two-player version of the next step
REDUCED_RESTART = 1      # ... starts the two-player procedure again from the rapid pair
DRAW_FIXED = 0
DRAW_LOTS = 1
DRAW_BASKETS = 2

# counters (per-replica flags), names in formats/group_series.py
C_GROUP_PLAYOFF = 0      # some group needed a play-off for first place
C_ARMAGEDDON = 1         # an Armageddon game was played (group or match)
C_Q_TIEBREAK = 2         # last qualifying place level on points with the next player
C_Q_LOTS = 3             # ... and level on every criterion: lots decided it
N_COUNTERS = 4

# series criteria codes
TB_EVENTS_WON = 1
TB_SECOND_PLACES = 2
TB_CLASSICAL_POINTS = 3
TB_CLASSICAL_WINS = 4
TB_BASE = 1024
WK = 96  # int64 scratch per chunk: [0:32] group places, [32:84] one replica of a series


@jit
def classical_nb(pc, params, rt, offsets, ci, w, b, st):
    """One classical game: from the precomputed (P white, P draw) table, or with offsets on
    from the replica's ratings.  Returns 0 White won, 1 draw, 2 Black won."""
    if offsets:
        return game_nb(params, rt, offsets, ci, w, b, st)
    u = u01_nb(st)
    pw = pc[w, b, 0]
    if u < pw:
        return 0
    if u < pw + pc[w, b, 1]:
        return 1
    return 2


@jit
def two_player_nb(params, rt, offsets, steps, s0, pa, pb, st, mout, nofix, flags):
    """The two-player tiebreak procedure from step s0 between players pa and pb (colour lot
    first, then ``match_nb`` over steps[s0:]).  Returns 0 if pa wins, 1 if pb wins."""
    if u01_nb(st) < 0.5:
        x, y, swap = pa, pb, False
    else:
        x, y, swap = pb, pa, True
    match_nb(params, rt, offsets, x, y, steps[s0:], nofix, st, mout)
    if s0 + mout[1] == steps.shape[0] - 1:
        flags[C_ARMAGEDDON] = 1
    win_x = mout[0] == 0
    return 0 if win_x != swap else 1


@jit
def share2_nb(gp6, first_place, s1, s2, out):
    """Slots s1 and s2 share places first_place and first_place + 1."""
    v = (gp6[first_place] + gp6[first_place + 1]) // 2
    out[s1] = v
    out[s2] = v


@jit
def rest_places_nb(score, gp6, out, first_place, wk):
    """Places first_place.. for the slots still without points (out == -1), by score, ties
    shared.  wk: int64 scratch of length >= 4."""
    m = 0
    for s in range(4):
        if out[s] < 0:
            j = m
            while j > 0 and score[s] > score[wk[j - 1]]:
                wk[j] = wk[j - 1]
                j -= 1
            wk[j] = s
            m += 1
    q = first_place
    i = 0
    while i < m:
        j = i + 1
        while j < m and score[wk[j]] == score[wk[i]]:
            j += 1
        tot = 0
        for t in range(j - i):
            tot += gp6[q + t]
        for t in range(i, j):
            out[wk[t]] = tot // (j - i)
        q += j - i
        i = j


@jit
def group_places_nb(params, rt, offsets, ctl, steps, players, score, gp6, places_mode,
                    reduced_mode, st, out, wk, nofix, flags):
    """Group points (sixths) of the four slots of a finished group; returns the winner's slot.

    players: int64[4] player ids; score: int64[4] classical half points; gp6: int64[4] points
    of places 1-4 in sixths; ctl: int64[3] control rows (rapid, blitz, armageddon); wk: int64
    scratch [32]; nofix: empty int64 array.  Writes out[4].  Draws, only when several are
    level for first: 2 level, the two-player procedure; 3 level, rapid round robin, blitz
    round robin (colours by lot inside), then a shuffle of the three (the first two play an
    Armageddon, the third shares second with its loser); 4 level, a shuffle of the four
    (pairs 1-2 and 3-4), the two pairs' procedures, then the winners' procedure.
    """
    mout = wk[0:6]
    tied = wk[6:10]
    for s in range(4):
        out[s] = -1
    top = score[0]
    for s in range(1, 4):
        if score[s] > top:
            top = score[s]
    k = 0
    for s in range(4):
        if score[s] == top:
            tied[k] = s
            k += 1
    if k == 1:
        out[tied[0]] = gp6[0]
        rest_places_nb(score, gp6, out, 1, wk[20:24])
        return tied[0]
    flags[C_GROUP_PLAYOFF] = 1
    if k == 2:
        r = two_player_nb(params, rt, offsets, steps, 0, players[tied[0]], players[tied[1]],
                          st, mout, nofix, flags)
        win = tied[r]
        out[win] = gp6[0]
        out[tied[1 - r]] = gp6[1]
        rest_places_nb(score, gp6, out, 2, wk[20:24])
        return win
    if k == 3:
        pl = wk[12:15]
        sc = wk[15:18]
        for i in range(3):
            pl[i] = players[tied[i]]
        win = -1
        for stp in range(2):
            round_robin_nb(params, rt, offsets, ctl[stp], pl, 3, sc, st)
            m = max(sc[0], max(sc[1], sc[2]))
            nw = 0
            for i in range(3):
                if sc[i] == m:
                    nw += 1
            if nw == 1:
                o0 = -1
                o1 = -1
                for i in range(3):
                    if sc[i] == m:
                        win = tied[i]
                    elif o0 < 0:
                        o0 = i
                    else:
                        o1 = i
                out[win] = gp6[0]
                if places_mode == PLACES_ELIMINATION and sc[o0] != sc[o1]:
                    if sc[o0] > sc[o1]:
                        out[tied[o0]] = gp6[1]
                        out[tied[o1]] = gp6[2]
                    else:
                        out[tied[o1]] = gp6[1]
                        out[tied[o0]] = gp6[2]
                else:
                    share2_nb(gp6, 1, tied[o0], tied[o1], out)
                break
            if nw == 2:
                p0 = -1
                p1 = -1
                left = 0
                for i in range(3):
                    if sc[i] != m:
                        left = i
                    elif p0 < 0:
                        p0 = i
                    else:
                        p1 = i
                nxt = stp + 1 if reduced_mode == REDUCED_NEXT_STEP else 0
                r = two_player_nb(params, rt, offsets, steps, nxt, pl[p0], pl[p1], st, mout,
                                  nofix, flags)
                wi = p0 if r == 0 else p1
                li = p1 if r == 0 else p0
                win = tied[wi]
                out[win] = gp6[0]
                if places_mode == PLACES_ELIMINATION:
                    out[tied[li]] = gp6[1]
                    out[tied[left]] = gp6[2]
                else:
                    share2_nb(gp6, 1, tied[li], tied[left], out)
                break
            if stp == 1:  # still three level after the blitz round robin: lots pick two
                idx = wk[28:31]
                for i in range(3):
                    idx[i] = i
                shuffle_nb(idx, 3, st)
                flags[C_ARMAGEDDON] = 1
                w = armageddon_nb(params, rt, offsets, ctl[2], pl[idx[0]], pl[idx[1]], st)
                wi = idx[0] if w == pl[idx[0]] else idx[1]
                li = idx[1] if wi == idx[0] else idx[0]
                win = tied[wi]
                out[win] = gp6[0]
                share2_nb(gp6, 1, tied[li], tied[idx[2]], out)
        rest_places_nb(score, gp6, out, 3, wk[20:24])
        return win
    # four level: lots make two pairs
    idx = wk[28:32]
    for i in range(4):
        idx[i] = i
    shuffle_nb(idx, 4, st)
    r1 = two_player_nb(params, rt, offsets, steps, 0, players[idx[0]], players[idx[1]], st,
                       mout, nofix, flags)
    r2 = two_player_nb(params, rt, offsets, steps, 0, players[idx[2]], players[idx[3]], st,
                       mout, nofix, flags)
    w1 = idx[r1]
    l1 = idx[1 - r1]
    w2 = idx[2 + r2]
    l2 = idx[3 - r2]
    r = two_player_nb(params, rt, offsets, steps, 0, players[w1], players[w2], st, mout,
                      nofix, flags)
    win = w1 if r == 0 else w2
    out[win] = gp6[0]
    out[w2 if r == 0 else w1] = gp6[1]
    share2_nb(gp6, 2, l1, l2, out)
    return win


@jit
def series_replica_nb(params, rt_ev, offsets, offset_sd, ctl, steps, ko_steps, pc, roster,
                      draw, gm, grp_fixed, grp_gp, ko_fixed, ko_win, gp6, ko_gp6, prize_rates,
                      places_mode, reduced_mode, ko_lots, st, rt, gpts, tf, ts, cp, cw, prize,
                      ev_gp, wk, nofix, flags):
    """One replica of the whole series; fills the per-player arrays (reset here)."""
    n_ev = roster.shape[0]
    npl = rt.shape[0]
    for p in range(npl):
        gpts[p] = 0
        tf[p] = 0
        ts[p] = 0
        cp[p] = 0
        cw[p] = 0
        prize[p] = 0.0
    ros = wk[32:48]
    grp = wk[48:64].reshape((4, 4))
    score = wk[64:68]
    gout = wk[68:72]
    gwin = wk[72:76]
    fx = wk[76:78]
    mout = wk[78:84]
    for e in range(n_ev):
        for p in range(npl):
            ev_gp[e, p] = -1
        # 1. ratings of this event (offsets for the roster)
        for p in range(npl):
            for c in range(3):
                rt[p, c] = rt_ev[e, p, c]
        if offsets:
            for i in range(16):
                p = roster[e, i]
                for c in range(3):
                    rt[p, c] = rt_ev[e, p, c] + normal_nb(st) * offset_sd[c]
        # 2. the draw
        for i in range(16):
            ros[i] = roster[e, i]
        if draw[e] == DRAW_LOTS:
            shuffle_nb(ros, 16, st)
        elif draw[e] == DRAW_BASKETS:
            for q in range(4):
                shuffle_nb(ros[4 * q:4 * q + 4], 4, st)
        for g in range(4):
            for s in range(4):
                grp[g, s] = ros[4 * s + g] if draw[e] == DRAW_BASKETS else ros[4 * g + s]
        pce = pc[e]
        # 3. group games
        for g in range(4):
            for s in range(4):
                score[s] = 0
            for j in range(gm.shape[2]):
                ws = gm[e, g, j, 1]
                bs = gm[e, g, j, 2]
                r = gm[e, g, j, 3]
                w = grp[g, ws]
                b = grp[g, bs]
                if r < 0:
                    r = classical_nb(pce, params, rt, offsets, ctl[0], w, b, st)
                if r == 0:
                    score[ws] += 2
                    cp[w] += 2
                    cw[w] += 1
                elif r == 2:
                    score[bs] += 2
                    cp[b] += 2
                    cw[b] += 1
                else:
                    score[ws] += 1
                    score[bs] += 1
                    cp[w] += 1
                    cp[b] += 1
            # 4. places (play-offs drawn group by group, after each group's games)
            if grp_fixed[e, g] >= 0:
                for s in range(4):
                    gout[s] = grp_gp[e, g, s]
                ws = grp_fixed[e, g]
            else:
                ws = group_places_nb(params, rt, offsets, ctl[1:], steps, grp[g], score, gp6,
                                     places_mode, reduced_mode, st, gout, wk, nofix, flags)
            gwin[g] = grp[g, ws]
            for s in range(4):
                p = grp[g, s]
                gpts[p] += gout[s]
                ev_gp[e, p] = gout[s]
                prize[p] += prize_rates[0] + prize_rates[1] * gout[s] / 6.0
        # 5. knock-out: A v B, C v D, final
        a1 = 0
        a2 = 0
        for m in range(3):
            if m == 0:
                a, b = gwin[0], gwin[1]
            elif m == 1:
                a, b = gwin[2], gwin[3]
            else:
                a, b = a1, a2
            if ko_win[e, m] >= 0:
                wa = ko_win[e, m] == 0
                for i in range(2):
                    c = ko_fixed[e, m, i]
                    if c == 0:
                        cp[a] += 2
                        cw[a] += 1
                    elif c == 2:
                        cp[b] += 2
                        cw[b] += 1
                    elif c == 1:
                        cp[a] += 1
                        cp[b] += 1
            else:
                swap = False
                if ko_lots:
                    swap = u01_nb(st) >= 0.5
                for i in range(2):
                    c = ko_fixed[e, m, i]
                    fx[i] = (2 - c if c >= 0 else c) if swap else c
                x = b if swap else a
                y = a if swap else b
                match_nb(params, rt, offsets, x, y, ko_steps, fx, st, mout)
                if mout[1] == ko_steps.shape[0] - 1:
                    flags[C_ARMAGEDDON] = 1
                cp[x] += mout[2]
                cp[y] += mout[3]
                cw[x] += mout[4]
                cw[y] += mout[5]
                wa = (mout[0] == 0) != swap
            w = a if wa else b
            lo = b if wa else a
            gpts[w] += ko_gp6
            ev_gp[e, w] += ko_gp6
            prize[w] += prize_rates[2] * ko_gp6 / 6.0
            if m == 0:
                a1 = w
            elif m == 1:
                a2 = w
            else:
                tf[w] += 1
                ts[lo] += 1


@jit
def rank_series_nb(eligible, gpts, tf, ts, cp, cw, tb_codes, st, order, key):
    """Order the eligible players (order[:n], returns n): points, then tb_codes, then lots."""
    n = 0
    for p in range(eligible.shape[0]):
        if eligible[p]:
            k = np.int64(gpts[p])
            for c in range(tb_codes.shape[0]):
                code = tb_codes[c]
                if code == TB_EVENTS_WON:
                    v = tf[p]
                elif code == TB_SECOND_PLACES:
                    v = ts[p]
                elif code == TB_CLASSICAL_POINTS:
                    v = cp[p]
                else:
                    v = cw[p]
                k = k * TB_BASE + v
            key[p] = k
            # insertion by key desc, stable on player index
            j = n
            while j > 0 and key[order[j - 1]] < k:
                order[j] = order[j - 1]
                j -= 1
            order[j] = p
            n += 1
    i = 0
    while i < n:
        j = i + 1
        while j < n and key[order[j]] == key[order[i]]:
            j += 1
        if j - i > 1:
            shuffle_nb(order[i:j], j - i, st)
        i = j
    return n


@pjit
def simulate_series_nb(seed, first, nrep, params, rt_ev, offsets, offset_sd, ctl, steps,
                       ko_steps, pc, roster, draw, gm, grp_fixed, grp_gp, ko_fixed, ko_win,
                       gp6, ko_gp6, prize_rates, places_mode, reduced_mode, ko_lots, eligible,
                       tb_codes, n_qual, place_out, qual_out, pts_out, pts2_out, prize_out,
                       prize2_out, count_out):
    """Replicas first .. first+nrep-1 of the series; tallies into row c (chunk) of *_out."""
    n_chunks = (nrep + CHUNK - 1) // CHUNK
    npl = rt_ev.shape[1]
    n_ev = roster.shape[0]
    for c in prange(n_chunks):
        st = np.empty(1, np.uint64)
        rt = np.empty((npl, 3))
        gpts = np.empty(npl, np.int64)
        tf = np.empty(npl, np.int64)
        ts = np.empty(npl, np.int64)
        cp = np.empty(npl, np.int64)
        cw = np.empty(npl, np.int64)
        prize = np.empty(npl)
        ev_gp = np.empty((n_ev, npl), np.int64)
        order = np.empty(npl, np.int64)
        key = np.empty(npl, np.int64)
        flags = np.zeros(N_COUNTERS, np.int64)
        wk = np.empty(WK, np.int64)
        nofix = np.empty(0, np.int64)
        for r in range(c * CHUNK, min(nrep, (c + 1) * CHUNK)):
            st[0] = replica_state_nb(np.uint64(seed), np.uint64(first + r))
            for i in range(N_COUNTERS):
                flags[i] = 0
            series_replica_nb(params, rt_ev, offsets, offset_sd, ctl, steps, ko_steps, pc,
                              roster, draw, gm, grp_fixed, grp_gp, ko_fixed, ko_win, gp6,
                              ko_gp6, prize_rates, places_mode, reduced_mode, ko_lots, st, rt,
                              gpts, tf, ts, cp, cw, prize, ev_gp, wk, nofix, flags)
            n = rank_series_nb(eligible, gpts, tf, ts, cp, cw, tb_codes, st, order, key)
            for i in range(n):
                p = order[i]
                place_out[c, p, i] += 1
                if i < n_qual:
                    qual_out[c, p] += 1
            if n > n_qual and n_qual > 0:
                pa = order[n_qual - 1]
                pb = order[n_qual]
                if gpts[pa] == gpts[pb]:
                    flags[C_Q_TIEBREAK] = 1
                    if key[pa] == key[pb]:
                        flags[C_Q_LOTS] = 1
            for p in range(npl):
                g = np.float64(gpts[p])
                pts_out[c, p] += g
                pts2_out[c, p] += g * g
                prize_out[c, p] += prize[p]
                prize2_out[c, p] += prize[p] * prize[p]
            for i in range(N_COUNTERS):
                count_out[c, i] += flags[i]


@pjit
def simulate_group_nb(seed, first, nrep, params, rt, ctl, steps, pc, players, games, gp6,
                      places_mode, reduced_mode, hist_out):
    """One group alone (no offsets): its unplayed games then its places.  hist_out[c, s, v]
    counts replicas where slot s got v sixths of a point (for tests and exact checks)."""
    n_chunks = (nrep + CHUNK - 1) // CHUNK
    for c in prange(n_chunks):
        st = np.empty(1, np.uint64)
        score = np.empty(4, np.int64)
        out = np.empty(4, np.int64)
        flags = np.zeros(N_COUNTERS, np.int64)
        wk = np.empty(WK, np.int64)
        nofix = np.empty(0, np.int64)
        for r in range(c * CHUNK, min(nrep, (c + 1) * CHUNK)):
            st[0] = replica_state_nb(np.uint64(seed), np.uint64(first + r))
            for s in range(4):
                score[s] = 0
            for j in range(games.shape[0]):
                ws = games[j, 1]
                bs = games[j, 2]
                res = games[j, 3]
                if res < 0:
                    res = classical_nb(pc, params, rt, False, ctl[0], players[ws], players[bs], st)
                if res == 0:
                    score[ws] += 2
                elif res == 2:
                    score[bs] += 2
                else:
                    score[ws] += 1
                    score[bs] += 1
            group_places_nb(params, rt, False, ctl[1:], steps, players, score, gp6,
                            places_mode, reduced_mode, st, out, wk, nofix, flags)
            for s in range(4):
                hist_out[c, s, out[s]] += 1
