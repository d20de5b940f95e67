"""Throughput of the FIDE cycle 2022 (the Grand Prix 2022 into the Candidates 2022, one chain
per replica) against the Grand Prix 2022 alone from the same checkpoint, in one process (the
issue's target: the cycle at least half the series' own rate; the Candidates adds 56 games to
the Grand Prix's ~180).

Checks before it times: every replica seats 8 and crowns one, the fixed seats are certain, and
the result does not change with the batch split.  Warm-up calls exclude compilation.  Times
are CPU seconds of this process (run it with NUMBA_NUM_THREADS=1 on a busy machine).

    python benchmarks/bench_cycle.py [--sims N] [--seed S] [--at GP-CHECKPOINT] [--offsets]
"""

from __future__ import annotations

import time

from _common import ROOT, options, report


def best_cpu(plan, a) -> float:
    """Best CPU time (this process) of ``a.repeat`` runs: on a shared machine the CPU time of a
    one-thread run (NUMBA_NUM_THREADS=1) is what the kernel costs, wall time is the load."""
    from simcycle import driver

    best = float("inf")
    for _ in range(a.repeat):
        t0 = time.process_time()
        driver.run(plan, a.sims, a.seed, progress=False)
        best = min(best, time.process_time() - t0)
    return best


def main(argv=None):
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
    gplan = gfmt.compile(gp, model.for_kind(gp.kind), CompileOptions(at=a.at,
                                                                      offsets=a.offsets))
    plan.run_batch(a.seed, 0, 1000)
    gplan.run_batch(a.seed, 0, 1000)
    small = driver.run(plan, 20_000, a.seed, progress=False)
    assert small.tallies["qualify"].sum() == 8 * small.sims
    assert small.tallies["place"][:, 0].sum() == small.sims
    nepo = plan.info.names.index("Ian Nepomniachtchi")
    assert small.tallies["qualify"][nepo] == small.sims
    half = small.sims // 2
    split = (plan.run_batch(a.seed, 0, half)["place"]
             + plan.run_batch(a.seed, half, small.sims - half)["place"])
    assert (split == small.tallies["place"]).all(), "batch split changed the result"
    a_gp = options([*(argv or []), "--sims", str(a.sims)], sims=a.sims, seed=a.seed, at=a.at)
    rate_gp = report("grand-prix-2022", "series", a_gp, best_cpu(gplan, a_gp))
    a.at = at_c
    rate = report("cycle-2022", "cycles", a, best_cpu(plan, a))
    print(f"cycle / Grand Prix rate: {rate / rate_gp:.2f} (target >= 0.5)")
    return rate


if __name__ == "__main__":
    main()
