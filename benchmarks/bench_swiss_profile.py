"""Where a whole Swiss event's CPU time goes (the Grand Swiss 2025 open, 116 players): the
per-replica stage ``play_swiss_nb`` (pair, play, rank) against the pairing alone
(``dutch_nb.pair_round_nb`` re-run on the same events' round states), per round, and the
pairing's share per round.  (The bracket search, ``dutch_nb.search_nb``, is inlined into
``pair_marked_nb``: the number of compiled specialisations shows in
``dutch_nb.pair_marked_nb.signatures`` after a fresh compile, with no cache.)

    python benchmarks/bench_swiss_profile.py [--events N] [--at CHECKPOINT] [--seed S]

CPU time (``time.process_time``), one thread, numba compiled or loaded before timing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def pair_many(t, r, R, pts, init, ps, ow, ob, reps):
    from simcycle.kernels import dutch_nb as dn
    return _pair_many(dn.pair_round_nb)(t, r, R, pts, init, ps, ow, ob, reps)


_CACHE = {}


def _pair_many(f):
    """``reps`` pairings of one round state inside numba (no per-call dispatch)."""
    if "f" not in _CACHE:
        import numba

        @numba.njit
        def many(t, r, R, pts, init, ps, ow, ob, reps):
            k = 0
            for _ in range(reps):
                k = f(t, r, R, pts, init, ps, ow, ob)
            return k
        _CACHE["f"] = many
    return _CACHE["f"]


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=40)
    ap.add_argument("--at", default="start")
    ap.add_argument("--seed", type=int, default=2025)
    a = ap.parse_args(argv)
    from simcycle.formats.base import CompileOptions
    from simcycle.formats.swiss import nb
    from simcycle.kernels.rng_nb import replica_state_nb
    from simcycle.model import load_model
    from simcycle.scenario import load_scenario

    fmt, scn = load_scenario(ROOT / "scenarios" / "grand-swiss-2025.toml")
    plan = fmt.compile(scn, load_model(None), CompileOptions(at=a.at))
    args = plan.args
    n, R = args.base_opp.shape
    w = nb.work_nb(np.int64(n), np.int64(R))
    ps = nb.pair_scratch_nb(np.int64(n))
    st = np.empty(1, np.uint64)
    flags = np.zeros(2, np.int64)

    def event(k):
        st[0] = replica_state_nb(np.uint64(a.seed), np.uint64(k))
        flags[:] = 0
        nb.play_swiss_nb(args, args.gthr, w, ps, st, flags)

    event(0)   # compile or load
    states = []
    c0 = time.process_time()
    for k in range(a.events):
        event(k)
    whole = (time.process_time() - c0) / a.events
    for k in range(min(a.events, 20)):
        event(k)
        states.append(tuple(x.copy() for x in (w.t.opp, w.t.res, w.t.kind, w.t.colour)))
    first = args.start + (1 if args.fixed_w.shape[0] > 0 else 0)
    ow, ob = np.zeros(n + 1, np.int64), np.zeros(n + 1, np.int64)
    per_round = np.zeros(R)
    reps = 2
    from simcycle.kernels.criteria_nb import Crosstable
    for opp, res, kind, colour in states:
        t = Crosstable(opp, res, kind, colour, np.zeros(n, np.int64), np.zeros(n, np.int64),
                       args.rating)
        for r in range(first, R):
            pts = (res[:, :r].sum(1) + args.virtual[r]).astype(np.int64)
            pair_many(t, np.int64(r), np.int64(R), pts, np.int64(args.init), ps, ow, ob, 1)
            c0 = time.process_time()
            pair_many(t, np.int64(r), np.int64(R), pts, np.int64(args.init), ps, ow, ob, reps)
            per_round[r] += (time.process_time() - c0) / reps
    per_round /= len(states)
    pairing = per_round.sum()
    print(f"at {a.at}: {a.events} events, one thread")
    print(f"whole event (pair, play, rank): {1e6 * whole:.0f} µs of CPU "
          f"= {2 / whole:.0f} events/s on 2 cores if CPU-bound")
    print(f"pairing alone (pair_round_nb re-run on the same states): "
          f"{1e6 * pairing:.0f} µs ({100 * pairing / whole:.0f} %)")
    print("per round (µs): " + ", ".join(f"r{r + 1} {1e6 * per_round[r]:.0f}"
                                         for r in range(first, R)))


if __name__ == "__main__":
    main()
