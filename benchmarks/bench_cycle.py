"""Throughput of the FIDE cycle 2022 (the Grand Prix 2022 into the Candidates 2022, one chain
per replica) against the Grand Prix 2022 alone from the same checkpoint, in one process (the
issue's target: the cycle at least half the series' own rate; the Candidates adds 56 games to
the Grand Prix's ~180).

The final's games read their thresholds by player id from the pool's table (the default); the
same plan switched to the live path (each game priced from the ratings, as before the table)
is timed in the same process, alternating, for a side-by-side figure: both are one kernel
specialisation, so nothing compiles between them.

Checks before it times: every replica seats 8 and crowns one, the fixed seats are certain, the
result does not change with the batch split, and the table and the live path give the same
tallies.  Warm-up calls exclude compilation.  Times are CPU seconds of this process (run it
with NUMBA_NUM_THREADS=1 on a busy machine).

    python benchmarks/bench_cycle.py [--sims N] [--seed S] [--at GP-CHECKPOINT] [--offsets]
                                     [--only {all,table,live}]
"""

from __future__ import annotations

import sys
import time

import numpy as np
from _common import ROOT, options, report


def cpu(plan, a) -> float:
    """CPU time (this process) of one run: on a shared machine the CPU time of a one-thread
    run (NUMBA_NUM_THREADS=1) is what the kernel costs, wall time is the load."""
    from simcycle import driver

    t0 = time.process_time()
    driver.run(plan, a.sims, a.seed, progress=False)
    return time.process_time() - t0


def live_twin(plan):
    """A copy of the cycle plan whose final runs on the live path (same numba types)."""
    import copy

    twin = copy.copy(plan)
    twin.fa = plan.fa._replace(live=True)
    twin.c = plan.c._replace(thr=np.zeros((0, 0, 0, 2)))
    return twin


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    only = "all"
    if "--only" in argv:
        k = argv.index("--only")
        only = argv[k + 1]
        del argv[k:k + 2]
    a = options(argv, sims=1_000_000, seed=2022)
    from simcycle import driver
    from simcycle.formats.base import CompileOptions
    from simcycle.model import load_model
    from simcycle.scenario import load_scenario

    model = load_model(a.model)
    fmt, cyc = load_scenario(ROOT / "scenarios" / "cycle-2022.toml")
    gfmt, gp = load_scenario(ROOT / "scenarios" / "grand-prix-2022.toml")
    at_c = a.at if a.at == "start" else "gp-" + a.at
    plan = fmt.compile(cyc, model, CompileOptions(at=at_c, offsets=a.offsets))
    live = live_twin(plan)
    gplan = gfmt.compile(gp, model.for_kind(gp.kind), CompileOptions(at=a.at,
                                                                      offsets=a.offsets))
    plan.run_batch(a.seed, 0, 1000)
    gplan.run_batch(a.seed, 0, 1000)
    if only != "all":       # one side only, for a whole-process side-by-side timer
        report(f"cycle-2022 ({only})", "cycles", a, cpu(plan if only == "table" else live, a))
        return None
    small = driver.run(plan, 20_000, a.seed, progress=False)
    assert small.tallies["qualify"].sum() == 8 * small.sims
    assert small.tallies["place"][:, 0].sum() == small.sims
    nepo = plan.info.names.index("Ian Nepomniachtchi")
    assert small.tallies["qualify"][nepo] == small.sims
    half = small.sims // 2
    split = (plan.run_batch(a.seed, 0, half)["place"]
             + plan.run_batch(a.seed, half, small.sims - half)["place"])
    assert (split == small.tallies["place"]).all(), "batch split changed the result"
    twin = driver.run(live, 20_000, a.seed, progress=False)
    assert all(np.array_equal(small.tallies[k], twin.tallies[k]) for k in small.tallies)
    best = {"gp": float("inf"), "table": float("inf"), "live": float("inf")}
    for _ in range(a.repeat):           # alternating, best of each
        best["gp"] = min(best["gp"], cpu(gplan, a))
        best["table"] = min(best["table"], cpu(plan, a))
        best["live"] = min(best["live"], cpu(live, a))
    rate_gp = report("grand-prix-2022", "series", a, best["gp"])
    a.at = at_c
    rate = report("cycle-2022 (final from the pool's table)", "cycles", a, best["table"])
    rate_live = report("cycle-2022 (final on the live path)", "cycles", a, best["live"])
    print(f"cycle / Grand Prix rate: {rate / rate_gp:.2f} (target >= 0.5); "
          f"live path: {rate_live / rate_gp:.2f}; table / live: {rate / rate_live:.3f}")
    return rate


if __name__ == "__main__":
    main()
