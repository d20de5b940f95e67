"""Does a change to the Dutch pairing kernel (``kernels/dutch_nb.py``) keep every pairing?
Simulated Grand Swiss 2025 events (116 players) give round states; each is paired by the
kernel and the boards (White, Black, in board order: the order the games draw their numbers)
are saved, then compared after the change.  Also prints the pairing's CPU time per state.

    python benchmarks/bench_swiss_same.py save FILE [--events 200] [--at start] [--seed 7]
    python benchmarks/bench_swiss_same.py check FILE

``save`` plays ``--events`` events with the current kernel (``formats/swiss/nb.py``
``play_swiss_nb``) and keeps each event's crosstable; the state before round r is its
columns before r (the pairing reads nothing else).  ``check`` re-pairs every state and
exits 1 on the first difference (event, round, board).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _plan(at):
    from simcycle.formats.base import CompileOptions
    from simcycle.model import load_model
    from simcycle.scenario import load_scenario
    fmt, scn = load_scenario(ROOT / "scenarios" / "grand-swiss-2025.toml")
    return fmt.compile(scn, load_model(None).for_kind(scn.kind), CompileOptions(at=at))


def play(at, events, seed):
    """The final crosstables of ``events`` events, and the first round the kernel paired."""
    from simcycle.formats.swiss import nb
    from simcycle.kernels.rng_nb import replica_state_nb
    args = _plan(at).args
    n, R = args.base_opp.shape
    w = nb.work_nb(np.int64(n), np.int64(R))
    ps = nb.pair_scratch_nb(np.int64(n))
    st = np.empty(1, np.uint64)
    flags = np.zeros(2, np.int64)
    tabs = np.zeros((events, 4, n, R), np.int64)
    for k in range(events):
        st[0] = replica_state_nb(np.uint64(seed), np.uint64(k))
        flags[:] = 0
        nb.play_swiss_nb(args, args.gthr, w, ps, st, flags)
        for j, x in enumerate((w.t.opp, w.t.res, w.t.kind, w.t.colour)):
            tabs[k, j] = x
    first = args.start + (1 if args.fixed_w.shape[0] > 0 else 0)
    return tabs, first, args


def pair_all(tabs, first, args):
    """Boards (white, black) of every state, -2 padded, and the CPU seconds per state."""
    from simcycle.kernels import dutch_nb as dn
    from simcycle.kernels.criteria_nb import Crosstable
    E, _, n, R = tabs.shape
    ps = dn.pair_scratch_nb(np.int64(n))
    ow, ob = np.zeros(n + 1, np.int64), np.zeros(n + 1, np.int64)
    out = np.full((E, R, 2, n + 1), -2, np.int64)
    z = np.zeros(n, np.int64)
    cpu = 0.0
    for e in range(E):
        t = Crosstable(tabs[e, 0], tabs[e, 1], tabs[e, 2], tabs[e, 3], z, z, args.rating)
        for r in range(first, R):
            pts = (tabs[e, 1, :, :r].sum(1) + args.virtual[r]).astype(np.int64)
            c0 = time.process_time()
            k = dn.pair_round_nb(t, np.int64(r), np.int64(R), pts, np.int64(args.init), ps,
                                 ow, ob)
            cpu += time.process_time() - c0
            out[e, r, 0, :k] = ow[:k]
            out[e, r, 1, :k] = ob[:k]
    return out, cpu / max(E * (R - first), 1)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["save", "check"])
    ap.add_argument("file")
    ap.add_argument("--events", type=int, default=200)
    ap.add_argument("--at", default="start")
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args(argv)
    if a.what == "save":
        tabs, first, args = play(a.at, a.events, a.seed)
        pair_all(tabs[:1], first, args)      # compile or load
        out, cpu = pair_all(tabs, first, args)
        np.savez_compressed(a.file, tabs=tabs, first=first, out=out, at=a.at)
        print(f"{a.events * (tabs.shape[3] - first)} states saved; {1e6 * cpu:.0f} µs of CPU "
              "a state")
        return 0
    z = np.load(a.file)
    args = _plan(str(z["at"])).args
    tabs, first, old = z["tabs"], int(z["first"]), z["out"]
    pair_all(tabs[:1], first, args)
    new, cpu = pair_all(tabs, first, args)
    bad = np.argwhere((new != old).any(axis=(2, 3)))
    print(f"{tabs.shape[0] * (tabs.shape[3] - first)} states, {len(bad)} differ; "
          f"{1e6 * cpu:.0f} µs of CPU a state")
    if len(bad):
        e, r = bad[0]
        print(f"first difference: event {e}, round {r + 1}:\n old {old[e, r]}\n new {new[e, r]}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
