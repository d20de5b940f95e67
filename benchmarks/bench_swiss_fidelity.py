"""How close the Dutch pairing kernel (``kernels/dutch_nb.py``) is to a real FIDE Dutch engine
(py4swiss, the test extra), on the Grand Swiss 2025 (open).

    python benchmarks/bench_swiss_fidelity.py pairs
        (a) for each real round state after rounds 1-7: the share of the kernel's pairs (and
        pairs with colours) equal to py4swiss's (which are the real event's), overall and on
        the top 10 boards (py4swiss's board order)

    python benchmarks/bench_swiss_fidelity.py odds --at round6 --minutes 15 [--kernel 200000]
        (b) P(top 2 with passing-down), P(1st), P(top 10) per player from events paired by
        py4swiss (as many as fit in the minutes) against kernel events; the same comparison
        for events paired at random inside score groups (the approximation other tools use),
        with as many events as the reference got and with 20 times more; a chi-square over
        the players with p >= 1 % and the largest |z| per measure.  Writes
        benchmarks/swiss-odds-<at>.json as it goes.

Every event ranks with the shared tie-break kernel (``kernels/criteria_nb.py``); only the
pairing differs.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def load(at):
    from simcycle.formats.base import CompileOptions
    from simcycle.model import load_model
    from simcycle.scenario import load_scenario
    fmt, scn = load_scenario(ROOT / "scenarios" / "grand-swiss-2025.toml")
    model = load_model(None).for_kind(scn.kind)
    return fmt, scn, model, fmt.compile(scn, model, CompileOptions(at=at))


def pairs_table():
    from simcycle.formats.swiss import rules
    from simcycle.kernels import dutch_nb as dn
    from simcycle.reference.swiss import dutch_pairs
    fmt, scn, _, _ = load("round8")
    t = rules.crosstable(scn, 8)
    n = len(scn.players)
    s = dn.pair_scratch(n)
    ow, ob = np.zeros(n + 1, np.int64), np.zeros(n + 1, np.int64)
    rows = []
    for rnd in range(1, 8):
        ref = dutch_pairs(t.opp, t.res, t.kind, t.colour, t.rating.tolist(), rnd, 11,
                          scn.initial_colour)
        pts = t.res[:, :rnd].sum(1).astype(np.int64)
        k = dn.pair_round_nb(t, rnd, 11, pts, scn.initial_colour, s, ow, ob)
        mine = {(int(ow[j]), int(ob[j])) for j in range(k)}
        mine_u = {frozenset(p) for p in mine}
        top = ref[:10]
        row = {"round": rnd + 1, "boards": len(ref),
               "pairs": sum(frozenset(p) in mine_u for p in ref) / len(ref),
               "colours": sum(p in mine for p in ref) / len(ref),
               "top10_pairs": sum(frozenset(p) in mine_u for p in top) / len(top),
               "top10_colours": sum(p in mine for p in top) / len(top)}
        rows.append(row)
        print(f"round {row['round']}: pairs {100 * row['pairs']:.1f} %, with colours "
              f"{100 * row['colours']:.1f} %; top 10 boards {100 * row['top10_pairs']:.0f} % "
              f"/ {100 * row['top10_colours']:.0f} %", flush=True)
    tot = {k: float(np.mean([r[k] for r in rows])) for k in
           ("pairs", "colours", "top10_pairs", "top10_colours")}
    print("all rounds: " + ", ".join(f"{k} {100 * v:.1f} %" for k, v in tot.items()))
    return rows, tot


def random_in_groups(rng):
    """A pairer: players by score, shuffled inside each score group, paired in order (a
    rematch swaps the second player with the next one that fits), colours to the one with
    fewer Whites (lots when equal)."""
    from simcycle.enums import COL_WHITE, RK_PLAYED

    def pair(opp, res, kind, colour, ratings, r, n_rounds, init):
        n = opp.shape[0]
        pts = res[:, :r].sum(1)
        keys = sorted(range(n), key=lambda i: (-pts[i], rng.random()))
        met = [set(int(x) for x in opp[i, :r]) for i in range(n)]
        out = []
        left = list(keys)
        while len(left) >= 2:
            a = left.pop(0)
            j = next((k for k, b in enumerate(left) if b not in met[a]), 0)
            b = left.pop(j)
            wa = sum(1 for q in range(r) if kind[a, q] == RK_PLAYED and colour[a, q] == COL_WHITE)
            wb = sum(1 for q in range(r) if kind[b, q] == RK_PLAYED and colour[b, q] == COL_WHITE)
            out.append((a, b) if (wa < wb or (wa == wb and rng.random() < 0.5)) else (b, a))
        if left:
            out.append((left[0], -1))
        return out
    return pair


def rank_event(plan, opp, res, kind, colour, rng_lots):
    """(order) of a finished event: points, the tie-breaks (shared kernel), lots."""
    from simcycle.kernels.criteria_nb import Crosstable, adjusted_nb, rank_criteria_nb
    a = plan.args
    n = opp.shape[0]
    t = Crosstable(opp, res, kind, colour, np.zeros(n, np.int64), np.zeros(n, np.int64),
                   a.rating)
    adjusted_nb(t, a.n_rounds)
    order, brk = np.empty(n, np.int64), np.empty(n, np.int64)
    rank_criteria_nb(t, a.n_rounds, a.criteria, order, brk, np.empty(n, np.int64),
                     np.empty(n, np.int64), np.empty(n, np.int64), np.zeros(1, np.uint64),
                     False)
    out, p = [], 0
    while p < n:
        e = p + 1
        while e < n and brk[e] == 0:
            e += 1
        g = [int(x) for x in order[p:e]]
        rng_lots.shuffle(g)
        out += g
        p = e
    return out


class Counts:
    def __init__(self, n):
        self.n = 0
        self.first = np.zeros(n)
        self.top2 = np.zeros(n)
        self.top10 = np.zeros(n)

    def add(self, order, qualified, q):
        self.n += 1
        self.first[order[0]] += 1
        k = 0
        for i in order:
            if k == q:
                break
            if qualified[i]:
                continue
            self.top2[i] += 1
            k += 1
        for i in order[:10]:
            self.top10[i] += 1

    def p(self):
        m = max(self.n, 1)
        return {"first": self.first / m, "top2": self.top2 / m, "top10": self.top10 / m}


def compare(ref: Counts, ker: dict, m: int):
    """chi-square over players with kernel p >= 1 %, and the largest |z|, per measure."""
    from scipy.stats import chi2
    out = {}
    pr = ref.p()
    for k in ("first", "top2", "top10"):
        pk = ker[k]
        sel = pk >= 0.01
        var = pk * (1 - pk) / max(ref.n, 1) + pk * (1 - pk) / m
        z = (pr[k][sel] - pk[sel]) / np.sqrt(var[sel])
        x2 = float((z * z).sum())
        out[k] = {"players": int(sel.sum()), "chi2": x2, "p_value": float(chi2.sf(x2, sel.sum())),
                  "max_abs_z": float(np.abs(z).max()) if z.size else 0.0}
    return out


def odds(at: str, minutes: float, m: int, seed: int):
    from simcycle import driver
    from simcycle.reference.rng import Stream
    from simcycle.reference.swiss import play_event
    fmt, scn, model, plan = load(at)
    n = len(scn.players)
    qual = [p.qualified for p in scn.players]
    res = driver.run(plan, m, seed, progress=False)
    ker = {"first": res.tallies["place"][:, 0] / m, "top2": res.tallies["qualify"] / m,
           "top10": res.tallies["top10"] / m}
    out_file = ROOT / "benchmarks" / f"swiss-odds-{at}.json"
    ref = Counts(n)
    lots = random.Random(seed)
    t0 = time.time()
    cpu0 = time.process_time()
    r = 0
    while time.time() - t0 < 60 * minutes:
        st = Stream(seed + 1, r)
        o, rs, kd, c = play_event(plan.args, st.u01)
        ref.add(rank_event(plan, o, rs, kd, c, lots), qual, scn.qualifying_places)
        r += 1
        if r % 5 == 0:
            dump(out_file, at, m, ref, ker, None, t0, cpu0)
            print(f"{r} reference events, {time.time() - t0:.0f} s", flush=True)
    rnd_counts = {}
    for label, k in (("same", ref.n), ("x20", 20 * ref.n)):
        rc = Counts(n)
        prng = random.Random(seed + 2)
        pairer = random_in_groups(prng)
        for j in range(k):
            st = Stream(seed + 3, j)
            o, rs, kd, c = play_event(plan.args, st.u01, pairer)
            rc.add(rank_event(plan, o, rs, kd, c, lots), qual, scn.qualifying_places)
        rnd_counts[label] = rc
    dump(out_file, at, m, ref, ker, rnd_counts, t0, cpu0)
    return json.loads(out_file.read_text())


def dump(path, at, m, ref, ker, rnd, t0, cpu0):
    d = {"at": at, "kernel_events": m, "reference_events": ref.n,
         "reference_wall_s": time.time() - t0, "reference_cpu_s": time.process_time() - cpu0,
         "kernel_vs_reference": compare(ref, ker, m)}
    if rnd:
        d["random_vs_kernel"] = {lab: {"events": c.n, **compare(c, ker, m)}
                                 for lab, c in rnd.items()}
    path.write_text(json.dumps(d, indent=1), encoding="utf-8")


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["pairs", "odds"])
    ap.add_argument("--at", default="round6")
    ap.add_argument("--minutes", type=float, default=15)
    ap.add_argument("--kernel", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=2025)
    a = ap.parse_args(argv)
    if a.what == "pairs":
        pairs_table()
    else:
        print(json.dumps(odds(a.at, a.minutes, a.kernel, a.seed), indent=1))


if __name__ == "__main__":
    main()
