"""The Candidates kernel against minimal kernels doing the same games, in CPU time.

Yardsticks, all over the compiled plan's own arrays (``RoundRobinArgs``: the remaining games
``gw``/``gb`` and their thresholds ``gthr``, the points so far ``base_pts``), all with a
SplitMix64 stream per replica and chunked tallies as simcycle does:

* ``bars``: the minimal round robin (as a bars-style reference kernel does it): play every
  remaining game, add the half points, find the top score, break a tie for first by lots;
  tally P(first) only.
* ``rules``: the round robin as the Candidates 2022's rules require, hard-coded for that
  scenario (``scenarios/candidates-2022.toml``) and producing what ``simulate`` reports and
  nothing more: every remaining game (each result kept), first place by points and, for a tie,
  the play-off (stage 1 rapid: two level a two-game match, 3-6 a round robin, 7-8 a round
  robin at the faster rapid control; stage 2 blitz: two a match, 3-8 a round robin; stage 3 a
  sudden-death knock-out in blitz), places 2-8 by points, then Sonneborn-Berger and wins (one
  pass over the games, only for players still level on points), the head-to-head score among
  those still level on all of it, lots; it tallies each player's places and half points.
  P(qualify) is P(first) (one qualifying place) and the expected prize money (each place's
  money to the player in it, plus 3,500 a half point) is read from those tallies.  From
  ``start`` only (the played games' results are not in the plan's game list).
* ``games``: the bare game loop: draw every game's result and add its half points, nothing
  else (no ranking, no tally but a checksum): the ceiling in games per CPU-second.

simcycle's kernel does more per replica (wins and the head-to-head matrix, Sonneborn-Berger,
the full tiebreak order and the play-off for first, every place, qualifying, prize money and
counters), so the ratio says what that generality costs.  Both play the same games: the
script checks that every player's expected points agree within 5 standard errors before it
times (P(first) differs a little: the scenario's play-off favours the stronger player where
the yardstick draws lots).  ``rules`` does the format's work, so it is checked harder: every
player's P(place) for every place, expected points and expected prize money within 5
standard errors of simcycle's (200,000 tournaments each, different streams).  ``rules``
leaves out what simcycle does beyond the answer: the crosstable and its C.07 criteria in
general, the squares for standard errors, the counters.  The kernels
run alternately (A B A B ...), each timed with the process's CPU time, and the ratios are taken
pair by pair.

    python benchmarks/bench_minimal.py [--sims N] [--at CHECKPOINT] [--repeat R]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit, prange

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import options, warm_plan  # noqa: E402

from simcycle.enums import (MAX_SUDDEN_DEATH, PO_MATCH, PO_ROUND_ROBIN,  # noqa: E402
                            PO_SUDDEN_DEATH_KO, TB_PLAYOFF, TBS_DIRECT_ENCOUNTER, TBS_LOTS,
                            TBS_SONNEBORN_BERGER, TBS_WINS, COLOURS_SCHEDULED)
from simcycle.formats.roundrobin.nb import PRIZE_BY_ORDER  # noqa: E402
from simcycle.report import percent  # noqa: E402

CHUNK = 512
PHI = np.uint64(0x9E3779B97F4A7C15)


@njit(inline="always")
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(inline="always")
def _u01(st):
    st[0] += PHI
    return (_mix(st[0]) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, parallel=True, nogil=True)
def bars_nb(seed, nrep, gw, gb, gthr, base_pts, out):
    """out[c, i]: replicas of chunk c that player i won (ties for first by lots);
    out[c, n + i]: player i's half points summed over them."""
    n = base_pts.shape[0]
    m = gw.shape[0]
    nchunk = out.shape[0]
    for c in prange(nchunk):
        pts = np.empty(n, np.int64)
        st = np.empty(1, np.uint64)
        for r in range(c * CHUNK, min(nrep, (c + 1) * CHUNK)):
            st[0] = _mix(_mix(np.uint64(seed) + PHI) + np.uint64(r) * PHI)
            for i in range(n):
                pts[i] = base_pts[i]
            for q in range(m):
                u = _u01(st)
                if u < gthr[q, 0]:
                    pts[gw[q]] += 2
                elif u < gthr[q, 1]:
                    pts[gw[q]] += 1
                    pts[gb[q]] += 1
                else:
                    pts[gb[q]] += 2
            top = pts[0]
            k = 1
            win = 0
            for i in range(1, n):
                if pts[i] > top:
                    top = pts[i]
                    k = 1
                    win = i
                elif pts[i] == top:   # reservoir: each of the k tied equally likely
                    k += 1
                    if _u01(st) * k < 1.0:
                        win = i
            out[c, win] += 1
            for i in range(n):
                out[c, n + i] += pts[i]


# rules: the Candidates 2022's ranking packed in one integer key a player, best largest:
# half points, then Sonneborn-Berger (below 1,024: 14 games x 2 x 28 half points), wins
# (below 16), the head-to-head score among those still level (below 32: 2 games x 2 x 7);
# the play-off's winner above everything.
PTS_SHIFT = 20
SB_SHIFT = 9
WINS_SHIFT = 5
PLAYOFF_WON = 1 << 30
# rows of ``rules_nb``'s play-off thresholds ``pthr``
RAPID, RAPID_FAST, BLITZ = 0, 1, 2


@njit(inline="always")
def _res(pthr, ctl, w, b, st):
    """One play-off game at control row ``ctl``: 0 White won, 1 draw, 2 Black won."""
    u = _u01(st)
    return np.int64(u >= pthr[ctl, w, b, 0]) + np.int64(u >= pthr[ctl, w, b, 1])


@njit(inline="always")
def _po_two(pthr, ctl, cand, st):
    """A two-game match, cand[0] White first: 1 with its winner in cand[0], 2 if level."""
    a = cand[0]
    b = cand[1]
    first = _res(pthr, ctl, a, b, st)
    d = _res(pthr, ctl, b, a, st) - first   # a's lead in half points, halved
    if d < 0:
        cand[0] = b
    return 2 if d == 0 else 1


@njit(inline="always")
def _po_round_robin(pthr, ctl, cand, k, score, st):
    """A single round robin among cand[:k], colours by lot; those on the top score stay in
    cand (their number returned)."""
    for i in range(k):
        score[i] = 0
    for i in range(k):
        for j in range(i + 1, k):
            if _u01(st) < 0.5:
                wi, bi = i, j
            else:
                wi, bi = j, i
            x = _res(pthr, ctl, cand[wi], cand[bi], st)
            score[wi] += 2 - x
            score[bi] += x
    top = score[0]
    for i in range(1, k):
        top = max(top, score[i])
    left = 0
    for i in range(k):
        if score[i] == top:
            cand[left] = cand[i]
            left += 1
    return left


@njit(inline="always")
def _sudden_death(pthr, a, b, st):
    """Blitz games until one is won, first White by lot, colours alternating; lots after
    MAX_SUDDEN_DEATH draws."""
    if _u01(st) < 0.5:
        w, bl = a, b
    else:
        w, bl = b, a
    for _ in range(MAX_SUDDEN_DEATH):
        x = _res(pthr, BLITZ, w, bl, st)
        if x == 0:
            return w
        if x == 2:
            return bl
        w, bl = bl, w
    return a if _u01(st) < 0.5 else b


@njit(inline="always")
def _knockout(pthr, cand, k, st):
    """Sudden-death knock-out among cand[:k]: lots order them, the first 2 (k - size / 2)
    play a first round to the next power of two, the others wait."""
    for i in range(k - 1, 0, -1):
        j = np.int64(_u01(st) * (i + 1))
        cand[i], cand[j] = cand[j], cand[i]
    size = 1
    while size < k:
        size *= 2
    m = k - size // 2
    for i in range(m):
        cand[i] = _sudden_death(pthr, cand[2 * i], cand[2 * i + 1], st)
    for i in range(2 * m, k):
        cand[i - m] = cand[i]
    left = k - m
    while left > 1:
        left //= 2
        for i in range(left):
            cand[i] = _sudden_death(pthr, cand[2 * i], cand[2 * i + 1], st)
    return cand[0]


@njit(inline="always")
def _playoff(pthr, cand, k, score, st):
    """The winner of the play-off among cand[:k] (k >= 2) level for first."""
    if k == 2:                    # stage 1, rapid 15+10: a match; 3-6 a round robin; 7-8 at 10+5
        k = _po_two(pthr, RAPID, cand, st)
    else:
        k = _po_round_robin(pthr, RAPID if k <= 6 else RAPID_FAST, cand, k, score, st)
    if k == 1:
        return cand[0]
    if k == 2:                    # stage 2, blitz: a match; 3-8 a round robin
        k = _po_two(pthr, BLITZ, cand, st)
    else:
        k = _po_round_robin(pthr, BLITZ, cand, k, score, st)
    if k == 1:
        return cand[0]
    return _knockout(pthr, cand, k, st)   # stage 3: sudden-death knock-out in blitz


@njit(inline="always")
def _sort(order, key, n):
    """order[:n] by key, largest first (insertion sort: 8 players, mostly in order)."""
    for i in range(1, n):
        x = order[i]
        v = key[x]
        j = i - 1
        while j >= 0 and key[order[j]] < v:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = x


@njit(cache=True, parallel=True, nogil=True)
def rules_nb(seed, nrep, gw, gb, gthr, pthr, out):
    """The Candidates 2022 from the start, ranked as its rules say.

    seed, nrep   the stream's seed and the number of tournaments
    gw, gb       int64 [m]: White and Black of each game (the plan's, all 56 to play)
    gthr         float64 [m, 2]: each game's thresholds (White wins below [0], draw below [1])
    pthr         float64 [3, n, n, 2]: the play-off games' thresholds [control, White, Black]
                 for the rows RAPID, RAPID_FAST, BLITZ
    out          int64 [chunks, n * n + n]: out[c, n * i + p] tournaments of chunk c with
                 player i in place p (0 first); out[c, n * n + i] i's half points summed
    """
    n = pthr.shape[1]
    m = gw.shape[0]
    nchunk = out.shape[0]
    for c in prange(nchunk):
        # work: the play-off's scores, then who needs Sonneborn-Berger and wins, then the
        # groups still level (numbered from 1)
        rows = np.empty((5, n), np.int64)
        pts, key, order, cand, work = rows[0], rows[1], rows[2], rows[3], rows[4]
        res = np.empty(m, np.int64)
        st = np.empty(1, np.uint64)
        for r in range(c * CHUNK, min(nrep, (c + 1) * CHUNK)):
            st[0] = _mix(_mix(np.uint64(seed) + PHI) + np.uint64(r) * PHI)
            for i in range(n):
                pts[i] = 0
            for q in range(m):
                u = _u01(st)
                x = np.int64(u >= gthr[q, 0]) + np.int64(u >= gthr[q, 1])
                res[q] = x
                pts[gw[q]] += 2 - x
                pts[gb[q]] += x
            for i in range(n):
                key[i] = pts[i] << PTS_SHIFT
                order[i] = i
            _sort(order, key, n)
            k = 1
            while k < n and key[order[k]] == key[order[0]]:
                k += 1
            if k > 1:                     # the play-off; its winner to the front
                for i in range(k):
                    cand[i] = order[i]
                w = _playoff(pthr, cand, k, work, st)
                key[w] += PLAYOFF_WON
                for i in range(k):
                    if order[i] == w:
                        order[i] = order[0]
                        order[0] = w
            # places 2-8: Sonneborn-Berger and wins for those still level on points
            level = False
            for i in range(n):
                work[i] = 0
            for j in range(n - 1):
                if key[order[j]] == key[order[j + 1]]:
                    work[order[j]] = 1
                    work[order[j + 1]] = 1
                    level = True
            if level:
                for q in range(m):
                    w = gw[q]
                    b = gb[q]
                    x = res[q]
                    key[w] += work[w] * ((((2 - x) * pts[b]) << SB_SHIFT)
                                         + (np.int64(x == 0) << WINS_SHIFT))
                    key[b] += work[b] * (((x * pts[w]) << SB_SHIFT)
                                         + (np.int64(x == 2) << WINS_SHIFT))
                _sort(order, key, n)
                # the head-to-head score among each group still level, then lots
                g = 0
                for i in range(n):
                    work[i] = 0
                for j in range(n - 1):
                    if key[order[j]] == key[order[j + 1]]:
                        if work[order[j]] == 0:
                            g += 1
                            work[order[j]] = g
                        work[order[j + 1]] = g
                if g > 0:
                    for q in range(m):
                        w = gw[q]
                        b = gb[q]
                        if work[w] != 0 and work[w] == work[b]:
                            key[w] += 2 - res[q]
                            key[b] += res[q]
                    _sort(order, key, n)
                    j = 0
                    while j < n - 1:
                        e = j + 1
                        while e < n and key[order[e]] == key[order[j]]:
                            e += 1
                        for i in range(e - 1, j, -1):   # lots: shuffle order[j:e]
                            t = j + np.int64(_u01(st) * (i - j + 1))
                            order[i], order[t] = order[t], order[i]
                        j = e
            for p in range(n):
                out[c, n * order[p] + p] += 1
            for i in range(n):
                out[c, n * n + i] += pts[i]


@njit(cache=True, parallel=True, nogil=True)
def games_nb(seed, nrep, gw, gb, gthr, base_pts, out):
    """The bare game loop; out[c, 0] a checksum of the points so nothing is optimised away."""
    n = base_pts.shape[0]
    m = gw.shape[0]
    nchunk = out.shape[0]
    for c in prange(nchunk):
        pts = np.empty(n, np.int64)
        st = np.empty(1, np.uint64)
        acc = 0
        for r in range(c * CHUNK, min(nrep, (c + 1) * CHUNK)):
            st[0] = _mix(_mix(np.uint64(seed) + PHI) + np.uint64(r) * PHI)
            for i in range(n):
                pts[i] = base_pts[i]
            for q in range(m):
                u = _u01(st)
                if u < gthr[q, 0]:
                    pts[gw[q]] += 2
                elif u < gthr[q, 1]:
                    pts[gw[q]] += 1
                    pts[gb[q]] += 1
                else:
                    pts[gb[q]] += 2
            acc += pts[0]
        out[c, 0] = acc


def minimal(kernel, plan, seed, sims):
    a = plan.args
    out = np.zeros(((sims + CHUNK - 1) // CHUNK, 2 * a.base_pts.shape[0]), np.int64)
    kernel(np.uint64(seed), np.int64(sims), a.gw, a.gb, a.gthr, a.base_pts, out)
    return out.sum(axis=0)


def rules_thresholds(plan):
    """``rules_nb``'s play-off thresholds from the plan, after checking that the plan is the
    Candidates 2022 from the start with the rules ``rules_nb`` hard-codes."""
    a = plan.args
    st = a.stages
    assert (not a.live and not a.offsets and not a.hot_k.any() and a.draw_factor.shape[0] == 0
            and a.colours == COLOURS_SCHEDULED and a.forced_first < 0 and a.n_qual == 1
            and a.prize_split == PRIZE_BY_ORDER and not a.base_pts.any()
            and a.gw.shape[0] == 56), "rules: the Candidates 2022 from the start only"
    assert a.criteria.tolist() == [TB_PLAYOFF, TBS_SONNEBORN_BERGER, TBS_WINS,
                                   TBS_DIRECT_ENCOUNTER, TBS_LOTS]
    rr, ko = PO_ROUND_ROBIN, PO_SUDDEN_DEATH_KO
    assert st[:, :, :3].tolist() == [[[2, 2, PO_MATCH], [3, 6, rr], [7, 8, rr]],
                                     [[2, 2, PO_MATCH], [3, 8, rr], [0, 0, 0]],
                                     [[2, 8, ko], [0, 0, 0], [0, 0, 0]]]
    ctl = [st[0, 0, 3], st[0, 2, 3], st[1, 0, 3]]   # RAPID, RAPID_FAST, BLITZ
    assert st[0, 1, 3] == ctl[RAPID] and st[1, 1, 3] == ctl[BLITZ] and st[2, 0, 3] == ctl[BLITZ]
    return np.ascontiguousarray(a.thr[a.playoff_seg][ctl])


def rules(plan, pthr, seed, sims):
    """(place counts [player, place], half points summed, prize money summed): the money
    read from the place counts (each place's money to the player in it) and the points."""
    a = plan.args
    n = pthr.shape[1]
    out = np.zeros(((sims + CHUNK - 1) // CHUNK, n * n + n), np.int64)
    rules_nb(np.uint64(seed), np.int64(sims), a.gw, a.gb, a.gthr, pthr, out)
    tot = out.sum(axis=0)
    place = tot[:n * n].reshape(n, n)
    pts = tot[n * n:]
    return place, pts, place @ a.place_prize + a.per_half * pts


def cpu(fn) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def main(argv=None):
    a = options(argv, sims=1_000_000, seed=7)
    from simcycle import driver

    _, scn, _, plan = warm_plan("candidates-2022.toml", a)
    assert not plan.args.live, "the yardsticks read the plan's per-game thresholds"
    m = plan.args.gw.shape[0]
    check = 200_000
    n = plan.args.base_pts.shape[0]
    res = driver.run(plan, check, a.seed, progress=False)
    mine = res.tallies["place"][:, 0] / check
    got = minimal(bars_nb, plan, a.seed + 1, check)
    bars = got[:n] / check
    # the same games: the same expected points (simcycle's tallies hold half points)
    pts_mine = res.tallies["points"] / check / plan.info.points_scale
    pts_bars = got[n:] / check / 2
    sd = np.sqrt(np.maximum(res.tallies["points_sq"] / check / plan.info.points_scale ** 2
                            - pts_mine ** 2, 1e-12))
    assert (np.abs(pts_mine - pts_bars) < 5 * np.sqrt(2 / check) * sd).all(), (pts_mine,
                                                                              pts_bars)
    minimal(games_nb, plan, a.seed, 1000)
    do_rules = a.at == "start"
    if not do_rules:
        print("rules: from start only (it plays all 56 games), left out")
    if do_rules:
        # rules does the format's work: every place, the points and the money agree within 5
        # standard errors of the difference (200,000 tournaments each, different streams)
        pthr = rules_thresholds(plan)
        place_r, pts_r, money_r = rules(plan, pthr, a.seed + 1, check)
        p_mine = res.tallies["place"] / check
        p_rules = place_r / check
        se = np.sqrt(2 * np.maximum(p_mine * (1 - p_mine), 1 / check) / check)
        z_place = np.abs(p_mine - p_rules) / se
        pts_rules = pts_r / check / 2
        money_mine = res.tallies["prize"] / check
        sd_money = np.sqrt(np.maximum(res.tallies["prize_sq"] / check - money_mine ** 2, 1e-12))
        money_rules = money_r / check
        assert (z_place < 5).all(), (p_mine, p_rules)
        assert (np.abs(pts_mine - pts_rules) < 5 * np.sqrt(2 / check) * sd).all(), pts_rules
        assert (np.abs(money_mine - money_rules) < 5 * np.sqrt(2 / check) * sd_money).all(), (
            money_mine, money_rules)
        w = max(len(nm) for nm in scn.names) + 2
        print(f"Candidates 2022 from start, simcycle / rules ({check:,} tournaments each, "
              "different streams): P(place) in per cent, expected points, expected prize "
              f"money in {plan.info.currency}; largest P(place) difference "
              f"{z_place.max():.1f} standard errors")
        print(f"{'player':<{w}}" + "".join(f"{p:>12}" for p in range(1, n + 1))
              + f"{'points':>12}{'prize':>16}")
        for i, nm in enumerate(scn.names):
            print(f"{nm:<{w}}"
                  + "".join(f"{percent(p_mine[i, p]) + '/' + percent(p_rules[i, p]):>12}"
                            for p in range(n))
                  + f"{f'{pts_mine[i]:.2f}/{pts_rules[i]:.2f}':>12}"
                  + f"{f'{money_mine[i]:,.0f}/{money_rules[i]:,.0f}':>16}")
        print("P(qualify) is P(place 1) (one qualifying place); a place's probability "
              "'x/y': simcycle's x, the yardstick's y.")
    runs = {"simcycle": lambda: driver.run(plan, a.sims, a.seed, progress=False),
            "bars": lambda: minimal(bars_nb, plan, a.seed, a.sims),
            **({"rules": lambda: rules(plan, pthr, a.seed, a.sims)} if do_rules else {}),
            "games": lambda: minimal(games_nb, plan, a.seed, a.sims)}
    t = {k: [] for k in runs}
    for _ in range(a.repeat):
        for k, fn in runs.items():
            t[k].append(cpu(fn))
    print(f"Candidates 2022 from {a.at}: {m} games per tournament, {a.sims:,} tournaments, "
          f"CPU seconds, {a.repeat} alternations")
    print(f"{'kernel':<10}{'tournaments/CPU-s':>20}{'games/CPU-s':>16}{'simcycle speed':>16}")
    for k in runs:
        rate = a.sims / statistics.median(t[k])
        ratio = statistics.median(x / y for x, y in zip(t[k], t["simcycle"]))
        print(f"{k:<10}{rate:>20,.0f}{rate * m:>16,.0f}{ratio:>16.2f}")
    print("P(first), simcycle v bars (200,000 each): "
          + ", ".join(f"{nm.split()[-1]} {100 * x:.1f}/{100 * y:.1f}"
                      for nm, x, y in zip(scn.names, mine, bars)))


if __name__ == "__main__":
    main()
