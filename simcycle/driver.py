"""Run a compiled Plan in batches: progress bar, --target-se, interruption, summaries.

A Plan is any object with
  names: list[str]            players in Plan order
  n_places: int               places tallied per player
  points_scale: float         divide tallied points by this (2 for half points)
  run_batch(seed, first, n) -> dict[str, np.ndarray]
      tallies of replicas first .. first+n-1, summed: 'place' int64 [n_players, n_places],
      'qualify' int64 [n_players], 'points' / 'points_sq' / 'prize' / 'prize_sq' float64
      [n_players]; optional 'counters' int64 [k] named by plan.counter_names.
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


@dataclass
class Result:
    names: list
    sims: int
    seed: int
    points_scale: float
    tallies: dict
    counter_names: list = field(default_factory=list)
    interrupted: bool = False

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
        out = []
        for i, name in enumerate(self.names):
            out.append({
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
            })
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


def run(plan, sims: int, seed: int, *, target_se: float | None = None,
        max_sims: int = 100_000_000, progress: bool | None = None) -> Result:
    """Simulate ``sims`` replicas (or, with ``target_se``, until every probability's
    standard error is below it, capped at ``max_sims``).  Ctrl-C stops at the current
    batch and returns what finished, flagged ``interrupted``."""
    from tqdm import tqdm

    goal = max_sims if target_se is not None else sims
    tallies: dict = {}
    done = 0
    interrupted = False
    bar = tqdm(total=goal, unit="sim", unit_scale=True, file=sys.stderr, leave=False,
               disable=(not progress) if progress is not None else None,
               desc="simulating")
    res = Result(list(plan.names), 0, seed, plan.points_scale, tallies,
                 list(getattr(plan, "counter_names", [])))
    try:
        while done < goal:
            n = min(BATCH, goal - done)
            part = plan.run_batch(seed, done, n)
            for k, v in part.items():
                if k in tallies:
                    tallies[k] += v
                else:
                    tallies[k] = v.copy()
            done += n
            res.sims = done
            bar.update(n)
            if target_se is not None and done >= min(sims, goal) and res.max_se() < target_se:
                break
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    res.interrupted = interrupted
    return res
