"""Numba code over arrays: single games, play-offs and knock-out matches.

Shared by every format.  ``rt`` is a float64 [n_players, 3] table of ratings by rating class
(classical, rapid, blitz), offsets already added when they are on; ``params`` is
``OutcomeModel.params``; ``ci`` a control row; ``st`` the replica's uint64[1] stream.
The plain-Python twin is ``simcycle.reference.games``.
"""

import math

import numpy as np

from ..enums import (BLACK_WINS, DRAW, MAX_SUDDEN_DEATH, STEP_ARMAGEDDON, STEP_GAMES,
                     STEP_SUDDEN_DEATH, UNPLAYED, WHITE_WINS)
from .config import jit
from .rng_nb import randint_nb, u01_nb


@jit
def wdl_nb(params, ci, r_white, r_black, offsets):
    """(P white wins, P draw) of one game at control row ``ci``."""
    d0 = params[ci, 0]
    slope = params[ci, 7] if offsets else params[ci, 2]
    nu = 2.0 * d0 / (1.0 - d0) * math.exp(params[ci, 3] * ((r_white + r_black) * 0.5 - params[ci, 8]))
    delta = (1.0 + 0.5 * nu) * (slope * (r_white - r_black) + params[ci, 1])
    s = 10.0 ** (delta / 800.0)
    norm = s + 1.0 / s + nu
    return s / norm, nu / norm


@jit
def game_nb(params, rt, offsets, ci, white, black, st):
    """Play one game: WHITE_WINS, DRAW or BLACK_WINS (raw, before Armageddon rules)."""
    cls = np.int64(params[ci, 4])
    pw, pd = wdl_nb(params, ci, rt[white, cls], rt[black, cls], offsets)
    u = u01_nb(st)
    if u < pw:
        return WHITE_WINS
    if u < pw + pd:
        return DRAW
    return BLACK_WINS


@jit
def pair_nb(params, rt, offsets, ci, a, b, st):
    """Two games, ``a`` White in the first: returns a's score minus b's, in half points."""
    diff = 0
    r = game_nb(params, rt, offsets, ci, a, b, st)
    diff += 2 if r == WHITE_WINS else (-2 if r == BLACK_WINS else 0)
    r = game_nb(params, rt, offsets, ci, b, a, st)
    diff += -2 if r == WHITE_WINS else (2 if r == BLACK_WINS else 0)
    return diff


@jit
def round_robin_nb(params, rt, offsets, ci, players, k, score, st):
    """Single round robin among players[:k]; colours of each game by lot.

    Writes each player's half points into score[:k].
    """
    for i in range(k):
        score[i] = 0
    for i in range(k):
        for j in range(i + 1, k):
            if u01_nb(st) < 0.5:
                w, bl, wi, bi = players[i], players[j], i, j
            else:
                w, bl, wi, bi = players[j], players[i], j, i
            r = game_nb(params, rt, offsets, ci, w, bl, st)
            if r == WHITE_WINS:
                score[wi] += 2
            elif r == BLACK_WINS:
                score[bi] += 2
            else:
                score[wi] += 1
                score[bi] += 1


@jit
def armageddon_nb(params, rt, offsets, ci, a, b, st):
    """One decisive game, colours by lot; a draw goes to Black.  Returns the winner."""
    if u01_nb(st) < 0.5:
        w, bl = a, b
    else:
        w, bl = b, a
    r = game_nb(params, rt, offsets, ci, w, bl, st)
    return w if r == WHITE_WINS else bl


@jit
def sudden_death_nb(params, rt, offsets, ci, a, b, st):
    """Games until one is won; first colour by lot, then alternating.  Returns the winner."""
    if u01_nb(st) < 0.5:
        w, bl = a, b
    else:
        w, bl = b, a
    for _ in range(MAX_SUDDEN_DEATH):
        r = game_nb(params, rt, offsets, ci, w, bl, st)
        if r == WHITE_WINS:
            return w
        if r == BLACK_WINS:
            return bl
        w, bl = bl, w
    return a if u01_nb(st) < 0.5 else b


@jit
def shuffle_nb(arr, k, st):
    """Fisher-Yates shuffle of arr[:k] in place (drawing of lots)."""
    for i in range(k - 1, 0, -1):
        j = randint_nb(st, i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t


@jit
def sudden_death_knockout_nb(params, rt, offsets, ci, players, k, work, st):
    """Knock-out of sudden-death mini-matches among players[:k] (k >= 2); returns the winner.

    Lots order the players; the bracket is the next power of two, the first
    2*(k - size/2) players in lot order play a first round and the others have byes.
    ``work`` is scratch of length >= k.
    """
    for i in range(k):
        work[i] = players[i]
    shuffle_nb(work, k, st)
    size = 1
    while size < k:
        size *= 2
    m = k - size // 2  # first-round matches
    n = 0
    # first round: players 0..2m-1 play, the rest advance
    for i in range(m):
        work[n] = sudden_death_nb(params, rt, offsets, ci, work[2 * i], work[2 * i + 1], st)
        n += 1
    for i in range(2 * m, k):
        work[n] = work[i]
        n += 1
    while n > 1:
        h = n // 2
        for i in range(h):
            work[i] = sudden_death_nb(params, rt, offsets, ci, work[2 * i], work[2 * i + 1], st)
        n = h
    return work[0]


@jit
def match_nb(params, rt, offsets, a, b, steps, fixed, st, out):
    """A knock-out match between ``a`` and ``b``, as data.

    steps[s] = (kind, control row, n games); step 0 is the classical part.  Each step after
    the first is played only while the match is level.  fixed[g] is the known result of the
    g-th game of the match from a's side (0 a won, 1 draw, 2 a lost; -1 to simulate); in a
    STEP_GAMES step a is White in the step's odd-numbered games (1st, 3rd, ...).
    out (int64[6]) receives: winner (0 = a, 1 = b), the step that decided the match, a's and
    b's half points in step 0, a's and b's wins in step 0.
    """
    for i in range(6):
        out[i] = 0
    g = 0
    diff = 0
    nf = fixed.shape[0]
    for s in range(steps.shape[0]):
        kind = steps[s, 0]
        ci = steps[s, 1]
        if s > 0 and diff != 0:
            break
        out[1] = s
        if kind == STEP_GAMES:
            for j in range(steps[s, 2]):
                known = fixed[g] if g < nf else UNPLAYED
                if known != UNPLAYED:
                    ra = known  # 0 a won, 1 draw, 2 a lost
                elif j % 2 == 0:
                    r = game_nb(params, rt, offsets, ci, a, b, st)
                    ra = r
                else:
                    r = game_nb(params, rt, offsets, ci, b, a, st)
                    ra = 2 - r
                g += 1
                if ra == 0:
                    diff += 2
                    if s == 0:
                        out[2] += 2
                        out[4] += 1
                elif ra == 2:
                    diff -= 2
                    if s == 0:
                        out[3] += 2
                        out[5] += 1
                elif s == 0:
                    out[2] += 1
                    out[3] += 1
        elif kind == STEP_ARMAGEDDON:
            w = armageddon_nb(params, rt, offsets, ci, a, b, st)
            diff = 1 if w == a else -1
            g += 1
        elif kind == STEP_SUDDEN_DEATH:
            w = sudden_death_nb(params, rt, offsets, ci, a, b, st)
            diff = 1 if w == a else -1
        else:  # STEP_LOTS
            diff = 1 if u01_nb(st) < 0.5 else -1
    if diff == 0:  # a cascade without a decisive last step: lots
        out[1] = steps.shape[0]
        diff = 1 if u01_nb(st) < 0.5 else -1
    out[0] = 0 if diff > 0 else 1
