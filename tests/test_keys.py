"""The one key packer (simcycle/kernels/keys.py): a folded key orders as the tuple of its
parts, ties included, and its width is checked."""

import itertools

import numpy as np
import pytest

from simcycle.kernels import keys


def fold(parts, tops):
    return sum(m * v for m, v in zip(keys.multipliers(tops), parts))


def test_key_orders_as_the_tuple_exhaustively():
    tops = (3, 0, 2, 4)      # a zero-width part in the middle too
    vals = list(itertools.product(*(range(t + 1) for t in tops)))
    k = [fold(v, tops) for v in vals]
    assert len(set(k)) == len(vals)                       # distinct tuples, distinct keys
    assert sorted(range(len(vals)), key=lambda i: k[i]) == sorted(
        range(len(vals)), key=lambda i: vals[i])
    assert max(k) == (3 + 1) * (0 + 1) * (2 + 1) * (4 + 1) - 1    # dense: no gaps


def test_horner_bases_give_the_same_key():
    tops = (40, 3, 3, 60)
    base = keys.bases(tops)
    assert base.dtype == np.int64 and list(base) == [4, 4, 61]
    v = (17, 2, 0, 59)
    key = v[0]
    for b, x in zip(base, v[1:]):
        key = key * int(b) + x                 # what rank_nb.pack_nb does step by step
    assert key == fold(v, tops)


def test_width_checked():
    keys.multipliers((1,) * 62)                # largest key 2**62 - 1: below 2**62
    with pytest.raises(keys.KeyWidthError):
        keys.multipliers((1,) * 63)            # 2**63 - 1: too wide
    with pytest.raises(keys.KeyWidthError):
        keys.multipliers((2 ** 27, 2 ** 27), keys.EXACT_LIMIT)
    with pytest.raises(keys.KeyWidthError):
        keys.bases((1, -1))
    assert keys.fits((2 ** 20, 2 ** 20, 2 ** 20, 5)) == 3
    assert keys.fits((5, 2 ** 20, 2 ** 20, 2 ** 20)) == 3
    assert keys.fits((3, 3), 4) == 1
