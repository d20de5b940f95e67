"""A small mixed-integer-program helper for the whocan backends (scipy's HiGHS).

Backends build their remaining results as integer variables and linear rows once per
checkpoint (:class:`Model`, :class:`Lin`); :func:`ask` adds one question about keys (packed
into one integer per player) and looks for any feasible point."""

from __future__ import annotations

import numpy as np

from .core import FEASIBLE, INFEASIBLE, LEVEL, OUTRIGHT, OVER_BUDGET, PASS, Work


class Lin:
    """A linear expression: {variable: coefficient} + constant."""

    __slots__ = ("c", "k")

    def __init__(self, c=None, k=0):
        self.c = dict(c or {})
        self.k = k

    def add(self, other, f=1) -> "Lin":
        if isinstance(other, Lin):
            for v, a in other.c.items():
                self.c[v] = self.c.get(v, 0) + f * a
            self.k += f * other.k
        else:
            self.k += f * other
        return self

    def value(self, x) -> int:
        return self.k + sum(a * x[v] for v, a in self.c.items())


class Model:
    """Integer variables with bounds and rows lo <= expression <= hi.

    ``presolve``: HiGHS presolve (off pays where a feasible point is found at the root in a
    few milliseconds and presolve takes ten times that, e.g. the knock-out series)."""

    def __init__(self, presolve: bool = True):
        self.presolve = presolve
        self.lb: list[float] = []
        self.ub: list[float] = []
        self.rows: list[tuple[dict, float, float]] = []
        self._cache = None

    def var(self, lo=0, hi=1) -> int:
        self.lb.append(lo)
        self.ub.append(hi)
        return len(self.lb) - 1

    def row(self, e: Lin, lo, hi) -> None:
        self.rows.append((dict(e.c), lo - e.k, hi - e.k))

    def _triplets(self):
        """The rows as sparse triplets and bounds, built once per row count (every question
        adds its few rows to the same model)."""
        if self._cache is None or self._cache[0] != len(self.rows):
            self._cache = (len(self.rows), _triplets(self.rows, 0))
        return self._cache[1]

    def solve(self, extra_rows=(), extra_vars=(), work: Work | None = None, objective=None):
        """Any feasible point: (FEASIBLE, x as int64), (INFEASIBLE, None) or (OVER_BUDGET,
        None).  ``work``: the allowance in branch-and-bound nodes (HiGHS ``mip_max_nodes``;
        None = unlimited); the nodes solved (at least one) are spent from it.  No time limit:
        the answer is a function of the program only.  ``objective`` ({variable:
        coefficient}, minimised) only steers the search."""
        from scipy.optimize import Bounds, LinearConstraint, milp
        from scipy.sparse import csr_matrix

        lb = np.array(self.lb + [v[0] for v in extra_vars], float)
        ub = np.array(self.ub + [v[1] for v in extra_vars], float)
        base = self._triplets()
        extra = _triplets(extra_rows, len(self.rows))
        A = csr_matrix((np.concatenate([base[2], extra[2]]),
                        (np.concatenate([base[0], extra[0]]),
                         np.concatenate([base[1], extra[1]]))),
                       shape=(len(self.rows) + len(extra_rows), len(lb)))
        lo = np.concatenate([base[3], extra[3]])
        hi = np.concatenate([base[4], extra[4]])
        opts = {"presolve": self.presolve}
        left = None if work is None else work.left()
        if left is not None:
            if left <= 0:
                return OVER_BUDGET, None
            opts["node_limit"] = int(left)
        c = np.zeros(len(lb))
        for v, a in (objective or {}).items():
            c[v] += a
        res = milp(c, integrality=np.ones(len(lb)), bounds=Bounds(lb, ub),
                   constraints=LinearConstraint(A, lo, hi), options=opts)
        if work is not None:
            # settled: the nodes it took (at least the root); stopped at the node limit (HiGHS
            # "solution limit", which scipy reports as status 1 or 4): the whole allowance
            nodes = max(int(getattr(res, "mip_node_count", 0) or 0), 1)
            settled = res.status in (0, 2, 3)
            work.spend(nodes if left is None else min(nodes, left) if settled else left)
        if res.x is not None and res.status != 2:      # a witness: the core replays it
            return FEASIBLE, np.round(res.x).astype(np.int64)
        if res.status == 2:
            return INFEASIBLE, None
        return OVER_BUDGET, None


def _triplets(rows, first: int):
    """(row indices, columns, coefficients, lower bounds, upper bounds) of ``rows``
    numbered from ``first``."""
    r, c, a = [], [], []
    for i, (d, _, _) in enumerate(rows):
        for v, x in d.items():
            if x:
                r.append(first + i)
                c.append(v)
                a.append(x)
    return (np.array(r, np.int64), np.array(c, np.int64), np.array(a, float),
            np.array([x[1] for x in rows], float), np.array([x[2] for x in rows], float))


def question_rows(model: Model, key: dict, x: int, rivals, q: int, question: str, big: int):
    """Extra variables and rows asking ``question`` about the packed keys ``key`` (player ->
    Lin): one indicator per rival (big-M ``big`` > the range of any key difference)."""
    extra_vars, rows = [], []
    n0 = len(model.lb)
    ys = []
    for j in rivals:
        y = n0 + len(extra_vars)
        extra_vars.append((0, 1))
        ys.append(y)
        d = Lin(key[j].c, key[j].k).add(key[x], -1)       # key_j - key_x
        if question in (OUTRIGHT, LEVEL):
            # y = 0 forces key_j - key_x <= -1 (outright) or <= 0 (level)
            rhs = (-1 if question == OUTRIGHT else 0) - d.k
            rows.append(({**d.c, y: -big}, -np.inf, rhs))
        else:
            # y = 1 forces key_j - key_x >= 1 (pass) or >= 0 (pass_level)
            rhs = (1 if question == PASS else 0) - d.k - big
            rows.append(({**d.c, y: -big}, rhs, np.inf))
    card = {y: 1 for y in ys}
    rows.append((card, -np.inf, q - 1) if question in (OUTRIGHT, LEVEL) else (card, q, np.inf))
    return extra_vars, rows
