"""ACP Tour 2004-05 (format `tour`): strength and level formulas, ACP points, best-5 counting,
every tiebreak step, kernel vs plain-Python twin, simulation sums, odds, bad input.

Rules: the ACP Tour 2004-2005 regulations (Association of Chess Professionals, "Регламент
АШП-Тура 2004-2005", ACP, 2004), cited as "regulations §N.M" with the regulations' own section
numbers.  The points tables used here are ILLUSTRATIVE (the regulations' Appendix 2 was not
available to the project)."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from conftest import SCENARIOS, write
from simcycle import driver
from simcycle import experiment as ex
from simcycle.cli import main as cli
from simcycle.errors import ScenarioError
from simcycle.formats.base import CompileOptions
from simcycle.formats.tour import FORMAT as TOUR
from simcycle.formats.tour import rules
from simcycle.formats.tour.plan import ODDS_SIMS
from simcycle.formats.tour.scenario import Event
from simcycle.model import load_model
from simcycle.reference import tour as twin
from simcycle.scenario import load_scenario

ACP = SCENARIOS / "acp-tour-2004-05.toml"


@pytest.fixture(scope="module")
def scn():
    return load_scenario(ACP)[1]


@pytest.fixture(scope="module")
def model():
    return load_model()


# -- strength R and level (regulations §4.1) ------------------------------------------------------
def test_strength_round_robin_and_dortmund_mean_of_all():
    # regulations §4.1: RR and DS: R = mean rating of all participants; (2700+2600+2650)/3 = 2650
    assert rules.event_strength("RR", [2700, 2600, 2650]) == pytest.approx(2650.0)
    assert rules.event_strength("DS", [2700, 2600, 2650, 2610]) == pytest.approx(2640.0)


def test_strength_knockout_two_thirds_top_half():
    # regulations §4.1: KO: R = (2 R1 + R2) / 3; R1 = (2800+2700)/2 = 2750,
    # R2 = (2600+2500)/2 = 2550
    # -> (5500 + 2550) / 3 = 2683.333...
    assert rules.event_strength("KO", [2800, 2700, 2600, 2500]) == pytest.approx(8050 / 3)
    # Reading: odd field, the middle player in the top half: R1 = 2750, R2 = 2600 -> 2700
    assert rules.event_strength("KO", [2800, 2700, 2600]) == pytest.approx(2700.0)


def test_strength_open_more_than_90_players_uses_ranks_1_30():
    # regulations §4.1: more than 90 players: R1, R2, R3 = ranks 1-10, 11-20, 21-30;
    # (3*2700 + 2*2600 + 2500)/6 + 50 = 15800/6 + 50 = 2683.333...
    top30 = [2700] * 10 + [2600] * 10 + [2500] * 10
    assert rules.event_strength("open", top30, n_players=91) == pytest.approx(15800 / 6 + 50)
    assert rules.event_strength("WS", top30 + [2000] * 70,
                                n_players=100) == pytest.approx(15800 / 6 + 50)


def test_strength_open_ninths_when_90_or_fewer():
    # regulations §4.1: 90 or fewer: first, second, third ninth.  27 players: ninths of 3;
    # (3*2700 + 2*2640 + 2600)/6 + 50 = 15980/6 + 50 = 2713.333...
    r = [2710, 2700, 2690, 2650, 2640, 2630, 2600, 2600, 2600] + [2400] * 18
    assert rules.event_strength("open", r) == pytest.approx(15980 / 6 + 50)
    # exactly 90 players: ninths of 10 = ranks 1-10, 11-20, 21-30 (same numbers as above)
    top = [2700] * 10 + [2600] * 10 + [2500] * 10 + [2300] * 60
    assert rules.event_strength("WS", top) == pytest.approx(15800 / 6 + 50)
    # Reading: a ninth of 50 players is floor(50/9) = 5: (3*2600 + 2*2500 + 2400)/6 + 50
    r50 = [2600] * 5 + [2500] * 5 + [2400] * 5 + [2000] * 35
    assert rules.event_strength("open", r50) == pytest.approx(15200 / 6 + 50)
    with pytest.raises(ValueError):
        rules.event_strength("open", [2700] * 20, n_players=120)  # needs the top 30


@pytest.mark.parametrize("r, level", [
    # regulations §4.1 table: E 2576-2600, D 2601-2625, C 2626-2650, B 2651-2675, A 2676 and over;
    # Reading "whole-R": R rounded half up before the bands apply
    (2575.4, None), (2575.5, "E"), (2576, "E"), (2600, "E"), (2600.49, "E"), (2600.5, "D"),
    (2625, "D"), (2626, "C"), (2650, "C"), (2651, "B"), (2675, "B"), (2676, "A"), (2850, "A"),
])
def test_levels(r, level):
    assert rules.level_of(r) == level


def test_announced_event_keeps_at_least_level_E():
    # regulations §3.5: an event included before its start that falls below E keeps level E ...
    assert rules.level_of(2500, announced=True) == "E"
    # ... and only the floor E is kept: a weakened level-B event is what its R says
    assert rules.level_of(2610, announced=True) == "D"


def test_shared_places_split_points():
    # Reading "split": the mean of the places covered, rounded half up to a hundredth
    pp = [10000, 7500, 6000]
    assert rules.share_points(pp, 2, 3) == 6750          # (75 + 60) / 2 = 67.50
    assert rules.share_points(pp, 1, 3) == 7833          # 235 / 3 = 78.333 -> 78.33
    assert rules.share_points([1, 0], 1, 2) == 1         # 0.005 rounds half up to 0.01
    assert rules.share_points(pp, 3, 5) == 2000          # places beyond the table earn 0


# -- the shipped what-if season: ACP points by hand -----------------------------------------------
def test_played_events_points_by_hand(scn):
    d = TOUR.standings(scn, None)
    ev = {e["number"]: e for e in d["events"]}
    # E1: mean of its ten ratings 26887/10 = 2688.7 -> level A (regulations §4.1)
    assert ev[1]["strength"] == pytest.approx(2688.7) and ev[1]["level"] == "A"
    # E2 (open, 150 players): (3*2672.3 + 2*2613.6 + 2578.4)/6 + 50 = 2687.08 -> A
    assert ev[2]["strength"] == pytest.approx(2687.08, abs=0.01) and ev[2]["level"] == "A"
    # E3 (KO of 8): R1 = 10976/4 = 2744, R2 = 10619/4 = 2654.75 -> (5488 + 2654.75)/3 = 2714.25
    assert ev[3]["strength"] == pytest.approx(2714.25, abs=0.01) and ev[3]["kind"] == "rapid"
    rows = {p["name"]: p for p in d["players"]}
    # illustrative level-A table [100, 75, 60, 50, 42, 35, 30, 25, ...], rapid coefficient 0.4
    assert rows["Cedar"]["events"] == [100.0, None, 40.0]          # 1st E1; 1st E3 = 100 * 0.4
    assert rows["Alder"]["events"][0] == 67.5                       # 2-3 shared: (75 + 60)/2
    assert rows["Birch"]["events"][1] == pytest.approx(61.67)       # 2-4 of 150: 185/3 = 61.67
    assert rows["Birch"]["events"][2] == pytest.approx(13.2)        # 5-8 KO: (42+35+30+25)/4*0.4
    assert rows["Cedar"]["total"] == 140.0 and rows["Cedar"]["rank"] == 1
    # Ironwood and Maple: 5-7 shared in E1 = (42+35+30)/3 = 35.67 each, one event each -> level
    # on every criterion across the 8th place: lots (regulations §5.5.3)
    assert rows["Ironwood"]["rank"] == rows["Maple"]["rank"] == 8
    assert rows["Ironwood"]["qualified"] is None and "lots" in d["note"]
    # only ACP members are in the table (regulations §5.1): Dogwood, Kauri, Rowan are not
    assert not {"Dogwood", "Kauri", "Rowan"} & set(rows)
    assert TOUR.checkpoints(scn) == ["start", "event1", "event2", "event3"]


def test_declined_organisers(scn):
    ev = next(e for e in scn.events if not e.joined)
    assert ev.level == "A"
    pp = rules.event_place_points(scn, ev, 6)
    # regulations §3.3: level A at half points: 100 * 1.0 * 0.5 = 50.00 for 1st
    assert pp[:3] == [5000, 3750, 3000]
    # levels C-E: not counted at all
    low = Event(**{**ev.__dict__, "level": "C"})
    assert rules.event_place_points(scn, low, 6) == [0] * 6


def test_weak_event_not_announced_earns_nothing_and_grand_slam_by_strength(tmp_path):
    pl = [("A", 2560, True), ("B", 2550, True), ("C", 2700, True), ("D", 2690, True)]
    ev = ('[[events]]\nname = "weak"\nstart = 2004-08-01\nsystem = "RR"\nminutes = 120\n'
          'announced = false\nfield = ["A", "B"]\nresults = [["A", 1], ["B", 2]]\n'
          '[[events]]\nname = "gs"\nstart = 2004-09-01\nsystem = "RR"\nminutes = 25\n'
          'grand_slam = true\nfield = ["C", "D"]\nresults = [["C", 1], ["D", 2]]\n')
    path = small(tmp_path, pl, ev)
    s = load_scenario(path)[1]
    # R = 2555 < 2576 and not included before its start: no level (regulations §3.5, §4.1)
    assert s.events[0].level is None
    rows = {p["name"]: p for p in TOUR.standings(s, None)["players"]}
    assert rows["A"]["total"] == 0 and rows["A"]["counted"] == 0
    # Grand Slam as its own level: table GS [100, 50, ...] x grand-slam 0.75 = 75 for 1st
    assert s.events[1].level == "GS" and rows["C"]["total"] == 75.0
    text = path.read_text(encoding="utf-8").replace('shared_places = "split"',
                                                   'shared_places = "split"\n'
                                                   'grand_slam_level = "by-strength"')
    s2 = load_scenario(write(tmp_path, "bs.toml", text))[1]
    # by strength: R = 2695 -> level A, table A [100, 50, ...] x 0.75 = 75; 2nd 37.5
    assert s2.events[1].level == "A"
    assert {p["name"]: p["total"] for p in TOUR.standings(s2, None)["players"]}["D"] == 37.5


# -- best 5 and the tiebreaks (regulations §5.4-5.5) ----------------------------------------------
def test_best_five_count():
    # regulations §5.4: the 5 best results count; Reading: 0-point results are not counted events
    assert rules.counted([10, 20, 30, 40, 50, 60, 0], 5) == [60, 50, 40, 30, 20]
    assert rules.counted([0, 0, 15], 5) == [15]


@pytest.mark.parametrize("a, b", [
    # (1) fewer counted tournaments goes through: 50+50 in 2 events beats 40+30+30 in 3
    ([50, 50], [40, 30, 30]),
    # (2) without the worst: 60+30 = 90 = 50+40; without the next worst: 60 > 50
    ([60, 30, 10], [50, 40, 10]),
    # (2) the first drop decides: totals 100 = 100, without the worst 60+25 = 85 > 50+30 = 80
    ([60, 25, 15], [50, 30, 20]),
    # (2) down to the last drop: 40+30+20+10 vs 40+25+25+10: -10 -> 90 = 90, -20/-25 -> 70 > 65
    ([40, 30, 20, 10], [40, 25, 25, 10]),
])
def test_tiebreak_steps(a, b):
    assert sum(a) == sum(b)
    assert rules.tiebreak_key(a) < rules.tiebreak_key(b)
    groups = rules.rank_groups({"a": rules.tiebreak_key(a), "b": rules.tiebreak_key(b)})
    assert groups == [["a"], ["b"]]


def test_full_tie_is_left_to_lots():
    # regulations §5.5.3: level on everything -> lots (one group)
    k = rules.tiebreak_key([30, 20])
    assert rules.rank_groups({"x": k, "y": rules.tiebreak_key([30, 20])}) == [["x", "y"]]


# -- small scenarios written on the fly -----------------------------------------------------------
HEAD = """
[scenario]
name = "test tour"
format = "tour"
[tour]
qualifying_places = {q}
shared_places = "{share}"
[points]
illustrative = true
A = [100, 50, 20, 10]
B = [80, 40, 16, 8]
C = [60, 30, 12, 6]
D = [40, 20, 8, 4]
E = [20, 10, 4, 2]
GS = [100, 50, 20, 10]
[points.coefficients]
rapid = 0.5
grand-slam = 0.75
classical = 1.0
"""


def _players(spec):
    return "".join(f'[[players]]\nname = "{n}"\nrating = {r}\n'
                   + ("member = false\n" if not m else "")
                   for n, r, m in spec)


def small(tmp_path, players, events, q=2, share="split"):
    return write(tmp_path, "t.toml", HEAD.format(q=q, share=share) + _players(players) + events)


def test_tiebreaks_in_standings(tmp_path):
    # four classical RR events of level A (mean 2700), places pay 100/50/20/10 (ILLUSTRATIVE)
    pl = [("P", 2700, True), ("Q", 2700, True), ("R", 2700, True), ("S", 2700, True)]
    ev = ""
    for k, res in enumerate([
        [["P", 1], ["Q", 2], ["R", 3], ["S", 4]],     # P 100, Q 50, R 20, S 10
        [["Q", 1], ["P", 2], ["S", 3], ["R", 4]],     # Q 100, P 50, S 20, R 10
        [["R", 1], ["S", 2], ["P", "3-4"], ["Q", "3-4"]],  # R 100, S 50, P/Q 15
    ]):
        ev += (f'[[events]]\nname = "e{k}"\nstart = 2004-0{k + 7}-01\nsystem = "RR"\n'
               'minutes = 120\n'
               f'field = ["P", "Q", "R", "S"]\nresults = {json.dumps(res)}\n')
    s = load_scenario(small(tmp_path, pl, ev))[1]
    d = TOUR.standings(s, None)
    got = [(p["name"], p["rank"], p["total"], p["counted"], p["without_worst"])
           for p in d["players"]]
    # P and Q: 165 in 3 events, without the worst 150 each, without two 100 each -> lots;
    # R and S: 130 / 80 in 3 events.  Hand-checked from the results above.
    assert got == [("P", 1, 165.0, 3, [150.0, 100.0]), ("Q", 1, 165.0, 3, [150.0, 100.0]),
                   ("R", 3, 130.0, 3, [120.0, 100.0]), ("S", 4, 80.0, 3, [70.0, 50.0])]
    assert d["players"][0]["qualified"] is True   # both fit in the 2 places
    # a complete season is certain except for lots: P and Q each first half of the time
    plan = TOUR.compile(s, load_model(), CompileOptions())
    res = driver.run(plan, 4000, 3, progress=False)
    p = res.tallies["place"] / res.sims
    assert p[0, 0] + p[1, 0] == 1.0 and p[2, 2] == 1.0 and p[3, 3] == 1.0
    assert abs(p[0, 0] - 0.5) < 4 * np.sqrt(0.25 / 4000)
    assert (res.tallies["qualify"][:2] == 4000).all()


def test_fewer_events_beats_more_in_simulation_order(tmp_path):
    # regulations §5.5.1: A scores 100 in one event, B 50 + 50 in two: A ranks first
    pl = [("A", 2700, True), ("B", 2700, True), ("C", 2700, True)]
    ev = ('[[events]]\nname = "e1"\nstart = 2004-08-01\nsystem = "RR"\nminutes = 120\n'
          'field = ["A", "B", "C"]\nresults = [["A", 1], ["B", 2], ["C", 3]]\n'
          '[[events]]\nname = "e2"\nstart = 2004-09-01\nsystem = "RR"\nminutes = 120\n'
          'field = ["B", "C"]\nresults = [["B", 2], ["C", 1]]\n')
    s = load_scenario(small(tmp_path, pl, ev, q=1))[1]
    d = TOUR.standings(s, None)
    # A: 100 (1 event); B: 50 + 50 = 100 (2 events); C: 20 + 100 = 120 (2 events)
    assert [(p["name"], p["total"], p["counted"]) for p in d["players"]] == [
        ("C", 120.0, 2), ("A", 100.0, 1), ("B", 100.0, 2)]
    # the kernel agrees: with 2 places, A beats B for the second on tiebreak (1) every time
    text = (tmp_path / "t.toml").read_text(encoding="utf-8")
    s2 = load_scenario(write(tmp_path, "q2.toml",
                             text.replace("qualifying_places = 1", "qualifying_places = 2")))[1]
    plan = TOUR.compile(s2, load_model(), CompileOptions())
    res = driver.run(plan, 500, 1, progress=False)
    assert list(res.tallies["qualify"]) == [500, 0, 500]            # A, B, C in file order
    assert list(res.tallies["counters"]) == [500, 0]                # tiebreak, never lots


def test_two_player_event_expected_points_closed_form(tmp_path, model):
    # one game, colours by lot; places 1 and 2 (level A, classical: 100 / 50), a draw shares
    # 1-2 = 75 each (Reading "split").  E[points of X] = avg over colours of 100 w + 75 d + 50 l.
    pl = [("X", 2750, True), ("Y", 2650, True)]
    ev = ('[[events]]\nname = "duel"\nstart = 2004-08-01\nsystem = "RR"\nminutes = 120\n'
          'strength = 2700\nfield = ["X", "Y"]\n')
    s = load_scenario(small(tmp_path, pl, ev))[1]
    w1, d1, l1 = model.wdl("classical", 2750, 2650)
    l2, d2, w2 = model.wdl("classical", 2650, 2750)
    exact = 0.5 * (100 * w1 + 75 * d1 + 50 * l1) + 0.5 * (100 * w2 + 75 * d2 + 50 * l2)
    o = TOUR.odds(s, model, None)
    x = next(p for p in o["events"][0]["players"] if p["name"] == "X")
    sd = 25.0  # points spread at most 25 around the mean
    assert abs(x["expected_points"] - exact) < 4 * sd / np.sqrt(ODDS_SIMS)
    # P(place 1 share) + P(place 2 share) = 1 for each player
    assert sum(x["p_place"]) == pytest.approx(1.0)


def _score_dist(model, r, opp, rounds):
    """Half-point score distribution over ``rounds`` games against ``opp``, White in odd rounds."""
    dist = {0: 1.0}
    for rd in range(rounds):
        w, d, loss = (model.wdl("classical", r, opp) if rd % 2 == 0
                      else model.wdl("classical", opp, r)[::-1])
        new = {}
        for sc, p in dist.items():
            for add, q in ((2, w), (1, d), (0, loss)):
                new[sc + add] = new.get(sc + add, 0.0) + p * q
        dist = new
    return dist


def test_open_listed_only_closed_form(tmp_path, model):
    # Reading "listed-only": X and Y each play 3 games against a 2600 opponent; the better score
    # takes 1st (100), the other 2nd (50), level scores share 1-2 (75).  Exact by convolution.
    pl = [("X", 2700, True), ("Y", 2650, True)]
    ev = ('[[events]]\nname = "o"\nstart = 2004-08-01\nsystem = "open"\nrounds = 3\nminutes = 120\n'
          'n_players = 100\nstrength = 2700\nopponent_rating = 2600\nfield = ["X", "Y"]\n')
    s = load_scenario(small(tmp_path, pl, ev))[1]
    dx, dy = _score_dist(model, 2700, 2600, 3), _score_dist(model, 2650, 2600, 3)
    win = sum(p * q for a, p in dx.items() for b, q in dy.items() if a > b)
    tie = sum(p * q for a, p in dx.items() for b, q in dy.items() if a == b)
    exact = 100 * win + 75 * tie + 50 * (1 - win - tie)
    x = next(p for p in TOUR.odds(s, model, None)["events"][0]["players"] if p["name"] == "X")
    assert abs(x["expected_points"] - exact) < 4 * 25.0 / np.sqrt(ODDS_SIMS)
    assert abs(x["p_place"][0] - (win + tie / 2)) < 4 * 0.5 / np.sqrt(ODDS_SIMS)


def test_two_player_knockout_closed_form(tmp_path, model):
    # a KO of two: two classical games (X White first), then lots if level (the default match).
    # P(X through) = P(X scores more) + P(level) / 2; 1st 100, 2nd 50.
    pl = [("X", 2750, True), ("Y", 2650, True)]
    ev = ('[[events]]\nname = "k"\nstart = 2004-08-01\nsystem = "KO"\nminutes = 120\n'
          'strength = 2700\nfield = ["X", "Y"]\n')
    s = load_scenario(small(tmp_path, pl, ev))[1]
    g1 = model.wdl("classical", 2750, 2650)             # X White
    g2 = model.wdl("classical", 2650, 2750)[::-1]       # X Black, from X's side
    more = g1[0] * (g2[0] + g2[1]) + g1[1] * g2[0]
    level = g1[0] * g2[2] + g1[1] * g2[1] + g1[2] * g2[0]
    p_through = more + level / 2
    x = next(p for p in TOUR.odds(s, model, None)["events"][0]["players"] if p["name"] == "X")
    assert abs(x["p_place"][0] - p_through) < 4 * 0.5 / np.sqrt(ODDS_SIMS)
    assert x["expected_points"] == pytest.approx(50 + 50 * x["p_place"][0])


# -- kernel = twin, simulation sums ---------------------------------------------------------------
@pytest.mark.parametrize("at, offsets, share", [("start", False, "split"),
                                                ("event1", True, "split"),
                                                ("start", False, "lots")])
def test_kernel_equals_twin(scn, model, tmp_path, at, offsets, share):
    s = scn
    if share == "lots":
        text = ACP.read_text(encoding="utf-8").replace('shared_places = "split"',
                                                       'shared_places = "lots"')
        s = load_scenario(write(tmp_path, "lots.toml", text))[1]
        assert s.shared_places == "lots"
    plan = TOUR.compile(s, model, CompileOptions(at=at, offsets=offsets))
    same_as_twin(plan, 11, 5, 700)


def test_knockouts_take_the_walks_fast_matches_only_without_offsets(scn, model):
    """The shipped knock-outs (games and Armageddon steps) go through ``fmatch_nb`` without
    offsets and through ``match_nb`` with them, so ``test_kernel_equals_twin`` checks both
    against the twin's matches."""
    from simcycle.enums import EV_FAST, EV_SYS, SIM_KO
    for offsets, fast in ((False, 1), (True, 0)):
        ev = TOUR.compile(scn, model, CompileOptions(at="start", offsets=offsets)).args.ev
        ko = ev[ev[:, EV_SYS] == SIM_KO]
        assert len(ko) == 2      # the rapid knock-out of 8 and the knock-out of 16
        assert (ko[:, EV_FAST] == fast).all()
        assert (ev[ev[:, EV_SYS] != SIM_KO, EV_FAST] == 0).all()


def test_round_robins_go_through_the_round_robin_stage(scn, model):
    """Each round robin still to play (RR and the DS event, Reading dortmund_system =
    "round-robin") is numbered for the stage (EV_RR), with colours by lot in a single round
    robin and alternating by cycle in the double one (``rules``: the tour's colours); the
    other events are not."""
    from simcycle.enums import (COLOURS_BY_LOT, COLOURS_SCHEDULED, EV_COLOURS, EV_CYCLES,
                                EV_RR, EV_SYS, SIM_RR)
    ev = TOUR.compile(scn, model, CompileOptions(at="start")).args.ev
    rr = ev[:, EV_SYS] == SIM_RR
    assert rr.sum() == 5      # RR I, RR II (double), DS, Grand Slam, RR III
    assert list(ev[rr, EV_RR]) == [0, 1, 2, 3, 4] and (ev[~rr, EV_RR] == -1).all()
    want = np.where(ev[rr, EV_CYCLES] == 1, COLOURS_BY_LOT, COLOURS_SCHEDULED)
    assert list(ev[rr, EV_COLOURS]) == list(want) and list(ev[rr, EV_CYCLES]).count(2) == 1


@pytest.mark.parametrize("at, offsets", [("start", False), ("event1", True)])
def test_stage_views_of_the_pack_are_the_records(scn, model, at, offsets):
    """``nb.rr_view_nb`` (run as plain Python over the compiled pack) gives each round robin
    the stage record the twin plays (``nb.rr_event_nb``): the same games, columns, thresholds
    and criteria; its crosstable padded to the pack's widest (opponent -1: no game)."""
    from simcycle.enums import EV_RR, EV_SYS, SIM_RR
    from simcycle.formats.tour.nb import rr_event_nb, rr_pack_nb, rr_view_nb

    a = TOUR.compile(scn, model, CompileOptions(at=at, offsets=offsets)).args
    rp = rr_pack_nb(a)
    seen = 0
    for e in np.flatnonzero(a.ev[:, EV_SYS] == SIM_RR):
        want = rr_event_nb(a, np.int64(e))
        got, g, s = rr_view_nb.py_func(a, rp, a.ev[e, EV_RR])
        n, w = want.opp.shape
        assert got.base_pts.shape[0] == n and s.order.shape[0] == n and g.live == a.live
        for name in ("gw", "gb", "gsw", "gsb", "gseg", "gthr", "criteria", "rating",
                     "qualified", "place_prize"):
            assert np.array_equal(getattr(got, name), getattr(want, name)), name
        for name in ("opp", "kind", "colour"):
            x = getattr(got, name)
            assert np.array_equal(x[:n, :w], getattr(want, name)), name
        assert (got.opp[:n, w:] == -1).all()
        for name in ("game_ci", "colours", "live", "offsets", "n_qual", "forced_first"):
            assert getattr(got, name) == getattr(want, name), name
        seen += 1
    assert seen == (5 if at == "start" else 4)


def same_as_twin(plan, seed, first, n):
    """The kernel's tallies of replicas first..first+n-1 equal the twin's (returned)."""
    k = plan.run_batch(seed, first, n)
    t = twin.run(plan, seed, first, n)
    for key in ("place", "qualify", "points", "points_sq", "counters"):
        assert np.array_equal(k[key], t[key]), key
    return k


def test_kernel_equals_twin_with_byes_and_places(tmp_path, model):
    # a KO of 6 (byes for seeds 1 and 2), a 3-player RR and a small open
    pl = [(f"P{i}", 2750 - 15 * i, i != 3) for i in range(7)]
    names = [n for n, _, _ in pl]
    ev = ('[[events]]\nname = "ko6"\nstart = 2004-08-01\nsystem = "KO"\nminutes = 120\n'
          f'field = {json.dumps(names[:6])}\n'
          'match = [{ kind = "games", games = 2 }, '
          '{ kind = "sudden-death", control = "blitz-5+3" }]\n'
          '[[events]]\nname = "rr3"\nstart = 2004-09-01\nsystem = "RR"\nminutes = 20\n'
          f'field = {json.dumps(names[4:])}\n'
          '[[events]]\nname = "op"\nstart = 2004-10-01\nsystem = "WS"\nminutes = 90\nrounds = 5\n'
          f'n_players = 40\nstrength = 2660\nfield = {json.dumps(names[1:5])}\n')
    s = load_scenario(small(tmp_path, pl, ev, q=3))[1]
    plan = TOUR.compile(s, model, CompileOptions())
    k = plan.run_batch(5, 0, 1500)
    t = twin.run(plan, 5, 0, 1500)
    for key in ("place", "qualify", "points", "points_sq", "counters"):
        assert np.array_equal(k[key], t[key]), key
    # KO of 6 in a bracket of 8: seeds 1 and 2 have byes and first-round losers share 5-6, so
    # seed 1 always finishes in the 4 paying places (tables of 4 above), seed 6 not always
    o = TOUR.odds(s, model, None)["events"][0]
    top = next(p for p in o["players"] if p["name"] == "P0")
    low = next(p for p in o["players"] if p["name"] == "P5")
    assert len(top["p_place"]) == 4 and sum(top["p_place"]) == pytest.approx(1.0)
    assert 0.05 < sum(low["p_place"]) < 0.95
    # and the semi-final losers share 3-4
    assert top["p_place"][2] == pytest.approx(top["p_place"][3])


def test_simulation_sums_from_start(scn, model):
    plan = TOUR.compile(scn, model, CompileOptions(at="start"))
    res = driver.run(plan, 20000, 7, progress=False)
    p = res.tallies["place"] / res.sims
    m = len(plan.info.names)
    assert np.allclose(p.sum(axis=1), 1.0) and np.allclose(p.sum(axis=0), 1.0)
    # regulations §5.4: 8 qualify (there are 21 members): the probabilities sum to 8
    assert m == 21 and res.tallies["qualify"].sum() == 8 * res.sims
    # batch split does not change the result
    a = plan.run_batch(7, 0, 700)["place"] + plan.run_batch(7, 700, 300)["place"]
    assert np.array_equal(a, plan.run_batch(7, 0, 1000)["place"])


def test_fewer_members_than_places(tmp_path, model):
    pl = [("A", 2700, True), ("B", 2690, True), ("N", 2710, False)]
    ev = ('[[events]]\nname = "e"\nstart = 2004-08-01\nsystem = "RR"\nminutes = 120\ncycles = 2\n'
          'field = ["A", "B", "N"]\n')
    s = load_scenario(small(tmp_path, pl, ev, q=8))[1]
    plan = TOUR.compile(s, model, CompileOptions())
    res = driver.run(plan, 3000, 1, progress=False)
    assert list(plan.info.names) == ["A", "B"]
    assert res.tallies["qualify"].sum() == 2 * res.sims


def test_odds_distributions(scn, model):
    d = TOUR.odds(scn, model, None)
    assert [e["number"] for e in d["events"]] == [4, 5, 6, 7, 8, 9]
    e4 = d["events"][0]
    # 6-player RR, all 6 places pay: each player's places sum to 1, each place to 1
    mat = np.array([p["p_place"] for p in e4["players"]])
    assert np.allclose(mat.sum(axis=1), 1.0) and np.allclose(mat.sum(axis=0), 1.0)
    assert e4["level"] == "A" and not e4["joined"]
    ko = next(e for e in d["events"] if e["system"] == "KO")
    # losers of the semi-finals share 3-4: P(3rd share) = P(4th share) for everyone
    for p in ko["players"]:
        assert p["p_place"][2] == pytest.approx(p["p_place"][3])


# -- CLI end to end -------------------------------------------------------------------------------
def test_cli_outputs_say_tables_are_illustrative():
    r = CliRunner()
    for args in (["standings", str(ACP)], ["odds", str(ACP)],
                 ["simulate", str(ACP), "--sims", "2000", "--no-progress"]):
        out = r.invoke(cli, args)
        assert out.exit_code == 0, out.output
        assert "points tables: illustrative" in out.output
    out = r.invoke(cli, ["simulate", str(ACP), "--at", "event9"])
    assert out.exit_code == 2 and "--at" in out.output


# -- bad input ------------------------------------------------------------------------------------
GOOD_EVENT = ('[[events]]\nname = "e"\nstart = 2004-08-01\nsystem = "RR"\nminutes = 120\n'
              'field = ["A", "B"]\n')


@pytest.mark.parametrize("old, new, key", [
    ("minutes = 120", "minutes = 10", "events[0].minutes"),              # blitz (regulations §3.1)
    ("start = 2004-08-01", "start = 2005-07-01", "events[0].start"),     # outside (regulations §2)
    ('system = "RR"', 'system = "swiss"', "events[0].system"),
    ('field = ["A", "B"]', 'field = ["A", "Z"]', "events[0].field[1]"),
    ('field = ["A", "B"]', 'field = ["A", "B"]\nresults = [["A", 1], ["B", 3]]',
     "events[0].results[1] (place)"),
    ('field = ["A", "B"]', 'field = ["A", "B"]\nresults = [["A", 1], ["B", 1]]',
     "events[0].results"),
    ('field = ["A", "B"]', 'field = ["A", "B"]\nresults = [["A", "1-x"], ["B", 2]]',
     "events[0].results[0] (place)"),
    ('field = ["A", "B"]', 'field = ["A", "B"]\nresults = [["A", 1]]', "events[0].results"),
    ("minutes = 120", "minutes = 120\ngrand_slam = true", "events[0].grand_slam"),
    ('field = ["A", "B"]', 'field = ["A", "B"]\nrounds = 9', "events[0].rounds"),
    ("rapid = 0.5", "rapid = 0.9", "points.coefficients"),               # regulations §4.2 order
    ("illustrative = true", "", "points.illustrative"),
    ("A = [100, 50, 20, 10]", "A = [100, 150]", "points.A[1]"),
    ('shared_places = "split"', 'shared_places = "sometimes"', "tour.shared_places"),
    ('[[events]]', '[[events]]\nfoo = 1', "events[0].foo"),
    ('system = "RR"', 'system = "open"\nrounds = 9\nn_players = 120', "events[0].strength"),
    ('system = "RR"', 'system = "KO"\nn_players = 4', "events[0].n_players"),
])
def test_bad_input_refused_with_key(tmp_path, old, new, key):
    text = (HEAD.format(q=2, share="split") + _players([("A", 2700, True), ("B", 2600, True)])
            + GOOD_EVENT)
    assert old in text
    p = write(tmp_path, "bad.toml", text.replace(old, new, 1))
    with pytest.raises(ScenarioError) as ei:
        load_scenario(p)
    assert ei.value.key == key and ei.value.file == str(p)


def test_bad_input_through_cli_is_one_line(tmp_path):
    text = HEAD.format(q=2, share="split") + _players([("A", 2700, True)]) + GOOD_EVENT
    p = write(tmp_path, "bad.toml", text)
    out = CliRunner().invoke(cli, ["standings", str(p)])
    assert out.exit_code == 2 and "events[0].field[1]" in out.output
    assert "Traceback" not in out.output


# -- the declared schema: types, ranges, unknown keys, nan and inf --------------------------------
@pytest.mark.parametrize("old, new, key", [
    # a tour event with minutes = nan was scored as rapid (nan >= 90 and nan < 15 are false)
    ("minutes = 120", "minutes = nan", "events[0].minutes"),
    ("minutes = 120", "minutes = inf", "events[0].minutes"),
    # opponent_rating = nan turned an open into a lottery (every threshold nan)
    ('system = "RR"', 'system = "open"\nrounds = 5\nopponent_rating = nan',
     "events[0].opponent_rating"),
    ('system = "RR"', 'system = "open"\nrounds = 5\nopponent_rating = -inf',
     "events[0].opponent_rating"),
    ("minutes = 120", "minutes = 120\nstrength = nan", "events[0].strength"),
    ('system = "RR"',
     'system = "open"\nrounds = 5\nn_players = 9\nstarting_ratings = [2700, nan, 2600]',
     "events[0].starting_ratings[1]"),
    ("rating = 2700", "rating = nan", "players[0].rating"),
    ("rating = 2700", "rating = 2700\nrapid = inf", "players[0].rapid"),
    ("A = [100, 50, 20, 10]", "A = [100, nan, 20, 10]", "points.A[1]"),
    ("rapid = 0.5", "rapid = nan", "points.coefficients.rapid"),
    ("[tour]", "[tour]\ndeclined_factor = nan", "tour.declined_factor"),
])
def test_nan_and_inf_refused_through_cli_in_one_line(tmp_path, old, new, key):
    text = (HEAD.format(q=2, share="split") + _players([("A", 2700, True), ("B", 2600, True)])
            + GOOD_EVENT)
    assert old in text
    p = write(tmp_path, "nan.toml", text.replace(old, new, 1))
    for cmd in (["standings", str(p)], ["simulate", str(p), "--sims", "10", "--no-progress"]):
        out = CliRunner().invoke(cli, cmd)
        assert out.exit_code == 2, out.output
        lines = out.output.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in out.output
        assert str(p) in lines[0] and f"{key}:" in lines[0] and "finite" in lines[0]
        assert "(got " in lines[0] and ("nan" in lines[0] or "inf" in lines[0])


@pytest.mark.parametrize("old, new, key", [
    ("[tour]", "[tour]\nfoo = 1", "tour.foo"),
    ("[points]", "[points]\nF = [1]", "points.F"),
    ("rapid = 0.5", "rapid = 0.5\nblitz = 0.1", "points.coefficients.blitz"),
    ('name = "A"', 'name = "A"\nclub = "x"', "players[0].club"),
    ('system = "RR"', 'system = "KO"\nmatch = [{ kind = "games", games = 2, when = 1 }]',
     "events[0].match[0].when"),
    ("[tour]", '[tour]\nbest_n = "5"', "tour.best_n"),
    ("[tour]", "[tour]\nbest_n = 0", "tour.best_n"),
    ("[tour]", "[tour]\ndeclined_factor = 2", "tour.declined_factor"),
    ("[tour]", '[tour]\nseason = ["2004-07-01"]', "tour.season"),
    ("[tour]", '[tour]\nseason = ["2004-07-01", "July"]', "tour.season[1]"),
    ("minutes = 120", 'minutes = "120"', "events[0].minutes"),
    ("minutes = 120", "minutes = 120\ncycles = 3", "events[0].cycles"),
    ("minutes = 120", "minutes = 120\njoined = 1", "events[0].joined"),
    ('start = 2004-08-01', 'start = "1 August"', "events[0].start"),
    ('field = ["A", "B"]', "field = []", "events[0].field"),
    ('system = "RR"', 'system = "KO"\nmatch = [{ kind = "penalties" }]', "events[0].match[0].kind"),
    ('system = "RR"', 'system = "KO"\nmatch = [{ kind = "games" }]', "events[0].match[0].games"),
    ('field = ["A", "B"]', 'field = ["A", "B"]\nresults = [["A", 1, 2], ["B", 2]]',
     "events[0].results[0]"),
    ("rating = 2700", "rating = 700", "players[0].rating"),
])
def test_schema_refuses_with_key(tmp_path, old, new, key):
    text = (HEAD.format(q=2, share="split") + _players([("A", 2700, True), ("B", 2600, True)])
            + GOOD_EVENT)
    assert old in text
    p = write(tmp_path, "bad.toml", text.replace(old, new, 1))
    with pytest.raises(ScenarioError) as ei:
        load_scenario(p)
    assert ei.value.key == key and ei.value.file == str(p), str(ei.value)


def test_shipped_scenario_loads_as_before(scn):
    # every key of the shipped file is declared; what the loader derives is what the old
    # loader derived (values printed by the code before the port)
    assert [e.level for e in scn.events] == ["A", "A", "A", "A", "A", "GS", "C", "A", "B"]
    assert [e.strength_from for e in scn.events] == [
        "field", "starting_ratings", "field", "field", "field", "field", "given", "field", "field"]
    assert [round(e.strength, 2) for e in scn.events] == [
        2688.7, 2687.08, 2714.25, 2739.0, 2679.88, 2726.0, 2641.0, 2691.21, 2665.8]
    assert [e.opponent_rating for e in scn.events] == pytest.approx(
        [2688.7, 2658.818181818182, 2699.375, 2739.0, 2679.875, 2726.0, 2560.0, 2677.8125, 2665.8])
    assert [(e.control, e.scale, e.cycles, e.rounds, e.n_players) for e in scn.events] == [
        ("classical", "classical", 1, 0, 10), ("classical", "classical", 1, 9, 150),
        ("rapid-25+10", "rapid", 1, 0, 8), ("classical", "classical", 2, 0, 6),
        ("classical", "classical", 1, 0, 8), ("rapid-25+10", "grand-slam", 1, 0, 8),
        ("classical", "classical", 1, 9, 72), ("classical", "classical", 1, 0, 16),
        ("classical", "classical", 1, 0, 10)]
    assert [e.steps for e in scn.events if e.steps] == [
        ((1, "rapid-25+10", 2), (2, "armageddon-5v4", 0)),
        ((1, "classical", 2), (1, "rapid-25+10", 2), (2, "armageddon-5v4", 0))]
    assert scn.coefficients == {"rapid": 0.4, "grand-slam": 0.6, "classical": 1.0}
    assert len(scn.players) == 24 and len(scn.members) == 21


# -- optional commands: declared features only ----------------------------------------------------
def test_features_declared_and_refused_in_one_line():
    # whocan: tests/test_whocan_paths.py; swing and --fix: below
    assert TOUR.features == frozenset({"whocan", "swing", "fix"})
    r = CliRunner()
    for args in (["simulate", str(ACP), "--exact"], ["simulate", str(ACP), "--hot-elo"]):
        out = r.invoke(cli, args)
        assert out.exit_code == 2, (args, out.output)
        lines = out.output.strip().splitlines()
        assert len(lines) == 1 and "not available for the tour format" in lines[0], lines


# -- experiments: the plan's ratings are its players' (members') ratings --------------------------
def test_plan_ratings_aligned_with_members(scn, model):
    plan = TOUR.compile(scn, model, CompileOptions(at="start"))
    by_name = {p.name: p.ratings["classical"] for p in scn.players}
    assert len(plan.info.ratings) == len(plan.info.names) == 21
    assert list(plan.info.ratings) == [by_name[n] for n in plan.info.names]
    assert plan.info.ratings.dtype == np.float64


def test_experiment_on_the_tour(tmp_path):
    # `simcycle experiment` on the tour crashed (shapes (21,) (26,)): ratings of the whole
    # field (players and simulated opponents) against the members' places
    exp = write(tmp_path, "tour-exp.toml", f"""
[experiment]
name = "ACP Tour: how many results should count?"
base = "{ACP}"
at = "start"
sims = 3000
seed = 4
[[variant]]
name = "best 5 (as in 2004-05)"
[[variant]]
name = "best 3"
set = {{ "tour.best_n" = 3 }}
""")
    d = ex.run_experiment(ex.load_experiment(exp), progress=False)
    assert [v["name"] for v in d["variants"]] == ["best 5 (as in 2004-05)", "best 3"]
    for v in d["variants"]:
        m = v["measures"]
        assert len(v["players"]) == 21 and v["sims"] == 3000
        assert 0 < m["p_favourite_first"][0] < 1 and 0 < m["p_favourite_qualifies"][0] <= 1
        assert 1 <= m["winner_rating_rank"][0] <= 21
    out = CliRunner().invoke(cli, ["experiment", str(exp), "--sims", "500"])
    assert out.exit_code == 0, out.output
    assert "best 3" in out.output and "favourite (highest rated) wins, %" in out.output


# -- what-if places (--fix, formats/tour/whatif.py) ------------------------------------------------
# At "latest" the shipped season has played events 1-3; event 4 ("Illustrative Round Robin II
# (organisers declined)") is next: a single round robin of Alder, Birch, Cedar, Dogwood (not a
# member), Elm and Fir; event 8 is a knock-out of 16.
def _fix(scn, *texts, at=None):
    fixed: dict = {}
    for t in texts:
        fixed.update(TOUR.parse_fix(scn, t, at, "--fix", fixed))
    return fixed


def test_fix_parsed_as_places(scn):
    alder, birch = (scn.names.index(n) for n in ("Alder", "Birch"))
    assert _fix(scn, "event4: Alder 1") == {(3, alder): (1, 1, 1, 1)}
    assert _fix(scn, "Alder 2-3") == {(3, alder): (2, 2, 3, 3)}      # the next event he plays
    assert (_fix(scn, "illustrative round robin ii (organisers declined): birch 2 to 3")
            == {(3, birch): (2, 3, 2, 6)})
    # a played event with the place it had: nothing to assume (Cedar won event 1)
    assert _fix(scn, "event1: Cedar 1") == {}
    assert TOUR.describe_fix(scn, _fix(scn, "event4: Alder 1", "event4: Birch 2 to 3")) == [
        "Illustrative Round Robin II (organisers declined): Alder finishes 1st",
        "Illustrative Round Robin II (organisers declined): Birch finishes 2nd to 3rd "
        "(alone or shared)"]


@pytest.mark.parametrize("fixes, words", [
    (["event4: Nobody 1"], "no player"),
    (["event4: Oak 1"], "Oak does not play"),
    (["event1: Alder 1"], "already played: Alder finished 2nd-3rd"),     # the file's results
    (["event4: Alder 7"], "a place from 1 to 6"),
    (["event4: Alder first"], "PLACE"),
    (["Illustrative Round Robin II: Alder 1"], "more than one event starts so"),   # and III
    (["event8: Alder 3"], "a knock-out of 16 places its players 1, 2, 3-4, 5-8, 9-16"),
    (["event4: Alder 1", "event4: Alder 2"], "contradicts an earlier what-if"),
    (["event4: Alder 1", "event4: Birch 1"], "more players than places at 1st"),
    (["event4: Alder 1-2", "event4: Birch 2-3"], "contradicts an earlier what-if"),
    # each alone possible, together not: seeds 1 and 4 of a knock-out of 16 in the same half
    (["event8: Alder 1", "event8: Fir 2"], "never happened in 20,000 plays"),
])
def test_bad_fix_exits_2_in_one_line(fixes, words):
    args = ["simulate", str(ACP), "--sims", "1000", "--no-progress"]
    for f in fixes:
        args += ["--fix", f]
    out = CliRunner().invoke(cli, args)
    lines = out.output.strip().splitlines()
    assert out.exit_code == 2, out.output
    assert len(lines) == 1 and "--fix" in lines[0] and words in lines[0], lines
    assert "Traceback" not in out.output


def _event_places(plan, seed, n):
    """Each replica's (lo, hi) of the next event's listed players, from the kernel."""
    from simcycle.formats.tour.needs_nb import season_places_nb
    ev = plan.remaining[0]
    lo = np.zeros((n, len(ev.field)), np.int64)
    hi = np.zeros_like(lo)
    final = np.zeros((n, plan.args.base_top.shape[0]), np.int64)
    season_places_nb(np.uint64(seed), np.int64(0), np.int64(n), plan.args, lo, hi, final)
    return lo, hi


@pytest.mark.parametrize("fixes, offsets", [(["event4: Alder 1"], False),
                                            (["event4: Fir 2-3", "event4: Birch 4 to 6"], True),
                                            (["event8: Juniper 5-8"], False)])
def test_fix_kernel_equals_twin_and_holds(scn, model, fixes, offsets):
    fixed = _fix(scn, *fixes)
    plan = TOUR.compile(scn, model, CompileOptions(offsets=offsets, fixed=fixed))
    n = 600
    k = same_as_twin(plan, 11, 5, n)
    # the fixed places hold in every replica (kernel), and in the twin's record
    for (e, p), (a, b, c, d) in fixed.items():
        row = [ev.name for ev in plan.remaining].index(scn.events[e].name)
        i = scn.events[e].field.index(p)
        if row == 0:
            lo, hi = _event_places(plan, 11, 2048)
            assert ((lo[:, i] >= a) & (lo[:, i] <= b) & (hi[:, i] >= c) & (hi[:, i] <= d)).all()
        for r in range(50):
            rec: list = []
            twin.replica(plan.args, 11, r, rec)
            lo_t, hi_t, _ = rec[row][i]
            assert a <= lo_t <= b and c <= hi_t <= d
    # without what-ifs the run is the one before (the replayed event draws from a side stream)
    base = TOUR.compile(scn, model, CompileOptions(offsets=offsets))
    assert not np.array_equal(base.run_batch(11, 5, n)["place"], k["place"])
    assert np.array_equal(base.run_batch(11, 5, n)["place"], twin.run(base, 11, 5, n)["place"])


def test_fix_from_the_cli(scn):
    args = ["simulate", str(ACP), "--sims", "2048", "--no-progress", "--json",
            "--fix", "event4: Alder 1"]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    d = json.loads(out.output)
    assert d["assumed"] == ["Illustrative Round Robin II (organisers declined): Alder finishes 1st"]
    # the same numbers as the plan with the same what-if (driver seed 1)
    plan = TOUR.compile(scn, load_model(), CompileOptions(fixed=_fix(scn, "event4: Alder 1")))
    res = driver.run(plan, 2048, 1, progress=False)
    alder = next(p for p in d["players"] if p["name"] == "Alder")
    i = list(plan.info.names).index("Alder")
    assert alder["p_first"] == pytest.approx(res.tallies["place"][i, 0] / res.sims)


# -- swing (formats/tour/swing.py): each member's place in the next event --------------------------
SW_SIMS = 8192           # 16 chunks of 512 (kernels.config.CHUNK)
SW_SEED = 5


@pytest.fixture(scope="module")
def sw(scn, model):
    return TOUR.swing(scn, model, None, sims=SW_SIMS, seed=SW_SEED)


def _chunks(scn, model, fixed):
    """P(1st) and P(qualify) per chunk [16, members] of the run under ``fixed``, computed
    here from the plan's own chunk rows (``Plan.run_chunks``)."""
    from simcycle.kernels.config import CHUNK
    plan = TOUR.compile(scn, model, CompileOptions(fixed=fixed))
    t = plan.run_chunks(SW_SEED, 0, SW_SIMS).out
    return list(plan.info.names), t.place[:, :, 0] / CHUNK, t.qualify / CHUNK


def test_swing_branches_partition_the_next_event(sw, scn):
    assert sw["next_event"] == "Illustrative Round Robin II (organisers declined)"
    assert sw["sims"] == SW_SIMS
    # the five members of event 4 (Dogwood is not a member), three branches each (a field of
    # 6: 1st, 2nd to 3rd, 4th to 6th)
    assert sorted(x["player"] for x in sw["places"]) == ["Alder", "Birch", "Cedar", "Elm", "Fir"]
    for x in sw["places"]:
        assert [o["result"] for o in x["outcomes"]] == [
            "finishes 1st (alone or shared)", "finishes 2nd to 3rd (alone or shared)",
            "finishes 4th to 6th (alone or shared)"]
        ps = [o["p"] for o in x["outcomes"]]
        assert abs(sum(ps) - 1) < 1e-12 and min(ps) > 0


def test_swing_mixes_back_to_now_within_its_standard_error(sw, scn, model):
    """Law of total probability: the branches' odds weighted by their shares give the odds
    before the event.  Shares and branch runs come from the same replicas as the base run, so
    the check is per chunk: D_j = sum_b share_b f_b[j] - base[j], SE = sd(D) / sqrt(16); 4 SE
    allowed (plus the shares' own binomial noise, 1 / sqrt(sims))."""
    names, f0, q0 = _chunks(scn, model, {})
    now = {p["name"]: p for p in sw["now"]}
    for x in sw["places"]:
        ps = [o["p"] for o in x["outcomes"]]
        runs = [_chunks(scn, model, _fix(scn, o["fix"])) for o in x["outcomes"]]
        for t, (base, what) in enumerate(((f0, "p_first"), (q0, "p_qualify"))):
            mix = sum(p * r[1 + t] for p, r in zip(ps, runs))
            d = mix - base
            se = d.std(0, ddof=1) / np.sqrt(d.shape[0])
            tol = 4 * se + 1 / np.sqrt(SW_SIMS) * 0.5
            assert (np.abs(d.mean(0)) <= tol).all(), (x["player"], what)
            for i, name in enumerate(names):
                assert now[name][what] == pytest.approx(base[:, i].mean(), abs=1e-12)


def test_swing_fix_reproduces_the_branch_and_noise_flags_match_a_paired_se(sw, scn, model):
    """Fixing a branch's stated result (its ``fix``) gives the branch's numbers exactly (the
    same seed and replicas); each difference from now, its SE and its "within noise" flag
    equal the paired-difference SE computed here from the chunk rows."""
    names, f0, q0 = _chunks(scn, model, {})
    for x in sw["places"][:2]:           # the two members whose place swings most
        rows = {p["name"]: p for p in x["swing"]}
        for j, o in enumerate(x["outcomes"]):
            _, fb, qb = _chunks(scn, model, _fix(scn, o["fix"]))
            for i, name in enumerate(names):
                r = rows[name]
                for what, b, base in (("first", fb, f0), ("qualify", qb, q0)):
                    assert r[f"p_{what}"][j] == pytest.approx(b[:, i].mean(), abs=1e-12)
                    d = b[:, i] - base[:, i]
                    se = d.std(ddof=1) / np.sqrt(d.shape[0])
                    assert r[f"d_{what}"][j] == pytest.approx(d.mean(), abs=1e-12)
                    assert r[f"se_d_{what}"][j] == pytest.approx(se, abs=1e-12)
                    assert r[f"noise_d_{what}"][j] == (abs(d.mean()) <= 2 * se)
        # the fixed player's own place in the event is certain under each branch
        p = scn.names.index(x["player"])
        i = scn.events[3].field.index(p)
        for o in x["outcomes"]:
            plan = TOUR.compile(scn, model, CompileOptions(fixed=_fix(scn, o["fix"])))
            lo, _ = _event_places(plan, SW_SEED, 1024)
            (a, b, _, _), = _fix(scn, o["fix"]).values()
            assert ((lo[:, i] >= a) & (lo[:, i] <= b)).all()


def test_swing_from_the_cli_and_the_api():
    r = CliRunner()
    out = r.invoke(cli, ["swing", str(ACP), "--sims", "2048", "--all-sims", "--json"])
    assert out.exit_code == 0, out.output
    d = json.loads(out.output)
    assert d["places"] and d["sims"] == 2048
    import simcycle
    sw = simcycle.load(str(ACP)).swing(sims=2048, target_se=None)
    assert [x.player for x in sw.places] == [x["player"] for x in d["places"]]
    assert sw.places[0].outcomes[0].fix.startswith("event4: ")
    out = r.invoke(cli, ["swing", str(ACP), "--sims", "2048", "--all-sims"])
    assert out.exit_code == 0, out.output
    assert "what each member's place in Illustrative Round Robin II" in out.output
    assert "(1) finishes 1st (alone or shared):" in out.output
    out = r.invoke(cli, ["swing", str(ACP), "--sims", "2048", "--fix", "event4: Alder 9"])
    assert out.exit_code == 2 and len(out.output.strip().splitlines()) == 1
