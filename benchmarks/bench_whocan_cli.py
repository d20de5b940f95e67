"""CPU time of ``simcycle whocan SCENARIO --at CP --json`` as a whole process (start-up,
imports and the search included) at every checkpoint of every shipped scenario whose format
answers whocan, one process per checkpoint: user + sys CPU seconds of the child
(``resource.getrusage(RUSAGE_CHILDREN)``), not wall time, since the machine is shared.

``--out DIR`` keeps each answer as DIR/SCENARIO/CP.json, so two commits' answers can be
compared file by file (``diff -r``); ``--check DIR`` compares against such a folder and
fails on the first difference.

    python benchmarks/bench_whocan_cli.py [--scenario NAME] [--out DIR] [--check DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from pathlib import Path

from _common import ROOT


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main(argv=None):
    from simcycle.formats.base import WHOCAN
    from simcycle.scenario import load_scenario

    ap = argparse.ArgumentParser()
    ap.add_argument("--scenario", action="append", default=None)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--check", type=Path, default=None)
    a = ap.parse_args(argv)
    exe = [sys.executable, "-m", "simcycle"]
    names = a.scenario or sorted(p.stem for p in (ROOT / "scenarios").glob("*.toml"))
    worst_all, over = 0.0, 0
    for name in names:
        fmt, scn = load_scenario(ROOT / "scenarios" / f"{name}.toml")
        if WHOCAN not in fmt.features:
            continue
        cps = fmt.checkpoints(scn)
        times = []
        print(f"{name}: {len(cps)} checkpoints")
        for c in cps:
            t0 = _cpu()
            p = subprocess.run(exe + ["whocan", name, "--at", c, "--json"], capture_output=True,
                               text=True, env={**os.environ, "NUMBA_NUM_THREADS": "1"})
            dt = _cpu() - t0
            if p.returncode:
                sys.exit(f"{name} --at {c}: exit {p.returncode}: {p.stderr.strip()[-300:]}")
            if a.out is not None:
                (a.out / name).mkdir(parents=True, exist_ok=True)
                (a.out / name / f"{c}.json").write_text(p.stdout)
            if a.check is not None:
                want = (a.check / name / f"{c}.json").read_text()
                if want != p.stdout:
                    sys.exit(f"{name} --at {c}: the answer differs from {a.check}")
            times.append(dt)
            print(f"  {c:<22}{dt:6.2f} CPU-s", flush=True)
        slow = max(range(len(cps)), key=lambda i: times[i])
        over += sum(t >= 1 for t in times)
        worst_all = max(worst_all, times[slow])
        print(f"  all: {sum(times):.1f} CPU-s, median {sorted(times)[len(times) // 2]:.2f} s, "
              f"slowest {cps[slow]} {times[slow]:.2f} s, under 1 s: "
              f"{sum(t < 1 for t in times)}/{len(times)}")
    print(f"checkpoints at 1 CPU-s or more: {over}; slowest {worst_all:.2f} CPU-s")


if __name__ == "__main__":
    main()
