"""Plain-Python twin of ``kernels.tour_nb``: the same season, the same draws in the same order.

Written for clarity from the rules (seed 004, see ``formats/tour.py``); the tests run both on the
same (seed, replica) streams and expect identical tallies.
"""

from __future__ import annotations

from ..formats.tour import (EV_BL, EV_BS, EV_CI, EV_CYCLES, EV_FL, EV_FS, EV_OPP, EV_PS,
                            EV_ROUNDS, EV_SL, EV_SS, EV_SYS, EV_TS, SIM_OPEN, SIM_RR, tiebreak_key)
from .games import game, match, shuffled
from .rng import Stream


def places_from_scores(scores, share_lots, stream):
    """[(lo, hi)] per player: level scores share the places they cover, or lots order them."""
    k = len(scores)
    order = sorted(range(k), key=lambda i: -scores[i])  # stable: level keep list order
    out = [None] * k
    i = 0
    while i < k:
        j = i
        while j < k and scores[order[j]] == scores[order[i]]:
            j += 1
        grp = order[i:j]
        if share_lots and len(grp) > 1:
            for t, p in enumerate(shuffled(grp, stream)):
                out[p] = (i + t + 1, i + t + 1)
        else:
            for p in grp:
                out[p] = (i + 1, j)
        i = j
    return out


def play_event(plan, e, rt, offsets, stream):
    """(lo, hi, points) of each listed player of event row e, in field order."""
    row = plan.ev[e]
    params = plan.params
    fs, fl, ci = int(row[EV_FS]), int(row[EV_FL]), int(row[EV_CI])
    field = [int(x) for x in plan.field[fs: fs + fl]]
    ts = int(row[EV_TS])

    def play(w, b, t):
        """White w against Black b: with offsets the model, else the plan's thresholds row t
        (the same one draw either way)."""
        if offsets:
            return game(params, rt, offsets, ci, w, b, stream)
        u = stream.u01()
        return 0 if u < plan.thr[t][0] else (1 if u < plan.thr[t][1] else 2)

    if row[EV_SYS] == SIM_RR:
        scores = [0] * fl
        cyc = int(row[EV_CYCLES])
        for c in range(cyc):
            for i in range(fl):
                for j in range(i + 1, fl):
                    i_white = stream.u01() < 0.5 if cyc == 1 else c % 2 == 0
                    if i_white:
                        r = play(field[i], field[j], ts + i * fl + j)
                    else:
                        r = 2 - play(field[j], field[i], ts + j * fl + i)
                    scores[i] += {0: 2, 1: 1, 2: 0}[r]
                    scores[j] += {0: 0, 1: 1, 2: 2}[r]
        places = places_from_scores(scores, plan.share_lots, stream)
    elif row[EV_SYS] == SIM_OPEN:
        opp = int(row[EV_OPP])
        scores = []
        for i, a in enumerate(field):
            s = 0
            for rd in range(int(row[EV_ROUNDS])):
                r = (play(a, opp, ts + 2 * i) if rd % 2 == 0
                     else 2 - play(opp, a, ts + 2 * i + 1))
                s += {0: 2, 1: 1, 2: 0}[r]
            scores.append(s)
        places = places_from_scores(scores, plan.share_lots, stream)
    else:
        ss, sl = int(row[EV_SS]), int(row[EV_SL])
        steps = [tuple(int(x) for x in plan.steps[s]) for s in range(ss, ss + sl)]
        bs, size = int(row[EV_BS]), int(row[EV_BL])
        alive = [int(x) for x in plan.slots[bs: bs + size]]
        places = [None] * fl
        while len(alive) > 1:
            nxt, losers = [], []
            for i in range(len(alive) // 2):
                a, b = alive[2 * i], alive[2 * i + 1]
                if a < 0 or b < 0:
                    nxt.append(b if a < 0 else a)
                    continue
                won = match(params, rt, offsets, field[a], field[b], steps, [], stream)[0]
                nxt.append(a if won == 0 else b)
                losers.append(b if won == 0 else a)
            surv = sum(1 for x in nxt if x >= 0)
            for p in losers:
                places[p] = (surv + 1, surv + len(losers))
            alive = nxt
        places[alive[0]] = (1, 1)
    ps = int(row[EV_PS])
    pp = [int(x) for x in plan.pp[ps: ps + fl]]
    out = []
    for lo, hi in places:
        k = hi - lo + 1
        s = sum(pp[p - 1] for p in range(lo, hi + 1))
        out.append((lo, hi, (2 * s + k) // (2 * k)))
    return out


def replica(plan, seed: int, r: int):
    """One simulated season: (member order best first, totals, flags)."""
    stream = Stream(seed, r)
    rt = [list(map(float, row)) for row in plan.rt]
    if plan.offsets:
        for i in range(plan.n_real):
            for cls in range(3):
                rt[i][cls] = float(plan.rt[i][cls]) + stream.normal() * float(plan.offset_sd[cls])
    nm = len(plan.names)
    res = [[int(x) for x in plan.base_top[m][: plan.base_cnt[m]]] for m in range(nm)]
    for e in range(plan.ev.shape[0]):
        row = plan.ev[e]
        fs = int(row[EV_FS])
        for i, (_, _, pts) in enumerate(play_event(plan, e, rt, plan.offsets, stream)):
            m = int(plan.member_of[plan.field[fs + i]])
            if m >= 0 and pts > 0:
                res[m] = sorted(res[m] + [pts], reverse=True)[: plan.best_n]
    keys = [tiebreak_key(res[m]) for m in range(nm)]
    order = sorted(range(nm), key=lambda m: keys[m])
    q = plan.qualifying_places
    flags = [0, 0]
    if 0 < q < nm:
        a, b = order[q - 1], order[q]
        if keys[a] == keys[b]:
            flags[1] = 1
        elif keys[a][0] == keys[b][0]:
            flags[0] = 1
    final = []
    i = 0
    while i < nm:
        j = i
        while j < nm and keys[order[j]] == keys[order[i]]:
            j += 1
        grp = order[i:j]
        final.extend(shuffled(grp, stream) if len(grp) > 1 else grp)
        i = j
    totals = [sum(x) for x in res]
    return final, totals, flags


def run(plan, seed: int, first: int, n: int) -> dict:
    """Tallies of replicas first..first+n-1, as ``TourPlan.run_batch`` returns them."""
    import numpy as np

    nm = len(plan.names)
    place = np.zeros((nm, nm), np.int64)
    qual = np.zeros(nm, np.int64)
    pts = np.zeros(nm)
    pts2 = np.zeros(nm)
    counters = np.zeros(2, np.int64)
    for r in range(first, first + n):
        order, totals, flags = replica(plan, seed, r)
        for p, m in enumerate(order):
            place[m, p] += 1
            if p < plan.qualifying_places:
                qual[m] += 1
            pts[m] += totals[m]
            pts2[m] += float(totals[m]) ** 2
        counters += flags
    return {"place": place, "qualify": qual, "points": pts, "points_sq": pts2,
            "prize": np.zeros(nm), "prize_sq": np.zeros(nm), "counters": counters}
