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
