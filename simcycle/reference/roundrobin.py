"""Plain-Python twin of ``formats.roundrobin.nb``: one replica at a time, written for clarity.

Reads the same :class:`~simcycle.formats.roundrobin.nb.RoundRobinArgs` and draws from
``Stream(seed, replica)`` in the kernel's order: the parameter draw, offsets (player-major,
class-minor), the remaining games in plan order, then the ranking steps in order (the play-off
for first, lots of the groups still level, top group first).
"""

from __future__ import annotations

from ..enums import (COLOURS_BY_LOT, PO_ARMAGEDDON, PO_LOTS, PO_MATCH, PO_ROUND_ROBIN,
                     PO_SUDDEN_DEATH_KO, RR_C_LOTS, RR_C_PLAYOFF, RR_C_Q_LOTS, RR_C_Q_TIEBREAK,
                     RR_C_STAGE2, RR_C_STAGE3, TB_PLAYOFF, TBS_LOTS)
from ..formats.roundrobin.rules import SCORE
from . import criteria, games
from .prizes import shared_by_points
from .rng import Stream


def playoff(a, rt, tied, stream, flags):
    params = a.params.tolist()
    off = a.offsets
    cand = list(tied)
    for s, stage in enumerate(a.stages.tolist()):
        if len(cand) == 1:
            break
        opt = next((o for o in stage if o[2] != 0 and o[0] <= len(cand) <= o[1]), None)
        if opt is None:
            continue
        if s >= 1:
            flags[RR_C_STAGE2 if s == 1 else RR_C_STAGE3] = 1
        kind, ci = opt[2], opt[3]
        if kind == PO_LOTS:
            cand = _by_lots(cand, stream, flags)
            continue
        play = _PLAYS.get((kind, len(cand) == 2))
        if play is not None:   # an option without effect leaves the same players
            cand = play(params, rt, off, ci, cand, stream)
    if len(cand) > 1:
        cand = _by_lots(cand, stream, flags)
    return cand[0]


def _by_lots(cand, stream, flags):
    flags[RR_C_LOTS] = 1
    return [cand[stream.randint(len(cand))]]


# One play-off among ``cand``: the players still level after it.
def _after_match(params, rt, off, ci, cand, stream):
    d = games.pair(params, rt, off, ci, cand[0], cand[1], stream)
    return cand if d == 0 else [cand[0] if d > 0 else cand[1]]


def _after_round_robin(params, rt, off, ci, cand, stream):
    score = games.round_robin(params, rt, off, ci, cand, stream)
    return [p for p, x in zip(cand, score) if x == max(score)]


def _after_knockout(params, rt, off, ci, cand, stream):
    return [games.sudden_death_knockout(params, rt, off, ci, cand, stream)]


def _after_armageddon(params, rt, off, ci, cand, stream):
    return [games.armageddon(params, rt, off, ci, cand[0], cand[1], stream)]


# (kind, two players?) -> the play-off; a match among more than two is a round robin
_PLAYS = {(PO_MATCH, True): _after_match, (PO_MATCH, False): _after_round_robin,
          (PO_ROUND_ROBIN, True): _after_round_robin, (PO_ROUND_ROBIN, False): _after_round_robin,
          (PO_SUDDEN_DEATH_KO, True): _after_knockout,
          (PO_SUDDEN_DEATH_KO, False): _after_knockout,
          (PO_ARMAGEDDON, True): _after_armageddon}


def _ratings(a, stream):
    """[segment][player][class] ratings of one replica (offsets drawn player-major,
    class-minor, one per player and class for every segment)."""
    rt = a.rt.tolist()
    if a.offsets:
        for i in range(len(a.base_pts)):
            for c in range(3):
                x = stream.normal() * float(a.offset_sd[c])
                for s in range(len(rt)):
                    rt[s][i][c] = float(a.rt[s, i, c]) + x
    return rt


def terms(a, offsets: bool) -> list:
    """The event's game terms (nu0, level, ref, slope, edge): the offsets' slope with
    ``offsets`` (``game_nb.terms_nb``)."""
    row = a.params[a.game_ci].tolist()
    d0 = row[0]
    return [2.0 * d0 / (1.0 - d0), row[3], row[8], row[7] if offsets else row[2], row[1]]


def _drawn_terms(a, stream):
    """The event's game terms (nu0, level, ref, slope, edge) of one replica: the plan's, plus
    A z with the parameter draw on (four normals)."""
    import math

    terms_ = terms(a, a.offsets)
    if a.draw_factor.shape[0]:
        z = [stream.normal() for _ in range(4)]
        f = a.draw_factor.tolist()
        dx = [f[i][0] * z[0] + f[i][1] * z[1] + f[i][2] * z[2] + f[i][3] * z[3]
              for i in range(4)]
        terms_[0] *= math.exp(dx[0])
        terms_[4] += dx[1]
        terms_[3] += dx[2]
        terms_[1] += dx[3]
    return terms_


def _davidson(terms, r_white, r_black):
    import math

    nu0, level, ref, slope, edge = terms
    nu = nu0 * math.exp(level * ((r_white + r_black) * 0.5 - ref))
    delta = (1.0 + 0.5 * nu) * (slope * (r_white - r_black) + edge)
    s = 10.0 ** (delta / 800.0)
    norm = s + 1.0 / s + nu
    return s / norm, nu / norm


def _play_games(a, rt, stream, terms_):
    """The remaining games in plan order: (half points, the crosstable's results by column:
    ``RoundRobinArgs.base_res``).  With colours by lot a lot before each game: the
    schedule's White keeps White when it is below 0.5."""
    params = a.params.tolist()
    hot = bool(a.hot_k.any())
    pts = a.base_pts.tolist()
    res = a.base_res.tolist()
    cls = int(params[a.game_ci][4])
    for q in range(len(a.gw)):
        w, b, seg = int(a.gw[q]), int(a.gb[q]), int(a.gseg[q])
        cw, cb = int(a.gsw[q]), int(a.gsb[q])
        if a.colours == COLOURS_BY_LOT and stream.u01() >= 0.5:
            w, b, cw, cb = b, w, cb, cw
        if a.live:
            pw, pd = _davidson(terms_, rt[seg][w][cls], rt[seg][b][cls])
            tw, td = pw, pw + pd
        else:
            tw, td = float(a.thr[seg, a.game_ci, w, b, 0]), float(a.thr[seg, a.game_ci, w, b, 1])
        u = stream.u01()
        out = 0 if u < tw else (1 if u < td else 2)
        if hot:
            delta = float(a.hot_k[cls]) * ((1.0, 0.5, 0.0)[out] - (tw + 0.5 * (td - tw)))
            for s in range(len(rt)):
                rt[s][w][cls] += delta
                rt[s][b][cls] -= delta
        sw, sb = SCORE[out]
        pts[w] += sw
        pts[b] += sb
        res[w][cw] = sw
        res[b][cb] = sb
    return pts, res


def _rank(a, rt, pts, res, stream, flags):
    """The final order: groups level on points (members in index order), refined step by
    step: the play-off for the top group, the C.07 criteria (``reference.criteria``, over the
    crosstable), lots."""
    n = len(pts)
    t = criteria.Table(a.opp.tolist(), res, a.kind.tolist(), a.colour.tolist(),
                       a.rating.tolist(), len(res[0]) if res else 0)
    assert t.pts == pts
    groups = [[i for i in range(n) if pts[i] == v] for v in sorted(set(pts), reverse=True)]
    for crit in a.criteria.tolist():
        if crit == TB_PLAYOFF:
            groups = _playoff_step(a, rt, groups, stream, flags)
        else:
            groups = _criterion_step(a.n_qual, crit, t, groups, stream, flags)
    return [p for grp in groups for p in grp]


def _playoff_step(a, rt, groups, stream, flags):
    """The play-off step: the top group, if two or more, is split into its winner and the
    rest."""
    top = groups[0]
    if len(top) == 1:
        return groups
    flags[RR_C_PLAYOFF] = 1
    if a.forced_first in top:
        w = a.forced_first
    else:
        w = playoff(a, rt[a.playoff_seg], top, stream, flags)
        if a.n_qual == 1 and flags[RR_C_LOTS]:
            flags[RR_C_Q_LOTS] = 1
    return [[w], [p for p in top if p != w]] + groups[1:]


def _criterion_step(q, crit, t, groups, stream, flags):
    """A criterion step (or lots) splitting every group of two or more; ``q`` places
    qualify."""
    new = []
    pos = 0
    for grp in groups:
        start, pos = pos, pos + len(grp)
        if len(grp) == 1:
            new.append(grp)
        elif crit == TBS_LOTS:
            flags[RR_C_LOTS] = 1
            if start < q < pos:
                flags[RR_C_Q_LOTS] = 1
            new.extend([p] for p in games.shuffled(grp, stream))
        else:
            v = {p: criteria.FUNCTIONS[crit](t, p, grp) for p in grp}
            for x in sorted(set(v.values()), reverse=True):
                new.append([p for p in grp if v[p] == x])   # stable: keeps prior order
    return new


def _money(a, order, pts):
    """Prize money of each player: each place's money (PRIZE_BY_ORDER) or shared by those
    level on points (PRIZE_BY_POINTS), plus the money per half point."""
    n = len(pts)
    money = [0.0] * n
    if a.prize_split == 0:       # nb.PRIZE_BY_ORDER
        for place, i in enumerate(order):
            money[i] = float(a.place_prize[place])
    else:
        money = shared_by_points(order, pts, a.place_prize)
    return [m + float(a.per_half) * pts[i] for i, m in enumerate(money)]


def stage(a, rt, stream, terms_, flags):
    """The stage from its games on (after the parameter draw and the offsets): the remaining
    games, then the ranking; (final order, half points).  A tour's round robin calls it
    (``reference.tour``)."""
    pts, res = _play_games(a, rt, stream, terms_)
    return _rank(a, rt, pts, res, stream, flags), pts


def one_replica(a, seed: int, replica: int):
    """Return (final order, half points, prize money, flags) of one simulated completion."""
    stream = Stream(seed, replica)
    terms_ = _drawn_terms(a, stream)
    rt = _ratings(a, stream)
    flags = [0] * 6
    order, pts = stage(a, rt, stream, terms_, flags)
    q = a.n_qual
    if 0 < q < len(pts) and pts[order[q - 1]] == pts[order[q]]:
        flags[RR_C_Q_TIEBREAK] = 1
    return order, pts, _money(a, order, pts), flags


def tallies(plan, seed: int, first: int, n: int) -> dict:
    """The tallies ``plan.run_batch(seed, first, n)`` must return, computed slowly."""
    import numpy as np

    a = plan.args
    k = len(plan.info.names)
    out = {"place": np.zeros((k, plan.info.n_places), np.int64), "qualify": np.zeros(k, np.int64),
           "points": np.zeros(k), "points_sq": np.zeros(k), "prize": np.zeros(k),
           "prize_sq": np.zeros(k), "counters": np.zeros(6, np.int64)}
    for r in range(first, first + n):
        order, pts, money, flags = one_replica(a, seed, r)
        for place, i in enumerate(order):
            out["place"][i, place] += 1
            out["qualify"][i] += int(a.qualified[place])
            out["points"][i] += pts[i]
            out["points_sq"][i] += pts[i] ** 2
            out["prize"][i] += money[i]
            out["prize_sq"][i] += money[i] * money[i]
        out["counters"] += flags
    return out
