"""Round-robin pairing tables (FIDE Berger tables), for any number of players and cycles.

FIDE Handbook C.05, Annex 1 (Berger tables for round-robin tournaments): the player with the
highest number is fixed; in round k the others pair along the rotation.  For a double round
robin FIDE recommends swapping the last two rounds of the first cycle (so that nobody has three
games in a row with one colour) and playing the second cycle in the *original* order with the
colours reversed (``"berger"``).  Some events instead mirror the already swapped first cycle
(``"berger-mirrored"``; the FIDE Grand Prix 2022 groups of four did).
"""

from __future__ import annotations

CONVENTIONS = ("berger", "berger-mirrored")


def berger_single(n: int) -> list[list[tuple[int, int]]]:
    """One cycle: rounds of (white, black) player indices 0..n-1 (numbers 1..n).

    Odd n gets a bye: pairings against the dummy are dropped."""
    m = n + (n % 2)
    last = m - 1
    rounds = []
    for k in range(m - 1):
        pairs = []
        # the fixed (last) player meets the one with 2a = k (mod m-1); Black in odd rounds
        a = next(x for x in range(m - 1) if (2 * x) % (m - 1) == k)
        pairs.append((a, last) if k % 2 == 0 else (last, a))
        for x in range(m - 1):
            y = (k - x) % (m - 1)
            if x < y and x != a:
                # White is the one whose difference to the other is even (mod m-1)
                pairs.append((x, y) if (x - y) % (m - 1) % 2 == 0 else (y, x))
        rounds.append([(w, b) for w, b in pairs if w < n and b < n])
    return rounds


def berger_rounds(n: int, cycles: int = 1, convention: str = "berger"):
    """Every round of ``cycles`` cycles, as lists of (white, black).

    ``"berger"`` (FIDE): with more than one cycle the last two rounds of the first cycle are
    swapped; every later cycle plays the original order, colours reversed in even cycles.
    ``"berger-mirrored"``: every even cycle mirrors the (swapped) first cycle with colours
    reversed, every odd cycle repeats it."""
    if convention not in CONVENTIONS:
        raise ValueError(f"unknown Berger convention {convention!r}")
    single = berger_single(n)
    first = [list(r) for r in single]
    if cycles > 1 and len(first) >= 2:
        first[-1], first[-2] = first[-2], first[-1]
    rounds: list[list[tuple[int, int]]] = []
    for c in range(cycles):
        if c == 0:
            cyc = first
        elif convention == "berger-mirrored":
            cyc = first if c % 2 == 0 else [[(b, w) for w, b in r] for r in first]
        else:
            cyc = single if c % 2 == 0 else [[(b, w) for w, b in r] for r in single]
        rounds.extend([list(r) for r in cyc])
    return rounds
