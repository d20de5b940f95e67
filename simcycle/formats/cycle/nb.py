"""Numba code over arrays: a cycle, replica by replica, as a chain of stages (the events in
order through their formats' per-replica stage functions, the seat allocation, the final round
robin with the field this replica produced), with streaming tallies.

Per replica r the stream is ``rng_nb.replica_state_nb(seed, r)`` and is consumed in this
order: the events in cycle order, each through its stage (``roundrobin.nb.replica_nb``,
``group_series.nb.replica_nb``, ``knockout_series.nb.replica_nb``), then the final
(``roundrobin.nb.replica_nb``, its ratings those of the players seated; its games' thresholds
read from the pool's table, or on the live path with offsets or hot Elo).  The allocation
draws nothing.  The plain-Python
twin of the allocation is ``rules.allocate``.

Tallies (rows = pool players): place in the final (nothing when not in it), qualify = in the
final, points and prize of the final, extra[s] = filled seat s, extra[S + k] = seated by path k.
"""

from typing import NamedTuple

import numpy as np
from numba import prange

from ...enums import CY_BEST, CY_FIXED, CY_LIST, CY_PLACE
from ...kernels.config import CHUNK, bjit, ijit, jit, pjit
from ...kernels.game_nb import Games, terms_nb
from ...kernels.rng_nb import replica_state_nb
from ...kernels.tally_nb import count_flags_nb, local_tallies_nb, store_nb
from ..group_series import nb as gs_nb
from ..knockout_series import nb as ko_nb
from ..roundrobin import nb as rr_nb
from ..roundrobin.nb import RoundRobinArgs


class CycleArgs(NamedTuple):
    """What the cycle adds to its stages' own argument records (``plan.py`` builds it).

    links     int64 [S, L, 3]: seat s's chain, link by link: (``enums.CY_*``, a, b); kind 0
              pads.  FIXED a = pool player; PLACE a = event, b = place (0-based); BEST a =
              event, b = row of ``among`` (-1 anyone); LIST a = row of ``lists``
    among     bool [A, P]: the players a BEST link may take
    lists     int64 [LI, K]: each rating list's eligible pool players, highest first, -1 pads
    avail     bool [P]: not withdrawn at the checkpoint
    ev_map    int64 [E, N]: pool player of each event player (-1 pads); events in cycle order
    ev_kind   int64 [E]: 0 round robin (its index among the round-robin events), 1 the group
              series, 2 the knock-out series
    ev_slot   int64 [E]: that index
    fin_slot  int64 [P]: the final's start number of a pool player the final lists, else -1
    pool_rt   float64 [segments, P, 3]: each pool player's ratings in the final
    thr       float64 [segments, P, P, 2]: (P white wins, P white wins or draws) of every pool
              pair at the final's game control (``game_nb.threshold_table_nb`` of pool_rt,
              once per plan): the final's games read them by player id when the final's
              record is not ``live``; empty when it is (offsets or hot Elo)
    seat_path int64 [S, L]: the path index of each link (tallied as extra[S + path])
    n_paths   int: paths
    """

    links: np.ndarray
    among: np.ndarray
    lists: np.ndarray
    avail: np.ndarray
    ev_map: np.ndarray
    ev_kind: np.ndarray
    ev_slot: np.ndarray
    fin_slot: np.ndarray
    pool_rt: np.ndarray
    thr: np.ndarray
    seat_path: np.ndarray
    n_paths: int


@ijit
def allocate_nb(c, ev_order, ev_n, seated, field, via):
    """Seats in priority order: each takes the first player its chain yields who is available
    and not seated yet.  ev_order[e, :ev_n[e]]: event e's final order (pool players);
    fills field[s] (pool player, -1 if the chain ran dry), via[s] (the link that filled it)
    and seated[p]."""
    P = c.avail.shape[0]
    for p in range(P):
        seated[p] = False
    for s in range(c.links.shape[0]):
        field[s] = -1
        via[s] = -1
        for j in range(c.links.shape[1]):
            kind = c.links[s, j, 0]
            a = c.links[s, j, 1]
            b = c.links[s, j, 2]
            cand = -1
            if kind == CY_FIXED:
                if c.avail[a] and not seated[a]:
                    cand = a
            elif kind == CY_PLACE:
                if b < ev_n[a]:
                    p = ev_order[a, b]
                    if c.avail[p] and not seated[p]:
                        cand = p
            elif kind == CY_BEST:
                for i in range(ev_n[a]):
                    p = ev_order[a, i]
                    if c.avail[p] and not seated[p] and (b < 0 or c.among[b, p]):
                        cand = p
                        break
            elif kind == CY_LIST:
                for i in range(c.lists.shape[1]):
                    p = c.lists[a, i]
                    if p < 0:
                        break
                    if c.avail[p] and not seated[p]:
                        cand = p
                        break
            if cand >= 0:
                field[s] = cand
                via[s] = j
                seated[cand] = True
                break


@ijit
def seat_field_nb(c, field, slot_of, taken):
    """Start numbers in the final: a player the final's file lists keeps his; the others take
    the free numbers in seat order.  Fills slot_of[k] = pool player at start number k."""
    n = field.shape[0]
    for k in range(n):
        taken[k] = False
        slot_of[k] = -1
    for s in range(n):
        k = c.fin_slot[field[s]]
        if k >= 0:
            slot_of[k] = field[s]
            taken[k] = True
    k = 0
    for s in range(n):
        if c.fin_slot[field[s]] < 0:
            while taken[k]:
                k += 1
            slot_of[k] = field[s]
            taken[k] = True


# The stages are called, not inlined, here: inlining both (the round robin twice) made one
# function whose compilation took minutes; a call per stage and replica costs little next to
# the ~240 games of a replica.  They allocate nothing (``chunk_nb`` allocates every record and
# keeps it alive), so they are compiled without reference counts (``bjit``); with them
# (``jit``) each call counted its records' arrays at entry and exit, and the group series'
# stage, inlined into its wrapper, counted them around every event and tiebreak helper
# (benchmarks/README.md, "The cycle's stage wrappers without reference counts").
@bjit
def rr_stage_nb(a, g, rt0, st, terms, s):
    """``roundrobin.nb.replica_nb`` as a function of its own (events and the final)."""
    rr_nb.replica_nb(a, g, rt0, st, terms, s)


@bjit
def gs_stage_nb(a, g, st, s, flat):
    """``group_series.nb.replica_nb`` as a function of its own."""
    return gs_nb.replica_nb(a, g, st, s, flat)


@bjit
def ko_stage_nb(a, g, st, s):
    """``knockout_series.nb.replica_nb`` as a function of its own."""
    ko_nb.replica_nb(a, g, st, s)


@ijit
def own_gthr_nb(fa, gthr):
    """``fa`` with ``gthr`` (a chunk's own array) as its games' thresholds (every field of
    ``roundrobin.nb.RoundRobinArgs`` in order: a field added there is added here)."""
    return RoundRobinArgs(
        fa.params, fa.rt, fa.thr, fa.live, fa.offsets, fa.offset_sd, fa.hot_k, fa.draw_factor,
        fa.base_pts, fa.base_res, fa.opp, fa.kind, fa.colour, fa.rating, fa.gw, fa.gb,
        fa.gsw, fa.gsb, fa.gseg, gthr, fa.game_ci,
        fa.criteria, fa.stages, fa.playoff_seg, fa.forced_first, fa.qualified, fa.n_qual,
        fa.place_prize, fa.per_half, fa.prize_split, fa.colours)


@ijit
def final_nb(c, fa, g, rt0, slot_of, st, terms, s):
    """The final round robin with this replica's field: its ratings copied in (the live path
    and the play-offs read them), its games' thresholds looked up by player id in the pool's
    table (``fa.gthr``, the chunk's own, unless ``fa.live``), then the round-robin stage."""
    for q in range(rt0.shape[0]):
        for k in range(slot_of.shape[0]):
            for x in range(3):
                rt0[q, k, x] = c.pool_rt[q, slot_of[k], x]
                g.rt[q, k, x] = rt0[q, k, x]
    if not fa.live:
        for q in range(fa.gw.shape[0]):
            sg = fa.gseg[q]
            w = slot_of[fa.gw[q]]
            b = slot_of[fa.gb[q]]
            fa.gthr[q, 0] = c.thr[sg, w, b, 0]
            fa.gthr[q, 1] = c.thr[sg, w, b, 1]
    rr_stage_nb(fa, g, rt0, st, terms, s)


@ijit
def tally_cycle_nb(t, c, field, via, slot_of, s):
    """The final's places, points and prizes by pool player; who filled each seat; by which
    path."""
    n = slot_of.shape[0]
    S = field.shape[0]
    for p in range(n):
        i = slot_of[s.order[p]]
        t.place[i, p] += 1
        t.qualify[i] += 1
    for k in range(n):
        i = slot_of[k]
        x = np.float64(s.pts[k])
        t.points[i] += x
        t.points_sq[i] += x * x
        z = s.prize[k]
        t.prize[i] += z
        t.prize_sq[i] += z * z
    for q in range(S):
        if field[q] >= 0:
            t.extra[q, field[q]] += 1
            t.extra[S + c.seat_path[q, via[q]], field[q]] += 1
    count_flags_nb(t, s.flags)


@jit
def chunk_nb(ci, lo, hi, seed, first, rr0, rr1, n_rr, ga, n_gs, ka, n_ko, fa, c, out):
    """Replicas lo .. hi-1 (offsets from ``first``) into row ci of ``out``."""
    rrs = (rr0, rr1)
    E = c.ev_map.shape[0]
    P = c.avail.shape[0]
    S = c.links.shape[0]
    n = fa.base_pts.shape[0]
    st = np.empty(1, np.uint64)
    ev_order = np.empty((max(E, 1), max(c.ev_map.shape[1], 1)), np.int64)
    ev_n = np.zeros(max(E, 1), np.int64)
    seated = np.empty(P, np.bool_)
    field = np.empty(S, np.int64)
    via = np.empty(S, np.int64)
    slot_of = np.empty(n, np.int64)
    taken = np.empty(n, np.bool_)
    # the stages' own records: Games and scratch per round-robin event, the group series'
    g_rr = []
    s_rr = []
    t_rr = []
    for k in range(n_rr):
        a = rrs[k]
        g_rr.append(Games(a.params, a.rt.copy(), a.thr, a.live, a.offsets))
        s_rr.append(rr_nb.scratch_nb(a, out.counters.shape[1]))
        t_rr.append(terms_nb(a.params, a.game_ci, a.offsets))
    g_gs = Games(ga.params, ga.rt.copy(), ga.thr, ga.live, ga.offsets)
    s_gs = gs_nb.scratch_nb(ga, 8)
    flat = ga.thr.reshape(ga.thr.size)
    g_ko = Games(ka.params, ka.rt.copy(), ka.thr, ka.live, ka.offsets)
    s_ko = ko_nb.scratch_nb(ka)
    rt0 = c.pool_rt[:, :n, :].copy()
    g_f = Games(fa.params, rt0.copy(), fa.thr, True, fa.offsets)   # play-offs: live
    fl = own_gthr_nb(fa, np.empty((fa.gw.shape[0] if not fa.live else 0, 2)))
    s_f = rr_nb.scratch_nb(fa, out.counters.shape[1])
    terms_f = terms_nb(fa.params, fa.game_ci, fa.offsets)
    t = local_tallies_nb(out)
    for r in range(lo, hi):
        st[0] = replica_state_nb(np.uint64(seed), np.uint64(first + r))
        for e in range(E):
            k = c.ev_slot[e]
            if c.ev_kind[e] == 0:
                a = rrs[k]
                sr = s_rr[k]
                rr_stage_nb(a, g_rr[k], a.rt, st, t_rr[k], sr)
                m = a.base_pts.shape[0]
                for i in range(m):
                    ev_order[e, i] = c.ev_map[e, sr.order[i]]
                ev_n[e] = m
            elif c.ev_kind[e] == 1 and n_gs > 0:
                m = gs_stage_nb(ga, g_gs, st, s_gs, flat)
                for i in range(m):
                    ev_order[e, i] = c.ev_map[e, s_gs.order[i]]
                ev_n[e] = m
            elif n_ko > 0:
                ko_stage_nb(ka, g_ko, st, s_ko)
                m = ka.qual_else.shape[0]
                for i in range(m):
                    ev_order[e, i] = c.ev_map[e, s_ko.order[i]]
                ev_n[e] = m
        allocate_nb(c, ev_order, ev_n, seated, field, via)
        seat_field_nb(c, field, slot_of, taken)
        final_nb(c, fl, g_f, rt0, slot_of, st, terms_f, s_f)
        tally_cycle_nb(t, c, field, via, slot_of, s_f)
    store_nb(t, out, ci)


@pjit
def simulate_nb(seed, first, nrep, rr0, rr1, n_rr, ga, n_gs, ka, n_ko, fa, c, out):
    """Replicas first .. first+nrep-1 of the cycle.

    seed   uint64: the run's seed; replica r draws from ``rng_nb.replica_state_nb(seed, r)``
    first  int64: index of the batch's first replica
    nrep   int64: replicas in the batch
    rr0, rr1  ``roundrobin.nb.RoundRobinArgs``: the round-robin events (n_rr <= 2 of them;
           the final's record stands in for a missing one), separate arguments because
           numba's parallel loops take no nested tuples
    ga     ``group_series.nb.GroupSeriesArgs`` of the group series (n_gs = 1) or a placeholder
    ka     ``knockout_series.nb.KnockoutArgs`` of the knock-out series (n_ko = 1) or a
           placeholder of the same numba type (``plan._ko_placeholder``)
    fa     ``RoundRobinArgs`` of the final (its field changes replica by replica: ``live`` with
           offsets or hot Elo, else its games' thresholds come from ``c.thr`` per replica)
    c      :class:`CycleArgs`
    out    :class:`~simcycle.kernels.tally_nb.Tallies` with a leading chunk axis
    """
    n_chunks = (nrep + CHUNK - 1) // CHUNK
    for ci in prange(n_chunks):
        # the chunk index as int64: prange's is uint64 in the parallel body and int64 while
        # the loop is typed, which compiled chunk_nb twice
        chunk_nb(np.int64(ci), ci * CHUNK, min(nrep, (ci + 1) * CHUNK), seed, first, rr0, rr1,
                 n_rr, ga, n_gs, ka, n_ko, fa, c, out)
