"""CPU time of ``whocan`` at every checkpoint of every shipped scenario (in one process, after
a warm-up that loads the compiled enumeration kernel), with the number of undetermined rows and
whether SciPy was imported by then (the scenarios run in the order below, SciPy-free ones
first).  CPU time (``time.process_time``), not wall time: the machine is shared.

Checks first: every row has a status of the vocabulary, and every alive row a path (a Swiss
row with no round published: its rule).

    python benchmarks/bench_whocan.py [--scenario NAME] [--budget NODES]
"""

from __future__ import annotations

import argparse
import sys
import time

from _common import ROOT

SCENARIOS = ["candidates-2022", "acp-tour-2004-05", "grand-prix-2019", "grand-prix-2022",
             "grand-swiss-2025", "cycle-2022"]


def main(argv=None):
    from simcycle.formats.base import WHOCAN
    from simcycle.scenario import load_scenario
    from simcycle.whocan.core import STATUSES

    ap = argparse.ArgumentParser()
    ap.add_argument("--scenario", action="append", default=None)
    ap.add_argument("--budget", type=int, default=None)
    a = ap.parse_args(argv)
    for name in a.scenario or SCENARIOS:
        fmt, scn = load_scenario(ROOT / "scenarios" / f"{name}.toml")
        if WHOCAN not in fmt.features:
            continue
        cps = fmt.checkpoints(scn)
        fmt.whocan(scn, cps[-1], a.budget)       # warm-up
        times, worst, undetermined = [], ("", 0.0), 0
        print(f"{name}: {len(cps)} checkpoints")
        for c in cps:
            t0 = time.process_time()
            d = fmt.whocan(scn, c, a.budget)
            dt = time.process_time() - t0
            rows = [r for rs in d["targets"].values() for r in rs]
            assert all(r["status"] in STATUSES for r in rows)
            # an alive row has a path; a Swiss row without a published round, its rule
            assert all(r["path"] or r.get("rule") for r in rows if r["status"] == "alive")
            und = sum(r["status"] == "undetermined" for r in rows)
            undetermined += und
            times.append(dt)
            if dt > worst[1]:
                worst = (c, dt)
            print(f"  {c:<22}{dt:7.2f} CPU-s" + (f"  {und} undetermined" if und else ""))
        print(f"  all: {sum(times):.1f} CPU-s, median {sorted(times)[len(times) // 2]:.2f} s, "
              f"slowest {worst[0]} {worst[1]:.2f} s, under 1 s: "
              f"{sum(t < 1 for t in times)}/{len(times)}, undetermined rows: {undetermined}, "
              f"SciPy imported: {'scipy' in sys.modules}")


if __name__ == "__main__":
    main()
