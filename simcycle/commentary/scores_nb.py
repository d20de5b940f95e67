"""Numba code over arrays: a round robin's rest replica by replica, keeping what ``simcycle
scores`` tallies -- each player's final points, who is first and how first was decided, who
qualifies -- instead of streaming tallies.

Each replica is the round-robin stage itself (``formats.roundrobin.nb.replica_nb``, the same
draws in the same order as ``simulate_nb``), so replica r here is replica r there.  How first
was decided is read off the stage's own counters, run with one qualifying place so that they
speak of first place (``plan.scores_args``): ``RR_C_Q_TIEBREAK`` level on points at the top,
``RR_C_PLAYOFF`` a play-off for first was held, ``RR_C_Q_LOTS`` lots decided first (in the
play-off or as the last criterion); level on points with neither is a tiebreak criterion.
"""

import numpy as np
from numba import prange

from ..enums import RR_C_PLAYOFF, RR_C_Q_LOTS, RR_C_Q_TIEBREAK, RR_COUNTER_NAMES
from ..formats.roundrobin.nb import replica_nb, scratch_nb
from ..kernels.config import CHUNK, jit, pjit
from ..kernels.game_nb import Games, terms_nb
from ..kernels.rng_nb import replica_state_nb

HOW_OUTRIGHT, HOW_TIEBREAK, HOW_PLAYOFF, HOW_LOTS = range(4)    # scores.HOW, in order
N_FLAGS = len(RR_COUNTER_NAMES)


@jit
def chunk_scores_nb(lo, hi, seed, first, a, qualified, pts, winner, how, qual):
    n = a.base_pts.shape[0]
    rt = a.rt.copy()
    g = Games(a.params, rt, a.thr, a.live, a.offsets)
    st = np.empty(1, np.uint64)
    s = scratch_nb(a, N_FLAGS)
    terms = terms_nb(a.params, a.game_ci, a.offsets)
    for r in range(lo, hi):
        st[0] = replica_state_nb(np.uint64(seed), np.uint64(first + r))
        replica_nb(a, g, a.rt, st, terms, s)
        for i in range(n):
            pts[r, i] = s.pts[i]
        for p in range(n):
            qual[r, s.order[p]] = qualified[p]
        winner[r] = s.order[0]
        if s.flags[RR_C_Q_LOTS] == 1:
            how[r] = HOW_LOTS
        elif s.flags[RR_C_PLAYOFF] == 1:
            how[r] = HOW_PLAYOFF
        elif s.flags[RR_C_Q_TIEBREAK] == 1:
            how[r] = HOW_TIEBREAK
        else:
            how[r] = HOW_OUTRIGHT


@pjit
def scores_nb(seed, first, nrep, a, qualified, pts, winner, how, qual):
    """Replicas first .. first+nrep-1 of the rest of the round robin.

    seed      uint64: the run's seed; replica r draws from ``rng_nb.replica_state_nb(seed, r)``
    first     int64: index of the first replica
    nrep      int64: replicas
    a         :class:`~simcycle.formats.roundrobin.nb.RoundRobinArgs` with n_qual = 1 (the
              counters then speak of first place)
    qualified int64 [n]: 1 for the places that qualify (the scenario's, best first)
    pts       int64 [nrep, n]: each player's final half points
    winner    int64 [nrep]: who is first
    how       int64 [nrep]: how first was decided (``HOW_*``)
    qual      int64 [nrep, n]: 1 where the player finishes in a qualifying place
    """
    n_chunks = (nrep + CHUNK - 1) // CHUNK
    for c in prange(n_chunks):
        chunk_scores_nb(c * CHUNK, min(nrep, (c + 1) * CHUNK), seed, first, a, qualified,
                        pts, winner, how, qual)
