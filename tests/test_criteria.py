"""The shared FIDE C.07 tie-break criteria (``kernels/criteria_nb.py``): a hand-checked
crosstable, the plain-Python twin (``reference/criteria.py``) on random Swiss crosstables
with byes and forfeits, and tiebreak-core (PyPI, MIT; its ``fide-2024`` rules) as a third,
independent computation."""

from __future__ import annotations

import random

import numpy as np
import pytest

from simcycle.enums import (COL_BLACK, COL_NONE, COL_WHITE, RK_FORFEIT_LOSS, RK_FORFEIT_WIN,
                            RK_FULL_BYE, RK_HALF_BYE, RK_NONE, RK_PAB, RK_PLAYED, RK_ZERO_BYE,
                            SWISS_CRITERIA, TBS_ARO_C1, TBS_BUCHHOLZ, TBS_BUCHHOLZ_C1,
                            TBS_DIRECT_ENCOUNTER, TBS_LOTS, TBS_SONNEBORN_BERGER)
from simcycle.kernels import criteria_nb as cn
from simcycle.reference import criteria as ref

VALUE_CODES = [c for c in SWISS_CRITERIA.values() if c != TBS_LOTS]
BYE_POINTS = {RK_PAB: 2, RK_HALF_BYE: 1, RK_ZERO_BYE: 0, RK_FULL_BYE: 2}


def empty(n, rounds):
    z = lambda: np.zeros((n, rounds), np.int64)   # noqa: E731
    return dict(opp=z() - 1, res=z(), kind=z(), colour=z())


def crosstable(d, rating):
    n = len(rating)
    return cn.Crosstable(d["opp"], d["res"], d["kind"], d["colour"], np.zeros(n, np.int64),
                         np.zeros(n, np.int64), np.asarray(rating, np.int64))


def game(d, r, w, b, sw, kind=RK_PLAYED):
    """Round r (0-based): w White, b Black, w scores sw half points (forfeits: kind of w)."""
    d["opp"][w, r], d["opp"][b, r] = b, w
    d["res"][w, r], d["res"][b, r] = sw, 2 - sw
    if kind == RK_PLAYED:
        d["kind"][w, r] = d["kind"][b, r] = RK_PLAYED
        d["colour"][w, r], d["colour"][b, r] = COL_WHITE, COL_BLACK
    else:   # a forfeit: no colours, w the winner
        d["kind"][w, r], d["kind"][b, r] = RK_FORFEIT_WIN, RK_FORFEIT_LOSS


def random_event(rng: random.Random, n: int, rounds: int, done: int):
    """A Swiss-like crosstable: random pairings, some byes of each kind, some forfeits;
    rounds after ``done`` not played."""
    d = empty(n, rounds)
    for r in range(done):
        players = list(range(n))
        rng.shuffle(players)
        while len(players) >= 2 and rng.random() < 0.25:
            i = players.pop()
            kd = rng.choice([RK_PAB, RK_HALF_BYE, RK_ZERO_BYE, RK_FULL_BYE])
            d["kind"][i, r], d["res"][i, r] = kd, BYE_POINTS[kd]
        if len(players) % 2:
            i = players.pop()
            d["kind"][i, r], d["res"][i, r] = RK_PAB, 2
        for a in range(0, len(players), 2):
            w, b = players[a], players[a + 1]
            if rng.random() < 0.1:
                game(d, r, w, b, 2, RK_FORFEIT_WIN)
            else:
                game(d, r, w, b, rng.choice([0, 1, 1, 2]))
    rating = [rng.randrange(1800, 2800) for _ in range(n)]
    if rng.random() < 0.3:
        rating[rng.randrange(n)] = 0       # an unrated player: left out of the averages
    return d, rating


def kernel_values(t, rounds, codes):
    n = t.pts.shape[0]
    cn.adjusted_nb(t, rounds)
    out = np.zeros((n, len(codes)), np.int64)
    cn.values_nb(t, rounds, np.array(codes, np.int64), np.empty(n, np.int64),
                 np.empty(n, np.int64), np.empty(n, np.int64), out)
    return out


def test_hand_checked_crosstable():
    """Four players, three rounds (half points; ratings 2700, 2600, 2500, 2400):
    r1 A-B 1-0, C-D 1/2;  r2 A-C 1/2, D gets a half-point bye, B a pairing-allocated bye;
    r3 B-C 0-1, A wins by forfeit against D."""
    A, B, C, D = range(4)
    d = empty(4, 3)
    game(d, 0, A, B, 2)
    game(d, 0, C, D, 1)
    game(d, 1, A, C, 1)
    d["kind"][D, 1], d["res"][D, 1] = RK_HALF_BYE, 1
    d["kind"][B, 1], d["res"][B, 1] = RK_PAB, 2
    game(d, 2, B, C, 0)
    game(d, 2, A, D, 2, RK_FORFEIT_WIN)
    t = crosstable(d, [2700, 2600, 2500, 2400])
    v = kernel_values(t, 3, [TBS_BUCHHOLZ, TBS_BUCHHOLZ_C1, TBS_ARO_C1, TBS_SONNEBORN_BERGER])
    # points: A 1+1/2+1 = 2.5 (5 half points), B 0+1+0 = 1 (2), C 1/2+1/2+1 = 2 (4),
    # D 1/2+1/2+0 = 1 (2).  D's half-point bye is followed by a forfeit loss: D took part in
    # no later round, so for others' tie-breaks (C.07 16.3) it counts as a draw anyway (1).
    assert list(t.pts) == [5, 2, 4, 2] and list(t.adj) == [5, 2, 4, 2]
    # BH of A: B (2) + C (4) + the forfeit win's dummy with A's own 5 = 11 half points (5.5)
    # BH-C1 of A: no VUR among A's rounds, cut the least (B, 2): 9 (4.5)
    # BH of D: C (4) + dummy 2 (half-point bye, a VUR) + dummy 2 (forfeit loss, a VUR) = 8;
    # BH-C1 of D: cut a VUR contribution (2) first: 6
    # BH of B: A (5) + dummy 2 (PAB, not a VUR) + C (4) = 11; BH-C1: cut the least (2): 9
    assert v[A, 0] == 11 and v[A, 1] == 9
    assert v[D, 0] == 8 and v[D, 1] == 6
    assert v[B, 0] == 11 and v[B, 1] == 9
    # ARO-C1 of A: played B (2600) and C (2500) -> cut C -> 2600; of C: A 2700, B 2600,
    # D 2400 -> cut D -> (2700 + 2600) / 2 = 2650; of D: only C -> not cut -> 2500
    assert v[A, 2] == 2600 and v[C, 2] == 2650 and v[D, 2] == 2500
    # SB of A (quarter points): beat B 2x2=4, drew C 4x1=4, forfeit win dummy 5x2=10 -> 18
    assert v[A, 3] == 18
    assert [ref.FUNCTIONS[c](ref.Table(d["opp"], d["res"], d["kind"], d["colour"],
                                       [2700, 2600, 2500, 2400], 3), A, [])
            for c in (TBS_BUCHHOLZ, TBS_BUCHHOLZ_C1, TBS_ARO_C1, TBS_SONNEBORN_BERGER)] \
        == [11, 9, 2600, 18]


def test_direct_encounter_needs_everyone_met():
    A, B, C = range(3)
    d = empty(3, 2)
    game(d, 0, A, B, 2)
    game(d, 1, B, C, 1)
    t = crosstable(d, [2500] * 3)
    g = np.array([A, B, C, 0])
    cn.adjusted_nb(t, 2)
    assert cn.direct_encounter_nb(t, 2, A, g[:2], 2) == 2
    assert cn.direct_encounter_nb(t, 2, B, g[:2], 2) == 0
    # A and C have not met: direct encounter separates no one in {A, B, C}
    assert [cn.direct_encounter_nb(t, 2, x, g, 3) for x in range(3)] == [0, 0, 0]


@pytest.mark.parametrize("seed", range(40))
def test_kernel_equals_twin_on_random_crosstables(seed):
    rng = random.Random(seed)
    n, rounds = rng.randrange(4, 15), rng.randrange(1, 8)
    done = rng.randrange(0, rounds + 1)
    d, rating = random_event(rng, n, rounds, done)
    t = crosstable(d, rating)
    got = kernel_values(t, done, VALUE_CODES)
    tw = ref.Table(d["opp"], d["res"], d["kind"], d["colour"], rating, done)
    assert list(t.pts) == tw.pts and list(t.adj) == tw.adj
    everyone = list(range(n))
    for c, code in enumerate(VALUE_CODES):
        if code == TBS_DIRECT_ENCOUNTER:
            continue     # depends on the group: checked through the ranking below
        assert [int(x) for x in got[:, c]] == [ref.FUNCTIONS[code](tw, i, everyone)
                                              for i in range(n)], code
    # the ranking with every criterion (lots off): the same groups, in the same order
    crits = list(VALUE_CODES)
    rng.shuffle(crits)
    order, brk = np.empty(n, np.int64), np.empty(n, np.int64)
    cn.rank_criteria_nb(t, done, np.array(crits, np.int64), order, brk, np.empty(n, np.int64),
                        np.empty(n, np.int64), np.empty(n, np.int64),
                        np.zeros(1, np.uint64), False)
    groups, cur = [], []
    for p in range(n):
        if brk[p] and cur:
            groups.append(cur)
            cur = []
        cur.append(int(order[p]))
    groups.append(cur)
    assert groups == ref.rank(tw, crits)


TIEBREAK_CORE = {TBS_BUCHHOLZ: "buchholz", TBS_BUCHHOLZ_C1: "buchholz_cut1",
                 TBS_ARO_C1: "aro_cut1", TBS_SONNEBORN_BERGER: "sonneborn_berger",
                 SWISS_CRITERIA["wins"]: "wins", SWISS_CRITERIA["won"]: "won",
                 SWISS_CRITERIA["black-games"]: "games_black",
                 SWISS_CRITERIA["progressive"]: "progressive", SWISS_CRITERIA["aro"]: "aro"}


def tiebreak_core_players(d, rating, done):
    """The crosstable as tiebreak-core's ``PlayerTiebreakData`` (points in whole points)."""
    from tiebreak_core import models as m
    kinds = {RK_PLAYED: m.PLAYED, RK_PAB: m.PAIRING_BYE, RK_FORFEIT_WIN: m.FORFEIT_WIN,
             RK_FORFEIT_LOSS: m.FORFEIT_LOSS, RK_HALF_BYE: m.REQUESTED_BYE,
             RK_ZERO_BYE: m.REQUESTED_BYE, RK_FULL_BYE: m.REQUESTED_BYE}
    players = {}
    for i in range(len(rating)):
        games = []
        for r in range(done):
            kd = int(d["kind"][i, r])
            if kd == RK_NONE:
                continue
            opp = int(d["opp"][i, r]) if kd in (RK_PLAYED, RK_FORFEIT_WIN,
                                                RK_FORFEIT_LOSS) else -1
            col = {COL_WHITE: "white", COL_BLACK: "black", COL_NONE: ""}[int(d["colour"][i, r])]
            games.append(m.GameRecord(opponent_id=opp,
                                      opponent_rating=rating[opp] if opp >= 0 else 0,
                                      score=d["res"][i, r] / 2, color=col,
                                      round_number=r + 1, kind=kinds[kd]))
        players[i] = m.PlayerTiebreakData(player_id=i, rating=rating[i],
                                          points=float(d["res"][i, :done].sum()) / 2,
                                          games=games)
    return players


@pytest.mark.parametrize("seed", range(25))
def test_kernel_equals_tiebreak_core(seed):
    fide2024 = pytest.importorskip("tiebreak_core.fide2024")
    rng = random.Random(1000 + seed)
    n, rounds = rng.randrange(4, 15), rng.randrange(1, 8)
    d, rating = random_event(rng, n, rounds, rounds)
    t = crosstable(d, rating)
    codes = list(TIEBREAK_CORE)
    got = kernel_values(t, rounds, codes)
    players = tiebreak_core_players(d, rating, rounds)
    for c, code in enumerate(codes):
        scale = cn.BY_CODE[code].scale
        for i in range(n):
            want = fide2024.calculate(players[i], players, TIEBREAK_CORE[code], rounds)
            assert got[i, c] == pytest.approx(want * scale), (TIEBREAK_CORE[code], i)


def test_one_table_names_every_code():
    assert {c.code for c in cn.TABLE} == set(SWISS_CRITERIA.values())
    assert {c.name: c.code for c in cn.TABLE} == SWISS_CRITERIA
