"""Throughput of whole FIDE Grand Prix 2022 series (3 events: groups, play-offs, knock-outs,
series tiebreaks and lots), from any checkpoint.

Checks before it times: the replay (--at event3) gives the final table of Russian Wikipedia,
"Гран-при ФИДЕ 2022" (Nakamura 23 points and 42,000 euros), every simulated series pays 450,000
and has exactly 2 qualifiers, place distributions sum to 1, the kernel equals its plain-Python
twin on a few hundred replicas, and the result does not change with the batch split.  A warm-up
call excludes numba compilation.

    python benchmarks/bench_gp2022.py [--sims N] [--seed S] [--at CHECKPOINT] [--offsets]
"""

from __future__ import annotations

import numpy as np
from _common import best_time, generic_checks, options, report, warm_plan


def main(argv=None):
    a = options(argv, sims=4_000_000, seed=2022)
    from simcycle import driver
    from simcycle.formats.base import CompileOptions
    from simcycle.reference.groups import simulate_series

    mod, scn, model, plan = warm_plan("grand-prix-2022.toml", a)
    # check before timing: the replay gives the final table of Russian Wikipedia, "Гран-при
    # ФИДЕ 2022"
    replay = mod.compile(scn, model, CompileOptions(at="event3"))
    r = driver.run(replay, 2000, a.seed, progress=False)
    naka = replay.info.names.index("Hikaru Nakamura")
    assert r.tallies["place"][naka, 0] == 2000 and r.tallies["prize"][naka] == 42_000 * 2000
    assert r.tallies["points"][naka] == 23 * 6 * 2000  # points are tallied in sixths
    small = generic_checks(plan, a.seed)
    assert abs(small.tallies["prize"].sum() / small.sims - 450_000) < 1e-6
    k = plan.run_batch(a.seed, 0, 200)
    t = simulate_series(plan.args, a.seed, 0, 200)
    assert (k["place"] == t["place"]).all(), "kernel != twin"
    assert np.allclose(k["prize"], t["prize"]), "kernel != twin"
    return report("grand-prix-2022", "series", a, best_time(plan, a))


if __name__ == "__main__":
    main()
