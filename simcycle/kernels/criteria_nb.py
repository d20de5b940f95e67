"""Numba code over arrays: the FIDE tie-break criteria (Handbook C.07), one value function
each, all of the same signature (the one table that names them is ``simcycle.criteria``).

Every criterion is ``f(t, rounds, i, group, k) -> int64``: the value of player ``i`` (higher
ranks first) from the crosstable ``t`` (:class:`Crosstable`) over rounds ``1..rounds``;
``group[:k]`` are the players still level when it is applied (only direct encounter reads
them).  Values are exact integers in the unit of the table's ``scale`` (points in half points,
Sonneborn-Berger in quarter points, average ratings in whole Elo), so ties are exact.

Unplayed rounds follow C.07 (2023/2024 text) Article 16, the rules FIDE events of 2024-25
used:

* 16.1-16.2: a requested half- or zero-point bye and a forfeit loss are "voluntary unplayed
  rounds" (VUR); a pairing-allocated bye, a forfeit win and a full-point bye are not.
* 16.3: for the tie-breaks of *others*, a player's score is his points, except that a
  requested bye after which he played no more (16.2.5) counts as a draw (``adjusted_nb``).
* 16.4: in a player's *own* Buchholz and Sonneborn-Berger, each unplayed round counts as a
  game against a dummy opponent with the player's own points.
* 16.5.1: a cut removes the least VUR contribution if there is one, else the least value.
* Average rating of opponents (C.07 10.1) counts games played over the board only, rounded
  to the nearest whole number (0.5 up); cut 1 drops the lowest-rated opponent.
* Direct encounter (C.07 6): the points the level players scored in the games among them,
  used only when every pair of them has met (otherwise it separates no one; the C.07 6.2
  partial case, a player who scored more than the others could, is not applied).

The plain-Python twin is ``simcycle.reference.criteria``; adding a criterion is one function
here, one there, one code in ``enums.py`` and one row of ``criteria.TABLE``.  The Swiss and the
round robin (whose scenario names map to these codes: ``enums.RR_CRITERIA``) rank by them,
splitting the level groups by a criterion in one place (:func:`criterion_pass_nb`).
"""

from typing import NamedTuple

import numpy as np

from ..enums import (COL_BLACK, RK_FORFEIT_LOSS, RK_FORFEIT_WIN, RK_HALF_BYE, RK_NONE, RK_PAB,
                     RK_PLAYED, RK_ZERO_BYE, TBS_ARO, TBS_ARO_C1, TBS_BLACK_GAMES,
                     TBS_BUCHHOLZ, TBS_BUCHHOLZ_C1, TBS_DIRECT_ENCOUNTER, TBS_LOTS,
                     TBS_PROGRESSIVE, TBS_SONNEBORN_BERGER, TBS_WINS, TBS_WON)
from ..criteria import BY_CODE, BY_NAME, TABLE, Criterion  # noqa: F401  (the code table)
from .config import ijit, jit
from .rank_nb import lots_groups_nb, segment_end_nb, sort_segment_nb, start_order_nb


class Crosstable(NamedTuple):
    """An event's crosstable, one row per player, one column per round (a Swiss's) or per
    game in playing order (a round robin's: ``formats/roundrobin/rules.columns``).

    opp     int64 [n, R]: the opponent of round r (-1: none)
    res     int64 [n, R]: half points the player got in round r (a bye's or forfeit's too)
    kind    int64 [n, R]: ``enums.RK_*`` (played, bye of which kind, forfeit, not yet)
    colour  int64 [n, R]: ``enums.COL_WHITE`` / ``COL_BLACK`` / ``COL_NONE``
    pts     int64 [n]: half points over the rounds counted (``adjusted_nb`` fills it)
    adj     int64 [n]: the C.07 16.3 score others' tie-breaks use (``adjusted_nb`` fills it)
    rating  int64 [n]: the rating the average-rating criteria use (the event's start list)
    """

    opp: np.ndarray
    res: np.ndarray
    kind: np.ndarray
    colour: np.ndarray
    pts: np.ndarray
    adj: np.ndarray
    rating: np.ndarray




@ijit
def is_vur_nb(kind):
    """C.07 16.1: a voluntary unplayed round (requested half/zero bye, forfeit loss)."""
    return kind == RK_HALF_BYE or kind == RK_ZERO_BYE or kind == RK_FORFEIT_LOSS


@jit
def adjusted_nb(t, rounds):
    """Fill ``t.pts`` (half points over rounds 1..rounds) and ``t.adj`` (C.07 16.3: a
    requested bye after which the player took part in no more rounds counts as a draw)."""
    n = t.pts.shape[0]
    for i in range(n):
        p = 0
        a = 0
        later = False     # took part (game, PAB or forfeit win) in a later round
        for r in range(rounds - 1, -1, -1):
            kd = t.kind[i, r]
            p += t.res[i, r]
            if (kd == RK_HALF_BYE or kd == RK_ZERO_BYE) and not later:
                a += 1
            else:
                a += t.res[i, r]
            if kd == RK_PLAYED or kd == RK_PAB or kd == RK_FORFEIT_WIN:
                later = True
        t.pts[i] = p
        t.adj[i] = a


# ---- the value functions: f(t, rounds, i, group, k) -> int64 ---------------------------------
# Inlined (``ijit``) down to the ranker that calls them.  Each takes the crosstable's 2-D
# arrays into locals before its loop (``kind = t.kind``) and indexes them [i, r]: reading the
# tuple's field inside the loop cost about 130 ns a value over 14 columns; row views
# (``t.kind[i]``) are as fast alone but, once ``value_nb`` inlines every criterion into one
# ranker, each view's reference counting stays in the hot path (the Candidates' ranking
# 360 ns against 130 ns with the arrays taken whole: ``benchmarks/README.md``, 2026-12-03).
@ijit
def buchholz_nb(t, rounds, i, group, k):
    """BH (C.07 8.1 with 16.3-16.4), half points."""
    kind = t.kind
    opp = t.opp
    adj = t.adj
    own = t.pts[i]
    v = 0
    for r in range(rounds):
        kd = kind[i, r]
        if kd == RK_PLAYED:
            v += adj[opp[i, r]]
        elif kd != RK_NONE:
            v += own
    return v


@ijit
def buchholz_cut1_nb(t, rounds, i, group, k):
    """BH-C1 (C.07 14.1 with 16.5.1), half points; fewer than two values: uncut."""
    kind = t.kind
    opp = t.opp
    adj = t.adj
    own = t.pts[i]
    v = 0
    m = 0
    least = np.int64(1) << 60
    least_vur = np.int64(1) << 60
    for r in range(rounds):
        kd = kind[i, r]
        if kd == RK_NONE:
            continue
        x = adj[opp[i, r]] if kd == RK_PLAYED else own
        v += x
        m += 1
        if x < least:
            least = x
        if is_vur_nb(kd) and x < least_vur:
            least_vur = x
    if m < 2:
        return v
    if least_vur < (np.int64(1) << 60):
        return v - least_vur
    return v - least


@ijit
def round_half_up_nb(s, c):
    """The whole number nearest s / c (0.5 up), s >= 0, c > 0."""
    return (2 * s + c) // (2 * c)


@ijit
def aro_cut1_nb(t, rounds, i, group, k):
    """ARO-C1 (C.07 10.1, 14.1): average rating of the rated opponents played over the board,
    the lowest left out (one opponent: not cut; none: 0), whole Elo."""
    kind = t.kind
    opp = t.opp
    rating = t.rating
    s = 0
    c = 0
    low = np.int64(1) << 60
    for r in range(rounds):
        if kind[i, r] == RK_PLAYED:
            x = rating[opp[i, r]]
            if x > 0:
                s += x
                c += 1
                if x < low:
                    low = x
    if c == 0:
        return np.int64(0)
    if c >= 2:
        s -= low
        c -= 1
    return round_half_up_nb(s, c)


@ijit
def aro_nb(t, rounds, i, group, k):
    """ARO (C.07 10.1): average rating of the rated opponents played, whole Elo."""
    kind = t.kind
    opp = t.opp
    rating = t.rating
    s = 0
    c = 0
    for r in range(rounds):
        if kind[i, r] == RK_PLAYED:
            x = rating[opp[i, r]]
            if x > 0:
                s += x
                c += 1
    if c == 0:
        return np.int64(0)
    return round_half_up_nb(s, c)


@ijit
def all_met_nb(t, rounds, group, k):
    """Whether every pair of group[:k] has met over the board (direct encounter's condition)."""
    opp = t.opp
    kind = t.kind
    for a in range(k):
        x = group[a]
        for b in range(a + 1, k):
            y = group[b]
            met = False
            for r in range(rounds):
                if opp[x, r] == y and kind[x, r] == RK_PLAYED:
                    met = True
                    break
            if not met:
                return False
    return True


@ijit
def points_against_nb(t, rounds, i, group, k):
    """Half points ``i`` scored over the board against the players of group[:k]."""
    kind = t.kind
    opp = t.opp
    res = t.res
    v = 0
    for r in range(rounds):
        if kind[i, r] != RK_PLAYED:
            continue
        o = opp[i, r]
        for a in range(k):
            if group[a] == o:
                v += res[i, r]
                break
    return v


@ijit
def direct_encounter_nb(t, rounds, i, group, k):
    """DE (C.07 6): half points ``i`` scored against group[:k] over the board, when every
    pair of the group has met; 0 for everyone otherwise."""
    if not all_met_nb(t, rounds, group, k):
        return np.int64(0)
    return points_against_nb(t, rounds, i, group, k)


@ijit
def sonneborn_berger_nb(t, rounds, i, group, k):
    """SB (C.07 9.1 with 16.3-16.4), quarter points: each opponent's (adjusted) half points
    times the half points scored against him; an unplayed round's dummy has i's points."""
    kind = t.kind
    opp = t.opp
    res = t.res
    adj = t.adj
    own = t.pts[i]
    v = 0
    for r in range(rounds):
        kd = kind[i, r]
        if kd == RK_PLAYED:
            v += adj[opp[i, r]] * res[i, r]
        elif kd != RK_NONE:
            v += own * res[i, r]
    return v


@ijit
def wins_nb(t, rounds, i, group, k):
    """WIN (C.07 7.1): rounds in which the player got a win's points, played or not."""
    kind = t.kind
    res = t.res
    v = 0
    for r in range(rounds):
        if kind[i, r] != RK_NONE and res[i, r] == 2:
            v += 1
    return np.int64(v)


@ijit
def won_nb(t, rounds, i, group, k):
    """WON (C.07 7.2): games won over the board."""
    kind = t.kind
    res = t.res
    v = 0
    for r in range(rounds):
        if kind[i, r] == RK_PLAYED and res[i, r] == 2:
            v += 1
    return np.int64(v)


@ijit
def black_games_nb(t, rounds, i, group, k):
    """BPG (C.07 7.3): games played over the board with Black."""
    kind = t.kind
    colour = t.colour
    v = 0
    for r in range(rounds):
        if kind[i, r] == RK_PLAYED and colour[i, r] == COL_BLACK:
            v += 1
    return np.int64(v)


@ijit
def progressive_nb(t, rounds, i, group, k):
    """PS (C.07 7.5): the sum of the running scores after rounds 1..rounds, half points."""
    res = t.res
    run = 0
    v = 0
    for r in range(rounds):
        run += res[i, r]
        v += run
    return v


@ijit
def any_level_nb(brk, p, n):
    """Whether two players of order[p:n] are level (a group there has two or more).  Callers
    test it before :func:`criterion_pass_nb`, whose array arguments cost reference counts
    even when no group needs the criterion."""
    for i in range(p + 1, n):
        if brk[i] == 0:
            return True
    return False


@ijit
def pass_by_nb(f, t, rounds, order, brk, val, group, p, n, every, encounter):
    """Apply the value function ``f`` to the players order[p:n] group by group (the groups
    ``brk`` marks): val[i] = f(t, rounds, i, group, k) with group[:k] the players level with
    i, then each group of two or more ordered by it (higher first, stable) and split where
    the values differ.  ``every``: also the players alone in their group (``values_nb``
    reads their values); else only groups of two or more are evaluated.  ``encounter``: the
    group's values are 0 unless every pair of it has met (direct encounter's condition,
    checked once a group)."""
    while p < n:
        e = segment_end_nb(brk, p, n)
        k = e - p
        if k > 1 or every:
            for a in range(k):
                group[a] = order[p + a]
            if encounter and not all_met_nb(t, rounds, group, k):
                for a in range(k):
                    val[group[a]] = 0
            else:
                for a in range(k):
                    val[group[a]] = f(t, rounds, group[a], group, k)
                if k > 1:
                    sort_segment_nb(order, brk, val, p, e)
        p = e


@ijit
def criterion_pass_nb(code, t, rounds, order, brk, val, group, p, n, every):
    """Apply criterion ``code`` (``enums.TBS_*``, not lots; unknown: every value 0, no split)
    to the players order[p:n], level so far group by group (``brk``): each group ordered by
    its values (higher first, stable) and split where they differ (:func:`pass_by_nb`).
    The one place a code names its value function.  The code is tested once a pass, not
    once a group: an inlined function whose array arguments span the whole dispatch pays a
    reference-count increment and decrement (atomic) per array each time it runs, which
    once a group was most of the ranking's cost (benchmarks/README.md, 2026-12-05)."""
    if code == TBS_DIRECT_ENCOUNTER:
        pass_by_nb(points_against_nb, t, rounds, order, brk, val, group, p, n, every, True)
    elif code == TBS_SONNEBORN_BERGER:
        pass_by_nb(sonneborn_berger_nb, t, rounds, order, brk, val, group, p, n, every, False)
    elif code == TBS_WINS:
        pass_by_nb(wins_nb, t, rounds, order, brk, val, group, p, n, every, False)
    elif code == TBS_BUCHHOLZ:
        pass_by_nb(buchholz_nb, t, rounds, order, brk, val, group, p, n, every, False)
    elif code == TBS_BUCHHOLZ_C1:
        pass_by_nb(buchholz_cut1_nb, t, rounds, order, brk, val, group, p, n, every, False)
    elif code == TBS_ARO_C1:
        pass_by_nb(aro_cut1_nb, t, rounds, order, brk, val, group, p, n, every, False)
    elif code == TBS_ARO:
        pass_by_nb(aro_nb, t, rounds, order, brk, val, group, p, n, every, False)
    elif code == TBS_WON:
        pass_by_nb(won_nb, t, rounds, order, brk, val, group, p, n, every, False)
    elif code == TBS_BLACK_GAMES:
        pass_by_nb(black_games_nb, t, rounds, order, brk, val, group, p, n, every, False)
    elif code == TBS_PROGRESSIVE:
        pass_by_nb(progressive_nb, t, rounds, order, brk, val, group, p, n, every, False)
    else:
        for a in range(p, n):
            val[order[a]] = 0


@ijit
def split_segment_nb(code, t, rounds, order, brk, val, group, p, e):
    """Order the players order[p:e], level so far, by criterion ``code`` (not lots; higher
    first, stable) and split them where its values differ (brk): :func:`criterion_pass_nb`
    over the one group.  ``group`` and ``val`` are work arrays (group[:e-p] gets the players
    level, the group direct encounter reads)."""
    criterion_pass_nb(code, t, rounds, order, brk, val, group, p, e, False)


@jit
def rank_criteria_nb(t, rounds, criteria, order, brk, val, group, work, st, lots):
    """Fill order[:n] with the standings after ``rounds``: points, then ``criteria`` (int64
    codes, in order) group by group; brk[p] = 1 where place p is not level with p-1.
    ``lots``: draw lots (``st``, the replica's stream) for what the criteria leave level,
    wherever ``enums.TBS_LOTS`` stands in the list and once more at the end; else leave
    those players level.  ``t.pts`` and ``t.adj`` must be filled (``adjusted_nb``)."""
    n = t.pts.shape[0]
    start_order_nb(order, brk, n)
    sort_segment_nb(order, brk, t.pts, 0, n)
    for c in range(criteria.shape[0] + 1):
        code = criteria[c] if c < criteria.shape[0] else TBS_LOTS
        if code != TBS_LOTS:
            if any_level_nb(brk, 0, n):
                criterion_pass_nb(code, t, rounds, order, brk, val, group, 0, n, False)
        elif lots:
            lots_groups_nb(order, brk, work, 0, n, st)


@jit
def values_nb(t, rounds, criteria, order, brk, group, out):
    """out[i, c] = criterion c's value for player i as the standings show it: direct
    encounter over the group level with i on points and the criteria before it (``order``
    and ``brk`` from ``rank_criteria_nb`` without lots are not enough for that, so the
    groups are rebuilt here criterion by criterion)."""
    n = t.pts.shape[0]
    start_order_nb(order, brk, n)
    sort_segment_nb(order, brk, t.pts, 0, n)
    val = np.empty(n, np.int64)
    for c in range(criteria.shape[0]):
        criterion_pass_nb(criteria[c], t, rounds, order, brk, val, group, 0, n, True)
        for i in range(n):
            out[i, c] = val[i]
