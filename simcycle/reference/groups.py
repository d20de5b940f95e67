"""Plain-Python twin of ``kernels.groups_nb``: same rules, same draws from the same stream.

Also holds ``group_exact``: the exact distribution of a group's points (sixths) by slot,
enumerating the unplayed games and every play-off branch, for checks of the Monte Carlo.
Written for clarity, not speed.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

from ..enums import STEP_ARMAGEDDON, STEP_GAMES
from . import games as G

PLACES_ELIMINATION, PLACES_FIRST_ONLY = 0, 1
REDUCED_NEXT_STEP, REDUCED_RESTART = 0, 1
DRAW_FIXED, DRAW_LOTS, DRAW_BASKETS = 0, 1, 2
C_GROUP_PLAYOFF, C_ARMAGEDDON, C_Q_TIEBREAK, C_Q_LOTS = range(4)
TB_EVENTS_WON, TB_SECOND_PLACES, TB_CLASSICAL_POINTS, TB_CLASSICAL_WINS = 1, 2, 3, 4
TB_BASE = 1024


def classical(pc, params, rt, offsets, ci, w, b, stream):
    if offsets:
        return G.game(params, rt, offsets, ci, w, b, stream)
    u = stream.u01()
    pw, pd = pc[w][b][0], pc[w][b][1]
    return 0 if u < pw else (1 if u < pw + pd else 2)


def two_player(params, rt, offsets, steps, s0, pa, pb, stream, flags):
    """0 if pa wins the two-player procedure from step s0, else 1."""
    swap = not stream.u01() < 0.5
    x, y = (pb, pa) if swap else (pa, pb)
    out = G.match(params, rt, offsets, x, y, [tuple(r) for r in steps[s0:]], [], stream)
    if s0 + out[1] == len(steps) - 1:
        flags[C_ARMAGEDDON] = 1
    return 0 if (out[0] == 0) != swap else 1


def rest_places(score, gp6, out, first_place):
    rest = sorted([s for s in range(4) if out[s] < 0], key=lambda s: -score[s])
    q = first_place
    i = 0
    while i < len(rest):
        run = [s for s in rest[i:] if score[s] == score[rest[i]]]
        v = sum(gp6[q:q + len(run)]) // len(run)
        for s in run:
            out[s] = v
        q += len(run)
        i += len(run)


def group_places(params, rt, offsets, ctl, steps, players, score, gp6, places_mode,
                 reduced_mode, stream, flags):
    """Twin of ``group_places_nb``: returns (winner slot, points by slot in sixths)."""
    out = [-1] * 4
    top = max(score)
    tied = [s for s in range(4) if score[s] == top]
    if len(tied) == 1:
        out[tied[0]] = gp6[0]
        rest_places(score, gp6, out, 1)
        return tied[0], out
    flags[C_GROUP_PLAYOFF] = 1
    if len(tied) == 2:
        r = two_player(params, rt, offsets, steps, 0, players[tied[0]], players[tied[1]],
                       stream, flags)
        out[tied[r]] = gp6[0]
        out[tied[1 - r]] = gp6[1]
        rest_places(score, gp6, out, 2)
        return tied[r], out
    share = (gp6[1] + gp6[2]) // 2
    if len(tied) == 3:
        pl = [players[s] for s in tied]
        win = -1
        for stp in range(2):
            sc = G.round_robin(params, rt, offsets, ctl[stp], pl, stream)
            m = max(sc)
            best = [i for i in range(3) if sc[i] == m]
            if len(best) == 1:
                win = tied[best[0]]
                out[win] = gp6[0]
                o0, o1 = [i for i in range(3) if sc[i] != m]
                if places_mode == PLACES_ELIMINATION and sc[o0] != sc[o1]:
                    hi, lo = (o0, o1) if sc[o0] > sc[o1] else (o1, o0)
                    out[tied[hi]], out[tied[lo]] = gp6[1], gp6[2]
                else:
                    out[tied[o0]] = out[tied[o1]] = share
                break
            if len(best) == 2:
                p0, p1 = best
                left = next(i for i in range(3) if sc[i] != m)
                nxt = stp + 1 if reduced_mode == REDUCED_NEXT_STEP else 0
                r = two_player(params, rt, offsets, steps, nxt, pl[p0], pl[p1], stream, flags)
                wi, li = (p0, p1) if r == 0 else (p1, p0)
                win = tied[wi]
                out[win] = gp6[0]
                if places_mode == PLACES_ELIMINATION:
                    out[tied[li]], out[tied[left]] = gp6[1], gp6[2]
                else:
                    out[tied[li]] = out[tied[left]] = share
                break
            if stp == 1:
                idx = G.shuffled([0, 1, 2], stream)
                flags[C_ARMAGEDDON] = 1
                w = G.armageddon(params, rt, offsets, ctl[2], pl[idx[0]], pl[idx[1]], stream)
                wi, li = (idx[0], idx[1]) if w == pl[idx[0]] else (idx[1], idx[0])
                win = tied[wi]
                out[win] = gp6[0]
                out[tied[li]] = out[tied[idx[2]]] = share
        rest_places(score, gp6, out, 3)
        return win, out
    idx = G.shuffled([0, 1, 2, 3], stream)
    r1 = two_player(params, rt, offsets, steps, 0, players[idx[0]], players[idx[1]], stream, flags)
    r2 = two_player(params, rt, offsets, steps, 0, players[idx[2]], players[idx[3]], stream, flags)
    w1, l1 = idx[r1], idx[1 - r1]
    w2, l2 = idx[2 + r2], idx[3 - r2]
    r = two_player(params, rt, offsets, steps, 0, players[w1], players[w2], stream, flags)
    win, second = (w1, w2) if r == 0 else (w2, w1)
    out[win], out[second] = gp6[0], gp6[1]
    out[l1] = out[l2] = (gp6[2] + gp6[3]) // 2
    return win, out


def series_replica(a: dict, stream):
    """One replica of the series from the kernel's arrays ``a`` (the Plan's ``args``).
    Returns (gpts, tf, ts, cp, cw, prize, flags) as lists indexed by player."""
    params, rt_ev, offsets = a["params"], a["rt_ev"], a["offsets"]
    npl = rt_ev.shape[1]
    gpts, tf, ts, cp, cw = ([0] * npl for _ in range(5))
    prize = [0.0] * npl
    flags = [0] * 4
    ctl, steps, ko_steps = list(a["ctl"]), a["steps"], a["ko_steps"]
    gp6, ko_gp6, rates = list(a["gp6"]), int(a["ko_gp6"]), a["prize_rates"]
    for e in range(a["roster"].shape[0]):
        rt = [list(map(float, row)) for row in rt_ev[e]]
        if offsets:
            for p in a["roster"][e]:
                for c in range(3):
                    rt[p][c] = float(rt_ev[e, p, c]) + stream.normal() * float(a["offset_sd"][c])
        ros = [int(x) for x in a["roster"][e]]
        if a["draw"][e] == DRAW_LOTS:
            ros = G.shuffled(ros, stream)
        elif a["draw"][e] == DRAW_BASKETS:
            ros = [x for q in range(4) for x in G.shuffled(ros[4 * q:4 * q + 4], stream)]
        if a["draw"][e] == DRAW_BASKETS:
            grp = [[ros[4 * s + g] for s in range(4)] for g in range(4)]
        else:
            grp = [ros[4 * g:4 * g + 4] for g in range(4)]
        pc = a["pc"][e]
        gwin = []
        for g in range(4):
            score = [0] * 4
            for _, ws, bs, r in a["gm"][e, g]:
                w, b = grp[g][ws], grp[g][bs]
                if r < 0:
                    r = classical(pc, params, rt, offsets, ctl[0], w, b, stream)
                if r == 0:
                    score[ws] += 2
                    cp[w] += 2
                    cw[w] += 1
                elif r == 2:
                    score[bs] += 2
                    cp[b] += 2
                    cw[b] += 1
                else:
                    score[ws] += 1
                    score[bs] += 1
                    cp[w] += 1
                    cp[b] += 1
            if a["grp_fixed"][e, g] >= 0:
                ws, gout = int(a["grp_fixed"][e, g]), [int(x) for x in a["grp_gp"][e, g]]
            else:
                ws, gout = group_places(params, rt, offsets, ctl[1:], steps, grp[g], score, gp6,
                                        a["places_mode"], a["reduced_mode"], stream, flags)
            gwin.append(grp[g][ws])
            for s in range(4):
                p = grp[g][s]
                gpts[p] += gout[s]
                prize[p] += rates[0] + rates[1] * gout[s] / 6.0
        win = []
        for m, (a_, b_) in enumerate([(gwin[0], gwin[1]), (gwin[2], gwin[3]), (None, None)]):
            if m == 2:
                a_, b_ = win
            if a["ko_win"][e, m] >= 0:
                wa = a["ko_win"][e, m] == 0
                for c in a["ko_fixed"][e, m]:
                    if c == 0:
                        cp[a_] += 2
                        cw[a_] += 1
                    elif c == 2:
                        cp[b_] += 2
                        cw[b_] += 1
                    elif c == 1:
                        cp[a_] += 1
                        cp[b_] += 1
            else:
                swap = bool(a["ko_lots"]) and stream.u01() >= 0.5
                fx = [int(c) for c in a["ko_fixed"][e, m]]
                if swap:
                    fx = [2 - c if c >= 0 else c for c in fx]
                x, y = (b_, a_) if swap else (a_, b_)
                out = G.match(params, rt, offsets, x, y, [tuple(r) for r in ko_steps], fx, stream)
                if out[1] == len(ko_steps) - 1:
                    flags[C_ARMAGEDDON] = 1
                cp[x] += out[2]
                cp[y] += out[3]
                cw[x] += out[4]
                cw[y] += out[5]
                wa = (out[0] == 0) != swap
            w, lo = (a_, b_) if wa else (b_, a_)
            gpts[w] += ko_gp6
            prize[w] += rates[2] * ko_gp6 / 6.0
            win.append(w)
            if m == 2:
                tf[w] += 1
                ts[lo] += 1
    return gpts, tf, ts, cp, cw, prize, flags


def rank_series(a: dict, gpts, tf, ts, cp, cw, stream):
    """Eligible players best first, and their keys (points, criteria, lots at the end)."""
    vals = {TB_EVENTS_WON: tf, TB_SECOND_PLACES: ts, TB_CLASSICAL_POINTS: cp, TB_CLASSICAL_WINS: cw}
    key = {}
    for p in range(len(gpts)):
        if a["eligible"][p]:
            k = gpts[p]
            for code in a["tb_codes"]:
                k = k * TB_BASE + vals[int(code)][p]
            key[p] = k
    order = sorted(key, key=lambda p: -key[p])  # stable: equal keys keep player order
    out = []
    i = 0
    while i < len(order):
        run = [p for p in order[i:] if key[p] == key[order[i]]]
        out += G.shuffled(run, stream) if len(run) > 1 else run
        i += len(run)
    return out, key


def simulate_series(a: dict, seed: int, first: int, n: int) -> dict:
    """Twin of ``simulate_series_nb`` summed over replicas: the same tallies."""
    import numpy as np

    from .rng import Stream
    npl = a["rt_ev"].shape[1]
    nq = int(a["n_qual"])
    t = {"place": np.zeros((npl, int(np.sum(a["eligible"]))), np.int64),
         "qualify": np.zeros(npl, np.int64), "points": np.zeros(npl), "points_sq": np.zeros(npl),
         "prize": np.zeros(npl), "prize_sq": np.zeros(npl), "counters": np.zeros(4, np.int64)}
    for r in range(n):
        stream = Stream(seed, first + r)
        gpts, tf, ts, cp, cw, prize, flags = series_replica(a, stream)
        order, key = rank_series(a, gpts, tf, ts, cp, cw, stream)
        for i, p in enumerate(order):
            t["place"][p, i] += 1
            if i < nq:
                t["qualify"][p] += 1
        if len(order) > nq > 0:
            pa, pb = order[nq - 1], order[nq]
            if gpts[pa] == gpts[pb]:
                flags[C_Q_TIEBREAK] = 1
                if key[pa] == key[pb]:
                    flags[C_Q_LOTS] = 1
        for p in range(npl):
            t["points"][p] += gpts[p]
            t["points_sq"][p] += float(gpts[p]) ** 2
            t["prize"][p] += prize[p]
            t["prize_sq"][p] += prize[p] * prize[p]
        t["counters"] += np.array(flags, np.int64)
    return t


def simulate_group(params, rt, ctl, steps, pc, players, games, gp6, places_mode, reduced_mode,
                   seed, first, n):
    """Twin of ``simulate_group_nb``: hist[s][v] replicas where slot s got v sixths."""
    from .rng import Stream
    hist = [[0] * (max(gp6) + 1) for _ in range(4)]
    for r in range(n):
        stream = Stream(seed, first + r)
        score = [0] * 4
        for _, ws, bs, res in games:
            if res < 0:
                res = classical(pc, params, rt, False, ctl[0], players[ws], players[bs], stream)
            if res == 0:
                score[ws] += 2
            elif res == 2:
                score[bs] += 2
            else:
                score[ws] += 1
                score[bs] += 1
        _, out = group_places(params, rt, False, ctl[1:], steps, players, score, gp6,
                              places_mode, reduced_mode, stream, [0] * 4)
        for s in range(4):
            hist[s][out[s]] += 1
    return hist


# ---- exact distribution -----------------------------------------------------------------

def _wdl(params, rt, ci, w, b):
    cls = int(params[ci][4])
    pw, pd = G.wdl(params, ci, rt[w][cls], rt[b][cls], False)
    return pw, pd, 1.0 - pw - pd


def _pair_dist(params, rt, ci, x, y):
    """Distribution of x's score minus y's (half points) over two games, x White first."""
    d = defaultdict(float)
    p1 = _wdl(params, rt, ci, x, y)
    p2 = _wdl(params, rt, ci, y, x)
    for r1, q1 in enumerate(p1):
        for r2, q2 in enumerate(p2):
            d[(2, 0, -2)[r1] - (2, 0, -2)[r2]] += q1 * q2
    return d


def two_player_exact(params, rt, steps, s0, pa, pb):
    """P(pa wins the two-player procedure from step s0), colour lot included."""
    total = 0.0
    for x, y, is_a in ((pa, pb, True), (pb, pa, False)):
        p_x = 0.0
        level = 1.0
        for kind, ci, n in steps[s0:]:
            if kind == STEP_GAMES:
                d = _pair_dist(params, rt, ci, x, y)
                p_x += level * sum(q for v, q in d.items() if v > 0)
                level *= d.get(0, 0.0)
            elif kind == STEP_ARMAGEDDON:
                pw_x = _wdl(params, rt, ci, x, y)[0]      # x White wins
                pw_y = _wdl(params, rt, ci, y, x)[0]      # y White wins
                p_x += level * 0.5 * (pw_x + (1.0 - pw_y))
                level = 0.0
        p_x += level * 0.5  # lots after the last step (unreachable with an Armageddon)
        total += 0.5 * (p_x if is_a else 1.0 - p_x)
    return total


def _rr3_outcomes(params, rt, ci, pl):
    """[(probability, scores)] of a single round robin of three, colours by lot."""
    games = []
    for i in range(3):
        for j in range(i + 1, 3):
            a = _wdl(params, rt, ci, pl[i], pl[j])
            b = _wdl(params, rt, ci, pl[j], pl[i])
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


def places_exact(params, rt, ctl, steps, players, score, gp6, places_mode, reduced_mode):
    """{tuple of points by slot: probability} for a finished group."""
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
        return dist
    if len(tied) == 2:
        pa = two_player_exact(params, rt, steps, 0, players[tied[0]], players[tied[1]])
        for r, q in ((0, pa), (1, 1.0 - pa)):
            out = [-1] * 4
            out[tied[r]], out[tied[1 - r]] = gp6[0], gp6[1]
            finish(out, 2, q)
        return dist
    share = (gp6[1] + gp6[2]) // 2
    if len(tied) == 3:
        pl = [players[s] for s in tied]

        def step(stp, p):
            for q, sc in _rr3_outcomes(params, rt, ctl[stp], pl):
                m = max(sc)
                best = [i for i in range(3) if sc[i] == m]
                if len(best) == 1:
                    out = [-1] * 4
                    out[tied[best[0]]] = gp6[0]
                    o0, o1 = [i for i in range(3) if sc[i] != m]
                    if places_mode == PLACES_ELIMINATION and sc[o0] != sc[o1]:
                        hi, lo = (o0, o1) if sc[o0] > sc[o1] else (o1, o0)
                        out[tied[hi]], out[tied[lo]] = gp6[1], gp6[2]
                    else:
                        out[tied[o0]] = out[tied[o1]] = share
                    finish(out, 3, p * q)
                elif len(best) == 2:
                    p0, p1 = best
                    left = next(i for i in range(3) if sc[i] != m)
                    nxt = stp + 1 if reduced_mode == REDUCED_NEXT_STEP else 0
                    pw = two_player_exact(params, rt, steps, nxt, pl[p0], pl[p1])
                    for wi, li, qq in ((p0, p1, pw), (p1, p0, 1.0 - pw)):
                        out = [-1] * 4
                        out[tied[wi]] = gp6[0]
                        if places_mode == PLACES_ELIMINATION:
                            out[tied[li]], out[tied[left]] = gp6[1], gp6[2]
                        else:
                            out[tied[li]] = out[tied[left]] = share
                        finish(out, 3, p * q * qq)
                elif stp == 0:
                    step(1, p * q)
                else:
                    for perm in itertools.permutations(range(3)):
                        x, y, left = perm
                        wx = 0.5 * (_wdl(params, rt, ctl[2], pl[x], pl[y])[0]
                                    + 1.0 - _wdl(params, rt, ctl[2], pl[y], pl[x])[0])
                        for wi, li, qq in ((x, y, wx), (y, x, 1.0 - wx)):
                            out = [-1] * 4
                            out[tied[wi]] = gp6[0]
                            out[tied[li]] = out[tied[left]] = share
                            finish(out, 3, p * q * qq / 6.0)
        step(0, 1.0)
        return dist
    for perm in itertools.permutations(range(4)):
        pr = 1.0 / 24.0
        a0, a1, b0, b1 = perm
        pa = two_player_exact(params, rt, steps, 0, players[a0], players[a1])
        pb = two_player_exact(params, rt, steps, 0, players[b0], players[b1])
        for w1, l1, q1 in ((a0, a1, pa), (a1, a0, 1.0 - pa)):
            for w2, l2, q2 in ((b0, b1, pb), (b1, b0, 1.0 - pb)):
                pf = two_player_exact(params, rt, steps, 0, players[w1], players[w2])
                for w, s2, q3 in ((w1, w2, pf), (w2, w1, 1.0 - pf)):
                    out = [-1] * 4
                    out[w], out[s2] = gp6[0], gp6[1]
                    out[l1] = out[l2] = (gp6[2] + gp6[3]) // 2
                    dist[tuple(out)] += pr * q1 * q2 * q3
    return dist


def group_exact(params, rt, ctl, steps, pc, players, games, gp6, places_mode, reduced_mode):
    """Exact P(slot s gets v sixths): enumerates the 3^k results of the k unplayed games
    (probabilities from ``pc``) and every play-off branch.  Returns [4][max(gp6)+1] floats."""
    open_ = [(ws, bs) for _, ws, bs, r in games if r < 0]
    base = [0] * 4
    for _, ws, bs, r in games:
        if r >= 0:
            base[ws] += (2, 1, 0)[r]
            base[bs] += (0, 1, 2)[r]
    probs = [(pc[players[ws]][players[bs]][0], pc[players[ws]][players[bs]][1]) for ws, bs in open_]
    hist = [[0.0] * (max(gp6) + 1) for _ in range(4)]
    for combo in itertools.product(range(3), repeat=len(open_)):
        p = 1.0
        score = list(base)
        for (ws, bs), (pw, pd), r in zip(open_, probs, combo):
            p *= (pw, pd, 1.0 - pw - pd)[r]
            score[ws] += (2, 1, 0)[r]
            score[bs] += (0, 1, 2)[r]
        for out, q in places_exact(params, rt, ctl, steps, players, score, gp6, places_mode,
                                   reduced_mode).items():
            for s in range(4):
                hist[s][out[s]] += p * q
    return hist

