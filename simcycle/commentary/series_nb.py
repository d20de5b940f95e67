"""Numba code over arrays: a series' rest replica by replica (knock-out series, group series),
keeping what ``simcycle scores`` tallies -- each player's final series points, who is first and
whether alone on points, who qualifies -- instead of streaming tallies.

Each replica is the format's stage itself (``formats.*.nb.replica_nb``, the same draws in the
same order as its ``simulate_nb``), and the qualifiers are the ones its ``chunk_nb`` counts.
"""

import numpy as np
from numba import prange

from ..formats.group_series import nb as gs
from ..formats.knockout_series import nb as ks
from ..kernels.config import CHUNK, jit, pjit
from ..kernels.game_nb import Games
from ..kernels.rng_nb import replica_state_nb


@jit
def ko_chunk_nb(lo, hi, seed, first, a, pts, top, level, qual):
    n = a.qual_else.shape[0]
    rt = a.rt.copy()
    g = Games(a.params, rt, a.thr, a.live, a.offsets)
    st = np.empty(1, np.uint64)
    s = ks.scratch_nb(a)
    qualified = np.empty(n, np.int64)
    wild = np.zeros(n, np.int64)
    for r in range(lo, hi):
        st[0] = replica_state_nb(np.uint64(seed), np.uint64(first + r))
        ks.replica_nb(a, g, st, s)
        ks.qualifiers_nb(a.qual_else, a.n_qual, n, s.order, qualified, wild)
        for i in range(n):
            pts[r, i] = s.pts[i]
            qual[r, i] = qualified[i]
        top[r] = s.order[0]
        level[r] = 1 if n > 1 and s.pts[s.order[0]] == s.pts[s.order[1]] else 0


@pjit
def ko_series_nb(seed, first, nrep, a, pts, top, level, qual):
    """Replicas first .. first+nrep-1 of a knock-out series (``KnockoutArgs`` a): pts [nrep,
    n] GP points, top [nrep] who is first, level [nrep] 1 when first is level on points with
    second, qual [nrep, n] 1 for the qualifiers (plan players)."""
    n_chunks = (nrep + CHUNK - 1) // CHUNK
    for c in prange(n_chunks):
        ko_chunk_nb(c * CHUNK, min(nrep, (c + 1) * CHUNK), seed, first, a, pts, top, level,
                    qual)


@jit
def gs_chunk_nb(lo, hi, seed, first, a, n_flags, pts, top, level, qual):
    npl = a.rt.shape[1]
    rt = a.rt.copy()
    g = Games(a.params, rt, a.thr, a.live, a.offsets)
    flat = a.thr.reshape(a.thr.size)
    st = np.empty(1, np.uint64)
    s = gs.scratch_nb(a, n_flags)
    for r in range(lo, hi):
        st[0] = replica_state_nb(np.uint64(seed), np.uint64(first + r))
        n = gs.replica_nb(a, g, st, s, flat)
        for p in range(npl):
            pts[r, p] = s.gpts[p]
            qual[r, p] = 0
        for i in range(min(n, a.n_qual)):
            qual[r, s.order[i]] = 1
        top[r] = s.order[0]
        level[r] = 1 if n > 1 and s.gpts[s.order[0]] == s.gpts[s.order[1]] else 0


@pjit
def gs_series_nb(seed, first, nrep, a, n_flags, pts, top, level, qual):
    """Replicas first .. first+nrep-1 of a group series (``GroupSeriesArgs`` a; n_flags its
    counters): pts [nrep, players] GP points in sixths, top, level, qual as
    :func:`ko_series_nb` (players in file order)."""
    n_chunks = (nrep + CHUNK - 1) // CHUNK
    for c in prange(n_chunks):
        gs_chunk_nb(c * CHUNK, min(nrep, (c + 1) * CHUNK), seed, first, a, n_flags, pts, top,
                    level, qual)
