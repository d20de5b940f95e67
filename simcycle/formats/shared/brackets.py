"""Knock-out brackets (plain Python).

A bracket of ``size`` players (a power of two) is a list of positions; round 0 pairs
positions (0, 1), (2, 3), ...; the winner of slot j of a round meets the winner of slot
j ^ 1 in the next.  In a slot the *upper* player comes from the even position or slot, the
*lower* from the odd one.  Slots are numbered in playing order ("flat": round 0 first).
"""

from __future__ import annotations


def bracket_size(n: int) -> int:
    """The knock-out bracket of n players: the next power of two (byes for the top seeds)."""
    size = 1
    while size < n:
        size *= 2
    return size


def seeding_order(size: int) -> list[int]:
    """Seed numbers (0-based) by bracket position: 1 v 16, 8 v 9, 5 v 12, 4 v 13, ... (the
    World Cup pattern: the top two seeds can meet only in the final)."""
    order = [0]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n - 1 - s)]
    return order


def n_rounds(size: int) -> int:
    return size.bit_length() - 1


def round_name(r: int, rounds: int) -> str:
    """"final", "sf", "qf", else "r1", "r2", ... for round r (0-based) of ``rounds``."""
    back = rounds - 1 - r
    return {0: "final", 1: "sf", 2: "qf"}.get(back, f"r{r + 1}")


def round_names(rounds: int) -> list[str]:
    return [round_name(r, rounds) for r in range(rounds)]


def flat_slot(size: int, r: int, j: int) -> int:
    """Index of slot j of round r among all slots of the bracket in playing order."""
    base = 0
    m = size // 2
    for _ in range(r):
        base += m
        m //= 2
    return base + j


def place_value(table, rounds_from_end: int):
    """table = (winner, runner-up, SF losers, QF losers, ...), the last entry repeating;
    rounds_from_end 0 = the winner."""
    return table[min(rounds_from_end, len(table) - 1)]
