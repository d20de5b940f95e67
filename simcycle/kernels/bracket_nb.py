"""One knock-out bracket walk: every knock-out (the knock-out series' events, the group series'
semi-finals and final, a tour's knock-out events) plays its bracket through :func:`walk_nb`.

A bracket of ``size`` positions (a power of two; ``formats/shared/brackets.py`` says how
positions pair): round 0 pairs positions (0, 1), (2, 3), ...; the winner of slot j meets the
winner of slot j ^ 1 in the next round; the *upper* player of a slot comes from the even
position or slot.  Slots are numbered in playing order ("flat", ``brackets.flat_slot``): the
size - 1 matches of a bracket are rows 0 .. size-2 of every per-match array.

Per match, in playing order, the walk draws (and the twin ``reference/bracket.py`` draws the
same numbers in the same order): nothing for a bye or a decided match; else the lot for White
in the match's first game when the colours are not known, then the match's own draws
(``game_nb.match_nb``, or ``game_nb.fmatch_nb`` over the table when ``fast`` and no game is
known).  What a format makes of the results (points by round, prizes, a match log, places)
it reads off the record ``rec`` and ``exit_rd`` afterwards: the walk knows no format.
"""

import numpy as np

from ..enums import (BR_BYE, BR_CL, BR_CU, BR_DN, BR_STEP, BR_UP, BR_WIN, BR_WL, BR_WU,
                     KO_DECIDED, KO_IN_PROGRESS)
from .config import ijit
from .game_nb import fmatch_nb, match_nb
from .rng_nb import u01_nb


# Inlined (``ijit``) and reading the plan's arrays at a row, not views of them: called (``jit``)
# over views of one event's rows it cost GP 2019 19 % of its throughput (benchmarks/README.md,
# "one bracket walk").  Who has White, the players and the record follow from the colour lot
# and the winner's side by arithmetic, not branches: both are coin flips to the branch
# predictor (benchmarks/README.md, "The knock-out series' match by arithmetic").  The wins and
# the exit rounds are written only for a caller that reads them: the knock-out series reads
# neither, and three stores a match fewer were part of its issue 18 gain (benchmarks/README.md,
# "The knock-out series' table and record with fewer stores").
@ijit
def walk_nb(g, seg, steps, row, players, size, kstat, kwin, kstep, kcls, kwhite, kfixed, fast,
            st, alive, fx, nofx, out6, rec, exit_rd):
    """Play one bracket of one replica; returns the champion's bracket position.

    g        :class:`~simcycle.kernels.game_nb.Games`: the games' model and ratings
    seg      int64: the rating segment the bracket is played in (``Games.rt[seg]``)
    steps    int64 [k, 3]: the match steps (``enums.STEP_*``, control row, games) of every
             match; with ``fast``, games and Armageddon only
    row      int64: the bracket's row in ``players`` and every per-match array below (each
             holds several brackets, e.g. one per event: [rows, ...])
    players  int64 [rows, >= size]: the ``Games`` player at each bracket position, -1 a bye
             (the other side of a slot with a bye goes through without a game)
    size     int64: bracket positions (a power of two, >= 2)
    kstat    int64 [rows, size-1]: what is known of each match (``enums.KO_OPEN``,
             ``KO_DECIDED``, ``KO_IN_PROGRESS``)
    kwin     int64 [rows, size-1]: a decided match's winner (0 upper, 1 lower)
    kstep    int64 [rows, size-1]: a decided match's deciding step (0 = the classical games;
             ``enums.UNKNOWN_TB_STEP`` when not known)
    kcls     int64 [rows, size-1, 2 or 4]: a decided match's classical half points (upper,
             lower) and, with 4 columns, classical wins (upper, lower); with 2 the record's
             wins (BR_WU, BR_WL) are not written (a caller that reads none passes 2)
    kwhite   int64 [rows, size-1]: who has White in the first classical game (0 upper,
             1 lower, -1 lots: drawn just before the match)
    kfixed   int64 [rows, size-1, G]: the known games of a match in progress from the upper
             player's side (``match_nb`` codes, -1 to play; G may be 0 when none is)
    fast     bool: an open match (no game known) goes through ``fmatch_nb`` over ``g.thr``
    st       uint64 [1]: the replica's SplitMix64 state, advanced in place
    alive    int64 [>= size]: scratch (the positions still in)
    fx       int64 [G]: scratch (a match in progress' known games, from White's side)
    nofx     int64 [0]: no known games
    out6     int64 [6]: scratch (``match_nb``'s outcome)
    rec      int64 [>= size-1, BR_COLS]: filled: per match in playing order the upper and
             lower positions (BR_UP, BR_DN), the winner's side (BR_WIN: 0 upper, 1 lower),
             the deciding step (BR_STEP; ``enums.BR_BYE`` for a bye), classical half points
             (BR_CU, BR_CL) and wins (BR_WU, BR_WL) of the upper and the lower player
    exit_rd  int64 [>= size]: filled: per position the round (0-based) its player lost in,
             the number of rounds for the champion, -1 for a bye; int64 [0]: not kept (a
             caller that reads none passes an empty array)
    """
    G = kfixed.shape[2]
    nk = kcls.shape[2]
    ne = exit_rd.shape[0]
    for k in range(size):
        alive[k] = k
        if ne > 0:
            exit_rd[k] = -1
    m = size
    flat = 0
    rd = 0
    while m > 1:
        half = m // 2
        for j in range(half):
            up = alive[2 * j]
            dn = alive[2 * j + 1]
            f = flat + j
            wu = 0
            wl = 0
            cu = 0
            cl = 0
            if players[row, up] < 0 or players[row, dn] < 0:
                wside = 1 if players[row, up] < 0 else 0
                step = BR_BYE
            elif kstat[row, f] == KO_DECIDED:
                wside = kwin[row, f]
                step = kstep[row, f]
                cu = kcls[row, f, 0]
                cl = kcls[row, f, 1]
                if nk >= 4:
                    wu = kcls[row, f, 2]
                    wl = kcls[row, f, 3]
            else:
                wh = kwhite[row, f]     # 0: the upper player has White in game 1
                if wh < 0:
                    wh = np.int64(u01_nb(st) >= 0.5)
                pu = players[row, up]
                pd = players[row, dn]
                pa = pu + wh * (pd - pu)
                pb = pu + pd - pa
                if kstat[row, f] == KO_IN_PROGRESS or not fast:
                    if kstat[row, f] == KO_IN_PROGRESS:
                        for q in range(G):
                            v = kfixed[row, f, q]
                            fx[q] = v if (v < 0 or wh == 0) else 2 - v
                        match_nb(g, seg, pa, pb, steps, fx, st, out6)
                    else:
                        match_nb(g, seg, pa, pb, steps, nofx, st, out6)
                    wa = out6[0]
                    step = out6[1]
                    ca = out6[2]
                    cb = out6[3]
                    xa = out6[4]
                    xb = out6[5]
                else:
                    wa, step, ca, cb, xa, xb, stv = fmatch_nb(g.thr, seg, pa, pb, steps, st[0])
                    st[0] = stv
                wside = wa + wh - 2 * wa * wh
                cu = ca + wh * (cb - ca)
                cl = ca + cb - cu
                wu = xa + wh * (xb - xa)
                wl = xa + xb - wu
            rec[f, BR_UP] = up
            rec[f, BR_DN] = dn
            rec[f, BR_WIN] = wside
            rec[f, BR_STEP] = step
            rec[f, BR_CU] = cu
            rec[f, BR_CL] = cl
            if nk >= 4:
                rec[f, BR_WU] = wu
                rec[f, BR_WL] = wl
            w = up + wside * (dn - up)
            lo = up + dn - w
            if ne > 0 and players[row, lo] >= 0:
                exit_rd[lo] = rd
            alive[j] = w
        flat += half
        m = half
        rd += 1
    if ne > 0 and players[row, alive[0]] >= 0:
        exit_rd[alive[0]] = rd
    return alive[0]
