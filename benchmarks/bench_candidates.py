"""Throughput of whole Candidates 2022 tournaments (rules and tiebreaks included).

Checks before it times: place distributions sum to 1, the qualifiers fill the places, expected
points sum to the points at stake, and the result does not change with the batch split.
Warm-up excludes compilation.

    python benchmarks/bench_candidates.py [--sims N] [--seed S] [--at CHECKPOINT] [--offsets]
"""

from __future__ import annotations

from _common import best_time, generic_checks, options, report, warm_plan


def main(argv=None):
    a = options(argv, sims=4_000_000, seed=2022)
    _, scn, _, plan = warm_plan("candidates-2022.toml", a)
    small = generic_checks(plan, a.seed)
    total = small.tallies["points"].sum() / small.sims / 2
    assert abs(total - len(scn.games)) < 1e-9, total
    return report("candidates-2022", "tournaments", a, best_time(plan, a))


if __name__ == "__main__":
    main()
