"""Prize money shared among players level on points, for the twins (plain Python)."""

from __future__ import annotations


def shared_by_points(order, pts, place_money):
    """[money of each player]: the players level on points in ``order`` (best first) share
    equally the money of the places they cover (``place_money[place]``, best place first)."""
    n = len(order)
    money = [0.0] * len(pts)
    k = 0
    while k < n:
        e = k + 1
        while e < n and pts[order[e]] == pts[order[k]]:
            e += 1
        share = sum(float(place_money[p]) for p in range(k, e)) / (e - k)
        for p in range(k, e):
            money[order[p]] = share
        k = e
    return money
