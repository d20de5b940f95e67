"""The Grand Prix 2019 kernel against minimal knock-out kernels doing the same matches, in CPU
time.

The yardsticks work over the compiled plan's own arrays (``KnockoutArgs``: the brackets
``pos``, the per-event thresholds ``thr``, the match ``steps``, the GP points ``place_pts``
and ``bonus``) with a SplitMix64 stream per replica and chunked tallies, as simcycle does:
every match of every event is played step by step (classical games with colours by lot, the
same player White first in each tiebreak pair, the tiebreak steps: games, Armageddon, sudden
death, lots) and the GP points added.  Two ways to give the qualifying places:

* ``minimal``: to the best GP totals, lots for a tie.  Less than the format requires: the
  rules break a tie on GP points by events won, second places, classical points, the
  classical games among the players still level, then lots.
* ``rules``: as the rules say, only as far down the table as the places and the next player
  (the wildcard claimant) need; it keeps each player's events won, second places and
  classical points and the match log the head-to-head reads.

Neither ranks the whole table, shares the overall money or tallies every place, prize money and
the counters, as simcycle's kernel does, so the ratios say what that costs.  Before timing, the
script checks that every player's expected GP points agree within 5 standard errors (both
yardsticks), and with ``rules`` every player's P(qualify) and P(wildcard claimant) within 5
standard errors of the difference (100,000 series each).  From ``start`` only (no match
known).

    python benchmarks/bench_minimal_knockout.py [--sims N] [--repeat R]
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import numpy as np
from numba import njit, prange

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import options, warm_plan  # noqa: E402
from bench_minimal import CHUNK, PHI, _mix, _u01, cpu  # noqa: E402

from simcycle.enums import STEP_ARMAGEDDON, STEP_GAMES, STEP_SUDDEN_DEATH  # noqa: E402


@njit(inline="always")
def _game(thr, e, ci, w, b, st):
    """2 white wins, 1 draw, 0 black wins."""
    u = _u01(st)
    if u < thr[e, ci, w, b, 0]:
        return 2
    if u < thr[e, ci, w, b, 1]:
        return 1
    return 0


@njit(inline="always")
def _match(thr, steps, e, a, b, st):
    """(winner 0 = a / 1 = b, decided in the classical games, a's and b's classical half
    points).  White in the first classical game by lot; the same player starts each
    tiebreak pair (the scenario's ``tiebreak_colours = "as-classical"``)."""
    ca = 0
    cb = 0
    first_a = True
    for s in range(steps.shape[0]):
        kind, ci, n = steps[s, 0], steps[s, 1], steps[s, 2]
        if kind == STEP_GAMES:
            if s == 0:
                first_a = _u01(st) < 0.5
            diff = 0
            for j in range(n):
                if (j % 2 == 0) == first_a:
                    d = _game(thr, e, ci, a, b, st) - 1
                else:
                    d = 1 - _game(thr, e, ci, b, a, st)
                diff += d
                if s == 0:
                    ca += 1 + d
                    cb += 1 - d
            if diff != 0:
                return (0 if diff > 0 else 1), s == 0, ca, cb
        elif kind == STEP_ARMAGEDDON:
            if _u01(st) < 0.5:
                return (0 if _game(thr, e, ci, a, b, st) == 2 else 1), False, ca, cb
            return (1 if _game(thr, e, ci, b, a, st) == 2 else 0), False, ca, cb
        elif kind == STEP_SUDDEN_DEATH:
            a_white = _u01(st) < 0.5
            while True:
                r = _game(thr, e, ci, a, b, st) if a_white else _game(thr, e, ci, b, a, st)
                if r != 1:
                    return (0 if (r == 2) == a_white else 1), False, ca, cb
                a_white = not a_white
    return (0 if _u01(st) < 0.5 else 1), False, ca, cb


@njit(inline="always")
def _take_best(key, n_qual, out, c):
    """The n_qual largest keys in turn: out[c, i] += 1 for each (the keys are spent)."""
    for _ in range(n_qual):
        best = 0
        for i in range(1, key.shape[0]):
            if key[i] > key[best]:
                best = i
        out[c, best] += 1
        key[best] = -2.0


@njit(cache=True, parallel=True, nogil=True)
def knockout_nb(seed, nrep, thr, steps, ev_size, ev_rounds, pos, place_pts, bonus, plan_index,
                qual_else, n_qual, rules, out):
    """out[c, i]: replicas of chunk c in which plan player i qualified; out[c, n + i]: the
    player's GP points summed over them.  ``rules`` False: the qualifying places to the best
    GP totals, lots for a tie.  True: ties broken as the format's rules say (GP 2019: events
    won, second places, classical points, the classical games among all still level, then
    lots), only as far down the table as the qualifying places and the next player (the
    wildcard claimant, out[c, 2n + i]) need; the match log the head-to-head reads is kept."""
    n = qual_else.shape[0]
    nchunk = out.shape[0]
    nlog = 0
    for e in range(pos.shape[0]):
        nlog += ev_size[e] - 1
    for c in prange(nchunk):
        pts = np.empty(n, np.int64)
        won = np.empty(n, np.int64)
        second = np.empty(n, np.int64)
        cls = np.empty(n, np.int64)
        ikey = np.empty(n, np.int64)
        h2h = np.empty(n, np.int64)
        taken = np.empty(n, np.bool_)
        la = np.empty(nlog, np.int64)
        lb = np.empty(nlog, np.int64)
        lca = np.empty(nlog, np.int64)
        lcb = np.empty(nlog, np.int64)
        alive = np.empty(pos.shape[1], np.int64)
        key = np.empty(n, np.float64)
        st = np.empty(1, np.uint64)
        for r in range(c * CHUNK, min(nrep, (c + 1) * CHUNK)):
            st[0] = _mix(_mix(np.uint64(seed) + PHI) + np.uint64(r) * PHI)
            pts[:] = 0
            won[:] = 0
            second[:] = 0
            cls[:] = 0
            nm = 0
            for e in range(pos.shape[0]):
                m = ev_size[e]
                for i in range(m):
                    alive[i] = pos[e, i]
                R = ev_rounds[e]
                for rd in range(R):
                    for k in range(m // 2):
                        a, b = alive[2 * k], alive[2 * k + 1]
                        w, classical, ca, cb = _match(thr, steps, e, a, b, st)
                        win, lose = (a, b) if w == 0 else (b, a)
                        if classical and plan_index[win] >= 0:
                            pts[plan_index[win]] += bonus
                        if plan_index[lose] >= 0:
                            pts[plan_index[lose]] += place_pts[R - rd]
                            if rd == R - 1:
                                second[plan_index[lose]] += 1
                        if rules:
                            ia = plan_index[a]
                            ib = plan_index[b]
                            if ia >= 0:
                                cls[ia] += ca
                            if ib >= 0:
                                cls[ib] += cb
                            la[nm] = ia
                            lb[nm] = ib
                            lca[nm] = ca
                            lcb[nm] = cb
                            nm += 1
                        alive[k] = win
                    m //= 2
                if plan_index[alive[0]] >= 0:
                    pts[plan_index[alive[0]]] += place_pts[0]
                    won[plan_index[alive[0]]] += 1
            if not rules:
                for i in range(n):   # best totals first, lots (a random fraction) for a tie
                    key[i] = -1.0 if qual_else[i] else pts[i] + _u01(st)
                _take_best(key, n_qual, out, c)
            else:
                # GP points, events won, second places, classical points as one key (each
                # below 128 in GP 2019); then the best level group at a time
                for i in range(n):
                    ikey[i] = ((pts[i] * 128 + won[i]) * 128 + second[i]) * 128 + cls[i]
                    taken[i] = qual_else[i] != 0
                q = 0
                while q <= n_qual:
                    best = -1
                    for i in range(n):
                        if not taken[i] and (best < 0 or ikey[i] > ikey[best]):
                            best = i
                    if best < 0:
                        break
                    size = 0       # the whole level group (qualified elsewhere too)
                    for i in range(n):
                        if ikey[i] == ikey[best]:
                            size += 1
                    if size > 1:   # head-to-head once among all level, lots last
                        for i in range(n):
                            h2h[i] = 0
                        for t in range(nm):
                            pa = la[t]
                            pb = lb[t]
                            if (pa >= 0 and pb >= 0 and ikey[pa] == ikey[best]
                                    and ikey[pb] == ikey[best]):
                                h2h[pa] += lca[t]
                                h2h[pb] += lcb[t]
                        for i in range(n):
                            key[i] = h2h[i] + _u01(st) if ikey[i] == ikey[best] else -1.0
                    else:
                        key[best] = 1.0
                    # the group's eligible players in order, as many as the places need
                    while q <= n_qual:
                        nxt = -1
                        for i in range(n):
                            if (not taken[i] and ikey[i] == ikey[best]
                                    and (nxt < 0 or key[i] > key[nxt])):
                                nxt = i
                        if nxt < 0:
                            break
                        taken[nxt] = True
                        out[c, nxt if q < n_qual else 2 * n + nxt] += 1
                        q += 1
            for i in range(n):
                out[c, n + i] += pts[i]


def minimal(plan, seed, sims, rules=False):
    a = plan.args
    n = a.qual_else.shape[0]
    out = np.zeros(((sims + CHUNK - 1) // CHUNK, 3 * n), np.int64)
    knockout_nb(np.uint64(seed), np.int64(sims), a.thr, a.steps, a.ev_size, a.ev_rounds, a.pos,
                a.place_pts, np.int64(a.bonus), a.plan_index, a.qual_else, np.int64(a.n_qual),
                np.bool_(rules), out)
    return out.sum(axis=0)


def main(argv=None):
    a = options(argv, sims=400_000, seed=7)
    from simcycle import driver

    _, scn, _, plan = warm_plan("grand-prix-2019.toml", a)
    k = plan.args
    assert a.at == "start" and not k.live and not k.offsets, "from start, thresholds only"
    check = 100_000
    n = k.qual_else.shape[0]
    res = driver.run(plan, check, a.seed, progress=False)
    scale = plan.info.points_scale
    pts_mine = res.tallies["points"] / check / scale
    sd = np.sqrt(np.maximum(res.tallies["points_sq"] / check / scale ** 2 - pts_mine ** 2,
                            1e-12))
    q_mine = res.tallies["qualify"] / check
    w_mine = res.tallies["wildcard"] / check
    got = {}
    for key, rules in (("minimal", False), ("rules", True)):
        got[key] = minimal(plan, a.seed + 1, check, rules)
        pts_min = got[key][n:2 * n] / check
        assert (np.abs(pts_mine - pts_min) < 5 * np.sqrt(2 / check) * sd).all(), (key, pts_min)
    # with the rules' tiebreaks the qualifiers and the wildcard claimant agree within 5
    # standard errors of the difference (binomial, 100,000 series each)
    for mine, col in ((q_mine, 0), (w_mine, 2)):
        theirs = got["rules"][col * n:(col + 1) * n] / check
        se = np.sqrt(2 * np.maximum(mine * (1 - mine), 1 / check) / check)
        assert (np.abs(mine - theirs) < 5 * se).all(), (mine, theirs)
    runs = {"simcycle": lambda: driver.run(plan, a.sims, a.seed, progress=False),
            "minimal": lambda: minimal(plan, a.seed, a.sims),
            "rules": lambda: minimal(plan, a.seed, a.sims, True)}
    t = {key: [] for key in runs}
    for _ in range(a.repeat):
        for key, fn in runs.items():
            t[key].append(cpu(fn))
    matches = int(sum(k.ev_size) - len(k.ev_size))
    print(f"Grand Prix 2019 from start: {matches} matches per series, {a.sims:,} series, "
          f"CPU seconds, {a.repeat} alternations (minimal: lots for a tie; rules: the series "
          "tiebreaks as far as the places and the wildcard claimant need)")
    print(f"{'kernel':<10}{'series/CPU-s':>16}{'simcycle speed':>16}")
    for key in runs:
        rate = a.sims / statistics.median(t[key])
        ratio = statistics.median(x / y for x, y in zip(t[key], t["simcycle"]))
        print(f"{key:<10}{rate:>16,.0f}{ratio:>16.2f}")
    for key in ("minimal", "rules"):
        q_min = got[key][:n] / check
        print(f"P(qualify) simcycle v {key} ({check:,} each), largest difference "
              f"{np.max(np.abs(q_mine - q_min)):.4f}: "
              + ", ".join(f"{nm.split()[-1]} {100 * x:.1f}/{100 * y:.1f}"
                          for nm, x, y in zip(scn.names, q_mine, q_min) if max(x, y) > 0.01))


if __name__ == "__main__":
    main()
