"""Plain-Python twin of ``formats.knockout_series.nb``: a knock-out series replica by replica.

Written for clarity; it reads the same :class:`~simcycle.formats.knockout_series.nb.KnockoutArgs`
and draws the same numbers in the same order (see the kernel's docstring; each bracket through
the twin of the one walk, ``reference.bracket.walk``), and computes game
probabilities itself through ``reference.games`` from the event's ratings (the kernel reads
them from a table), so the tests comparing the two check the table as well.
"""

from __future__ import annotations

from ..enums import (KO_C_Q_LOTS, KO_C_Q_TIEBREAK, SER_CLASSICAL, SER_EVENTS_WON, SER_H2H,
                     SER_LOTS, SER_SECOND)
from . import games as G
from .bracket import walk
from .prizes import shared_by_points
from .rng import Stream


def _flat(size, r, j):
    base, m = 0, size // 2
    for _ in range(r):
        base += m
        m //= 2
    return base + j


def _event(a, e, rt, s, pidx, acc, log):
    """Play event e into the accumulators (pts, won, second, cls, prize by plan player)."""
    pts, won, second, cls, prize = acc
    params = a.params.tolist()
    steps = [tuple(int(x) for x in row) for row in a.steps]
    size = int(a.ev_size[e])
    if a.offsets:
        G.draw_offsets(rt[e], a.rt[e], a.pos[e, :size], a.offset_sd, s)
    players = [int(x) for x in a.pos[e, :size]]
    n_rounds = size.bit_length() - 1

    def match(pa, pb, fixed):
        return G.match(params, rt[e], a.offsets, pa, pb, steps, fixed, s)

    rec, _, champ = walk(match, players, size, a.kstat[e], a.kwin[e], a.kstep[e], a.kcls[e],
                         a.kwhite[e], a.kfixed[e], s)
    for f, (upos, dpos, wside, step, cu, cl, _, _) in enumerate(rec):
        rd = next(r for r in range(n_rounds) if f < _flat(size, r + 1, 0))
        up, lo = players[upos], players[dpos]
        log.append((up, lo, cu, cl))
        _count_match(a, acc, [pidx[up], pidx[lo]], wside, step, (cu, cl), n_rounds - rd)
    c = pidx[players[champ]]
    if c >= 0:
        pts[c] += int(a.place_pts[0])
        prize[c] += float(a.place_prize[0])
        won[c] += 1


def _count_match(a, acc, side, wside, step, half_points, back):
    """One match into the accumulators: ``side`` the upper and lower players' plan indices
    (-1 not in the plan), their classical ``half_points``; the winner's bonus when he won in
    the classical games (step 0), the loser's place ``back`` rounds from the final."""
    pts, _, second, cls, prize = acc
    for q in (0, 1):
        if side[q] >= 0:
            cls[side[q]] += half_points[q]
    w, loser = side[wside], side[1 - wside]
    if step == 0 and w >= 0:
        pts[w] += a.bonus
    if loser >= 0:
        pts[loser] += int(a.place_pts[back])
        prize[loser] += float(a.place_prize[back])
        if back == 1:
            second[loser] += 1


def _rank(a, pts, won, second, cls, log, pidx, s):
    """The final order (plan indices): points, then each criterion on the groups still level,
    lots last."""
    n = len(pts)
    groups = [[i for i in range(n) if pts[i] == v] for v in sorted(set(pts), reverse=True)]
    lotted = [0] * n        # > 0: the group lots ordered him in (its first position + 1)
    for crit in (int(x) for x in a.criteria):
        new = []
        pos = 0
        for g in groups:
            start, pos = pos, pos + len(g)
            if len(g) == 1:
                new.append(g)
            elif crit == SER_LOTS:
                for x in g:
                    lotted[x] = start + 1
                new.extend([x] for x in G.shuffled(g, s))
            else:
                new += _split(g, _values(crit, g, won, second, cls, log, pidx))
        groups = new
    return [p for g in groups for p in g], lotted


def _split(g, val):
    """Group g split by the values ``val`` (highest first), each part in g's order (stable,
    like the kernel)."""
    ordered = sorted(g, key=lambda p: -val[p])
    return [[p for p in ordered if val[p] == v] for v in sorted(set(val.values()), reverse=True)]


def _values(crit, g, won, second, cls, log, pidx):
    """{player of group g: his value of criterion crit}: head-to-head sums the classical
    points of the games between members of g (``log``), the others read a tally."""
    if crit != SER_H2H:
        arr = {SER_EVENTS_WON: won, SER_SECOND: second, SER_CLASSICAL: cls}[crit]
        return {p: arr[p] for p in g}
    val = {p: 0 for p in g}
    for up, lo, cu, cl in log:
        pa, pb = pidx[up], pidx[lo]
        if pa in val and pb in val:
            val[pa] += cu
            val[pb] += cl
    return val


def simulate_replica(a, seed: int, replica: int) -> dict:
    """One replica: returns order (plan indices, best first), pts, prize, qualify, wildcard."""
    s = Stream(seed, replica)
    rt = a.rt.tolist()                  # [event][field player][class]
    pidx = [int(x) for x in a.plan_index]
    n = len(a.qual_else)
    pts, won, second, cls, prize = [0] * n, [0] * n, [0] * n, [0] * n, [0.0] * n
    log = []
    for e in range(a.pos.shape[0]):
        _event(a, e, rt, s, pidx, (pts, won, second, cls, prize), log)
    order, lotted = _rank(a, pts, won, second, cls, log, pidx, s)
    for i, m in enumerate(shared_by_points(order, pts, a.overall)):
        prize[i] += m
    qualify = [0] * n
    wildcard = [0] * n
    eligible = [i for i in order if a.qual_else[i] == 0]
    for i in eligible[:a.n_qual]:
        qualify[i] = 1
    flags = [0, 0]
    if len(eligible) > a.n_qual > 0:
        last, nxt = eligible[a.n_qual - 1], eligible[a.n_qual]
        wildcard[nxt] = 1
        if pts[last] == pts[nxt]:
            flags[KO_C_Q_TIEBREAK] = 1
            if lotted[last] and lotted[last] == lotted[nxt]:
                flags[KO_C_Q_LOTS] = 1
    elif len(eligible) > a.n_qual:
        wildcard[eligible[a.n_qual]] = 1
    return {"order": order, "pts": pts, "prize": prize, "qualify": qualify, "wildcard": wildcard,
            "flags": flags}


def tallies(plan, seed: int, first: int, n: int) -> dict:
    """Summed tallies of replicas first .. first+n-1, as ``plan.run_batch`` returns them."""
    import numpy as np

    a = plan.args
    k = len(plan.info.names)
    place = np.zeros((k, plan.info.n_places), np.int64)
    qual = np.zeros(k, np.int64)
    wild = np.zeros(k, np.int64)
    counters = np.zeros(2, np.int64)
    fl = [np.zeros(k) for _ in range(4)]
    for r in range(first, first + n):
        d = simulate_replica(a, seed, r)
        counters += d["flags"]
        for p, i in enumerate(d["order"]):
            place[i, p] += 1
        for i in range(k):
            qual[i] += d["qualify"][i]
            wild[i] += d["wildcard"][i]
            x = float(d["pts"][i])
            fl[0][i] += x
            fl[1][i] += x * x
            z = d["prize"][i]
            fl[2][i] += z
            fl[3][i] += z * z
    return {"place": place, "qualify": qual, "wildcard": wild, "counters": counters,
            "points": fl[0],
            "points_sq": fl[1], "prize": fl[2], "prize_sq": fl[3]}
