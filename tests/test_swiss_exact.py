"""Monte Carlo against exact enumeration on a tiny Swiss: 6 players, 3 rounds, every result
of every game enumerated (3^9 outcomes), each round paired by the kernel's own Dutch pairing
from the state the enumerated results give, ranked by the shared tie-break kernel, lots
sharing what they leave level; the kernel's P(place) and P(qualify) agree within 3 SE."""

from __future__ import annotations

import numpy as np
import pytest

from simcycle import driver
from simcycle.enums import COL_BLACK, COL_WHITE, RK_PLAYED
from simcycle.formats.base import CompileOptions
from simcycle.kernels.criteria_nb import Crosstable, adjusted_nb, rank_criteria_nb
from simcycle.kernels.dutch_nb import pair_round_nb, pair_scratch
from simcycle.model import load_model
from simcycle.scenario import load_data

RAW = {"scenario": {"name": "tiny swiss", "format": "swiss", "source": "test"},
       "event": {"rounds": 3, "qualifying_places": 2, "initial_colour": "white"},
       "tiebreak": {"order": ["buchholz-cut1", "buchholz", "direct-encounter", "lots"]},
       "players": [{"name": n, "rating": r} for n, r in
                   (("A", 2750), ("B", 2700), ("C", 2650), ("D", 2600), ("E", 2500),
                    ("F", 2400))]}
SCORE = ((2, 0), (1, 1), (0, 2))


def exact(plan):
    a = plan.args
    n, R = 6, a.n_rounds
    place = np.zeros((n, n))
    s = pair_scratch(n)

    def leaf(t, prob):
        adjusted_nb(t, R)
        order, brk = np.empty(n, np.int64), np.empty(n, np.int64)
        rank_criteria_nb(t, R, a.criteria, order, brk, np.empty(n, np.int64),
                         np.empty(n, np.int64), np.empty(n, np.int64),
                         np.zeros(1, np.uint64), False)
        p = 0
        while p < n:
            e = p + 1
            while e < n and brk[e] == 0:
                e += 1
            for q in range(p, e):
                place[order[q], p:e] += prob / (e - p)
            p = e

    def walk(t, r, prob):
        if r == R:
            leaf(t, prob)
            return
        pts = t.res[:, :r].sum(1).astype(np.int64)
        ow, ob = np.zeros(n + 1, np.int64), np.zeros(n + 1, np.int64)
        k = pair_round_nb(t, r, R, pts, a.init, s, ow, ob)
        boards = [(int(ow[j]), int(ob[j])) for j in range(k)]

        def games(j, t, prob):
            if j == len(boards):
                walk(t, r + 1, prob)
                return
            w, b = boards[j]
            tw, td = a.gthr[w, b]
            for res, p in zip(SCORE, (tw, td - tw, 1 - td)):
                u = Crosstable(t.opp.copy(), t.res.copy(), t.kind.copy(), t.colour.copy(),
                               t.pts, t.adj, t.rating)
                u.opp[w, r], u.opp[b, r] = b, w
                u.res[w, r], u.res[b, r] = res
                u.kind[w, r] = u.kind[b, r] = RK_PLAYED
                u.colour[w, r], u.colour[b, r] = COL_WHITE, COL_BLACK
                games(j + 1, u, prob * p)
        games(0, t, prob)

    t0 = Crosstable(a.base_opp.copy(), a.base_res.copy(), a.base_kind.copy(),
                    a.base_colour.copy(), np.zeros(n, np.int64), np.zeros(n, np.int64),
                    a.rating)
    walk(t0, 0, 1.0)
    return place


@pytest.fixture(scope="module")
def tiny():
    fmt, scn = load_data(RAW, "tiny.toml")
    plan = fmt.compile(scn, load_model(None).for_kind(scn.kind), CompileOptions(at="start"))
    return plan


def test_monte_carlo_within_3se_of_exact(tiny):
    plan = tiny
    place = exact(plan)
    assert np.allclose(place.sum(1), 1) and np.allclose(place.sum(0), 1)
    sims = 200_000
    res = driver.run(plan, sims, 7, progress=False)
    p = res.tallies["place"] / sims
    se = np.sqrt(place * (1 - place) / sims)
    z = np.abs(p - place) / np.maximum(se, 1e-12)
    assert (z[place > 0] < 3.0).all(), z.max()
    q = res.tallies["qualify"] / sims
    eq = place[:, 0] + place[:, 1]
    assert (np.abs(q - eq) < 3 * np.sqrt(eq * (1 - eq) / sims) + 1e-12).all()


def test_same_result_whatever_the_batch_split(tiny):
    a = tiny.run_batch(11, 0, 3000)["place"]
    b = tiny.run_batch(11, 0, 1000)["place"] + tiny.run_batch(11, 1000, 2000)["place"]
    assert (a == b).all()
