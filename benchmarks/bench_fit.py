"""Time of `simcycle fit` on all the shipped games (data/games/games.csv): reading and checking
the CSV, the maximum-likelihood fit of the classical and rapid parameters with the kind terms,
and the form spread per class; and the same as a whole process (`simcycle fit`, imports
included).

Checks before it times: the fit converges (gradient near 0 at the optimum), its standard
errors are finite and positive, and a second fit from the first fit's parameters lands on the
same optimum.

    python benchmarks/bench_fit.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import numpy as np

from _common import ROOT


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args(argv)

    from simcycle.model.fit import fit, form_spread, loglik, _design
    from simcycle.model.gamedata import read_games

    games = read_games()
    res = fit(games)
    sel = games.take(games.where(controls=set(res.classes)))
    _, grad = loglik(res.theta, _design(sel, res.classes, res.kinds, res.reference), 1)
    assert np.max(np.abs(grad)) < 1e-3, grad
    free = np.diag(res.cov) > 0
    assert np.all(np.isfinite(res.se)) and free.sum() == len(res.names), res.names
    again = fit(games, start=res)
    assert np.allclose(again.theta, res.theta, atol=1e-6)

    best = float("inf")
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        g = read_games()
        r = fit(g)
        for c in r.classes:
            form_spread(g, r, c)
        best = min(best, time.perf_counter() - t0)
    cli = float("inf")
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "simcycle.cli", "fit", "--json"], cwd=ROOT,
                       check=True, capture_output=True)
        cli = min(cli, time.perf_counter() - t0)
    n = sum(res.n_games.values())
    print(f"fit on data/games/games.csv ({n:,} games, {len(res.names)} parameters, "
          f"{res.iterations} iterations): read + fit + form spread {best:.3f} s in process; "
          f"`simcycle fit --json` {cli:.2f} s wall (best of {a.repeat}; "
          f"threads: {os.environ.get('NUMBA_NUM_THREADS', 'all')})")
    return best, cli


if __name__ == "__main__":
    main()
