"""Prize money of places shared by players who cannot be told apart (plain Python)."""

from __future__ import annotations

from typing import Callable, Sequence


def runs(order: Sequence[int], value: Callable[[int], object]) -> list[list[int]]:
    """``order`` cut into runs of consecutive players with equal ``value``."""
    out: list[list[int]] = []
    for p in order:
        if out and value(out[-1][0]) == value(p):
            out[-1].append(p)
        else:
            out.append([p])
    return out


def shared_money(groups: Sequence[Sequence[int]], place_money: Sequence[float]) -> dict[int, float]:
    """Each group (best first) shares equally the money of the places it covers."""
    out = {}
    pos = 0
    for grp in groups:
        share = sum(place_money[pos + k] if pos + k < len(place_money) else 0.0
                    for k in range(len(grp))) / len(grp)
        for p in grp:
            out[p] = share
        pos += len(grp)
    return out
