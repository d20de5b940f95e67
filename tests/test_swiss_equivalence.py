"""Odds equivalence on a small Swiss (issue 15, item 4b, in miniature): P(1st), P(top 2) and
P(top 3) per player from events paired by a real FIDE Dutch engine (py4swiss, the reference
twin) agree with the kernel's by the chi-square test of ``reference.swiss.chi_square``, and
the same test, with the same number of events, rejects pairing at random inside score groups.

The event is built to make the pairing matter: 10 players 60 Elo apart (2800 down to 2260),
4 rounds.  The Dutch system's round 1 pairs the top half with the bottom half (1-6, 2-7, ...)
and keeps the leaders apart until they lead alone; random pairing inside a score group lets
the favourites meet early, which moves P(top 2) and P(top 3) by several points (the z-scores
below).  Fixed seeds: the verdicts are those of one draw, with the thresholds far from it."""

from __future__ import annotations

import random

import numpy as np
import pytest

from simcycle import driver
from simcycle.formats.base import CompileOptions
from simcycle.model import DEFAULT_MODEL_V3, load_model
from simcycle.reference.rng import Stream
from simcycle.reference.swiss import (chi_square, memo_dutch_pairs, play_event,
                                      random_in_groups, rank_event)
from simcycle.scenario import load_data

pytest.importorskip("py4swiss")

N_PLAYERS, ROUNDS = 10, 4
RAW = {"scenario": {"name": "small swiss", "format": "swiss", "source": "test"},
       "event": {"rounds": ROUNDS, "qualifying_places": 2, "initial_colour": "white"},
       "tiebreak": {"order": ["buchholz-cut1", "buchholz", "lots"]},
       "players": [{"name": f"P{i + 1}", "rating": 2800 - 60 * i} for i in range(N_PLAYERS)]}
REF_EVENTS = 1000        # py4swiss: about 2000 distinct states paired, ~15 CPU-s
KERNEL_EVENTS = 40_000


@pytest.fixture(scope="module")
def small():
    fmt, scn = load_data(RAW, "small.toml")
    # the outcome model of the figures in docs/format-swiss.md (v3): under v4, the default
    # since 2026-12-02, random pairing's P(1st) on these seeds is not rejected (chi2 8.5 on 7
    # players, p = 0.29), so the test would no longer show the chi-square's power there
    model = load_model(DEFAULT_MODEL_V3)
    plan = fmt.compile(scn, model.for_kind(scn.kind), CompileOptions(at="start"))
    res = driver.run(plan, KERNEL_EVENTS, 5, progress=False)
    place = res.tallies["place"] / KERNEL_EVENTS
    ker = {"first": place[:, 0], "top2": place[:, :2].sum(1), "top3": place[:, :3].sum(1)}
    return plan, ker


def measures(plan, pairer, events, seed):
    c = {k: np.zeros(N_PLAYERS) for k in ("first", "top2", "top3")}
    for r in range(events):
        o, rs, kd, cl = play_event(plan.args, Stream(seed, r).u01, pairer)
        order = rank_event(plan.args, o, rs, kd, cl, random.Random(seed * 1000 + r))
        c["first"][order[0]] += 1
        c["top2"][order[:2]] += 1
        c["top3"][order[:3]] += 1
    return {k: v / events for k, v in c.items()}


def test_kernel_passes_and_random_pairing_fails_the_same_test(small):
    plan, ker = small
    ref = measures(plan, memo_dutch_pairs(), REF_EVENTS, 11)
    rnd = measures(plan, random_in_groups(random.Random(3)), REF_EVENTS, 11)
    for k in ker:
        # probabilities, each summing to the places they count
        assert np.isclose(ker[k].sum(), {"first": 1, "top2": 2, "top3": 3}[k])
        good = chi_square(ref[k], REF_EVENTS, ker[k], KERNEL_EVENTS)
        bad = chi_square(rnd[k], REF_EVENTS, ker[k], KERNEL_EVENTS)
        assert good["players"] >= 7, good
        assert good["p_value"] > 0.01, (k, good)
        assert bad["p_value"] < 1e-3, (k, bad)
    # the same events under py4swiss and under random pairing differ, player by player,
    # by more than their standard errors allow somewhere (the test's power, not only chi2)
    z = (rnd["top3"] - ref["top3"]) / np.sqrt(2 * ker["top3"] * (1 - ker["top3"]) / REF_EVENTS)
    assert np.abs(z).max() > 3.5, z


def test_chi_square_counts_only_players_above_the_floor():
    got = chi_square([0.5, 0.3, 0.2, 0.0], 100, [0.5, 0.3, 0.195, 0.005], 100)
    assert got["players"] == 3
    assert got["chi2"] == pytest.approx((0.005 / np.sqrt(0.195 * 0.805 * 0.02)) ** 2)
    assert got["max_abs_z"] == pytest.approx(0.005 / np.sqrt(0.195 * 0.805 * 0.02))
