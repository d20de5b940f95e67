"""The batch driver: interruption keeps what finished (partial=True; see test_faults.py),
target-se stops early, batches add up."""

import numpy as np

from simcycle import driver
from simcycle.formats.base import Plan, PlanInfo


class CoinPlan(Plan):
    """Two players, one coin flip per replica (deterministic in the replica index)."""
    info = PlanInfo(names=("A", "B"), ratings=np.array([2700.0, 2700.0]), n_places=2,
                    points_scale=1.0, qualifying_places=1)

    def __init__(self, stop_after=None):
        self.calls = 0
        self.stop_after = stop_after

    def run_batch(self, seed, first, n):
        self.calls += 1
        if self.stop_after is not None and self.calls > self.stop_after:
            raise KeyboardInterrupt
        r = np.arange(first, first + n)
        a_wins = ((r * 2654435761 + seed) >> 7) % 2 == 0
        k = int(a_wins.sum())
        place = np.array([[k, n - k], [n - k, k]], np.int64)
        pts = np.array([k, n - k], float)
        return {"place": place, "qualify": place[:, 0].copy(), "points": pts, "points_sq": pts,
                "prize": np.zeros(2), "prize_sq": np.zeros(2)}


def test_interrupted_run_reports_finished_batches():
    plan = CoinPlan(stop_after=2)
    res = driver.run(plan, 10 * driver.BATCH, 1, progress=False, partial=True)
    assert res.interrupted and res.sims == 2 * driver.BATCH
    assert res.tallies["place"].sum() == 2 * res.sims   # two players, one place each
    p = res.players()
    assert abs(p[0]["p_first"] + p[1]["p_first"] - 1) < 1e-12


def test_target_se_stops_at_the_first_batch_that_meets_it():
    res = driver.run(CoinPlan(), 1, 1, target_se=0.002, progress=False)
    # p ~ 1/2 needs n > 0.25 / 0.002^2 = 62,500: the first batch of 65,536 is enough
    assert res.sims == driver.BATCH and not res.interrupted
    assert res.max_se() < 0.002


def test_batches_sum_exactly():
    plan = CoinPlan()
    whole = driver.run(plan, 3 * driver.BATCH + 17, 5, progress=False)
    assert whole.sims == 3 * driver.BATCH + 17
    parts = sum(plan.run_batch(5, s, n)["place"] for s, n in
                [(0, driver.BATCH), (driver.BATCH, 2 * driver.BATCH + 17)])
    assert (whole.tallies["place"] == parts).all()


class SmallBatchPlan(CoinPlan):
    """The same coin flips, asking the driver for batches of 1,000 (as the Swiss asks for
    1,024: its replicas are costly)."""
    info = PlanInfo(names=("A", "B"), ratings=np.array([2700.0, 2700.0]), n_places=2,
                    points_scale=1.0, qualifying_places=1, batch=1000)


def test_a_plan_sets_its_batch_size_and_the_result_does_not_change():
    small, default = SmallBatchPlan(), CoinPlan()
    a = driver.run(small, 5 * 1000 + 3, 7, progress=False)
    b = driver.run(default, 5 * 1000 + 3, 7, progress=False)
    assert small.calls == 6 and default.calls == 1       # 5 whole batches and 3 replicas
    assert a.sims == b.sims == 5003
    assert all((a.tallies[k] == b.tallies[k]).all() for k in b.tallies)
    # interrupted, it keeps whole batches of the plan's size
    c = driver.run(SmallBatchPlan(stop_after=2), 5003, 7, progress=False, partial=True)
    assert c.interrupted and c.sims == 2000


def test_the_swiss_plan_asks_for_small_batches():
    from simcycle.formats.swiss.plan import SWISS_BATCH
    from simcycle.kernels.config import CHUNK
    assert SWISS_BATCH < driver.BATCH and SWISS_BATCH % CHUNK == 0 and SWISS_BATCH >= 2 * CHUNK
