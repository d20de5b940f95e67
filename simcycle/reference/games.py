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


def draw_offsets(rt, base, players, sd, stream):
    """Each of ``players``' ratings ``rt[p][class]`` (overwritten) as ``base[p, class]`` plus
    a strength offset N(0, sd[class]) drawn player-major, class-minor."""
    for p in players:
        for c in range(3):
            rt[int(p)][c] = float(base[int(p), c]) + stream.normal() * float(sd[c])


def match(params, rt, offsets, a, b, steps, fixed, stream):
    """Twin of ``match_nb``: returns [winner (0 a, 1 b), deciding step, a half points,
    b half points, a wins, b wins] (the last four over step 0)."""
    return play_match(lambda ci, w, bl: game(params, rt, offsets, ci, w, bl, stream),
                      lambda ci, x, y: armageddon(params, rt, offsets, ci, x, y, stream),
                      lambda ci, x, y: sudden_death(params, rt, offsets, ci, x, y, stream),
                      a, b, steps, fixed, stream)


def play_match(play, arm, sudden, a, b, steps, fixed, stream):
    """A match between ``a`` and ``b`` step by step (``steps``: rows of kind, control, games),
    each step after the first only while level; lots when every step left it level.
    ``play(ci, white, black)`` gives one game's result (0 White won, 1 draw, 2 Black won),
    ``arm(ci, a, b)`` and ``sudden(ci, a, b)`` an Armageddon's and a sudden death's winner
    (``sudden`` None: a sudden-death step goes to lots); ``fixed``: the known games (from
    a's side; UNPLAYED to play).  Returns :func:`match`'s list."""
    out = [0, 0, 0, 0, 0, 0]
    g = 0
    diff = 0
    for s, step in enumerate(steps):
        kind, ci, n = (int(x) for x in step[:3])
        if s > 0 and diff != 0:
            break
        out[1] = s
        if kind == STEP_GAMES:
            g, diff = _games_step(play, ci, n, a, b, fixed, g, diff, out if s == 0 else None)
        elif kind == STEP_ARMAGEDDON:
            diff = 1 if arm(ci, a, b) == a else -1
            g += 1
        elif kind == STEP_SUDDEN_DEATH and sudden is not None:
            diff = 1 if sudden(ci, a, b) == a else -1
        else:
            diff = 1 if stream.u01() < 0.5 else -1
    if diff == 0:
        out[1] = len(steps)
        diff = 1 if stream.u01() < 0.5 else -1
    out[0] = 0 if diff > 0 else 1
    return out


def _games_step(play, ci, n, a, b, fixed, g, diff, out):
    """``n`` games of control ``ci``, a White in the first and colours alternating; known
    games (``fixed`` from game ``g`` on) not played again.  Returns (games so far, score
    difference a - b in half points); ``out`` (the first step's, else None) gets a's and b's
    half points and wins."""
    for j in range(n):
        known = fixed[g] if g < len(fixed) else UNPLAYED
        if known != UNPLAYED:
            ra = known
        elif j % 2 == 0:
            ra = play(ci, a, b)
        else:
            ra = 2 - play(ci, b, a)
        g += 1
        diff += (2, 0, -2)[ra]
        if out is not None:
            out[2] += (2, 1, 0)[ra]
            out[3] += (0, 1, 2)[ra]
            out[4] += ra == 0
            out[5] += ra == 2
    return g, diff
