"""Numba code over arrays: adding one replica's final order to its chunk's tally rows."""

import numpy as np

from .config import ijit


@ijit
def tally_order_nb(c, order, n, n_qual, score, place_out, qual_out, pts_out, pts2_out):
    """Player order[p] finished in place p: count the place, the qualification (p < n_qual)
    and the player's score (sum and sum of squares) in row c."""
    for p in range(n):
        i = order[p]
        place_out[c, i, p] += 1
        if p < n_qual:
            qual_out[c, i] += 1
        x = np.float64(score[i])
        pts_out[c, i] += x
        pts2_out[c, i] += x * x
