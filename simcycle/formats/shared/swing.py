"""The swing scaffold every format uses: simulate the rest with one result assumed for a game
or match still to play, once per possible result, on common random numbers (same seed, same
replicas), and tabulate what each result does to every player's P(1st) and P(qualify), each
difference with its standard error.

Standard errors come from batch means over paired runs: a run's tallies are kept per kernel
chunk (``kernels.config.CHUNK`` = 512 replicas, ``Plan.run_chunks``), and chunk *j* of every
result uses the same replicas (the same random streams).  The SE of a difference is the spread
of its chunk differences over the square root of their number, so it is as small as the
pairing makes it.  A difference within two standard errors of zero is "within noise".  With a
target standard error the runs grow (``MIN_BATCHES`` chunks, then as many as the SE falling
like 1/sqrt(n) asks for) until every swing's SE is below it or the cap is reached; the answer
depends only on (seed, cap, target), never on time or threads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ...api.results import SwingPlayer
from ..base import SWING_TARGET_SE, CompileOptions, Format

# one possible result of the game or match examined: a mixture of what-if result sets
# (format-specific ``CompileOptions.fixed`` mappings) with their weights
Outcome = Sequence[tuple[Mapping[Any, Any], float]]

MIN_BATCHES = 16    # chunks (8,192 replicas) before a target standard error is first checked
NOISE_SE = 2.0      # a difference below this many standard errors is "within noise"
DEFAULT_TARGET_SE = SWING_TARGET_SE


def within_noise(d: float, se: float) -> bool:
    """A difference no larger than ``NOISE_SE`` standard errors (0 ± 0 counts as noise)."""
    return abs(d) <= NOISE_SE * se


def paired_se(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """SE of mean(a) - mean(b) from paired sub-batch means a, b [batches, ...]."""
    k = a.shape[0]
    return np.std(a - b, axis=0, ddof=1) / math.sqrt(k)


def _key(fixed: Mapping) -> str:
    return repr(sorted(fixed.items(), key=repr))


class Runner:
    """Paired runs of one checkpoint: the base (``fixed`` what-ifs only) and any number of
    outcome runs, each a sequence of sub-batches on the same replicas, computed once and
    cached (the base serves every game or match examined).

    sims       the cap: at most this many replicas per run (rounded up to whole chunks, at
               least 4 of them, so that a standard error can be estimated)
    target_se  stop a game's runs once every swing's paired SE is below it (None: run the cap)
    compile_   fixed -> Plan (default ``fmt.compile``); a format may pass one that keeps the
               random streams aligned (the round robin forces a game's result while drawing
               its number)
    """

    def __init__(self, fmt: Format, scn, model, at, *, offsets: bool, fixed: Mapping,
                 sims: int, seed: int, target_se: float | None = None,
                 compile_: Callable[[Mapping], Any] | None = None):
        self.seed = seed
        self.target_se = target_se
        from ...kernels.config import CHUNK

        self.chunk = CHUNK
        self.cap = max(-(-sims // CHUNK), 4)
        self.fixed = dict(fixed)
        self._compile = compile_ or (lambda fx: fmt.compile(
            scn, model, CompileOptions(at=at, offsets=offsets, fixed=fx)))
        self._plans: dict[str, Any] = {}
        self._batches: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self.names: list[str] = []
        self.used = 0       # most chunks any run needed (the reports' simulations)

    @property
    def sims(self) -> int:
        return self.used * self.chunk

    def _ensure(self, fixed: Mapping, k: int) -> tuple[np.ndarray, np.ndarray]:
        """P(1st) and P(qualify) in each of the first ``k`` chunks of the run under
        ``fixed``: float64 [k, players] each."""
        key = _key(fixed)
        if key not in self._plans:
            self._plans[key] = self._compile(dict(fixed))
            n = len(self._plans[key].info.names)
            self._batches[key] = (np.zeros((0, n)), np.zeros((0, n)))
            self.names = list(self._plans[key].info.names)
        plan, (f, q) = self._plans[key], self._batches[key]
        have = f.shape[0]
        if have < k:
            t = plan.run_chunks(self.seed, have * self.chunk, (k - have) * self.chunk).out
            f = np.concatenate([f, t.place[:, :, 0] / self.chunk])
            q = np.concatenate([q, t.qualify / self.chunk])
            self._batches[key] = (f, q)
        self.used = max(self.used, k)
        return f[:k], q[:k]

    def _mix(self, mix: Outcome, k: int) -> tuple[np.ndarray, np.ndarray]:
        f = q = 0.0
        for fixed, w in mix:
            bf, bq = self._ensure({**self.fixed, **fixed}, k)
            f, q = f + w * bf, q + w * bq
        return f, q

    def now(self) -> list[dict]:
        """Every player's P(1st) and P(qualify) before the game or match (the base run, over
        as many sub-batches as the longest outcome run), with standard errors."""
        k = max(self.used, min(MIN_BATCHES if self.target_se is not None else self.cap,
                               self.cap))
        bf, bq = self._ensure(self.fixed, k)
        rt = math.sqrt(k)
        return [{"name": name, "p_first": float(bf[:, i].mean()),
                 "p_qualify": float(bq[:, i].mean()),
                 "se_p_first": float(bf[:, i].std(ddof=1) / rt),
                 "se_p_qualify": float(bq[:, i].std(ddof=1) / rt)}
                for i, name in enumerate(self.names)]

    def rows(self, outcomes: Sequence[Outcome]) -> list[dict]:
        """Per player (``api.results.SwingPlayer`` as its JSON): P(1st) and P(qualify) under
        each outcome, their differences from now and the swings, each with its paired SE; the
        players most affected first."""
        k = MIN_BATCHES if self.target_se is not None else self.cap
        k = min(k, self.cap)
        while True:
            base = self._ensure(self.fixed, k)
            runs = [self._mix(mix, k) for mix in outcomes]
            out = _table(self.names, base, runs)
            worst = max((max(p.se_swing_first, p.se_swing_qualify) for p in out), default=0.0)
            if self.target_se is None or worst < self.target_se or k >= self.cap:
                break
            # the chunks the SE shrinking as 1/sqrt(n) says are needed, a tenth more, at
            # least a quarter more than now
            k = min(max(math.ceil(1.1 * k * (worst / self.target_se) ** 2),
                        k + max(k // 4, 1)), self.cap)
        out.sort(key=lambda x: -(x.swing_first + x.swing_qualify))
        return [p.to_json() for p in out]


@dataclass(frozen=True)
class Item:
    """One game or match a swing examines, before it is run.

    head      its facts in the JSON, in order (a game: round, White, Black, the result
              probabilities; a knock-out match: event, round, players, outcomes)
    outcomes  each possible result as a mixture of what-ifs in the format's own keys
    labels    a game's result labels ("1-0", "1/2-1/2", "0-1"): its players' P(1st) and
              P(qualify) are keyed by them; () for a match (lists in outcome order)
    """

    head: dict
    outcomes: list[Outcome]
    labels: tuple[str, ...] = ()

    @property
    def field(self) -> str:
        """The ``Swing`` field the item goes to."""
        return "games" if self.labels else "matches"


@dataclass(frozen=True)
class Examined:
    """What a format's swing examines at a checkpoint (``Format.swing_items``).

    where    the JSON keys that say which round (round robin: round; group games: event and
             round; a cycle: its part first); none for knock-out matches
    items    the games or matches, each with its outcomes
    places   the qualifying places ("qualify" in the swing; a cycle: the final's seats)
    results  a round robin's result labels, listed in the JSON (None: not listed)
    """

    where: dict
    items: list[Item]
    places: int
    results: tuple[str, ...] | None = None

    def keyed(self, key: Callable[[Any], Any]) -> "Examined":
        """The same games or matches with every what-if key mapped by ``key`` (a cycle's
        (part index, the part's key))."""
        items = [Item(it.head, [[({key(k): v for k, v in fx.items()}, w) for fx, w in mix]
                                for mix in it.outcomes], it.labels) for it in self.items]
        return Examined(self.where, items, self.places, self.results)


def tabulate(run: Runner, ex: Examined) -> dict[str, list[dict]]:
    """Every item of ``ex`` run on ``run`` as its JSON ({"games": [...]} or {"matches":
    [...]}): a game's players keyed by result and the games in the order they swing (most
    first); matches in playing order."""
    out: dict[str, list[dict]] = {}
    for it in ex.items:
        rows_ = run.rows(it.outcomes)
        if it.labels:
            for p in rows_:
                p["p_first"] = dict(zip(it.labels, p["p_first"]))
                p["p_qualify"] = dict(zip(it.labels, p["p_qualify"]))
        out.setdefault(it.field, []).append(
            {**it.head, ("players" if it.labels else "swing"): rows_})
    if "games" in out:
        out["games"].sort(key=lambda x: -weight(x["players"]))
    return out


def report(scn, at, ex: Examined, run: Runner, *, seed: int, target_se: float | None) -> dict:
    """A swing's JSON (``api.results.Swing``): the checkpoint, where (a cycle's part in
    progress, the round), the run's size, every player now, the games or matches."""
    items = tabulate(run, ex)
    now = run.now()
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
            **ex.where, "sims": run.sims,
            "seed": seed, "target_se": target_se, "qualifying_places": ex.places,
            **({"results": list(ex.results)} if ex.results is not None else {}),
            "now": now, **items}


def _table(names, base, runs) -> list[SwingPlayer]:
    k = base[0].shape[0]
    rt = math.sqrt(k)
    out = []
    for i, name in enumerate(names):
        cols = {}
        for t, what in enumerate(("first", "qualify")):
            b = base[t][:, i]
            xs = [r[t][:, i] for r in runs]
            p = [float(x.mean()) for x in xs]
            d = [float(x.mean() - b.mean()) for x in xs]
            se_d = [float(paired_se(x, b)) for x in xs]
            hi, lo = int(np.argmax(p)), int(np.argmin(p))
            sw = p[hi] - p[lo]
            se_sw = float(paired_se(xs[hi], xs[lo])) if hi != lo else 0.0
            cols[what] = dict(p=p, se_p=[float(x.std(ddof=1) / rt) for x in xs], d=d,
                              se_d=se_d, noise_d=[within_noise(a, s) for a, s in zip(d, se_d)],
                              swing=sw, se_swing=se_sw, noise=within_noise(sw, se_sw))
        f, q = cols["first"], cols["qualify"]
        out.append(SwingPlayer(
            name=name, p_first=f["p"], p_qualify=q["p"], se_p_first=f["se_p"],
            se_p_qualify=q["se_p"], d_first=f["d"], d_qualify=q["d"], se_d_first=f["se_d"],
            se_d_qualify=q["se_d"], noise_d_first=f["noise_d"], noise_d_qualify=q["noise_d"],
            swing_first=f["swing"], swing_qualify=q["swing"], se_swing_first=f["se_swing"],
            se_swing_qualify=q["se_swing"], noise_first=f["noise"], noise_qualify=q["noise"]))
    return out


def weight(rows_: list[dict]) -> float:
    """How much a game or match swings: its most affected player's two swings."""
    return rows_[0]["swing_first"] + rows_[0]["swing_qualify"]
