"""Throughput of whole Swiss events: the Grand Swiss 2025 (open), 116 players, from the start
(11 rounds paired by the Dutch kernel and played, then ranked by the FIDE tie-breaks) or from
a checkpoint.  Reports wall-clock events/s and CPU seconds per event (the machine is shared:
CPU time is the figure that does not depend on the other jobs).

Checks before it times: place distributions sum to 1, the qualifiers fill the places,
expected points sum to the points at stake, and the result does not change with the batch
split.  Warm-up excludes compilation.

    python benchmarks/bench_swiss.py [--sims N] [--seed S] [--at CHECKPOINT]
"""

from __future__ import annotations

import time

from _common import generic_checks, options, report, warm_plan


def main(argv=None):
    a = options(argv, sims=100_000, seed=2025)
    _, scn, _, plan = warm_plan("grand-swiss-2025.toml", a)
    small = generic_checks(plan, a.seed, sims=20_000)
    total = small.tallies["points"].sum() / small.sims / 2
    assert abs(total - 58 * scn.n_rounds) < 1e-9, total
    from simcycle import driver
    best, cpu = float("inf"), float("inf")
    for _ in range(a.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        driver.run(plan, a.sims, a.seed, progress=False)
        best = min(best, time.perf_counter() - t0)
        cpu = min(cpu, time.process_time() - c0)
    print(f"CPU time: {cpu:.2f} s = {1e6 * cpu / a.sims:.0f} µs of CPU per event")
    return report("grand-swiss-2025", "events", a, best)


if __name__ == "__main__":
    main()
