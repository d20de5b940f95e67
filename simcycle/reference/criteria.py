"""Plain-Python twin of ``kernels/criteria_nb.py``: the FIDE C.07 tie-break criteria over a
crosstable of lists, written as contributions and cuts (the way C.07 words them) rather
than as the kernel's running sums, so the two are independent computations.

A crosstable here is a :class:`~simcycle.kernels.criteria_nb.Crosstable` (or anything with
the same fields) read through ``.tolist()``; values are in the kernel's units.
"""

from __future__ import annotations

import random

from ..enums import (COL_BLACK, RK_FORFEIT_LOSS, RK_FORFEIT_WIN, RK_HALF_BYE, RK_NONE, RK_PAB,
                     RK_PLAYED, RK_ZERO_BYE, TBS_ARO, TBS_ARO_C1, TBS_BLACK_GAMES,
                     TBS_BUCHHOLZ, TBS_BUCHHOLZ_C1, TBS_DIRECT_ENCOUNTER, TBS_LOTS,
                     TBS_PROGRESSIVE, TBS_SONNEBORN_BERGER, TBS_WINS, TBS_WON)

VUR = (RK_HALF_BYE, RK_ZERO_BYE, RK_FORFEIT_LOSS)


class Table:
    """A crosstable as lists: opp, res, kind, colour [player][round], rating [player]."""

    def __init__(self, opp, res, kind, colour, rating, rounds: int):
        self.opp = [list(r) for r in opp]
        self.res = [list(r) for r in res]
        self.kind = [list(r) for r in kind]
        self.colour = [list(r) for r in colour]
        self.rating = list(rating)
        self.rounds = rounds
        n = len(self.opp)
        self.pts = [sum(self.res[i][:rounds]) for i in range(n)]
        self.adj = [self._adjusted(i) for i in range(n)]

    def _adjusted(self, i: int) -> int:
        """C.07 16.3: a requested bye with no later round taken part in counts as a draw."""
        took_part = [r for r in range(self.rounds)
                     if self.kind[i][r] in (RK_PLAYED, RK_PAB, RK_FORFEIT_WIN)]
        last = took_part[-1] if took_part else -1
        total = 0
        for r in range(self.rounds):
            kd = self.kind[i][r]
            total += 1 if kd in (RK_HALF_BYE, RK_ZERO_BYE) and r > last else self.res[i][r]
        return total

    def rounds_of(self, i: int):
        return [r for r in range(self.rounds) if self.kind[i][r] != RK_NONE]

    def contributions(self, i: int) -> list[tuple[int, bool]]:
        """Buchholz contributions (value, from a VUR): a played opponent's adjusted score,
        the dummy's (i's own points) for an unplayed round (C.07 16.4)."""
        out = []
        for r in self.rounds_of(i):
            kd = self.kind[i][r]
            if kd == RK_PLAYED:
                out.append((self.adj[self.opp[i][r]], False))
            else:
                out.append((self.pts[i], kd in VUR))
        return out

    def played_ratings(self, i: int) -> list[int]:
        return [self.rating[self.opp[i][r]] for r in self.rounds_of(i)
                if self.kind[i][r] == RK_PLAYED and self.rating[self.opp[i][r]] > 0]


def _half_up(s: int, c: int) -> int:
    q, rem = divmod(s, c)
    return q + (1 if 2 * rem >= c else 0)


def buchholz(t: Table, i: int, group) -> int:
    return sum(v for v, _ in t.contributions(i))


def buchholz_cut1(t: Table, i: int, group) -> int:
    cs = t.contributions(i)
    if len(cs) < 2:
        return sum(v for v, _ in cs)
    vur = [v for v, f in cs if f]
    return sum(v for v, _ in cs) - (min(vur) if vur else min(v for v, _ in cs))


def aro_cut1(t: Table, i: int, group) -> int:
    rs = sorted(t.played_ratings(i))
    if not rs:
        return 0
    if len(rs) >= 2:
        rs = rs[1:]
    return _half_up(sum(rs), len(rs))


def aro(t: Table, i: int, group) -> int:
    rs = t.played_ratings(i)
    return _half_up(sum(rs), len(rs)) if rs else 0


def direct_encounter(t: Table, i: int, group) -> int:
    group = list(group)
    met = {(x, t.opp[x][r]) for x in group for r in t.rounds_of(x)
           if t.kind[x][r] == RK_PLAYED}
    if any((x, y) not in met for a, x in enumerate(group) for y in group[a + 1:]):
        return 0
    return sum(t.res[i][r] for r in t.rounds_of(i)
               if t.kind[i][r] == RK_PLAYED and t.opp[i][r] in group)


def sonneborn_berger(t: Table, i: int, group) -> int:
    total = 0
    for r in t.rounds_of(i):
        basis = t.adj[t.opp[i][r]] if t.kind[i][r] == RK_PLAYED else t.pts[i]
        total += basis * t.res[i][r]
    return total


def wins(t: Table, i: int, group) -> int:
    return sum(1 for r in t.rounds_of(i) if t.res[i][r] == 2)


def won(t: Table, i: int, group) -> int:
    return sum(1 for r in t.rounds_of(i) if t.kind[i][r] == RK_PLAYED and t.res[i][r] == 2)


def black_games(t: Table, i: int, group) -> int:
    return sum(1 for r in t.rounds_of(i)
               if t.kind[i][r] == RK_PLAYED and t.colour[i][r] == COL_BLACK)


def progressive(t: Table, i: int, group) -> int:
    return sum(sum(t.res[i][: r + 1]) for r in range(t.rounds))


FUNCTIONS = {TBS_BUCHHOLZ: buchholz, TBS_BUCHHOLZ_C1: buchholz_cut1, TBS_ARO_C1: aro_cut1,
             TBS_DIRECT_ENCOUNTER: direct_encounter, TBS_SONNEBORN_BERGER: sonneborn_berger,
             TBS_WINS: wins, TBS_WON: won, TBS_BLACK_GAMES: black_games,
             TBS_PROGRESSIVE: progressive, TBS_ARO: aro}


def rank(t: Table, criteria, rng: random.Random | None = None) -> list[list[int]]:
    """Groups of players (best first) level on points and every criterion; with ``rng``,
    lots split what is left (groups of one)."""
    n = len(t.pts)
    groups = [sorted(range(n), key=lambda i: -t.pts[i])]
    groups = _split(groups, lambda i, g: t.pts[i])
    for code in list(criteria) + ([TBS_LOTS] if rng is not None else []):
        if code == TBS_LOTS:
            if rng is None:
                continue
            out = []
            for g in groups:
                g = list(g)
                rng.shuffle(g)
                out.extend([x] for x in g)
            groups = out
            continue
        f = FUNCTIONS[code]
        groups = _split(groups, lambda i, g, f=f: f(t, i, g))
    return groups


def _split(groups, key):
    out = []
    for g in groups:
        vals = {i: key(i, g) for i in g}
        for v in sorted(set(vals.values()), reverse=True):
            out.append([i for i in g if vals[i] == v])
    return out
