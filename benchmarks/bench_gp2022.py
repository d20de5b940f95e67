"""Throughput of whole FIDE Grand Prix 2022 series (3 events: groups, play-offs, knock-outs,
series tiebreaks and lots), from any checkpoint.

Checks before it times: the replay (--at event3) gives the seed's final table (Nakamura 23
points and 42,000 euros), every simulated series pays 450,000 and has exactly 2 qualifiers,
place distributions sum to 1, the kernel equals its plain-Python twin on a few hundred
replicas, and the result does not change with the batch split.  A warm-up call excludes
numba compilation.

    python benchmarks/bench_gp2022.py [--sims N] [--seed S] [--at CHECKPOINT] [--offsets]
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
    from simcycle.reference.groups import simulate_series
    from simcycle.scenario import load_scenario

    model = load_model()
    mod, scn = load_scenario(ROOT / "scenarios" / "grand-prix-2022.toml")
    plan = mod.compile(scn, model, a.at, offsets=a.offsets)
    plan.run_batch(a.seed, 0, 1000)  # compile / load the cache

    # check before timing
    replay = mod.compile(scn, model, "event3")
    r = driver.run(replay, 2000, a.seed, progress=False)
    naka = replay.names.index("Hikaru Nakamura")
    assert r.tallies["place"][naka, 0] == 2000 and r.tallies["prize"][naka] == 42_000 * 2000
    assert r.tallies["points"][naka] == 23 * 6 * 2000  # points are tallied in sixths
    small = driver.run(plan, 100_000, a.seed, progress=False)
    p = small.tallies["place"] / small.sims
    assert np.allclose(p.sum(axis=1)[p.sum(axis=1) > 0], 1.0) and np.allclose(p.sum(axis=0), 1.0)
    assert small.tallies["qualify"].sum() == 2 * small.sims
    assert abs(small.tallies["prize"].sum() / small.sims - 450_000) < 1e-6
    k = plan.run_batch(a.seed, 0, 200)
    t = simulate_series(plan.args, a.seed, 0, 200)
    assert (k["place"] == t["place"]).all() and np.allclose(k["prize"], t["prize"]), "kernel != twin"
    halves = plan.run_batch(a.seed, 0, 50_000)["place"] + plan.run_batch(a.seed, 50_000, 50_000)["place"]
    assert (halves == small.tallies["place"]).all(), "batch split changed the result"

    best = float("inf")
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        driver.run(plan, a.sims, a.seed, progress=False)
        best = min(best, time.perf_counter() - t0)
    rate = a.sims / best
    print(f"grand-prix-2022 from {a.at}{' with offsets' if a.offsets else ''}: "
          f"{a.sims:,} series in {best:.3f} s = {rate:,.0f} series/s "
          f"(threads: {os.environ.get('NUMBA_NUM_THREADS', 'all')}, best of {a.repeat})")
    return rate


if __name__ == "__main__":
    main()
