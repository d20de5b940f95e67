"""Whole FIDE Grand Prix 2019 series per second, simulated from `start` (all 60 matches).

Checks before it times: the kernel equals its plain-Python twin on a few hundred replicas, and
every simulated series has exactly 2 qualifiers, one wildcard claimant and one player per place.
Compilation is excluded (a warm-up batch first); the figure is the best of --repeat timed runs.

    .venv/bin/python benchmarks/bench_gp2019.py [--sims N] [--seed S] [--at CHECKPOINT]
                                                [--threads T]
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sims", type=int, default=1 << 20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--at", default="start")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--offsets", action="store_true")
    ap.add_argument("--model", default=None, help="model file (default: the default model)")
    a = ap.parse_args()

    import numba

    from simcycle.driver import BATCH
    from simcycle.formats.base import CompileOptions
    from simcycle.model import load_model
    from simcycle.reference import knockout as ref
    from simcycle.scenario import load_scenario

    if a.threads:
        numba.set_num_threads(a.threads)
    fmt, scn = load_scenario(ROOT / "scenarios" / "grand-prix-2019.toml")
    plan = fmt.compile(scn, load_model(a.model), CompileOptions(at=a.at, offsets=a.offsets))

    # -- correctness first (also the warm-up: compiles the kernel)
    k = 300
    got = plan.run_batch(a.seed, 0, k)
    want = ref.tallies(plan, a.seed, 0, k)
    for key in ("place", "qualify", "wildcard", "points", "points_sq"):
        assert np.array_equal(got[key], want[key]), f"kernel and twin differ in {key}"
    assert np.allclose(got["prize"], want["prize"], rtol=1e-12)
    assert np.all(got["place"].sum(0) == k) and np.all(got["place"].sum(1) == k)
    assert got["qualify"].sum() == 2 * k and got["wildcard"].sum() == k
    print(f"check: kernel == twin on {k} replicas; 2 qualifiers and 1 wildcard claimant per series")

    # -- timing
    best = 0.0
    for rep in range(a.repeat):
        t0 = time.perf_counter()
        done = 0
        while done < a.sims:
            n = min(BATCH, a.sims - done)
            plan.run_batch(a.seed, done, n)
            done += n
        dt = time.perf_counter() - t0
        rate = a.sims / dt
        best = max(best, rate)
        print(f"run {rep + 1}: {a.sims:,} series in {dt:.2f} s = {rate:,.0f} series/s")
    print(f"best: {best:,.0f} series/s  (at={a.at}, offsets={a.offsets}, threads="
          f"{numba.get_num_threads()}, cores={os.cpu_count()}, "
          f"{platform.processor() or platform.machine()}, "
          f"numba {numba.__version__})")


if __name__ == "__main__":
    main()
