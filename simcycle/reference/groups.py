"""Plain-Python twin of ``formats.group_series.nb``: same rules, same draws from the same
stream, reading the same :class:`~simcycle.formats.group_series.nb.GroupSeriesArgs`.

Also holds ``group_exact``: the exact distribution of a group's points (sixths) by slot,
enumerating the unplayed games and every play-off branch, for checks of the Monte Carlo.
Written for clarity, not speed.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

import numpy as np

from ..enums import (BLACK_WINS, DRAW_BASKETS, DRAW_LOTS, GS_C_ARMAGEDDON, GS_C_GROUP_PLAYOFF,
                     GS_C_Q_LOTS, GS_C_Q_TIEBREAK, PLACES_ELIMINATION, REDUCED_NEXT_STEP,
                     SER_CLASSICAL, SER_CLASSICAL_WINS, SER_EVENTS_WON, SER_SECOND,
                     STEP_ARMAGEDDON, STEP_GAMES, WHITE_WINS)
from ..formats.group_series.rules import rest_places
from . import games as G
from .bracket import walk
from .rng import Stream


class Games:
    """Twin of ``kernels.game_nb.Games`` for one replica: thresholds from the table, or live
    from the replica's ratings ``rt[segment][player][class]``."""

    def __init__(self, params, rt, thr, live, offsets):
        self.params = [list(map(float, row)) for row in params]
        self.rt = rt
        self.thr = thr
        self.live = live
        self.offsets = offsets

    def game(self, seg, ci, w, b, stream):
        """0 White won, 1 draw, 2 Black won: one uniform."""
        if self.live:
            cls = int(self.params[ci][4])
            pw, pd = G.wdl(self.params, ci, self.rt[seg][w][cls], self.rt[seg][b][cls],
                           self.offsets)
            tw, td = pw, pw + pd
        else:
            tw, td = float(self.thr[seg, ci, w, b, 0]), float(self.thr[seg, ci, w, b, 1])
        u = stream.u01()
        return 0 if u < tw else (1 if u < td else 2)

    def armageddon(self, seg, ci, a, b, stream):
        w, bl = (a, b) if stream.u01() < 0.5 else (b, a)
        return w if self.game(seg, ci, w, bl, stream) == 0 else bl

    def round_robin3(self, seg, ci, players, stream):
        sc = [0, 0, 0]
        for i in range(3):
            for j in range(i + 1, 3):
                wi, bi = (i, j) if stream.u01() < 0.5 else (j, i)
                r = self.game(seg, ci, players[wi], players[bi], stream)
                sc[wi] += (2, 1, 0)[r]
                sc[bi] += (0, 1, 2)[r]
        return sc

    def match(self, seg, a, b, steps, fixed, stream):
        """Twin of ``match_nb``: [winner (0 a, 1 b), deciding step, a's and b's half points,
        a's and b's wins (in step 0)]."""
        return G.play_match(lambda ci, w, bl: self.game(seg, ci, w, bl, stream),
                            lambda ci, x, y: self.armageddon(seg, ci, x, y, stream), None,
                            a, b, steps, fixed, stream)


def two_player(g: Games, seg, steps, s0, pa, pb, stream, flags):
    """0 if pa wins the two-player procedure from step s0, else 1."""
    swap = not stream.u01() < 0.5
    x, y = (pb, pa) if swap else (pa, pb)
    out = g.match(seg, x, y, steps[s0:], [], stream)
    if s0 + out[1] < len(steps) and steps[s0 + out[1]][0] == STEP_ARMAGEDDON:
        flags[GS_C_ARMAGEDDON] = 1
    return 0 if (out[0] == 0) != swap else 1


def _places_one_top(sc, tied, gp6, share, places_mode, top, out) -> None:
    """Group points of a three-way play-off that ``top`` (0-2) won outright: the other two
    placed by their scores (elimination places) or sharing second and third."""
    o0, o1 = [i for i in range(3) if i != top]
    out[tied[top]] = gp6[0]
    if places_mode == PLACES_ELIMINATION and sc[o0] != sc[o1]:
        hi, lo = (o0, o1) if sc[o0] > sc[o1] else (o1, o0)
        out[tied[hi]], out[tied[lo]] = gp6[1], gp6[2]
    else:
        out[tied[o0]] = out[tied[o1]] = share


def _places_two_top(tied, gp6, share, places_mode, wi, li, left, out) -> None:
    """Group points of a three-way play-off whose top two went to a two-player procedure
    that ``wi`` won from ``li``; ``left`` was third."""
    out[tied[wi]] = gp6[0]
    if places_mode == PLACES_ELIMINATION:
        out[tied[li]], out[tied[left]] = gp6[1], gp6[2]
    else:
        out[tied[li]] = out[tied[left]] = share


def _three_level(g, seg, steps, players, tied, gp6, places_mode, reduced_mode, stream, flags,
                 out):
    share = (gp6[1] + gp6[2]) // 2
    pl = [players[s] for s in tied]
    for stp in range(2):
        sc = g.round_robin3(seg, int(steps[1 + stp][1]), pl, stream)
        m = max(sc)
        best = [i for i in range(3) if sc[i] == m]
        if len(best) == 1:
            _places_one_top(sc, tied, gp6, share, places_mode, best[0], out)
            return tied[best[0]]
        if len(best) == 2:
            p0, p1 = best
            left = next(i for i in range(3) if sc[i] != m)
            nxt = stp + 2 if reduced_mode == REDUCED_NEXT_STEP else 1
            r = two_player(g, seg, steps, nxt, pl[p0], pl[p1], stream, flags)
            wi, li = (p0, p1) if r == 0 else (p1, p0)
            _places_two_top(tied, gp6, share, places_mode, wi, li, left, out)
            return tied[wi]
    idx = G.shuffled([0, 1, 2], stream)
    flags[GS_C_ARMAGEDDON] = 1
    w = g.armageddon(seg, int(steps[3][1]), pl[idx[0]], pl[idx[1]], stream)
    wi, li = (idx[0], idx[1]) if w == pl[idx[0]] else (idx[1], idx[0])
    win = tied[wi]
    out[win] = gp6[0]
    out[tied[li]] = out[tied[idx[2]]] = share
    return win


def group_places(g: Games, seg, steps, players, score, gp6, places_mode, reduced_mode, stream,
                 flags):
    """Twin of ``group_places_nb``: returns (winner slot, points by slot in sixths)."""
    out = [-1] * 4
    top = max(score)
    tied = [s for s in range(4) if score[s] == top]
    if len(tied) == 1:
        out[tied[0]] = gp6[0]
        rest_places(score, gp6, out, 1)
        return tied[0], out
    flags[GS_C_GROUP_PLAYOFF] = 1
    if len(tied) == 2:
        r = two_player(g, seg, steps, 1, players[tied[0]], players[tied[1]], stream, flags)
        out[tied[r]] = gp6[0]
        out[tied[1 - r]] = gp6[1]
        rest_places(score, gp6, out, 2)
        return tied[r], out
    if len(tied) == 3:
        win = _three_level(g, seg, steps, players, tied, gp6, places_mode, reduced_mode, stream,
                           flags, out)
        rest_places(score, gp6, out, 3)
        return win, out
    idx = G.shuffled([0, 1, 2, 3], stream)
    r1 = two_player(g, seg, steps, 1, players[idx[0]], players[idx[1]], stream, flags)
    r2 = two_player(g, seg, steps, 1, players[idx[2]], players[idx[3]], stream, flags)
    w1, l1 = idx[r1], idx[1 - r1]
    w2, l2 = idx[2 + r2], idx[3 - r2]
    r = two_player(g, seg, steps, 1, players[w1], players[w2], stream, flags)
    win, second = (w1, w2) if r == 0 else (w2, w1)
    out[win], out[second] = gp6[0], gp6[1]
    out[l1] = out[l2] = (gp6[2] + gp6[3]) // 2
    return win, out


def _group_games(g: Games, seg, ci0, games, grp, score, cp, cw, stream):
    for _, ws, bs, r in games:
        w, b = grp[ws], grp[bs]
        if r < 0:
            r = g.game(seg, ci0, w, b, stream)
        score[ws] += (2, 1, 0)[r]
        score[bs] += (0, 1, 2)[r]
        cp[w] += (2, 1, 0)[r]
        cp[b] += (0, 1, 2)[r]
        cw[w] += r == WHITE_WINS
        cw[b] += r == BLACK_WINS


def _knockout(a, g, e, steps, gwin, gpts, tf, ts, cp, cw, prize, flags, stream):
    """Semi-finals A v B, C v D and the final of event e: the group winners ``gwin`` as a
    bracket of 4 through the bracket twin (twin of the kernel's ``walk_nb`` and the record
    read off it)."""
    ko_gp6, rates = int(a.ko_gp6), a.prize_rates

    def match(pa, pb, known):
        return g.match(e, pa, pb, steps, known, stream)

    rec, _, _ = walk(match, gwin, 4, a.ko_stat[e], a.ko_win[e], a.ko_step[e], a.ko_cls[e],
                     a.ko_white[e], a.ko_fixed[e], stream)
    for m, (up, dn, wside, step, cu, cl, wu, wl) in enumerate(rec):
        pu, pd = gwin[up], gwin[dn]
        cp[pu] += cu
        cp[pd] += cl
        cw[pu] += wu
        cw[pd] += wl
        if 0 <= step < len(steps) and steps[step][0] == STEP_ARMAGEDDON:
            flags[GS_C_ARMAGEDDON] = 1
        w, lo = (pu, pd) if wside == 0 else (pd, pu)
        gpts[w] += ko_gp6
        prize[w] += rates[2] * ko_gp6 / 6.0
        if m == 2:
            tf[w] += 1
            ts[lo] += 1


def series_replica(a, stream):
    """One replica of the series from the kernel's arguments ``a`` (``GroupSeriesArgs``).
    Returns (gpts, tf, ts, cp, cw, prize, flags) as lists indexed by player."""
    steps = a.steps.tolist()
    npl = a.rt.shape[1]
    rt = a.rt.tolist()
    g = Games(a.params, rt, a.thr, a.live, a.offsets)
    gpts, tf, ts, cp, cw = ([0] * npl for _ in range(5))
    prize = [0.0] * npl
    flags = [0] * 4
    gp6, rates = [int(x) for x in a.gp6], a.prize_rates
    ci0 = int(steps[0][1])
    for e in range(a.roster.shape[0]):
        if a.offsets:
            G.draw_offsets(rt[e], a.rt[e], a.roster[e], a.offset_sd, stream)
        gwin = []
        for gi, grp in enumerate(_draw_groups([int(x) for x in a.roster[e]], a.draw[e],
                                              stream)):
            score = [0] * 4
            _group_games(g, e, ci0, a.gm[e, gi].tolist(), grp, score, cp, cw, stream)
            if a.grp_fixed[e, gi] >= 0:
                ws, gout = int(a.grp_fixed[e, gi]), [int(x) for x in a.grp_gp[e, gi]]
            else:
                ws, gout = group_places(g, e, steps, grp, score, gp6, a.places_mode,
                                        a.reduced_mode, stream, flags)
            gwin.append(grp[ws])
            for s in range(4):
                gpts[grp[s]] += gout[s]
                prize[grp[s]] += rates[0] + rates[1] * gout[s] / 6.0
        _knockout(a, g, e, steps, gwin, gpts, tf, ts, cp, cw, prize, flags, stream)
    return gpts, tf, ts, cp, cw, prize, flags


def _draw_groups(ros, draw, stream):
    """An event's four groups of four from its roster ``ros``: as listed (four in a row per
    group), by lots over the roster, or by baskets (each four in a row a basket, shuffled,
    one from each basket per group)."""
    if draw == DRAW_LOTS:
        ros = G.shuffled(ros, stream)
    elif draw == DRAW_BASKETS:
        ros = [x for q in range(4) for x in G.shuffled(ros[4 * q:4 * q + 4], stream)]
        return [[ros[4 * s + gi] for s in range(4)] for gi in range(4)]
    return [ros[4 * gi:4 * gi + 4] for gi in range(4)]


def rank_series(a, gpts, tf, ts, cp, cw, stream):
    """Eligible players best first, and their keys (points, criteria; lots at the end)."""
    vals = {SER_EVENTS_WON: tf, SER_SECOND: ts, SER_CLASSICAL: cp, SER_CLASSICAL_WINS: cw}
    key = {p: (gpts[p], *[vals[int(c)][p] for c in a.criteria])
           for p in range(len(gpts)) if a.eligible[p]}
    order = sorted(key, key=lambda p: tuple(-v for v in key[p]))  # stable: player order
    out = []
    i = 0
    while i < len(order):
        run = [p for p in order[i:] if key[p] == key[order[i]]]
        out += G.shuffled(run, stream)
        i += len(run)
    return out, key


def simulate_series(a, seed: int, first: int, n: int) -> dict:
    """Twin of ``simulate_nb`` summed over replicas: the same tallies."""
    npl = a.rt.shape[1]
    nq = int(a.n_qual)
    t = {"place": np.zeros((npl, int(np.sum(a.eligible))), np.int64),
         "qualify": np.zeros(npl, np.int64), "points": np.zeros(npl), "points_sq": np.zeros(npl),
         "prize": np.zeros(npl), "prize_sq": np.zeros(npl), "counters": np.zeros(4, np.int64)}
    for r in range(n):
        stream = Stream(seed, first + r)
        gpts, tf, ts, cp, cw, prize, flags = series_replica(a, stream)
        gpts = [x + int(a.win_gp6) * w for x, w in zip(gpts, cw)]   # classical-win points
        order, key = rank_series(a, gpts, tf, ts, cp, cw, stream)
        for i, p in enumerate(order):
            t["place"][p, i] += 1
            if i < nq:
                t["qualify"][p] += 1
        if len(order) > nq > 0:
            pa, pb = order[nq - 1], order[nq]
            if gpts[pa] == gpts[pb]:
                flags[GS_C_Q_TIEBREAK] = 1
                if key[pa] == key[pb]:
                    flags[GS_C_Q_LOTS] = 1
        for p in range(npl):
            t["points"][p] += gpts[p]
            t["points_sq"][p] += float(gpts[p]) ** 2
            t["prize"][p] += prize[p]
            t["prize_sq"][p] += prize[p] * prize[p]
        t["counters"] += np.array(flags, np.int64)
    return t


def simulate_group(params, thr, steps, players, games, gp6, places_mode, reduced_mode, seed,
                   first, n):
    """Twin of ``simulate_group_nb`` (segment 0 of ``thr``): hist[s][v] replicas where slot
    s got v sixths."""
    steps = [list(map(int, row)) for row in steps]
    g = Games(params, None, thr, False, False)
    hist = [[0] * (max(gp6) + 1) for _ in range(4)]
    for r in range(n):
        stream = Stream(seed, first + r)
        score = [0] * 4
        cp, cw = defaultdict(int), defaultdict(int)
        _group_games(g, 0, steps[0][1], games, players, score, cp, cw, stream)
        _, out = group_places(g, 0, steps, players, score, gp6, places_mode, reduced_mode,
                              stream, [0] * 4)
        for s in range(4):
            hist[s][out[s]] += 1
    return hist


# ---- exact distribution (no offsets) ----------------------------------------------------
def _wdl(tab, ci, w, b):
    """(P White wins, P draw, P Black wins) from one segment's threshold table."""
    tw, td = float(tab[ci, w, b, 0]), float(tab[ci, w, b, 1])
    return tw, td - tw, 1.0 - td


def two_player_exact(tab, steps, s0, pa, pb):
    """P(pa wins the two-player procedure from step s0), colour lot included.  ``tab``: one
    segment of a threshold table, [controls, players, players, 2]."""
    total = 0.0
    for x, y, is_a in ((pa, pb, True), (pb, pa, False)):
        p_x = 0.0
        level = 1.0
        for kind, ci, *_ in steps[s0:]:
            if kind == STEP_GAMES:
                g1 = _wdl(tab, ci, x, y)     # x White
                g2 = _wdl(tab, ci, y, x)     # y White
                d = defaultdict(float)
                for r1, q1 in enumerate(g1):
                    for r2, q2 in enumerate(g2):
                        d[(2, 0, -2)[r1] - (2, 0, -2)[r2]] += q1 * q2
                p_x += level * sum(q for v, q in d.items() if v > 0)
                level *= d.get(0, 0.0)
            elif kind == STEP_ARMAGEDDON:
                p_x += level * 0.5 * (_wdl(tab, ci, x, y)[0] + 1.0 - _wdl(tab, ci, y, x)[0])
                level = 0.0
        p_x += level * 0.5  # lots after the last step (unreachable with an Armageddon)
        total += 0.5 * (p_x if is_a else 1.0 - p_x)
    return total


def _rr3_outcomes(tab, ci, pl):
    """[(probability, scores)] of a single round robin of three, colours by lot."""
    games = []
    for i in range(3):
        for j in range(i + 1, 3):
            a = _wdl(tab, ci, pl[i], pl[j])
            b = _wdl(tab, ci, pl[j], pl[i])
            games.append((i, j, (0.5 * a[0] + 0.5 * b[2], 0.5 * a[1] + 0.5 * b[1],
                                 0.5 * a[2] + 0.5 * b[0])))
    res = []
    for combo in itertools.product(range(3), repeat=3):
        p = 1.0
        sc = [0, 0, 0]
        for (i, j, pr), r in zip(games, combo):
            p *= pr[r]
            sc[i] += (2, 1, 0)[r]
            sc[j] += (0, 1, 2)[r]
        res.append((p, sc))
    return res


def _three_exact(tab, steps, players, tied, gp6, places_mode, reduced_mode, finish):
    share = (gp6[1] + gp6[2]) // 2
    pl = [players[s] for s in tied]

    def step(stp, p):
        for q, sc in _rr3_outcomes(tab, steps[1 + stp][1], pl):
            m = max(sc)
            best = [i for i in range(3) if sc[i] == m]
            if len(best) == 1:
                out = [-1] * 4
                _places_one_top(sc, tied, gp6, share, places_mode, best[0], out)
                finish(out, 3, p * q)
            elif len(best) == 2:
                p0, p1 = best
                left = next(i for i in range(3) if sc[i] != m)
                nxt = stp + 2 if reduced_mode == REDUCED_NEXT_STEP else 1
                pw = two_player_exact(tab, steps, nxt, pl[p0], pl[p1])
                for wi, li, qq in ((p0, p1, pw), (p1, p0, 1.0 - pw)):
                    out = [-1] * 4
                    _places_two_top(tied, gp6, share, places_mode, wi, li, left, out)
                    finish(out, 3, p * q * qq)
            elif stp == 0:
                step(1, p * q)
            else:
                ci = steps[3][1]
                for x, y, left in itertools.permutations(range(3)):
                    wx = 0.5 * (_wdl(tab, ci, pl[x], pl[y])[0] + 1.0
                                - _wdl(tab, ci, pl[y], pl[x])[0])
                    for wi, li, qq in ((x, y, wx), (y, x, 1.0 - wx)):
                        out = [-1] * 4
                        out[tied[wi]] = gp6[0]
                        out[tied[li]] = out[tied[left]] = share
                        finish(out, 3, p * q * qq / 6.0)
    step(0, 1.0)


def places_exact(tab, steps, players, score, gp6, places_mode, reduced_mode):
    """{points by slot (tuple): probability} for a finished group with these scores."""
    steps = [tuple(int(x) for x in row) for row in steps]
    dist = defaultdict(float)
    top = max(score)
    tied = [s for s in range(4) if score[s] == top]

    def finish(out, first_place, p):
        out = list(out)
        rest_places(score, gp6, out, first_place)
        dist[tuple(out)] += p

    if len(tied) == 1:
        out = [-1] * 4
        out[tied[0]] = gp6[0]
        finish(out, 1, 1.0)
    elif len(tied) == 2:
        pa = two_player_exact(tab, steps, 1, players[tied[0]], players[tied[1]])
        for r, q in ((0, pa), (1, 1.0 - pa)):
            out = [-1] * 4
            out[tied[r]], out[tied[1 - r]] = gp6[0], gp6[1]
            finish(out, 2, q)
    elif len(tied) == 3:
        _three_exact(tab, steps, players, tied, gp6, places_mode, reduced_mode, finish)
    else:
        _four_exact(tab, steps, players, gp6, dist)
    return dist


def _four_exact(tab, steps, players, gp6, dist):
    for a0, a1, b0, b1 in itertools.permutations(range(4)):
        pa = two_player_exact(tab, steps, 1, players[a0], players[a1])
        pb = two_player_exact(tab, steps, 1, players[b0], players[b1])
        for w1, l1, q1 in ((a0, a1, pa), (a1, a0, 1.0 - pa)):
            for w2, l2, q2 in ((b0, b1, pb), (b1, b0, 1.0 - pb)):
                pf = two_player_exact(tab, steps, 1, players[w1], players[w2])
                for w, s2, q3 in ((w1, w2, pf), (w2, w1, 1.0 - pf)):
                    out = [-1] * 4
                    out[w], out[s2] = gp6[0], gp6[1]
                    out[l1] = out[l2] = (gp6[2] + gp6[3]) // 2
                    dist[tuple(out)] += q1 * q2 * q3 / 24.0


def group_exact(tab, steps, players, games, gp6, places_mode, reduced_mode):
    """Exact P(slot s gets v sixths): enumerates the 3^k results of the k unplayed games and
    every play-off branch.  ``tab``: one segment of a threshold table.  Returns
    [4][max(gp6)+1] floats."""
    ci0 = int(steps[0][1])
    open_ = [(int(ws), int(bs)) for _, ws, bs, r in games if r < 0]
    base = [0] * 4
    for _, ws, bs, r in games:
        if r >= 0:
            base[ws] += (2, 1, 0)[r]
            base[bs] += (0, 1, 2)[r]
    probs = [_wdl(tab, ci0, players[ws], players[bs]) for ws, bs in open_]
    hist = [[0.0] * (max(gp6) + 1) for _ in range(4)]
    for combo in itertools.product(range(3), repeat=len(open_)):
        p = 1.0
        score = list(base)
        for (ws, bs), pr, r in zip(open_, probs, combo):
            p *= pr[r]
            score[ws] += (2, 1, 0)[r]
            score[bs] += (0, 1, 2)[r]
        for out, q in places_exact(tab, steps, players, score, gp6, places_mode,
                                   reduced_mode).items():
            for s in range(4):
                hist[s][out[s]] += p * q
    return hist
