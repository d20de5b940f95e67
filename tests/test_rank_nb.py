"""kernels/rank_nb.py: the counting sort of a whole table (``sort_all_nb``) against the
stable insertion sort it replaces (``start_order_nb`` then ``sort_segment_nb``)."""

import numpy as np

from simcycle.kernels.rank_nb import sort_all_nb, sort_segment_nb, start_order_nb


def _both(val):
    n = val.shape[0]
    want_order = np.empty(n, np.int64)
    want_brk = np.empty(n, np.int64)
    start_order_nb(want_order, want_brk, n)
    sort_segment_nb(want_order, want_brk, val, 0, n)
    got_order = np.full(n, -1, np.int64)
    got_brk = np.full(n, -1, np.int64)
    sort_all_nb(got_order, got_brk, val, n)
    return (want_order, want_brk), (got_order, got_brk)


def test_sort_all_is_the_stable_sort_with_its_groups():
    rng = np.random.default_rng(14)                 # fixed seed: 2,000 tables
    for _ in range(2000):
        n = int(rng.integers(1, 30))
        hi = int(rng.choice([2, 5, 1000]))          # many, some or few level values
        val = rng.integers(-hi, hi, n).astype(np.int64)
        want, got = _both(val)
        assert np.array_equal(got[0], want[0]), val
        assert np.array_equal(got[1], want[1]), val


def test_sort_all_by_hand():
    val = np.array([3, 7, 3, 9, 7], np.int64)       # players 1 and 4 level, 0 and 2 level
    order = np.empty(5, np.int64)
    brk = np.empty(5, np.int64)
    sort_all_nb(order, brk, val, 5)
    assert order.tolist() == [3, 1, 4, 0, 2]        # ties keep the players' order
    assert brk.tolist() == [1, 1, 0, 1, 0]
