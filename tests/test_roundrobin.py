"""Candidates 2022 end to end: replay, checkpoints, kernel vs twin, reproducibility.

Expected values: [W] = Asturian Wikipedia, "Tornéu de Candidatos de 2022",
https://ast.wikipedia.org/wiki/Tornéu_de_Candidatos_de_2022 (section or table named at each use)."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT, SCENARIOS, write
from simcycle import driver
from simcycle.enums import COLOURS_BY_LOT
from simcycle.formats.base import CompileOptions
from simcycle.formats.roundrobin import FORMAT as RR
from simcycle.formats.shared.schedules import berger_rounds
from simcycle.model import DEFAULT_MODEL_V1, load_model
from simcycle.reference import roundrobin as twin
from simcycle.scenario import load_scenario

CAND = SCENARIOS / "candidates-2022.toml"


@pytest.fixture(scope="module")
def cand():
    return load_scenario(CAND)[1]


@pytest.fixture(scope="module")
def model():
    return load_model()


def test_final_table_reproduces_seed(cand):
    d = RR.standings(cand, None)
    # [W], table "Clasificación": Pos., Ptos., SB, Victories
    expected = [
        ("Ian Nepomniachtchi", 1, 9.5, 62.0, 5),
        ("Ding Liren", 2, 8.0, 52.0, 4),
        ("Teimour Radjabov", 3, 7.5, 52.0, 3),
        ("Hikaru Nakamura", 4, 7.5, 50.25, 4),
        ("Fabiano Caruana", 5, 6.5, 46.5, 3),
        ("Alireza Firouzja", 6, 6.0, 39.5, 2),
        ("Jan-Krzysztof Duda", 7, 5.5, 38.5, 1),
        ("Richárd Rapport", 8, 5.5, 37.75, 1),
    ]
    got = [(p["name"], p["rank"], p["points"], p["sb"], p["wins"]) for p in d["players"]]
    assert got == expected
    assert d["final"] and not any(p["shared"] for p in d["players"])
    # prizes: [W] "Normes": 48,000 / 36,000 / 24,000 + 3,500 a half point; fund 500,000
    prizes = {p["name"]: p["prize"] for p in d["players"]}
    assert prizes["Ian Nepomniachtchi"] == 48000 + 19 * 3500
    assert prizes["Teimour Radjabov"] == 24000 + 15 * 3500
    assert prizes["Richárd Rapport"] == 11 * 3500
    assert sum(prizes.values()) == 500000 == d["prize_total"]


def test_checkpoints_and_running_scores(cand):
    assert RR.checkpoints(cand) == ["start"] + [f"round{k}" for k in range(1, 15)]
    # [W], table "Clasificación", "Ronda" columns (wins minus losses after each round), after
    # round 13:
    # Nepomniachtchi +5 in 13 games = 9; Nakamura +2 = 7.5; after round 7 Caruana +3 = 5.
    r13 = {p["name"]: p["points"] for p in RR.standings(cand, "round13")["players"]}
    assert r13["Ian Nepomniachtchi"] == 9 and r13["Hikaru Nakamura"] == 7.5
    r7 = {p["name"]: p["points"] for p in RR.standings(cand, "round7")["players"]}
    assert r7["Fabiano Caruana"] == 5 and r7["Ian Nepomniachtchi"] == 5.5
    start = RR.standings(cand, "start")
    assert all(p["points"] == 0 and p["shared"] for p in start["players"])


def test_berger_tables_follow_fide():
    # FIDE Handbook C.05 Annex 1, Berger table for 8 players (1-based, White first)
    fide = [[(1, 8), (2, 7), (3, 6), (4, 5)], [(8, 5), (6, 4), (7, 3), (1, 2)],
            [(2, 8), (3, 1), (4, 7), (5, 6)], [(8, 6), (7, 5), (1, 4), (2, 3)],
            [(3, 8), (4, 2), (5, 1), (6, 7)], [(8, 7), (1, 6), (2, 5), (3, 4)],
            [(4, 8), (5, 3), (6, 2), (7, 1)]]
    got = berger_rounds(8, 1)
    assert [sorted((w + 1, b + 1) for w, b in r) for r in got] == [sorted(r) for r in fide]
    # 4 players: 1-4 2-3 / 4-3 1-2 / 2-4 3-1
    assert [sorted((w + 1, b + 1) for w, b in r) for r in berger_rounds(4, 1)] == \
        [[(1, 4), (2, 3)], [(1, 2), (4, 3)], [(2, 4), (3, 1)]]
    for n in (4, 6, 7, 8, 10):
        dbl = berger_rounds(n, 2)
        m = n + n % 2
        assert len(dbl) == 2 * (m - 1)
        games = [g for r in dbl for g in r]
        assert len(games) == n * (n - 1)       # every ordered pair exactly once
        assert len(set(games)) == len(games)
        for r in dbl:
            ps = [p for g in r for p in g]
            assert len(ps) == len(set(ps))


def _plans(cand, model):
    yield RR.compile(cand, model, CompileOptions(at="start"))
    yield RR.compile(cand, model, CompileOptions(at="round12"))
    yield RR.compile(cand, model, CompileOptions(at="round9", offsets=True))


def test_kernel_equals_python_twin(cand, model):
    for plan in _plans(cand, model):
        a = plan.run_batch(7, 1000, 1500)
        b = twin.tallies(plan, 7, 1000, 1500)
        for k in ("place", "qualify", "counters"):
            assert (a[k] == b[k]).all(), k
        for k in ("points", "points_sq", "prize", "prize_sq"):
            assert np.allclose(a[k], b[k], rtol=1e-12), k


TIE_MODEL_EDIT = {'draw0 = 0.51        #': 'draw0 = 0.93        # test;',
                  'draw0 = 0.36        #': 'draw0 = 0.93        # test;'}


def tie_heavy(tmp_path):
    """4 players, all draws so far, 2 rounds left; play-off games drawn 93 % of the time, so
    every stage of the cascade (rapid, blitz, sudden-death knock-out) gets exercised."""
    text = (SCENARIOS / "candidates-2022.toml").read_text()
    head = text.split("[[players]]")[0]
    head = head.replace('schedule = "explicit"', 'schedule = "berger"')
    players = "".join(f'[[players]]\nname = "P{i}"\nrating = {2700 + 10 * i}\n\n' for i in range(4))
    rounds = ""
    sched = berger_rounds(4, 2)
    for r in range(4):
        games = ", ".join(f'["P{w}", "P{b}", "1/2-1/2"]' for w, b in sched[r])
        rounds += f"[[rounds]]\nround = {r + 1}\ngames = [{games}]\n\n"
    scn_path = write(tmp_path, "tie.toml", head + players + rounds)
    mtext = open(DEFAULT_MODEL_V1).read()  # the edits below are to the v1 text
    for a, b in TIE_MODEL_EDIT.items():
        assert a in mtext
        mtext = mtext.replace(a, b)
    return scn_path, write(tmp_path, "m.toml", mtext)


def test_twin_on_tie_heavy_event(tmp_path):
    scn_path, mpath = tie_heavy(tmp_path)
    scn = load_scenario(scn_path)[1]
    plan = RR.compile(scn, load_model(mpath), CompileOptions(at=None))
    a = plan.run_batch(3, 0, 3000)
    b = twin.tallies(plan, 3, 0, 3000)
    assert (a["place"] == b["place"]).all() and (a["counters"] == b["counters"]).all()
    # the cascade really was exercised: play-offs, second and third stages, lots, a tie at
    # the qualifying place (the last counter, lots deciding the one qualifying place, needs a
    # play-off ending in lots: its sudden death makes that too rare to see here)
    assert (a["counters"][:5] > 50).all(), a["counters"]


def test_strict_order_and_conservation(cand, model):
    plan = RR.compile(cand, model, CompileOptions(at="round6"))
    res = driver.run(plan, 20000, 11, progress=False)
    p = res.tallies["place"]
    assert (p.sum(axis=1) == res.sims).all() and (p.sum(axis=0) == res.sims).all()
    assert res.tallies["qualify"].sum() == 1 * res.sims   # one qualifying place
    # points at stake: 56 games of 1 point; mean total exactly 56 (every replica sums to 56)
    assert res.tallies["points"].sum() / 2 == 56 * res.sims
    # prize money always sums to the fund
    assert abs(res.tallies["prize"].sum() / res.sims - 500000) < 1e-6


def test_result_independent_of_batch_split(cand, model):
    plan = RR.compile(cand, model, CompileOptions(at="start"))
    whole = plan.run_batch(5, 0, 4000)
    parts = [plan.run_batch(5, s, 1000) for s in range(0, 4000, 1000)]
    assert (whole["place"] == sum(p["place"] for p in parts)).all()


def test_nepomniachtchi_certain_after_round13(cand, model):
    # [W], introduction: Nepomniachtchi won "con una ronda de ventaya" (with a round to spare)
    res = driver.run(RR.compile(cand, model, CompileOptions(at="round13")), 50000, 1,
                     progress=False)
    i = res.names.index("Ian Nepomniachtchi")
    assert res.tallies["place"][i, 0] == res.sims and res.tallies["qualify"][i] == res.sims


def test_tie_for_first_still_possible_after_round12(cand, model):
    # After round 12 Nepomniachtchi has 8.5, Nakamura and Ding 6.5 with two games each left
    # ([W] "Clasificación", "Ronda" columns): 8.5 + 0 = 6.5 + 2, so a tie for first is still
    # possible.
    d = {p["name"]: p["points"] for p in RR.standings(cand, "round12")["players"]}
    assert d["Ian Nepomniachtchi"] == 8.5 and d["Hikaru Nakamura"] == 6.5
    assert d["Hikaru Nakamura"] + 2 >= d["Ian Nepomniachtchi"]
    # and the simulation sees it: with the exact P(play-off) ~ 4.8e-4 (simulate --exact),
    # 400,000 runs expect ~190 play-offs; P(none) is about e^-190.
    res = driver.run(RR.compile(cand, model, CompileOptions(at="round12")), 400_000, 1,
                     progress=False)
    i = res.names.index("Ian Nepomniachtchi")
    assert 0 < res.sims - res.tallies["qualify"][i] and res.tallies["counters"][0] > 0
    assert res.tallies["qualify"][i] == res.tallies["place"][i, 0]   # one qualifying place


def _cli(*args, env=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "simcycle.cli", *args], capture_output=True,
                          text=True, env=e, cwd=ROOT)


def test_same_result_whatever_the_thread_count():
    outs = []
    for threads in ("1", "2"):
        r = _cli("simulate", str(CAND), "--at", "round5", "--sims", "70000", "--seed", "9",
                 "--json", env={"NUMBA_NUM_THREADS": threads})
        assert r.returncode == 0, r.stderr
        outs.append(json.loads(r.stdout)["players"])
    assert outs[0] == outs[1]


def test_swing_is_consistent_with_total_probability(cand, model):
    n = 60000
    d = RR.swing(cand, model, "round9", sims=n, seed=4)
    assert d["round"] == 10 and len(d["games"]) == 4
    now = {p["name"]: p for p in d["now"]}
    for g in d["games"]:
        w = {"1-0": g["p_white"], "1/2-1/2": g["p_draw"], "0-1": g["p_black"]}
        for p in g["players"]:
            mix = sum(w[k] * p["p_first"][k] for k in w)
            p0 = now[p["name"]]["p_first"]
            q = max(p0, mix)
            se = (q * (1 - q) / n) ** 0.5  # binomial SE of either estimate
            assert abs(mix - p0) < 5 * se + 3 / n, (g["white"], p["name"], mix, p0)
        by = {p["name"]: p for p in g["players"]}
        white = by[g["white"]]["p_first"]
        # a player's chance of first can only rise with his own result in this game
        assert white["1-0"] >= white["1/2-1/2"] >= white["0-1"]


def test_playoff_already_played_decides_first(tmp_path):
    # 4 players, every game drawn: all level; the recorded play-off winner must come first in
    # the standings and in every simulation (nothing is left to simulate but the order).
    sched = berger_rounds(4, 2)
    players = "".join(f'[[players]]\nname = "P{i}"\nrating = 2700\n\n' for i in range(4))
    rounds = "".join(
        f"[[rounds]]\nround = {r + 1}\ngames = [" +
        ", ".join(f'["P{w}", "P{b}", "1/2-1/2"]' for w, b in sched[r]) + "]\n\n"
        for r in range(len(sched)))
    text = ('[scenario]\nname = "t"\nformat = "round-robin"\n[event]\ncycles = 2\n'
            '[tiebreak]\nplayoff_places = 1\nplayoff_winner = "P2"\n'
            'playoff = [[{tied = [2, 4], kind = "round-robin", control = "rapid-15+10"}]]\n\n'
            + players + rounds)
    scn = load_scenario(write(tmp_path, "t.toml", text))[1]
    d = RR.standings(scn, None)
    assert d["players"][0]["name"] == "P2" and not d["players"][0]["shared"]
    res = driver.run(RR.compile(scn, load_model(), CompileOptions(at=None)), 5000, 1,
                     progress=False)
    assert res.tallies["place"][2, 0] == res.sims
    ref = twin.tallies(RR.compile(scn, load_model(), CompileOptions(at=None)), 1, 0, 500)
    assert ref["place"][2, 0] == 500


def test_hot_elo_kernel_equals_twin_and_moves_ratings(cand, model):
    hot = RR.compile(cand, model, CompileOptions(at="round4", hot=True))
    a = hot.run_batch(13, 0, 2000)
    b = twin.tallies(hot, 13, 0, 2000)
    assert (a["place"] == b["place"]).all() and (a["counters"] == b["counters"]).all()
    assert hot.args.hot_k[0] == 10.0   # models/davidson-elo-v1.toml [hot] k_classical
    # both runs draw one uniform per game in the same order, so the replicas differ only where
    # a moved rating changed a game's outcome: some must
    cold = RR.compile(cand, model, CompileOptions(at="round4")).run_batch(13, 0, 2000)
    assert (a["place"] != cold["place"]).any()
    with pytest.raises(Exception):
        RR.compile(cand, model, CompileOptions(at="round4", hot=True, offsets=True))


def by_lot(plan):
    """``plan`` with the stage's colours-by-lot rule (``enums.COLOURS_BY_LOT``, the tour's
    single round robins): the table path's thresholds [m, 4], columns 2, 3 with gb White."""
    a = plan.args
    gthr = a.gthr
    if not a.live:
        back = a.thr[a.gseg, a.game_ci, a.gb, a.gw]
        gthr = np.concatenate([a.gthr, back], axis=1)
    plan.args = a._replace(colours=COLOURS_BY_LOT, gthr=gthr)
    return plan


@pytest.mark.parametrize("offsets", [False, True])
def test_colours_by_lot_kernel_equals_twin(cand, model, offsets):
    """The stage's colours-by-lot rule on both paths (the plan's table; the live model with
    offsets): the kernel's tallies equal the twin's, and the lots change the replicas (one
    more uniform a game, and Black's thresholds half the time)."""
    at = "round9"
    plan = by_lot(RR.compile(cand, model, CompileOptions(at=at, offsets=offsets)))
    assert plan.args.live == offsets
    a = plan.run_batch(11, 0, 2000)
    b = twin.tallies(plan, 11, 0, 2000)
    assert (a["place"] == b["place"]).all() and (a["counters"] == b["counters"]).all()
    assert np.allclose(a["points"], b["points"], rtol=1e-12)
    sched = RR.compile(cand, model, CompileOptions(at=at, offsets=offsets)).run_batch(11, 0, 2000)
    assert (a["place"] != sched["place"]).any()


def test_hot_elo_and_offsets_are_exclusive_in_the_cli():
    r = subprocess.run([sys.executable, "-m", "simcycle.cli", "simulate", str(CAND), "--offsets",
                        "--hot-elo", "--sims", "10"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and "--hot-elo" in r.stderr


def test_branch_free_result_of_equals_the_twins_rule():
    # game_nb.result_of_nb (arithmetic, no branch) against the rule every twin writes with
    # branches (reference/roundrobin.py, reference/games.py: White wins below tw, a draw
    # below td, else Black): the same code for random draws, the thresholds themselves, the
    # forced results' thresholds (plan.FORCED_THRESHOLDS) and thresholds out of order
    from simcycle.formats.roundrobin.plan import FORCED_THRESHOLDS
    from simcycle.kernels.game_nb import result_of_nb

    def twin(u, tw, td):
        return 0 if u < tw else (1 if u < td else 2)

    rng = np.random.default_rng(5)
    cases = [(u, tw, td) for tw, td in FORCED_THRESHOLDS.values() for u in (0.0, 0.5, 1 - 2**-53)]
    for _ in range(3000):
        tw, td = sorted(rng.random(2)) if rng.random() < 0.9 else rng.random(2)
        u = rng.choice([rng.random(), tw, td])
        cases.append((float(u), float(tw), float(td)))
    got = {twin(*c) for c in cases}
    assert got == {0, 1, 2}        # every code is reached
    for c in cases:
        assert result_of_nb(*c) == twin(*c), c


def _rank_kernel():
    from numba import njit

    from simcycle.formats.roundrobin import nb
    from simcycle.kernels.criteria_nb import Crosstable
    from simcycle.kernels.game_nb import Games
    from simcycle.kernels.rng_nb import replica_state_nb

    @njit
    def rank(a, criteria, pts, res, seed, r, flags):
        n = pts.shape[0]
        s = nb.scratch_nb(a, flags.shape[0])
        g = Games(a.params, a.rt.copy(), a.thr, a.live, a.offsets)
        st = np.empty(1, np.uint64)
        st[0] = replica_state_nb(np.uint64(seed), np.uint64(r))
        t = Crosstable(a.opp, res, a.kind, a.colour, pts, pts, a.rating)
        nb.rank_nb(criteria, a.stages, a.n_qual, a.forced_first, a.playoff_seg, g, t, n,
                   s.order, s.brk, s.val, s.group, s.cand, s.score, s.work, st, flags)
        return s.order.copy(), st[0]
    return rank


def test_rank_equals_the_twins_step_by_step_order_on_tied_tables(cand, model):
    # nb.rank_nb (the points by counting, no step taken when nobody is level) against the
    # twin's ranking step by step (reference.roundrobin._rank: groups, play-off, criteria,
    # lots) on seeded random final crosstables of the Candidates 2022 (56 games): two in
    # three with draws 80 % of the time (many level), one in three with decisive games mostly
    # won by the lower start number (often nobody level); one and two qualifying places;
    # criteria orders with the play-off first, later or absent: the same order, counters
    # and draws (the stream's state after the ranking)
    from simcycle.enums import (RR_C_Q_TIEBREAK, TB_PLAYOFF, TBS_DIRECT_ENCOUNTER, TBS_LOTS,
                                TBS_SONNEBORN_BERGER, TBS_WINS)
    from simcycle.reference.rng import Stream

    PO, SB, WIN = TB_PLAYOFF, TBS_SONNEBORN_BERGER, TBS_WINS
    DE, LOTS = TBS_DIRECT_ENCOUNTER, TBS_LOTS
    orders = [[PO, SB, WIN, DE, LOTS], [DE, WIN, SB, LOTS], [SB, PO, WIN, LOTS], [LOTS],
              [PO, LOTS], [WIN, DE, PO, SB, LOTS]]
    rank = _rank_kernel()
    rng = np.random.default_rng(18)
    apart = level = 0
    for q in (1, 2):
        a = RR.compile(cand, model, CompileOptions(at="start")).args._replace(
            n_qual=q, qualified=(np.arange(8) < q).astype(np.int64))
        for r in range(300):
            m = a.gw.shape[0]
            if r % 3:       # draws 80 % of the time: many level
                out = np.where(rng.random(m) < 0.8, 1, np.where(rng.random(m) < 0.5, 0, 2))
            else:           # the lower start number wins 85 % of the decisive games: spread
                first = np.where(rng.random(m) < 0.85, a.gw < a.gb, a.gw > a.gb)
                out = np.where(rng.random(m) < 0.3, 1, np.where(first, 0, 2))
            pts = a.base_pts.copy()
            res = a.base_res.copy()
            for g_, o in enumerate(out):
                w, b = a.gw[g_], a.gb[g_]
                pts[w] += 2 - o
                pts[b] += o
                res[w, a.gsw[g_]] = 2 - o
                res[b, a.gsb[g_]] = o
            if len(set(pts.tolist())) == 8:
                apart += 1
            else:
                level += 1
            crit = np.array(orders[r % len(orders)], np.int64)
            flags = np.zeros(6, np.int64)
            order, state = rank(a, crit, pts, res, 9, r, flags)
            stream = Stream(9, r)
            tflags = [0] * 6
            want = twin._rank(a._replace(criteria=crit), a.rt.tolist(), pts.tolist(),
                              res.tolist(), stream, tflags)
            if 0 < q < 8 and pts[want[q - 1]] == pts[want[q]]:
                tflags[RR_C_Q_TIEBREAK] = 1    # set by the twin's one_replica
            assert order.tolist() == want, (r, crit, pts)
            assert flags.tolist() == tflags, (r, crit, pts)
            assert int(state) == stream.state, (r, crit)   # the same draws, no more
    assert apart >= 10 and level >= 300, (apart, level)
