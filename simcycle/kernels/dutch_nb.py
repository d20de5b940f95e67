"""Numba code over arrays: one round of FIDE Dutch pairings (Handbook C.04.3, the rules in
force until 2026), as faithful as a fast kernel can be.

What it does (C.04.3 names):

* Players are ranked by pairing score (points, plus any acceleration's virtual points), then
  pairing number; score brackets are the runs of equal score, paired from the top.
* Moved-down players (MDPs) of the bracket above come first in a bracket and are paired
  with its residents in order; the residents are split into S1 (top half) and S2, and
  S1[i] takes S2 partners in S2's order: the first completion a depth-first search finds is
  the lexicographically first transposition; when S2 has none, S1 players further down
  (an exchange) and finally downfloating are tried.  With MDPs, each pairing of them is
  tried with the remainder's transpositions, then its exchanges, before the next (C.04.3 D).
* Absolute criteria: no rematch (B1); no pair of players with the same absolute colour
  preference (B2: colour difference beyond +-1 or the same colour twice running), except
  that in the last round a topscorer (more than half the maximum score) is exempt.
* Quality criteria, in this order: fewest downfloaters (C.5), fewest pairs in which a colour
  preference cannot be granted (C.10), fewest floats repeated from the previous round
  (C.12-C.13 together), fewest repeated from two rounds before (C.14-C.15 together); floats
  as A.4 b (not playing a round, for whatever reason, is a downfloat).
* The completion criterion (C.4): when the last bracket cannot be paired, the bracket above
  is merged into it and the round is paired again.
* Colours (C.04.3 E): both preferences when they differ; the stronger preference; alternate
  from the latest round in which the two had different colours; the higher-ranked player's
  preference; with no history the higher-ranked player gets the initial colour if his
  pairing number is odd (XXC).
* A pairing-allocated bye goes to the lowest player of the last bracket who has not had one
  (nor a forfeit win).

What it simplifies (docs/format-swiss.md): the score-difference criteria (C.6 beyond pairing
MDPs first, C.7, C.16-C.19), the colour criteria for topscorers (C.8-C.9), the strong
preference (C.11), and the order in which exchanges between S1 and S2 are tried (D.2); each
search is bounded (``STEP_CAP`` steps, ``FLOAT_CAP`` when it also bounds repeated floats),
beyond which the next looser budget is used.  The search skips any choice after which the
colour conflicts already made plus a lower bound on those still to come (``conflict_bound_nb``)
exceed the budget; it finds the same pairing as an unpruned search that is not cut short.
"""

from typing import NamedTuple

import numpy as np

from ..enums import COL_BLACK, COL_NONE, COL_WHITE, RK_FORFEIT_WIN, RK_PAB, RK_PLAYED
from numba.cpython.unsafe.numbers import trailing_zeros

from .config import bjit, ijit, jit

FLOAT_TRIES = 2       # repeated-float budgets tried (0, 1) before any number is allowed
FLOAT2_TRIES = 1      # the same for floats repeated from two rounds before (0)
PER_FLOAT = 2 * FLOAT2_TRIES + 2                         # attempts per repeated-float budget
N_ATTEMPTS = FLOAT_TRIES * PER_FLOAT + 2 * FLOAT2_TRIES + 1   # attempts at a colour budget
STEP_CAP = 4000        # search steps per attempt (a budget of floaters and colour conflicts)
FLOAT_CAP = 500        # the same for an attempt that also bounds the repeated floats
FREE = -2
FLOATED = -1


class PairScratch(NamedTuple):
    """Work arrays of one replica's pairings (n players); allocated once per chunk.

    order   int64 [n]: players by pairing score, then pairing number
    lst     int64 [n]: the bracket being paired (players)
    state   int64 [n]: per bracket position: FREE, FLOATED or the partner's position
    sx      int64 [n]: search stack: the position decided at each depth
    sk      int64 [n]: search stack: the next option to try at each depth
    s2      int64 [n]: search stack: the position where S2 starts (residents' phase)
    pref    int64 [n]: colour preference (COL_WHITE, COL_BLACK, COL_NONE)
    strength int64 [n]: 0 none, 1 mild, 2 strong, 3 absolute
    cd      int64 [n]: colour difference (games with White minus with Black)
    top     int64 [n]: 1 for a topscorer in the last round
    mdp     int64 [n]: players moved down into the next bracket
    nobye   int64 [n]: 1 when the player may not get the pairing-allocated bye
    df1     int64 [n]: 1 when the player floated down in the previous round (A.4: paired with a
            lower score, or did not play: a bye, a forfeit, an absence)
    uf1     int64 [n]: 1 when the player floated up in the previous round
    df2     int64 [n]: the same as df1 for the round two before the one being paired
    uf2     int64 [n]: the same as uf1 for the round two before
    sc1, sc2  int64 [n]: each player's score (half points) before the previous round and
            before the round two before (``colour_state_nb``, for the floats)
    met     uint8 [n, n]: met[x, y] = 1 when x played y over the board before the round being
            paired (filled and cleared again by ``pair_round_nb``; zero between calls)
    bstart  int64 [n + 1]: the first position of each bracket paired in the round's pass
    bnb     int64 [n + 1]: the boards made before each of those brackets

    The bracket being paired, by position i in s.lst (built once a bracket by
    ``bracket_bits_nb``, so that the search reads small contiguous arrays and finds its next
    candidate with bit operations; W = (n + 63) // 64 words of 64 positions):

    ppref   int64 [n]: pref of the player at position i
    pdf1, pdf2, puf1, puf2, pnobye   int64 [n]: df1, df2, uf1, uf2, nobye of that player
    order_pos int64 [n]: the position of player x in the bracket last built (valid when
            s.lst[order_pos[x]] == x and order_pos[x] < m)
    cmp     uint64 [n, W]: bit j of row i set when positions i and j may meet
            (``bracket_bits_nb``: B1, B2; never i = j)
    free    uint64 [W]: bit i set while position i is FREE (the search keeps it with state)
    cls     uint64 [3, W]: positions whose player wants White, Black, has no preference
    upm     uint64 [2, W]: resident positions (i >= n_mdp) with puf1 = 1, with puf2 = 1
    absol   uint64 [2, W]: positions with an absolute preference for White, for Black, not
            topscorers of the last round (B2)
    allow   uint64 [W]: the search's candidate mask of one step
    """

    order: np.ndarray
    lst: np.ndarray
    state: np.ndarray
    sx: np.ndarray
    sk: np.ndarray
    s2: np.ndarray
    pref: np.ndarray
    strength: np.ndarray
    cd: np.ndarray
    top: np.ndarray
    mdp: np.ndarray
    nobye: np.ndarray
    df1: np.ndarray
    uf1: np.ndarray
    df2: np.ndarray
    uf2: np.ndarray
    sc1: np.ndarray
    sc2: np.ndarray
    met: np.ndarray
    bstart: np.ndarray
    bnb: np.ndarray
    ppref: np.ndarray
    pdf1: np.ndarray
    pdf2: np.ndarray
    puf1: np.ndarray
    puf2: np.ndarray
    pnobye: np.ndarray
    order_pos: np.ndarray
    cmp: np.ndarray
    free: np.ndarray
    cls: np.ndarray
    upm: np.ndarray
    absol: np.ndarray
    allow: np.ndarray


def pair_scratch(n: int) -> PairScratch:
    """Work arrays for ``pair_round_nb`` (plain Python; kernels build the same with
    ``pair_scratch_nb``)."""
    w = (n + 63) // 64
    return PairScratch(*[np.zeros(n, np.int64) for _ in range(18)], np.zeros((n, n), np.uint8),
                       np.zeros(n + 1, np.int64), np.zeros(n + 1, np.int64),
                       *[np.zeros(n, np.int64) for _ in range(7)],
                       np.zeros((n, w), np.uint64), np.zeros(w, np.uint64),
                       np.zeros((3, w), np.uint64), np.zeros((2, w), np.uint64),
                       np.zeros((2, w), np.uint64), np.zeros(w, np.uint64))


@jit
def pair_scratch_nb(n):
    z = np.zeros
    w = (n + 63) // 64
    return PairScratch(z(n, np.int64), z(n, np.int64), z(n, np.int64), z(n, np.int64),
                       z(n, np.int64), z(n, np.int64), z(n, np.int64), z(n, np.int64),
                       z(n, np.int64), z(n, np.int64), z(n, np.int64), z(n, np.int64),
                       z(n, np.int64), z(n, np.int64), z(n, np.int64), z(n, np.int64),
                       z(n, np.int64), z(n, np.int64), z((n, n), np.uint8),
                       z(n + 1, np.int64), z(n + 1, np.int64),
                       z(n, np.int64), z(n, np.int64), z(n, np.int64), z(n, np.int64),
                       z(n, np.int64), z(n, np.int64), z(n, np.int64),
                       z((n, w), np.uint64), z(w, np.uint64), z((3, w), np.uint64),
                       z((2, w), np.uint64), z((2, w), np.uint64), z(w, np.uint64))


@bjit
def colour_state_nb(t, rnd, s):
    """Colour difference, preference and its strength of every player before round ``rnd``
    (0-based) from the games played over the board (C.04.3 A.6), and the floats of the two
    rounds before it (C.04.3 A.4): one pass over each player's row, which also keeps his
    score before each of those two rounds (s.sc1, s.sc2) for the floats."""
    opp, res, kind, colour = t.opp, t.res, t.kind, t.colour
    cd, pref, strength, nobye, sc1, sc2 = s.cd, s.pref, s.strength, s.nobye, s.sc1, s.sc2
    n = opp.shape[0]
    for i in range(n):
        d = 0
        last = COL_NONE
        prev = COL_NONE
        nb = 0
        p = 0
        for r in range(rnd):
            if r == rnd - 2:
                sc2[i] = p
            if r == rnd - 1:
                sc1[i] = p
            p += res[i, r]
            kd = kind[i, r]
            if kd == RK_PLAYED:
                c = colour[i, r]
                d += c
                prev = last
                last = c
            elif kd == RK_PAB or kd == RK_FORFEIT_WIN:
                nb = 1
        cd[i] = d
        if d < -1 or (last == COL_BLACK and prev == COL_BLACK):
            pref[i], strength[i] = COL_WHITE, 3
        elif d > 1 or (last == COL_WHITE and prev == COL_WHITE):
            pref[i], strength[i] = COL_BLACK, 3
        elif d == -1:
            pref[i], strength[i] = COL_WHITE, 2
        elif d == 1:
            pref[i], strength[i] = COL_BLACK, 2
        elif last != COL_NONE:
            pref[i], strength[i] = -last, 1
        else:
            pref[i], strength[i] = COL_NONE, 0
        nobye[i] = nb
    floats_nb(t, rnd - 1, sc1, s.df1, s.uf1)
    floats_nb(t, rnd - 2, sc2, s.df2, s.uf2)


@bjit
def floats_nb(t, r, sc, df, uf):
    """The floats of round ``r`` (0-based; none when r < 0), C.04.3 A.4 b: of two players with
    different scores before round r (``sc``, int64 [n]) who played each other, the higher
    receives a downfloat (df[i] = 1), the lower an upfloat (uf[i] = 1); a player who did not
    play in round r, for whatever reason (a bye, a forfeit), receives a downfloat."""
    opp, kind = t.opp, t.kind
    n = opp.shape[0]
    for i in range(n):
        df[i] = 0
        uf[i] = 0
    if r < 0:
        return
    for i in range(n):
        if kind[i, r] != RK_PLAYED:
            df[i] = 1
            continue
        o = opp[i, r]
        if sc[i] > sc[o]:
            df[i] = 1
        elif sc[i] < sc[o]:
            uf[i] = 1


@bjit
def mark_met_nb(t, rnd, met, v):
    """met[x, y] = v for every game x played over the board against y before round rnd."""
    opp, kind = t.opp, t.kind
    n = opp.shape[0]
    for x in range(n):
        for r in range(rnd):
            if kind[x, r] == RK_PLAYED:
                met[x, opp[x, r]] = v


@ijit
def conflict_nb(px, py):
    """1 when two players of colour preferences px and py cannot both get theirs.  Scalars,
    not the preference array: an inlined function taking an array costs a reference-count
    increment and decrement (atomic) per call, here twice a search step (LLVM IR)."""
    return np.int64((px != COL_NONE) & (px == py))


@ijit
def conflict_bound_nb(w, b, r, fr):
    """The least colour conflicts among r free players (w want White, b Black) when at most
    fr of them float: the larger side beyond the others and the floaters pairs within."""
    g = w if w > b else b
    need = g - (r - g) - fr
    return (need + 1) // 2 if need > 0 else 0


@ijit
def bit_nb(i):
    """The word of position i's bit (uint64)."""
    return np.uint64(1) << np.uint64(i & 63)


@ijit
def first_both_nb(p, q, lo, hi):
    """The first position j in [lo, hi) whose bit is set in both masks p and q (uint64 [W]
    each); -1 when there is none."""
    if lo >= hi:
        return -1
    w0 = lo >> 6
    w1 = (hi - 1) >> 6
    full = ~np.uint64(0)
    for w in range(w0, w1 + 1):
        b = p[w] & q[w]
        if w == w0:
            b &= full << np.uint64(lo & 63)
        if w == w1:
            b &= full >> np.uint64(63 - ((hi - 1) & 63))
        if b != 0:
            return (w << 6) + np.int64(trailing_zeros(b))
    return -1


@ijit
def bracket_bits_nb(t, rnd, s, m, n_mdp):
    """Fill the scratch's position-indexed copies of the bracket s.lst[:m] (its first n_mdp
    are moved-down players): ppref .. pnobye, the compatibility rows ``cmp``, the preference
    classes ``cls`` and the residents' upfloat masks ``upm`` (:class:`PairScratch`).
    Two positions may meet unless (B1) the players met (s.met; the players x met are among
    t.opp[x, :rnd], since the table holds only the crosstable's games) or (B2) both have the
    same absolute colour preference and neither is a topscorer of the last round (s.top).
    Costs m rows of W words plus each player's earlier rounds, not m * m pair tests."""
    # the scratch's arrays as locals (a field read inside a loop costs a reference count)
    lst, met, strength, pref, top, opp = s.lst, s.met, s.strength, s.pref, s.top, t.opp
    df1, df2, uf1, uf2, nobye, pos = s.df1, s.df2, s.uf1, s.uf2, s.nobye, s.order_pos
    pp, pdf1, pdf2, puf1, puf2, pnob = s.ppref, s.pdf1, s.pdf2, s.puf1, s.puf2, s.pnobye
    cm, cls, upm, ab = s.cmp, s.cls, s.upm, s.absol
    nw = (m + 63) >> 6
    full = ~np.uint64(0)
    for w in range(nw):
        for c in range(3):
            cls[c, w] = 0
        upm[0, w] = 0
        upm[1, w] = 0
        ab[0, w] = 0
        ab[1, w] = 0
    for i in range(m):
        x = lst[i]
        pos[x] = i
        pp[i] = pref[x]
        pdf1[i] = df1[x]
        pdf2[i] = df2[x]
        puf1[i] = uf1[x]
        puf2[i] = uf2[x]
        pnob[i] = nobye[x]
        c = 0 if pref[x] == COL_WHITE else (1 if pref[x] == COL_BLACK else 2)
        cls[c, i >> 6] |= bit_nb(i)
        if i >= n_mdp:
            if uf1[x] == 1:
                upm[0, i >> 6] |= bit_nb(i)
            if uf2[x] == 1:
                upm[1, i >> 6] |= bit_nb(i)
        if strength[x] == 3 and top[x] == 0 and c < 2:
            ab[c, i >> 6] |= bit_nb(i)
    for i in range(m):
        x = lst[i]
        for w in range(nw):          # all positions of the bracket but i
            hi = m - (w << 6)
            cm[i, w] = full if hi >= 64 else (bit_nb(hi) - np.uint64(1))
        cm[i, i >> 6] &= ~bit_nb(i)
        for r in range(rnd):         # without branches: whether y is here is a coin flip
            y = opp[x, r]
            y = y if y >= 0 else x     # no opponent: met[x, x] is 0
            q = pos[y]                 # stale when y is not here, but < n: lst[q] readable
            hit = (met[x, y] != 0) & (q < m) & (lst[q] == y)
            cm[i, q >> 6] &= ~(bit_nb(q) * np.uint64(hit))
        if strength[x] == 3 and top[x] == 0 and pref[x] != COL_NONE:
            c = 0 if pref[x] == COL_WHITE else 1
            for w in range(nw):
                cm[i, w] &= ~ab[c, w]


@ijit
def search_nb(s, m, n_mdp, lower, last, big, f0, g0):
    """Pair the bracket s.lst[:m] (its first n_mdp are moved-down players) under the budgets
    in the order the quality criteria rank them (:func:`next_budget_nb`); True when paired
    (s.state holds it).  ``lower``: there are players below to float to (else only the bye);
    ``last``: the round's last bracket; ``big``: the larger of the bracket's counts of
    players wanting White and wanting Black; f0, g0: the floats repeated from the previous
    round and from two rounds before that no pairing avoids.

    Each attempt is a depth-first search with at most ``nf`` floaters, ``vmax`` colour
    conflicts, ``fmax`` floats repeated from the previous round (C.12-C.13: a floater who
    floated down last round, an MDP's opponent who floated up) and ``gmax`` floats repeated
    from two rounds before (C.14-C.15, the same with s.df2, s.uf2), stopped after
    ``STEP_CAP`` steps (``FLOAT_CAP`` when it bounds repeated floats).
    ``exch``: S1 residents may also take S1 partners (exchanges), after every S2 partner;
    without it only transpositions of S2 are tried, except that in a heterogeneous bracket
    each pairing of the MDPs is tried with the remainder's transpositions, then with its
    exchanges, before the next pairing of the MDPs (C.04.3 D: the MDP-pairing is chosen
    first, the remainder's candidates in order for each).
    Reads the position-indexed copies ``bracket_bits_nb`` made (s.ppref .. s.upm).  A step
    takes the next option of one position: the first candidate in option order that is free,
    compatible and within the budgets is the lowest bit of (free & compatible & allowed
    classes), so the options tried are those of a scan candidate by candidate.
    The attempts run in this one body, not one call each: the scratch's arrays are taken
    into locals once a bracket (each take of an array costs a reference-count increment and
    decrement, atomic; once an attempt they cost about a sixth of the pairing)."""
    # the scratch's arrays as locals: read once, not per step (each field read of the tuple
    # inside the loop costs a reference-count update)
    state, sx, sk, s2 = s.state, s.sx, s.sk, s.s2
    pp, pdf1, pdf2, puf1, puf2, pnob = s.ppref, s.pdf1, s.pdf2, s.puf1, s.puf2, s.pnobye
    cm, fm, cls, upm, al = s.cmp, s.free, s.cls, s.upm, s.allow
    nw = (m + 63) >> 6
    bye = last and not lower
    nf, v, att = m % 2, colour_floor_nb(big, m, m % 2), 0
    while nf >= 0:
        if v <= m // 2:
            vmax, fmax, gmax, exch = budget_nb(att, v, m, f0, g0)
            cap = STEP_CAP if fmax >= m and gmax >= m else FLOAT_CAP
            ex_now = exch        # exchanges allowed in the remainder now
            bd = -1              # the depth of the remainder's first player (its S2 boundary)
            for i in range(m):
                state[i] = FREE
            for w in range(nw):
                fm[w] = 0
            for i in range(m):
                fm[i >> 6] |= bit_nb(i)
            floats = 0
            viol = 0
            fl = 0
            gl = 0
            depth = 0
            steps = 0
            # free players wanting White / Black, and all free: the colour-conflict lower bound
            wf = 0
            bf = 0
            for i in range(m):
                wf += pp[i] == COL_WHITE
                bf += pp[i] == COL_BLACK
            rf = m
            # push the first position
            sx[0] = 0
            sk[0] = 0
            s2[0] = -1
            while True:
                steps += 1
                if steps > cap:
                    break
                x = sx[depth]
                # undo this depth's previous choice
                if sk[depth] > 0:
                    c = state[x]
                    wf += pp[x] == COL_WHITE
                    bf += pp[x] == COL_BLACK
                    rf += 1
                    if c == FLOATED:
                        floats -= 1
                        fl -= pdf1[x]
                        gl -= pdf2[x]
                    elif c >= 0:
                        viol -= conflict_nb(pp[x], pp[c])
                        if x < n_mdp and c >= n_mdp:
                            fl -= puf1[c]
                            gl -= puf2[c]
                        state[c] = FREE
                        fm[c >> 6] |= bit_nb(c)
                        wf += pp[c] == COL_WHITE
                        bf += pp[c] == COL_BLACK
                        rf += 1
                    state[x] = FREE
                    fm[x >> 6] |= bit_nb(x)
                # the S2 boundary of the residents' phase
                if x >= n_mdp and s2[depth] < 0:
                    nfree = 0
                    for j in range(x, m):
                        if state[j] == FREE:
                            nfree += 1
                    p = nfree // 2
                    cnt = 0
                    b = m
                    for j in range(x, m):
                        if state[j] == FREE:
                            if cnt == p:
                                b = j
                                break
                            cnt += 1
                    s2[depth] = b
                    bd = depth
                # the option sequence of x: two ranges of positions, then floating
                if x < n_mdp:
                    a0, a1, b0, b1 = n_mdp, m, x + 1, n_mdp
                elif x < s2[depth]:
                    a0, a1, b0, b1 = s2[depth], m, x + 1, (s2[depth] if ex_now else x + 1)
                else:
                    a0, a1, b0, b1 = x + 1, (m if ex_now else x + 1), 0, 0
                na = a1 - a0
                nb = b1 - b0
                k = sk[depth]
                px = pp[x]
                # the free players other than x, by preference
                wx = wf - (px == COL_WHITE)
                bx = bf - (px == COL_BLACK)
                fr = nf - floats
                # the partners' preference classes within the colour budget, and (an MDP meeting a
                # resident) the residents whose upfloat would exceed a repeated-float budget
                okw = viol + (px == COL_WHITE) + conflict_bound_nb(wx - 1, bx, rf - 2, fr) <= vmax
                okb = viol + (px == COL_BLACK) + conflict_bound_nb(wx, bx - 1, rf - 2, fr) <= vmax
                okn = viol + conflict_bound_nb(wx, bx, rf - 2, fr) <= vmax
                no1 = x < n_mdp and fl + 1 > fmax
                no2 = x < n_mdp and gl + 1 > gmax
                zero = np.uint64(0)
                for w in range(nw):
                    a = ((cls[0, w] if okw else zero) | (cls[1, w] if okb else zero)
                         | (cls[2, w] if okn else zero))
                    if no1:
                        a &= ~upm[0, w]
                    if no2:
                        a &= ~upm[1, w]
                    al[w] = a & cm[x, w]
                chosen = -1
                if k < na:
                    chosen = first_both_nb(fm, al, a0 + k, a1)
                    if chosen >= 0:
                        k = chosen - a0 + 1
                if chosen < 0 and k < na + nb:
                    chosen = first_both_nb(fm, al, b0 + (k - na if k > na else 0), b1)
                    k = na + chosen - b0 + 1 if chosen >= 0 else na + nb
                if chosen >= 0:
                    pc = pp[chosen]
                    viol += conflict_nb(pp[x], pp[chosen])
                    if x < n_mdp and chosen >= n_mdp:
                        fl += puf1[chosen]
                        gl += puf2[chosen]
                    state[x] = chosen
                    state[chosen] = x
                    fm[x >> 6] &= ~bit_nb(x)
                    fm[chosen >> 6] &= ~bit_nb(chosen)
                    sk[depth] = k
                    wf = wx - (pc == COL_WHITE)
                    bf = bx - (pc == COL_BLACK)
                    rf -= 2
                elif (k == na + nb and floats < nf and not (bye and pnob[x] == 1)
                      and fl + pdf1[x] <= fmax and gl + pdf2[x] <= gmax
                      and viol + conflict_bound_nb(wx, bx, rf - 1, fr - 1) <= vmax):
                    state[x] = FLOATED
                    fm[x >> 6] &= ~bit_nb(x)
                    floats += 1
                    fl += pdf1[x]
                    gl += pdf2[x]
                    sk[depth] = k + 1
                    wf = wx
                    bf = bx
                    rf -= 1
                else:
                    sk[depth] = 0
                    state[x] = FREE
                    fm[x >> 6] |= bit_nb(x)
                    if depth == bd and n_mdp > 0 and not exch:
                        if not ex_now:
                            ex_now = True        # this MDP-pairing's remainder: now with exchanges
                            continue
                        ex_now = False
                    depth -= 1
                    if depth < 0:
                        break
                    continue
                # deeper: the next free position
                nxt = first_both_nb(fm, fm, x + 1, m)
                if nxt < 0:
                    return True
                depth += 1
                sx[depth] = nxt
                sk[depth] = 0
                s2[depth] = s2[depth - 1] if nxt >= n_mdp and s2[depth - 1] >= 0 else -1
        nf, v, att = next_budget_nb(nf, v, att, m, lower, big)
    return False


@ijit
def colour_floor_nb(big, m, nf):
    """The least colour conflicts of a bracket of m players with nf floaters, ``big`` of them
    wanting the same colour (the first colour budget tried)."""
    lo = (2 * big - m - nf + 1) // 2
    return lo if lo > 0 else 0


@ijit
def budget_nb(att, v, m, f0, g0):
    """(vmax, fmax, gmax, exch) of attempt ``att`` at colour budget v, in order (C.12-C.13
    before C.14-C.15): each repeated-float budget f0 + f for f < FLOAT_TRIES, then any;
    inside each, a budget of floats repeated from two rounds before g0 + g for
    g < FLOAT2_TRIES, then any; each without then with exchanges (only with them when
    neither is bounded); attempt N_ATTEMPTS, tried only when v is more than 2 above the
    least (:func:`next_budget_nb`), is a looser colour budget at once (no bound at all)."""
    if att >= N_ATTEMPTS:
        return m, m, m, True
    fi = att // PER_FLOAT
    b = att - fi * PER_FLOAT
    ff = f0 + fi if fi < FLOAT_TRIES else m
    gi = b // 2
    gg = g0 + gi if gi < FLOAT2_TRIES else m
    return v, ff, gg, b % 2 == 1 or (ff >= m and gg >= m)


@ijit
def next_budget_nb(nf, v, att, m, lower, big):
    """The attempt after (nf floaters, colour budget v, attempt att): the next attempt at v,
    then v + 1 up to m // 2 (after a looser attempt, none), then nf + 2 floaters (only when
    ``lower``: players below to float to) from its least colour budget; nf = -1 when none
    is left.  (nf, v > m // 2, 0): no colour budget at nf, the caller goes on."""
    if v <= m // 2:
        looser = v > colour_floor_nb(big, m, nf) + 2
        if att + 1 < N_ATTEMPTS + (1 if looser else 0):
            return nf, v, att + 1
        if not looser and v < m // 2:
            return nf, v + 1, 0
    nf += 2
    if nf > (m if lower else m % 2):
        return -1, 0, 0
    return nf, colour_floor_nb(big, m, nf), 0


@ijit
def pair_bracket_nb(t, rnd, s, m, n_mdp, lower, last):
    """The least floaters, then the least colour conflicts, for s.lst[:m]; ``lower``: there
    are players below to float to (else only the bye).  True when paired."""
    pref, lst = s.pref, s.lst
    nw = 0
    nbl = 0
    for i in range(m):
        if pref[lst[i]] == COL_WHITE:
            nw += 1
        elif pref[lst[i]] == COL_BLACK:
            nbl += 1
    big = nw if nw > nbl else nbl
    bracket_bits_nb(t, rnd, s, m, n_mdp)
    # repeated floats no pairing avoids: moved-down players with no compatible player here
    f0 = 0
    g0 = 0
    cm, pdf1, pdf2 = s.cmp, s.pdf1, s.pdf2
    for i in range(n_mdp):
        alone = True
        for w in range((m + 63) >> 6):
            if cm[i, w] != 0:
                alone = False
        if alone:
            f0 += pdf1[i]
            g0 += pdf2[i]
    return search_nb(s, m, n_mdp, lower, last, big, f0, g0)


@ijit
def ranks_before_nb(s, pair_pts, a, b):
    """True when player a is ranked above b (pairing score, then pairing number)."""
    return pair_pts[a] > pair_pts[b] or (pair_pts[a] == pair_pts[b] and a < b)


@ijit
def colours_nb(t, rnd, s, pair_pts, init, m, out_w, out_b, nb):
    """The boards of the bracket just paired (the pairs of s.state over s.lst[:m]), from
    board ``nb`` of out_w, out_b on, each (white, black) by C.04.3 E.1-E.5; returns the
    number of boards after them.  All the bracket's boards in one call: an inlined function
    taking arrays costs a reference-count increment and decrement (atomic) per array and
    call, which once a board was a third of the colours' time (LLVM IR)."""
    pref, strength, cd, colour, kind = s.pref, s.strength, s.cd, t.colour, t.kind
    lst, state = s.lst, s.state
    for i in range(m):
        c = state[i]
        if c <= i:           # floated, or paired with a position above
            continue
        x, y = lst[i], lst[c]
        if pair_pts[y] > pair_pts[x] or (pair_pts[y] == pair_pts[x] and y < x):
            x, y = y, x      # x: the higher ranked (pairing score, then pairing number)
        px, py = pref[x], pref[y]
        if px != COL_NONE and py != COL_NONE and px != py:
            cx = px
        elif px != COL_NONE and py == COL_NONE:
            cx = px
        elif px == COL_NONE and py != COL_NONE:
            cx = -py
        elif px != COL_NONE:   # the same preference
            sx_, sy_ = strength[x], strength[y]
            if sx_ == 3 and sy_ == 3 and abs(cd[x]) != abs(cd[y]):
                cx = px if abs(cd[x]) > abs(cd[y]) else -px
            elif sx_ != sy_:
                cx = px if sx_ > sy_ else -px
            else:
                cx = COL_NONE
                for r in range(rnd - 1, -1, -1):
                    a, b = colour[x, r], colour[y, r]
                    if (kind[x, r] == RK_PLAYED and kind[y, r] == RK_PLAYED and a != b):
                        cx = b          # x takes y's colour of then: they alternate
                        break
                if cx == COL_NONE:
                    cx = px
        else:
            cx = init if x % 2 == 0 else -init
        if cx == COL_WHITE:
            out_w[nb], out_b[nb] = x, y
        else:
            out_w[nb], out_b[nb] = y, x
        nb += 1
    return nb


@ijit
def ranking_order_nb(s, pair_pts, n):
    """s.order[:n]: the players by pairing score (``pair_pts``) desc, then pairing number asc.
    A counting sort over the scores (s.bstart as its counts) when they span at most n values,
    which a Swiss's half points do unless the field is smaller than the rounds; an insertion
    sort otherwise."""
    order, cnt = s.order, s.bstart
    hi = pair_pts[0]
    lo = pair_pts[0]
    for i in range(n):
        hi = max(hi, pair_pts[i])
        lo = min(lo, pair_pts[i])
    if hi - lo < n:
        for v in range(hi - lo + 2):
            cnt[v] = 0
        for i in range(n):
            cnt[hi - pair_pts[i] + 1] += 1
        for v in range(1, hi - lo + 2):
            cnt[v] += cnt[v - 1]      # cnt[k]: the first position of score hi - k
        for i in range(n):
            k = hi - pair_pts[i]
            order[cnt[k]] = i
            cnt[k] += 1
        return
    for i in range(n):
        order[i] = i
    for i in range(1, n):
        x = order[i]
        j = i - 1
        while j >= 0 and ranks_before_nb(s, pair_pts, x, order[j]):
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = x


@bjit
def pair_round_nb(t, rnd, n_rounds, pair_pts, init, s, out_w, out_b):
    """Pair round ``rnd`` (0-based) from the crosstable ``t`` over rounds before it.

    pair_pts  int64 [n]: pairing score in half points (points + virtual points)
    init      COL_WHITE / COL_BLACK: the initial colour (player 1's in round 1, XXC)
    s         :class:`PairScratch`
    out_w, out_b  int64 [n//2 + 1]: White and Black of each board, best board first; a
                  bye is (player, -1)
    Returns the number of boards (a bye included), -1 when the round cannot be paired."""
    mark_met_nb(t, rnd, s.met, 1)
    k = pair_marked_nb(t, rnd, n_rounds, pair_pts, init, s, out_w, out_b)
    mark_met_nb(t, rnd, s.met, 0)
    return k


@bjit
def pair_marked_nb(t, rnd, n_rounds, pair_pts, init, s, out_w, out_b):
    """``pair_round_nb`` once s.met holds the games played."""
    n = t.opp.shape[0]
    colour_state_nb(t, rnd, s)
    lst, mdp, state, bstart, bnb, top = s.lst, s.mdp, s.state, s.bstart, s.bnb, s.top
    for i in range(n):
        top[i] = 1 if (rnd == n_rounds - 1 and pair_pts[i] > n_rounds) else 0
    ranking_order_nb(s, pair_pts, n)
    order = s.order
    merge_from = n       # brackets starting at or after this position pair as one
    nboards = 0
    nm = 0
    p = 0
    nbk = 0              # brackets paired in this pass (s.bstart, s.bnb: where each began)
    while p < n:
        e = p + 1
        if p >= merge_from:
            e = n
        else:
            while e < n and pair_pts[order[e]] == pair_pts[order[p]] and e < merge_from:
                e += 1
        bstart[nbk] = p
        bnb[nbk] = nboards
        m = 0
        for i in range(nm):
            lst[m] = mdp[i]
            m += 1
        n_mdp = nm
        for i in range(p, e):
            lst[m] = order[i]
            m += 1
        lower = e < n
        if not pair_bracket_nb(t, rnd, s, m, n_mdp, lower, True):
            # the last bracket cannot be paired (C.4): merge the bracket above into it
            if p == 0:
                return -1
            k = p - 1
            v = pair_pts[order[k]]
            while k > 0 and pair_pts[order[k - 1]] == v:
                k -= 1
            merge_from = k
            if nbk > 0 and bstart[nbk - 1] == k:
                # the brackets above k pair as they did: go on from k with their boards and
                # the players they moved down (those above k on no board, in ranking order)
                nbk -= 1
                nboards = bnb[nbk]
                mark = state
                for i in range(n):
                    mark[i] = 0
                for j in range(nboards):
                    mark[out_w[j]] = 1
                    mark[out_b[j]] = 1
                nm = 0
                for q in range(k):
                    if mark[order[q]] == 0:
                        mdp[nm] = order[q]
                        nm += 1
                p = k
            else:            # pair the round again from the top
                nboards = 0
                nm = 0
                p = 0
                nbk = 0
            continue
        nbk += 1
        nm = 0
        for i in range(m):
            if state[i] == FLOATED:
                mdp[nm] = lst[i]
                nm += 1
        nboards = colours_nb(t, rnd, s, pair_pts, init, m, out_w, out_b, nboards)
        p = e
    for i in range(nm):      # at most one: the bye
        out_w[nboards] = mdp[i]
        out_b[nboards] = -1
        nboards += 1
    return nboards
