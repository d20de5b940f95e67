"""Numba code over arrays: prize money shared by points.

Where an event's rules share prizes by points (the Candidates' and the Grand Swiss' prize
funds where the regulations say so, the Grand Prix series' overall prizes), players level on
points share equally the money of the places they hold.  The one loop every format calls.
"""

from .config import ijit


@ijit
def share_by_points_nb(place_prize, n, order, pts, prize, add):
    """Each run of positions k .. e-1 level on points gets the mean of place_prize[k:e].

    place_prize  float64 [>= n]: the money of each place, 0 = first
    n            int64: players ranked
    order        int64 [n]: the player at each position, best first
    pts          [players]: the points the sharing goes by (integer half-points or floats)
    prize        float64 [players]: written, or added to when ``add``
    add          bool: add to ``prize`` (a second prize fund) instead of writing it
    """
    share_paid_nb(place_prize, n, n, order, pts, prize, add)


@ijit
def share_paid_nb(place_prize, n, paid, order, pts, prize, add):
    """:func:`share_by_points_nb` for the runs that start among the first ``paid`` positions
    only (the arguments as there).  With ``add`` and place_prize[paid:n] all 0 the result is
    the same: a later run's share is 0.0, and adding 0.0 leaves the money as it was.

    paid         int64: runs starting at positions 0 .. paid-1 are shared (n: all of them)
    """
    k = 0
    while k < paid:
        e = k + 1
        while e < n and pts[order[e]] == pts[order[k]]:
            e += 1
        s = 0.0
        for p in range(k, e):
            s += place_prize[p]
        s /= e - k
        for p in range(k, e):
            if add:
                prize[order[p]] += s
            else:
                prize[order[p]] = s
        k = e
