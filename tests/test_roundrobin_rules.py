"""Rules real round robins used, each on a hand-checked case: FIDE's Berger order for double
round robins, prize money shared by points, criteria before a play-off, rating lists that
change during the event, and standings that say why level players are ordered."""

import tomllib

import numpy as np
import pytest

from conftest import SCENARIOS, write
from simcycle import driver
from simcycle.enums import TB_PLAYOFF
from simcycle.errors import ScenarioError
from simcycle.formats.base import CompileOptions
from simcycle.formats.roundrobin import FORMAT as RR
from simcycle.formats.roundrobin.exact import exact_round_robin
from simcycle.formats.shared.schedules import berger_rounds
from simcycle.model import load_model
from simcycle.reference import roundrobin as twin
from simcycle.scenario import load_scenario

CAND = SCENARIOS / "candidates-2022.toml"
# Starting numbers drawn by lot for the Candidates 2022 (1 Duda ... 8 Rapport): the order in
# which FIDE's Berger tables give the event's real pairings and colours (the explicit schedule
# of scenarios/candidates-2022.toml, from the official results); found by search and unique.
STARTING_ORDER = ["Jan-Krzysztof Duda", "Ding Liren", "Fabiano Caruana", "Teimour Radjabov",
                  "Alireza Firouzja", "Hikaru Nakamura", "Ian Nepomniachtchi", "Richárd Rapport"]


@pytest.fixture(scope="module")
def model():
    return load_model()


def toml_value(v):
    if isinstance(v, str):
        return '"' + v + '"'
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return repr(v)


def candidates_as_berger(tmp_path, convention):
    """The shipped Candidates with players in starting-number order, schedule = Berger and
    the results entered round by round."""
    raw = tomllib.loads(CAND.read_text(encoding="utf-8"))
    by = {p["name"]: p for p in raw["players"]}
    text = ('[scenario]\nname = "Candidates 2022 (Berger)"\nformat = "round-robin"\n\n'
            f'[event]\ncycles = 2\nschedule = "{convention}"\n\n')
    for name in STARTING_ORDER:
        p = by[name]
        text += f'[[players]]\nname = "{name}"\nrating = {p["rating"]}\n'
        if "aliases" in p:
            text += f"aliases = {toml_value(p['aliases'])}\n"
        text += "\n"
    for r in raw["rounds"]:
        text += f"[[rounds]]\nround = {r['round']}\ngames = {toml_value(r['games'])}\n\n"
    return write(tmp_path, f"berger-{convention}.toml", text)


def games_by_name(scn):
    return sorted((g.round, scn.players[g.white].name, scn.players[g.black].name, g.result)
                  for g in scn.games)


def test_fide_berger_order_gives_the_real_candidates_2022_pairings(tmp_path):
    # FIDE Handbook C.05 Annex 1: rounds 6 and 7 of the first cycle swapped, the second cycle
    # in the original order with colours reversed.  The real 56 games (pairings, colours,
    # results) of the explicit file come out exactly.
    real = games_by_name(load_scenario(CAND)[1])
    fide = games_by_name(load_scenario(candidates_as_berger(tmp_path, "berger"))[1])
    assert fide == real and len(real) == 56


def test_mirrored_convention_exchanges_rounds_13_and_14(tmp_path):
    # the other convention mirrors the swapped first cycle: the same games, but rounds 13 and
    # 14 exchanged, so the real results no longer fit its schedule
    with pytest.raises(ScenarioError, match="not in the Berger schedule"):
        load_scenario(candidates_as_berger(tmp_path, "berger-mirrored"))
    fide = berger_rounds(8, 2, "berger")
    mirrored = berger_rounds(8, 2, "berger-mirrored")
    assert fide[:12] == mirrored[:12]
    assert fide[12] == mirrored[13] and fide[13] == mirrored[12]


# ---- a four-player single round robin written by hand ------------------------------------------
def four(tmp_path, games, *, order=None, split="tiebreak", playoff=False, extra="", name="t.toml"):
    """A, B, C, D rated 2750, 2740, 2730, 2720; Berger single round robin (rounds: 1 A-D B-C,
    2 D-C A-B, 3 B-D C-A; FIDE C.05 table for 4).  ``games``: round -> list of results in
    table order ('*' = to play)."""
    text = ('[scenario]\nname = "four"\nformat = "round-robin"\n\n[event]\ncycles = 1\n\n'
            "[tiebreak]\n")
    if order is not None:
        text += f"order = {toml_value(order)}\n"
    if playoff:
        text += ('playoff = [[{ tied = [2, 2], kind = "match", control = "rapid-15+10" }, '
                 '{ tied = [3, 4], kind = "round-robin", control = "rapid-15+10" }]]\n')
    text += (f'\n[prizes]\nplaces = [100.0, 60.0, 20.0]\nsplit = "{split}"\n\n')
    for nm, r in zip("ABCD", (2750, 2740, 2730, 2720)):
        text += f'[[players]]\nname = "{nm}"\nrating = {r}\n\n'
    sched = berger_rounds(4, 1)
    letters = "ABCD"
    for rn, res in games.items():
        gl = [[letters[w], letters[b], x] for (w, b), x in zip(sched[rn - 1], res)]
        text += f"[[rounds]]\nround = {rn}\ngames = {toml_value(gl)}\n\n"
    return load_scenario(write(tmp_path, name, text + extra))[1]


def test_berger_table_for_four_is_fides():
    # FIDE Handbook C.05 Annex 1, 4 players: round 1 1-4 2-3, round 2 4-3 1-2, round 3 2-4 3-1
    assert [[(w + 1, b + 1) for w, b in r] for r in berger_rounds(4, 1)] == \
        [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


# Final table of the hand case below: A beats D, draws B and C (2 points); B beats C, draws A
# and D (2 points); C 1 point; D 1 point.  A and B are level on points; head-to-head (draw)
# cannot separate them; Sonneborn-Berger: A = D's 1 + (B's 2 + C's 1)/2 = 2.5, B = C's 1 +
# (A's 2 + D's 1)/2 = 2.5, level too; wins: 1 each.
LEVEL_AB = {1: ["1-0", "1-0"], 2: ["1/2-1/2", "1/2-1/2"], 3: ["1/2-1/2", "1/2-1/2"]}


def test_prizes_shared_by_points_or_by_the_tiebreak_order(tmp_path, model):
    # "points": A and B, level on points, share the money of places 1 and 2: (100 + 60)/2 =
    # 80 each; C and D, level on 1 point, share (20 + 0)/2 = 10.  "tiebreak": the same, since
    # here both pairs are level on every criterion and the table shares their places too.
    pts = {}
    for split in ("points", "tiebreak"):
        scn = four(tmp_path, LEVEL_AB, split=split, name=f"{split}.toml")
        d = RR.standings(scn, None)
        pts[split] = {p["name"]: p["prize"] for p in d["players"]}
        assert d["prize_total"] == 180.0
    assert pts["points"] == {"A": 80.0, "B": 80.0, "C": 10.0, "D": 10.0}
    # C and D: level on points (1), head-to-head drawn, SB: C = (A's 2 + D's 1)/2 = 1.5,
    # D = (B's 2 + C's 1)/2 = 1.5, wins 0 each: level on every criterion, so the tiebreak
    # order shares too; A and B likewise
    assert pts["tiebreak"] == {"A": 80.0, "B": 80.0, "C": 10.0, "D": 10.0}


def test_prizes_by_points_differ_from_the_tiebreak_order(tmp_path, model):
    # Round 1: A beats D, B beats C.  Round 2: D-C drawn, A-B drawn.  Round 3: B-D drawn,
    # C beats A.  Points: A 1.5, B 2, C 1.5, D 1.  A and C level on 1.5: head-to-head C
    # (C beat A), so by the tiebreak order C is 2nd (60) and A 3rd (20); shared by points
    # they get (60 + 20)/2 = 40 each.  B 100, D 0 either way.
    games = {1: ["1-0", "1-0"], 2: ["1/2-1/2", "1/2-1/2"], 3: ["1/2-1/2", "1-0"]}
    by_tb = four(tmp_path, games, split="tiebreak", name="tb.toml")
    by_pts = four(tmp_path, games, split="points", name="pts.toml")
    a = {p["name"]: p["prize"] for p in RR.standings(by_tb, None)["players"]}
    b = {p["name"]: p["prize"] for p in RR.standings(by_pts, None)["players"]}
    assert a == {"B": 100.0, "C": 60.0, "A": 20.0, "D": 0.0}
    assert b == {"B": 100.0, "C": 40.0, "A": 40.0, "D": 0.0}
    # simulate from the final table: every replica is the same, so expected prizes are exact
    for scn, want in ((by_tb, a), (by_pts, b)):
        res = driver.run(RR.compile(scn, model, CompileOptions()), 2000, 1, progress=False)
        got = dict(zip(res.names, res.tallies["prize"] / res.sims))
        assert got == pytest.approx(want, abs=1e-9)


def test_prize_split_by_points_kernel_twin_and_exact_agree(tmp_path, model):
    # a round still to play: the kernel, its twin and exact enumeration agree on the
    # expected prizes when level players share by points
    games = {1: ["1-0", "1-0"], 2: ["1/2-1/2", "1/2-1/2"], 3: ["*", "*"]}
    scn = four(tmp_path, games, split="points")
    plan = RR.compile(scn, model, CompileOptions())
    a = plan.run_batch(5, 0, 3000)
    b = twin.tallies(plan, 5, 0, 3000)
    assert np.allclose(a["prize"], b["prize"]) and (a["place"] == b["place"]).all()
    ex = exact_round_robin(scn, model, None)
    res = driver.run(plan, 200_000, 3, progress=False)
    for i, p in enumerate(ex["players"]):
        mean = res.tallies["prize"][i] / res.sims
        sd = np.sqrt(res.tallies["prize_sq"][i] / res.sims - mean ** 2)
        assert abs(mean - p["expected_prize"]) < 4 * sd / np.sqrt(res.sims) + 1e-9


# ---- criteria before a play-off -------------------------------------------------------------
H2H_FIRST = ["head-to-head", "wins", "sonneborn-berger", "playoff", "lots"]


def test_criteria_before_the_playoff_decide_first_without_one(tmp_path, model):
    # Round 1: A beats D, B-C drawn.  Round 2: D-C drawn, A-B: B wins.  Round 3: B-D drawn,
    # C-A: A wins.  Points: A 2, B 2, C 1, D 1.  A and B level; head-to-head B (won A-B):
    # under the 2018 rules B is first and no play-off is played; under "play-off first" a
    # play-off is always needed.
    games = {1: ["1-0", "1/2-1/2"], 2: ["1/2-1/2", "0-1"], 3: ["1/2-1/2", "0-1"]}
    crit = four(tmp_path, games, order=H2H_FIRST, playoff=True, name="crit.toml")
    assert crit.order == tuple(H2H_FIRST)
    d = RR.standings(crit, None)
    assert [p["name"] for p in d["players"]][:2] == ["B", "A"]
    assert d["players"][0]["ahead_by"] == "ahead of A on head-to-head (1-0)"
    plan = RR.compile(crit, model, CompileOptions())
    assert TB_PLAYOFF in plan.args.criteria.tolist()
    res = driver.run(plan, 5000, 1, progress=False)
    assert res.tallies["place"][1, 0] == res.sims            # B first in every replica
    assert res.counters()["play-off for first needed"]["p"] == 0.0
    first = four(tmp_path, games, order=["playoff", *H2H_FIRST[:3], "lots"], playoff=True,
                 name="first.toml")
    res2 = driver.run(RR.compile(first, model, CompileOptions()), 5000, 1, progress=False)
    assert res2.counters()["play-off for first needed"]["p"] == 1.0
    assert 0 < res2.tallies["place"][0, 0] < res2.sims        # the play-off can go either way


def test_playoff_after_criteria_kernel_twin_and_exact(tmp_path, model):
    # LEVEL_AB leaves A and B level on every criterion: the play-off decides.  With a round
    # to play, the kernel equals its twin and agrees with exact enumeration.
    games = {1: LEVEL_AB[1], 2: LEVEL_AB[2], 3: ["*", "*"]}
    scn = four(tmp_path, games, order=H2H_FIRST, playoff=True)
    plan = RR.compile(scn, model, CompileOptions())
    a = plan.run_batch(9, 0, 4000)
    b = twin.tallies(plan, 9, 0, 4000)
    assert all((a[k] == b[k]).all() for k in ("place", "qualify", "counters"))
    ex = exact_round_robin(scn, model, None)
    res = driver.run(plan, 200_000, 2, progress=False)
    n = res.sims
    for i, p in enumerate(ex["players"]):
        for k in range(4):
            q = p["p_place"][k]
            got = res.tallies["place"][i, k] / n
            assert abs(got - q) < 4 * np.sqrt(max(q * (1 - q), 1e-12) / n) + 1e-12
    c = res.counters()["play-off for first needed"]
    assert abs(c["p"] - ex["p_playoff"]) < 4 * c["se"] + 1e-12


def test_playoff_said_twice_is_refused(tmp_path):
    # playoff_places = 1 (the play-off before every criterion) and "playoff" in the order
    text = ('[scenario]\nname = "x"\nformat = "round-robin"\n[tiebreak]\nplayoff_places = 1\n'
            'order = ["playoff", "lots"]\nplayoff = [[{ tied = [2, 4], kind = "lots" }]]\n'
            '[[players]]\nname = "A"\nrating = 2700\n[[players]]\nname = "B"\nrating = 2700\n')
    with pytest.raises(ScenarioError, match="say it once"):
        load_scenario(write(tmp_path, "twice.toml", text))


# ---- ratings that change during the event ------------------------------------------------------
def test_rating_lists_from_a_round_on(tmp_path, model):
    # From round 3 on (e.g. an event resumed a year later) A is rated 2600 instead of 2750:
    # the round-3 game C-A uses the new rating, rounds 1-2 the old one; the twin agrees.
    extra = '[[ratings]]\nfrom_round = 3\nratings = { "A" = 2600 }\nsource = "a test list"\n'
    scn = four(tmp_path, {}, extra=extra)
    odds = {(g["round"], g["white"], g["black"]): (g["p_white"], g["p_draw"])
            for g in RR.odds(scn, model, "start")["games"]}
    assert odds[(3, "C", "A")] == pytest.approx(model.wdl("classical", 2730, 2600)[:2])
    assert odds[(2, "A", "B")] == pytest.approx(model.wdl("classical", 2750, 2740)[:2])
    plan = RR.compile(scn, model, CompileOptions(at="start"))
    assert plan.args.gseg.tolist() == [0, 0, 0, 0, 1, 1]
    a = plan.run_batch(4, 0, 3000)
    b = twin.tallies(plan, 4, 0, 3000)
    assert (a["place"] == b["place"]).all()
    off = RR.compile(scn, model, CompileOptions(at="start", offsets=True))
    assert (off.run_batch(4, 0, 2000)["place"] == twin.tallies(off, 4, 0, 2000)["place"]).all()
    # A's chances fall with the lower rating
    base = driver.run(RR.compile(four(tmp_path, {}, name="b.toml"), model, CompileOptions()),
                      50_000, 1, progress=False)
    new = driver.run(plan, 50_000, 1, progress=False)
    assert new.tallies["place"][0, 0] < base.tallies["place"][0, 0]


@pytest.mark.parametrize("extra, words", [
    ('[[ratings]]\nfrom_round = 1\nratings = { "A" = 2600 }\n', "increasing rounds"),
    ('[[ratings]]\nfrom_round = 9\nratings = { "A" = 2600 }\n', "increasing rounds"),
    ('[[ratings]]\nfrom_round = 2\nratings = { "Z" = 2600 }\n', "unknown player"),
    ('[[ratings]]\nfrom_round = 2\nratings = { "A" = nan }\n', "finite"),
])
def test_bad_rating_lists_are_refused(tmp_path, extra, words):
    with pytest.raises(ScenarioError, match=words):
        four(tmp_path, {}, extra=extra)
