"""Numba code over arrays: the building blocks every format plays with, one of each.

A single game (``game_nb``), two-game pairs, a play-off round robin, Armageddon, sudden death,
a sudden-death knock-out, and a knock-out match as data (``match_nb``).  All read game
probabilities from one :class:`Games` record, either from a table filled once per plan (fast)
or, when ratings move inside a replica (strength offsets, hot Elo), live from the ratings; both
draw the same uniform the same way, so a replica's outcome does not depend on which is used.
``fmatch_nb`` is the one hand-specialised copy of ``match_nb`` (over the table, no known
game), kept where the benchmarks need it.  The plain-Python twins are in
``simcycle.reference.games``.
"""

import math
from typing import NamedTuple

import numpy as np

from ..enums import (BLACK_WINS, MAX_SUDDEN_DEATH, P_CLASS, P_DRAW0, P_EDGE, P_LEVEL,
                     P_OFFSET_SLOPE, P_REF, P_SLOPE, STEP_ARMAGEDDON, STEP_GAMES,
                     STEP_SUDDEN_DEATH, UNPLAYED, WHITE_WINS)
from .config import ijit, jit
from .rng_nb import GOLDEN, INV53, S11, mix64_nb, randint_nb, u01_nb


class Games(NamedTuple):
    """Where a kernel's game probabilities come from.

    params  float64 [controls, N_PARAMS]: ``OutcomeModel.params`` (columns ``enums.P_*``)
    rt      float64 [segments, players, 3]: each player's rating by rating class in each
            rating segment (a segment is a stretch of rounds or an event with one rating
            list); a kernel adds strength offsets to its own copy per replica
    thr     float64 [segments, controls, players, players, 2]: (P white wins, P white wins or
            draws) for every pair, filled once per plan by ``threshold_table_nb``; empty when
            ``live``
    live    bool: compute probabilities from ``rt`` (offsets or hot Elo on) instead of ``thr``
    offsets bool: strength offsets are on (the model's offsets slope replaces each control's)
    """

    params: np.ndarray
    rt: np.ndarray
    thr: np.ndarray
    live: bool
    offsets: bool


@ijit
def davidson_nb(nu0, level, ref, slope, edge, r_white, r_black):
    """(P white wins, P draw) of the Davidson-Elo form of docs/model.md from its terms:
    nu0 = 2 draw0 / (1 - draw0), the level term per Elo and its reference rating, the slope
    and White's edge in Elo."""
    nu = nu0 * math.exp(level * ((r_white + r_black) * 0.5 - ref))
    delta = (1.0 + 0.5 * nu) * (slope * (r_white - r_black) + edge)
    s = 10.0 ** (delta / 800.0)
    norm = s + 1.0 / s + nu
    return s / norm, nu / norm


@ijit
def terms_nb(params, ci, offsets):
    """The terms of ``davidson_nb`` at control row ``ci`` (the offsets' slope with offsets)."""
    d0 = params[ci, P_DRAW0]
    slope = params[ci, P_OFFSET_SLOPE] if offsets else params[ci, P_SLOPE]
    return (2.0 * d0 / (1.0 - d0), params[ci, P_LEVEL], params[ci, P_REF], slope,
            params[ci, P_EDGE])


@jit
def wdl_nb(params, ci, r_white, r_black, offsets):
    """(P white wins, P draw) of one game at control row ``ci``: the Davidson-Elo form of
    docs/model.md, the twin of ``model.davidson_wdl``."""
    nu0, level, ref, slope, edge = terms_nb(params, ci, offsets)
    return davidson_nb(nu0, level, ref, slope, edge, r_white, r_black)


@jit
def threshold_table_nb(params, rt):
    """thr[seg, ci, w, b] = (P white wins, P white wins + P draw) for every rating segment,
    control row and pair (offsets off): the table ``Games.thr``."""
    ns, n = rt.shape[0], rt.shape[1]
    nc = params.shape[0]
    thr = np.zeros((ns, nc, n, n, 2))
    for s in range(ns):
        for ci in range(nc):
            cls = np.int64(params[ci, P_CLASS])
            for w in range(n):
                for b in range(n):
                    pw, pd = wdl_nb(params, ci, rt[s, w, cls], rt[s, b, cls], np.bool_(False))
                    thr[s, ci, w, b, 0] = pw
                    thr[s, ci, w, b, 1] = pw + pd
    return thr


@ijit
def result_of_nb(u, tw, td):
    """The game result of uniform ``u`` against thresholds (tw, td): WHITE_WINS (0) when
    u < tw, else DRAW (1) when u < td, else BLACK_WINS (2).

    By arithmetic, not branches: a game's result is a coin flip to the branch predictor.
    ``max(tw, td)`` keeps it exact for any thresholds (u >= td counts only once u >= tw).
    The product form ``(u >= tw) * (1 + (u >= td))``, exact too, was compiled with a branch:
    the Candidates' 56 games cost 306-314 ns a replica that way against 152-155 ns this
    way (benchmarks/README.md, "A game's result without a branch")."""
    return np.int64(u >= tw) + np.int64(u >= max(tw, td))


@ijit
def thresholds_nb(g, seg, ci, white, black):
    """(P white wins, P white wins or draws) of one game."""
    if g.live:
        cls = np.int64(g.params[ci, P_CLASS])
        pw, pd = wdl_nb(g.params, ci, g.rt[seg, white, cls], g.rt[seg, black, cls], g.offsets)
        return pw, pw + pd
    return g.thr[seg, ci, white, black, 0], g.thr[seg, ci, white, black, 1]


@ijit
def game_nb(g, seg, ci, white, black, st):
    """Play one game: WHITE_WINS, DRAW or BLACK_WINS (raw, before Armageddon rules).
    One uniform from the replica's stream ``st``."""
    tw, td = thresholds_nb(g, seg, ci, white, black)
    return result_of_nb(u01_nb(st), tw, td)


@jit
def pair_nb(g, seg, ci, a, b, st):
    """Two games, ``a`` White in the first: returns a's score minus b's, in half points."""
    diff = 0
    r = game_nb(g, seg, ci, a, b, st)
    diff += 2 if r == WHITE_WINS else (-2 if r == BLACK_WINS else 0)
    r = game_nb(g, seg, ci, b, a, st)
    diff += -2 if r == WHITE_WINS else (2 if r == BLACK_WINS else 0)
    return diff


@jit
def round_robin_nb(g, seg, ci, players, k, score, st):
    """Single round robin among players[:k]; colours of each game by lot.
    Writes each player's half points into score[:k]."""
    for i in range(k):
        score[i] = 0
    for i in range(k):
        for j in range(i + 1, k):
            if u01_nb(st) < 0.5:
                w, bl, wi, bi = players[i], players[j], i, j
            else:
                w, bl, wi, bi = players[j], players[i], j, i
            r = game_nb(g, seg, ci, w, bl, st)
            if r == WHITE_WINS:
                score[wi] += 2
            elif r == BLACK_WINS:
                score[bi] += 2
            else:
                score[wi] += 1
                score[bi] += 1


@jit
def armageddon_nb(g, seg, ci, a, b, st):
    """One decisive game, colours by lot; a draw goes to Black.  Returns the winner."""
    if u01_nb(st) < 0.5:
        w, bl = a, b
    else:
        w, bl = b, a
    r = game_nb(g, seg, ci, w, bl, st)
    return w if r == WHITE_WINS else bl


@jit
def sudden_death_nb(g, seg, ci, a, b, st):
    """Games until one is won; first colour by lot, then alternating.  Returns the winner."""
    if u01_nb(st) < 0.5:
        w, bl = a, b
    else:
        w, bl = b, a
    for _ in range(MAX_SUDDEN_DEATH):
        r = game_nb(g, seg, ci, w, bl, st)
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
def sudden_death_knockout_nb(g, seg, ci, players, k, work, st):
    """Knock-out of sudden-death mini-matches among players[:k] (k >= 2); returns the winner.

    Lots order the players; the bracket is the next power of two, the first
    2*(k - size/2) players in lot order play a first round and the others have byes.
    ``work`` is scratch of length >= k."""
    for i in range(k):
        work[i] = players[i]
    shuffle_nb(work, k, st)
    size = 1
    while size < k:
        size *= 2
    m = k - size // 2  # first-round matches
    n = 0
    for i in range(m):
        work[n] = sudden_death_nb(g, seg, ci, work[2 * i], work[2 * i + 1], st)
        n += 1
    for i in range(2 * m, k):
        work[n] = work[i]
        n += 1
    while n > 1:
        h = n // 2
        for i in range(h):
            work[i] = sudden_death_nb(g, seg, ci, work[2 * i], work[2 * i + 1], st)
        n = h
    return work[0]


@ijit
def match_nb(g, seg, a, b, steps, fixed, st, out):
    """A knock-out match between ``a`` and ``b``, as data.

    steps[s] = (kind ``enums.STEP_*``, control row, n games); step 0 is the classical part.
    Each step after the first is played only while the match is level.  fixed[k] is the
    known result of the k-th game of the match from a's side (0 a won, 1 draw, 2 a lost;
    -1 to simulate); in a STEP_GAMES step a is White in the step's odd-numbered games.
    out (int64[6]) receives: winner (0 = a, 1 = b), the step that decided the match (the
    number of steps if lots after the last), a's and b's half points in step 0, a's and b's
    wins in step 0."""
    for i in range(6):
        out[i] = 0
    k = 0
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
                known = fixed[k] if k < nf else UNPLAYED
                if known != UNPLAYED:
                    ra = known
                elif j % 2 == 0:
                    ra = game_nb(g, seg, ci, a, b, st)
                else:
                    ra = 2 - game_nb(g, seg, ci, b, a, st)
                k += 1
                if ra == WHITE_WINS:
                    diff += 2
                    if s == 0:
                        out[2] += 2
                        out[4] += 1
                elif ra == BLACK_WINS:
                    diff -= 2
                    if s == 0:
                        out[3] += 2
                        out[5] += 1
                elif s == 0:
                    out[2] += 1
                    out[3] += 1
        elif kind == STEP_ARMAGEDDON:
            w = armageddon_nb(g, seg, ci, a, b, st)
            diff = 1 if w == a else -1
            k += 1
        elif kind == STEP_SUDDEN_DEATH:
            w = sudden_death_nb(g, seg, ci, a, b, st)
            diff = 1 if w == a else -1
        else:  # STEP_LOTS
            diff = 1 if u01_nb(st) < 0.5 else -1
    if diff == 0:  # a cascade without a decisive last step: lots
        out[1] = steps.shape[0]
        diff = 1 if u01_nb(st) < 0.5 else -1
    out[0] = 0 if diff > 0 else 1



@ijit
def fmatch_nb(thr, seg, a, b, steps, state):
    """``match_nb`` over the table ``thr`` = ``Games.thr`` for a match with no known game
    whose steps are games and Armageddon only, the stream state kept in a register.  Returns
    (winner 0 = a / 1 = b, deciding step, a's and b's classical half points, a's and b's
    classical wins, state): ``match_nb``'s out[0:6] and ``st[0]`` after it, the same draws
    in the same order.

    The one hand-specialised copy of a match, kept because the benchmarks need it:
    ``match_nb`` over a ``Games`` record, inlined per match and per game, pays reference-count
    updates on the record's arrays and keeps the stream state in memory.  GP 2019 from
    ``start`` (bench_gp2019.py's kernel, CPU time per series, 2-core machine): the old kernel
    204,000 series/s on 1 thread and 407,000 on 2; every match through ``match_nb`` 120,000 and
    238,000 (below the 250,000 target); with this copy 202,000 and 406,000.  GP 2022 from
    ``start`` (bench_gp2022.py, medians of alternating runs): the old kernel 190,000 series/s
    on 1 thread and 375,000 on 2; every match through ``match_nb`` 176,000 and 353,000; with
    this copy for the knock-out matches and the group tiebreaks 194,000 and 390,000
    (``formats.group_series.nb``).  A game's result is found by arithmetic on its two
    thresholds, not by branches (benchmarks/README.md, "The knock-out series' match by
    arithmetic")."""
    diff = 0
    ca = 0
    cb = 0
    wa = 0
    wb = 0
    step = 0
    for s in range(steps.shape[0]):
        kind = steps[s, 0]
        ci = steps[s, 1]
        if s > 0 and diff != 0:
            break
        step = s
        if kind == STEP_GAMES:
            for j in range(steps[s, 2]):
                state = state + GOLDEN
                u = np.float64(mix64_nb(state) >> S11) * INV53
                if j % 2 == 0:
                    w = a
                    bl = b
                else:
                    w = b
                    bl = a
                # White's half points minus one (1, 0, -1) from the two thresholds (P white
                # wins <= P white wins or draws): a game's result is a coin flip to the
                # branch predictor
                h = (np.int64(u < thr[seg, ci, w, bl, 0]) + np.int64(u < thr[seg, ci, w, bl, 1])
                     - 1)
                if j % 2 == 1:
                    h = -h
                diff += 2 * h
                if s == 0:
                    ca += 1 + h
                    cb += 1 - h
                    wa += np.int64(h == 1)
                    wb += np.int64(h == -1)
        else:   # STEP_ARMAGEDDON: colours by lot, a draw goes to Black
            state = state + GOLDEN
            u = np.float64(mix64_nb(state) >> S11) * INV53
            if u < 0.5:
                w = a
                bl = b
            else:
                w = b
                bl = a
            state = state + GOLDEN
            u = np.float64(mix64_nb(state) >> S11) * INV53
            win = w if u < thr[seg, ci, w, bl, 0] else bl
            diff = 1 if win == a else -1
    if diff == 0:   # a cascade without a decisive last step: lots
        step = steps.shape[0]
        state = state + GOLDEN
        u = np.float64(mix64_nb(state) >> S11) * INV53
        diff = 1 if u < 0.5 else -1
    return (0 if diff > 0 else 1), step, ca, cb, wa, wb, state
