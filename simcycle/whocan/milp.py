"""A small mixed-integer-program helper for the whocan backends (HiGHS through ``highspy``).

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
        self._runs: dict = {}     # program -> the run kept for it (see ``solve``'s probe)

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

    def solve(self, extra_rows=(), extra_vars=(), work: Work | None = None, objective=None,
              probe: int | None = None):
        """Any feasible point: (FEASIBLE, x as int64), (INFEASIBLE, None) or (OVER_BUDGET,
        None).  ``work``: the allowance in branch-and-bound nodes (HiGHS ``mip_max_nodes``;
        None = unlimited); the nodes solved (at least one) are spent from it.  No time limit:
        the answer is a function of the program only.  ``objective`` ({variable:
        coefficient}, minimised) only steers the search.

        ``probe``: when the allowance is smaller, HiGHS runs with ``probe`` nodes instead and
        the run is kept: HiGHS is deterministic and a run with a larger node limit passes
        through the same nodes first, so the smaller run's answer is read from it where it
        is certain (:func:`_within`), and a later ask of the same program with an allowance
        up to ``probe`` needs no run.  Where it is not certain the allowance runs as asked;
        answers are the same as without a probe, only cheaper when a program is asked again
        with more nodes (whocan's second pass)."""
        left = None if work is None else work.left()
        if left is not None and left <= 0:
            return OVER_BUDGET, None
        key = (len(self.rows), tuple((tuple(d.items()), lo, hi) for d, lo, hi in extra_rows),
               tuple(extra_vars), tuple((objective or {}).items()))
        zero = not any((objective or {}).values())
        got = _within(self._runs.get(key), left, zero)
        if got is None:
            arrays = self._arrays(extra_rows, extra_vars, objective)
            limit = left if probe is None or left is None else max(left, probe)
            run = (limit, *_highs(*arrays, self.presolve, limit))
            old = self._runs.get(key)
            if old is None or old[0] is not None and (limit is None or limit > old[0]):
                self._runs[key] = run
            got = _within(run, left, zero)
            if got is None:
                got = _highs(*arrays, self.presolve, left)[:3]
        status, x, nodes = got
        if work is not None:
            # settled: the nodes it took (at least the root); stopped at the node limit: the
            # whole allowance
            nodes = max(nodes, 1)
            work.spend(nodes if left is None else min(nodes, left) if status else left)
        if status == INFEASIBLE:
            return INFEASIBLE, None
        if x is not None:                       # a witness: the core replays it
            return FEASIBLE, np.round(x).astype(np.int64)
        return OVER_BUDGET, None

    def _arrays(self, extra_rows, extra_vars, objective):
        """(c, lb, ub, rows, columns, coefficients, row lower, row upper) of the model with
        a question's extra rows and variables."""
        lb = np.array(self.lb + [v[0] for v in extra_vars], float)
        ub = np.array(self.ub + [v[1] for v in extra_vars], float)
        base = self._triplets()
        extra = _triplets(extra_rows, len(self.rows))
        c = np.zeros(len(lb))
        for v, a in (objective or {}).items():
            c[v] += a
        return (c, lb, ub, *(np.concatenate([base[i], extra[i]]) for i in range(5)))


def _within(run, limit: int | None, zero: bool):
    """What HiGHS answers with node limit ``limit`` (None = none), read from a kept ``run``
    (its limit, then ``_highs``'s answer) of the same program, or None when that is not
    certain.  Certain: the same limit; a run that settled before ``limit`` nodes; a run that
    found no point in at least ``limit`` nodes (none in fewer either); with a zero objective
    (any point ends the search) or no point at all, a run that took far more nodes than
    ``limit`` to settle (the smaller run stops first, with nothing)."""
    if run is None:
        return None
    lim, settled, x, reported, nodes = run
    inf = float("inf")
    lim_, limit_ = inf if lim is None else lim, inf if limit is None else limit
    if lim_ == limit_:
        return settled, x, reported
    if settled is not None and nodes < min(limit_, lim_):
        return settled, x, reported
    if lim_ < limit_:
        return None
    if settled is None and x is None:
        return None, None, 0
    if (settled == INFEASIBLE or settled == FEASIBLE and zero) and nodes >= 2 * limit_ + 10:
        return None, None, 0
    return None


# HiGHS's cut handling for every whocan program (deterministic work settings, not time): a
# cut pool of at most 30 cuts (default 10,000) and cuts leaving the LP after 5 rounds unused
# (default 10).  At the Grand Prix 2022's slowest checkpoints the root cut rounds were most of
# the time (benchmarks/README.md, "whocan under a CPU-second: a smaller HiGHS cut pool",
# 2026-12-05): event1-round4 1.36 -> 0.81 CPU-s as a whole command; the status, via and
# at-worst of all 6,416 rows at the 133 shipped checkpoints unchanged, 21 printed paths
# other optima of the same programs.
HIGHS_CUTS = {"mip_pool_soft_limit": 30, "mip_lp_age_limit": 5}


def _highs(c, lb, ub, rows, cols, vals, lo, hi, presolve: bool, node_limit: int | None):
    """Solve the integer program min c.x, lo <= A x <= hi, lb <= x <= ub (A from triplets
    without duplicates) with HiGHS (``highspy``; imported here: it is not needed where whocan
    answers without a program).  Returns (settled, x or None, nodes, count): ``settled`` is
    INFEASIBLE, FEASIBLE (solved) or None (stopped at the node limit); x is a feasible point
    when HiGHS has one; ``nodes`` HiGHS's node count when it returns a point, else 0 (the
    caller counts at least one: a proof that no point exists costs one unit, as before
    whocan called HiGHS directly); ``count`` HiGHS's node count in every case.  The matrix
    goes in by columns, row indices sorted, logging off, the cut settings ``HIGHS_CUTS``."""
    from highspy import _core as h

    n, m = len(lb), len(lo)
    order = np.lexsort((rows, cols))
    start = np.searchsorted(cols[order], np.arange(n + 1)).astype(np.int32)
    lp = h.HighsLp()
    lp.num_col_ = n
    lp.num_row_ = m
    lp.a_matrix_.num_col_ = n
    lp.a_matrix_.num_row_ = m
    lp.a_matrix_.format_ = h.MatrixFormat.kColwise
    lp.col_cost_ = c
    lp.col_lower_ = lb
    lp.col_upper_ = ub
    lp.row_lower_ = lo
    lp.row_upper_ = hi
    lp.a_matrix_.start_ = start
    lp.a_matrix_.index_ = rows[order].astype(np.int32)
    lp.a_matrix_.value_ = vals[order]
    lp.integrality_ = [h.HighsVarType.kInteger] * n
    highs = h._Highs()
    opts = h.HighsOptions()
    opts.log_to_console = False
    opts.output_flag = False
    opts.presolve = "on" if presolve else "off"
    if node_limit is not None:
        opts.mip_max_nodes = int(node_limit)
    for key, value in HIGHS_CUTS.items():
        setattr(opts, key, value)
    highs.passOptions(opts)
    highs.passModel(lp)
    highs.run()
    ms = highs.getModelStatus()
    info = highs.getInfo()
    S = h.HighsModelStatus
    if ms in (S.kInfeasible, S.kModelError):
        return INFEASIBLE, None, 0, int(info.mip_node_count)
    settled = FEASIBLE if ms in (S.kOptimal, S.kUnbounded) else None
    x = None
    if (ms == S.kOptimal or ms in (S.kTimeLimit, S.kIterationLimit, S.kSolutionLimit)
            and info.objective_function_value != h.kHighsInf):
        x = np.array(highs.getSolution().col_value)
    return settled, x, 0 if x is None else int(info.mip_node_count), int(info.mip_node_count)


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
