"""``whocan.milp.Model.solve``'s probe (issue 18, whocan speed): a question asked with a
small node allowance runs HiGHS with more nodes and keeps the run for a later, larger
allowance.  Its answers and the work it counts must be exactly those of plain runs with the
allowance asked, whatever the order of asks.  Small programs (tens of milliseconds each),
presolve off."""

import numpy as np
import pytest

from simcycle.whocan.core import Work
from simcycle.whocan.milp import Model

N = 12


def _model():
    m = Model(presolve=False)
    for _ in range(N):
        m.var()
    return m


def _market_split(seed):
    """Two equalities sum a_ij x_j = floor(sum_j a_ij / 2), a_ij random in 0..99: small
    market-split programs, which branch-and-bound needs tens of nodes to settle (seed 0: a
    point after 55 nodes, 31 steered; seed 3: none, proved after 49 nodes; HiGHS 1.12)."""
    a = np.random.default_rng(seed).integers(0, 100, (2, N))
    return [({j: int(a[i, j]) for j in range(N)}, int(a[i].sum() // 2), int(a[i].sum() // 2))
            for i in range(2)]


# (extra rows, objective): no point (a proof), points with a zero objective (any point ends
# the search), and the same steered by an objective (HiGHS keeps improving after a point)
PROGRAMS = {
    "no point": (_market_split(3), None),
    "points": (_market_split(0), None),
    "steered": (_market_split(0), {j: j % 7 - 3 for j in range(N)}),
}
LIMITS = (1, 30, None)


def _ask(m, rows, objective, limit, probe=None):
    w = Work(limit)
    s, x = m.solve(rows, (), w, objective, probe)
    return s, None if x is None else tuple(np.asarray(x).tolist()), w.used


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_probe_answers_as_plain_runs(name):
    rows, objective = PROGRAMS[name]
    plain = {lim: _ask(_model(), rows, objective, lim) for lim in LIMITS}
    # the allowance matters: an ask with one node ends otherwise than an unlimited one
    assert plain[1] != plain[None]
    for probe in (10, 200):
        for first in LIMITS:
            m = _model()
            assert _ask(m, rows, objective, first, probe) == plain[first], (probe, first)
            for later in LIMITS:             # the kept run answers, or a plain run does
                assert _ask(m, rows, objective, later, probe) == plain[later], \
                    (probe, first, later)


def test_probe_keeps_one_run_per_program():
    rows, objective = PROGRAMS["no point"]
    m = _model()
    _ask(m, rows, objective, 2, probe=50)
    _ask(m, PROGRAMS["points"][0], None, 2, probe=50)
    assert len(m._runs) == 2
    assert [r[0] for r in m._runs.values()] == [50, 50]
    _ask(m, rows, objective, 2, probe=50)          # asked again: no new run kept
    assert len(m._runs) == 2
