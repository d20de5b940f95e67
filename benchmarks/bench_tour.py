"""Throughput of whole ACP Tour seasons (scenarios/acp-tour-2004-05.toml, an ILLUSTRATIVE
what-if season under the ACP Tour 2004-2005 regulations): every remaining event game by game,
best-5 totals, the regulations' tiebreaks and lots.

Checks before it times: kernel = plain-Python twin on a few hundred seasons, place
distributions sum to 1, qualifiers sum to the qualifying places, and the batch split does not
change the result.  Warm-up excludes compilation.

    python benchmarks/bench_tour.py [--sims N] [--seed S] [--at CHECKPOINT] [--offsets]
"""

from __future__ import annotations

import numpy as np
from _common import best_time, generic_checks, options, report, warm_plan


def main(argv=None):
    a = options(argv, sims=1_000_000, seed=2005)
    from simcycle.reference import tour as twin

    _, _, _, plan = warm_plan("acp-tour-2004-05.toml", a)
    # check before timing
    k = plan.run_batch(a.seed, 0, 300)
    t = twin.run(plan, a.seed, 0, 300)
    assert all(np.array_equal(k[x], t[x]) for x in ("place", "qualify", "points", "counters")), \
        "kernel and twin differ"
    generic_checks(plan, a.seed)
    return report("acp-tour-2004-05", "seasons", a, best_time(plan, a),
                  f"{len(plan.remaining)} events to play, ")


if __name__ == "__main__":
    main()
