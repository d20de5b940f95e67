"""Numba code over arrays: the rest of a round robin, its play-off for first and the ranking
criteria, replica-parallel with streaming tallies.

Units: points in half points, Sonneborn-Berger in quarter points, money in the currency.
Rating uncertainty is either per-event strength offsets or "hot" Elo (ratings updated after
each simulated game, K per rating class), never both; parameter uncertainty is the parameter
draw (``RoundRobinArgs.draw_factor``).  The plain-Python twin is
``simcycle.reference.roundrobin``; both draw the same numbers in the same order: the
parameter draw (four normals), offsets (player-major, class-minor), the remaining games in
plan order, then the ranking steps in order (the play-off, lots of the groups still level, top
group first).
"""

from typing import NamedTuple

import numpy as np
from numba import prange

from ...enums import (BLACK_WINS, COLOURS_BY_LOT, P_CLASS, PO_ARMAGEDDON, PO_LOTS, PO_MATCH,
                      PO_ROUND_ROBIN, PO_SUDDEN_DEATH_KO, RR_C_LOTS, RR_C_PLAYOFF, RR_C_Q_LOTS,
                      RR_C_Q_TIEBREAK, RR_C_STAGE2, RR_C_STAGE3, TB_PLAYOFF, TBS_LOTS, WHITE_WINS)
from ...kernels.config import CHUNK, bjit, ijit, jit, pjit
from ...kernels.criteria_nb import Crosstable, any_level_nb, criterion_pass_nb
from ...kernels.game_nb import (Games, armageddon_nb, davidson_nb, pair_nb, result_of_nb,
                                round_robin_nb, sudden_death_knockout_nb, terms_nb)
from ...kernels.prizes_nb import share_by_points_nb
from ...kernels.rank_nb import (lots_segment_nb, move_to_front_nb, segment_end_nb,
                                sort_all_nb, sort_segment_nb, start_order_nb)
from ...kernels.rng_nb import normal_nb, randint_nb, replica_state_nb, step_nb
from ...kernels.tally_nb import count_flags_nb, local_tallies_nb, store_nb, tally_nb

PRIZE_BY_ORDER = 0    # each place's money to the player the final order puts there
PRIZE_BY_POINTS = 1   # players level on points share the money of the places they cover


class RoundRobinArgs(NamedTuple):
    """The arguments of :func:`simulate_nb`, built by ``plan.py``.

    params, rt, thr, live, offsets   the fields of a
                 :class:`~simcycle.kernels.game_nb.Games` (segments = rating lists), flat
                 because numba's parallel loops take no nested tuples
    offset_sd    float64 [3]: strength-offset SD per rating class (Elo), used with offsets
    hot_k        float64 [3]: hot-Elo K per rating class; all zero = off
    draw_factor  float64 [4, 4] or [0, 0] (off): the parameter draw, A of
                 ``OutcomeModel.draw_factor``: each replica first draws z ~ N(0, I_4) and
                 plays the event's games with (ln nu0, edge, slope, level) + A z (live path)
    base_pts     int64 [n]: half points from the games played
    base_res     int64 [n, w]: the crosstable's results so far: half points of each player's
                 games by column (``plan.KernelCrosstable``: a player's games in playing
                 order are his columns; 0 for a game not played yet)
    opp, kind, colour  int64 [n, w]: the crosstable's opponents (-1: no game), kinds
                 (``enums.RK_PLAYED`` for every scheduled game: the ranking follows the last)
                 and colours (``enums.COL_*``)
    rating       int64 [n]: the start list's ratings (the average-rating criteria)
    gw, gb       int64 [m]: White and Black of each remaining game, in playing order
    gsw, gsb     int64 [m]: the game's column in White's and in Black's row
    gseg         int64 [m]: rating segment of each remaining game
    gthr         float64 [m, 2]: each remaining game's thresholds read from ``thr`` once per
                 plan (the hot loop reads them in order); empty when ``live``.  With
                 ``colours`` COLOURS_BY_LOT [m, 4]: columns 2, 3 the thresholds with gb White
    game_ci      int: control row of the event's games
    criteria     int64 [k]: ranking steps in order (``enums.RR_CRITERIA``: C.07 codes
                 ``enums.TBS_*`` and ``TB_PLAYOFF``); always ends with TBS_LOTS
    stages       int64 [stages, options, 4]: play-off (min tied, max tied, ``enums.PO_*``,
                 control row); kind 0 pads unused options
    playoff_seg  int: rating segment of the play-off games (the last)
    forced_first int: winner of a play-off already played (-1: none)
    qualified    int64 [n]: 1 for the places that qualify (place p < qualifying places)
    n_qual       int: the qualifying places
    place_prize  float64 [n]: money for each place
    per_half     float: money per half point
    prize_split  int: PRIZE_BY_ORDER or PRIZE_BY_POINTS
    colours      int: ``enums.COLOURS_SCHEDULED`` (gw White) or ``enums.COLOURS_BY_LOT`` (a lot
                 drawn just before each game: gw White when u < 0.5, else gb; the crosstable's
                 ``colour`` then stays the schedule's, so no criterion may read colours)
    """

    params: np.ndarray
    rt: np.ndarray
    thr: np.ndarray
    live: bool
    offsets: bool
    offset_sd: np.ndarray
    hot_k: np.ndarray
    draw_factor: np.ndarray
    base_pts: np.ndarray
    base_res: np.ndarray
    opp: np.ndarray
    kind: np.ndarray
    colour: np.ndarray
    rating: np.ndarray
    gw: np.ndarray
    gb: np.ndarray
    gsw: np.ndarray
    gsb: np.ndarray
    gseg: np.ndarray
    gthr: np.ndarray
    game_ci: int
    criteria: np.ndarray
    stages: np.ndarray
    playoff_seg: int
    forced_first: int
    qualified: np.ndarray
    n_qual: int
    place_prize: np.ndarray
    per_half: float
    prize_split: int
    colours: int


@jit
def playoff_nb(g, seg, stages, cand, k, score, work, st, flags):
    """Settle the players cand[:k] (k >= 2) level for first; returns the winner.

    A stage applies its first option whose range holds the number still level; a stage with
    none is skipped; only those still level go on; after the last stage, lots.  flags:
    RR_C_STAGE2 / RR_C_STAGE3 when the second / a later stage is reached, RR_C_LOTS when
    lots decide."""
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
            flags[RR_C_STAGE2] = 1
        elif s >= 2:
            flags[RR_C_STAGE3] = 1
        kind = stages[s, opt, 2]
        ci = stages[s, opt, 3]
        if kind == PO_MATCH and k == 2:
            d = pair_nb(g, seg, ci, cand[0], cand[1], st)
            if d > 0:
                k = 1
            elif d < 0:
                cand[0] = cand[1]
                k = 1
        elif kind == PO_ROUND_ROBIN or (kind == PO_MATCH and k > 2):
            round_robin_nb(g, seg, ci, cand, k, score, st)
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
            cand[0] = sudden_death_knockout_nb(g, seg, ci, cand, k, work, st)
            k = 1
        elif kind == PO_ARMAGEDDON and k == 2:
            cand[0] = armageddon_nb(g, seg, ci, cand[0], cand[1], st)
            k = 1
        elif kind == PO_LOTS:
            flags[RR_C_LOTS] = 1
            cand[0] = cand[randint_nb(st, k)]
            k = 1
    if k > 1:
        flags[RR_C_LOTS] = 1
        cand[0] = cand[randint_nb(st, k)]
    return cand[0]


@bjit
def criteria_run_nb(criteria, c, e, t, order, brk, val, group, n):
    """The C.07 criteria criteria[c:e] in turn (neither a play-off nor lots), each over the
    groups of order[:n] still level before it (a run of steps of :func:`rank_nb`):
    ``criteria_nb.criterion_pass_nb`` in a called function without reference counts (it
    allocates nothing).  Inlined into the replica, its eleven array arguments were counted
    (an atomic increment and decrement each) at every step (benchmarks/README.md, "The
    round-robin stage's reference counts"); inlined into the stage compiled without
    counts, it is faster again but doubles the Candidates' compile (30 -> 66 s).  One call a
    run of steps, not one a step: a call passes its arrays field by field, so the
    Candidates' three (Sonneborn-Berger, wins, direct encounter) in one call save two
    calls' arguments (benchmarks/README.md, "A game's result without a branch")."""
    for x in range(c, e):
        if any_level_nb(brk, 0, n):
            criterion_pass_nb(criteria[x], t, t.res.shape[1], order, brk, val, group, 0, n,
                              False)


@ijit
def rank_nb(criteria, stages, n_qual, forced_first, playoff_seg, g, t, n, order, brk, val, group,
            cand, score, work, st, flags):
    """Fill order[:n] with the final ranking: points, then ``criteria`` step by step
    (strict: lots settle what the rules leave level); ``t`` the event's
    :class:`~simcycle.kernels.criteria_nb.Crosstable`, which every C.07 criterion reads
    (:func:`criteria_run_nb`, once a run of criteria).  The points are ordered by counting
    (``rank_nb.sort_all_nb``: no branches); when no two players are level on them, that is
    the order, and no step changes it or draws (every replica once the points are settled
    and all different; 0.8 % of the Candidates 2022's replicas from the start).  The
    counting sort, not the early return, is what saves time there (benchmarks/README.md,
    "The Candidates kernel: branch-free games, the points by counting")."""
    sort_all_nb(order, brk, t.pts, n)
    if 0 < n_qual < n and brk[n_qual] == 0:   # level on points across the last place
        flags[RR_C_Q_TIEBREAK] = 1
    if not any_level_nb(brk, 0, n):
        return
    c = 0
    while c < criteria.shape[0]:
        crit = criteria[c]
        c += 1
        if crit == TB_PLAYOFF:
            e = segment_end_nb(brk, 0, n)
            if e > 1:
                flags[RR_C_PLAYOFF] = 1
                w = -1
                for i in range(e):
                    cand[i] = order[i]
                    if order[i] == forced_first:
                        w = forced_first
                if w < 0:
                    w = playoff_nb(g, playoff_seg, stages, cand, e, score, work, st, flags)
                    if n_qual == 1 and flags[RR_C_LOTS] == 1:
                        flags[RR_C_Q_LOTS] = 1
                move_to_front_nb(order, brk, w)
            continue
        if crit != TBS_LOTS:    # a run of C.07 criteria up to the next play-off or lots
            e = c
            while e < criteria.shape[0] and criteria[e] != TB_PLAYOFF and criteria[e] != TBS_LOTS:
                e += 1
            if any_level_nb(brk, 0, n):
                criteria_run_nb(criteria, c - 1, e, t, order, brk, val, group, n)
            c = e
            continue
        k = 0
        while k < n:
            e = segment_end_nb(brk, k, n)
            if e - k > 1:
                flags[RR_C_LOTS] = 1
                if k < n_qual < e:
                    flags[RR_C_Q_LOTS] = 1
                lots_segment_nb(order, brk, work, k, e, st)
            k = e


@ijit
def prizes_nb(prize_split, place_prize, per_half, n, order, pts, prize):
    """Prize money of each player for the final ``order``: ``place_prize`` by place
    (``prize_split`` PRIZE_BY_ORDER) or shared by the players level on points
    (PRIZE_BY_POINTS), and ``per_half`` for each half point."""
    if prize_split == PRIZE_BY_ORDER:
        for p in range(n):
            prize[order[p]] = place_prize[p]
    else:
        share_by_points_nb(place_prize, n, order, pts, prize, False)
    for i in range(n):
        prize[i] += per_half * np.float64(pts[i])


@ijit
def start_nb(base_res, res):
    """Copy the crosstable's results before the simulated games."""
    for i in range(base_res.shape[0]):
        for c in range(base_res.shape[1]):
            res[i, c] = base_res[i, c]


@ijit
def play_nb(cells, cw, cb, out):
    """Score one game in the crosstable: White's cell cw, Black's cell cb of ``cells``
    (the crosstable's res flattened, row-major: a player's cell is player * width + his
    column; ``cells_nb``), ``out`` an ``enums`` result code (WHITE_WINS 0, DRAW 1,
    BLACK_WINS 2: White scores 2 - out half points).  Without branches: a game's result is a
    coin flip to the branch predictor.  One flat index a cell, not a (row, column) pair
    (benchmarks/README.md, "A game's result without a branch"); the points are the rows'
    sums once the games are played (:func:`points_nb`), not kept game by game (two stores
    a game fewer: "The stream's state in a register; the points from the rows")."""
    hw = 2 - out
    cells[cw] = hw
    cells[cb] = 2 - hw


@ijit
def width_nb(opp):
    """The crosstable's width in use: the columns of row 0 up to its first without an
    opponent (``opp`` -1: no game).  A round robin's rows are its players' games in playing
    order, every player's in columns 0 .. width-1 (the tour's stage reads one padded
    crosstable for round robins of every size: ``tour/nb.RRPack``)."""
    w = 0
    while w < opp.shape[1] and opp[0, w] >= 0:
        w += 1
    return w


@ijit
def points_nb(res, w, pts):
    """pts[i] = the sum of res[i, :w] for each player i < pts.shape[0]: the half points of
    the games played before and the simulated ones in the crosstable's results ``res``, w
    its width in use (:func:`width_nb`; every cell there is one of the player's games: a
    game played before holds its result from the standings, a remaining one is written
    every replica).  A round robin has no byes, so these are also the crosstable's
    ``adj``."""
    for i in range(pts.shape[0]):
        v = 0
        for c in range(w):
            v += res[i, c]
        pts[i] = v


@ijit
def cells_nb(gw, gb, gsw, gsb, width, cw, cb):
    """cw[q], cb[q]: game q's cell in White's and in Black's row of a crosstable ``width``
    columns wide, flattened row-major (``play_nb``); gw, gb its players, gsw, gsb its
    columns (``RoundRobinArgs``)."""
    for q in range(gw.shape[0]):
        cw[q] = gw[q] * width + gsw[q]
        cb[q] = gb[q] * width + gsb[q]


class Scratch(NamedTuple):
    """One replica's work arrays and results (:func:`replica_nb` fills them; n players)."""

    pts: np.ndarray      # int64 [n]: half points (the result)
    res: np.ndarray      # int64 [n, w]: the crosstable's results, ``RoundRobinArgs.base_res``
                         # copied once (``scratch_nb``): a replica's games overwrite the same
                         # cells every replica (``play_nb`` sets both), the others never change
    order: np.ndarray    # int64 [n]: the final order, best first (the result)
    brk: np.ndarray      # int64 [n]: group starts in ``order`` (rank_nb)
    val: np.ndarray      # int64 [n]: a criterion's values
    group: np.ndarray    # int64 [n]: the players level (``criteria_nb.criterion_pass_nb``)
    cand: np.ndarray     # int64 [n]: players in the play-off
    score: np.ndarray    # int64 [n]: play-off scores
    work: np.ndarray     # int64 [n]: lots
    prize: np.ndarray    # float64 [n]: money (the result)
    flags: np.ndarray    # int64 [counters]: this replica's counters (``enums.RR_C_*``)
    cw: np.ndarray       # int64 [m]: each remaining game's cell in White's row of res
    cb: np.ndarray       # int64 [m]: and in Black's, res flattened (``cells_nb``)


@ijit
def scratch_nb(a, n_flags):
    """A :class:`Scratch` for the event of ``a`` (:class:`RoundRobinArgs`) with n_flags
    counters; its crosstable starts as the games played (copied once here, not per replica:
    1.04-1.10x the CPU of the commit before at the Candidates' end, benchmarks/README.md),
    and the games' cells in it are found once here too."""
    n = a.base_pts.shape[0]
    m = a.gw.shape[0]
    cw = np.empty(m, np.int64)
    cb = np.empty(m, np.int64)
    cells_nb(a.gw, a.gb, a.gsw, a.gsb, a.base_res.shape[1], cw, cb)
    return Scratch(np.empty(n, np.int64), a.base_res.copy(),
                   np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64),
                   np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64),
                   np.empty(n, np.int64), np.empty(n, np.float64), np.zeros(n_flags, np.int64),
                   cw, cb)


@ijit
def replicas_nb(a, g, rt0, st, terms, s, seed, first, lo, hi, t):
    """The round-robin stage, replicas lo .. hi-1 of the rest of the event from the plan's
    state (:func:`replica_nb` is one of them; :func:`chunk_nb` a chunk's).

    a, g, rt0, st, terms, s   as :func:`replica_nb`
    seed, first, t   with ``t`` (a chunk's :class:`~simcycle.kernels.tally_nb.Tallies`)
           replica r draws from ``rng_nb.replica_state_nb(seed, first + r)`` and is counted
           into ``t`` (places, qualifying, points, prizes, counters); with ``t`` None the
           one replica draws from ``st`` as given and leaves its results in ``s``

    The arrays of ``a``, ``g`` and ``s`` are read into locals once, before the replicas:
    numba counts a reference (an atomic increment and decrement) to every array an inlined
    function binds, and the stage inlined into the chunk's loop bound its arguments' 37
    arrays once a replica (benchmarks/README.md, "The round-robin stage's reference
    counts")."""
    n = a.base_pts.shape[0]
    m = a.gw.shape[0]
    rt = g.rt
    ns = rt.shape[0]
    live = a.live
    offsets = a.offsets
    hot_k = a.hot_k
    hot = hot_k[0] != 0.0 or hot_k[1] != 0.0 or hot_k[2] != 0.0
    cls = np.int64(a.params[a.game_ci, P_CLASS])
    offset_sd = a.offset_sd
    f = a.draw_factor
    gw = a.gw
    gb = a.gb
    gcw = s.cw
    gcb = s.cb
    gseg = a.gseg
    gthr = a.gthr
    criteria = a.criteria
    stages = a.stages
    qualified = a.qualified
    place_prize = a.place_prize
    lot = a.colours == COLOURS_BY_LOT
    pts = s.pts
    res = s.res
    cells = res.reshape(res.size)   # a view: ``play_nb`` writes the cells s.cw, s.cb name
    order = s.order
    brk = s.brk
    val = s.val
    group = s.group
    cand = s.cand
    score = s.score
    work = s.work
    prize = s.prize
    flags = s.flags
    ct = Crosstable(a.opp, res, a.kind, a.colour, pts, pts, a.rating)
    wd = width_nb(a.opp)
    for r in range(lo, hi):
        if t is not None:
            st[0] = replica_state_nb(np.uint64(seed), np.uint64(first + r))
        nu0, level, ref, slope, edge = terms
        if f.shape[0] > 0:     # the parameter draw: four normals, before the offsets
            z0 = normal_nb(st)
            z1 = normal_nb(st)
            z2 = normal_nb(st)
            z3 = normal_nb(st)
            nu0 = nu0 * np.exp(f[0, 0] * z0 + f[0, 1] * z1 + f[0, 2] * z2 + f[0, 3] * z3)
            edge = edge + (f[1, 0] * z0 + f[1, 1] * z1 + f[1, 2] * z2 + f[1, 3] * z3)
            slope = slope + (f[2, 0] * z0 + f[2, 1] * z1 + f[2, 2] * z2 + f[2, 3] * z3)
            level = level + (f[3, 0] * z0 + f[3, 1] * z1 + f[3, 2] * z2 + f[3, 3] * z3)
        if offsets:
            for i in range(n):
                for k in range(3):
                    x = normal_nb(st) * offset_sd[k]
                    for q in range(ns):
                        rt[q, i, k] = rt0[q, i, k] + x
        elif hot:
            for q in range(ns):
                for i in range(n):
                    for k in range(3):
                        rt[q, i, k] = rt0[q, i, k]
        for k in range(flags.shape[0]):
            flags[k] = 0
        x = st[0]   # the stream's state in a register over the games (``step_nb``)
        if not live and not lot:   # the fast path: thresholds from the plan's table
            for q in range(m):
                x, u = step_nb(x)
                play_nb(cells, gcw[q], gcb[q], result_of_nb(u, gthr[q, 0], gthr[q, 1]))
        elif not live:     # the same with colours by lot: gb White when u >= 0.5
            for q in range(m):
                x, u = step_nb(x)
                if u < 0.5:
                    x, u = step_nb(x)
                    play_nb(cells, gcw[q], gcb[q], result_of_nb(u, gthr[q, 0], gthr[q, 1]))
                else:
                    x, u = step_nb(x)
                    play_nb(cells, gcb[q], gcw[q], result_of_nb(u, gthr[q, 2], gthr[q, 3]))
        else:
            for q in range(m):
                w = gw[q]
                b = gb[q]
                cw = gcw[q]
                cb = gcb[q]
                if lot:     # colours by lot: gb White when u >= 0.5
                    x, u = step_nb(x)
                    if u >= 0.5:
                        w, b, cw, cb = b, w, cb, cw
                sg = gseg[q]
                tw, td = davidson_nb(nu0, level, ref, slope, edge, rt[sg, w, cls],
                                     rt[sg, b, cls])
                td += tw
                x, u = step_nb(x)
                out_ = result_of_nb(u, tw, td)
                if hot:  # "hot" Elo: ratings move inside the simulated event, every segment
                    sc = 1.0 if out_ == WHITE_WINS else (0.5 if out_ != BLACK_WINS else 0.0)
                    dlt = hot_k[cls] * (sc - (tw + 0.5 * (td - tw)))
                    for sq in range(ns):
                        rt[sq, w, cls] += dlt
                        rt[sq, b, cls] -= dlt
                play_nb(cells, cw, cb, out_)
        st[0] = x
        if m > 0:   # res holds the games played already too (``Scratch.res``)
            points_nb(res, wd, pts)
        else:       # nothing left to play: the standings' points
            for i in range(n):
                pts[i] = a.base_pts[i]
        rank_nb(criteria, stages, a.n_qual, a.forced_first, a.playoff_seg, g, ct, n, order, brk,
                val, group, cand, score, work, st, flags)
        prizes_nb(a.prize_split, place_prize, a.per_half, n, order, pts, prize)
        if t is not None:
            for p in range(n):
                val[order[p]] = qualified[p]
            tally_nb(t, order, n, val, pts, prize)
            count_flags_nb(t, flags)


@bjit
def replica_nb(a, g, rt0, st, terms, s):
    """The round-robin stage: ONE replica of the rest of the event from the plan's state.

    a      :class:`RoundRobinArgs` (the schedule, criteria, play-off and prizes)
    g      :class:`~simcycle.kernels.game_nb.Games` whose ``rt`` is this replica's working
           copy of the ratings (offsets and hot Elo are written into it)
    rt0    float64 [segments, n, 3]: this replica's ratings before offsets (``a.rt`` for a
           standalone event; a cycle passes the field its replica produced)
    st     uint64 [1]: the replica's SplitMix64 state, advanced in place
    terms  ``game_nb.terms_nb`` of the event's game control (the live path's model terms)
    s      :class:`Scratch`: fills s.order (best first), s.pts, s.res, s.prize and s.flags

    A called function without reference counts (``bjit``: it allocates nothing; the caller
    keeps the arrays alive), so a cycle's chain and ``scores``, which call it once a replica,
    do not count its 37 arrays every replica (benchmarks/README.md, "The round-robin stage's
    reference counts").
    """
    replicas_nb(a, g, rt0, st, terms, s, 0, 0, 0, 1, None)


@bjit
def chunk_replicas_nb(a, g, rt0, st, terms, s, seed, first, lo, hi, t):
    """:func:`replicas_nb` (its arguments as there) compiled without reference counts: it
    allocates nothing and :func:`chunk_nb`, which allocates the scratch and the tallies,
    keeps every array alive.  With the counts, each inlined helper's array arguments cost an
    atomic increment and decrement (``rank_nb``'s 19 every replica) that numba's pruning
    leaves in place (benchmarks/README.md, "The round-robin stage's reference counts")."""
    replicas_nb(a, g, rt0, st, terms, s, seed, first, lo, hi, t)


@jit
def chunk_nb(c, lo, hi, seed, first, a, out):
    """Replicas lo .. hi-1 (offsets from ``first``) into row c of ``out``: the stage over
    the chunk's replicas, each counted (:func:`chunk_replicas_nb`)."""
    rt = a.rt.copy()
    g = Games(a.params, rt, a.thr, a.live, a.offsets)
    st = np.empty(1, np.uint64)
    s = scratch_nb(a, out.counters.shape[1])
    t = local_tallies_nb(out)
    # the live path's model terms, read once (re-reading them from ``params`` for every game
    # cost 8 % of the Candidates with offsets: benchmarks/README.md)
    terms = terms_nb(a.params, a.game_ci, a.offsets)
    chunk_replicas_nb(a, g, a.rt, st, terms, s, seed, first, lo, hi, t)
    store_nb(t, out, c)


@pjit
def simulate_nb(seed, first, nrep, a, out):
    """Replicas first .. first+nrep-1 of the rest of the event.

    seed   uint64: the run's seed; replica r draws from ``rng_nb.replica_state_nb(seed, r)``
    first  int64: index of the batch's first replica
    nrep   int64: replicas in the batch
    a      :class:`RoundRobinArgs`
    out    :class:`~simcycle.kernels.tally_nb.Tallies` with a leading chunk axis: chunk c of
           ``CHUNK`` replicas fills row c
    """
    n_chunks = (nrep + CHUNK - 1) // CHUNK
    for c in prange(n_chunks):
        chunk_nb(np.int64(c), c * CHUNK, min(nrep, (c + 1) * CHUNK), seed, first, a, out)


# ---- whocan: every outcome of the remaining games ------------------------------------------
@jit
def place_ranges_nb(t, steps, forced, order, brk, val, group, sub, sbrk, lo, hi):
    """Best and worst place (0-based) of every player: the twin of ``rules.place_ranges``.

    Points, then ``steps`` (criteria codes) until lots; at the play-off step the group level
    at the top may put any member first (``forced`` >= 0: only that one, a play-off already
    played) and the later criteria order the others.  ``t`` the final
    :class:`~simcycle.kernels.criteria_nb.Crosstable`."""
    n = t.pts.shape[0]
    width = t.res.shape[1]
    start_order_nb(order, brk, n)
    sort_segment_nb(order, brk, t.pts, 0, n)
    top = 0
    after = steps.shape[0]
    for c in range(steps.shape[0]):
        crit = steps[c]
        if crit == TBS_LOTS:
            break
        if crit == TB_PLAYOFF:
            if top == 0:
                e = segment_end_nb(brk, 0, n)
                if e > 1:
                    top = e
                    after = c + 1
            continue
        if any_level_nb(brk, top, n):
            criterion_pass_nb(crit, t, width, order, brk, val, group, top, n, False)
    k = top
    while k < n:
        e = segment_end_nb(brk, k, n)
        for i in range(k, e):
            lo[order[i]] = k
            hi[order[i]] = e - 1
        k = e
    for xi in range(top):
        x = order[xi]
        lx = -1
        hx = 0
        for wi in range(top):
            w = order[wi]
            if forced >= 0 and w != forced:
                continue
            if w == x:
                lx = 0
                continue
            m = 0
            for i in range(top):
                if order[i] != w:
                    sub[m] = order[i]
                    sbrk[m] = 0
                    m += 1
            sbrk[0] = 1
            for c in range(after, steps.shape[0]):
                crit = steps[c]
                if crit == TBS_LOTS or crit == TB_PLAYOFF:
                    break
                if any_level_nb(sbrk, 0, m):
                    criterion_pass_nb(crit, t, width, sub, sbrk, val, group, 0, m, False)
            k = 0
            while k < m:
                e = segment_end_nb(sbrk, k, m)
                found = False
                for i in range(k, e):
                    if sub[i] == x:
                        found = True
                if found:
                    lx = 1 + k if lx < 0 else min(lx, 1 + k)
                    hx = max(hx, e)
                    break
                k = e
        lo[x] = lx
        hi[x] = hx


@jit
def enumerate_block_nb(lo_leaf, hi_leaf, base, gw, gb, gsw, gsb, steps, forced, lo_out,
                       hi_out):
    """Leaves lo_leaf .. hi_leaf-1 of ``whocan_enumerate_nb``."""
    n = base.pts.shape[0]
    m = gw.shape[0]
    pts = np.empty(n, np.int64)
    res = np.empty_like(base.res)
    t = Crosstable(base.opp, res, base.kind, base.colour, pts, pts, base.rating)
    order = np.empty(n, np.int64)
    brk = np.empty(n, np.int64)
    val = np.empty(n, np.int64)
    group = np.empty(n, np.int64)
    sub = np.empty(n, np.int64)
    sbrk = np.empty(n, np.int64)
    lo = np.empty(n, np.int64)
    hi = np.empty(n, np.int64)
    cw = np.empty(m, np.int64)
    cb = np.empty(m, np.int64)
    cells_nb(gw, gb, gsw, gsb, res.shape[1], cw, cb)
    cells = res.reshape(res.size)
    wd = width_nb(base.opp)
    for leaf in range(lo_leaf, hi_leaf):
        start_nb(base.res, res)
        x = leaf
        for g in range(m):
            r = x % 3
            x //= 3
            play_nb(cells, cw[g], cb[g], r)
        points_nb(res, wd, pts)
        place_ranges_nb(t, steps, forced, order, brk, val, group, sub, sbrk, lo, hi)
        for p in range(n):
            lo_out[leaf, p] = lo[p]
            hi_out[leaf, p] = hi[p]


@pjit
def whocan_enumerate_nb(base, gw, gb, gsw, gsb, steps, forced, lo_out, hi_out):
    """Every outcome of the remaining games: leaf L plays game g with the result of digit g
    of L in base 3 (``enums.WHITE_WINS`` / ``DRAW`` / ``BLACK_WINS``) and fills
    lo_out[L, p] / hi_out[L, p] with player p's best and worst place (``place_ranges_nb``).
    ``base`` the :class:`~simcycle.kernels.criteria_nb.Crosstable` of the games played
    (pts, res; opp, kind and colour of every scheduled game: ``plan.KernelCrosstable``);
    gw, gb the remaining games' players, gsw, gsb their columns.  Blocks of leaves run in
    parallel (each leaf writes only its own row)."""
    total = lo_out.shape[0]
    n_blocks = (total + CHUNK - 1) // CHUNK
    for c in prange(n_blocks):
        enumerate_block_nb(c * CHUNK, min(total, (c + 1) * CHUNK), base, gw, gb, gsw, gsb,
                           steps, forced, lo_out, hi_out)
