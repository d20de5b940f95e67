"""Fixed start-up cost of a simulation: process start to the first batch, warm cache.

Runs ``simcycle simulate SCENARIO --sims 1`` (one replica: nothing but start-up) several times
per shipped scenario after one warm-up run (which loads or fills numba's on-disk cache) and
prints the median and minimum wall time, then the same split into its phases in one process
(imports, loading the scenario and model, compiling the plan, the first batch).

    python benchmarks/bench_startup.py [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ["candidates-2022", "grand-prix-2019", "grand-prix-2022", "acp-tour-2004-05"]

PHASES = """
import sys, time
t0 = time.perf_counter()
import numpy, numba
from simcycle.formats.base import CompileOptions
from simcycle.model import load_model
from simcycle.scenario import load_scenario
t1 = time.perf_counter()
fmt, scn = load_scenario(sys.argv[1]); model = load_model(scn.model_file)
t2 = time.perf_counter()
plan = fmt.compile(scn, model, CompileOptions())
t3 = time.perf_counter()
plan.run_batch(1, 0, 1)
t4 = time.perf_counter()
print(f"{t1 - t0:.3f} {t2 - t1:.3f} {t3 - t2:.3f} {t4 - t3:.3f}")
"""


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args(argv)
    py = sys.executable
    print(f"{'scenario':<20}{'median s':>10}{'min s':>8}   phases (median s): imports, load, "
          "compile, first batch")
    for name in SCENARIOS:
        f = str(ROOT / "scenarios" / f"{name}.toml")
        cmd = [py, "-m", "simcycle", "simulate", f, "--sims", "1"]
        subprocess.run(cmd, check=True, capture_output=True)           # warm the cache
        walls = []
        for _ in range(a.repeat):
            t = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            walls.append(time.perf_counter() - t)
        phases = [list(map(float, subprocess.run([py, "-c", PHASES, f], check=True,
                                                 capture_output=True, text=True).stdout.split()))
                  for _ in range(a.repeat)]
        med = [statistics.median(p[k] for p in phases) for k in range(4)]
        print(f"{name:<20}{statistics.median(walls):10.3f}{min(walls):8.3f}   "
              + "  ".join(f"{x:.3f}" for x in med))


if __name__ == "__main__":
    main()
