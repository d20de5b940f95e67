"""What every benchmark script shares: its options, loading a warmed-up plan, the generic checks
(place distributions, qualifiers, batch split) and the timing loop.  Each script adds its own
format-specific checks before it times."""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def options(argv, *, sims: int, seed: int, at: str = "start"):
    ap = argparse.ArgumentParser()
    ap.add_argument("--sims", type=int, default=sims)
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--at", default=at)
    ap.add_argument("--offsets", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--model", default=None,
                    help="model file (default: the default model); a side-by-side run against a "
                         "commit with another default model needs the same file on both sides")
    return ap.parse_args(argv)


def warm_plan(scenario: str, a):
    """(format, scenario, model, plan) with numba compiled or loaded from its cache."""
    from simcycle.formats.base import CompileOptions
    from simcycle.model import load_model
    from simcycle.scenario import load_scenario

    fmt, scn = load_scenario(ROOT / "scenarios" / scenario)
    model = load_model(a.model)
    plan = fmt.compile(scn, model, CompileOptions(at=a.at, offsets=a.offsets))
    plan.run_batch(a.seed, 0, 1000)
    return fmt, scn, model, plan


def generic_checks(plan, seed: int, sims: int = 100_000):
    """Place distributions sum to 1, qualifiers fill the places, a batch split changes nothing.
    Returns the checked run."""
    from simcycle import driver

    small = driver.run(plan, sims, seed, progress=False)
    p = small.tallies["place"] / small.sims
    rows = p.sum(axis=1)
    assert np.allclose(rows[rows > 0], 1.0) and np.allclose(p.sum(axis=0), 1.0)
    assert small.tallies["qualify"].sum() == plan.info.qualifying_places * small.sims
    half = sims // 2
    split = (plan.run_batch(seed, 0, half)["place"]
             + plan.run_batch(seed, half, sims - half)["place"])
    assert (split == small.tallies["place"]).all(), "batch split changed the result"
    return small


def best_time(plan, a) -> float:
    from simcycle import driver

    best = float("inf")
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        driver.run(plan, a.sims, a.seed, progress=False)
        best = min(best, time.perf_counter() - t0)
    return best


def report(label: str, unit: str, a, seconds: float, extra: str = "") -> float:
    rate = a.sims / seconds
    print(f"{label} from {a.at}{' with offsets' if a.offsets else ''}: {extra}"
          f"{a.sims:,} {unit} in {seconds:.3f} s = {rate:,.0f} {unit}/s "
          f"(threads: {os.environ.get('NUMBA_NUM_THREADS', 'all')}, best of {a.repeat})")
    return rate
