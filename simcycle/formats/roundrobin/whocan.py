"""Who can still finish first or qualify in a round robin: the whocan backend (on points).

A player's best case wins all his games and his worst case loses them all (each dominates);
what the other games can give the rivals is a transportation problem, solved as a maximum
flow (scipy.sparse.csgraph.maximum_flow): source -> game (2 half points) -> its two players ->
sink (each player's allowance).  With q places we try every set of q-1 rivals allowed past him
(in) or of q rivals asked to pass him (out).  Keys are points only: players level on points
are "level" (the tiebreak rules decide).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from ...enums import BLACK_WINS, DRAW, RESULT_TEXT, WHITE_WINS
from ...whocan.core import FEASIBLE, INFEASIBLE, LEVEL, OUTRIGHT, PASS
from .rules import SCORE

BIG = 10**6


def _flow(n, games, cap):
    """Max flow of ``games`` [(white, black)] into players with allowance cap[j] (half
    points; BIG = unlimited).  Returns (value, per game (to White, to Black))."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import maximum_flow

    g = len(games)
    size = 2 + g + n
    src, sink = 0, 1 + g + n
    rows, cols, caps = [], [], []
    for k, (w, b) in enumerate(games):
        rows += [src, 1 + k, 1 + k]
        cols += [1 + k, 1 + g + w, 1 + g + b]
        caps += [2, 2, 2]
    for j in range(n):
        rows.append(1 + g + j)
        cols.append(sink)
        caps.append(int(max(cap[j], 0)))
    m = csr_matrix((np.array(caps, np.int32), (rows, cols)), shape=(size, size))
    res = maximum_flow(m, src, sink)
    f = res.flow.toarray()
    return int(res.flow_value), [(int(f[1 + k, 1 + g + w]), int(f[1 + k, 1 + g + b]))
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
        out = [{"round": g.round, "white": self.names[g.white], "black": self.names[g.black],
                "result": RESULT_TEXT[witness[k]]} for k, g in enumerate(self.remaining)]
        return sorted(out, key=lambda r: r["round"])

    def solve(self, x, rivals, q, question, time_limit=None):
        own = [k for k, g in enumerate(self.remaining) if x in (g.white, g.black)]
        rest = [k for k, g in enumerate(self.remaining) if x not in (g.white, g.black)]
        pair = [(self.remaining[k].white, self.remaining[k].black) for k in rest]
        winning = question in (OUTRIGHT, LEVEL)
        base = list(self.pts)
        witness = {}
        for k in own:   # x wins all (in) or loses all (out): each dominates
            g = self.remaining[k]
            x_white = g.white == x
            witness[k] = (WHITE_WINS if x_white else BLACK_WINS) if winning else \
                (BLACK_WINS if x_white else WHITE_WINS)
            sw, sb = SCORE[witness[k]]
            base[g.white] += sw
            base[g.black] += sb
        if winning:
            strict = question == OUTRIGHT
            for free in combinations(rivals, max(q - 1, 0)):
                free = set(free)
                cap = [BIG if (j in free or j == x or j not in rivals)
                       else base[x] - base[j] - (1 if strict else 0) for j in range(self.n)]
                if min(cap) < 0:
                    continue
                value, split = _flow(self.n, pair, cap)
                if value == 2 * len(pair):
                    witness.update({k: _code(fw) for k, (fw, _) in zip(rest, split)})
                    return FEASIBLE, witness
            return INFEASIBLE, None
        strict = question == PASS
        for group in combinations(rivals, q):
            need = [0] * self.n
            for j in group:
                need[j] = max(0, base[x] - base[j] + (1 if strict else 0))
            value, split = _flow(self.n, pair, need)
            if value == sum(need):
                # what the flow leaves unrouted of a game goes to White: more points for a
                # rival never spoils a pass
                witness.update({k: _code(2 - fb) for k, (_, fb) in zip(rest, split)})
                return FEASIBLE, witness
        return INFEASIBLE, None


def _code(white_half_points: int) -> int:
    return {2: WHITE_WINS, 1: DRAW, 0: BLACK_WINS}[white_half_points]
