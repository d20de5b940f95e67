"""Numba code over arrays: series of knock-out events (brackets of ``match_nb`` matches), the
points race, the series tiebreaks, qualification and prize money, replica-parallel with
streaming tallies.

Units: GP points whole, classical points in half points, money in the currency.  A rating
segment is an event (``Games.rt[e]``, ``Games.thr[e]``): the rating list in force at it.
The plain-Python twin is ``simcycle.reference.knockout``; both draw the same numbers in the
same order: for each event in turn, the strength offsets of its players (bracket order,
class-minor, only with offsets on), then its undecided matches in playing order (round by
round, slot by slot: the one bracket walk, ``kernels.bracket_nb.walk_nb``), each drawing
first the lot for White in game 1 (unless the colours are known) and then the match's own
draws (``game_nb.match_nb``); after the last event, lots in the series tiebreaks, top group
first.
"""

from typing import NamedTuple

import numpy as np
from numba import prange

from ...enums import (BR_CL, BR_COLS, BR_CU, BR_DN, BR_STEP, BR_UP, BR_WIN, KO_C_Q_LOTS,
                      KO_C_Q_TIEBREAK, SER_EVENTS_WON, SER_H2H, SER_LOTS, SER_SECOND)
from ...kernels.config import CHUNK, bjit, ijit, jit, pjit
from ...kernels.bracket_nb import walk_nb
from ...kernels.game_nb import Games
from ...kernels.prizes_nb import share_paid_nb
from ...kernels.rank_nb import (lots_segment_nb, pack_nb, segment_end_nb, sort_all_nb,
                                sort_segment_nb)
from ...kernels.rng_nb import normal_nb, replica_state_nb
from ...kernels.tally_nb import count_flags_nb, local_tallies_nb, store_nb, tally_nb


# The match log (``Scratch.log``) keeps a match in one int64: four fields of LOG_BITS bits from
# the lowest, the upper player (plan index, n for one not in the plan), the lower player, the
# upper's and the lower's classical half points (a step has at most 50 games, so at most 100;
# plan.py refuses a series with more plan players than a field holds): one store a match, where
# a log of four arrays took four.
LOG_BITS = 16
LOG_MASK = (1 << LOG_BITS) - 1
PAIR_MASK = (1 << 2 * LOG_BITS) - 1   # the two players' fields


class KnockoutArgs(NamedTuple):
    """The arguments of :func:`simulate_nb`, built by ``plan.py``.

    Players are indexed two ways: *field* players (everyone who plays any event; the rows of
    ``rt``) and *plan* players (those who count in the standings; the rows of every tally).

    params, rt, thr, live, offsets   the fields of a
                 :class:`~simcycle.kernels.game_nb.Games` (segments = events), flat because
                 numba's parallel loops take no nested tuples
    offset_sd    float64 [3]: strength-offset SD per rating class (Elo), used with offsets
    steps        int64 [k, 3]: the match steps (``enums.STEP_*``, control row, games)
    ev_size      int64 [E]: players of each event (a power of two)
    ev_rounds    int64 [E]: rounds of each event (log2 of its size)
    pos          int64 [E, S]: field player at each bracket position (-1 pads)
    kstat        int64 [E, S-1]: per match slot in playing order (``shared.brackets.flat_slot``)
                 ``enums.KO_OPEN``, ``KO_DECIDED`` or ``KO_IN_PROGRESS``
    kwin         int64 [E, S-1]: winner of a decided match (0 upper, 1 lower)
    kstep        int64 [E, S-1]: its deciding step (0 = classical; ``enums.UNKNOWN_TB_STEP``)
    kcls         int64 [E, S-1, 2]: its classical half points (upper, lower)
    kwhite       int64 [E, S-1]: who had White in classical game 1 (0 upper, 1 lower, -1 lots)
    kfixed       int64 [E, S-1, G]: known games of a match in progress, from the upper
                 player's side (-1 = to play); G = games of every step
    place_pts    int64 [R+1]: GP points by rounds from the end (0 = the winner)
    place_prize  float64 [R+1]: event money by rounds from the end
    bonus        int: GP points per match won in the classical games
    overall      float64 [n]: overall money by final series place (plan players)
    n_paid       int: places up to the last with overall money (overall[n_paid:] are 0)
    criteria     int64 [c]: series tiebreaks after GP points (``enums.SER_*``), ends with
                 SER_LOTS
    n_packed     int: how many leading criteria (plain numbers: events won, second places,
                 classical points) sort together with GP points as one packed key
                 (``kernels/keys.py`` chose them: the key fits below ``keys.KEY_LIMIT``)
    key_base     int64 [n_packed]: each packed criterion's base (its largest value + 1)
    plan_index   int64 [F]: plan index of each field player (-1: does not count)
    pos_plan     int64 [E, S]: plan index of the player at each bracket position
                 (``plan_index[pos]``; n for a player who does not count: the scratch's
                 per-player arrays have a spare entry n that nothing reads)
    qual_else    int64 [n]: 1 for plan players qualified elsewhere (skipped for the places)
    n_qual       int: qualifying places
    n_matches    int: matches in the whole series (the head-to-head log)
    fast         bool: matches with no known game go through ``fmatch_nb`` (offsets off and
                 every step games or Armageddon)
    """

    params: np.ndarray
    rt: np.ndarray
    thr: np.ndarray
    live: bool
    offsets: bool
    offset_sd: np.ndarray
    steps: np.ndarray
    ev_size: np.ndarray
    ev_rounds: np.ndarray
    pos: np.ndarray
    kstat: np.ndarray
    kwin: np.ndarray
    kstep: np.ndarray
    kcls: np.ndarray
    kwhite: np.ndarray
    kfixed: np.ndarray
    place_pts: np.ndarray
    place_prize: np.ndarray
    bonus: int
    overall: np.ndarray
    n_paid: int
    criteria: np.ndarray
    n_packed: int
    key_base: np.ndarray
    plan_index: np.ndarray
    pos_plan: np.ndarray
    qual_else: np.ndarray
    n_qual: int
    n_matches: int
    fast: bool


@ijit
def rank_series_nb(criteria, n_packed, key_base, n, pts, won, second, cls, log, nm, order, brk,
                   val, work, ingrp, lotted, st):
    """Fill order[:n] with the series ranking: GP points, then the criteria in turn, group by
    group (head-to-head once among all level on the criteria before it), lots last.  The
    match log ``log`` (one word a match, ``LOG_BITS``: the upper and lower players' plan
    indices, n for one not in the plan, and their classical half points) has nm entries; val
    and ingrp have n + 1 entries (ingrp[n] stays 0).
    Takes the shared arrays it needs, not the whole ``KnockoutArgs`` (reference counts)."""
    # GP points and the leading plain-number criteria as one key: one stable sort on it
    # orders exactly as refining group by group with stable sorts
    for i in range(n):
        lotted[i] = 0       # > 0: the group (its first position + 1) lots ordered him in
        key = np.int64(pts[i])
        for ci in range(n_packed):
            crit = criteria[ci]
            v = won[i] if crit == SER_EVENTS_WON else (second[i] if crit == SER_SECOND else cls[i])
            key = pack_nb(key, v, key_base[ci])
        val[i] = key
    sort_all_nb(order, brk, val, n)
    # each group level on that key in turn, top first, through the other criteria (one scan of
    # the table instead of one a criterion); only lots draw, and a group lots ordered has no
    # level players left, so the draws come in the order criterion by criterion gave them
    k = 0
    while k < n:
        e = segment_end_nb(brk, k, n)
        if e - k > 1:
            for ci in range(n_packed, criteria.shape[0]):
                refine_nb(criteria[ci], k, e, won, second, cls, log, nm, order, brk, val, work,
                          ingrp, lotted, st)
        k = e


@ijit
def refine_nb(crit, k0, e0, won, second, cls, log, nm, order, brk, val, work, ingrp, lotted, st):
    """Criterion ``crit`` (``enums.SER_*``) on every group still level inside positions
    k0 .. e0-1 of ``order`` (its other arguments as in :func:`rank_series_nb`)."""
    k = k0
    while k < e0:
        e = segment_end_nb(brk, k, e0)
        if e - k > 1:
            if crit == SER_LOTS:
                for i in range(k, e):
                    lotted[order[i]] = k + 1
                lots_segment_nb(order, brk, work, k, e, st)
            elif crit == SER_H2H and e - k == 2:
                # two level (1.98 of a GP 2019 series' 2.3 groups): their classical points
                # against each other by comparing each match's two players with the pair both
                # ways, summed in registers, instead of marking the group and adding to val
                p = order[k]
                q = order[k + 1]
                pq = p | (q << LOG_BITS)
                qp = q | (p << LOG_BITS)
                vp = 0
                vq = 0
                for t in range(nm):
                    x = log[t]
                    players = x & PAIR_MASK
                    hu = np.int64(players == pq)    # p the upper player, q the lower
                    hl = np.int64(players == qp)
                    cu = (x >> 2 * LOG_BITS) & LOG_MASK
                    cl = x >> 3 * LOG_BITS
                    vp += hu * cu + hl * cl
                    vq += hu * cl + hl * cu
                val[p] = vp
                val[q] = vq
                sort_segment_nb(order, brk, val, k, e)
            elif crit == SER_H2H:
                for i in range(k, e):
                    val[order[i]] = 0
                    ingrp[order[i]] = 1
                # every match of the log, both in the group or not, by arithmetic: which
                # matches count is a coin flip to the branch predictor
                for t in range(nm):
                    x = log[t]
                    pa = x & LOG_MASK
                    pb = (x >> LOG_BITS) & LOG_MASK
                    both = ingrp[pa] * ingrp[pb]
                    val[pa] += both * ((x >> 2 * LOG_BITS) & LOG_MASK)
                    val[pb] += both * (x >> 3 * LOG_BITS)
                for i in range(k, e):
                    ingrp[order[i]] = 0
                sort_segment_nb(order, brk, val, k, e)
            else:
                for i in range(k, e):
                    p = order[i]
                    val[p] = (won[p] if crit == SER_EVENTS_WON else
                              (second[p] if crit == SER_SECOND else cls[p]))
                sort_segment_nb(order, brk, val, k, e)
        k = e


@ijit
def overall_prizes_nb(overall, n, n_paid, order, pts, prize):
    """Overall money: players level on GP points share the prizes of their places (the
    groups that start among the first ``n_paid`` places: below them there is nothing to
    share)."""
    share_paid_nb(overall, n, n_paid, order, pts, prize, True)


@ijit
def qualifiers_nb(qual_else, n_qual, n, order, qualified, wild):
    """Walking the final order and skipping players qualified elsewhere: the first
    ``n_qual`` qualify (qualified[i] = 1), the next one is the wildcard claimant (wild[i]).
    Returns the last qualifier and the claimant (-1: none), whose tie the counters watch."""
    q = 0
    last = -1
    nxt = -1
    for p in range(n):
        i = order[p]
        qualified[i] = 0
        if qual_else[i] == 0:
            if q < n_qual:
                qualified[i] = 1
                q += 1
                last = i
            elif nxt < 0:
                wild[i] += 1
                nxt = i
    return last, nxt


class Scratch(NamedTuple):
    """One replica's work arrays and results (:func:`replica_nb` fills them; n plan players,
    S bracket positions, G games of a match, M matches in the series)."""

    # pts .. prize have n + 1 entries: entry n takes what goes to players who do not count
    pts: np.ndarray      # int64 [n + 1]: GP points (the result)
    won: np.ndarray      # int64 [n + 1]: events won
    second: np.ndarray   # int64 [n + 1]: second places
    cls: np.ndarray      # int64 [n + 1]: classical half points
    prize: np.ndarray    # float64 [n + 1]: money, events and overall (the result)
    order: np.ndarray    # int64 [n]: the series table, best first (the result)
    brk: np.ndarray      # int64 [n]: group starts (rank_series_nb)
    val: np.ndarray      # int64 [n + 1]: a criterion's values (val[n]: a match log's outsiders)
    work: np.ndarray     # int64 [n]: lots
    ingrp: np.ndarray    # int64 [n + 1]: in the group a head-to-head looks at (zeros between
                         # uses; ingrp[n], the match log's players not in the plan, always 0)
    lotted: np.ndarray   # int64 [n]: > 0 the group (first position + 1) lots ordered him in
    alive: np.ndarray    # int64 [S]: the walk's positions still in
    rec: np.ndarray      # int64 [S-1, BR_COLS]: the walk's record of an event's matches
    exit_rd: np.ndarray  # int64 [0]: the walk keeps no exit rounds (nothing here reads them)
    fx: np.ndarray       # int64 [G]: a match in progress' known games
    nofx: np.ndarray     # int64 [0]: no known games
    out6: np.ndarray     # int64 [6]: match_nb's outcome
    log: np.ndarray      # int64 [M]: the match log, one word a match (``LOG_BITS``)


@ijit
def scratch_nb(a):
    """A :class:`Scratch` for the plan ``a``."""
    n = a.qual_else.shape[0]
    nmax = max(a.n_matches, 1)
    return Scratch(np.empty(n + 1, np.int64), np.empty(n + 1, np.int64),
                   np.empty(n + 1, np.int64), np.empty(n + 1, np.int64),
                   np.empty(n + 1, np.float64), np.empty(n, np.int64),
                   np.empty(n, np.int64), np.empty(n + 1, np.int64), np.empty(n, np.int64),
                   np.zeros(n + 1, np.int64), np.zeros(n, np.int64),
                   np.empty(a.pos.shape[1], np.int64),
                   np.empty((max(a.pos.shape[1] - 1, 1), BR_COLS), np.int64),
                   np.empty(0, np.int64), np.empty(a.kfixed.shape[2], np.int64),
                   np.empty(0, np.int64), np.empty(6, np.int64), np.empty(nmax, np.int64))


# The stage is a function of its own, not inlined: inlined over the scratch record it cost
# 11.5 % of GP 2019's throughput, called once per replica 2 % (CPU time of whole processes,
# 600,000 series from start, 1 thread, alternating with the commit before,
# benchmarks/README.md); inside, each event's bracket goes through the one walk
# (``kernels.bracket_nb.walk_nb``, inlined), then its points, money and log are read off the
# walk's record (the winner, the loser and the bonus by arithmetic: by branches the pass cost
# 1.20x the commit before the walk's kernel CPU, by arithmetic 1.10x).  It is compiled
# without reference counts (``bjit``; it allocates nothing): with them it updated the counts
# of the walk's arrays around every event and of its arguments' arrays at entry and exit,
# about 300 atomic updates a series, and ran at 1.10x the commit before the walk; without,
# about 0.93x ("One bracket walk: where GP 2019's extra time goes" and "The knock-out stage
# without reference counts" in benchmarks/README.md).
@bjit
def replica_nb(a, g, st, s):
    """The knock-out-series stage: ONE replica of the rest of the series from the plan's
    state: every event's matches, the series table, the money.

    a      :class:`KnockoutArgs`
    g      :class:`~simcycle.kernels.game_nb.Games` whose ``rt`` is this replica's working
           copy of ``a.rt`` (offsets are written into it)
    st     uint64 [1]: the replica's SplitMix64 state, advanced in place
    s      :class:`Scratch`: fills s.order (plan players, best first), s.pts, s.prize,
           s.lotted (and s.won, s.second, s.cls)
    """
    n = a.qual_else.shape[0]
    n_ev = a.pos.shape[0]
    rt0 = a.rt
    rt = g.rt
    rec = s.rec
    pts = s.pts
    won = s.won
    second = s.second
    cls = s.cls
    prize = s.prize
    log = s.log
    for i in range(n + 1):
        pts[i] = 0
        won[i] = 0
        second[i] = 0
        cls[i] = 0
        prize[i] = 0.0
    nm = 0
    for e in range(n_ev):
        # ---- event e: offsets, then its bracket (the one walk), then its points and money
        size = a.ev_size[e]
        if a.offsets:
            for k in range(size):
                p = a.pos[e, k]
                for cc in range(3):
                    rt[e, p, cc] = rt0[e, p, cc] + normal_nb(st) * a.offset_sd[cc]
        champ = walk_nb(g, e, a.steps, e, a.pos, size, a.kstat, a.kwin, a.kstep, a.kcls,
                        a.kwhite, a.kfixed, a.fast, st, s.alive, s.fx, s.nofx, s.out6, rec,
                        s.exit_rd)
        n_rounds = a.ev_rounds[e]
        pp = a.pos_plan
        m = size
        flat = 0
        for rd in range(n_rounds):
            half = m // 2
            back = n_rounds - rd
            pb = a.place_pts[back]
            pz = a.place_prize[back]
            for f in range(flat, flat + half):
                # plan indices (n: does not count, the spare entry), the winner, the loser
                # and the bonus by arithmetic, not branches: read back from the record, away
                # from the match that decided them, the winner's side and the deciding step
                # are coin flips to the branch predictor
                iu = pp[e, rec[f, BR_UP]]
                il = pp[e, rec[f, BR_DN]]
                cu = rec[f, BR_CU]
                cl = rec[f, BR_CL]
                iw = iu + rec[f, BR_WIN] * (il - iu)
                ix = iu + il - iw
                log[nm] = iu | (il << LOG_BITS) | (cu << 2 * LOG_BITS) | (cl << 3 * LOG_BITS)
                nm += 1
                cls[iu] += cu
                cls[il] += cl
                pts[iw] += a.bonus * np.int64(rec[f, BR_STEP] == 0)
                pts[ix] += pb
                prize[ix] += pz
            flat += half
            m = half
        # the final is the record's last row: its loser is second
        second[pp[e, rec[flat - 1, BR_UP]] + pp[e, rec[flat - 1, BR_DN]] - pp[e, champ]] += 1
        ic = pp[e, champ]
        pts[ic] += a.place_pts[0]
        prize[ic] += a.place_prize[0]
        won[ic] += 1
    rank_series_nb(a.criteria, a.n_packed, a.key_base, n, pts, won, second, cls, log, nm,
                   s.order, s.brk, s.val, s.work, s.ingrp, s.lotted, st)
    overall_prizes_nb(a.overall, n, a.n_paid, s.order, pts, prize)


@jit
def chunk_nb(c, lo, hi, seed, first, a, out):
    """Replicas lo .. hi-1 (offsets from ``first``) into row c of ``out``: the stage
    (:func:`replica_nb`), then the qualifiers (skipping those qualified elsewhere), the
    counters and the tallies."""
    n = a.qual_else.shape[0]
    rt = a.rt.copy()
    g = Games(a.params, rt, a.thr, a.live, a.offsets)
    st = np.empty(1, np.uint64)
    s = scratch_nb(a)
    qualified = np.empty(n, np.int64)
    flags = np.zeros(out.counters.shape[1], np.int64)
    t = local_tallies_nb(out)
    wild = t.extra[0]
    for r in range(lo, hi):
        st[0] = replica_state_nb(np.uint64(seed), np.uint64(first + r))
        replica_nb(a, g, st, s)
        last, nxt = qualifiers_nb(a.qual_else, a.n_qual, n, s.order, qualified, wild)
        flags[KO_C_Q_TIEBREAK] = 0
        flags[KO_C_Q_LOTS] = 0
        if last >= 0 and nxt >= 0 and s.pts[last] == s.pts[nxt]:
            flags[KO_C_Q_TIEBREAK] = 1
            if s.lotted[last] > 0 and s.lotted[last] == s.lotted[nxt]:
                flags[KO_C_Q_LOTS] = 1
        tally_nb(t, s.order, n, qualified, s.pts, s.prize)
        count_flags_nb(t, flags)
    store_nb(t, out, c)


@pjit
def simulate_nb(seed, first, nrep, a, out):
    """Replicas first .. first+nrep-1 of the series.

    seed   uint64: the run's seed; replica r draws from ``rng_nb.replica_state_nb(seed, r)``
    first  int64: index of the batch's first replica
    nrep   int64: replicas in the batch
    a      :class:`KnockoutArgs`
    out    :class:`~simcycle.kernels.tally_nb.Tallies` with a leading chunk axis: chunk c of
           ``CHUNK`` replicas fills row c; ``extra[:, 0]`` counts the wildcard claimant
    """
    n_chunks = (nrep + CHUNK - 1) // CHUNK
    for c in prange(n_chunks):
        chunk_nb(np.int64(c), c * CHUNK, min(nrep, (c + 1) * CHUNK), seed, first, a, out)
