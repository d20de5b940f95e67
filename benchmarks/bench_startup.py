"""Fixed start-up cost of a simulation: process start to the first batch, warm cache.

Runs ``simcycle simulate SCENARIO --sims 1`` (one replica: nothing but start-up) several times
per shipped scenario after one warm-up run (which loads or fills numba's on-disk cache) and
prints the median and minimum wall time, then the same split into its phases in one process
(imports, loading the scenario and model, compiling the plan, the first batch).

``--against-bare`` instead times, in CPU seconds (user + system of the child, so a loaded
machine counts what the command itself did), three commands in turn, round after round: a bare
``python -c "import numpy, numba"``, ``simcycle simulate candidates-2022 --sims 1`` with
simcycle's bytecode written (what an installed simcycle does: ``pip install`` writes it), and
the same with ``PYTHONDONTWRITEBYTECODE=1`` and no bytecode of simcycle's (every module
compiled from source, as on a machine that sets it); it prints each median and the median of
the round-by-round ratios to the bare import.

    python benchmarks/bench_startup.py [--repeat N] [--against-bare]
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
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


def _cpu(cmd, env) -> float:
    """CPU seconds (user + system) of one run of ``cmd``."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def _drop_bytecode() -> None:
    for d, _, files in os.walk(ROOT / "simcycle"):
        for f in files:
            if f.endswith(".pyc"):
                os.unlink(os.path.join(d, f))


def against_bare(repeat: int) -> None:
    py = sys.executable
    sim = [py, "-c", "from simcycle.cli import run; run()", "simulate", "candidates-2022",
           "--sims", "1"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    no_bc = dict(env, PYTHONDONTWRITEBYTECODE="1")
    subprocess.run(sim, check=True, capture_output=True, env=no_bc)     # warm numba's cache
    t = {"bare": [], "bytecode": [], "no bytecode": []}
    for _ in range(repeat):
        t["bare"].append(_cpu([py, "-c", "import numpy, numba"], no_bc))
        compileall.compile_dir(str(ROOT / "simcycle"), quiet=1)
        t["bytecode"].append(_cpu(sim, no_bc))
        _drop_bytecode()
        t["no bytecode"].append(_cpu(sim, no_bc))
    print(f"CPU seconds, {repeat} rounds (bare import, with bytecode, without), load "
          f"{os.getloadavg()[0]:.1f}")
    print(f"{'command':<42}{'median':>8}{'ratio to bare: median (min-max)':>36}")
    for k, v in t.items():
        r = [x / y for x, y in zip(v, t["bare"])]
        name = "python -c 'import numpy, numba'" if k == "bare" else f"simulate --sims 1, {k}"
        print(f"{name:<42}{statistics.median(v):8.3f}{statistics.median(r):>16.2f} "
              f"({min(r):.2f}-{max(r):.2f})")


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--against-bare", action="store_true")
    a = ap.parse_args(argv)
    if a.against_bare:
        against_bare(a.repeat)
        return
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
