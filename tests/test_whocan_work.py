"""whocan's answers are a function of the input only (issue 18): its budgets count work
(solver nodes), never time, so a slowed process gives the same answers, ``undetermined``
rows included.

The slowing is a patched clock: every reading of ``time.monotonic``, ``time.perf_counter``,
``time.time`` and ``time.process_time`` jumps 1,000 s ahead, so a wall-clock or CPU-time
budget anywhere in the whocan path would run out at once.  HiGHS's own clock is not patched,
but whocan never passes it a time limit.
"""

import itertools
import time

import pytest
from conftest import SCENARIOS

from simcycle.formats.group_series import FORMAT as GS
from simcycle.formats.knockout_series import FORMAT as KS
from simcycle.scenario import load_scenario


@pytest.fixture(scope="module")
def gp2022():
    return load_scenario(SCENARIOS / "grand-prix-2022.toml")[1]


def _answers(d):
    return {t: [(r["name"], r["status"], r["via"], r["at_worst"], r["path"]) for r in rows]
            for t, rows in d["targets"].items()}


def _slowed(monkeypatch):
    tick = itertools.count()
    for name in ("monotonic", "perf_counter", "time", "process_time"):
        real = getattr(time, name)
        monkeypatch.setattr(time, name,
                            lambda real=real: real() + 1000.0 * next(tick))


def test_budget_counts_work_not_time(gp2022, monkeypatch):
    # a budget small enough to leave rows undetermined: which rows, and every other answer,
    # are the same in a slowed process
    at = "event2-round5"
    fast = _answers(GS.whocan(gp2022, at, budget=6))
    assert any(r[1] == "undetermined" for rows in fast.values() for r in rows)
    assert any(r[1] == "eliminated" for rows in fast.values() for r in rows)
    _slowed(monkeypatch)
    assert _answers(GS.whocan(gp2022, at, budget=6)) == fast


def test_grand_prix_2022_checkpoints_slowed(gp2022, monkeypatch):
    # every Grand Prix 2022 checkpoint, default budget: the same answers slowed and not, and
    # none undetermined
    cps = GS.checkpoints(gp2022)
    fast = {c: _answers(GS.whocan(gp2022, c)) for c in cps}
    for c, d in fast.items():
        assert all(r[1] != "undetermined" for rows in d.values() for r in rows), c
    _slowed(monkeypatch)
    for c in cps:
        assert _answers(GS.whocan(gp2022, c)) == fast[c], c


def test_knockout_series_slowed(monkeypatch):
    scn = load_scenario(SCENARIOS / "grand-prix-2019.toml")[1]
    at = "event3"
    fast = _answers(KS.whocan(scn, at))
    small = _answers(KS.whocan(scn, at, budget=3))
    assert any(r[1] == "undetermined" for rows in small.values() for r in rows)
    _slowed(monkeypatch)
    assert _answers(KS.whocan(scn, at)) == fast
    assert _answers(KS.whocan(scn, at, budget=3)) == small
