"""How close the Dutch pairing kernel (``kernels/dutch_nb.py``) is to a real FIDE Dutch engine
(py4swiss, the test extra), on the Grand Swiss 2025 (open).

    python benchmarks/bench_swiss_fidelity.py pairs
        (a) for each real round state after rounds 1-7: the share of the kernel's pairs (and
        pairs with colours) equal to py4swiss's (which are the real event's), overall and on
        the top 10 boards (py4swiss's board order)

    python benchmarks/bench_swiss_fidelity.py simulated --at round6 --events 24 [--seed 11]
        the same share on simulated round states: events played on from the checkpoint with
        py4swiss's pairings (the reference twin's events), and at each round state the
        kernel's pairing of it against py4swiss's, per round and on the top 10 boards

    python benchmarks/bench_swiss_fidelity.py kernel --at round6 --kernel 2000
        the kernel's side alone (saved in benchmarks/, read by odds with the same --at,
        --kernel and --seed), so that it can run at another priority than the reference

    python benchmarks/bench_swiss_fidelity.py random --at round6 --kernel 2000 --events 2000
        random pairing inside score groups against the saved kernel side: the chi-square,
        and how many reference events a test needs to reject it (1 % level, power 80 %)

    python benchmarks/bench_swiss_fidelity.py compare --at round6 --kernel 100000 \
            --reference benchmarks/swiss-odds-round6-current.json
        the saved kernel side (the "kernel" step, after a kernel change) against the
        reference side of an earlier odds run: py4swiss's pairing does not change when the
        kernel does, so its events (the per-player probabilities and their number, saved in
        that file) are reused; writes benchmarks/swiss-odds-<at>-compare.json

    python benchmarks/bench_swiss_fidelity.py odds --at round6 --minutes 15 [--kernel 20000]
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


def simulated_table(at: str, events: int, seed: int):
    """(a) on simulated states: ``events`` events from ``at`` paired by py4swiss (replica r:
    stream (seed, r)); each state the kernel pairs too.  Returns the per-round shares."""
    from simcycle.kernels import dutch_nb as dn
    from simcycle.kernels.criteria_nb import Crosstable
    from simcycle.reference.rng import Stream
    from simcycle.reference.swiss import dutch_pairs, play_event
    _, scn, _, plan = _cached_load(at)
    a = plan.args
    n = a.base_opp.shape[0]
    s = dn.pair_scratch(n)
    ow, ob = np.zeros(n + 1, np.int64), np.zeros(n + 1, np.int64)
    z = np.zeros(n, np.int64)
    tally: dict = {}

    def pairer(opp, res, kind, colour, ratings, r, R, init):
        ref = dutch_pairs(opp, res, kind, colour, ratings, r, R, init)
        t = Crosstable(opp, res, kind, colour, z, z, a.rating)
        pts = (res[:, :r].sum(1) + a.virtual[r]).astype(np.int64)
        k = dn.pair_round_nb(t, np.int64(r), np.int64(R), pts, np.int64(init), s, ow, ob)
        mine = {(int(ow[j]), int(ob[j])) for j in range(k)}
        mine_u = {frozenset(p) for p in mine}
        c = tally.setdefault(r + 1, np.zeros(5))
        c += (len(ref), sum(frozenset(p) in mine_u for p in ref), sum(p in mine for p in ref),
              min(10, len(ref)), sum(frozenset(p) in mine_u for p in ref[:10]))
        return ref

    for e in range(events):
        play_event(a, Stream(seed, e).u01, pairer)
    rows = []
    for rnd, c in sorted(tally.items()) + [("all", sum(tally.values()))]:
        rows.append({"round": rnd, "states": int(c[0] // (n // 2)) if n % 2 == 0 else None,
                     "pairs": c[1] / c[0], "colours": c[2] / c[0], "top10_pairs": c[4] / c[3]})
        print(f"round {rnd}: pairs {100 * c[1] / c[0]:.1f} %, with colours "
              f"{100 * c[2] / c[0]:.1f} %; top 10 boards {100 * c[4] / c[3]:.1f} %", flush=True)
    return rows


def rank_event(plan, opp, res, kind, colour, rng_lots):
    from simcycle.reference.swiss import rank_event as rank
    return rank(plan.args, opp, res, kind, colour, rng_lots)


def random_in_groups(rng):
    from simcycle.reference.swiss import random_in_groups as pairer
    return pairer(rng)


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
    from simcycle.reference.swiss import chi_square
    pr = ref.p()
    return {k: chi_square(pr[k], ref.n, ker[k], m) for k in ("first", "top2", "top10")}


def _ref_chunk(job):
    """Reference events ``lo..hi-1`` (replica ``r``: stream (seed + 1, r), lots from its own
    generator), counted; run in a worker process."""
    from simcycle.reference.rng import Stream
    from simcycle.reference.swiss import play_event
    at, seed, lo, hi, pairer_name = job
    _, scn, _, plan = _cached_load(at)
    n = len(scn.players)
    qual = [p.qualified for p in scn.players]
    c = Counts(n)
    for r in range(lo, hi):
        pairer = random_in_groups(random.Random(seed * 7919 + r)) if pairer_name == "random" \
            else None
        st = Stream(seed + (3 if pairer_name == "random" else 1), r)
        o, rs, kd, col = play_event(plan.args, st.u01, pairer)
        c.add(rank_event(plan, o, rs, kd, col, random.Random(seed * 104729 + r)), qual,
              scn.qualifying_places)
    return c


_LOADED = {}


def _cached_load(at):
    if at not in _LOADED:
        _LOADED[at] = load(at)
    return _LOADED[at]


def _events(at, seed, pairer_name, minutes, limit, workers, on_chunk):
    """As many events as fit in ``minutes`` of wall time (at most ``limit``), in chunks of 4
    replicas over ``workers`` processes; replicas are numbered, so the counts do not depend
    on the number of workers (only on how many replicas finished)."""
    import multiprocessing as mp
    total = None
    t0 = time.time()
    chunk = 4
    jobs = ((at, seed, lo, min(lo + chunk, limit), pairer_name) for lo in range(0, limit, chunk))
    with mp.get_context("fork").Pool(workers) as pool:
        for c in pool.imap(_ref_chunk, jobs):
            if total is None:
                total = c
            else:
                total.n += c.n
                total.first += c.first
                total.top2 += c.top2
                total.top10 += c.top10
            on_chunk(total)
            if time.time() - t0 > 60 * minutes:
                pool.terminate()
                break
    return total


def odds(at: str, minutes: float, m: int, seed: int, workers: int = 2,
         random_minutes: float = 5.0):
    _, scn, _, plan = _cached_load(at)
    out_file = ROOT / "benchmarks" / f"swiss-odds-{at}.json"
    t0, cpu0 = time.time(), time.process_time()
    kfile = ROOT / "benchmarks" / f"swiss-odds-{at}-kernel-{m}-{seed}.npz"
    if kfile.exists():      # made by the "kernel" step (which can run at another priority)
        z = np.load(kfile)
        ker = {k: z[k] for k in ("first", "top2", "top10")}
        kernel_cpu = float(z["cpu_s"])
    else:
        ker, kernel_cpu = kernel_probs(at, m, seed)
    print(f"{m} kernel events, {kernel_cpu:.0f} CPU-s", flush=True)
    state = {"ref": None, "rnd": None}

    def on_ref(c):
        state["ref"] = c
        if True:
            dump(out_file, at, m, c, ker, None, t0, cpu0, kernel_cpu)
            print(f"{c.n} reference events, {time.time() - t0:.0f} s", flush=True)

    ref = _events(at, seed, "dutch", minutes, 10**9, workers, on_ref)
    rnd = {}
    # random pairing inside score groups: as many events as the reference got (the test's
    # power at that size), then as many as fit in random_minutes (its power with more events)
    rnd["same"] = _events(at, seed, "random", 10**6, ref.n, workers, lambda c: None)
    rnd["more"] = _events(at, seed + 50, "random", random_minutes, 10**9, workers,
                          lambda c: None)
    dump(out_file, at, m, ref, ker, rnd, t0, cpu0, kernel_cpu)
    return json.loads(out_file.read_text())


def kernel_probs(at: str, m: int, seed: int, save: bool = False):
    """P(1st), P(top 2 with passing-down), P(top 10) from ``m`` kernel events (and the CPU
    seconds they took); ``save`` writes them where ``odds`` looks for them first."""
    from simcycle import driver
    _, _, _, plan = _cached_load(at)
    tk = time.process_time()
    res = driver.run(plan, m, seed, progress=False)
    cpu = time.process_time() - tk
    ker = {"first": res.tallies["place"][:, 0] / m, "top2": res.tallies["qualify"] / m,
           "top10": res.tallies["top10"] / m}
    if save:
        np.savez(ROOT / "benchmarks" / f"swiss-odds-{at}-kernel-{m}-{seed}.npz", cpu_s=cpu,
                 **ker)
    return ker, cpu


def compare_saved(at: str, m: int, seed: int, reference: str):
    """The saved kernel side against the reference side of an earlier odds run (``reference``,
    its JSON: players, reference_events, p.reference), per measure; written next to it."""
    d = json.loads(Path(reference).read_text())
    names = [p.name for p in _cached_load(at)[1].players]
    if d["at"] != at or d["players"] != names:
        raise SystemExit(f"{reference}: another checkpoint or field ({d['at']})")
    z = np.load(ROOT / "benchmarks" / f"swiss-odds-{at}-kernel-{m}-{seed}.npz")
    ker = {k: z[k] for k in ("first", "top2", "top10")}
    ref = Counts(len(names))
    ref.n = int(d["reference_events"])
    ref.first, ref.top2, ref.top10 = (np.asarray(d["p"]["reference"][k]) * ref.n
                                      for k in ("first", "top2", "top10"))
    out = {"at": at, "kernel_events": m, "kernel_seed": seed, "kernel_cpu_s": float(z["cpu_s"]),
           "reference_file": Path(reference).name, "reference_events": ref.n,
           "kernel_vs_reference": compare(ref, ker, m), "players": names,
           "p": {"kernel": {k: v.tolist() for k, v in ker.items()},
                 "reference": d["p"]["reference"]}}
    path = ROOT / "benchmarks" / f"swiss-odds-{at}-compare.json"
    path.write_text(json.dumps(out, indent=1), encoding="utf-8")
    return out


def needed_events(x2: float, dof: int, n: int, m: int, m_big: float = 1e6,
                  alpha: float = 0.01, beta: float = 0.8):
    """Reference events a chi-square needs to reject a difference measured as ``x2`` on
    ``dof`` players between ``n`` and ``m`` events, at level ``alpha`` with probability
    ``beta``, against ``m_big`` kernel events.  The non-centrality is lambda = S / (1/N +
    1/M) with S = sum of delta^2 / (p (1 - p)), estimated as S = (x2 - dof) (1/n + 1/m);
    None when x2 <= dof (no difference seen)."""
    from scipy.optimize import brentq
    from scipy.stats import chi2, ncx2
    s = (x2 - dof) * (1 / n + 1 / m)
    if s <= 0:
        return None
    crit = chi2.isf(alpha, dof)
    need = brentq(lambda x: ncx2.sf(crit, dof, x) - beta, 1e-6, 1e5)
    inv = s / need - 1 / m_big
    return float(1 / inv) if inv > 0 else None


def random_size(at: str, m: int, seed: int, events: int, workers: int):
    """Random pairing inside score groups against the kernel with ``events`` events: the
    chi-square per measure, and the number of reference events a test would need to reject
    random pairing at the 1 % level with probability 80 % (the non-centrality estimated as
    chi2 - dof, scaled to other sizes through the variance)."""
    z = np.load(ROOT / "benchmarks" / f"swiss-odds-{at}-kernel-{m}-{seed}.npz")
    ker = {k: z[k] for k in ("first", "top2", "top10")}
    t0 = time.process_time()
    c = _events(at, seed + 100, "random", 10**6, events, workers, lambda c: None)
    out = {"events": c.n, "kernel_events": m, "main_cpu_s": time.process_time() - t0}
    for k, v in compare(c, ker, m).items():
        out[k] = {**v, "reference_events_needed": needed_events(v["chi2"], v["players"], c.n,
                                                                m)}
    path = ROOT / "benchmarks" / f"swiss-odds-{at}-random.json"
    path.write_text(json.dumps(out, indent=1), encoding="utf-8")
    return out


def power(n_ref: int, m: int, p: float, df: int, alpha: float = 0.01, beta: float = 0.8):
    """The smallest difference of one player's probability ``p`` the chi-square (``df``
    degrees of freedom, level ``alpha``) detects with probability ``beta``, all other players
    equal: the non-centrality it needs, as a shift of one z."""
    from scipy.optimize import brentq
    from scipy.stats import chi2, ncx2
    crit = chi2.isf(alpha, df)
    lam = brentq(lambda x: ncx2.sf(crit, df, x) - beta, 1e-6, 1e4)
    return float(np.sqrt(lam) * np.sqrt(p * (1 - p) * (1 / n_ref + 1 / m)))


def dump(path, at, m, ref, ker, rnd, t0, cpu0, kernel_cpu):
    d = {"at": at, "kernel_events": m, "kernel_cpu_s": kernel_cpu, "reference_events": ref.n,
         "wall_s": time.time() - t0, "main_process_cpu_s": time.process_time() - cpu0,
         "kernel_vs_reference": compare(ref, ker, m),
         "players": [p.name for p in _cached_load(at)[1].players],
         "p": {"kernel": {k: v.tolist() for k, v in ker.items()},
               "reference": {k: v.tolist() for k, v in ref.p().items()}}}
    if rnd:
        d["random_vs_kernel"] = {lab: {"events": c.n, **compare(c, ker, m)}
                                 for lab, c in rnd.items()}
    path.write_text(json.dumps(d, indent=1), encoding="utf-8")


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["pairs", "simulated", "odds", "kernel", "random",
                                     "compare"])
    ap.add_argument("--reference", default=str(ROOT / "benchmarks"
                                               / "swiss-odds-round6-current.json"))
    ap.add_argument("--events", type=int, default=2000)
    ap.add_argument("--at", default="round6")
    ap.add_argument("--minutes", type=float, default=15)
    ap.add_argument("--kernel", type=int, default=20_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--random-minutes", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=2025)
    a = ap.parse_args(argv)
    if a.what == "pairs":
        pairs_table()
    elif a.what == "simulated":
        simulated_table(a.at, a.events, a.seed)
    elif a.what == "random":
        print(json.dumps(random_size(a.at, a.kernel, a.seed, a.events, a.workers), indent=1))
    elif a.what == "compare":
        d = compare_saved(a.at, a.kernel, a.seed, a.reference)
        d.pop("p")
        d.pop("players")
        print(json.dumps(d, indent=1))
    elif a.what == "kernel":
        print(f"{kernel_probs(a.at, a.kernel, a.seed, save=True)[1]:.0f} CPU-s")
    else:
        d = odds(a.at, a.minutes, a.kernel, a.seed, a.workers, a.random_minutes)
        d.pop("p")
        print(json.dumps(d, indent=1))


if __name__ == "__main__":
    main()
