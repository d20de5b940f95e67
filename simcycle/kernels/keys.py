"""The one key packer: a ranking by several non-negative integers, the first most significant
(points, then criteria), folded into one integer key, so one stable sort or one comparison
orders by all of them at once.

The fold is mixed-radix: part ``i`` takes values ``0 <= v[i] <= tops[i]`` and the key is
``sum(m[i] * v[i])`` with ``m[-1] = 1`` and ``m[i] = m[i + 1] * (tops[i + 1] + 1)``; two
keys compare as the tuples ``v`` do, ties included.  The width is checked here, once: the
largest key must stay below ``limit`` (``KEY_LIMIT`` for the kernels' int64 keys,
``EXACT_LIMIT`` for keys a MILP holds in float64).

Users: the knock-out series' kernel (``formats/knockout_series``: the leading criteria that
fit, the rest ranked group by group), the group series' kernel (every criterion), and the
whocan MILPs of both series (``formats/*/whocan.py``: one key variable per player, offsets
taken off first).  The kernels fold in Horner form, ``key = key * base[i] + v``
(``rank_nb.pack_nb``), with ``base[i] = tops[i + 1] + 1`` from :func:`bases`.

Plain Python (no numba), so the whocan backends import it without the kernels.
"""

from collections.abc import Sequence

import numpy as np

KEY_LIMIT = 1 << 62      # an int64 kernel key stays below this (room for a sign and a sum)
EXACT_LIMIT = 1 << 53    # a key a MILP solver holds in float64 exactly stays below this


class KeyWidthError(ValueError):
    """The parts of a key do not fit its limit."""


def multipliers(tops: Sequence[int], limit: int = KEY_LIMIT) -> tuple[int, ...]:
    """Each part's multiplier for values ``0 <= v[i] <= tops[i]`` (the first most
    significant); raises :class:`KeyWidthError` when the largest key reaches ``limit``."""
    if any(t < 0 for t in tops):
        raise KeyWidthError(f"a part's largest value is negative: {list(tops)}")
    mult = [1] * len(tops)
    for i in range(len(tops) - 2, -1, -1):
        mult[i] = mult[i + 1] * (tops[i + 1] + 1)
    largest = sum(m * t for m, t in zip(mult, tops))
    if largest >= limit:
        raise KeyWidthError(f"a key of parts up to {list(tops)} reaches {largest}, "
                            f"not below {limit}")
    return tuple(mult)


def fits(tops: Sequence[int], limit: int = KEY_LIMIT) -> int:
    """How many leading parts of ``tops`` fold into one key below ``limit``."""
    for k in range(len(tops), 0, -1):
        try:
            multipliers(tops[:k], limit)
            return k
        except KeyWidthError:
            continue
    return 0


def bases(tops: Sequence[int], limit: int = KEY_LIMIT) -> np.ndarray:
    """int64 [len(tops) - 1]: the kernels' Horner bases (``base[i] = tops[i + 1] + 1``),
    the width checked by :func:`multipliers`."""
    multipliers(tops, limit)
    return np.array([t + 1 for t in tops[1:]], np.int64)
