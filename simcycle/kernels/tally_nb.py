"""Numba code over arrays: streaming tallies, one row per chunk of replicas.

Every kernel counts a replica's outcome with ``tally_nb`` into a chunk-local
:class:`Tallies` (no chunk axis) and copies it once per chunk into its row of the output
with ``store_nb`` (rows of neighbouring chunks share cache lines and the threads run
neighbouring chunks, so writing rows replica by replica would make the cores contend).
``driver.ChunkTallies`` allocates the outputs and sums the rows in order.
"""

from typing import NamedTuple

import numpy as np

from .config import ijit


class Tallies(NamedTuple):
    """Counts of one chunk (or, with a leading chunk axis, of a batch).

    place      int64 [players, places]: finished in place p
    qualify    int64 [players]: qualified
    points     float64 [players]: sum of final points (the format's units)
    points_sq  float64 [players]: sum of squares
    prize      float64 [players]: sum of prize money
    prize_sq   float64 [players]
    counters   int64 [k]: events counted once per replica (a play-off was needed, ...)
    extra      int64 [m, players]: further per-player events (e.g. the wildcard claimant)
    """

    place: np.ndarray
    qualify: np.ndarray
    points: np.ndarray
    points_sq: np.ndarray
    prize: np.ndarray
    prize_sq: np.ndarray
    counters: np.ndarray
    extra: np.ndarray


@ijit
def local_tallies_nb(out):
    """Zeroed chunk-local tallies shaped like one row of ``out``."""
    n, k = out.place.shape[1], out.place.shape[2]
    return Tallies(np.zeros((n, k), np.int64), np.zeros(n, np.int64), np.zeros(n),
                   np.zeros(n), np.zeros(n), np.zeros(n),
                   np.zeros(out.counters.shape[1], np.int64),
                   np.zeros((out.extra.shape[1], n), np.int64))


@ijit
def tally_nb(t, order, n, qualified, score, prize):
    """Player order[p] finished in place p: count the place, qualification
    (``qualified[i]`` 1/0), the score and the prize money (sums and sums of squares)."""
    for p in range(n):
        i = order[p]
        t.place[i, p] += 1
        t.qualify[i] += qualified[i]
        x = np.float64(score[i])
        t.points[i] += x
        t.points_sq[i] += x * x
        z = prize[i]
        t.prize[i] += z
        t.prize_sq[i] += z * z


@ijit
def count_flags_nb(t, flags):
    """Add a replica's 0/1 flags to the counters."""
    for k in range(flags.shape[0]):
        t.counters[k] += flags[k]


@ijit
def store_nb(t, out, c):
    """Copy chunk-local tallies ``t`` into row ``c`` of ``out``."""
    n, k = t.place.shape[0], t.place.shape[1]
    for i in range(n):
        for p in range(k):
            out.place[c, i, p] = t.place[i, p]
        out.qualify[c, i] = t.qualify[i]
        out.points[c, i] = t.points[i]
        out.points_sq[c, i] = t.points_sq[i]
        out.prize[c, i] = t.prize[i]
        out.prize_sq[c, i] = t.prize_sq[i]
    for j in range(t.counters.shape[0]):
        out.counters[c, j] = t.counters[j]
    for m in range(t.extra.shape[0]):
        for i in range(n):
            out.extra[c, m, i] = t.extra[m, i]
