"""Numba code over arrays: a series of events, each groups of four (double round robin) feeding
semi-finals and a final (FIDE Grand Prix 2022), replica-parallel with streaming tallies.

Units: group and series points in sixths of a point (so that points shared by two or three
players stay integers), game points in half points, money as floats.

Built on the shared blocks: games, play-off round robins, Armageddon and the knock-out match
(``match_nb``: a match from a later step is the slice ``steps[s0:]``, known classical games
the ``fixed`` array) from ``kernels.game_nb`` with a :class:`~simcycle.kernels.game_nb.Games`
whose segment is the event; the knock-out (the four group winners as a bracket of 4) through
the one bracket walk ``kernels.bracket_nb.walk_nb``, whose record gives the knock-out's
points, money, classical points and wins, finals and Armageddon flag; the series order from
``kernels.rank_nb``; tallies from ``kernels.tally_nb``.  Knock-out matches with no known game
and the two-player tiebreak procedure go through ``game_nb.fmatch_nb`` (the table, the stream
state in a register) unless ``live``; ``steps`` are games and Armageddon only, as it
requires.

The plain-Python twin is ``simcycle.reference.groups`` (its knock-out through the bracket twin
``reference.bracket``); both draw the same numbers in the same
order.  Per replica, event by event:
  1. offsets (when on): roster order, then rating class;
  2. the draw of groups not yet drawn (lots: one shuffle of the 16; baskets: a shuffle of each
     basket of four, strongest basket first);
  3. group A to D: the group's unplayed games in schedule order, then its play-off for first
     when one is needed (see ``group_places_nb``);
  4. semi-final A v B, semi-final C v D, final (``walk_nb``'s order: colour lot first when
     knockout_colours = lots, nothing for a decided match);
then the lots between players level on every series criterion, best placed first.

Hand-specialised (measured with benchmarks/bench_gp2022.py and CPU time per series, 1 thread,
alternating with the pre-port kernel): the group-game loop reads the threshold table through
one flat index and White's threshold first, baskets are shuffled by index (no view per
basket), the series key is sorted while it is computed (``rank_nb.sort_desc_nb``'s insertion
step) and lots shuffle runs of equal keys, places and points are tallied in two plain loops
(players outside the table have points too, which ``tally_nb`` does not count).  Written with
the shared blocks throughout (``sort_segment_nb`` per criterion, ``tally_nb``, every game
through ``game_nb``) the kernel took 1.61 us a series at ``event3-sf`` against 1.15 us before
the port and about 10 % more at ``start``; with these, 5.6 against 5.3 us at ``start``
(medians of alternating runs: 178k against 186k series/s on 1 thread, 178k against 182k on 2,
on the shared 2-core machine).  Later, with every match (knock-out and group tiebreak) through
``match_nb`` over the ``Games`` record: 176k against 192k series/s on 1 thread, 353k against
379k on 2; leaving out the knock-out matches' draws (timing only, 1 thread) gave 212k,
leaving out the group tiebreaks' 211k, so both go through ``fmatch_nb`` when they can: 194k
against 190k on 1 thread, 390k against 375k on 2 (medians of 6 alternating runs each,
1,000,000 series).

``steps`` rows (kind ``enums.STEP_*``, control row, games): classical pair, rapid pair, blitz
pair, Armageddon: a knock-out match; the two-player tiebreak procedure is ``steps[1:]``.
"""

from typing import NamedTuple

import numpy as np
from numba import prange

from ...enums import (BR_CL, BR_COLS, BR_CU, BR_DN, BR_STEP, BR_UP, BR_WIN, BR_WL, BR_WU,
                      DRAW, DRAW_BASKETS, DRAW_LOTS, GS_C_ARMAGEDDON, GS_C_GROUP_PLAYOFF,
                      GS_C_Q_LOTS, GS_C_Q_TIEBREAK, PLACES_ELIMINATION, REDUCED_NEXT_STEP,
                      SER_CLASSICAL, SER_EVENTS_WON, SER_SECOND, STEP_ARMAGEDDON, UNPLAYED,
                      WHITE_WINS, BLACK_WINS)
from ...kernels.bracket_nb import walk_nb
from ...kernels.config import CHUNK, bjit, ijit, jit, pjit
from ...kernels.game_nb import (Games, armageddon_nb, fmatch_nb, game_nb, match_nb,
                                round_robin_nb, shuffle_nb)
from ...kernels.rank_nb import pack_nb, sort_desc_nb
from ...kernels.rng_nb import normal_nb, randint_nb, replica_state_nb, u01_nb
from ...kernels.tally_nb import count_flags_nb, local_tallies_nb, store_nb

WK = 32  # int64 scratch of a group's places: [0:6] match out, [6:10] tied, [12:18] round
#          robin of three, [20:24] rest places, [28:32] lots


class GroupSeriesArgs(NamedTuple):
    """The arguments of :func:`simulate_nb`, built by ``plan.py``.

    params, rt, thr, live, offsets   the fields of a
                 :class:`~simcycle.kernels.game_nb.Games` (segment = event: rt [events,
                 players, 3] holds each event's ratings), flat because numba's parallel
                 loops take no nested tuples
    offset_sd    float64 [3]: strength-offset SD per rating class (Elo), used with offsets
    steps        int64 [4, 3]: (``enums.STEP_*``, control row, games) of a knock-out match:
                 classical pair, rapid pair, blitz pair, Armageddon
    roster       int64 [events, 16]: group g is roster[4g:4g+4] in slot order when drawn
                 (DRAW_FIXED); else the roster by rating (baskets are its runs of four)
    draw         int64 [events]: ``enums.DRAW_FIXED``, ``DRAW_LOTS`` or ``DRAW_BASKETS``
    gm           int64 [events, 4, 12, 4]: each group's games (round, White slot, Black slot,
                 result ``enums`` code or UNPLAYED) in schedule order
    grp_fixed    int64 [events, 4]: winner's slot of a group whose places are known, else -1
    grp_gp       int64 [events, 4, 4]: the known places' points by slot (sixths)
    ko_stat, ko_win, ko_step, ko_cls, ko_white, ko_fixed
                 the knock-out's rows for ``bracket_nb.walk_nb`` (its kstat, kwin, kstep,
                 kcls, kwhite, kfixed; row = event): semi-final 1, 2 and the final, from the
                 leading (upper) player's side (group A's / C's winner, semi-final 1's):
    ko_stat      int64 [events, 3]: ``enums.KO_OPEN``, ``KO_DECIDED``, ``KO_IN_PROGRESS``
    ko_win       int64 [events, 3]: 0 the leading player won the match, 1 the other, -1 open
    ko_step      int64 [events, 3]: a decided match's deciding step: 0 when its classical
                 games are known and not level, else ``enums.UNKNOWN_TB_STEP``
    ko_cls       int64 [events, 3, 4]: a decided match's known classical half points and
                 wins (leading, other)
    ko_white     int64 [events, 3]: -1 (a colour lot) when ``ko_lots``, else 0 (the leading
                 player has White in game 1)
    ko_fixed     int64 [events, 3, 2]: known classical games, UNPLAYED if not known
    gp6          int64 [4]: points of group places 1-4 (sixths)
    ko_gp6       int: points for a knock-out match won (sixths)
    win_gp6      int: points per classical game won, group and knock-out (sixths)
    prize_rates  float64 [3]: money per player, per group point, per knock-out point
    places_mode  int: ``enums.PLACES_*``
    reduced_mode int: ``enums.REDUCED_*``
    ko_lots      bool: a colour lot before each simulated knock-out match (the rule;
                 the kernel reads ``ko_white``)
    eligible     bool [players]: in the series table
    criteria     int64 [k]: series criteria after points (``enums.SER_*``), in order
    key_base     int64 [k]: each criterion's base in the one sort key (its largest value + 1;
                 ``kernels/keys.py`` checked the key's width)
    n_qual       int: qualifying places
    """

    params: np.ndarray
    rt: np.ndarray
    thr: np.ndarray
    live: bool
    offsets: bool
    offset_sd: np.ndarray
    steps: np.ndarray
    roster: np.ndarray
    draw: np.ndarray
    gm: np.ndarray
    grp_fixed: np.ndarray
    grp_gp: np.ndarray
    ko_stat: np.ndarray
    ko_win: np.ndarray
    ko_step: np.ndarray
    ko_cls: np.ndarray
    ko_white: np.ndarray
    ko_fixed: np.ndarray
    gp6: np.ndarray
    ko_gp6: int
    win_gp6: int
    prize_rates: np.ndarray
    places_mode: int
    reduced_mode: int
    ko_lots: bool
    eligible: np.ndarray
    criteria: np.ndarray
    key_base: np.ndarray
    n_qual: int


@bjit
def two_player_nb(g, seg, steps, s0, pa, pb, st, mout, flags):
    """The two-player tiebreak procedure from step s0 (1 = rapid pair, 2 = blitz pair,
    3 = Armageddon) between players pa and pb: a colour lot (who is White in the first game
    of each pair), then the match over steps[s0:] (``fmatch_nb`` over the table, ``match_nb``
    when ``g.live``).  mout: int64[6] scratch.  Returns 0 if pa wins, 1 if pb wins."""
    if u01_nb(st) < 0.5:
        x, y, swap = pa, pb, False
    else:
        x, y, swap = pb, pa, True
    if g.live:
        nofix = mout[6:6]
        match_nb(g, seg, x, y, steps[s0:], nofix, st, mout)
        wx = mout[0]
        d = s0 + mout[1]
    else:
        wx, d, _, _, _, _, stv = fmatch_nb(g.thr, seg, x, y, steps[s0:], st[0])
        st[0] = stv
        d += s0
    if d < steps.shape[0] and steps[d, 0] == STEP_ARMAGEDDON:
        flags[GS_C_ARMAGEDDON] = 1
    win_x = wx == 0
    return 0 if win_x != swap else 1


@ijit
def share2_nb(gp6, first_place, s1, s2, out):
    """Slots s1 and s2 share places first_place and first_place + 1."""
    v = (gp6[first_place] + gp6[first_place + 1]) // 2
    out[s1] = v
    out[s2] = v


@ijit
def rest_places_nb(score, gp6, out, first_place, wk):
    """Places first_place.. for the slots still without points (out == -1), by score, ties
    shared (``rules.rest_places``).  wk: int64 scratch of length >= 4."""
    m = 0
    for s in range(4):
        if out[s] < 0:
            wk[m] = s
            m += 1
    sort_desc_nb(wk, 0, m, score)
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


@bjit
def three_level_nb(g, seg, steps, players, tied, gp6, places_mode, reduced_mode, st, out, wk,
                   flags):
    """Three level for first: a rapid round robin, then a blitz one (colours by lot inside),
    then lots pick two for an Armageddon (the third shares second with its loser); a round
    robin that cuts the tie to two hands it to the two-player procedure.  Returns the
    winner's slot."""
    mout = wk[0:6]
    pl = wk[12:15]
    sc = wk[15:18]
    for i in range(3):
        pl[i] = players[tied[i]]
    win = -1
    for stp in range(2):
        round_robin_nb(g, seg, steps[1 + stp, 1], pl, np.int64(3), sc, st)
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
            return win
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
            r = two_player_nb(g, seg, steps, nxt, pl[p0], pl[p1], st, mout, flags)
            wi = p0 if r == 0 else p1
            li = p1 if r == 0 else p0
            win = tied[wi]
            out[win] = gp6[0]
            if places_mode == PLACES_ELIMINATION:
                out[tied[li]] = gp6[1]
                out[tied[left]] = gp6[2]
            else:
                share2_nb(gp6, 1, tied[li], tied[left], out)
            return win
    # still three level after the blitz round robin: lots pick two
    idx = wk[28:31]
    for i in range(3):
        idx[i] = i
    shuffle_nb(idx, np.int64(3), st)
    flags[GS_C_ARMAGEDDON] = 1
    w = armageddon_nb(g, seg, steps[3, 1], pl[idx[0]], pl[idx[1]], st)
    wi = idx[0] if w == pl[idx[0]] else idx[1]
    li = idx[1] if wi == idx[0] else idx[0]
    win = tied[wi]
    out[win] = gp6[0]
    share2_nb(gp6, 1, tied[li], tied[idx[2]], out)
    return win


@ijit
def group_places_nb(g, seg, steps, players, score, gp6, places_mode, reduced_mode, st, out,
                    wk, flags):
    """Group points (sixths) of the four slots of a finished group; returns the winner's slot.

    players: int64[4] player ids; score: int64[4] classical half points; gp6: int64[4] points
    of places 1-4 in sixths; wk: int64 scratch [WK].  Writes out[4].  Draws only when
    several are level for first (``tie_places_nb``)."""
    top = score[0]
    for s in range(1, 4):
        if score[s] > top:
            top = score[s]
    k = 0
    first = 0
    for s in range(4):
        out[s] = -1
        if score[s] == top:
            first = s
            k += 1
    if k == 1:
        out[first] = gp6[0]
        rest_places_nb(score, gp6, out, 1, wk[20:24])
        return first
    return tie_places_nb(g, seg, steps, players, score, gp6, places_mode, reduced_mode, st,
                         out, wk, flags)


@bjit
def tie_places_nb(g, seg, steps, players, score, gp6, places_mode, reduced_mode, st, out, wk,
                  flags):
    """``group_places_nb`` when several are level for first: 2 level, the two-player
    procedure; 3 level, see ``three_level_nb``; 4 level, a shuffle of the four (pairs 1-2
    and 3-4), the two pairs' procedures, the winners' one."""
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
    flags[GS_C_GROUP_PLAYOFF] = 1
    if k == 2:
        r = two_player_nb(g, seg, steps, np.int64(1), players[tied[0]], players[tied[1]], st,
                          mout,
                          flags)
        win = tied[r]
        out[win] = gp6[0]
        out[tied[1 - r]] = gp6[1]
        rest_places_nb(score, gp6, out, 2, wk[20:24])
        return win
    if k == 3:
        win = three_level_nb(g, seg, steps, players, tied, gp6, places_mode, reduced_mode, st,
                             out, wk, flags)
        rest_places_nb(score, gp6, out, 3, wk[20:24])
        return win
    # four level: lots make two pairs
    idx = wk[28:32]
    for i in range(4):
        idx[i] = i
    shuffle_nb(idx, np.int64(4), st)
    one = np.int64(1)   # typed, not a literal (a literal argument compiles the callee again)
    r1 = two_player_nb(g, seg, steps, one, players[idx[0]], players[idx[1]], st, mout, flags)
    r2 = two_player_nb(g, seg, steps, one, players[idx[2]], players[idx[3]], st, mout, flags)
    w1 = idx[r1]
    l1 = idx[1 - r1]
    w2 = idx[2 + r2]
    l2 = idx[3 - r2]
    r = two_player_nb(g, seg, steps, one, players[w1], players[w2], st, mout, flags)
    win = w1 if r == 0 else w2
    out[win] = gp6[0]
    out[w2 if r == 0 else w1] = gp6[1]
    share2_nb(gp6, 2, l1, l2, out)
    return win


@ijit
def group_games_nb(g, seg, ci, gm, e, gi, grp, score, cp, cw, st, flat):
    """Play group gi's games (rows gm[e, gi]): fills score[4] (half points by slot) and adds
    classical points and wins to cp, cw.  The hot loop (48 games an event): thresholds read
    from ``flat``, the table ``g.thr`` as one flat view (one index to compute instead of
    five), or ``game_nb`` when live."""
    n = g.thr.shape[2]
    row = (seg * g.thr.shape[1] + ci) * n
    for s in range(4):
        score[s] = 0
    for j in range(gm.shape[2]):
        ws = gm[e, gi, j, 1]
        bs = gm[e, gi, j, 2]
        r = gm[e, gi, j, 3]
        w = grp[ws]
        b = grp[bs]
        if r == UNPLAYED:
            if g.live:
                r = game_nb(g, seg, ci, w, b, st)
            else:   # result_of_nb, the draw threshold read only when White has not won
                u = u01_nb(st)
                k = 2 * ((row + w) * n + b)
                if u < flat[k]:
                    r = WHITE_WINS
                elif u < flat[k + 1]:
                    r = DRAW
                else:
                    r = BLACK_WINS
        if r == WHITE_WINS:
            score[ws] += 2
            cp[w] += 2
            cw[w] += 1
        elif r == BLACK_WINS:
            score[bs] += 2
            cp[b] += 2
            cw[b] += 1
        else:
            score[ws] += 1
            score[bs] += 1
            cp[w] += 1
            cp[b] += 1


@ijit
def event_nb(a, g, e, rt, st, ros, grp, score, gout, kpl, alive, rec, exit_rd, mout, fx, gpts,
             tf, ts, cp, cw, prize, wk, flags, flat):
    """Event e of one replica: offsets, draw, groups, knock-out (``bracket_nb.walk_nb`` over
    kpl[e], the group winners A-D; alive, rec, exit_rd, mout, fx its scratch); adds to the
    series arrays."""
    if a.offsets:
        for i in range(16):
            p = a.roster[e, i]
            for c in range(3):
                rt[e, p, c] = a.rt[e, p, c] + normal_nb(st) * a.offset_sd[c]
    for i in range(16):
        ros[i] = a.roster[e, i]
    d = a.draw[e]
    if d == DRAW_LOTS:
        shuffle_nb(ros, np.int64(16), st)
    elif d == DRAW_BASKETS:
        for q in range(4):   # shuffle_nb of basket q, by index (no view per basket)
            for i in range(3, 0, -1):
                j = randint_nb(st, i + 1)
                t = ros[4 * q + i]
                ros[4 * q + i] = ros[4 * q + j]
                ros[4 * q + j] = t
    ci0 = a.steps[0, 1]
    for gi in range(4):
        for s in range(4):
            grp[s] = ros[4 * s + gi] if d == DRAW_BASKETS else ros[4 * gi + s]
        group_games_nb(g, e, ci0, a.gm, e, gi, grp, score, cp, cw, st, flat)
        if a.grp_fixed[e, gi] >= 0:
            for s in range(4):
                gout[s] = a.grp_gp[e, gi, s]
            ws = a.grp_fixed[e, gi]
        else:
            ws = group_places_nb(g, e, a.steps, grp, score, a.gp6, a.places_mode,
                                 a.reduced_mode, st, gout, wk, flags)
        kpl[e, gi] = grp[ws]
        for s in range(4):
            p = grp[s]
            gpts[p] += gout[s]
            prize[p] += a.prize_rates[0] + a.prize_rates[1] * gout[s] / 6.0
    # knock-out: the four group winners as a bracket of 4 (semi-finals A v B, C v D, final)
    walk_nb(g, e, a.steps, e, kpl, np.int64(4), a.ko_stat, a.ko_win, a.ko_step, a.ko_cls,
            a.ko_white, a.ko_fixed, not a.live, st, alive, fx, fx[0:0], mout, rec, exit_rd)
    for m in range(3):
        pu = kpl[e, rec[m, BR_UP]]
        pd = kpl[e, rec[m, BR_DN]]
        cp[pu] += rec[m, BR_CU]
        cp[pd] += rec[m, BR_CL]
        cw[pu] += rec[m, BR_WU]
        cw[pd] += rec[m, BR_WL]
        d = rec[m, BR_STEP]   # a decided match's is 0 or UNKNOWN_TB_STEP: no flag
        if 0 <= d < a.steps.shape[0] and a.steps[d, 0] == STEP_ARMAGEDDON:
            flags[GS_C_ARMAGEDDON] = 1
        w = pu if rec[m, BR_WIN] == 0 else pd
        gpts[w] += a.ko_gp6
        prize[w] += a.prize_rates[2] * a.ko_gp6 / 6.0
        if m == 2:
            tf[w] += 1
            ts[pu + pd - w] += 1


@ijit
def rank_series_nb(a, gpts, tf, ts, cp, cw, key, order, brk, work, st, flags):
    """Order the eligible players (order[:n], returns n): points, then ``a.criteria``, then
    lots (a shuffle of each group still level, best group first).  The deterministic
    criteria are folded into one key (``rank_nb.pack_nb``, bases ``a.key_base``), sorted
    while it is computed (``rank_nb.sort_desc_nb`` order: stable, descending).  Sets the
    qualifying-place flags: the last place in level on points with the next
    (GS_C_Q_TIEBREAK), on everything (GS_C_Q_LOTS)."""
    n = 0
    for p in range(a.eligible.shape[0]):
        if a.eligible[p]:
            k = gpts[p]
            for c in range(a.criteria.shape[0]):
                crit = a.criteria[c]
                if crit == SER_EVENTS_WON:
                    v = tf[p]
                elif crit == SER_SECOND:
                    v = ts[p]
                elif crit == SER_CLASSICAL:
                    v = cp[p]
                else:   # SER_CLASSICAL_WINS
                    v = cw[p]
                k = pack_nb(k, v, a.key_base[c])
            key[p] = k
            j = n   # one step of sort_desc_nb: insert p after the players with key >= k
            while j > 0 and key[order[j - 1]] < k:
                order[j] = order[j - 1]
                j -= 1
            order[j] = p
            n += 1
    nq = a.n_qual
    if n > nq and nq > 0 and gpts[order[nq - 1]] == gpts[order[nq]]:
        flags[GS_C_Q_TIEBREAK] = 1
        if key[order[nq - 1]] == key[order[nq]]:
            flags[GS_C_Q_LOTS] = 1
    i = 0
    while i < n:
        j = i + 1
        while j < n and key[order[j]] == key[order[i]]:
            j += 1
        if j - i > 1:
            shuffle_nb(order[i:j], j - i, st)
        i = j
    return n


class Scratch(NamedTuple):
    """One replica's work arrays and results (:func:`replica_nb` fills them; npl players of
    the roster, the rows of ``rt``)."""

    gpts: np.ndarray     # int64 [npl]: series points in sixths (the result)
    tf: np.ndarray       # int64 [npl]: events won
    ts: np.ndarray       # int64 [npl]: second places
    cp: np.ndarray       # int64 [npl]: classical half points
    cw: np.ndarray       # int64 [npl]: classical wins
    prize: np.ndarray    # float64 [npl]: money (the result)
    order: np.ndarray    # int64 [npl]: the series table, best first: order[:n] (the result)
    brk: np.ndarray      # int64 [npl]: group starts (rank_series_nb)
    key: np.ndarray      # int64 [npl]: the folded series key
    work: np.ndarray     # int64 [npl]: lots
    ros: np.ndarray      # int64 [16]: an event's roster after the draw
    grp: np.ndarray      # int64 [4]: a group's players by slot
    score: np.ndarray    # int64 [4]: a group's half points by slot
    gout: np.ndarray     # int64 [4]: a group's points by slot (sixths)
    kpl: np.ndarray      # int64 [events, 4]: each event's group winners A-D (its bracket)
    alive: np.ndarray    # int64 [4]: the bracket positions still in (``walk_nb``)
    rec: np.ndarray      # int64 [3, BR_COLS]: the knock-out's record (``walk_nb``)
    exit_rd: np.ndarray  # int64 [4]: the round each bracket position lost in (``walk_nb``)
    mout: np.ndarray     # int64 [6]: match_nb's outcome
    fx: np.ndarray       # int64 [2]: a knock-out match's known classical games
    wk: np.ndarray       # int64 [WK]: a group's places
    flags: np.ndarray    # int64 [counters]: this replica's counters (``enums.GS_C_*``)


@ijit
def scratch_nb(a, n_flags):
    """A :class:`Scratch` for the series ``a`` (:class:`GroupSeriesArgs`: its players and
    events) and n_flags counters."""
    npl = a.rt.shape[1]
    return Scratch(np.empty(npl, np.int64), np.empty(npl, np.int64), np.empty(npl, np.int64),
                   np.empty(npl, np.int64), np.empty(npl, np.int64), np.empty(npl),
                   np.empty(npl, np.int64), np.empty(npl, np.int64), np.empty(npl, np.int64),
                   np.empty(npl, np.int64), np.empty(16, np.int64), np.empty(4, np.int64),
                   np.empty(4, np.int64), np.empty(4, np.int64),
                   np.empty((a.rt.shape[0], 4), np.int64), np.empty(4, np.int64),
                   np.empty((3, BR_COLS), np.int64), np.empty(4, np.int64),
                   np.empty(6, np.int64), np.empty(2, np.int64), np.empty(WK, np.int64),
                   np.zeros(n_flags, np.int64))


@ijit
def replica_nb(a, g, st, s, flat):
    """The group-series stage: ONE replica of the rest of the series from the plan's state.

    a      :class:`GroupSeriesArgs`
    g      :class:`~simcycle.kernels.game_nb.Games` whose ``rt`` is this replica's working
           copy of ``a.rt`` (offsets are written into it)
    st     uint64 [1]: the replica's SplitMix64 state, advanced in place
    s      :class:`Scratch`: fills s.order[:n] (the series table, best first), s.gpts,
           s.prize, s.flags (and the criteria arrays s.tf, s.ts, s.cp, s.cw)
    flat   ``a.thr`` as one flat view (the group games' thresholds)
    Returns n, the players in the table.
    """
    npl = a.rt.shape[1]
    for i in range(s.flags.shape[0]):
        s.flags[i] = 0
    for p in range(npl):
        s.gpts[p] = 0
        s.tf[p] = 0
        s.ts[p] = 0
        s.cp[p] = 0
        s.cw[p] = 0
        s.prize[p] = 0.0
    for e in range(a.roster.shape[0]):
        event_nb(a, g, e, g.rt, st, s.ros, s.grp, s.score, s.gout, s.kpl, s.alive, s.rec,
                 s.exit_rd, s.mout, s.fx, s.gpts, s.tf, s.ts, s.cp, s.cw, s.prize, s.wk, s.flags,
                 flat)
    if a.win_gp6:
        for p in range(npl):
            s.gpts[p] += a.win_gp6 * s.cw[p]
    return rank_series_nb(a, s.gpts, s.tf, s.ts, s.cp, s.cw, s.key, s.order, s.brk, s.work,
                          st, s.flags)


@jit
def chunk_nb(c, lo, hi, seed, first, a, out):
    """Replicas lo .. hi-1 (offsets from ``first``) into row c of ``out``: the stage
    (:func:`replica_nb`), then the tallies."""
    rt = a.rt.copy()
    g = Games(a.params, rt, a.thr, a.live, a.offsets)
    flat = a.thr.reshape(a.thr.size)
    st = np.empty(1, np.uint64)
    s = scratch_nb(a, out.counters.shape[1])
    t = local_tallies_nb(out)
    replicas_nb(lo, hi, seed, first, a, g, st, s, flat, t)
    store_nb(t, out, c)


# The chunk's replica loop and the tiebreak helpers it calls are compiled without reference
# counts (``bjit``; they allocate nothing, ``chunk_nb`` allocates and keeps every array alive):
# with them the inlined stage counted the plan's, the games' and the scratch's arrays around
# every inlined event and helper, and the helpers their arguments at every call.  GP 2022 from
# start, kernel CPU a series 5,810-6,320 ns -> 3,540-3,750 (bdabed7 5,610-6,350), output
# byte-identical (benchmarks/README.md, "The knock-out stage without reference counts").
@bjit
def replicas_nb(lo, hi, seed, first, a, g, st, s, flat, t):
    """Replicas lo .. hi-1 (offsets from ``first``) of one chunk: the stage, then the tallies.

    lo, hi, first  int64: the chunk's replicas and the batch's first replica
    seed           uint64: the run's seed (``rng_nb.replica_state_nb``)
    a              :class:`GroupSeriesArgs`
    g              :class:`~simcycle.kernels.game_nb.Games` over the chunk's copy of ``a.rt``
    st             uint64 [1]: the replica's SplitMix64 state (set here per replica)
    s              :class:`Scratch`
    flat           ``a.thr`` as one flat view
    t              :class:`~simcycle.kernels.tally_nb.Tallies`: the chunk's tallies, added to
    """
    npl = a.rt.shape[1]
    for r in range(lo, hi):
        st[0] = replica_state_nb(np.uint64(seed), np.uint64(first + r))
        n = replica_nb(a, g, st, s, flat)
        # places of the players in the table; points and money of every player (those left
        # out of the table too, so not ``tally_nb``, which counts the ordered players only)
        for i in range(n):
            p = s.order[i]
            t.place[p, i] += 1
            if i < a.n_qual:
                t.qualify[p] += 1
        for p in range(npl):
            x = np.float64(s.gpts[p])
            t.points[p] += x
            t.points_sq[p] += x * x
            z = s.prize[p]
            t.prize[p] += z
            t.prize_sq[p] += z * z
        count_flags_nb(t, s.flags)


@pjit
def simulate_nb(seed, first, nrep, a, out):
    """Replicas first .. first+nrep-1 of the series.

    seed   uint64: the run's seed; replica r draws from ``rng_nb.replica_state_nb(seed, r)``
    first  int64: index of the batch's first replica
    nrep   int64: replicas in the batch
    a      :class:`GroupSeriesArgs`
    out    :class:`~simcycle.kernels.tally_nb.Tallies` with a leading chunk axis: chunk c of
           ``CHUNK`` replicas fills row c
    """
    n_chunks = (nrep + CHUNK - 1) // CHUNK
    for c in prange(n_chunks):
        chunk_nb(np.int64(c), c * CHUNK, min(nrep, (c + 1) * CHUNK), seed, first, a, out)


@pjit
def simulate_group_nb(seed, first, nrep, params, thr, steps, players, games, gp6, places_mode,
                      reduced_mode, hist_out):
    """One group alone (no offsets, segment 0 of ``thr``): its unplayed games then its
    places; hist_out[c, s, v] counts replicas where slot s got v sixths (tests)."""
    n_chunks = (nrep + CHUNK - 1) // CHUNK
    zero = np.int64(0)   # typed, not a literal 0 (which compiles every callee once more)
    for c in prange(n_chunks):
        g = Games(params, np.zeros((1, players.shape[0], 3)), thr, False, False)
        st = np.empty(1, np.uint64)
        score = np.empty(4, np.int64)
        out = np.empty(4, np.int64)
        cp = np.zeros(thr.shape[2], np.int64)
        cw = np.zeros(thr.shape[2], np.int64)
        flags = np.zeros(4, np.int64)
        wk = np.empty(WK, np.int64)
        gm = games.reshape((1, 1, games.shape[0], games.shape[1]))
        flat = thr.reshape(thr.size)
        for r in range(c * CHUNK, min(nrep, (c + 1) * CHUNK)):
            st[0] = replica_state_nb(np.uint64(seed), np.uint64(first + r))
            group_games_nb(g, zero, steps[0, 1], gm, zero, zero, players, score, cp, cw, st, flat)
            group_places_nb(g, zero, steps, players, score, gp6, places_mode, reduced_mode, st,
                            out, wk, flags)
            for s in range(4):
                hist_out[c, s, out[s]] += 1
