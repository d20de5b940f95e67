"""Throughput of whole Candidates 2022 tournaments (rules and tiebreaks included).

Checks before it times: place distributions sum to 1, expected points sum to the points at
stake, and the result does not change with the batch split.  Warm-up excludes compilation.

    python benchmarks/bench_candidates.py [--sims N] [--seed S] [--at CHECKPOINT] [--offsets]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--sims", type=int, default=4_000_000)
    ap.add_argument("--seed", type=int, default=2022)
    ap.add_argument("--at", default="start")
    ap.add_argument("--offsets", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args(argv)

    from simcycle import driver
    from simcycle.model import load_model
    from simcycle.scenario import load_scenario

    mod, scn = load_scenario(ROOT / "scenarios" / "candidates-2022.toml")
    plan = mod.compile(scn, load_model(), a.at, offsets=a.offsets)
    plan.run_batch(a.seed, 0, 1000)  # compile / load the cache

    # check before timing
    small = driver.run(plan, 100_000, a.seed, progress=False)
    p = small.tallies["place"] / small.sims
    assert np.allclose(p.sum(axis=1), 1.0) and np.allclose(p.sum(axis=0), 1.0)
    total = small.tallies["points"].sum() / small.sims / 2
    assert abs(total - len(scn.games)) < 1e-9, total
    halves = plan.run_batch(a.seed, 0, 50_000)["place"] + plan.run_batch(a.seed, 50_000, 50_000)["place"]
    assert (halves == small.tallies["place"]).all(), "batch split changed the result"

    best = float("inf")
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        driver.run(plan, a.sims, a.seed, progress=False)
        best = min(best, time.perf_counter() - t0)
    rate = a.sims / best
    print(f"candidates-2022 from {a.at}{' with offsets' if a.offsets else ''}: "
          f"{a.sims:,} tournaments in {best:.3f} s = {rate:,.0f} tournaments/s "
          f"(threads: {os.environ.get('NUMBA_NUM_THREADS', 'all')}, best of {a.repeat})")
    return rate


if __name__ == "__main__":
    main()
