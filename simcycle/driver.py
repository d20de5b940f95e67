"""Run a compiled Plan (``formats.base.Plan``) in batches: progress bar, --target-se,
interruption, summaries.

Tallies are sums, so memory does not grow with the number of simulations.  Batches have a
fixed size, and a replica's random stream depends only on (seed, replica index), so the
result of a run depends only on (seed, sims), never on the thread count.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field

import numpy as np

BATCH = 1 << 16


class ChunkTallies:
    """Tally arrays with one row per chunk of replicas, for a kernel to fill (``out``, a
    :class:`~simcycle.kernels.tally_nb.Tallies`); ``summed()`` adds the rows in order (so the
    sum does not depend on which thread ran which chunk)."""

    def __init__(self, n: int, info):
        from .kernels.config import CHUNK
        from .kernels.tally_nb import Tallies

        nc = (n + CHUNK - 1) // CHUNK
        k = len(info.names)
        self.extra_names = tuple(info.extra_probabilities)
        self.out = Tallies(np.zeros((nc, k, info.n_places), np.int64),
                           np.zeros((nc, k), np.int64), np.zeros((nc, k)), np.zeros((nc, k)),
                           np.zeros((nc, k)), np.zeros((nc, k)),
                           np.zeros((nc, len(info.counter_names)), np.int64),
                           np.zeros((nc, len(self.extra_names), k), np.int64))

    def summed(self) -> dict:
        o = self.out
        out = {k: getattr(o, k).sum(0) for k in
               ("place", "qualify", "points", "points_sq", "prize", "prize_sq")}
        if o.counters.shape[1]:
            out["counters"] = o.counters.sum(0)
        for m, name in enumerate(self.extra_names):
            out[name] = o.extra[:, m, :].sum(0)
        return out


@dataclass
class Result:
    names: list
    sims: int
    seed: int
    points_scale: float
    tallies: dict
    counter_names: list = field(default_factory=list)
    interrupted: bool = False
    extra_probabilities: list = field(default_factory=list)
    requested: int = 0          # the replicas asked for (the cap, with --target-se)

    def _p(self, key):
        n = max(self.sims, 1)
        p = self.tallies[key] / n
        return p, np.sqrt(p * (1.0 - p) / n)

    def _mean(self, key, scale=1.0):
        n = max(self.sims, 1)
        s = self.tallies[key] / scale
        sq = self.tallies[key + "_sq"] / (scale * scale)
        mean = s / n
        var = np.maximum(sq / n - mean * mean, 0.0)
        return mean, np.sqrt(var / max(n - 1, 1))

    def players(self) -> list[dict]:
        p_place = self.tallies["place"] / max(self.sims, 1)
        se_place = np.sqrt(p_place * (1 - p_place) / max(self.sims, 1))
        pq, sq = self._p("qualify")
        ep, sep = self._mean("points", self.points_scale)
        ez, sez = self._mean("prize")
        extra = {k: self._p(k) for k in self.extra_probabilities}
        out = []
        for i, name in enumerate(self.names):
            row = {
                "name": name,
                "p_first": float(p_place[i, 0]),
                "se_p_first": float(se_place[i, 0]),
                "p_qualify": float(pq[i]),
                "se_p_qualify": float(sq[i]),
                "expected_points": float(ep[i]),
                "se_expected_points": float(sep[i]),
                "expected_prize": float(ez[i]),
                "se_expected_prize": float(sez[i]),
                "p_place": [float(x) for x in p_place[i]],
            }
            for k, (p, se) in extra.items():
                row[f"p_{k}"] = float(p[i])
                row[f"se_p_{k}"] = float(se[i])
            out.append(row)
        return out

    def counters(self) -> dict:
        if not self.counter_names:
            return {}
        c = self.tallies["counters"]
        n = max(self.sims, 1)
        return {k: {"p": float(c[i] / n), "se": float(math.sqrt((c[i] / n) * (1 - c[i] / n) / n))}
                for i, k in enumerate(self.counter_names)}

    def max_se(self) -> float:
        """Largest standard error among the reported probabilities."""
        n = max(self.sims, 1)
        worst = 0.0
        for key in ("place", "qualify"):
            p = self.tallies[key] / n
            worst = max(worst, float(np.max(np.sqrt(p * (1 - p) / n))))
        return worst


class _NoBar:
    """What :func:`progress_bar` gives when no bar is shown (tqdm is then not imported)."""

    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int, progress: bool | None):
    """The "simulating" bar on stderr; ``progress`` None: when stderr is a terminal (tqdm's
    own default), and without importing tqdm when it is not (start-up)."""
    if not (progress if progress is not None else sys.stderr.isatty()):
        return _NoBar()
    from tqdm import tqdm
    return tqdm(total=total, unit="sim", unit_scale=True, file=sys.stderr, leave=False,
                desc="simulating")


def run(plan, sims: int, seed: int, *, target_se: float | None = None,
        max_sims: int = 100_000_000, progress: bool | None = None,
        partial: bool = False) -> Result:
    """Simulate ``sims`` replicas (or, with ``target_se``, until every probability's
    standard error is below it, capped at ``max_sims``).

    Ctrl-C or SIGTERM (a :class:`KeyboardInterrupt`, see :mod:`simcycle.interrupts`) stops at
    the current batch.  By default it propagates: a caller that combines several runs (swing,
    history, the report, experiments, backtests, a cycle's stages) never sees a result from
    fewer replicas than it asked for.  With ``partial=True`` the replicas that finished are
    returned, flagged ``interrupted`` (``sims`` says how many; ``requested`` how many were
    asked for), and the caller must say so in its output's header; an interruption before the
    first batch finished propagates even then (nothing to report)."""
    goal = max_sims if target_se is not None else sims
    interrupted = False
    bar = progress_bar(goal, progress)
    info = plan.info
    res = Result(list(info.names), 0, seed, info.points_scale, {},
                 list(info.counter_names), extra_probabilities=list(info.extra_probabilities),
                 requested=goal)
    # (tallies, replicas) replaced by one binding per batch, so a signal arriving between
    # two statements can never leave tallies and counts out of step
    state: tuple[dict, int] = ({}, 0)
    try:
        while state[1] < goal:
            tallies, done = state
            n = min(info.batch or BATCH, goal - done)
            part = plan.run_batch(seed, done, n)
            merged = {k: (tallies[k] + v if k in tallies else v.copy())
                      for k, v in part.items()}
            state = (merged, done + n)
            bar.update(n)
            if target_se is not None and state[1] >= min(sims, goal):
                res.tallies, res.sims = state
                if res.max_se() < target_se:
                    break
    except KeyboardInterrupt:
        if not partial or state[1] == 0:
            raise
        interrupted = True
    finally:
        bar.close()
    res.tallies, res.sims = state
    res.interrupted = interrupted
    return res
