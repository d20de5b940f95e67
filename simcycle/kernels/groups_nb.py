"""Numba code over arrays: groups of four feeding a knock-out, in a series of events (Grand Prix 2022).

Units: group and series points in sixths of a point (so that points shared by two or three
players stay integers), game points in half points, money as floats.

The plain-Python twin is ``simcycle.reference.groups``; both draw the same numbers in the same
order.  Per replica, event by event:
  1. offsets (when on): roster order, then rating class;
  2. the draw of groups not yet drawn (lots: one shuffle of the 16; baskets: a shuffle of each
     basket of four, strongest basket first);
  3. group A to D: the group's unplayed games in schedule order, then its play-off for first
     when one is needed (see ``group_places_nb``);
  4. semi-final A v B, semi-final C v D, final (colour lot first when knockout_colours = lots);
then the lots between players level on every series criterion, best placed first.

Games are played through ``tgame_nb``: without offsets it reads a table of (P White wins,
P draw) per event, control and pair of players, filled once per Plan by ``wdl_table_nb`` with
``games_nb.wdl_nb`` itself (so the numbers are bit for bit those ``game_nb`` would compute);
with offsets it calls ``games_nb.game_nb``.  ``tmatch_nb`` (classical, rapid and blitz pairs,
Armageddon), ``tround_robin3_nb`` and ``tarmageddon_nb`` follow ``games_nb.match_nb``,
``round_robin_nb`` and ``armageddon_nb`` draw for draw (same colour lots, same order; checked
in tests/test_groups_kernel.py), reading the table; with the hottest game loops inlined by hand
this is what brings a whole series to about 5 microseconds a thread (games_nb's functions
recompute exp/pow for every game and cost a call each).

Play-off and match ``steps`` rows: (kind, control row, n games, table index), table index
0 classical, 1 rapid, 2 blitz, 3 Armageddon.  ``steps`` for a knock-out match: classical pair,
rapid pair, blitz pair, Armageddon; the two-player tiebreak procedure is steps[1:].
"""

import numpy as np
from numba import prange

from .config import CHUNK, jit, pjit
from ..enums import BLACK_WINS, STEP_ARMAGEDDON, STEP_GAMES, UNPLAYED, WHITE_WINS
from .games_nb import game_nb, shuffle_nb, wdl_nb
from .rng_nb import normal_nb, randint_nb, replica_state_nb, u01_nb

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
WK = 96  # int64 scratch per chunk: [0:32] group places, [32:88] one replica of a series


@jit
def wdl_table_nb(params, rt_ev, ctl, out):
    """out[e, k, w, b] = (P White wins, P draw) at control row ctl[k], event e's ratings."""
    for e in range(rt_ev.shape[0]):
        for k in range(ctl.shape[0]):
            ci = ctl[k]
            cls = np.int64(params[ci, 4])
            for w in range(rt_ev.shape[1]):
                for b in range(rt_ev.shape[1]):
                    pw, pd = wdl_nb(params, ci, rt_ev[e, w, cls], rt_ev[e, b, cls], False)
                    out[e, k, w, b, 0] = pw
                    out[e, k, w, b, 1] = pd


@jit
def tgame_nb(tab, params, rt, offsets, k, ci, w, b, st):
    """One game (WHITE_WINS, DRAW, BLACK_WINS): one uniform against the table, or with
    offsets on ``game_nb`` on the replica's ratings."""
    if offsets:
        return game_nb(params, rt, offsets, ci, w, b, st)
    u = u01_nb(st)
    pw = tab[k, w, b, 0]
    if u < pw:
        return 0
    if u < pw + tab[k, w, b, 1]:
        return 1
    return 2


@jit
def tarmageddon_nb(tab, params, rt, offsets, k, ci, a, b, st):
    """As ``armageddon_nb``: colours by lot, a draw goes to Black; returns the winner."""
    if u01_nb(st) < 0.5:
        w, bl = a, b
    else:
        w, bl = b, a
    r = tgame_nb(tab, params, rt, offsets, k, ci, w, bl, st)
    return w if r == WHITE_WINS else bl


@jit
def tround_robin3_nb(tab, params, rt, offsets, k, ci, players, score, st):
    """As ``round_robin_nb`` for three players (colours of each game by lot)."""
    for i in range(3):
        score[i] = 0
    for i in range(3):
        for j in range(i + 1, 3):
            if u01_nb(st) < 0.5:
                w, bl, wi, bi = players[i], players[j], i, j
            else:
                w, bl, wi, bi = players[j], players[i], j, i
            r = tgame_nb(tab, params, rt, offsets, k, ci, w, bl, st)
            if r == WHITE_WINS:
                score[wi] += 2
            elif r == BLACK_WINS:
                score[bi] += 2
            else:
                score[wi] += 1
                score[bi] += 1


@jit
def tmatch_nb(tab, params, rt, offsets, a, b, steps, s0, f0, f1, st, out):
    """As ``match_nb`` over steps[s0:], with at most two known games (f0, f1: codes from a's
    side, -1 unknown) at the start of the first step.  out[0] winner (0 a, 1 b), out[1] the
    deciding step (absolute index), out[2:6] a's and b's half points and wins in step s0."""
    for i in range(6):
        out[i] = 0
    g = 0
    diff = 0
    for s in range(s0, steps.shape[0]):
        kind = steps[s, 0]
        ci = steps[s, 1]
        k = steps[s, 3]
        if s > s0 and diff != 0:
            break
        out[1] = s
        if kind == STEP_GAMES:
            for j in range(steps[s, 2]):
                known = f0 if g == 0 else (f1 if g == 1 else UNPLAYED)
                if known != UNPLAYED:
                    ra = known
                else:  # tgame_nb inlined by hand; a White in the step's 1st, 3rd, ... game
                    w, bl = (a, b) if j % 2 == 0 else (b, a)
                    if offsets:
                        r = game_nb(params, rt, offsets, ci, w, bl, st)
                    else:
                        u = u01_nb(st)
                        pw = tab[k, w, bl, 0]
                        r = 0 if u < pw else (1 if u < pw + tab[k, w, bl, 1] else 2)
                    ra = r if j % 2 == 0 else 2 - r
                g += 1
                if ra == 0:
                    diff += 2
                    if s == s0:
                        out[2] += 2
                        out[4] += 1
                elif ra == 2:
                    diff -= 2
                    if s == s0:
                        out[3] += 2
                        out[5] += 1
                elif s == s0:
                    out[2] += 1
                    out[3] += 1
        elif kind == STEP_ARMAGEDDON:
            w = tarmageddon_nb(tab, params, rt, offsets, k, ci, a, b, st)
            diff = 1 if w == a else -1
            g += 1
        else:  # lots
            diff = 1 if u01_nb(st) < 0.5 else -1
    if diff == 0:
        out[1] = steps.shape[0]
        diff = 1 if u01_nb(st) < 0.5 else -1
    out[0] = 0 if diff > 0 else 1


@jit
def two_player_nb(tab, params, rt, offsets, steps, s0, pa, pb, st, mout, flags):
    """The two-player tiebreak procedure from step s0 (1 = rapid pair, 2 = blitz pair,
    3 = Armageddon) between players pa and pb: a colour lot (who is White in the first game
    of each pair), then ``tmatch_nb``.  Returns 0 if pa wins, 1 if pb wins."""
    if u01_nb(st) < 0.5:
        x, y, swap = pa, pb, False
    else:
        x, y, swap = pb, pa, True
    tmatch_nb(tab, params, rt, offsets, x, y, steps, s0, UNPLAYED, UNPLAYED, st, mout)
    if steps[mout[1], 0] == STEP_ARMAGEDDON:
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
def group_places_nb(tab, params, rt, offsets, steps, players, score, gp6, places_mode,
                    reduced_mode, st, out, wk, flags):
    """Group points (sixths) of the four slots of a finished group; returns the winner's slot.

    players: int64[4] player ids; score: int64[4] classical half points; gp6: int64[4] points
    of places 1-4 in sixths; wk: int64 scratch [32].  Writes out[4].  Draws, only when
    several are level for first: 2 level, the two-player procedure; 3 level, a rapid round
    robin, then a blitz round robin (colours by lot inside), then a shuffle of the three (the
    first two play an Armageddon, the third shares second with its loser); 4 level, a
    shuffle of the four (pairs 1-2 and 3-4), the two pairs' procedures, the winners' one.
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
        r = two_player_nb(tab, params, rt, offsets, steps, 1, players[tied[0]],
                          players[tied[1]], st, mout, flags)
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
            tround_robin3_nb(tab, params, rt, offsets, steps[1 + stp, 3], steps[1 + stp, 1],
                             pl, sc, st)
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
                nxt = stp + 2 if reduced_mode == REDUCED_NEXT_STEP else 1
                r = two_player_nb(tab, params, rt, offsets, steps, nxt, pl[p0], pl[p1], st,
                                  mout, flags)
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
                w = tarmageddon_nb(tab, params, rt, offsets, steps[3, 3], steps[3, 1],
                                   pl[idx[0]], pl[idx[1]], st)
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
    r1 = two_player_nb(tab, params, rt, offsets, steps, 1, players[idx[0]], players[idx[1]],
                       st, mout, flags)
    r2 = two_player_nb(tab, params, rt, offsets, steps, 1, players[idx[2]], players[idx[3]],
                       st, mout, flags)
    w1 = idx[r1]
    l1 = idx[1 - r1]
    w2 = idx[2 + r2]
    l2 = idx[3 - r2]
    r = two_player_nb(tab, params, rt, offsets, steps, 1, players[w1], players[w2], st, mout,
                      flags)
    win = w1 if r == 0 else w2
    out[win] = gp6[0]
    out[w2 if r == 0 else w1] = gp6[1]
    share2_nb(gp6, 2, l1, l2, out)
    return win


@jit
def series_replica_nb(params, rt_ev, offsets, offset_sd, steps, pt, roster, draw, gm,
                      grp_fixed, grp_gp, ko_fixed, ko_win, gp6, ko_gp6, prize_rates,
                      places_mode, reduced_mode, ko_lots, st, rt, gpts, tf, ts, cp, cw, prize,
                      wk, flags):
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
    score = wk[64:68]
    gout = wk[68:72]
    gwin = wk[72:76]
    mout = wk[78:84]
    grp = wk[84:88]
    ci0 = steps[0, 1]
    for e in range(n_ev):
        tab = pt[e]
        # 1. ratings of this event, offsets for the roster
        if offsets:
            for p in range(npl):
                for c in range(3):
                    rt[p, c] = rt_ev[e, p, c]
            for i in range(16):
                p = roster[e, i]
                for c in range(3):
                    rt[p, c] = rt_ev[e, p, c] + normal_nb(st) * offset_sd[c]
        # 2. the draw
        for i in range(16):
            ros[i] = roster[e, i]
        d = draw[e]
        if d == DRAW_LOTS:
            shuffle_nb(ros, 16, st)
        elif d == DRAW_BASKETS:
            for q in range(4):
                for i in range(3, 0, -1):  # shuffle_nb of basket q, inline
                    j = randint_nb(st, i + 1)
                    t = ros[4 * q + i]
                    ros[4 * q + i] = ros[4 * q + j]
                    ros[4 * q + j] = t
        for g in range(4):
            for s in range(4):
                grp[s] = ros[4 * s + g] if d == DRAW_BASKETS else ros[4 * g + s]
            # 3. group games
            for s in range(4):
                score[s] = 0
            for j in range(gm.shape[2]):
                ws = gm[e, g, j, 1]
                bs = gm[e, g, j, 2]
                r = gm[e, g, j, 3]
                w = grp[ws]
                b = grp[bs]
                if r < 0:  # tgame_nb, inlined by hand (the hot loop: 48 games an event)
                    if offsets:
                        r = game_nb(params, rt, offsets, ci0, w, b, st)
                    else:
                        u = u01_nb(st)
                        pw = tab[0, w, b, 0]
                        if u < pw:
                            r = 0
                        elif u < pw + tab[0, w, b, 1]:
                            r = 1
                        else:
                            r = 2
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
            # 4. places (each group's play-off right after its games)
            if grp_fixed[e, g] >= 0:
                for s in range(4):
                    gout[s] = grp_gp[e, g, s]
                ws = grp_fixed[e, g]
            else:
                ws = group_places_nb(tab, params, rt, offsets, steps, grp, score, gp6,
                                     places_mode, reduced_mode, st, gout, wk, flags)
            gwin[g] = grp[ws]
            for s in range(4):
                p = grp[s]
                gpts[p] += gout[s]
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
            f0 = ko_fixed[e, m, 0]
            f1 = ko_fixed[e, m, 1]
            if ko_win[e, m] >= 0:
                wa = ko_win[e, m] == 0
                for c in (f0, f1):
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
                if swap:
                    x, y = b, a
                    if f0 >= 0:
                        f0 = 2 - f0
                    if f1 >= 0:
                        f1 = 2 - f1
                else:
                    x, y = a, b
                tmatch_nb(tab, params, rt, offsets, x, y, steps, 0, f0, f1, st, mout)
                if steps[mout[1], 0] == STEP_ARMAGEDDON:
                    flags[C_ARMAGEDDON] = 1
                cp[x] += mout[2]
                cp[y] += mout[3]
                cw[x] += mout[4]
                cw[y] += mout[5]
                wa = (mout[0] == 0) != swap
            w = a if wa else b
            lo = b if wa else a
            gpts[w] += ko_gp6
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
    """Order the eligible players (order[:n], returns n): points, then tb_codes, then lots
    (a shuffle of each run of players level on everything, best run first)."""
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
        for t in range(j - 1 - i, 0, -1):  # shuffle_nb of order[i:j], inline
            u = i + randint_nb(st, t + 1)
            v = order[i + t]
            order[i + t] = order[u]
            order[u] = v
        i = j
    return n


@pjit
def simulate_series_nb(seed, first, nrep, params, rt_ev, offsets, offset_sd, steps, pt, roster,
                       draw, gm, grp_fixed, grp_gp, ko_fixed, ko_win, gp6, ko_gp6, prize_rates,
                       places_mode, reduced_mode, ko_lots, eligible, tb_codes, n_qual,
                       place_out, qual_out, pts_out, pts2_out, prize_out, prize2_out, count_out):
    """Replicas first .. first+nrep-1 of the series; tallies into row c (chunk) of *_out."""
    n_chunks = (nrep + CHUNK - 1) // CHUNK
    npl = rt_ev.shape[1]
    for c in prange(n_chunks):
        st = np.empty(1, np.uint64)
        rt = np.empty((npl, 3))
        gpts = np.empty(npl, np.int64)
        tf = np.empty(npl, np.int64)
        ts = np.empty(npl, np.int64)
        cp = np.empty(npl, np.int64)
        cw = np.empty(npl, np.int64)
        prize = np.empty(npl)
        order = np.empty(npl, np.int64)
        key = np.empty(npl, np.int64)
        flags = np.zeros(N_COUNTERS, np.int64)
        wk = np.empty(WK, np.int64)
        for r in range(c * CHUNK, min(nrep, (c + 1) * CHUNK)):
            st[0] = replica_state_nb(np.uint64(seed), np.uint64(first + r))
            for i in range(N_COUNTERS):
                flags[i] = 0
            series_replica_nb(params, rt_ev, offsets, offset_sd, steps, pt, roster, draw, gm,
                              grp_fixed, grp_gp, ko_fixed, ko_win, gp6, ko_gp6, prize_rates,
                              places_mode, reduced_mode, ko_lots, st, rt, gpts, tf, ts, cp, cw,
                              prize, wk, flags)
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
def simulate_group_nb(seed, first, nrep, params, tab, steps, players, games, gp6, places_mode,
                      reduced_mode, hist_out):
    """One group alone (no offsets): its unplayed games then its places.  tab: one event's
    table [4, n, n, 2]; hist_out[c, s, v] counts replicas where slot s got v sixths."""
    n_chunks = (nrep + CHUNK - 1) // CHUNK
    for c in prange(n_chunks):
        st = np.empty(1, np.uint64)
        rt = np.zeros((1, 3))
        score = np.empty(4, np.int64)
        out = np.empty(4, np.int64)
        flags = np.zeros(N_COUNTERS, np.int64)
        wk = np.empty(WK, np.int64)
        for r in range(c * CHUNK, min(nrep, (c + 1) * CHUNK)):
            st[0] = replica_state_nb(np.uint64(seed), np.uint64(first + r))
            for s in range(4):
                score[s] = 0
            for j in range(games.shape[0]):
                ws = games[j, 1]
                bs = games[j, 2]
                res = games[j, 3]
                if res < 0:
                    res = tgame_nb(tab, params, rt, False, 0, steps[0, 1], players[ws],
                                   players[bs], st)
                if res == 0:
                    score[ws] += 2
                elif res == 2:
                    score[bs] += 2
                else:
                    score[ws] += 1
                    score[bs] += 1
            group_places_nb(tab, params, rt, False, steps, players, score, gp6, places_mode,
                            reduced_mode, st, out, wk, flags)
            for s in range(4):
                hist_out[c, s, out[s]] += 1
