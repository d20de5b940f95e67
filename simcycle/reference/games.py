"""Plain-Python twin of ``kernels.game_nb``: same rules, same draws from the same stream.

Written for clarity; tests run both on the same (seed, replica) and expect identical outcomes.
"""

from __future__ import annotations

import math

from ..enums import (BLACK_WINS, DRAW, MAX_SUDDEN_DEATH, STEP_ARMAGEDDON, STEP_GAMES,
                     STEP_SUDDEN_DEATH, UNPLAYED, WHITE_WINS)


def wdl(params, ci, r_white, r_black, offsets):
    d0 = params[ci][0]
    slope = params[ci][7] if offsets else params[ci][2]
    nu = 2.0 * d0 / (1.0 - d0) * math.exp(
        params[ci][3] * ((r_white + r_black) * 0.5 - params[ci][8]))
    delta = (1.0 + 0.5 * nu) * (slope * (r_white - r_black) + params[ci][1])
    s = 10.0 ** (delta / 800.0)
    norm = s + 1.0 / s + nu
    return s / norm, nu / norm


def game(params, rt, offsets, ci, white, black, stream):
    cls = int(params[ci][4])
    pw, pd = wdl(params, ci, rt[white][cls], rt[black][cls], offsets)
    u = stream.u01()
    return WHITE_WINS if u < pw else (DRAW if u < pw + pd else BLACK_WINS)


def pair(params, rt, offsets, ci, a, b, stream):
    """Score difference a - b in half points over two games, a White first."""
    score = {WHITE_WINS: 2, DRAW: 0, BLACK_WINS: -2}
    d = score[game(params, rt, offsets, ci, a, b, stream)]
    d -= score[game(params, rt, offsets, ci, b, a, stream)]
    return d


def round_robin(params, rt, offsets, ci, players, stream):
    """Half points of each of ``players`` in a single round robin, colours by lot."""
    pts = {p: 0 for p in players}
    for i in range(len(players)):
        for j in range(i + 1, len(players)):
            w, b = (players[i], players[j]) if stream.u01() < 0.5 else (players[j], players[i])
            r = game(params, rt, offsets, ci, w, b, stream)
            pts[w] += {WHITE_WINS: 2, DRAW: 1, BLACK_WINS: 0}[r]
            pts[b] += {WHITE_WINS: 0, DRAW: 1, BLACK_WINS: 2}[r]
    return [pts[p] for p in players]


def armageddon(params, rt, offsets, ci, a, b, stream):
    w, bl = (a, b) if stream.u01() < 0.5 else (b, a)
    return w if game(params, rt, offsets, ci, w, bl, stream) == WHITE_WINS else bl


def sudden_death(params, rt, offsets, ci, a, b, stream):
    w, bl = (a, b) if stream.u01() < 0.5 else (b, a)
    for _ in range(MAX_SUDDEN_DEATH):
        r = game(params, rt, offsets, ci, w, bl, stream)
        if r != DRAW:
            return w if r == WHITE_WINS else bl
        w, bl = bl, w
    return a if stream.u01() < 0.5 else b


def shuffled(items, stream):
    arr = list(items)
    for i in range(len(arr) - 1, 0, -1):
        j = stream.randint(i + 1)
        arr[i], arr[j] = arr[j], arr[i]
    return arr


def sudden_death_knockout(params, rt, offsets, ci, players, stream):
    order = shuffled(players, stream)
    size = 1
    while size < len(order):
        size *= 2
    m = len(order) - size // 2
    nxt = [sudden_death(params, rt, offsets, ci, order[2 * i], order[2 * i + 1], stream)
           for i in range(m)]
    alive = nxt + order[2 * m:]
    while len(alive) > 1:
        alive = [sudden_death(params, rt, offsets, ci, alive[2 * i], alive[2 * i + 1], stream)
                 for i in range(len(alive) // 2)]
    return alive[0]


def match(params, rt, offsets, a, b, steps, fixed, stream):
    """Twin of ``match_nb``: returns [winner (0 a, 1 b), deciding step, a half points,
    b half points, a wins, b wins] (the last four over step 0)."""
    out = [0, 0, 0, 0, 0, 0]
    g = 0
    diff = 0
    for s, (kind, ci, n) in enumerate(steps):
        if s > 0 and diff != 0:
            break
        out[1] = s
        if kind == STEP_GAMES:
            for j in range(n):
                known = fixed[g] if g < len(fixed) else UNPLAYED
                if known != UNPLAYED:
                    ra = known
                elif j % 2 == 0:
                    ra = game(params, rt, offsets, ci, a, b, stream)
                else:
                    ra = 2 - game(params, rt, offsets, ci, b, a, stream)
                g += 1
                diff += {0: 2, 1: 0, 2: -2}[ra]
                if s == 0:
                    out[2] += {0: 2, 1: 1, 2: 0}[ra]
                    out[3] += {0: 0, 1: 1, 2: 2}[ra]
                    out[4] += ra == 0
                    out[5] += ra == 2
        elif kind == STEP_ARMAGEDDON:
            diff = 1 if armageddon(params, rt, offsets, ci, a, b, stream) == a else -1
            g += 1
        elif kind == STEP_SUDDEN_DEATH:
            diff = 1 if sudden_death(params, rt, offsets, ci, a, b, stream) == a else -1
        else:
            diff = 1 if stream.u01() < 0.5 else -1
    if diff == 0:
        out[1] = len(steps)
        diff = 1 if stream.u01() < 0.5 else -1
    out[0] = 0 if diff > 0 else 1
    return out
