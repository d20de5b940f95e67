"""Numba code over arrays: the rest of a tour season (ACP Tour 2004-05 regulations), event by
event, then each member's best-N total and the regulations' tiebreaks, replica-parallel with
streaming tallies.

Units: ACP points in hundredths (int64).  Games come from the shared blocks of
``kernels/game_nb.py`` (one :class:`~simcycle.kernels.game_nb.Games`, one rating segment: the
tour has one rating list for the season), orders from ``kernels/rank_nb.py``, tallies from
``kernels/tally_nb.py``.  The plain-Python twin is ``simcycle.reference.tour``; both draw the
same numbers in the same order: offsets (player-major, class-minor, real players only), then
the remaining events in date order (an event with what-if places replayed from a side stream
until they hold, ``replay_fixed_event_nb``) -- a round robin through the round-robin stage
(``roundrobin.nb.replica_nb``: its games pair by pair, i < j, cycle by cycle, colours by lot
before each game in a single round robin, ``enums.COLOURS_BY_LOT``; then its ranking: lots for
level scores when ``shared_places = "lots"``, top group first), an open's games player by
player and round by round (lots as for a round robin), a knock-out's matches through the one
bracket walk (``kernels.bracket_nb.walk_nb``) round by round in bracket-slot order; then lots
among members level on every tiebreak, top group first.
"""

from typing import NamedTuple

import numpy as np
from numba import prange

from ...enums import (BLACK_WINS, BR_COLS, COL_BLACK, COL_WHITE, EV_BL, EV_BS, EV_CI,
                      EV_COLOURS, EV_CYCLES, EV_FAST, EV_FL, EV_FS, EV_OPP, EV_PS, EV_ROUNDS,
                      EV_RR, EV_SL, EV_SS, EV_SYS, EV_TS, FX_HI_MAX, FX_HI_MIN, FX_I, FX_LO_MAX,
                      FX_LO_MIN, RK_PLAYED, RR_COUNTER_NAMES, SIM_KO, SIM_RR, TBS_LOTS,
                      TOUR_C_LOTS, TOUR_C_TIEBREAK, WHITE_WINS)
from ...kernels.bracket_nb import walk_nb
from ...kernels.config import CHUNK, bjit, ijit, jit, pjit
from ...kernels.game_nb import Games, game_nb, result_of_nb, terms_nb
from ...kernels.rank_nb import lots_groups_nb, segment_end_nb, sort_segment_nb, start_order_nb
from ...kernels.rng_nb import mix64_nb, normal_nb, replica_state_nb, u01_nb
from ...kernels.tally_nb import count_flags_nb, local_tallies_nb, store_nb, tally_nb
from ..roundrobin import nb as rr_nb
from ..roundrobin.nb import PRIZE_BY_ORDER, RoundRobinArgs
from .whatif import MAX_PLAYS, SIDE_KEY

SEG = 0   # the one rating segment
N_RR_FLAGS = len(RR_COUNTER_NAMES)   # the round-robin stage's counters (the tour reads none)
SIDE = np.uint64(SIDE_KEY)   # ``whatif.SIDE_KEY`` typed for the kernel


class TourArgs(NamedTuple):
    """The arguments of :func:`simulate_nb` and :func:`event_odds_nb`, built by ``plan.py``.

    params, rt, thr, live, offsets   the fields of a
                 :class:`~simcycle.kernels.game_nb.Games` with one segment (the season's
                 ratings); the rows of ``rt`` are the players in file order, then one simulated
                 opponent per open / Warsaw-system event still to play; flat because numba's
                 parallel loops take no nested tuples
    offset_sd    float64 [3]: strength-offset SD per rating class (Elo), used with offsets
    n_real       int: players that get strength offsets (the rows of ``rt`` before the
                 simulated opponents)
    ev           int64 [events, N_EV_COLS]: the events still to play in date order, columns
                 ``enums.EV_*``: EV_SYS how it is played (``enums.SIM_*``), EV_CYCLES round-robin
                 cycles, EV_CI control row, EV_ROUNDS open rounds, EV_OPP the row of ``rt`` of an
                 open's simulated opponent, EV_FS/EV_FL its listed field in ``field``, EV_PS its
                 points by place in ``pp``, EV_SS/EV_SL its match steps in ``steps``,
                 EV_BS/EV_BL its bracket in ``slots`` (EV_BL a power of two), EV_TS its first
                 row of ``gthr`` (opens), EV_FAST 1 when its matches go through the walk's
                 fast path (``game_nb.fmatch_nb`` over ``thr``: no offsets, games and
                 Armageddon steps only; the same draws as ``match_nb``), EV_RR a round
                 robin's index among the round robins still to play (its stage inputs,
                 ``rr_pack_nb``; -1 for other events), EV_COLOURS how its games get their
                 colours (``enums.COLOURS_*``)
    field        int64: each event's listed players (rows of ``rt``), starting-list order
    pp           int64: each event's ACP points (hundredths) by final place 1..field size
    steps        int64 [k, 3]: knock-out match steps (``enums.STEP_*``, control row, games)
    slots        int64: each knock-out bracket, by position the listed player (index into the
                 event's field) or -1 for a bye
    gthr         float64 [k, 2]: (P White wins, P White wins or draws) of every game an open
                 still to play can hold, rows of ``thr`` in playing order; empty when
                 ``live``
    member_of    int64 [n_real]: each player's member row, -1 for a non-member
    base_top     int64 [members, best_n]: each member's counted results so far, best first
    base_cnt     int64 [members]: how many entries of ``base_top`` are filled
    n_qual       int: qualifying places (at most the members)
    share_lots   bool: level scores in a simulated round robin or open are ordered by lots
                 (Reading shared_places = "lots": the round-robin stage's one criterion is
                 lots), else they share the places covered (no criterion: groups stay level)
    max_field    int: the largest listed field (scratch size)
    max_bracket  int: the largest knock-out bracket, at least 2 (scratch size)
    fix_start    int64 [events + 1]: event row e's what-ifs are rows fix_start[e] ..
                 fix_start[e+1]-1 of ``fixes`` (all equal: no what-if)
    fixes        int64 [k, N_FX_COLS]: what-if places, event by event: the listed player
                 (index into the event's field) and the bounds his first place (lo) and last
                 place (hi) must keep, columns ``enums.FX_*`` (``replay_fixed_event_nb``)
    """

    params: np.ndarray
    rt: np.ndarray
    thr: np.ndarray
    live: bool
    offsets: bool
    offset_sd: np.ndarray
    n_real: int
    ev: np.ndarray
    field: np.ndarray
    pp: np.ndarray
    steps: np.ndarray
    slots: np.ndarray
    gthr: np.ndarray
    member_of: np.ndarray
    base_top: np.ndarray
    base_cnt: np.ndarray
    n_qual: int
    share_lots: bool
    max_field: int
    max_bracket: int
    fix_start: np.ndarray
    fixes: np.ndarray


class Scratch(NamedTuple):
    """Chunk-local work arrays of one event (no shared array, so nothing to contend on)."""

    score: np.ndarray     # int64 [max_field]: half points of each listed player
    order: np.ndarray     # int64 [max_field]: listed players best first
    brk: np.ndarray       # int64 [max_field]: group starts in ``order`` (rank_nb)
    work: np.ndarray      # int64 [max_field + 1]: lots, knock-out losers
    alive: np.ndarray     # int64 [max_bracket]: a knock-out's players still in, by slot
    fixed: np.ndarray     # int64 [0]: no known game results inside a simulated match
    mout: np.ndarray      # int64 [6]: match_nb's outcome
    lo: np.ndarray        # int64 [max_field]: first place of each listed player
    hi: np.ndarray        # int64 [max_field]: last place (lo < hi: places shared)
    pts: np.ndarray       # int64 [max_field]: ACP points (hundredths) of each listed player
    bpl: np.ndarray       # int64 [1, max_bracket]: a knock-out's players by position (-1 bye)
    kopen: np.ndarray     # int64 [1, max_bracket-1]: zeros: every match open, upper White
    kcls: np.ndarray      # int64 [1, max_bracket-1, 2]: zeros (no decided match)
    kfixed: np.ndarray    # int64 [1, max_bracket-1, 0]: no known game
    rec: np.ndarray       # int64 [max_bracket-1, BR_COLS]: the walk's record
    exit_rd: np.ndarray   # int64 [max_bracket]: the walk's exit rounds by position
    cnt: np.ndarray       # int64 [max_bracket + 1]: players out in each round
    side: np.ndarray      # uint64 [1]: the side stream of a replayed event (what-ifs)


@ijit
def scratch_nb(a):
    n = a.max_field
    mm = max(a.max_bracket - 1, 1)
    return Scratch(np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                   np.zeros(n + 1, np.int64), np.zeros(a.max_bracket, np.int64),
                   np.empty(0, np.int64), np.zeros(6, np.int64), np.zeros(n, np.int64),
                   np.zeros(n, np.int64), np.zeros(n, np.int64),
                   np.zeros((1, a.max_bracket), np.int64), np.zeros((1, mm), np.int64),
                   np.zeros((1, mm, 2), np.int64), np.zeros((1, mm, 0), np.int64),
                   np.zeros((mm, BR_COLS), np.int64), np.zeros(a.max_bracket, np.int64),
                   np.zeros(a.max_bracket + 1, np.int64), np.zeros(1, np.uint64))


# -- one event ----------------------------------------------------------------------------------
@jit
def rr_event_nb(a, e):
    """The round-robin stage's record (``roundrobin.nb.RoundRobinArgs``) of round-robin event
    row e, its players the listed field (0 .. n-1: ``field[EV_FS:][:n]``), no game played: its
    games pair by pair, i < j, cycle by cycle, i White in even cycles (with EV_COLOURS
    ``COLOURS_BY_LOT`` the stage draws the colours by lot instead), each player's games in
    playing order his crosstable's columns; ratings the plan's (``a.rt``: with offsets a
    replica's are copied into the stage's ``Games`` by ``round_robin_event_nb``); thresholds
    from ``a.thr`` and per game [m, 4] (gw White, then gb White) unless ``a.live``; criteria
    lots with ``a.share_lots``, else none (level scores stay level); no play-off, qualifiers or
    money.  Stacked once a chunk into an :class:`RRPack` (``rr_pack_nb``); the twin
    (``reference.tour``) plays this record itself."""
    fs = a.ev[e, EV_FS]
    n = a.ev[e, EV_FL]
    cyc = a.ev[e, EV_CYCLES]
    ci = a.ev[e, EV_CI]
    w = cyc * (n - 1)
    m = cyc * n * (n - 1) // 2
    gw = np.empty(m, np.int64)
    gb = np.empty(m, np.int64)
    gsw = np.empty(m, np.int64)
    gsb = np.empty(m, np.int64)
    opp = np.full((n, w), -1, np.int64)
    colour = np.zeros((n, w), np.int64)
    col = np.zeros(n, np.int64)
    q = 0
    for c in range(cyc):
        for i in range(n):
            for j in range(i + 1, n):
                x, y = (i, j) if c % 2 == 0 else (j, i)
                gw[q] = x
                gb[q] = y
                gsw[q] = col[x]
                gsb[q] = col[y]
                opp[x, col[x]] = y
                opp[y, col[y]] = x
                colour[x, col[x]] = COL_WHITE
                colour[y, col[y]] = COL_BLACK
                col[x] += 1
                col[y] += 1
                q += 1
    rt = np.empty((1, n, 3))
    for i in range(n):
        for k in range(3):
            rt[0, i, k] = a.rt[SEG, a.field[fs + i], k]
    nc = a.params.shape[0]
    if a.live:
        thr = np.zeros((0, 0, 0, 0, 2))
        gthr = np.zeros((0, 4))
    else:
        thr = np.empty((1, nc, n, n, 2))
        for c in range(nc):
            for i in range(n):
                for j in range(n):
                    for k in range(2):
                        thr[0, c, i, j, k] = a.thr[SEG, c, a.field[fs + i], a.field[fs + j], k]
        gthr = np.empty((m, 4))
        for q in range(m):
            for k in range(2):
                gthr[q, k] = thr[0, ci, gw[q], gb[q], k]
                gthr[q, 2 + k] = thr[0, ci, gb[q], gw[q], k]
    crit = np.full(1 if a.share_lots else 0, TBS_LOTS, np.int64)
    zn = np.zeros(n, np.int64)
    return RoundRobinArgs(
        a.params, rt, thr, a.live, False, a.offset_sd, np.zeros(3), np.zeros((0, 0)), zn,
        np.zeros((n, w), np.int64), opp, np.full((n, w), RK_PLAYED, np.int64), colour, zn, gw,
        gb, gsw, gsb, np.zeros(m, np.int64), gthr, ci, crit, np.zeros((0, 1, 4), np.int64), 0,
        -1, zn, 0, np.zeros(n), 0.0, PRIZE_BY_ORDER, a.ev[e, EV_COLOURS])


class RRPack(NamedTuple):
    """The round robins still to play (EV_RR order, K of them), stacked for the round-robin
    stage: ``rr_view_nb`` makes one's stage record, games and scratch out of views of these
    arrays, nothing counted or allocated (the season's replica step is compiled without
    reference counts, where a list of records cannot be read).  Built once a chunk by
    ``rr_pack_nb`` from each one's record (``rr_event_nb``); N = the largest field, W = the
    most games a player plays, M = the games of all K.  The stage's per-player arrays are
    views [:n] of the event's field size n; its crosstable [N, W] is padded (opponent -1: no
    game there), so every round robin's views have one type and the stage one compiled body."""

    n: np.ndarray        # int64 [K]: each one's field size
    m: np.ndarray        # int64 [K]: its games
    go: np.ndarray       # int64 [K]: its first row in gw, gb, gsw, gsb, gcw, gcb, gthr
    ci: np.ndarray       # int64 [K]: its control row
    colours: np.ndarray  # int64 [K]: ``enums.COLOURS_*``
    opp: np.ndarray      # int64 [K, N, W]: its crosstable's opponents (-1: none)
    kind: np.ndarray     # int64 [K, N, W]: ``enums.RK_PLAYED``
    colour: np.ndarray   # int64 [K, N, W]: the schedule's colours (``enums.COL_*``)
    gw: np.ndarray       # int64 [M]: White of each game as scheduled
    gb: np.ndarray       # int64 [M]: Black
    gsw: np.ndarray      # int64 [M]: the game's column in White's row
    gsb: np.ndarray      # int64 [M]: and in Black's
    gcw: np.ndarray      # int64 [M]: the game's cell in White's row of res [N, W] flattened
    gcb: np.ndarray      # int64 [M]: and in Black's (``roundrobin.nb.cells_nb``)
    gthr: np.ndarray     # float64 [M, 4]: thresholds, gw White then gb White ([0, 4] if live)
    gseg: np.ndarray     # int64 [largest m]: zeros (the one rating segment)
    zi: np.ndarray       # int64 [N]: zeros (points so far, ratings, qualifying places)
    zf: np.ndarray       # float64 [N]: zeros (place money)
    base_res: np.ndarray  # int64 [N, W]: zeros (no game played)
    rt: np.ndarray       # float64 [1, N, 3]: the field's ratings this replica (with offsets:
    #                      copied in before each call, and read only then)
    thr: np.ndarray      # float64 [0, 0, 0, 0, 2]: no play-off reads a table (gthr does)
    hot_k: np.ndarray    # float64 [3]: zeros (no hot Elo)
    draw_factor: np.ndarray  # float64 [0, 0]: no parameter draw
    criteria: np.ndarray  # int64 [0 or 1]: lots with ``share_lots``, else none
    stages: np.ndarray   # int64 [0, 1, 4]: no play-off
    # the stage's scratch (``roundrobin.nb.Scratch``), shared: the round robins are played
    # one at a time and each game writes its two cells of res every replica
    pts: np.ndarray      # int64 [N]
    res: np.ndarray      # int64 [N, W]
    order: np.ndarray    # int64 [N]
    brk: np.ndarray      # int64 [N]
    val: np.ndarray      # int64 [N]
    group: np.ndarray    # int64 [N]
    cand: np.ndarray     # int64 [N]
    score: np.ndarray    # int64 [N]
    work: np.ndarray     # int64 [N]
    prize: np.ndarray    # float64 [N]
    flags: np.ndarray    # int64 [N_RR_FLAGS]: the stage's counters (the tour reads none)


@jit
def rr_pack_nb(a):
    """An :class:`RRPack` of the round robins still to play, from their records
    (``rr_event_nb``)."""
    recs = [rr_event_nb(a, e) for e in range(a.ev.shape[0]) if a.ev[e, EV_SYS] == SIM_RR]
    k = len(recs)
    nn = 1
    ww = 1
    mm = 0
    mx = 1
    for r in recs:
        nn = max(nn, r.opp.shape[0])
        ww = max(ww, r.opp.shape[1])
        mm += r.gw.shape[0]
        mx = max(mx, r.gw.shape[0])
    n = np.zeros(k, np.int64)
    m = np.zeros(k, np.int64)
    go = np.zeros(k, np.int64)
    ci = np.zeros(k, np.int64)
    colours = np.zeros(k, np.int64)
    opp = np.full((k, nn, ww), -1, np.int64)
    kind = np.zeros((k, nn, ww), np.int64)
    colour = np.zeros((k, nn, ww), np.int64)
    gw = np.zeros(mm, np.int64)
    gb = np.zeros(mm, np.int64)
    gsw = np.zeros(mm, np.int64)
    gsb = np.zeros(mm, np.int64)
    gcw = np.zeros(mm, np.int64)
    gcb = np.zeros(mm, np.int64)
    gthr = np.zeros((0 if a.live else mm, 4))
    o = 0
    for x in range(k):
        r = recs[x]
        n[x] = r.opp.shape[0]
        m[x] = r.gw.shape[0]
        go[x] = o
        ci[x] = r.game_ci
        colours[x] = r.colours
        w = r.opp.shape[1]
        opp[x, :n[x], :w] = r.opp
        kind[x, :n[x], :w] = r.kind
        colour[x, :n[x], :w] = r.colour
        gw[o:o + m[x]] = r.gw
        gb[o:o + m[x]] = r.gb
        gsw[o:o + m[x]] = r.gsw
        gsb[o:o + m[x]] = r.gsb
        rr_nb.cells_nb(r.gw, r.gb, r.gsw, r.gsb, ww, gcw[o:o + m[x]], gcb[o:o + m[x]])
        if not a.live:
            gthr[o:o + m[x]] = r.gthr
        o += m[x]
    crit = np.full(1 if a.share_lots else 0, TBS_LOTS, np.int64)
    return RRPack(
        n, m, go, ci, colours, opp, kind, colour, gw, gb, gsw, gsb, gcw, gcb, gthr,
        np.zeros(mx, np.int64), np.zeros(nn, np.int64), np.zeros(nn),
        np.zeros((nn, ww), np.int64), np.zeros((1, nn, 3)), np.zeros((0, 0, 0, 0, 2)),
        np.zeros(3), np.zeros((0, 0)), crit,
        np.zeros((0, 1, 4), np.int64), np.zeros(nn, np.int64), np.zeros((nn, ww), np.int64),
        np.zeros(nn, np.int64), np.zeros(nn, np.int64), np.zeros(nn, np.int64),
        np.zeros(nn, np.int64), np.zeros(nn, np.int64), np.zeros(nn, np.int64),
        np.zeros(nn, np.int64), np.zeros(nn), np.zeros(N_RR_FLAGS, np.int64))


@ijit
def rr_view_nb(a, rp, k):
    """Round robin k of the pack as the round-robin stage's inputs: (its record, the fields
    of ``rr_event_nb``'s as views of ``rp``; its ``Games`` on ``rp.rt``; its
    ``roundrobin.nb.Scratch``), views only."""
    n = rp.n[k]
    o = rp.go[k]
    e = o + rp.m[k]
    zi = rp.zi[:n]
    ra = RoundRobinArgs(
        a.params, rp.rt, rp.thr, a.live, False, a.offset_sd, rp.hot_k, rp.draw_factor, zi,
        rp.base_res, rp.opp[k], rp.kind[k], rp.colour[k], zi, rp.gw[o:e], rp.gb[o:e],
        rp.gsw[o:e], rp.gsb[o:e], rp.gseg[:rp.m[k]], rp.gthr[o:e], rp.ci[k], rp.criteria,
        rp.stages, 0, -1, zi, 0, rp.zf[:n], 0.0, PRIZE_BY_ORDER, rp.colours[k])
    rs = rr_nb.Scratch(rp.pts[:n], rp.res, rp.order[:n], rp.brk[:n], rp.val[:n],
                       rp.group[:n], rp.cand[:n], rp.score[:n], rp.work[:n], rp.prize[:n],
                       rp.flags, rp.gcw[o:e], rp.gcb[o:e])
    return ra, Games(a.params, rp.rt, rp.thr, a.live, a.offsets), rs


@ijit
def places_from_groups_nb(order, brk, k, lo, hi):
    """Final places lo[i]..hi[i] (1-based) of k players ordered best first in order[:k]: the
    players of a group still level (``brk``, rank_nb) share the places they cover."""
    i = 0
    while i < k:
        j = segment_end_nb(brk, i, k)
        for t in range(i, j):
            lo[order[t]] = i + 1
            hi[order[t]] = j
        i = j


@ijit
def round_robin_event_nb(a, g, e, s, st, rp):
    """A round robin (RR, DS) of event row e's listed field through the round-robin stage:
    one call of ``roundrobin.nb.replica_nb`` on its views of the pack ``rp`` (``rr_view_nb``);
    places into s.lo, s.hi.  With offsets the stage plays with this replica's ratings
    (``g.rt``) of the field, copied into ``rp.rt``."""
    k = a.ev[e, EV_RR]
    n = a.ev[e, EV_FL]
    if a.live:
        fs = a.ev[e, EV_FS]
        for i in range(n):
            for c in range(3):
                rp.rt[0, i, c] = g.rt[SEG, a.field[fs + i], c]
    ra, rg, rs = rr_view_nb(a, rp, k)
    rr_nb.replica_nb(ra, rg, rp.rt, st, terms_nb(a.params, rp.ci[k], a.offsets), rs)
    places_from_groups_nb(rs.order, rs.brk, n, s.lo, s.hi)


# Open games read their thresholds from ``TourArgs.gthr``, rows taken from the shared table
# (``Games.thr``, ``threshold_table_nb``) once per plan in the order the games are played, and
# draw with ``result_of_nb``; with offsets they call ``game_nb``.  Measured on the shipped season
# from start, 1 thread, CPU time, alternating runs on the shared 2-core machine: ``game_nb`` on
# ``Games.thr`` for every game 66,000 seasons/s, flat per-game thresholds 86,000 seasons/s.
@ijit
def open_event_nb(a, g, e, s, st):
    """An open or Warsaw-system event by the Reading listed-only: each listed player plays
    EV_ROUNDS games against the simulated opponent, White in odd rounds; half points into
    s.score.  The event's ``gthr`` rows: listed player i White (2 i), then Black (2 i + 1)."""
    fs = a.ev[e, EV_FS]
    ci = a.ev[e, EV_CI]
    opp = a.ev[e, EV_OPP]
    nr = a.ev[e, EV_ROUNDS]
    ts = a.ev[e, EV_TS]
    for i in range(a.ev[e, EV_FL]):
        p = a.field[fs + i]
        x = 0
        for rd in range(nr):
            if a.live:
                if rd % 2 == 0:
                    r = game_nb(g, SEG, ci, p, opp, st)
                else:
                    r = 2 - game_nb(g, SEG, ci, opp, p, st)
            elif rd % 2 == 0:
                r = result_of_nb(u01_nb(st), a.gthr[ts + 2 * i, 0], a.gthr[ts + 2 * i, 1])
            else:
                t = ts + 2 * i + 1
                r = 2 - result_of_nb(u01_nb(st), a.gthr[t, 0], a.gthr[t, 1])
            x += 2 if r == WHITE_WINS else (0 if r == BLACK_WINS else 1)
        s.score[i] = x


@jit
def places_from_scores_nb(k, share_lots, s, st):
    """Final places s.lo[i]..s.hi[i] (1-based) of k listed players from s.score: level scores
    share the places they cover, or (share_lots) are ordered by lots, top group first."""
    start_order_nb(s.order, s.brk, k)
    sort_segment_nb(s.order, s.brk, s.score, 0, k)
    if share_lots:
        lots_groups_nb(s.order, s.brk, s.work, 0, k, st)
    places_from_groups_nb(s.order, s.brk, k, s.lo, s.hi)


@ijit
def knockout_event_nb(a, g, e, s, st):
    """A knock-out bracket through the one walk (``kernels.bracket_nb.walk_nb``: ``match_nb``
    matches round by round in slot order, the upper player White first, byes go through);
    losers of a round share the places below the players still in (s.lo, s.hi)."""
    fs = a.ev[e, EV_FS]
    bs = a.ev[e, EV_BS]
    size = a.ev[e, EV_BL]
    ss = a.ev[e, EV_SS]
    steps = a.steps[ss: ss + a.ev[e, EV_SL]]
    for t in range(size):
        x = a.slots[bs + t]
        s.bpl[0, t] = a.field[fs + x] if x >= 0 else -1
    # the segment and row typed (a literal 0 compiled armageddon_nb and sudden_death_nb once
    # more)
    z = np.int64(SEG)
    walk_nb(g, z, steps, np.int64(0), s.bpl, size, s.kopen, s.kopen, s.kopen, s.kcls,
            s.kopen, s.kfixed, a.ev[e, EV_FAST] == 1, st, s.alive, s.fixed, s.fixed, s.mout,
            s.rec, s.exit_rd)
    n_rounds = 0
    m = size
    while m > 1:
        m //= 2
        n_rounds += 1
    for r in range(n_rounds + 1):
        s.cnt[r] = 0
    for t in range(size):
        if s.bpl[0, t] >= 0:
            s.cnt[s.exit_rd[t]] += 1
    for t in range(size):
        x = a.slots[bs + t]
        if x >= 0:
            r = s.exit_rd[t]
            above = 0
            for q in range(r + 1, n_rounds + 1):
                above += s.cnt[q]
            s.lo[x] = above + 1
            s.hi[x] = above + s.cnt[r]


@ijit
def event_points_nb(a, e, s):
    """ACP points (hundredths) of each listed player: the mean of the points of the places he
    covers, rounded half up (``rules.share_points``)."""
    ps = a.ev[e, EV_PS]
    for i in range(a.ev[e, EV_FL]):
        x = 0
        for p in range(s.lo[i], s.hi[i] + 1):
            x += a.pp[ps + p - 1]
        k = s.hi[i] - s.lo[i] + 1
        s.pts[i] = (2 * x + k) // (2 * k)


@ijit
def play_event_nb(a, g, e, s, st, rp):
    """Play event row e: places (s.lo, s.hi) and ACP points (s.pts) of its listed players;
    ``rp`` the round robins' :class:`RRPack`."""
    sysk = a.ev[e, EV_SYS]
    if sysk == SIM_KO:
        knockout_event_nb(a, g, e, s, st)
    elif sysk == SIM_RR:
        round_robin_event_nb(a, g, e, s, st, rp)
    else:
        open_event_nb(a, g, e, s, st)
        places_from_scores_nb(a.ev[e, EV_FL], a.share_lots, s, st)
    event_points_nb(a, e, s)


@ijit
def fixes_hold_nb(a, e, s):
    """Whether the places just played (s.lo, s.hi) keep every what-if of event row e."""
    for k in range(a.fix_start[e], a.fix_start[e + 1]):
        i = a.fixes[k, FX_I]
        if (s.lo[i] < a.fixes[k, FX_LO_MIN] or s.lo[i] > a.fixes[k, FX_LO_MAX]
                or s.hi[i] < a.fixes[k, FX_HI_MIN] or s.hi[i] > a.fixes[k, FX_HI_MAX]):
            return False
    return True


@jit
def replay_fixed_event_nb(a, g, e, s, st, rp):
    """Event row e just played from the replica's stream ``st`` (``play_event_nb``), under its
    what-ifs: while the places break one, play it again from a side stream (``s.side``, seeded
    from ``st`` as the first play left it), at most ``MAX_PLAYS`` plays in all.  By rejection the
    accepted places are a draw from the event given the what-ifs, and ``st`` stays where the
    first play left it: the events after e draw the same numbers as in a run without what-ifs
    (common random numbers for ``swing``).  Called only for an event with what-ifs, and not
    inlined, so the season step of a run without them is the same code as before."""
    s.side[0] = mix64_nb(st[0] ^ SIDE)
    n = 1
    while n < MAX_PLAYS and not fixes_hold_nb(a, e, s):
        play_event_nb(a, g, e, s, s.side, rp)
        n += 1


@jit
def fix_hits_nb(seed, nrep, e, a):
    """How many of nrep plays of event row e alone (replica r draws from stream (seed, r),
    no offsets drawn: the plan's ratings, from its threshold table or, when ``a.live``, from
    the model) keep its what-ifs."""
    g = Games(a.params, a.rt, a.thr, a.live, False)
    st = np.empty(1, np.uint64)
    s = scratch_nb(a)
    rp = rr_pack_nb(a)
    hits = 0
    for r in range(nrep):
        st[0] = replica_state_nb(np.uint64(seed), np.uint64(r))
        play_event_nb(a, g, e, s, st, rp)
        if fixes_hold_nb(a, e, s):
            hits += 1
    return hits


# -- the season's table ----------------------------------------------------------------------------
@ijit
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
def level_left_nb(brk, n):
    """Whether some group of order[:n] still holds two or more players."""
    for i in range(1, n):
        if brk[i] == 0:
            return True
    return False


@jit
def refine_nb(order, brk, val, n, top, cnt, k):
    """Sort every group of level members by criterion k, descending: k = 0 fewer counted
    events, k >= 1 the total without the k worst counted results (members of a group have the
    same number counted, so k at or beyond it leaves them level)."""
    i = 0
    while i < n:
        j = segment_end_nb(brk, i, n)
        if j - i > 1:
            for t in range(i, j):
                p = order[t]
                if k == 0:
                    val[p] = -cnt[p]
                else:
                    x = 0
                    for q in range(cnt[p] - k):
                        x += top[p, q]
                    val[p] = x
            sort_segment_nb(order, brk, val, i, j)
        i = j


@jit
def rank_members_nb(n_qual, top, cnt, tot, order, brk, val, work, st, flags):
    """Fill order[:members] with the final table (regulations §5.4-5.5): total, (1) fewer counted
    events, (2) the total without the worst, the next worst, ..., (3) lots, top group first.
    flags: TOUR_C_LOTS when lots, TOUR_C_TIEBREAK when (1) or (2), decided the last qualifying
    place."""
    nm = top.shape[0]
    nbest = top.shape[1]
    start_order_nb(order, brk, nm)
    sort_segment_nb(order, brk, tot, 0, nm)
    k = np.int64(0)     # typed, not a literal 0 (which compiles refine_nb once more)
    while k < nbest and level_left_nb(brk, nm):
        refine_nb(order, brk, val, nm, top, cnt, k)
        k += 1
    flags[TOUR_C_TIEBREAK] = 0
    flags[TOUR_C_LOTS] = 0
    q = n_qual
    if 0 < q < nm:
        if brk[q] == 0:
            flags[TOUR_C_LOTS] = 1
        elif tot[order[q - 1]] == tot[order[q]]:
            flags[TOUR_C_TIEBREAK] = 1
    lots_groups_nb(order, brk, work, 0, nm, st)


@bjit
def season_replica_nb(a, g, s, rp, st, rt, rt0, top, cnt, tot, order, brk, val, work, flags,
                      ev_lo, ev_hi):
    """One replica of the rest of the season, drawing from ``st`` (its stream, already set):
    the rating offsets when ``a.offsets``, every event still to play in order (a round robin
    through the round-robin stage, one call of ``roundrobin.nb.replica_nb``), then
    the members' ranking.  The one season step of ``chunk_nb`` and of ``needs_nb``.

    A called function without reference counts (``kernels.config.bjit``: it allocates
    nothing; the chunk that allocated every array keeps it alive): with them, a round robin's
    stage inputs (some 40 arrays) would be counted, an atomic increment and decrement each,
    every replica and event (benchmarks/README.md, "The tour through the round-robin stage:
    measured, not landed").

    s      :class:`Scratch`;  rp  the round robins' :class:`RRPack`
    rt, rt0  float64 [segments, players, 3]: the ratings this replica plays with (written) and
             the scenario's (read)
    top, cnt, tot  the members' best results, their count and their sum (written)
    order  int64 [members]: member at each final place, 0 = first (written)
    brk, val, work, flags  the ranking's scratch and its "how decided" flags (written)
    ev_lo, ev_hi  int64 [listed players of the first event to play, or 0]: each one's first
             and last place in that event (written when not empty)
    """
    nm = a.base_top.shape[0]
    nbest = a.base_top.shape[1]
    if a.offsets:
        for i in range(a.n_real):
            for k in range(3):
                rt[SEG, i, k] = rt0[SEG, i, k] + normal_nb(st) * a.offset_sd[k]
    for m in range(nm):
        cnt[m] = a.base_cnt[m]
        for k in range(nbest):
            top[m, k] = a.base_top[m, k]
    for e in range(a.ev.shape[0]):
        play_event_nb(a, g, e, s, st, rp)
        if a.fix_start[e + 1] > a.fix_start[e]:
            replay_fixed_event_nb(a, g, e, s, st, rp)
        fs = a.ev[e, EV_FS]
        if e == 0 and ev_lo.shape[0] > 0:
            for i in range(a.ev[e, EV_FL]):
                ev_lo[i] = s.lo[i]
                ev_hi[i] = s.hi[i]
        for i in range(a.ev[e, EV_FL]):
            m = a.member_of[a.field[fs + i]]
            if m >= 0 and s.pts[i] > 0:
                insert_nb(top, cnt, m, s.pts[i], nbest)
    for m in range(nm):
        x = 0
        for k in range(cnt[m]):
            x += top[m, k]
        tot[m] = x
    rank_members_nb(a.n_qual, top, cnt, tot, order, brk, val, work, st, flags)


@jit
def chunk_nb(c, lo, hi, seed, first, a, out):
    """Replicas lo .. hi-1 (offsets from ``first``) into row c of ``out``."""
    nm = a.base_top.shape[0]
    nbest = a.base_top.shape[1]
    rt0 = a.rt
    rt = rt0.copy()
    g = Games(a.params, rt, a.thr, a.live, a.offsets)
    st = np.empty(1, np.uint64)
    s = scratch_nb(a)
    rp = rr_pack_nb(a)
    top = np.zeros((nm, nbest), np.int64)
    cnt = np.zeros(nm, np.int64)
    tot = np.zeros(nm, np.int64)
    order = np.zeros(nm, np.int64)
    brk = np.zeros(nm, np.int64)
    val = np.zeros(nm, np.int64)
    work = np.zeros(nm, np.int64)
    qual = np.zeros(nm, np.int64)
    prize = np.zeros(nm)
    flags = np.zeros(out.counters.shape[1], np.int64)
    none = np.zeros(0, np.int64)
    t = local_tallies_nb(out)
    for r in range(lo, hi):
        st[0] = replica_state_nb(np.uint64(seed), np.uint64(first + r))
        season_replica_nb(a, g, s, rp, st, rt, rt0, top, cnt, tot, order, brk, val, work,
                          flags, none, none)
        for p in range(nm):
            qual[order[p]] = 1 if p < a.n_qual else 0
        tally_nb(t, order, nm, qual, tot, prize)
        count_flags_nb(t, flags)
    store_nb(t, out, c)


@pjit
def simulate_nb(seed, first, nrep, a, out):
    """Replicas first .. first+nrep-1 of the rest of the season.

    seed   uint64: the run's seed; replica r draws from ``rng_nb.replica_state_nb(seed, r)``
    first  int64: index of the batch's first replica
    nrep   int64: replicas in the batch
    a      :class:`TourArgs`
    out    :class:`~simcycle.kernels.tally_nb.Tallies` with a leading chunk axis: chunk c of
           ``CHUNK`` replicas fills row c
    """
    n_chunks = (nrep + CHUNK - 1) // CHUNK
    for c in prange(n_chunks):
        chunk_nb(np.int64(c), c * CHUNK, min(nrep, (c + 1) * CHUNK), seed, first, a, out)


@jit
def event_odds_nb(seed, nrep, e, a, prob, pts_sum):
    """Play event row ``e`` alone nrep times (replica r draws from stream (seed, r)), without
    offsets.

    prob[i, p] += the share of place p+1 that listed player i holds (1/k when k players share
    k places); pts_sum[i] += his ACP points (hundredths)."""
    g = Games(a.params, a.rt, a.thr, False, False)
    st = np.empty(1, np.uint64)
    s = scratch_nb(a)
    rp = rr_pack_nb(a)
    for r in range(nrep):
        st[0] = replica_state_nb(np.uint64(seed), np.uint64(r))
        play_event_nb(a, g, e, s, st, rp)
        for i in range(a.ev[e, EV_FL]):
            k = s.hi[i] - s.lo[i] + 1
            for p in range(s.lo[i], s.hi[i] + 1):
                prob[i, p - 1] += 1.0 / k
            pts_sum[i] += s.pts[i]
