"""Numba code over arrays: the rest of a Swiss event, replica-parallel with streaming
tallies.  ``play_swiss_nb`` is the per-replica stage (a field, ratings, a stream and scratch
in; the final order, points and tie-break values out), so a cycle can call it; ``chunk_nb``
tallies P(place), P(qualify) with passing-down, P(top 10), points and prizes.

Each replica draws, in this order: one uniform per board of every simulated round (boards in
pairing order), then the lots for what the tie-breaks leave level (groups from the top).
The plain-Python twin is ``simcycle.reference.swiss``.  Rounds are paired by
``kernels.dutch_nb.pair_round_nb``; numba's cache of these functions is keyed by this file, so
a change to the pairing kernel alone leaves a stale compiled copy here: edit this file with it.
(Last edited with the pairing kernel for its reference counts, 2026-12-05.)
"""

from typing import NamedTuple

import numpy as np
from numba import prange

from ...enums import (BLACK_WINS, COL_BLACK, COL_WHITE, DRAW, RK_FORFEIT_LOSS, RK_FORFEIT_WIN,
                      RK_NONE, RK_PAB, RK_PLAYED, WHITE_WINS)
from ...kernels.config import CHUNK, bjit, jit, pjit
from ...kernels.criteria_nb import Crosstable, adjusted_nb, rank_criteria_nb
from ...kernels.dutch_nb import mark_met_nb, pair_marked_nb, pair_scratch_nb
from ...kernels.game_nb import result_of_nb
from ...kernels.prizes_nb import share_by_points_nb
from ...kernels.rank_nb import lots_groups_nb
from ...kernels.rng_nb import replica_state_nb, u01_nb
from ...kernels.tally_nb import count_flags_nb, local_tallies_nb, store_nb, tally_nb

SW_C_Q_TIEBREAK, SW_C_Q_LOTS = 0, 1


class SwissArgs(NamedTuple):
    """The arguments of :func:`simulate_nb`, built by ``plan.py``.

    gthr        float64 [n, n, 2]: (P White wins, P White wins or draws) of White i v Black j
    base_opp, base_res, base_kind, base_colour   int64 [n, R]: the crosstable of the rounds
                played (``criteria_nb.Crosstable`` columns; later rounds RK_NONE)
    rating      int64 [n]: the start list's ratings (average-rating criteria)
    start       int: the first round to simulate (0-based; rounds before it are played)
    fixed_w, fixed_b  int64 [m]: the published boards of round ``start`` (m = 0: none; a
                bye: fixed_b = -1 and fixed_res the bye's half points)
    fixed_res   int64 [m]: a known result (``enums`` code) or -1 (simulated)
    fixed_kind  int64 [m]: RK_PLAYED, RK_FORFEIT_WIN (White won by forfeit) or a bye's kind
    n_rounds    int: rounds of the event
    virtual     int64 [R, n]: virtual half points for pairing (acceleration), per round
    init        int: the initial colour (COL_WHITE / COL_BLACK)
    pab         int: half points of a pairing-allocated bye
    criteria    int64 [k]: the tie-breaks in order, up to the first lots (lots end them)
    qualified   int64 [n]: 1 for a player already qualified (passing-down skips him)
    n_qual      int: qualifying places
    pass_down   bool: a place whose holder is already qualified goes to the next
    place_prize float64 [n]: money of each place
    by_points   bool: players level on points share their places' money
    top         int: the "top k" tallied as an extra probability
    """

    gthr: np.ndarray
    base_opp: np.ndarray
    base_res: np.ndarray
    base_kind: np.ndarray
    base_colour: np.ndarray
    rating: np.ndarray
    start: int
    fixed_w: np.ndarray
    fixed_b: np.ndarray
    fixed_res: np.ndarray
    fixed_kind: np.ndarray
    n_rounds: int
    virtual: np.ndarray
    init: int
    pab: int
    criteria: np.ndarray
    qualified: np.ndarray
    n_qual: int
    pass_down: bool
    place_prize: np.ndarray
    by_points: bool
    top: int


class Work(NamedTuple):
    """Per-chunk scratch of ``play_swiss_nb`` (n players)."""

    t: Crosstable
    pair_pts: np.ndarray
    ow: np.ndarray
    ob: np.ndarray
    order: np.ndarray
    brk: np.ndarray
    val: np.ndarray
    group: np.ndarray
    lots: np.ndarray


@jit
def work_nb(n, R):
    t = Crosstable(np.full((n, R), -1, np.int64), np.zeros((n, R), np.int64),
                   np.zeros((n, R), np.int64), np.zeros((n, R), np.int64),
                   np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64))
    return Work(t, np.zeros(n, np.int64), np.zeros(n + 1, np.int64),
                np.zeros(n + 1, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64))


@bjit
def score_board_nb(t, r, w, b, res, kind):
    """Write one board of round r into the crosstable (a game or a forfeit won by w)."""
    t.opp[w, r] = b
    t.opp[b, r] = w
    if kind == RK_FORFEIT_WIN:
        t.kind[w, r] = RK_FORFEIT_WIN
        t.kind[b, r] = RK_FORFEIT_LOSS
        t.res[w, r] = 2
        t.res[b, r] = 0
        return
    t.kind[w, r] = RK_PLAYED
    t.kind[b, r] = RK_PLAYED
    t.colour[w, r] = COL_WHITE
    t.colour[b, r] = COL_BLACK
    if res == WHITE_WINS:
        t.res[w, r], t.res[b, r] = 2, 0
    elif res == DRAW:
        t.res[w, r], t.res[b, r] = 1, 1
    else:
        t.res[w, r], t.res[b, r] = 0, 2


@bjit
def play_swiss_nb(a, rt_thr, w, ps, st, flags):
    """One replica of the rest of the event: pair and play rounds ``a.start`` .. R-1, then
    rank by points, ``a.criteria`` and lots.  ``rt_thr``: the game thresholds (a.gthr, or a
    replica's own with strength offsets); ``w``: :class:`Work`; ``ps``: the pairing scratch;
    ``st``: the replica's stream; ``flags`` [2]: tie-breaks / lots decided a qualifying
    place.  On return w.order[:n] is the final order, w.t.pts the points (half points);
    ps.met is zero again (it holds the games met during the event)."""
    t = w.t
    n = t.opp.shape[0]
    R = a.n_rounds
    for i in range(n):
        t.rating[i] = a.rating[i]     # the average-rating criteria read the start list's
        for r in range(R):
            t.opp[i, r] = a.base_opp[i, r]
            t.res[i, r] = a.base_res[i, r]
            t.kind[i, r] = a.base_kind[i, r]
            t.colour[i, r] = a.base_colour[i, r]
    met = ps.met
    mark_met_nb(t, a.start, met, 1)   # the games played before the first simulated round
    for r in range(a.start, R):
        fixed = r == a.start and a.fixed_w.shape[0] > 0     # round r's boards are published
        if fixed:
            m = a.fixed_w.shape[0]
            for j in range(m):
                w.ow[j] = a.fixed_w[j]
                w.ob[j] = a.fixed_b[j]
        else:
            for i in range(n):
                p = 0
                for q in range(r):
                    p += t.res[i, q]
                w.pair_pts[i] = p + a.virtual[r, i]
            m = pair_marked_nb(t, r, R, w.pair_pts, a.init, ps, w.ow, w.ob)
        for j in range(m):
            x, y = w.ow[j], w.ob[j]
            if y < 0:   # a bye
                t.kind[x, r] = a.fixed_kind[j] if fixed else RK_PAB
                t.res[x, r] = a.fixed_res[j] if fixed else a.pab
                continue
            if fixed and a.fixed_kind[j] == RK_FORFEIT_WIN:
                score_board_nb(t, r, x, y, WHITE_WINS, RK_FORFEIT_WIN)
                continue
            res = a.fixed_res[j] if fixed else -1
            u = u01_nb(st)   # drawn for a known result too: what-ifs share the other numbers
            if res < 0:
                res = result_of_nb(u, rt_thr[x, y, 0], rt_thr[x, y, 1])
            score_board_nb(t, r, x, y, res, RK_PLAYED)
            met[x, y] = 1                     # played over the board: a rematch is barred
            met[y, x] = 1
    mark_met_nb(t, R, met, 0)
    adjusted_nb(t, R)
    rank_criteria_nb(t, R, a.criteria, w.order, w.brk, w.val, w.group, w.lots, st, False)
    # the last qualifying place: level on points / on everything with the next eligible
    if a.n_qual > 0:
        k = 0
        last = -1
        nxt = -1
        for p in range(n):
            i = w.order[p]
            if a.pass_down and a.qualified[i] == 1:
                continue
            if k == a.n_qual - 1:
                last = p
            elif k == a.n_qual:
                nxt = p
                break
            k += 1
        if last >= 0 and nxt >= 0:
            if t.pts[w.order[last]] == t.pts[w.order[nxt]]:
                flags[SW_C_Q_TIEBREAK] = 1
                level = True
                for p in range(last + 1, nxt + 1):
                    if w.brk[p] == 1:
                        level = False
                if level:
                    flags[SW_C_Q_LOTS] = 1
    lots_groups_nb(w.order, w.brk, w.lots, 0, n, st)


@jit
def prizes_nb(a, n, order, pts, prize):
    if not a.by_points:
        for p in range(n):
            prize[order[p]] = a.place_prize[p]
        return
    share_by_points_nb(a.place_prize, n, order, pts, prize, False)


@jit
def chunk_nb(c, lo, hi, seed, first, a, out):
    """Replicas lo .. hi-1 (offsets from ``first``) into row c of ``out``."""
    n = a.base_opp.shape[0]
    R = a.n_rounds
    w = work_nb(n, R)
    ps = pair_scratch_nb(n)
    st = np.empty(1, np.uint64)
    qual = np.zeros(n, np.int64)
    prize = np.zeros(n)
    flags = np.zeros(out.counters.shape[1], np.int64)
    t = local_tallies_nb(out)
    for r in range(lo, hi):
        st[0] = replica_state_nb(np.uint64(seed), np.uint64(first + r))
        for k in range(flags.shape[0]):
            flags[k] = 0
        play_swiss_nb(a, a.gthr, w, ps, st, flags)
        for i in range(n):
            qual[i] = 0
        k = 0
        for p in range(n):
            i = w.order[p]
            if k >= a.n_qual:
                break
            if a.pass_down and a.qualified[i] == 1:
                continue
            qual[i] = 1
            k += 1
        prizes_nb(a, n, w.order, w.t.pts, prize)
        tally_nb(t, w.order, n, qual, w.t.pts, prize)
        for p in range(min(a.top, n)):
            t.extra[0, w.order[p]] += 1
        count_flags_nb(t, flags)
    store_nb(t, out, c)


@pjit
def simulate_nb(seed, first, n, a, out):
    """Replicas first .. first+n-1 of a run seeded ``seed``, in chunks of CHUNK."""
    nc = (n + CHUNK - 1) // CHUNK
    for c in prange(nc):
        lo = c * CHUNK
        hi = min(lo + CHUNK, n)
        chunk_nb(np.int64(c), lo, hi, seed, first, a, out)


__all__ = ["SwissArgs", "simulate_nb", "play_swiss_nb", "BLACK_WINS", "RK_NONE"]
