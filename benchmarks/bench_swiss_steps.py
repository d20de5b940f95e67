"""Not a timing: where the Swiss pairing kernel's search steps go.  Builds an instrumented copy
of ``simcycle/kernels/dutch_nb.py`` (in a temporary folder; the package is not touched) whose
``search_nb`` counts, per budget attempt (``att`` = 0 .. 11: the order in which the budgets
are tried at one colour budget, ``dutch_nb.budget_nb``) and per kind of bracket (with or without
moved-down players), the calls and steps that found a pairing, that proved there is none, and
that stopped at their step bound; then re-pairs the round states of simulated Grand Swiss 2025
events (``bench_swiss_same.play``) with it.

    python benchmarks/bench_swiss_steps.py [--events 200] [--at start] [--seed 7] [--uncapped]

``--uncapped`` raises both step bounds to 3*10^6 and counts apart the attempts that took more
than 500 steps (``found>500``, ``none>500``): are the attempts the bound stops feasible?
(Uncapped, the pairings and so the later brackets differ from the kernel's.)
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

BIG = 3_000_000


def _sub(src: str, old: str, new: str) -> str:
    assert old in src, f"the kernel changed: {old!r} not found"
    return src.replace(old, new)


def instrumented(uncapped: bool):
    """The instrumented module: ``pair_round_nb(..., cnt)`` with cnt int64 [2, 12, 5, 2]:
    [moved-down players or not, attempt, outcome (found, none, capped, found>500, none>500),
    (calls, steps)]."""
    src = (ROOT / "simcycle" / "kernels" / "dutch_nb.py").read_text()
    src = _sub(src, "from ..enums", "from simcycle.enums")
    src = _sub(src, "from .config import bjit, ijit, jit",
               "from simcycle.kernels.config import bjit, ijit\nfrom numba import njit as jit")
    if uncapped:
        src = _sub(src, "STEP_CAP = 4000 ", f"STEP_CAP = {BIG} ")
        src = _sub(src, "FLOAT_CAP = 500 ", f"FLOAT_CAP = {BIG} ")
    for old, new in (("            cnt = 0\n", "            cnt_ = 0\n"),
                     ("if cnt == p:", "if cnt_ == p:"), ("cnt += 1", "cnt_ += 1")):
        src = _sub(src, old, new)        # the search's own counter, renamed
    src = _sub(src, "def search_nb(s, m, n_mdp, lower, last, big, f0, g0):",
               "def search_nb(s, m, n_mdp, lower, last, big, f0, g0, cnt):")
    rec = ("{i}h = 1 if n_mdp > 0 else 0\n{i}cnt[h, att, {o}, 0] += 1\n"
           "{i}cnt[h, att, {o}, 1] += steps\n"
           "{i}if steps > 500 and {o} < 2:\n{i}    cnt[h, att, 3 + {o}, 0] += 1\n"
           "{i}    cnt[h, att, 3 + {o}, 1] += steps\n")
    src = _sub(src, "                if steps > cap:\n                    break",
               "                if steps > cap:\n" + rec.format(i=" " * 20, o=2)
               + "                    break")
    src = _sub(src, "                    depth -= 1\n                    if depth < 0:\n"
               "                        break",
               "                    depth -= 1\n                    if depth < 0:\n"
               + rec.format(i=" " * 24, o=1) + "                        break")
    src = _sub(src, "                if nxt < 0:\n                    return True",
               "                if nxt < 0:\n" + rec.format(i=" " * 20, o=0)
               + "                    return True")
    for old, new in (("def pair_bracket_nb(t, rnd, s, m, n_mdp, lower, last):",
                      "def pair_bracket_nb(t, rnd, s, m, n_mdp, lower, last, cnt):"),
                     ("search_nb(s, m, n_mdp, lower, last, big, f0, g0)",
                      "search_nb(s, m, n_mdp, lower, last, big, f0, g0, cnt)"),
                     ("def pair_round_nb(t, rnd, n_rounds, pair_pts, init, s, out_w, out_b):",
                      "def pair_round_nb(t, rnd, n_rounds, pair_pts, init, s, out_w, out_b, cnt):"),
                     ("pair_marked_nb(t, rnd, n_rounds, pair_pts, init, s, out_w, out_b)",
                      "pair_marked_nb(t, rnd, n_rounds, pair_pts, init, s, out_w, out_b, cnt)"),
                     ("pair_bracket_nb(t, rnd, s, m, n_mdp, lower, True)",
                      "pair_bracket_nb(t, rnd, s, m, n_mdp, lower, True, cnt)")):
        src = _sub(src, old, new)
    folder = Path(tempfile.mkdtemp())
    (folder / "dutch_steps.py").write_text(src)
    spec = importlib.util.spec_from_file_location("dutch_steps", folder / "dutch_steps.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=200)
    ap.add_argument("--at", default="start")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--uncapped", action="store_true")
    a = ap.parse_args(argv)
    import bench_swiss_same as bs
    from simcycle.kernels.criteria_nb import Crosstable
    dp = instrumented(a.uncapped)
    tabs, first, args = bs.play(a.at, a.events, a.seed)
    E, _, n, R = tabs.shape
    ps = dp.pair_scratch_nb(np.int64(n))
    ow, ob = np.zeros(n + 1, np.int64), np.zeros(n + 1, np.int64)
    cnt = np.zeros((2, 12, 5, 2), np.int64)
    z = np.zeros(n, np.int64)
    for e in range(E):
        t = Crosstable(tabs[e, 0], tabs[e, 1], tabs[e, 2], tabs[e, 3], z, z, args.rating)
        for r in range(first, R):
            pts = (tabs[e, 1, :, :r].sum(1) + args.virtual[r]).astype(np.int64)
            dp.pair_round_nb(t, np.int64(r), np.int64(R), pts, np.int64(args.init), ps, ow, ob,
                             cnt)
    steps = cnt[:, :, :3, 1].sum()
    print(f"at {a.at}, {E} events{' (uncapped)' if a.uncapped else ''}: "
          f"{cnt[:, :, :3, 0].sum() / E:.1f} searches, {steps / E:.0f} steps an event")
    names = ["found", "none", "capped", "found>500", "none>500"]
    for h in range(2):
        for k in range(12):
            for o, name in enumerate(names):
                c, st = cnt[h, k, o]
                if c:
                    print(f"{'with' if h else 'no  '} MDPs, attempt {k:2d}, {name:9s}: "
                          f"{c / E:6.2f} calls, {st / E:8.1f} steps an event "
                          f"({100 * st / steps:4.1f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
