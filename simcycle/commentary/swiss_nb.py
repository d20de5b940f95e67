"""Numba code over arrays: the rest of a Swiss event replica by replica, keeping what ``simcycle
needs`` and ``simcycle scores`` file replicas by -- each player's result in the next round,
their final points, who is first, who qualifies, and how first place and each qualifying place
were decided -- instead of streaming tallies.

Each replica is the Swiss stage itself (``formats.swiss.nb.play_swiss_nb``, the same draws in
the same order as ``simulate_nb``), so replica r here is replica r of ``simcycle simulate`` at
the same seed.  numba's cache of this file does not notice a change in ``formats/swiss/nb.py``
or ``kernels/dutch_nb.py``: delete ``simcycle/**/*.nb[ic]`` after editing those.

How a place was decided, for a player x placed just ahead of a player y (first: the winner and
the runner-up; a qualifying place: the qualifier and the best eligible player below the
places): ``HOW_OUTRIGHT`` (0) more points than y; 1 + c: level on points and split from y by the
event's criterion ``criteria[c]`` (the cascade of ``criteria_nb.rank_criteria_nb`` replayed on
the players level with them on points until x and y fall into different groups); ``1 +
len(criteria)``: level on every criterion, lots decided.
"""

import numpy as np
from numba import prange

from ..enums import RK_PLAYED
from ..formats.swiss.nb import play_swiss_nb, work_nb
from ..kernels.config import CHUNK, jit, pjit
from ..kernels.criteria_nb import split_segment_nb
from ..kernels.dutch_nb import pair_scratch_nb
from ..kernels.rank_nb import segment_end_nb
from ..kernels.rng_nb import replica_state_nb

HOW_OUTRIGHT = 0
NEXT_LOSS, NEXT_DRAW, NEXT_WIN, NEXT_OTHER = 0, 1, 2, 3   # the next round's result codes


@jit
def decided_nb(t, R, criteria, x, y, order, brk, val, group):
    """How x (ahead) was separated from y (behind) in the final ranking (module doc)."""
    if t.pts[x] != t.pts[y]:
        return HOW_OUTRIGHT
    n = t.pts.shape[0]
    k = 0
    for i in range(n):
        if t.pts[i] == t.pts[x]:
            order[k] = i
            brk[k] = 0
            k += 1
    brk[0] = 1
    for c in range(criteria.shape[0]):
        p = 0
        while p < k:
            e = segment_end_nb(brk, p, k)
            if e - p > 1:
                split_segment_nb(criteria[c], t, R, order, brk, val, group, p, e)
            p = e
        # x and y in different groups now?  (groups are runs of order[:k] between breaks)
        gx = gy = -1
        g = -1
        for p in range(k):
            if brk[p] == 1:
                g += 1
            if order[p] == x:
                gx = g
            elif order[p] == y:
                gy = g
        if gx != gy:
            return 1 + c
    return 1 + criteria.shape[0]


@jit
def chunk_replicas_nb(lo, hi, seed, first, a, nxt, pts, winner, how_first, how_qual):
    n = a.base_opp.shape[0]
    R = a.n_rounds
    w = work_nb(n, R)
    ps = pair_scratch_nb(n)
    st = np.empty(1, np.uint64)
    flags = np.zeros(2, np.int64)
    order = np.zeros(n, np.int64)
    brk = np.zeros(n, np.int64)
    val = np.zeros(n, np.int64)
    group = np.zeros(n, np.int64)
    quals = np.zeros(n, np.int64)
    t = w.t
    for r in range(lo, hi):
        st[0] = replica_state_nb(np.uint64(seed), np.uint64(first + r))
        flags[0] = 0
        flags[1] = 0
        play_swiss_nb(a, a.gthr, w, ps, st, flags)
        for i in range(n):
            pts[r, i] = t.pts[i]
            how_qual[r, i] = -1
            if a.start < R:
                if t.kind[i, a.start] == RK_PLAYED:
                    nxt[r, i] = t.res[i, a.start]     # 0, 1, 2 half points: NEXT_*
                else:
                    nxt[r, i] = NEXT_OTHER
            else:
                nxt[r, i] = NEXT_OTHER
        winner[r] = w.order[0]
        how_first[r] = decided_nb(t, R, a.criteria, w.order[0], w.order[1], order, brk, val,
                                  group) if n > 1 else HOW_OUTRIGHT
        # the qualifiers (passing-down skips the already qualified) and the next eligible
        k = 0
        cut = -1
        for p in range(n):
            i = w.order[p]
            if a.pass_down and a.qualified[i] == 1:
                continue
            if k < a.n_qual:
                quals[k] = i
                k += 1
            else:
                cut = i
                break
        for j in range(k):
            how_qual[r, quals[j]] = (HOW_OUTRIGHT if cut < 0 else
                                     decided_nb(t, R, a.criteria, quals[j], cut, order, brk,
                                                val, group))


@pjit
def replicas_nb(seed, first, nrep, a, nxt, pts, winner, how_first, how_qual):
    """Replicas first .. first+nrep-1 of the rest of the Swiss event.

    seed       uint64: the run's seed; replica r draws from ``rng_nb.replica_state_nb(seed, r)``
    first      int64: index of the first replica
    nrep       int64: replicas
    a          :class:`~simcycle.formats.swiss.nb.SwissArgs` (``formats/swiss/plan.py``)
    nxt        int8 [nrep, n]: each player's result in round ``a.start`` (the next one):
               ``NEXT_LOSS``, ``NEXT_DRAW``, ``NEXT_WIN`` over the board, ``NEXT_OTHER`` a bye,
               a forfeit or no round left
    pts        int16 [nrep, n]: each player's final half points
    winner     int64 [nrep]: who is first
    how_first  int8 [nrep]: how first was decided (module doc)
    how_qual   int8 [nrep, n]: how the player's qualifying place was decided; -1: none
    """
    n_chunks = (nrep + CHUNK - 1) // CHUNK
    for c in prange(n_chunks):
        chunk_replicas_nb(c * CHUNK, min(nrep, (c + 1) * CHUNK), seed, first, a, nxt, pts,
                          winner, how_first, how_qual)
