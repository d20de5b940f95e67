"""The cycle format: events chained into a final (formats/cycle).

* a tiny cycle (two 4-player round robins into a 4-player final) by exact enumeration against
  the Monte Carlo, within 3 standard errors;
* the seat allocation (``rules.allocate``, the plain-Python twin of ``nb.allocate_nb``) case by
  case: a qualifier already seated, two paths to one player, a withdrawal, a chain that runs dry
  to its last link; and the kernel's seat tallies against the twin where the parts are decided;
* the shipped cycle-2022 against its parts: after the Grand Prix P(win the Candidates) equals
  candidates-2022 from its start, before it P(in) equals the Grand Prix's P(qualify); fixed seats
  are certain, P(in) sums to 8 and P(win) to 1;
* bad cycle files exit 2 with one line naming the file, the key and the value.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from simcycle import driver
from simcycle.cli import main
from simcycle.formats.base import CompileOptions
from simcycle.model import load_model
from simcycle.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent

# ---- a tiny cycle -----------------------------------------------------------------------------
# Round robins of four with FIDE's Berger table for 4 players (Handbook C.05 Annex 1): rounds
# (1-4, 2-3), (4-3, 1-2), (2-4, 3-1).  Points, then lots (no play-off): easy to enumerate.
BERGER4 = [[(0, 3), (1, 2)], [(3, 2), (0, 1)], [(1, 3), (2, 0)]]


def rr_file(name, players, ratings):
    lines = ["[scenario]", f'name = "{name}"', 'format = "round-robin"', "",
             "[event]", "qualifying_places = 1", "", "[tiebreak]", 'order = ["lots"]', ""]
    for p, r in zip(players, ratings):
        lines += ["[[players]]", f'name = "{p}"', f"rating = {r}", ""]
    for k, rnd in enumerate(BERGER4):
        lines += ["[[rounds]]", f"round = {k + 1}", "games = ["]
        lines += [f'  ["{players[w]}", "{players[b]}", "*"],' for w, b in rnd]
        lines += ["]", ""]
    return "\n".join(lines)


TINY_SEATS = """
[[seats]]
id = "a-winner"
path = "event A"
chain = [ { event = "a", place = 1 }, { event = "a", best = true } ]

[[seats]]
id = "b-winner"
path = "event B"
chain = [ { event = "b", place = 1 }, { event = "b", best = true } ]

[[seats]]
id = "a-next"
path = "event A"
chain = [ { event = "a", best = true } ]

[[seats]]
id = "b-next"
path = "event B"
chain = [ { event = "b", best = true } ]
"""


def write_tiny(tmp_path, seats=TINY_SEATS, extra=""):
    # Shared plays both events (two paths to one player); the final lists two of its players.
    (tmp_path / "a.toml").write_text(rr_file("A", ["Shared", "A2", "A3", "A4"],
                                             [2750, 2700, 2650, 2600]))
    (tmp_path / "b.toml").write_text(rr_file("B", ["Shared", "B2", "B3", "B4"],
                                             [2750, 2720, 2640, 2580]))
    (tmp_path / "f.toml").write_text(rr_file("F", ["Shared", "A2", "B2", "B3"],
                                             [2750, 2700, 2720, 2640]))
    text = "\n".join(['[scenario]', 'name = "tiny cycle"', 'format = "cycle"', "",
                      "[[events]]", 'id = "a"', 'scenario = "a.toml"', "",
                      "[[events]]", 'id = "b"', 'scenario = "b.toml"', "",
                      "[final]", 'id = "final"', 'scenario = "f.toml"', seats, extra])
    p = tmp_path / "cycle.toml"
    p.write_text(text)
    return p


def order_distribution(probs, n=4):
    """{order (best first): probability} of a single round robin of n players whose games are
    ``probs`` [(white, black, (pw, pd, pb))], ranked by points then lots (uniform)."""
    out: dict[tuple, float] = {}
    for res in itertools.product(range(3), repeat=len(probs)):
        p = 1.0
        pts = [0] * n
        for (w, b, wdl), r in zip(probs, res):
            p *= wdl[r]
            if r == 0:
                pts[w] += 2
            elif r == 2:
                pts[b] += 2
            else:
                pts[w] += 1
                pts[b] += 1
        groups = [sorted(i for i in range(n) if pts[i] == v)
                  for v in sorted(set(pts), reverse=True)]
        perms = [list(itertools.permutations(g)) for g in groups]
        share = p / np.prod([len(x) for x in perms])
        for combo in itertools.product(*perms):
            o = tuple(i for g in combo for i in g)
            out[o] = out.get(o, 0.0) + share
    return out


def event_probs(scn, model):
    from simcycle.formats.roundrobin.exact import game_probabilities
    games = list(scn.games)
    return [(g.white, g.black, wdl) for g, wdl in zip(games, game_probabilities(scn, model, games))]


def exact_tiny(cyc, plan, model):
    """P(in the final), P(win it) of every pool player, exactly."""
    from simcycle.formats.cycle import rules

    pool = {p.name: i for i, p in enumerate(cyc.players)}
    dists = []
    for part in cyc.events:
        m = model.for_kind(part.scn.kind)
        d = order_distribution(event_probs(part.scn, m))
        dists.append({tuple(pool[part.scn.players[i].name] for i in o): p for o, p in d.items()})
    fin = cyc.final.scn
    fmodel = model.for_kind(fin.kind)
    rt = plan.c.pool_rt[0, :, 0]
    memo: dict[tuple, np.ndarray] = {}
    p_in = np.zeros(len(cyc.players))
    p_win = np.zeros(len(cyc.players))
    for (oa, pa), (ob, pb) in itertools.product(dists[0].items(), dists[1].items()):
        seats = rules.allocate(cyc, [list(oa), list(ob)], set())
        field = [p for p, _ in seats]
        slots = tuple(rules.start_numbers(cyc, field))
        if slots not in memo:
            probs = [(g.white, g.black, fmodel.wdl(fin.control, rt[slots[g.white]],
                                                   rt[slots[g.black]])) for g in fin.games]
            win = np.zeros(len(slots))
            for o, q in order_distribution(probs).items():
                win[o[0]] += q
            memo[slots] = win
        for k, p in enumerate(slots):
            p_in[p] += pa * pb
            p_win[p] += pa * pb * memo[slots][k]
    return p_in, p_win


@pytest.fixture(scope="module")
def model():
    return load_model(None)


def test_tiny_cycle_exact_against_monte_carlo(tmp_path, model):
    fmt, cyc = load_scenario(write_tiny(tmp_path))
    plan = fmt.compile(cyc, model, CompileOptions(at="start"))
    p_in, p_win = exact_tiny(cyc, plan, model)
    assert abs(p_in.sum() - 4) < 1e-9 and abs(p_win.sum() - 1) < 1e-9
    res = driver.run(plan, 200_000, 7, progress=False)
    n = res.sims
    mc_in = res.tallies["qualify"] / n
    mc_win = res.tallies["place"][:, 0] / n
    for i, p in enumerate(cyc.players):
        for mc, ex in ((mc_in[i], p_in[i]), (mc_win[i], p_win[i])):
            se = np.sqrt(max(ex * (1 - ex), 1e-12) / n)
            assert abs(mc - ex) <= 3 * se + 1e-12, (p.name, mc, ex, se)
    # every replica seats four and crowns one
    assert res.tallies["qualify"].sum() == 4 * n
    assert res.tallies["place"][:, 0].sum() == n


# ---- the seat allocation, case by case (the plain-Python twin) ---------------------------------
def _tiny(tmp_path, **kw):
    fmt, cyc = load_scenario(write_tiny(tmp_path, **kw))
    ids = {p.name: i for i, p in enumerate(cyc.players)}
    return cyc, ids


def names(cyc, seats):
    return [cyc.players[p].name if p >= 0 else None for p, _ in seats]


def test_qualifier_already_seated_passes_down(tmp_path):
    from simcycle.formats.cycle.rules import allocate
    cyc, ids = _tiny(tmp_path)
    a = [ids[x] for x in ("Shared", "A2", "A3", "A4")]
    b = [ids[x] for x in ("Shared", "B2", "B3", "B4")]
    seats = allocate(cyc, [a, b], set())
    # Shared wins both: seat b-winner's "place 1 only" fails, its chain's next link takes B2
    assert names(cyc, seats) == ["Shared", "B2", "A2", "B3"]
    assert [j for _, j in seats] == [0, 1, 0, 0]


def test_two_paths_to_one_player(tmp_path):
    from simcycle.formats.cycle.rules import allocate
    cyc, ids = _tiny(tmp_path)
    a = [ids[x] for x in ("A2", "Shared", "A3", "A4")]
    b = [ids[x] for x in ("B2", "Shared", "B3", "B4")]
    seats = allocate(cyc, [a, b], set())
    # Shared is second in both: a-next takes him, so b-next passes to B3
    assert names(cyc, seats) == ["A2", "B2", "Shared", "B3"]


def test_withdrawal_passes_down(tmp_path):
    from simcycle.formats.cycle.rules import allocate
    cyc, ids = _tiny(tmp_path)
    a = [ids[x] for x in ("A2", "Shared", "A3", "A4")]
    b = [ids[x] for x in ("B2", "B3", "Shared", "B4")]
    seats = allocate(cyc, [a, b], {ids["A2"]})
    # A2 withdrawn: a-winner's "place 1 only" yields nobody, its next link the best of A not
    # seated (Shared); a-next passes to A3
    assert names(cyc, seats) == ["Shared", "B2", "A3", "B3"]
    assert [j for _, j in seats] == [1, 0, 0, 0]


def test_chain_runs_dry_to_its_fallback(tmp_path):
    from simcycle.formats.cycle.rules import allocate
    seats_text = TINY_SEATS.replace(
        'chain = [ { event = "a", place = 1 }, { event = "a", best = true } ]',
        'chain = [ { event = "a", place = 1 } ]\nfallback = "a-next"')
    cyc, ids = _tiny(tmp_path, seats=seats_text)
    a = [ids[x] for x in ("A2", "Shared", "A3", "A4")]
    b = [ids[x] for x in ("B2", "B3", "Shared", "B4")]
    seats = allocate(cyc, [a, b], {ids["A2"]})
    # a-winner's own chain runs dry; its fallback (a-next's chain) takes Shared
    assert names(cyc, seats) == ["Shared", "B2", "A3", "B3"]
    assert [j for _, j in seats] == [1, 0, 0, 0]


# ---- the shipped cycle-2022 against its parts --------------------------------------------------
def sim(scenario, at, sims=60_000, seed=11):
    r = CliRunner().invoke(main, ["simulate", str(scenario), "--at", at, "--sims", str(sims),
                                  "--seed", str(seed), "--json"])
    assert r.exit_code == 0, r.output
    return {p["name"]: p for p in json.loads(r.output)["players"]}, json.loads(r.output)


def test_cycle_2022_after_the_grand_prix_is_the_candidates():
    cyc, d = sim(ROOT / "scenarios" / "cycle-2022.toml", "gp-event3")
    cand, _ = sim(ROOT / "scenarios" / "candidates-2022.toml", "start", seed=12)
    n = d["sims"]
    for name, c in cand.items():
        p = cyc[name]
        assert p["p_qualify"] == 1.0                  # the field is the real one
        se = np.hypot(p["se_p_first"], c["se_p_first"])
        assert abs(p["p_first"] - c["p_first"]) <= 3 * se, (name, p["p_first"], c["p_first"])
    assert sum(p["p_qualify"] for p in cyc.values()) == pytest.approx(8.0, abs=1e-9)
    assert sum(p["p_first"] for p in cyc.values()) == pytest.approx(1.0, abs=1e-9)
    assert n == 60_000
    # who filled each seat, as [W]'s table "Forma de clasificación" says: the Grand Prix's
    # winner and runner-up, Ding for Karjakin by the May 2022 list
    assert cyc["Hikaru Nakamura"]["p_seat_grand_prix_1"] == 1.0
    assert cyc["Richárd Rapport"]["p_seat_grand_prix_2"] == 1.0
    assert cyc["Ding Liren"]["p_seat_world_cup_2"] == 1.0
    assert cyc["Ding Liren"]["p_via_rating_list_2022_05"] == 1.0
    assert cyc["Sergey Karjakin"]["p_qualify"] == 0.0


def test_cycle_2022_before_the_grand_prix_ends():
    at = "event2-round3"
    cyc, d = sim(ROOT / "scenarios" / "cycle-2022.toml", "gp-" + at)
    gp, _ = sim(ROOT / "scenarios" / "grand-prix-2022.toml", at, seed=12)
    for name in ("Ian Nepomniachtchi", "Teimour Radjabov", "Jan-Krzysztof Duda",
                 "Alireza Firouzja", "Fabiano Caruana", "Sergey Karjakin"):
        assert cyc[name]["p_qualify"] == 1.0          # fixed seats (Karjakin not yet banned)
    _, scn = load_scenario(ROOT / "scenarios" / "cycle-2022.toml")
    pool = {a: p.name for p in scn.players for a in (p.name, *p.aliases)}
    for name, g in gp.items():
        p = cyc[pool[name]]     # the Candidates file's spelling ("Richárd Rapport")
        se = np.hypot(p["se_p_qualify"], g["se_p_qualify"])
        assert abs(p["p_qualify"] - g["p_qualify"]) <= 3 * se + 1e-12, (name, p, g)
        assert p["p_seat_grand_prix_1"] + p["p_seat_grand_prix_2"] == pytest.approx(
            p["p_qualify"], abs=1e-12)
    assert sum(p["p_qualify"] for p in cyc.values()) == pytest.approx(8.0, abs=1e-9)
    assert sum(p["p_first"] for p in cyc.values()) == pytest.approx(1.0, abs=1e-9)


def test_cycle_2022_vacancy_goes_by_rating():
    cyc, _ = sim(ROOT / "scenarios" / "cycle-2022.toml", "gp-event3-round1", sims=20_000)
    assert cyc["Sergey Karjakin"]["p_qualify"] == 0.0
    seat = sum(p["p_seat_world_cup_2"] for p in cyc.values())
    assert seat == pytest.approx(1.0, abs=1e-12)
    # Ding takes the vacancy unless the Grand Prix seats him first
    ding = cyc["Ding Liren"]
    assert ding["p_qualify"] == pytest.approx(1.0, abs=1e-12)
    assert ding["p_via_rating_list_2022_05"] + ding["p_via_grand_prix_2022"] == pytest.approx(
        1.0, abs=1e-12)


# ---- the shipped cycle-2020 (a knock-out series into the final): cheap, few simulations --------
FIXED_2020 = ("Fabiano Caruana", "Ding Liren", "Wang Hao", "Anish Giri", "Kirill Alekseenko")


def test_cycle_2020_before_the_grand_prix_ends():
    at = "event3"
    cyc, _ = sim(ROOT / "scenarios" / "cycle-2020.toml", "gp-" + at, sims=4_000)
    gp, _ = sim(ROOT / "scenarios" / "grand-prix-2019.toml", at, sims=4_000, seed=12)
    for name in (*FIXED_2020, "Teimour Radjabov"):   # Radjabov's withdrawal not yet known
        assert cyc[name]["p_qualify"] == 1.0
    compared = 0
    for name, g in gp.items():
        if g["qualified_elsewhere"]:                  # Radjabov, Giri: fixed seats above
            continue
        p = cyc[name]
        se = np.hypot(p["se_p_qualify"], g["se_p_qualify"])
        assert abs(p["p_qualify"] - g["p_qualify"]) <= 3 * se + 1e-12, (name, p, g)
        assert p["p_seat_grand_prix_1"] + p["p_seat_grand_prix_2"] == pytest.approx(
            p["p_qualify"], abs=1e-12)
        compared += 0 < g["p_qualify"] < 1
    assert compared >= 3                              # the race is still open after Hamburg
    assert sum(p["p_qualify"] for p in cyc.values()) == pytest.approx(8.0, abs=1e-9)
    assert sum(p["p_first"] for p in cyc.values()) == pytest.approx(1.0, abs=1e-9)


def test_cycle_2020_after_the_grand_prix_is_the_candidates():
    cyc, _ = sim(ROOT / "scenarios" / "cycle-2020.toml", "gp-event4", sims=4_000)
    cand, _ = sim(ROOT / "scenarios" / "candidates-2020.toml", "start", sims=4_000, seed=12)
    for name, c in cand.items():                      # the real field: [W]'s qualifiers
        p = cyc[name]
        assert p["p_qualify"] == 1.0, name
        se = np.hypot(p["se_p_first"], c["se_p_first"])
        assert abs(p["p_first"] - c["p_first"]) <= 3 * se, (name, p["p_first"], c["p_first"])
    # Radjabov withdrawn: the reserve rule seats Vachier-Lagrave (3rd, not a Grand Prix seat)
    assert cyc["Teimour Radjabov"]["p_qualify"] == 0.0
    assert cyc["Maxime Vachier-Lagrave"]["p_seat_world_cup_1"] == 1.0
    assert cyc["Alexander Grischuk"]["p_seat_grand_prix_1"] == 1.0
    assert cyc["Ian Nepomniachtchi"]["p_seat_grand_prix_2"] == 1.0
    assert cyc["Kirill Alekseenko"]["p_via_nominee_wild_card"] == 1.0
    assert sum(p["p_qualify"] for p in cyc.values()) == pytest.approx(8.0, abs=1e-9)
    assert sum(p["p_first"] for p in cyc.values()) == pytest.approx(1.0, abs=1e-9)


def test_knockout_placeholder_has_the_real_numba_type():
    """A cycle without a knock-out series passes a placeholder of the real record's numba
    type, so both shipped cycles (and every test) run one kernel specialisation."""
    import numba

    from simcycle.formats.cycle.plan import _ko_placeholder

    model = load_model(None)
    fmt, scn = load_scenario(ROOT / "scenarios" / "grand-prix-2019.toml")
    real = fmt.compile(scn, model, CompileOptions(at="event3")).args
    assert numba.typeof(_ko_placeholder(real.params)) == numba.typeof(real)


def test_final_record_rebuilt_field_by_field():
    """``nb.own_gthr_nb`` rebuilds the final's RoundRobinArgs positionally: every field in
    order (run as plain Python here: no compile)."""
    from simcycle.formats.cycle.nb import own_gthr_nb

    fmt, scn = load_scenario(ROOT / "scenarios" / "cycle-2022.toml")
    fa = fmt.compile(scn, load_model(None), CompileOptions(at="gp-event3")).fa
    gthr = np.full((fa.gw.shape[0], 2), 0.5)
    got = own_gthr_nb.py_func(fa, gthr)
    want = fa._replace(gthr=gthr)
    assert got._fields == want._fields
    for name, x, y in zip(want._fields, got, want):
        assert x is y or np.array_equal(x, y), name


def test_final_thresholds_from_the_pool_table_are_the_live_formula():
    """The final's games read their thresholds by player id from the pool's table; the live
    path (offsets, hot Elo) computes them per game: the same numbers, so the same tallies."""
    from simcycle.formats.cycle.plan import CyclePlan

    model = load_model(None)
    fmt, scn = load_scenario(ROOT / "scenarios" / "cycle-2022.toml")
    plan = fmt.compile(scn, model, CompileOptions(at="gp-event2-round3"))
    assert isinstance(plan, CyclePlan) and not plan.fa.live
    fast = plan.run_batch(5, 0, 3_000)
    plan.fa = plan.fa._replace(live=True)
    plan.c = plan.c._replace(thr=np.zeros((0, 0, 0, 2)))
    live = plan.run_batch(5, 0, 3_000)
    assert fast.keys() == live.keys()
    for key in fast:
        assert np.array_equal(fast[key], live[key]), key


def test_field_measures_by_hand():
    """experiment.field_measures: the mean rating of the qualifiers' field and the top-q share,
    from the tallies.  Four players 2800/2700/2600/2500, two places, 10 runs: the field was
    {2800, 2600} 6 times and {2700, 2500} 4 times, so the mean rating is
    (6 * 2700 + 4 * 2600) / 10 = 2660 and the top two's share (6 * 1 + 4 * 1) / (2 * 10) = 0.5."""
    from types import SimpleNamespace

    from simcycle.experiment import field_measures

    rating = np.array([2800.0, 2700.0, 2600.0, 2500.0])
    res = SimpleNamespace(sims=10, tallies={"qualify": np.array([6, 4, 6, 4])})
    info = SimpleNamespace(qualifying_places=2)
    m = field_measures(info, res, rating, np.array([0, 1, 2, 3]), np.arange(4))
    assert m["field_mean_rating"] == (pytest.approx(2660.0), None)
    assert m["field_top_share"] == (pytest.approx(0.5), None)


# ---- bad cycle files ---------------------------------------------------------------------------
BAD = [
    ("a seat nobody can fill",
     TINY_SEATS.replace('chain = [ { event = "b", best = true } ]\n',
                        'chain = [ { fixed = "A2" } ]\n'), "seats[3].chain", "b-next"),
    ("a chain naming an event not in the cycle",
     TINY_SEATS.replace('{ event = "a", place = 1 },', '{ event = "zz", place = 1 },'),
     "seats[0].chain[0].event", "zz"),
    ("a player in two fixed seats",
     TINY_SEATS.replace('chain = [ { event = "a", place = 1 }, { event = "a", best = true } ]',
                        'chain = [ { fixed = "Shared" } ]').replace(
         'chain = [ { event = "a", best = true } ]', 'chain = [ { fixed = "Shared" } ]'),
     "seats[2].chain[0].fixed", "Shared"),
    ("a cycle of fallbacks",
     TINY_SEATS.replace('chain = [ { event = "a", place = 1 }, { event = "a", best = true } ]',
                        'chain = [ { event = "a", place = 1 } ]\nfallback = "a-next"').replace(
         'chain = [ { event = "a", best = true } ]',
         'chain = [ { event = "a", best = true } ]\nfallback = "a-winner"'),
     "seats[0].fallback", "a-winner"),
]


@pytest.mark.parametrize("what,seats,key,value", BAD, ids=[b[0] for b in BAD])
def test_bad_cycle_files(tmp_path, what, seats, key, value):
    p = write_tiny(tmp_path, seats=seats)
    r = CliRunner().invoke(main, ["checkpoints", str(p)])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1, r.output
    assert str(p) in lines[0] or p.name in lines[0]
    assert key in lines[0] and value in lines[0], lines[0]


def test_what_ifs_go_to_their_part():
    fix = "Berlin 2: So beats Nakamura on tiebreaks"     # the real final was Nakamura - So
    r = CliRunner().invoke(main, ["simulate", str(ROOT / "scenarios" / "cycle-2022.toml"),
                                  "--at", "gp-event3-sf", "--sims", "4000", "--json",
                                  "--fix", "gp: " + fix])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["assumed"] == ["gp: Berlin 2 (21 March - 4 April 2022) final: Wesley So beats "
                            "Hikaru Nakamura on tiebreaks (two classical draws assumed)"]
    g = CliRunner().invoke(main, ["simulate", str(ROOT / "scenarios" / "grand-prix-2022.toml"),
                                  "--at", "event3-sf", "--sims", "4000", "--json", "--fix", fix])
    gp = {p["name"]: p["p_qualify"] for p in json.loads(g.output)["players"]}
    cyc = {p["name"]: p["p_qualify"] for p in d["players"]}
    # nothing random is left in the Grand Prix: the same two qualify either way
    assert [n for n, p in gp.items() if p == 1.0] == ["Hikaru Nakamura", "Richard Rapport"]
    assert cyc["Hikaru Nakamura"] == 1.0 and cyc["Richárd Rapport"] == 1.0
    bad = CliRunner().invoke(main, ["simulate", str(ROOT / "scenarios" / "cycle-2022.toml"),
                                    "--at", "gp-event3-sf", "--sims", "10", "--fix", fix])
    assert bad.exit_code == 2 and len(bad.output.strip().splitlines()) == 1
    assert "--fix" in bad.output and "'gp: ...'" in bad.output


# ---- swing: the part in progress's games and matches, on the cycle's own tallies -----------
# The runs are paired (common random numbers): each chunk of 512 replicas (kernels.config.CHUNK)
# uses the same random streams under every result, so a difference's SE is the spread of its
# chunk differences over sqrt(chunks) (formats/shared/swing.py); recomputed here from the chunk
# rows of plans compiled with the outcome's what-ifs.
CYCLE_2022 = ROOT / "scenarios" / "cycle-2022.toml"
SWING_SIMS = 4096          # 8 chunks


def swing_json(scenario, at, sims=SWING_SIMS, seed=5, *extra):
    r = CliRunner().invoke(main, ["swing", str(scenario), "--at", at, "--sims", str(sims),
                                  "--seed", str(seed), "--all-sims", "--json", *extra])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def chunk_rows(fmt, scn, model, at, mix, sims, seed):
    """P(win the final) and P(in it) per chunk [chunks, players] under a mixture of what-ifs."""
    from simcycle.kernels.config import CHUNK
    f = q = 0.0
    for fixed, w in mix:
        t = fmt.compile(scn, model, CompileOptions(at=at, fixed=fixed)).run_chunks(
            seed, 0, sims).out
        f, q = f + w * t.place[:, :, 0] / CHUNK, q + w * t.qualify / CHUNK
    return f, q


@pytest.mark.parametrize("at, field", [("gp-event2-round3", "games"),
                                       ("gp-event2-groups", "matches")])
def test_cycle_swing_shares_and_noise_from_chunk_rows(model, at, field):
    fmt, scn = load_scenario(CYCLE_2022)
    ex = fmt.swing_items(scn, model, at)
    d = swing_json(CYCLE_2022, at)
    assert d["part"] == "gp" and d["qualifying_places"] == 8 and d[field]
    for it in ex.items:
        # every result's mixture of what-ifs is a whole branch, keyed (part 0, the GP's key)
        for mix in it.outcomes:
            assert sum(w for _, w in mix) == pytest.approx(1.0, abs=1e-12)
            assert all(k[0] == 0 for fx, _ in mix for k in fx)
    for item in d[field]:
        shares = ([item["p_white"], item["p_draw"], item["p_black"]] if field == "games"
                  else [o["p"] for o in item["outcomes"]])
        assert sum(shares) == pytest.approx(1.0, abs=1e-12) and min(shares) >= 0
    # the most swinging item: every flag against a paired SE computed here from chunk rows
    item = d[field][0]
    title = ((item["white"], item["black"]) if field == "games" else tuple(item["players"]))
    it = next(i for i in ex.items if (tuple(i.head["players"]) if field == "matches" else
                                      (i.head["white"], i.head["black"])) == title)
    runs = [chunk_rows(fmt, scn, model, at, mix, SWING_SIMS, 5) for mix in it.outcomes]
    base = chunk_rows(fmt, scn, model, at, [({}, 1.0)], SWING_SIMS, 5)
    names = list(fmt.compile(scn, model, CompileOptions(at=at)).info.names)
    k = base[0].shape[0]
    checked = 0
    for p in (item["players"] if field == "games" else item["swing"]):
        i = names.index(p["name"])
        for t, what in enumerate(("first", "qualify")):
            xs = [r[t][:, i] for r in runs]
            ps = [float(x.mean()) for x in xs]
            got = list(p[f"p_{what}"].values()) if field == "games" else p[f"p_{what}"]
            assert got == pytest.approx(ps, abs=1e-12)
            hi, lo = int(np.argmax(ps)), int(np.argmin(ps))
            se = float(np.std(xs[hi] - xs[lo], ddof=1) / np.sqrt(k)) if hi != lo else 0.0
            assert p[f"swing_{what}"] == pytest.approx(ps[hi] - ps[lo], abs=1e-12)
            assert p[f"se_swing_{what}"] == pytest.approx(se, abs=1e-12)
            assert p[f"noise_{what}"] == (abs(ps[hi] - ps[lo]) <= 2 * se)
            for r, x in enumerate(xs):
                b = base[t][:, i]
                se_d = float(np.std(x - b, ddof=1) / np.sqrt(k))
                assert p[f"noise_d_{what}"][r] == (abs(x.mean() - b.mean()) <= 2 * se_d)
            checked += p[f"swing_{what}"] > 0
    assert checked > 0          # something moves: the flags were not all 0 ± 0


def test_cycle_swing_branch_is_the_fixed_run():
    """A group game's "1-0" column is the cycle simulated with that game fixed (--fix in the
    Grand Prix's own words), replica for replica."""
    at = "gp-event2-round3"
    d = swing_json(CYCLE_2022, at)
    g = d["games"][0]
    for res, lab in (("1-0", "1-0"), ("1/2-1/2", "1/2-1/2"), ("0-1", "0-1")):
        fix = f"gp: Belgrade: r{g['round']} {g['white']} - {g['black']} {res}"
        r = CliRunner().invoke(main, ["simulate", str(CYCLE_2022), "--at", at, "--sims",
                                      str(d["sims"]), "--seed", "5", "--json", "--fix", fix])
        assert r.exit_code == 0, r.output
        fixed = {p["name"]: p for p in json.loads(r.output)["players"]}
        for p in g["players"]:
            assert p["p_first"][lab] == pytest.approx(fixed[p["name"]]["p_first"], abs=1e-12)
            assert p["p_qualify"][lab] == pytest.approx(fixed[p["name"]]["p_qualify"],
                                                        abs=1e-12)


def test_cycle_swing_in_the_final_is_the_candidates_swing():
    """After the Grand Prix the field is the real one: the cycle's swing of P(win) is the
    Candidates' swing of P(1st) at the same round, within 3 SE (independent runs)."""
    cyc = swing_json(CYCLE_2022, "candidates-round12", 8192)
    cand = swing_json(ROOT / "scenarios" / "candidates-2022.toml", "round12", 8192, 6)
    assert cyc["part"] == "candidates" and cyc["round"] == cand["round"] == 13
    games = {(g["white"], g["black"]): g for g in cand["games"]}
    assert {(g["white"], g["black"]) for g in cyc["games"]} == set(games)
    checked = 0
    for g in cyc["games"]:
        other = {p["name"]: p for p in games[(g["white"], g["black"])]["players"]}
        assert g["p_white"] == pytest.approx(games[(g["white"], g["black"])]["p_white"])
        for p in g["players"]:
            if p["name"] not in other:        # not in the final: never wins it
                assert max(p["p_first"].values()) == 0.0
                continue
            c = other[p["name"]]
            for r, lab in enumerate(cyc["results"]):      # SEs are lists in result order
                se = np.hypot(p["se_p_first"][r], c["se_p_first"][r])
                assert abs(p["p_first"][lab] - c["p_first"][lab]) <= 3 * se + 1e-12, (
                    p["name"], lab)
                checked += 1
            assert p["p_qualify"] == {lab: 1.0 for lab in cyc["results"]}
    assert checked >= 3 * 8
