"""Who can still finish first or qualify in a round robin: the whocan backends.

``EnumerationBackend`` (at most ``ENUMERATE_GAMES`` games left): every outcome of the remaining
games is played through the full rules (``nb.whocan_enumerate_nb``: points, Sonneborn-Berger,
wins, head-to-head in the scenario's order; a play-off or lots leave players "level"), so
every answer is exact; witnesses are replayed through ``rules.place_ranges``.

``FlowBackend`` (more games left), on points.  A player's best case wins all their games and
their worst case loses them all (each dominates); what the other games can give the rivals is a
transportation problem, solved as a maximum flow (``_flow``, plain Python):
source -> game (2 half points) -> its two players -> sink (each player's allowance).  With q
places we try every set of q-1 rivals allowed past him (in) or of q rivals asked to pass him
(out).  Keys are points only: players level on points are "level" (the tiebreak rules decide).
"""

from __future__ import annotations

from collections import deque
from itertools import combinations

import numpy as np


from ...enums import BLACK_WINS, DRAW, RESULT_TEXT, RR_CRITERIA, WHITE_WINS
from ...whocan.core import (FEASIBLE, INFEASIBLE, LEVEL, OUTRIGHT, PASS, PASS_LEVEL,
                            PlaceRanges)
from .rules import SCORE, place_ranges, split_games, table, tally
from .scenario import Game

BIG = 10**6
ENUMERATE_GAMES = 12     # 3^12 = 531,441 outcomes: about a second in numba


def path_of(remaining, names, witness) -> list[dict]:
    out = [{"round": g.round, "white": names[g.white], "black": names[g.black],
            "result": RESULT_TEXT[witness[k]]} for k, g in enumerate(remaining)]
    return sorted(out, key=lambda r: r["round"])


class EnumerationBackend:
    """Every outcome of the remaining games under the full rules; witnesses are lists of
    result codes, one per remaining game."""

    def __init__(self, scn, at, fixed=None):
        from .nb import whocan_enumerate_nb
        from .plan import KernelCrosstable

        self.scn = scn
        n = len(scn.players)
        played, self.remaining = split_games(scn, at, fixed)
        self.played = played
        self.pts, self.wins, self.res = tally(n, played)
        self.forced = (scn.playoff_winner if scn.playoff_winner is not None and
                       not self.remaining else None)
        steps = np.array([RR_CRITERIA[c] for c in scn.order], np.int64)
        leaves = 3 ** len(self.remaining)
        self.best = np.empty((leaves, n), np.int16)
        self.worst = np.empty((leaves, n), np.int16)
        xt = KernelCrosstable(scn, played, self.remaining)
        whocan_enumerate_nb(xt.crosstable(),
                            np.array([g.white for g in self.remaining], np.int64),
                            np.array([g.black for g in self.remaining], np.int64),
                            xt.gsw, xt.gsb, steps,
                            np.int64(-1 if self.forced is None else self.forced),
                            self.best, self.worst)
        m = len(self.remaining)
        # results of every leaf: digit g of the leaf index in base 3 (one byte each, stored
        # by game: every reader takes one game's column)
        idx = np.arange(leaves, dtype=np.int64 if leaves >= 2**31 else np.int32)
        self.results = np.empty((leaves, m), np.int8, order="F")
        for k in range(m):
            self.results[:, k] = (idx // 3 ** k) % 3
        self.draws = (self.results == DRAW).sum(axis=1)       # drawn games, leaf by leaf
        self._mine = {}       # x -> (x's half points, x's drawn games), leaf by leaf

    def leaves_where(self, x, q, question):
        b, w = self.best[:, x], self.worst[:, x]
        return {OUTRIGHT: w < q, LEVEL: b < q, PASS_LEVEL: w >= q, PASS: b >= q}[question]

    def bounds(self):
        return None

    def seeds(self, x):
        return ()

    def solve(self, x, rivals, q, question, work=None):
        """The witness shown is the most natural one: x scoring as much as he can (as little,
        for the questions of missing the target) and as many other games drawn as possible."""
        hits = self.leaves_where(x, q, question)
        if not hits.any():
            return INFEASIBLE, None
        own = [k for k, g in enumerate(self.remaining) if x in (g.white, g.black)]
        if x not in self._mine:
            self._mine[x] = (_own_points(self, x, own),
                             sum((self.results[:, k] == DRAW for k in own),
                                 np.zeros(len(self.draws), np.int64)))
        sign = 1 if question in (OUTRIGHT, LEVEL) else -1
        mine, own_draws = self._mine[x]
        # the first leaf of the highest score among the hits (the leaves in index order),
        # the score computed on the hits only
        at = np.flatnonzero(hits)
        score = sign * mine[at] * 1000 + (self.draws[at] - own_draws[at])
        best = int(at[np.argmax(score)])
        return FEASIBLE, [int(c) for c in self.results[best]]

    def keys(self, witness) -> PlaceRanges:
        """Place ranges after the remaining games end as ``witness``, by the standings code."""
        n = len(self.pts)
        games = self.played + [Game(g.round, g.white, g.black, code)
                               for g, code in zip(self.remaining, witness)]
        ranges = place_ranges(self.scn, table(self.scn, games), self.forced)
        return PlaceRanges(enumerate(ranges)) if n else PlaceRanges()

    def path(self, witness, x) -> list[dict]:
        return path_of(self.remaining, self.scn.names, witness)

    def words(self, witness, x) -> list[str]:
        return []      # the sentences come from every outcome at once (``says``)


def _flow(n, games, cap):
    """Max flow of ``games`` [(white, black)] into players with allowance cap[j] (half
    points; BIG = unlimited).  Returns (value, per game (to White, to Black)).

    Edmonds-Karp on the small network source -> game (2 half points) -> its two players ->
    sink (each player's allowance), in plain Python: a few dozen games, no SciPy needed."""
    g = len(games)
    src, sink = 0, 1 + g + n
    res: dict[int, dict[int, int]] = {v: {} for v in range(sink + 1)}

    def edge(a, b, c):
        res[a][b] = res[a].get(b, 0) + c
        res[b].setdefault(a, 0)

    for k, (w, b) in enumerate(games):
        edge(src, 1 + k, 2)
        edge(1 + k, 1 + g + w, 2)
        edge(1 + k, 1 + g + b, 2)
    for j in range(n):
        edge(1 + g + j, sink, int(max(cap[j], 0)))
    value = 0
    while True:
        prev = {src: src}
        q = deque([src])
        while q and sink not in prev:
            a = q.popleft()
            for b, c in res[a].items():
                if c > 0 and b not in prev:
                    prev[b] = a
                    q.append(b)
        if sink not in prev:
            break
        push, b = BIG, sink
        while b != src:
            push = min(push, res[prev[b]][b])
            b = prev[b]
        b = sink
        while b != src:
            res[prev[b]][b] -= push
            res[b][prev[b]] += push
            b = prev[b]
        value += push
    # what went through each game edge: its reverse residual
    return value, [(res[1 + g + w][1 + k], res[1 + g + b][1 + k])
                   for k, (w, b) in enumerate(games)]


class FlowBackend:
    """Remaining games of a round robin; witnesses are {game index: result code}."""

    def __init__(self, n: int, pts, remaining, names):
        self.n = n
        self.pts = list(pts)
        self.remaining = list(remaining)          # Game records
        self.names = names

    # -- the backend protocol --------------------------------------------------------------
    def bounds(self):
        lo = {j: (self.pts[j],) for j in range(self.n)}
        hi = {j: (self.pts[j] + 2 * sum(1 for g in self.remaining if j in (g.white, g.black)),)
              for j in range(self.n)}
        return lo, hi

    def seeds(self, x):
        return ()

    def keys(self, witness) -> dict:
        pts = list(self.pts)
        for k, g in enumerate(self.remaining):
            sw, sb = SCORE[witness[k]]
            pts[g.white] += sw
            pts[g.black] += sb
        return {j: (pts[j],) for j in range(self.n)}

    def path(self, witness, x) -> list[dict]:
        return path_of(self.remaining, self.names, [witness[k] for k in range(len(self.remaining))])

    def words(self, witness, x) -> list[str]:
        return []      # the sentences on points come from ``flow_says``

    def solve(self, x, rivals, q, question, work=None):
        own = [k for k, g in enumerate(self.remaining) if x in (g.white, g.black)]
        rest = [k for k, g in enumerate(self.remaining) if x not in (g.white, g.black)]
        pair = [(self.remaining[k].white, self.remaining[k].black) for k in rest]
        winning = question in (OUTRIGHT, LEVEL)
        base = list(self.pts)
        witness = {}
        for k in own:   # x wins all (in) or loses all (out): each dominates
            g = self.remaining[k]
            x_white = g.white == x
            witness[k] = (WHITE_WINS if x_white == winning else BLACK_WINS)
            sw, sb = SCORE[witness[k]]
            base[g.white] += sw
            base[g.black] += sb
        found = (self._in(x, rivals, q, question == OUTRIGHT, base, pair) if winning
                 else self._out(x, rivals, q, question == PASS, base, pair))
        if found is None:
            return INFEASIBLE, None
        witness.update({k: _code(h) for k, h in zip(rest, found)})
        return FEASIBLE, witness

    def _in(self, x, rivals, q, strict, base, pair):
        """White's half points per game of a result set with x in (ahead of all but q-1
        rivals, strictly with ``strict``), or None."""
        for free in combinations(rivals, max(q - 1, 0)):
            free = set(free)
            cap = [BIG if (j in free or j == x or j not in rivals)
                   else base[x] - base[j] - (1 if strict else 0) for j in range(self.n)]
            if min(cap) < 0:
                continue
            value, split = _flow(self.n, pair, cap)
            if value == 2 * len(pair):
                return [fw for fw, _ in split]
        return None

    def _out(self, x, rivals, q, strict, base, pair):
        """White's half points per game of a result set with q rivals at or above x
        (strictly with ``strict``), or None."""
        for group in combinations(rivals, q):
            need = [0] * self.n
            for j in group:
                need[j] = max(0, base[x] - base[j] + (1 if strict else 0))
            value, split = _flow(self.n, pair, need)
            if value == sum(need):
                # what the flow leaves unrouted of a game goes to White: more points for a
                # rival never spoils a pass
                return [2 - fb for _, fb in split]
        return None


def _code(white_half_points: int) -> int:
    return {2: WHITE_WINS, 1: DRAW, 0: BLACK_WINS}[white_half_points]


# ---- in plain words -----------------------------------------------------------------------------
def _half(h: int) -> str:
    whole, half = divmod(h, 2)
    return (str(whole) if whole or not half else "") + ("½" if half else "") + (
        " point" if h <= 2 else " points")


def _other_text(names, g, got) -> str:
    w, b, r = names[g.white], names[g.black], f"(round {g.round})"
    return {frozenset({WHITE_WINS}): f"{w} to beat {b} {r}",
            frozenset({BLACK_WINS}): f"{b} to beat {w} {r}",
            frozenset({DRAW}): f"{w} and {b} to draw {r}",
            frozenset({WHITE_WINS, DRAW}): f"{w} not to lose against {b} {r}",
            frozenset({BLACK_WINS, DRAW}): f"{b} not to lose against {w} {r}",
            frozenset({WHITE_WINS, BLACK_WINS}): f"no draw between {w} and {b} {r}",
            }[frozenset(got)]


def _and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _own_games(names, rem, own, x) -> str:
    opp = [names[rem[k].black if rem[k].white == x else rem[k].white] for k in own]
    rounds = [rem[k].round for k in own]
    if len(own) == 1:
        return f"against {opp[0]} in round {rounds[0]}"
    return "from their last games (" + ", ".join(f"round {r} v {o}" for r, o in
                                              zip(rounds, opp)) + ")"


def _own_points(backend: EnumerationBackend, x: int, own: list[int]) -> np.ndarray:
    """x's half points from his own remaining games, leaf by leaf."""
    got = backend.__dict__.get("_mine", {}).get(x)
    if got is not None:
        return got[0]
    res, rem = backend.results, backend.remaining
    mine = np.zeros(res.shape[0], np.int64)
    for k in own:
        col = res[:, k]
        mine += (col == DRAW) + 2 * (col == (WHITE_WINS if rem[k].white == x else BLACK_WINS))
    return mine


def _count(mine, where, top) -> np.ndarray:
    """Per number u of half points from his own games (0..top): the leaves where ``where``
    holds and he scores u."""
    return np.bincount(mine[where], minlength=top + 1)


def _clinch_line(mine, sure, top, single, games, target) -> list[str]:
    """The fewest points from his own games that clinch whatever else happens."""
    word = {2: "a win", 1: "a draw", 0: "a loss"}
    unsure = _count(mine, ~sure, top)           # leaves with u points that do not clinch
    clinch = [t for t in range(top + 1) if not unsure[t:].any()]
    if not clinch:
        return []
    t = clinch[0]
    what = (("at least " if t < top else "") + word[t]) if single else \
        f"{_half(t)}" + ("" if t == top else " or more")
    return [f"clinches {target} with {what} {games}"]


def _need_line(mine, can, top, single, games) -> tuple[list[str], int]:
    """The fewest points from his own games that keep him in it."""
    reach = _count(mine, can, top)
    need = min(t for t in range(top + 1) if reach[t])
    if need == 0:
        return [], need
    what = ("a win" if need == 2 else "at least a draw") if single else \
        (f"at least {_half(need)}" if need < top else f"{_half(need)}")
    return [f"needs {what} {games}"], need


def _others_line(backend, others, can, sure, best_own, lead) -> list[str]:
    """The other games' results he needs (each necessary; together sufficient or not)."""
    res, names, rem = backend.results, backend.scn.names, backend.remaining
    at = np.flatnonzero(can)
    conds = [(k, got) for k in others
             if len(got := {c for c, n in enumerate(np.bincount(res[at, k], minlength=3))
                            if n}) < 3]
    lines = []
    if conds:
        ok = np.ones(res.shape[0], bool)
        for k, got in conds:
            ok &= np.isin(res[:, k], list(got))
        enough = bool(can[best_own & ok].all())
        lines.append(lead + _and([_other_text(names, rem[k], got) for k, got in conds])
                     + ("" if enough else ", with other results going their way"))
    if not (can & sure).any():
        lines.append("even then only level: a play-off or lots decide")
    return lines


def _why(backend: EnumerationBackend, x: int, q: int, clinched: bool) -> str:
    """The reason on points alone when there is one a reader can check by hand, else what
    the answer rests on (every outcome of the games left under the full rules)."""
    nm, pts = backend.scn.names, backend.pts
    rem = backend.remaining
    top = {j: pts[j] + 2 * sum(1 for g in rem if j in (g.white, g.black))
           for j in range(len(pts))}
    others = [j for j in range(len(pts)) if j != x]
    if clinched:
        best = sorted((top[j] for j in others), reverse=True)
        if len(best) < q or best[q - 1] < pts[x]:
            return (f": {_half(pts[x])} already, and no rival can reach more than "
                    f"{_half(best[0])}" if q == 1 else
                    f": {_half(pts[x])} already, and at most {q - 1} rivals can reach as many")
    else:
        ahead = sorted((j for j in others if pts[j] > top[x]), key=lambda j: -pts[j])
        if len(ahead) >= q:
            return (f": {_half(top[x])} at most, and "
                    + _and([f"{nm[j]} already has {_half(pts[j])}" for j in ahead[:q]]))
    return f" (every outcome of the {len(rem)} games left played out on the full rules)"


def says(backend: EnumerationBackend, x: int, q: int, target: str) -> list[str]:
    """What player x needs, as a commentator says it: how many points from his own games
    clinch the target or keep him in it, and which other games must go his way."""
    rem = backend.remaining
    own = [k for k, g in enumerate(rem) if x in (g.white, g.black)]
    others = [k for k in range(len(rem)) if k not in own]
    can = backend.best[:, x] < q
    sure = backend.worst[:, x] < q
    if sure.all():
        return [f"has clinched {target}" + _why(backend, x, q, True)]
    if not can.any():
        return [f"can no longer reach {target}" + _why(backend, x, q, False)]
    if not own:
        return _others_line(backend, others, can, sure, np.ones(can.shape[0], bool), "needs ")
    mine = _own_points(backend, x, own)
    top = 2 * len(own)
    games = _own_games(backend.scn.names, rem, own, x)
    single = len(own) == 1
    lines = _clinch_line(mine, sure, top, single, games, target)
    need_lines, need = _need_line(mine, can, top, single, games)
    lines += need_lines
    if not sure[mine == top].all():
        lines += _others_line(backend, others, can, sure, mine == top,
                              "and " if need > 0 else "needs ")
    return lines


def flow_says(backend: FlowBackend, x: int, q: int, target: str, row: dict,
              tiebreaks: str) -> list[str]:
    """A row of the points-only search in words: what is exact (points) said as such, what
    the tie-break rules would decide said as such (``tiebreaks``: the scenario's order)."""
    rem = backend.remaining
    n = sum(1 for g in rem if x in (g.white, g.black))
    lo, hi = backend.bounds()
    top, now = _half(hi[x][0]), _half(backend.pts[x])
    games = f"{n} game" + ("" if n == 1 else "s")
    rivals = "a rival" if q == 1 else f"{q} rivals"
    st = row["status"]
    if st == "clinched":
        return [f"has clinched {target} on points: even losing all {games} left "
                f"({now} in all), fewer than {q} rival(s) can reach that score"]
    if st == "eliminated":
        return [f"can no longer reach {target}: even winning all {games} left ({top} in "
                f"all), {rivals} finish ahead on points whatever else happens"]
    if st != "alive":
        return []
    out = [f"exact on points: can reach {top} (all {games} left won)"]
    if row["via"] == "outright":
        out.append(f"can take {target} ahead on points, e.g. with the {len(rem)} results of "
                   "the path (--json)")
    else:
        out.append(f"at best level on points for {target}: then {tiebreaks} decide")
    if row["at_worst"] == "tiebreak":
        out.append(f"cannot be passed on points: at worst level, and {tiebreaks} decide")
    return out
