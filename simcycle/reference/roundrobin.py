"""Plain-Python twin of ``kernels.roundrobin_nb``: one replica at a time, written for clarity.

Draws from ``Stream(seed, replica)`` in the kernel's order: offsets (player-major,
class-minor), the remaining games in plan order, the play-off for first, then lots in the
ranking criteria from the top group down.
"""

from __future__ import annotations

from ..enums import (PO_ARMAGEDDON, PO_LOTS, PO_MATCH, PO_ROUND_ROBIN, PO_SUDDEN_DEATH_KO,
                     TB_HEAD_TO_HEAD, TB_LOTS, TB_SONNEBORN_BERGER, TB_WINS)
from . import games
from .rng import Stream


def playoff(plan, rt, tied, stream, flags):
    flags[0] = 1
    params = plan.params.tolist()
    cand = list(tied)
    for s, stage in enumerate(plan.stages.tolist()):
        if len(cand) == 1:
            break
        opt = next((o for o in stage if o[2] != 0 and o[0] <= len(cand) <= o[1]), None)
        if opt is None:
            continue
        if s == 1:
            flags[1] = 1
        elif s >= 2:
            flags[2] = 1
        kind, ci = opt[2], opt[3]
        if kind == PO_MATCH and len(cand) == 2:
            d = games.pair(params, rt, plan.offsets, ci, cand[0], cand[1], stream)
            if d != 0:
                cand = [cand[0] if d > 0 else cand[1]]
        elif kind == PO_ROUND_ROBIN or kind == PO_MATCH:
            score = games.round_robin(params, rt, plan.offsets, ci, cand, stream)
            cand = [p for p, x in zip(cand, score) if x == max(score)]
        elif kind == PO_SUDDEN_DEATH_KO:
            cand = [games.sudden_death_knockout(params, rt, plan.offsets, ci, cand, stream)]
        elif kind == PO_ARMAGEDDON and len(cand) == 2:
            cand = [games.armageddon(params, rt, plan.offsets, ci, cand[0], cand[1], stream)]
        elif kind == PO_LOTS:
            flags[3] = 1
            cand = [cand[stream.randint(len(cand))]]
    if len(cand) > 1:
        flags[3] = 1
        cand = [cand[stream.randint(len(cand))]]
    return cand[0]


def one_replica(plan, seed: int, replica: int):
    """Return (final order, half points, flags) of one simulated completion."""
    stream = Stream(seed, replica)
    n = len(plan.names)
    rt = plan.rt.tolist()
    if plan.offsets:
        rt = [[rt[i][c] + stream.normal() * float(plan.offset_sd[c]) for c in range(3)]
              for i in range(n)]
    pts = plan.base_pts.tolist()
    wins = plan.base_wins.tolist()
    res = plan.base_res.tolist()
    params = plan.params.tolist()
    hot = bool(plan.hot_k.any())
    for g in range(len(plan.gw)):
        w, b = int(plan.gw[g]), int(plan.gb[g])
        if plan.offsets or hot:
            cls = int(params[plan.game_ci][4])
            pw, pd = games.wdl(params, plan.game_ci, rt[w][cls], rt[b][cls], plan.offsets)
            u = stream.u01()
            out = 0 if u < pw else (1 if u < pw + pd else 2)
            if hot:
                delta = float(plan.hot_k[cls]) * ((1.0, 0.5, 0.0)[out] - (pw + pd / 2))
                rt[w][cls] += delta
                rt[b][cls] -= delta
        else:
            u = stream.u01()
            out = 0 if u < plan.thr_w[g] else (1 if u < plan.thr_d[g] else 2)
        sw, sb_ = {0: (2, 0), 1: (1, 1), 2: (0, 2)}[out]
        pts[w] += sw
        pts[b] += sb_
        res[w][b] += sw
        res[b][w] += sb_
        wins[w] += out == 0
        wins[b] += out == 2
    sb = [sum(res[i][j] * pts[j] for j in range(n)) for i in range(n)]
    flags = [0, 0, 0, 0]

    # groups level on points, best first; members in index order
    levels = sorted(set(pts), reverse=True)
    groups = [[i for i in range(n) if pts[i] == v] for v in levels]
    if plan.playoff_first and len(groups[0]) > 1:
        if plan.forced_first in groups[0]:
            w = plan.forced_first
            flags[0] = 1
        else:
            w = playoff(plan, rt, groups[0], stream, flags)
        groups = [[w], [p for p in groups[0] if p != w]] + groups[1:]
    for crit in plan.criteria.tolist():
        new = []
        for g in groups:
            if len(g) == 1:
                new.append(g)
            elif crit == TB_LOTS:
                flags[3] = 1
                new.extend([p] for p in games.shuffled(g, stream))
            else:
                def value(p, g=g):
                    if crit == TB_SONNEBORN_BERGER:
                        return sb[p]
                    if crit == TB_WINS:
                        return wins[p]
                    assert crit == TB_HEAD_TO_HEAD
                    return sum(res[p][q] for q in g)
                for v in sorted({value(p) for p in g}, reverse=True):
                    new.append([p for p in g if value(p) == v])  # stable: keeps prior order
        groups = new
    order = [p for g in groups for p in g]
    return order, pts, flags


def tallies(plan, seed: int, first: int, n: int) -> dict:
    """The tallies ``plan.run_batch(seed, first, n)`` must return, computed slowly."""
    import numpy as np

    k = len(plan.names)
    out = {"place": np.zeros((k, plan.n_places), np.int64), "qualify": np.zeros(k, np.int64),
           "points": np.zeros(k), "points_sq": np.zeros(k), "prize": np.zeros(k),
           "prize_sq": np.zeros(k), "counters": np.zeros(4, np.int64)}
    for r in range(first, first + n):
        order, pts, flags = one_replica(plan, seed, r)
        for place, i in enumerate(order):
            out["place"][i, place] += 1
            out["qualify"][i] += place < plan.qualifying_places
            out["points"][i] += pts[i]
            out["points_sq"][i] += pts[i] ** 2
            z = plan.place_prize[place] + plan.per_half * pts[i]
            out["prize"][i] += z
            out["prize_sq"][i] += z * z
        out["counters"] += flags
    return out
