"""The knock-out series kernel against its plain-Python twin and against exact match odds.

Facts of the FIDE Grand Prix 2019: [W] = Serbian Wikipedia, "ФИДЕ Гран при 2019",
https://sr.wikipedia.org/wiki/ФИДЕ_Гран_при_2019 (section named at each use)."""

from pathlib import Path

import numpy as np
import pytest

from simcycle.enums import STEP_ARMAGEDDON, STEP_GAMES, STEP_SUDDEN_DEATH
from simcycle.formats.base import CompileOptions
from simcycle.formats.shared.matches import Step, match_probability
from simcycle.kernels.game_nb import Games, match_nb, threshold_table_nb
from simcycle.model import load_model
from simcycle.reference import knockout as ref
from simcycle.reference.rng import Stream
from simcycle.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
GP2019 = ROOT / "scenarios" / "grand-prix-2019.toml"
INT_KEYS = ("place", "qualify", "wildcard", "points", "points_sq", "counters")  # whole: exact


@pytest.fixture(scope="module")
def gp():
    return load_scenario(GP2019)


@pytest.fixture(scope="module")
def model():
    return load_model()


@pytest.mark.parametrize("at,offsets", [("start", False), ("event2-qf", False),
                                        ("event4-r1", False), ("start", True)])
def test_kernel_equals_twin(gp, model, at, offsets):
    mod, scn = gp
    plan = mod.compile(scn, model, CompileOptions(at=at, offsets=offsets))
    a = plan.run_batch(11, 500, 700)
    b = ref.tallies(plan, 11, 500, 700)
    for k in INT_KEYS:
        assert np.array_equal(a[k], b[k]), k
    # money: same sums, added in a different order across replicas
    np.testing.assert_allclose(a["prize"], b["prize"], rtol=1e-12)
    np.testing.assert_allclose(a["prize_sq"], b["prize_sq"], rtol=1e-12)


def test_tally_identities(gp, model):
    mod, scn = gp
    plan = mod.compile(scn, model, CompileOptions(at="start"))
    n = 3000
    t = plan.run_batch(3, 0, n)
    assert np.all(t["place"].sum(axis=0) == n)          # one player per place
    assert np.all(t["place"].sum(axis=1) == n)          # one place per player
    assert t["qualify"].sum() == 2 * n                  # [W] intro: two qualifiers
    assert t["wildcard"].sum() == n                     # one wildcard claimant
    # qualified elsewhere ([W], the paragraph below the final table)
    for name in ("Teimour Radjabov", "Anish Giri"):
        i = plan.info.names.index(name)
        assert t["qualify"][i] == 0 and t["wildcard"][i] == 0
    # every series hands out 4 x 130,000 in events (minus what the three non-counting players
    # win) plus 280,000 overall ([W], "Новчане награде")
    assert t["prize"].sum() <= n * (4 * 130000 + 280000) + 1e-6
    assert t["prize"].sum() >= n * (4 * 130000 + 280000 - 3 * 24000)


def test_thread_count_does_not_matter(gp, model):
    import numba
    mod, scn = gp
    plan = mod.compile(scn, model, CompileOptions(at="event1"))
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        a = plan.run_batch(5, 0, 2000)
        numba.set_num_threads(old)
        b = plan.run_batch(5, 0, 2000)
    finally:
        numba.set_num_threads(old)
    for k in a:
        assert np.array_equal(a[k], b[k]), k


def test_tabled_match_equals_match_nb(model):
    """match_nb over the threshold table (Games.thr) draws exactly like match_nb computing
    the probabilities live from the ratings (offsets off), segment by segment."""
    params = model.params
    rng = np.random.default_rng(0)
    rt = 2650 + 150 * rng.random((2, 6, 3))          # two rating segments (events)
    thr = threshold_table_nb(params, rt)
    tabled = Games(params, rt, thr, False, False)
    live = Games(params, rt, np.zeros((0, 0, 0, 0, 2)), True, False)
    for steps in (
        [[STEP_GAMES, model.index("classical"), 2], [STEP_GAMES, model.index("rapid-25+10"), 2],
         [STEP_GAMES, model.index("blitz-5+3"), 2],
         [STEP_ARMAGEDDON, model.index("armageddon-5v4"), 1]],
        [[STEP_GAMES, model.index("classical"), 2],
         [STEP_SUDDEN_DEATH, model.index("blitz-3+2"), 1]],
    ):
        steps = np.array(steps, np.int64)
        fixed = np.full(9, -1, np.int64)
        o1 = np.empty(6, np.int64)
        o2 = np.empty(6, np.int64)
        for r in range(3000):
            s1 = np.array([Stream(9, r).state], np.uint64)
            s2 = s1.copy()
            a, b = r % 6, (r + 1 + r // 6) % 6
            if a == b:
                continue
            match_nb(live, r % 2, a, b, steps, fixed, s1, o1)
            match_nb(tabled, r % 2, a, b, steps, fixed, s2, o2)
            assert np.array_equal(o1, o2) and s1[0] == s2[0]


def test_fmatch_equals_match_nb(model):
    """The one hand-specialised match (``fmatch_nb``: games and Armageddon steps, no known
    game, the stream state in a register) draws exactly like ``match_nb`` over the table and
    gives the same outputs (classical half points and wins too)."""
    from simcycle.kernels.game_nb import fmatch_nb
    params = model.params
    rng = np.random.default_rng(1)
    rt = 2650 + 150 * rng.random((3, 6, 3))
    thr = threshold_table_nb(params, rt)
    g = Games(params, rt, thr, False, False)
    for steps in (
        [[STEP_GAMES, model.index("classical"), 2], [STEP_GAMES, model.index("rapid-25+10"), 2],
         [STEP_GAMES, model.index("blitz-5+3"), 2],
         [STEP_ARMAGEDDON, model.index("armageddon-5v4"), 1]],
        [[STEP_GAMES, model.index("classical"), 4], [STEP_GAMES, model.index("blitz-5+3"), 2]],
    ):
        steps = np.array(steps, np.int64)
        o = np.empty(6, np.int64)
        for r in range(3000):
            st = np.array([Stream(4, r).state], np.uint64)
            a, b = r % 6, (r + 1 + r // 6) % 6
            if a == b:
                continue
            *res, state = fmatch_nb(thr, r % 3, a, b, steps, st[0])
            match_nb(g, r % 3, a, b, steps, np.empty(0, np.int64), st, o)
            assert tuple(res) == tuple(o) and state == st[0]


TWO = """
[scenario]
name = "one match"
format = "knockout-series"
[series]
place_points = [8, 5]
classical_win_bonus = 1
event_prizes = [24000, 14000]
tiebreaks = ["lots"]
qualifying_places = 1
[match]
steps = [
  { kind = "games", control = "classical", games = 2 },
  { kind = "games", control = "rapid-25+10", games = 2 },
  { kind = "games", control = "rapid-10+10", games = 2 },
  { kind = "games", control = "blitz-5+3", games = 2 },
  { kind = "armageddon", control = "armageddon-5v4" },
]
[[players]]
name = "A"
rating = 2790
events = [1]
[[players]]
name = "B"
rating = 2700
events = [1]
[[events]]
name = "final"
%s
"""


@pytest.mark.parametrize("white,classical", [(None, None), ("B", None), ("A", [0.5])])
def test_single_match_against_closed_form(tmp_path, model, white, classical):
    """P(A wins) and P(tiebreaks) of one match of the 2019 format, from the model's game
    probabilities in closed form (classical pair, each tiebreak pair, Armageddon), against
    200,000 simulated matches: within 4 standard errors."""
    extra = ""
    if white or classical:
        extra = '[[events.matches]]\nround = "final"\nplayers = ["A", "B"]\n'
        extra += f'white = "{white or "A"}"\n'
        if classical:
            extra += f"classical = {classical}\n"
    f = tmp_path / "one.toml"
    f.write_text(TWO % extra)
    mod, scn = load_scenario(f)
    plan = mod.compile(scn, model, CompileOptions())
    n = 200_000
    t = {}
    for first in range(0, n, 65536):
        part = plan.run_batch(21, first, min(65536, n - first))
        for k, v in part.items():
            t[k] = t.get(k, 0) + v
    m = scn.matches[0] if scn.matches else None
    w = None if m is None else (0 if m.white == 0 else 1)
    exact = match_probability(scn.steps, model, scn.players[0].ratings, scn.players[1].ratings, w,
                                 tuple(m.games) if m else ())
    p = t["place"][0, 0] / n
    se = np.sqrt(exact["p_first"] * (1 - exact["p_first"]) / n)
    assert abs(p - exact["p_first"]) < 4 * se
    # GP points: 8 + 5 always, plus 1 when the classical games decided it
    bonus = (t["points"].sum() - 13 * n) / n
    pc = 1 - exact["p_tiebreak"]
    assert abs(bonus - pc) < 4 * np.sqrt(pc * (1 - pc) / n)


def test_closed_form_by_hand(model):
    """The closed form itself, for one classical pair only: P(win) = P(score > 1)."""
    scn = type("S", (), {})()
    scn.steps = (Step(STEP_GAMES, "classical", 2, "classical"),)
    ra, rb = {"classical": 2780.0}, {"classical": 2720.0}
    pw1, pd1, pb1 = model.wdl("classical", 2780, 2720)   # A White
    pw2, pd2, pb2 = model.wdl("classical", 2720, 2780)   # B White
    win = pw1 * (pd2 + pw2 * 0 + pb2) + pd1 * pb2       # A +1 or more over two games
    level = pw1 * pw2 + pd1 * pd2 + pb1 * pb2
    got = match_probability(scn.steps, model, ra, rb, 0)
    assert got["p_first"] == pytest.approx(win + 0.5 * level, abs=1e-12)
    assert got["p_tiebreak"] == pytest.approx(level, abs=1e-12)


MIXED = """
[scenario]
name = "mixed steps"
format = "knockout-series"
[series]
place_points = [10, 6, 3, 1]
classical_win_bonus = 2
event_prizes = [100, 50, 20, 10]
overall_prizes = [300, 200, 100]
tiebreaks = ["head-to-head", "classical-points", "lots"]
qualifying_places = 2
qualified_elsewhere = ["P2"]
[match]
steps = [
  { kind = "games", control = "classical", games = 2 },
  { kind = "games", control = "rapid-15+10", games = 2 },
  { kind = "sudden-death", control = "blitz-3+2" },
]
%s
[[events]]
name = "one"
[[events.matches]]
round = "r1"
players = ["P1", "P8"]
classical = [0.5]
[[events.matches]]
round = "r1"
players = ["P4", "P5"]
white = "P5"
[[events]]
name = "two"
[[events]]
name = "three"
bracket = ["P3", "P1", "P2", "P7", "P5", "P4", "P6", "P8"]
"""


@pytest.mark.parametrize("offsets", [False, True])
def test_kernel_equals_twin_partial_entries_and_sudden_death(tmp_path, model, offsets):
    """In-progress matches (known first game, known colours), a sudden-death last step, a
    head-to-head-first tiebreak order and three 8-player events: kernel == twin."""
    players = "".join(f'[[players]]\nname = "P{i}"\nrating = {2800 - 15 * i}\nevents = [1, 2, 3]\n'
                      for i in range(1, 9))
    f = tmp_path / "mixed.toml"
    f.write_text(MIXED % players)
    mod, scn = load_scenario(f)
    plan = mod.compile(scn, model, CompileOptions(offsets=offsets))
    a = plan.run_batch(2, 0, 1500)
    b = ref.tallies(plan, 2, 0, 1500)
    for k in INT_KEYS:
        assert np.array_equal(a[k], b[k]), k
    np.testing.assert_allclose(a["prize"], b["prize"], rtol=1e-12)
    assert a["qualify"].sum() == 2 * 1500 and a["qualify"][plan.info.names.index("P2")] == 0


def test_series_table_equals_twin_with_level_pairs_and_groups(gp, model):
    """The kernel's series table (``rank_series_nb``: the packed key, then the head-to-head of
    two level players in registers or of a larger group through ``ingrp``, then lots) against
    the twin's ``_rank``, on 400 made-up tables with many ties (GP 2019's criteria and key,
    8 plan players, 24 logged matches among them and one player outside the plan), the order,
    the lots' marks and the stream after them."""
    from simcycle.formats.knockout_series.nb import LOG_BITS, rank_series_nb
    mod, scn = gp
    a = mod.compile(scn, model, CompileOptions(at="start")).args
    n, nm = 8, 24
    rng = np.random.default_rng(18)       # a fixed seed: the tables are the same every run
    decided_pairs = decided_groups = 0
    for case in range(400):
        pts = np.append(rng.integers(10, 13, n), 0)    # entry n: the spare one nothing reads
        won = np.append(rng.integers(0, 2, n), 0)
        second = np.append(rng.integers(0, 2, n), 0)
        cls = np.append(rng.integers(0, 3, n), 0)
        log_rows = []
        for _ in range(nm):
            up, lo = rng.choice(n + 1, 2, replace=False)   # n: a player not in the plan
            cu = int(rng.integers(0, 5))
            log_rows.append((int(up), int(lo), cu, 4 - cu))
        log = np.array([u | (lo << LOG_BITS) | (cu << 2 * LOG_BITS) | (cl << 3 * LOG_BITS)
                        for u, lo, cu, cl in log_rows], np.int64)
        order = np.empty(n, np.int64)
        lotted = np.empty(n, np.int64)
        st = np.array([Stream(7, case).state], np.uint64)
        rank_series_nb(a.criteria, a.n_packed, a.key_base, n, pts, won, second, cls, log, nm,
                       order, np.empty(n, np.int64), np.empty(n + 1, np.int64),
                       np.empty(n, np.int64), np.zeros(n + 1, np.int64), lotted, st)
        s = Stream(7, case)
        pidx = list(range(n)) + [-1]
        want, want_lotted = ref._rank(a, [int(x) for x in pts[:n]], list(won[:n]),
                                      list(second[:n]), list(cls[:n]), log_rows, pidx, s)
        assert list(order) == want and list(lotted) == want_lotted, case
        assert int(st[0]) == s.state, case
        # how often the head-to-head decided something (so both paths are exercised)
        key = {i: (pts[i], won[i], second[i], cls[i]) for i in range(n)}
        for k in set(key.values()):
            grp = [i for i in range(n) if key[i] == k]
            h2h = {i: 0 for i in grp}
            for u, lo, cu, cl in log_rows:
                if u in h2h and lo in h2h:
                    h2h[u] += cu
                    h2h[lo] += cl
            if len(set(h2h.values())) > 1:
                decided_pairs += len(grp) == 2
                decided_groups += len(grp) > 2
    # 112 pairs and 15 larger groups with this seed
    assert decided_pairs >= 50 and decided_groups >= 5, (decided_pairs, decided_groups)
