"""Numba code over arrays: the rest of a tour season replica by replica, keeping what
``simcycle needs`` conditions on -- the places of the next event's listed players and each
member's final place -- instead of streaming tallies.

The season is played by ``nb.season_replica_nb``, the step ``nb.chunk_nb`` plays it with (the
same draws in the same order), so replica r here is replica r there; the plain-Python twin is
``simcycle.reference.tour.replica`` (``events=`` records the places).
"""

import numpy as np
from numba import prange

from ...enums import TOUR_C_LOTS, TOUR_C_TIEBREAK
from ...kernels.config import CHUNK, jit, pjit
from ...kernels.game_nb import Games
from ...kernels.rng_nb import replica_state_nb
from .nb import rr_pack_nb, scratch_nb, season_replica_nb

N_FLAGS = max(TOUR_C_LOTS, TOUR_C_TIEBREAK) + 1


@jit
def chunk_places_nb(lo, hi, seed, first, a, ev_lo, ev_hi, final):
    """Replicas lo .. hi-1 (offsets from ``first``) into rows lo .. hi-1 of the outputs."""
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
    flags = np.zeros(N_FLAGS, np.int64)
    for r in range(lo, hi):
        st[0] = replica_state_nb(np.uint64(seed), np.uint64(first + r))
        season_replica_nb(a, g, s, rp, st, rt, rt0, top, cnt, tot, order, brk, val, work,
                          flags, ev_lo[r], ev_hi[r])
        for p in range(nm):
            final[r, order[p]] = p


@pjit
def season_places_nb(seed, first, nrep, a, ev_lo, ev_hi, final):
    """Replicas first .. first+nrep-1 of the rest of the season (``nb.simulate_nb``'s draws).

    seed   uint64: the run's seed; replica r draws from ``rng_nb.replica_state_nb(seed, r)``
    first  int64: index of the first replica
    nrep   int64: replicas
    a      :class:`~.nb.TourArgs` (at least one event still to play)
    ev_lo, ev_hi  int64 [nrep, listed players of the next event]: each listed player's first
           and last place in it (lo < hi: places shared)
    final  int64 [nrep, members]: each member's final place in the season, 0 = first
    """
    n_chunks = (nrep + CHUNK - 1) // CHUNK
    for c in prange(n_chunks):
        chunk_places_nb(c * CHUNK, min(nrep, (c + 1) * CHUNK), seed, first, a, ev_lo, ev_hi,
                        final)
