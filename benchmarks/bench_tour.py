"""Throughput of whole ACP Tour seasons (scenarios/acp-tour-2004-05.toml, an ILLUSTRATIVE
what-if season under the seed 004 rules): every remaining event game by game, best-5 totals,
the seed's tiebreaks and lots.

Checks before it times: kernel = plain-Python twin on a few hundred seasons, place
distributions sum to 1, qualifiers sum to the qualifying places, and the batch split does not
change the result.  Warm-up excludes compilation.

    python benchmarks/bench_tour.py [--sims N] [--seed S] [--at CHECKPOINT] [--offsets]
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
    ap.add_argument("--sims", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=2005)
    ap.add_argument("--at", default="start")
    ap.add_argument("--offsets", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args(argv)

    from simcycle import driver
    from simcycle.model import load_model
    from simcycle.reference import tour as twin
    from simcycle.scenario import load_scenario

    mod, scn = load_scenario(ROOT / "scenarios" / "acp-tour-2004-05.toml")
    plan = mod.compile(scn, load_model(), a.at, offsets=a.offsets)
    plan.run_batch(a.seed, 0, 1000)  # compile / load the cache

    # check before timing
    k = plan.run_batch(a.seed, 0, 300)
    t = twin.run(plan, a.seed, 0, 300)
    assert all(np.array_equal(k[x], t[x]) for x in ("place", "qualify", "points", "counters")), \
        "kernel and twin differ"
    small = driver.run(plan, 100_000, a.seed, progress=False)
    p = small.tallies["place"] / small.sims
    assert np.allclose(p.sum(axis=1), 1.0) and np.allclose(p.sum(axis=0), 1.0)
    assert small.tallies["qualify"].sum() == plan.qualifying_places * small.sims
    halves = plan.run_batch(a.seed, 0, 50_000)["place"] + plan.run_batch(a.seed, 50_000, 50_000)["place"]
    assert (halves == small.tallies["place"]).all(), "batch split changed the result"

    best = float("inf")
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        driver.run(plan, a.sims, a.seed, progress=False)
        best = min(best, time.perf_counter() - t0)
    rate = a.sims / best
    print(f"acp-tour-2004-05 from {a.at}{' with offsets' if a.offsets else ''}: "
          f"{len(plan.remaining)} events to play, {a.sims:,} seasons in {best:.3f} s = "
          f"{rate:,.0f} seasons/s (threads: {os.environ.get('NUMBA_NUM_THREADS', 'all')}, "
          f"best of {a.repeat})")
    return rate


if __name__ == "__main__":
    main()
