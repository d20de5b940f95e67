"""The Swiss format: the shipped Grand Swiss 2025 (open) standings after each of rounds 1-8
(points and every tie-break value: hand-checked for a few players, cross-checked for all
against tiebreak-core), loading errors, and the kernel's event (points conserved, the
published rounds kept)."""

from __future__ import annotations

import numpy as np
import pytest

from simcycle.errors import ScenarioError
from simcycle.formats.swiss import rules
from simcycle.scenario import load_data, load_scenario

SCN = "grand-swiss-2025"


@pytest.fixture(scope="module")
def gs():
    return load_scenario(SCN)


def row(d, name):
    return next(p for p in d["players"] if p["name"] == name)


def test_checkpoints_and_shape(gs):
    fmt, scn = gs
    assert len(scn.players) == 116 and scn.n_rounds == 11 and scn.qualifying_places == 2
    assert fmt.checkpoints(scn) == ["start"] + [f"round{r}" for r in range(1, 9)]
    assert scn.order == ("aro-cut1", "buchholz-cut1", "buchholz", "direct-encounter", "lots")


def test_round8_hand_checked(gs):
    """Ratings of the start list; points after round 8 (from the shipped rounds)."""
    fmt, scn = gs
    d = fmt.standings(scn, "round8")
    b = row(d, "Bluebaum, Matthias")
    # Bluebaum's opponents: Predke 2609 (4), Lagarde 2609 (4), Hammer 2618 (2),
    # Henriquez Villagra 2594 (4), Praggnanandhaa 2785 (5), Mishra 2611 (5.5),
    # Erigaisi 2771 (5), Nihal Sarin 2693 (6).
    # ARO-C1: without 2594, (2609+2609+2618+2785+2611+2771+2693) / 7 = 18696 / 7 = 2670.86
    # -> 2671.  BH: 4+4+2+4+5+5.5+5+6 = 35.5; BH-C1 without Hammer's 2: 33.5.
    assert b["points"] == 6 and b["tiebreaks"]["aro-cut1"] == 2671
    assert b["tiebreaks"]["buchholz"] == 35.5 and b["tiebreaks"]["buchholz-cut1"] == 33.5
    s = row(d, "Nihal Sarin")
    # Nihal Sarin: Svane R 2620 (3), Hakobyan 2625 (4.5), Kuzubov 2600 (4), Pranav 2596 (5),
    # Mendonca 2615 (4), Gumularz 2590 (4), Maghsoodloo 2692 (5.5), Bluebaum 2671 (6).
    # ARO-C1: without 2590, 18419 / 7 = 2631.29 -> 2631.  BH: 36; BH-C1 without 3: 33.
    assert s["points"] == 6 and s["tiebreaks"]["aro-cut1"] == 2631
    assert s["tiebreaks"]["buchholz"] == 36 and s["tiebreaks"]["buchholz-cut1"] == 33
    g = row(d, "Giri, Anish")
    # Giri: Hovhannisyan 2629 (3.5), Salem 2640 (4), Svane F 2643 (3), Cheparinov 2627 (4),
    # Oparin 2660 (4.5), Maurizzi 2610 (5), Mishra 2611 (5.5), Maghsoodloo 2692 (5.5).
    # ARO-C1: without 2610, 18502 / 7 = 2643.14 -> 2643.  BH: 35; BH-C1 without 3: 32.
    assert g["points"] == 5.5 and g["tiebreaks"]["aro-cut1"] == 2643
    assert g["tiebreaks"]["buchholz"] == 35 and g["tiebreaks"]["buchholz-cut1"] == 32
    # both on 6 points: Bluebaum first on ARO-C1 (2671 v 2631); both in a qualifying place
    assert [p["name"] for p in d["players"][:2]] == ["Bluebaum, Matthias", "Nihal Sarin"]
    assert d["players"][0]["in_qualifying_place"] and d["players"][1]["in_qualifying_place"]


@pytest.mark.parametrize("rnd", range(1, 9))
def test_every_player_against_tiebreak_core(gs, rnd):
    """After each round: points, ARO-C1, BH-C1 and BH of all 116 players equal tiebreak-core's
    fide-2024 computation, and the order is points, then those criteria."""
    m = pytest.importorskip("tiebreak_core.models")
    fide2024 = pytest.importorskip("tiebreak_core.fide2024")
    fmt, scn = gs
    d = fmt.standings(scn, f"round{rnd}")
    t = rules.crosstable(scn, rnd)
    players = {}
    for i, p in enumerate(scn.players):
        games = [m.GameRecord(opponent_id=int(t.opp[i, r]),
                              opponent_rating=int(t.rating[t.opp[i, r]]),
                              score=t.res[i, r] / 2,
                              color="white" if t.colour[i, r] == 1 else "black",
                              round_number=r + 1, kind=m.PLAYED) for r in range(rnd)]
        players[i] = m.PlayerTiebreakData(player_id=i, rating=int(t.rating[i]),
                                          points=float(t.res[i, :rnd].sum()) / 2, games=games)
    by = {p["name"]: p for p in d["players"]}
    for i, p in enumerate(scn.players):
        r = by[p.name]
        assert r["points"] == players[i].points
        for ours, theirs in (("aro-cut1", "aro_cut1"), ("buchholz-cut1", "buchholz_cut1"),
                             ("buchholz", "buchholz")):
            assert r["tiebreaks"][ours] == fide2024.calculate(players[i], players, theirs,
                                                              rnd), (p.name, ours)
    keys = [(-r["points"], -r["tiebreaks"]["aro-cut1"], -r["tiebreaks"]["buchholz-cut1"],
             -r["tiebreaks"]["buchholz"]) for r in d["players"]]
    assert keys == sorted(keys)


def test_start_standings_all_level(gs):
    fmt, scn = gs
    d = fmt.standings(scn, "start")
    assert d["rounds_played"] == 0 and all(p["points"] == 0 for p in d["players"])
    assert all(p["shared"] for p in d["players"])


def test_render_shows_every_tiebreak(gs):
    fmt, scn = gs
    text = fmt.render_standings(fmt.standings(scn, "round8"))
    for col in ("ARO-C1", "BH-C1", "BH", "DE"):
        assert col in text
    assert "Bluebaum" in text.splitlines()[4]


def test_qualifiers_pass_down():
    # order 3, 0, 1, 2 with player 0 already qualified: places go to 3 and 1
    assert rules.qualifiers([3, 0, 1, 2], [True, False, False, False], 2, True) == [3, 1]
    assert rules.qualifiers([3, 0, 1, 2], [True, False, False, False], 2, False) == [3, 0]


def tiny(**over):
    raw = {"scenario": {"name": "tiny", "format": "swiss"},
           "event": {"rounds": 3},
           "players": [{"name": n, "rating": r} for n, r in
                       (("A", 2600), ("B", 2500), ("C", 2400), ("D", 2300))],
           "rounds": [{"round": 1, "games": [["C", "A", "0-1"], ["B", "D", "1/2-1/2"]]}]}
    raw.update(over)
    return raw


def test_paired_twice_refused():
    raw = tiny(rounds=[{"round": 1, "games": [["C", "A", "0-1"], ["A", "D", "1-0"]]}])
    with pytest.raises(ScenarioError, match="paired twice in round 1") as e:
        load_data(raw, "t.toml")
    assert "rounds[0].games[1]" in str(e.value)


def test_unknown_player_and_bad_result_refused():
    with pytest.raises(ScenarioError, match="unknown player"):
        load_data(tiny(rounds=[{"round": 1, "games": [["X", "A", "0-1"],
                                                       ["B", "D", "1-0"]]}]), "t.toml")
    with pytest.raises(ScenarioError, match="result must be"):
        load_data(tiny(rounds=[{"round": 1, "games": [["C", "A", "2-0"],
                                                       ["B", "D", "1-0"]]}]), "t.toml")
    with pytest.raises(ScenarioError, match="every player needs a game or a bye"):
        load_data(tiny(rounds=[{"round": 1, "games": [["C", "A", "0-1"]]}]), "t.toml")


def test_byes_and_forfeits_in_standings():
    raw = tiny(players=[{"name": n, "rating": r} for n, r in
                        (("A", 2600), ("B", 2500), ("C", 2400), ("D", 2300), ("E", 2200))],
               rounds=[{"round": 1, "games": [["C", "A", "0-1"], ["B", "D", "-+"]],
                        "byes": [["E", "U"]]}])
    fmt, scn = load_data(raw, "t.toml")
    d = fmt.standings(scn, "round1")
    pts = {p["name"]: p["points"] for p in d["players"]}
    assert pts == {"A": 1, "B": 0, "C": 0, "D": 1, "E": 1}
    # D won by forfeit: his Buchholz counts a dummy with his own point (C.07 16.4)
    assert row(d, "D")["tiebreaks"]["buchholz"] == 1
    assert row(d, "A")["tiebreaks"]["buchholz"] == 0


def test_simulated_event_keeps_points_and_published_rounds(gs):
    """Plain use of the kernel's stage: each replica scores 58 games a round."""
    from simcycle.formats.swiss.nb import play_swiss_nb, work_nb
    from simcycle.kernels.dutch_nb import pair_scratch
    from simcycle.model import load_model
    fmt, scn = gs
    model = load_model(None).for_kind(scn.kind)
    plan = fmt.compile(scn, model, __import__("simcycle.formats.base", fromlist=["x"])
                       .CompileOptions(at="round8"))
    a = plan.args
    w = work_nb(116, 11)
    ps = pair_scratch(116)
    st = np.array([12345], np.uint64)
    flags = np.zeros(2, np.int64)
    play_swiss_nb(a, a.gthr, w, ps, st, flags)
    assert w.t.pts.sum() == 2 * 58 * 11
    assert (w.t.opp[:, :8] == a.base_opp[:, :8]).all()
    # no rematch in rounds 9-11, every player paired once a round
    for r in range(8, 11):
        assert sorted(w.t.opp[:, r]) == list(range(116))
        for i in range(116):
            assert w.t.opp[i, r] not in w.t.opp[i, :r]
    assert sorted(w.order) == list(range(116))


def test_simulated_event_ranks_by_the_scenario_tiebreaks(gs):
    """The kernel's final order of a simulated event is the standings' order of its
    crosstable under the scenario's tie-breaks (ARO-C1 first: the start list's ratings), as
    the shared ranker gives it from a crosstable built here; only players it leaves level
    (lots) may come in another order.  (Until 2026-12-02 the event's crosstable had no
    ratings, so ARO-C1 was 0 for all and BH-C1 decided.)"""
    from simcycle.formats.base import CompileOptions
    from simcycle.formats.swiss.nb import play_swiss_nb, work_nb
    from simcycle.kernels.criteria_nb import Crosstable, adjusted_nb, rank_criteria_nb
    from simcycle.kernels.dutch_nb import pair_scratch
    from simcycle.model import load_model
    fmt, scn = gs
    plan = fmt.compile(scn, load_model(None).for_kind(scn.kind), CompileOptions(at="round8"))
    a = plan.args
    n = 116
    assert a.rating.min() > 2000
    w = work_nb(n, 11)
    ps = pair_scratch(n)
    flags = np.zeros(2, np.int64)
    split_by_aro = 0
    for seed in range(1, 9):
        st = np.array([seed * 7919], np.uint64)
        play_swiss_nb(a, a.gthr, w, ps, st, flags)
        t = Crosstable(w.t.opp.copy(), w.t.res.copy(), w.t.kind.copy(), w.t.colour.copy(),
                       np.zeros(n, np.int64), np.zeros(n, np.int64), a.rating.copy())
        adjusted_nb(t, 11)
        order, brk = np.empty(n, np.int64), np.empty(n, np.int64)
        rank_criteria_nb(t, 11, a.criteria, order, brk, np.empty(n, np.int64),
                         np.empty(n, np.int64), np.empty(n, np.int64),
                         np.zeros(1, np.uint64), False)
        seg = np.cumsum(brk)          # the level group of each place
        group_of = np.empty(n, np.int64)
        group_of[order] = seg
        assert (group_of[w.order] == seg).all(), seed
        # players level on points whom the tie-breaks separate: the check has teeth
        pts = t.pts[order]
        split_by_aro += int(((pts[1:] == pts[:-1]) & (brk[1:] == 1)).sum())
    assert split_by_aro > 20


def _budgets_nested(m, lower, big, f0, g0, float_tries, float2_tries):
    """The pairing's budget attempts of a bracket written as the nested loops they were until
    2026-12-05 (floaters, then colour budgets, then the attempts at each), for the test below:
    (floaters, colour conflicts, repeated floats, from two rounds before, exchanges)."""
    per_f = 2 * float2_tries + 2
    n_a = float_tries * per_f + 2 * float2_tries + 1
    out = []
    nf = m % 2
    while nf <= (m if lower else m % 2):
        lo = max((2 * big - m - nf + 1) // 2, 0)
        for v in range(lo, m // 2 + 1):
            looser = v > lo + 2
            for a in range(n_a + (1 if looser else 0)):
                if a >= n_a:
                    out.append((nf, m, m, m, True))
                    continue
                fi, b = divmod(a, per_f)
                ff = f0 + fi if fi < float_tries else m
                gg = g0 + b // 2 if b // 2 < float2_tries else m
                out.append((nf, v, ff, gg, b % 2 == 1 or (ff >= m and gg >= m)))
            if looser:
                break
        nf += 2
    return out


def test_search_tries_the_budgets_in_the_nested_order():
    """``dutch_nb.search_nb`` walks its budget attempts with ``next_budget_nb`` and
    ``budget_nb`` in one loop (its arrays taken once a bracket): the same attempts in the
    same order as the nested loops, for every bracket size, colour split and float count."""
    from simcycle.kernels import dutch_nb as dn
    nxt, budget, floor = dn.next_budget_nb.py_func, dn.budget_nb.py_func, dn.colour_floor_nb
    for m in range(1, 14):
        for big in range(m + 1):
            for lower in (False, True):
                for f0, g0 in ((0, 0), (1, 0), (2, 1)):
                    got = []
                    nf, v, att = m % 2, floor.py_func(big, m, m % 2), 0
                    while nf >= 0:
                        if v <= m // 2:
                            got.append((nf, *budget(att, v, m, f0, g0)))
                        nf, v, att = nxt(nf, v, att, m, lower, big)
                    want = _budgets_nested(m, lower, big, f0, g0, dn.FLOAT_TRIES,
                                           dn.FLOAT2_TRIES)
                    assert got == want, (m, big, lower, f0, g0)


def test_fix_a_published_board():
    """--fix: a board of the round after the checkpoint is forced in every replica; other
    rounds, other pairs and the wrong colours are refused in one line."""
    from simcycle.enums import WHITE_WINS
    from simcycle.formats.base import CompileOptions
    from simcycle.model import load_model
    fmt, scn = load_data(tiny(), "t.toml")
    fixed = fmt.parse_fix(scn, "r1 C - A 1-0", "start", "--fix")
    assert fixed == {(1, 2, 0): WHITE_WINS}
    assert fmt.describe_fix(scn, fixed) == ["round 1: C - A 1-0"]
    for text, why in (("r2 C - A 1-0", "only round 1's boards"),
                      ("A - C 0-1", "C has White against A"),
                      ("C - B 1-0", "not paired in round 1")):
        with pytest.raises(ScenarioError, match=why):
            fmt.parse_fix(scn, text, "start", "--fix")
    with pytest.raises(ScenarioError, match="round 2 is not paired yet"):
        fmt.parse_fix(scn, "C - A 1-0", "round1", "--fix")
    model = load_model(None).for_kind(scn.kind)
    plan = fmt.compile(scn, model, CompileOptions(at="start", fixed=fixed))
    free = fmt.compile(scn, model, CompileOptions(at="start"))
    board = [(w, b) for w, b in zip(plan.args.fixed_w, plan.args.fixed_b)].index((2, 0))
    assert plan.args.fixed_res[board] == WHITE_WINS and free.args.fixed_res[board] == -1
    # C (2400) beats A (2600) in round 1 of every replica: at least 1 point each time, and
    # more on average than when round 1 is played out (fixed seed, 2,000 replicas each)
    pts = plan.run_batch(7, 0, 2000)["points"] / 2000 / 2
    unfixed = free.run_batch(7, 0, 2000)["points"] / 2000 / 2
    assert pts[2] >= 1 and pts[2] - unfixed[2] > 0.3


def test_swing_of_the_published_boards():
    """swing: the round after the checkpoint, each board's three results on common random
    numbers; A (2600) winning round 1 against C makes first place likelier than losing it."""
    from simcycle.model import load_model
    fmt, scn = load_data(tiny(), "t.toml")
    model = load_model(None).for_kind(scn.kind)
    d = fmt.swing(scn, model, "start", sims=2048, seed=3)
    assert d["round"] == 1 and d["sims"] == 2048
    assert {(g["white"], g["black"]) for g in d["games"]} == {("C", "A"), ("B", "D")}
    g = next(g for g in d["games"] if g["white"] == "C")
    a = next(p for p in g["players"] if p["name"] == "A")
    assert a["p_first"]["0-1"] > a["p_first"]["1-0"] + 0.1
    assert "C - A" in fmt.render_swing(d) or "C – A" in fmt.render_swing(d)
    with pytest.raises(ScenarioError, match="round 2 is not paired yet"):
        fmt.swing(scn, model, "round1", sims=512, seed=3)
