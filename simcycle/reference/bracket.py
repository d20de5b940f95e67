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
            cu = cl = wu = wl = 0
            if players[up] < 0 or players[dn] < 0:
                wside, step = (1 if players[up] < 0 else 0), BR_BYE
            elif int(kstat[f]) == KO_DECIDED:
                wside, step = int(kwin[f]), int(kstep[f])
                row = [int(x) for x in kcls[f]]
                cu, cl = row[0], row[1]
                if len(row) >= 4:
                    wu, wl = row[2], row[3]
            else:
                wh = int(kwhite[f])
                if wh < 0:
                    wh = 0 if s.u01() < 0.5 else 1
                pa, pb = (players[up], players[dn]) if wh == 0 else (players[dn], players[up])
                fixed = [int(v) if (v < 0 or wh == 0) else 2 - int(v) for v in kfixed[f]]
                out = [int(x) for x in match(int(pa), int(pb), fixed)]
                step = out[1]
                if wh == 0:
                    wside, cu, cl, wu, wl = out[0], out[2], out[3], out[4], out[5]
                else:
                    wside, cu, cl, wu, wl = 1 - out[0], out[3], out[2], out[5], out[4]
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
