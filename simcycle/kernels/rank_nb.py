"""Numba code over arrays: ordering players group by group, as tiebreak criteria do.

An order is ``order[:n]`` (player indices, best first) with ``brk[i] = 1`` where position i
starts a new group of players still level.  A criterion refines every group of two or more:
``sort_segment_nb`` by a value (stable, so earlier criteria keep deciding), ``lots_segment_nb``
by drawing lots.  Every format's ranking is built from these.
"""

import numpy as np

from .config import ijit
from .game_nb import shuffle_nb


@ijit
def pack_nb(key, v, base):
    """One step of the key fold (``kernels/keys.py``, which chose ``base`` and checked the
    width): the key of the parts so far, then the part ``v`` (0 <= v < base)."""
    return key * base + v


@ijit
def start_order_nb(order, brk, n):
    """order[:n] = 0..n-1 as one group."""
    for i in range(n):
        order[i] = i
        brk[i] = 0
    brk[0] = 1


@ijit
def segment_end_nb(brk, k, n):
    """End (exclusive) of the group starting at position k."""
    e = k + 1
    while e < n and brk[e] == 0:
        e += 1
    return e


@ijit
def sort_desc_nb(order, k, e, val):
    """Stable insertion sort of order[k:e] by val[player], descending."""
    for i in range(k + 1, e):
        x = order[i]
        j = i - 1
        while j >= k and val[order[j]] < val[x]:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = x


@ijit
def sort_all_nb(order, brk, val, n):
    """``start_order_nb`` then ``sort_segment_nb(order, brk, val, 0, n)``, the same order by
    counting: player i goes after the players with a larger value and the players before him
    with the same.  n^2 comparisons without a branch, where the insertion sort's loop exits
    are coin flips to the branch predictor: GP 2019's series table (21 players) 4,750-4,980
    -> 4,380-4,790 ns a series (benchmarks/README.md, "The knock-out stage without reference
    counts")."""
    for i in range(n):
        v = val[i]
        r = 0
        for j in range(n):
            r += np.int64(val[j] > v) + np.int64((val[j] == v) & (j < i))
        order[r] = i
    if n > 0:
        brk[0] = 1
    for i in range(1, n):
        brk[i] = np.int64(val[order[i]] != val[order[i - 1]])


@ijit
def sort_segment_nb(order, brk, val, k, e):
    """Order the group order[k:e] by val, descending, and split it where val differs."""
    sort_desc_nb(order, k, e, val)
    for i in range(k + 1, e):
        if val[order[i]] != val[order[i - 1]]:
            brk[i] = 1


@ijit
def lots_segment_nb(order, brk, work, k, e, st):
    """Draw lots for the group order[k:e] (a Fisher-Yates shuffle) and split it fully."""
    for i in range(k, e):
        work[i - k] = order[i]
    shuffle_nb(work, e - k, st)
    for i in range(k, e):
        order[i] = work[i - k]
        brk[i] = 1


@ijit
def lots_groups_nb(order, brk, work, p, n, st):
    """Draw lots (``lots_segment_nb``) for every group of two or more in order[p:n], top
    group first: what the criteria left level, ordered and split fully."""
    while p < n:
        e = segment_end_nb(brk, p, n)
        if e - p > 1:
            lots_segment_nb(order, brk, work, p, e, st)
        p = e


@ijit
def move_to_front_nb(order, brk, w):
    """Put player ``w`` (in the top group) first and alone in front of it."""
    p = 0
    while order[p] != w:
        p += 1
    while p > 0:
        order[p] = order[p - 1]
        p -= 1
    order[0] = w
    brk[1] = 1
