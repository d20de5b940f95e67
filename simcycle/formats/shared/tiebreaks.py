"""Ordering players group by group, as tiebreak rules do (plain Python).

An ordering is a list of groups, best first; players in one group are still level.  A
criterion splits every group of two or more by a value (higher is better), keeping the
groups' order.  :class:`Splits` remembers which criterion separated two neighbours, so that a
table can say why one player stands above another.
"""

from __future__ import annotations

from typing import Callable, Hashable


def split(groups: list[list[int]], value: Callable[[int, list[int]], Hashable]) -> list[list[int]]:
    """Split each group by ``value(player, group)``, higher first; members keep their order."""
    out = []
    for g in groups:
        if len(g) == 1:
            out.append(g)
            continue
        vals = {p: value(p, g) for p in g}
        for v in sorted(set(vals.values()), reverse=True):
            out.append([p for p in g if vals[p] == v])
    return out


class Splits:
    """Groups refined criterion by criterion, recording what separated each neighbour pair."""

    def __init__(self, groups: list[list[int]]):
        self.groups = [list(g) for g in groups]
        self.reason: dict[int, tuple[str, int]] = {}   # player -> (criterion, player below)

    def by(self, name: str, value: Callable[[int, list[int]], Hashable]) -> None:
        new = []
        for g in self.groups:
            parts = split([g], value)
            for a, b in zip(parts, parts[1:]):
                self.reason[a[-1]] = (name, b[0])
            new.extend(parts)
        self.groups = new

    def first_apart(self, winner: int, name: str) -> None:
        """Put ``winner`` alone in front of the top group (a play-off already decided)."""
        g = self.groups[0]
        if winner in g and len(g) > 1:
            rest = [p for p in g if p != winner]
            self.groups = [[winner], rest] + self.groups[1:]
            self.reason[winner] = (name, rest[0])

    @property
    def order(self) -> list[int]:
        return [p for g in self.groups for p in g]
