"""Plain-Python twin of ``kernels.bracket_nb``: one knock-out bracket walk, used by the twins of
every format with a knock-out (``reference.knockout``, ``reference.groups``).

It draws the same numbers in the same order as ``bracket_nb.walk_nb``: per match in playing
order nothing for a bye or a decided match, else the lot for White when the colours are not
known, then the match's own draws (the ``match`` callable).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..enums import BR_BYE, KO_DECIDED
from .rng import Stream

# match(white, black, known games from White's side) -> match_nb's out[0:6]
Match = Callable[[int, int, list[int]], Sequence[int]]


def walk(match: Match, players: Sequence[int], size: int, kstat, kwin, kstep, kcls, kwhite,
         kfixed, s: Stream):
    """One bracket (the arguments as ``walk_nb``'s, rows per match in playing order; kcls rows
    of 2 or 4). Returns (rec, exit_rd, champion): rec a list per match of (upper position,
    lower position, winner side, step, upper and lower classical half points, upper and
    lower classical wins); exit_rd the round each position's player lost in (the number of
    rounds for the champion, -1 a bye)."""
    alive = list(range(size))
    exit_rd = [-1] * size
    rec = []
    rd = 0
    while len(alive) > 1:
        nxt = []
        for j in range(len(alive) // 2):
            up, dn = alive[2 * j], alive[2 * j + 1]
            f = len(rec)
            if players[up] < 0 or players[dn] < 0:
                res = (1 if players[up] < 0 else 0), BR_BYE, 0, 0, 0, 0
            elif int(kstat[f]) == KO_DECIDED:
                res = _decided(int(kwin[f]), int(kstep[f]), kcls[f])
            else:
                res = _played(match, players[up], players[dn], int(kwhite[f]), kfixed[f], s)
            wside, step, cu, cl, wu, wl = res
            rec.append((up, dn, wside, step, cu, cl, wu, wl))
            w, lo = (up, dn) if wside == 0 else (dn, up)
            if players[lo] >= 0:
                exit_rd[lo] = rd
            nxt.append(w)
        alive = nxt
        rd += 1
    if players[alive[0]] >= 0:
        exit_rd[alive[0]] = rd
    return rec, exit_rd, alive[0]


def _decided(wside: int, step: int, cls) -> tuple:
    """A match decided in the scenario: (winner side, step, upper and lower classical half
    points, upper and lower classical wins; the wins 0 where ``cls`` has 2 columns)."""
    row = [int(x) for x in cls]
    wu, wl = (row[2], row[3]) if len(row) >= 4 else (0, 0)
    return wside, step, row[0], row[1], wu, wl


def _played(match: Match, upper: int, lower: int, white: int, fixed, s: Stream) -> tuple:
    """A match to play between the players ``upper`` and ``lower``: the lot for White when
    ``white`` is -1, then ``match``; the same tuple as :func:`_decided`, from the upper side.
    ``fixed`` is the known games from the upper player's side."""
    if white < 0:
        white = 0 if s.u01() < 0.5 else 1
    pa, pb = (upper, lower) if white == 0 else (lower, upper)
    known = [int(v) if (v < 0 or white == 0) else 2 - int(v) for v in fixed]
    out = [int(x) for x in match(int(pa), int(pb), known)]
    if white == 0:
        return out[0], out[1], out[2], out[3], out[4], out[5]
    return 1 - out[0], out[1], out[3], out[2], out[5], out[4]
