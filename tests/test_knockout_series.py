"""FIDE Grand Prix 2019 (knock-out series format): standings, checkpoints, simulation, bad input.

Expected values come from [W] = Serbian Wikipedia, "ФИДЕ Гран при 2019",
https://sr.wikipedia.org/wiki/ФИДЕ_Гран_при_2019 , its final table in section "Табела ФИДЕ Гран
при 2019.", unless a comment names another source.
"""

import json

import numpy as np
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcycle.cli import main
from simcycle.errors import ScenarioError
from simcycle.formats.base import CompileOptions
from simcycle.formats.shared.brackets import seeding_order
from simcycle.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
GP2019 = ROOT / "scenarios" / "grand-prix-2019.toml"

# [W] final table: name -> (Moscow, Riga, Hamburg, Jerusalem, total, TB1, TB2, TB3, rank)
SEED_TABLE = {
    "Alexander Grischuk": (7, 3, 10, None, 20, 1, 1, 12.5, 1),
    "Ian Nepomniachtchi": (9, None, 0, 10, 19, 2, 0, 10, 2),
    "Maxime Vachier-Lagrave": (None, 8, 5, 3, 16, 0, 1, 11.5, 3),
    "Shakhriyar Mamedyarov": (0, 10, None, 0, 10, 1, 0, 6.5, 4),
    "Jan-Krzysztof Duda": (0, 1, 7, None, 8, 0, 1, 8, 5),
    "Wei Yi": (2, None, 0, 5, 7, 0, 1, 6.5, 6),
    "Wesley So": (1, 3, None, 2, 6, 0, 0, 7, 7),
    "Daniil Dubov": (2, 0, 3, None, 5, 0, 0, 6, 8),          # "8 (tie)"
    "Radoslaw Wojtaszek": (5, None, 0, 0, 5, 0, 0, 6, 8),     # "8 (tie)"
    "David Navara": (None, 0, 1, 4, 5, 0, 0, 5.5, 10),
    "Peter Svidler": (2, 0, 2, None, 4, 0, 0, 5.5, 11),
    "Veselin Topalov": (None, 1, 2, 0, 3, 0, 0, 4.5, 12),
    "Hikaru Nakamura": (3, 0, 0, None, 3, 0, 0, 4, 13),
    "Sergey Karjakin": (0, 1, None, 1, 2, 0, 0, 4.5, 14),
    "Yu Yangyi": (None, 1, 1, 0, 2, 0, 0, 4, 15),
    "Dmitry Jakovenko": (0, None, 0, 1, 1, 0, 0, 3, 16),
    "Anish Giri": (0, 0, None, 0, 0, 0, 0, 2.5, 17),            # "17 (tie)"
    "Nikita Vitiugov": (0, 0, 0, None, 0, 0, 0, 2.5, 17),       # "17 (tie)"
    "Pentala Harikrishna": (None, 0, 0, 0, 0, 0, 0, 2.5, 17),   # "17 (tie)"
    "Teimour Radjabov": (0, None, 0, None, 0, 0, 0, 2, 20),
    "Levon Aronian": (0, 0, None, None, 0, 0, 0, 1.5, 21),
}

# Prize money by [W]'s rules ("Новчане награде": event prizes + overall, shared on equal GP
# points).  [W]'s money column agrees except Nepomniachtchi ([W] 94,000; rules 24,000 + 5,000 +
# 24,000 + 45,000) and Wojtaszek ([W] 34,666.66; rules 10,000 + 5,000 + 5,000 + 35,000 / 3):
# docs/format-knockout-series.md.
RULES_PRIZE = {"Alexander Grischuk": 98000, "Ian Nepomniachtchi": 98000,
               "Maxime Vachier-Lagrave": 74000, "Shakhriyar Mamedyarov": 69000,
               "Jan-Krzysztof Duda": 57000, "Wei Yi": 52000, "Wesley So": 46000,
               "Daniil Dubov": 23000 + 35000 / 3, "Radoslaw Wojtaszek": 20000 + 35000 / 3,
               "David Navara": 23000 + 35000 / 3, "Peter Svidler": 21000, "Veselin Topalov": 21000,
               "Hikaru Nakamura": 20000, "Sergey Karjakin": 21000, "Yu Yangyi": 21000,
               "Dmitry Jakovenko": 18000, "Anish Giri": 15000, "Nikita Vitiugov": 15000,
               "Pentala Harikrishna": 15000, "Teimour Radjabov": 10000, "Levon Aronian": 10000}


@pytest.fixture(scope="module")
def gp():
    return load_scenario(GP2019)


def run(*args):
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.output


def test_final_table_reproduces_the_seed():
    code, out = run("standings", str(GP2019), "--json")
    assert code == 0, out
    d = json.loads(out)
    assert d["complete"]
    got = {p["name"]: p for p in d["players"]}
    # 21 players: Gelfand, Wang Hao, Andreikin do not count
    assert set(got) == set(SEED_TABLE)
    for name, (m, r, h, j, tot, tb1, tb2, tb3, rank) in SEED_TABLE.items():
        p = got[name]
        assert p["events"] == [m, r, h, j], name
        assert (p["points"], p["events_won"], p["second_places"],
                p["classical_points"]) == (tot, tb1, tb2, tb3), name
        assert p["rank"] == rank, name
        assert p["prize"] == pytest.approx(RULES_PRIZE[name], abs=0.01), name
    # [W], introduction: Grischuk and Nepomniachtchi qualified, Vachier-Lagrave had the
    # wildcard claim
    assert got["Alexander Grischuk"]["status"] == "qualifies"
    assert got["Ian Nepomniachtchi"]["status"] == "qualifies"
    assert got["Maxime Vachier-Lagrave"]["status"] == "wildcard claimant"
    assert [p["name"] for p in d["players"]][:3] == ["Alexander Grischuk", "Ian Nepomniachtchi",
                                                   "Maxime Vachier-Lagrave"]


def test_standings_after_hamburg(gp):
    """chess.com, "Grischuk Wins Hamburg Grand Prix" (17 Nov 2019), standings table: Grischuk 20
    (TB3 12½), Vachier-Lagrave 13 (TB3 9), Mamedyarov 10, Nepomniachtchi 9 (TB3 5),
    Duda 8 (TB3 8)."""
    mod, scn = gp
    d = mod.standings(scn, "event3")
    got = {p["name"]: p for p in d["players"]}
    assert not d["complete"]
    for name, pts, tb3 in [("Alexander Grischuk", 20, 12.5), ("Maxime Vachier-Lagrave", 13, 9),
                           ("Shakhriyar Mamedyarov", 10, 5.5), ("Ian Nepomniachtchi", 9, 5),
                           ("Jan-Krzysztof Duda", 8, 8)]:
        assert (got[name]["points"], got[name]["classical_points"]) == (pts, tb3), name
    assert got["Anish Giri"]["events"][3] == 0           # scheduled for Jerusalem, not yet played
    assert got["Anish Giri"]["entries"][3] == "to play"
    assert got["Alexander Grischuk"]["events"][3] is None
    assert got["Alexander Grischuk"]["entries"] == ["done", "done", "done", None]


def test_entries_mid_event(gp):
    """At the Riga semi-finals ([W], Riga bracket): Mamedyarov and Vachier-Lagrave reached the
    final (still playing Riga), Navara lost in the first round (done); Hamburg not started."""
    mod, scn = gp
    got = {p["name"]: p for p in mod.standings(scn, "event2-sf")["players"]}
    assert got["Shakhriyar Mamedyarov"]["entries"][1] == "in"
    assert got["Maxime Vachier-Lagrave"]["entries"][1] == "in"
    assert got["David Navara"]["entries"][1:3] == ["done", "to play"]
    code, out = run("standings", str(GP2019), "--at", "event2-sf")
    assert code == 0, out
    mvl = next(line for line in out.splitlines() if "Vachier-Lagrave" in line)
    assert mvl.split()[3:6] == ["-", f"{got['Maxime Vachier-Lagrave']['events'][1]}+", "."]
    assert "still playing that event" in out and "TB1 events won" in out


def test_checkpoints(gp):
    mod, scn = gp
    cps = mod.checkpoints(scn)
    assert cps[:6] == ["start", "event1-r1", "event1-qf", "event1-sf", "event1", "event2-r1"]
    assert cps[-1] == "event4" and len(cps) == 17
    d = mod.standings(scn, "event1-sf")
    got = {p["name"]: p for p in d["players"]}
    # after the Moscow semi-finals both finalists are sure of at least the runner-up's 5 points
    assert got["Ian Nepomniachtchi"]["points"] == 5 + 1     # + R1 won in classical (BA)
    assert got["Alexander Grischuk"]["points"] == 5 + 2
    assert mod.standings(scn, "start")["players"][0]["points"] == 0
    code, out = run("standings", str(GP2019), "--at", "event9")
    assert code == 2 and "no such checkpoint" in out


# The Jerusalem knock-out after its quarter-finals ([W], Jerusalem bracket; the file's
# [[events.matches]]): Nepomniachtchi beat Vachier-Lagrave 1½-½ and Wei Yi beat Navara on
# tiebreaks in the semi-finals, Nepomniachtchi beat Wei Yi 1½-½ in the final.
JERUSALEM = ["Jerusalem: Nepomniachtchi beats Vachier-Lagrave 1.5-0.5",
             "Wei Yi beats Navara on tiebreaks",
             "Nepomniachtchi beats Wei 1½-½"]       # the final follows the semi-finals assumed


def test_what_ifs_replay_the_real_results():
    fixes = [x for f in JERUSALEM for x in ("--fix", f)]
    code, out = run("simulate", str(GP2019), "--at", "event4-qf", "--sims", "3000", "--json",
                    "--no-progress", *fixes)
    assert code == 0, out
    d = json.loads(out)
    assert d["assumed"] == [
        "Jerusalem sf: Ian Nepomniachtchi beats Maxime Vachier-Lagrave 1½-½ in the classical "
        "games", "Jerusalem sf: Wei Yi beats David Navara on tiebreaks",
        "Jerusalem final: Ian Nepomniachtchi beats Wei Yi 1½-½ in the classical games"]
    got = {p["name"]: p for p in d["players"]}
    for name, row in SEED_TABLE.items():     # every match decided: the final table, exactly
        assert got[name]["expected_points"] == row[4], name
        assert got[name]["p_place"][row[8] - 1] > 0, name
    assert got["Ian Nepomniachtchi"]["p_qualify"] == 1.0
    assert got["Alexander Grischuk"]["p_qualify"] == 1.0
    code, out = run("whocan", str(GP2019), "--at", "event4-qf", "--json", *fixes[:4])
    assert code == 0, out
    w = json.loads(out)
    assert len(w["assumed"]) == 2 and w["matches_left"] == 1
    # one match left (the final, Nepomniachtchi v Wei Yi): the finalists' rows replay it
    paths = [r["path"] for r in w["targets"]["qualify"] if r["status"] == "alive"]
    assert all(len(p) == 1 and {*p[0]["players"]} == {"Ian Nepomniachtchi", "Wei Yi"}
               for p in paths)
    code, out = run("swing", str(GP2019), "--at", "event4-qf", "--sims", "2000", "--json",
                    *fixes[:2])
    assert code == 0, out
    assert [m["players"] for m in json.loads(out)["matches"]] == [["Wei Yi", "David Navara"]]


@pytest.mark.parametrize("fix, words", [
    ("Nepomniachtchi beats Wei 2-1", "the winner's classical score"),
    ("Nepomniachtchi beats Wei 2-0", "do not meet in a match whose players are known"),
    ("Jerusalem: Nepomniachtchi beats Vachier-Lagrave 2-0", "already played: Ian "
     "Nepomniachtchi beats Maxime Vachier-Lagrave 1½-½"),
    ("Nepomniachtchi beats Carlsen 2-0", "no two players"),
    ("Nepomniachtchi defeats Wei 2-0", "a knock-out what-if is"),
    ("Paris: Nepomniachtchi beats Wei 2-0", "no such event"),
])
def test_bad_what_ifs_are_refused_in_one_line(fix, words):
    code, out = run("simulate", str(GP2019), "--at", "event4" if "Jerusalem" in fix else
                    "event4-qf", "--fix", fix)
    assert code == 2 and words in out and len(out.strip().splitlines()) == 1, out


def test_simulate_from_start_sums():
    code, out = run("simulate", str(GP2019), "--at", "start", "--sims", "30000", "--json",
                    "--no-progress")
    assert code == 0, out
    d = json.loads(out)
    ps = d["players"]
    assert len(ps) == 21
    assert sum(p["p_qualify"] for p in ps) == pytest.approx(2.0, abs=1e-9)
    assert sum(p["p_wildcard"] for p in ps) == pytest.approx(1.0, abs=1e-9)
    for p in ps:
        assert sum(p["p_place"]) == pytest.approx(1.0, abs=1e-9)
        assert len(p["p_place"]) == 21
    for k in range(21):
        assert sum(p["p_place"][k] for p in ps) == pytest.approx(1.0, abs=1e-9)
    by = {p["name"]: p for p in ps}
    assert by["Teimour Radjabov"]["p_qualify"] == 0 and by["Anish Giri"]["p_qualify"] == 0
    # the top-rated player ([W] "Учесници": Mamedyarov 2812 1/6) is the favourite from the start
    assert max(ps, key=lambda p: p["p_first"])["name"] == "Shakhriyar Mamedyarov"


def test_simulate_when_complete_is_certain(gp):
    code, out = run("simulate", str(GP2019), "--sims", "2000", "--json", "--no-progress")
    assert code == 0, out
    by = {p["name"]: p for p in json.loads(out)["players"]}
    assert by["Alexander Grischuk"]["p_first"] == 1.0
    assert by["Alexander Grischuk"]["p_qualify"] == 1.0
    assert by["Ian Nepomniachtchi"]["p_qualify"] == 1.0
    assert by["Maxime Vachier-Lagrave"]["p_wildcard"] == 1.0
    for name, z in RULES_PRIZE.items():
        assert by[name]["expected_prize"] == pytest.approx(z, abs=0.01)
    # Dubov and Wojtaszek are level on every criterion ([W] final table: "8 (tie)"): lots share
    # 8th-9th
    assert by["Daniil Dubov"]["p_place"][7] == pytest.approx(0.5, abs=0.05)


def test_odds_lists_next_matches(gp):
    mod, scn = gp
    from simcycle.model import load_model
    d = mod.odds(scn, load_model(), "event4-sf")
    assert len(d["matches"]) == 1                          # only the Jerusalem final is open
    m = d["matches"][0]
    assert set(m["players"]) == {"Ian Nepomniachtchi", "Wei Yi"}
    assert sum(m["p_win"]) == pytest.approx(1.0)
    assert len(mod.odds(scn, load_model(), "start")["matches"]) == 32   # 4 first rounds
    code, out = run("odds", str(GP2019), "--at", "event2-sf")
    assert code == 0 and "Riga" in out


# ---------------------------------------------------------------------------- bad input
MINI = """
[scenario]
name = "mini"
format = "knockout-series"
[series]
place_points = [8, 5, 3]
classical_win_bonus = 1
event_prizes = [3, 2, 1]
[match]
steps = [
  { kind = "games", control = "classical", games = 2 },
  { kind = "games", control = "rapid-25+10", games = 2 },
  { kind = "armageddon", control = "armageddon-5v4" },
]
[[players]]
name = "A"
rating = 2800
events = [1]
[[players]]
name = "B"
rating = 2750
events = [1]
[[players]]
name = "C"
rating = 2700
events = [1]
[[players]]
name = "D"
rating = 2650
events = [1]
%s
[[events]]
name = "E1"
%s
"""


def mini(tmp_path, matches="", bracket="", extra_players=""):
    f = tmp_path / "mini.toml"
    f.write_text(MINI % (extra_players, bracket + "\n" + matches))
    return f


def match(rnd, a, b, **kw):
    s = f'[[events.matches]]\nround = "{rnd}"\nplayers = ["{a}", "{b}"]\n'
    for k, v in kw.items():
        s += f"{k} = {json.dumps(v)}\n"
    return s


def test_world_cup_seeding_when_no_bracket(tmp_path):
    # 4 players by rating: 1 v 4 and 2 v 3 (the World Cup pattern 1 v 16, 8 v 9, ...)
    mod, scn = load_scenario(mini(tmp_path))
    names = [scn.players[i].name for i in scn.events[0].positions]
    assert names == ["A", "D", "B", "C"]
    assert seeding_order(16)[:4] == [0, 15, 7, 8]


def test_partial_entries_accepted(tmp_path):
    f = mini(tmp_path, match("sf", "A", "D", winner="A", decided_by="tiebreaks")
             + match("sf", "B", "C", classical=[0.5]))
    mod, scn = load_scenario(f)
    d = mod.standings(scn, None)
    got = {p["name"]: p for p in d["players"]}
    assert got["A"]["points"] == 5 and got["A"]["classical_points"] == 1.0  # level after classical
    assert got["D"]["points"] == 3
    assert got["B"]["classical_points"] == 0.5                               # game 1 counted
    from simcycle.model import load_model
    plan = mod.compile(scn, load_model(), CompileOptions())
    t = plan.run_batch(1, 0, 1000)
    assert t["place"].sum() == 4000
    # one game known plus the match score: classical points from the score
    f = mini(tmp_path, match("sf", "A", "D", classical=[1], score=[1.5, 0.5]))
    got = {p["name"]: p
           for p in load_scenario(f)[0].standings(load_scenario(f)[1], None)["players"]}
    assert (got["A"]["classical_points"], got["A"]["points"]) == (1.5, 5 + 1)
    # "won in classical" with nothing else: Reading unknown_classical_win = 1.5-0.5
    f = mini(tmp_path, match("sf", "A", "D", winner="D", decided_by="classical"))
    got = {p["name"]: p
           for p in load_scenario(f)[0].standings(load_scenario(f)[1], None)["players"]}
    assert (got["D"]["classical_points"], got["A"]["classical_points"]) == (1.5, 0.5)


@pytest.mark.parametrize("body,needle", [
    (match("sf", "A", "B"), "cannot meet"),                          # A v B only in the final
    (match("sf", "A", "D", score=[1, 1]), "does not end the match"),
    (match("sf", "A", "D", score=[2, 1]), "do not end the match at any step"),
    (match("sf", "A", "D", classical=[0.5, 0.5], tiebreaks=[0.5, 0.5]), "do not end the match"),
    (match("sf", "A", "D", classical=[1, 0.5], tiebreaks=[1, 0]), "do not end the match"),
    (match("sf", "A", "Z", score=[1.5, 0.5]), "unknown player"),
    (match("sf", "A", "D", score=[1.5, 0.5]) + match("sf", "D", "A", score=[0.5, 1.5]),
     "duplicate"),
    (match("final", "A", "B", score=[1.5, 0.5]), "cannot meet"),      # semi-finals not entered
    (match("sf", "A", "D", winner="A", decided_by="classical", classical=[0.5, 0.5]), "level"),
])
def test_bad_matches(tmp_path, body, needle):
    f = mini(tmp_path, body)
    with pytest.raises(ScenarioError) as e:
        load_scenario(f)
    assert needle in str(e.value)
    code, out = run("standings", str(f))
    assert code == 2 and "Traceback" not in out and needle in out


def test_player_not_scheduled_and_not_power_of_two(tmp_path):
    extra = '[[players]]\nname = "X"\nrating = 2600\nevents = []\n'
    f = mini(tmp_path, bracket='bracket = ["A", "D", "B", "X"]', extra_players=extra)
    with pytest.raises(ScenarioError, match="not scheduled"):
        load_scenario(f)
    f = mini(tmp_path, match("sf", "A", "X", score=[1.5, 0.5]), extra_players=extra)
    with pytest.raises(ScenarioError, match="not scheduled"):
        load_scenario(f)
    extra = '[[players]]\nname = "X"\nrating = 2600\nevents = [1]\n'
    f = mini(tmp_path, extra_players=extra)
    with pytest.raises(ScenarioError, match="power of two"):
        load_scenario(f)
    code, out = run("simulate", str(f), "--sims", "10")
    assert code == 2 and "power of two" in out



# ---------------------------------------------------------------------------- ratings per event
RATED = """
[scenario]
name = "ratings per event"
format = "knockout-series"
[series]
place_points = [8, 5, 3]
event_prizes = [3, 2, 1]
qualifying_places = 1
[match]
steps = [
  { kind = "games", control = "classical", games = 2 },
  { kind = "games", control = "rapid-25+10", games = 2 },
  { kind = "armageddon", control = "armageddon-5v4" },
]
[[players]]
name = "A"
rating = 2800
rapid = 2790
events = [1, 2]
[[players]]
name = "B"
rating = 2750
events = [1, 2]
[[players]]
name = "C"
rating = 2700
events = [1, 2]
[[players]]
name = "D"
rating = 2650
events = [1, 2]
[[events]]
name = "E1"
bracket = ["A", "D", "B", "C"]
%s
[[events]]
name = "E2"
bracket = ["A", "D", "B", "C"]
ratings = { "A" = 2500 }
%s
"""


def rated(tmp_path, e1="", e2=""):
    f = tmp_path / "rated.toml"
    f.write_text(RATED % (e1, e2))
    return load_scenario(f)


def test_ratings_per_event_in_odds(tmp_path):
    """Event 2 gives A 2500 (classical; his rapid 2790 stays): the odds of his event-2 match
    are ``match_probability`` with the new classical rating, those of event 1 with the old."""
    from simcycle.formats.shared.matches import match_probability
    from simcycle.model import load_model
    model = load_model()
    mod, scn = rated(tmp_path)
    assert scn.events[0].ratings[0] == {"classical": 2800.0, "rapid": 2790.0}
    assert scn.events[1].ratings[0] == {"classical": 2500.0, "rapid": 2790.0}
    assert scn.players[0].ratings == {"classical": 2800.0, "rapid": 2790.0}
    d = {(m["event"], tuple(m["players"])): m for m in mod.odds(scn, model, "start")["matches"]}
    assert len(d) == 4                                   # both events' semi-finals are known
    steps = scn.steps
    old = match_probability(steps, model, {"classical": 2800, "rapid": 2790}, {"classical": 2650})
    new = match_probability(steps, model, {"classical": 2500, "rapid": 2790}, {"classical": 2650})
    assert d[("E1", ("A", "D"))]["p_win"][0] == pytest.approx(old["p_first"], abs=1e-15)
    assert d[("E2", ("A", "D"))]["p_win"][0] == pytest.approx(new["p_first"], abs=1e-15)
    assert new["p_first"] < 0.4 < 0.6 < old["p_first"]
    # B v C is the same in both events
    assert d[("E1", ("B", "C"))]["p_win"] == d[("E2", ("B", "C"))]["p_win"]


def test_ratings_per_event_in_the_kernel(tmp_path):
    """Only the event-2 final A v B is left: A's expected GP points are what he has plus 5
    plus 3 P(A wins it) (no classical bonus), and P is ``match_probability`` with his event-2
    rating, within 4 standard errors; far from the one with his old rating.  The kernel equals
    its twin (which computes the game probabilities from the event's ratings itself)."""
    from simcycle.formats.shared.matches import match_probability
    from simcycle.model import load_model
    from simcycle.reference import knockout as ref
    model = load_model()
    e1 = ('[[events.matches]]\nround = "sf"\nplayers = ["A", "D"]\nscore = [2, 0]\n'
          '[[events.matches]]\nround = "sf"\nplayers = ["B", "C"]\nscore = [2, 0]\n'
          '[[events.matches]]\nround = "final"\nplayers = ["A", "B"]\nscore = [2, 0]\n')
    e2 = ('[[events.matches]]\nround = "sf"\nplayers = ["A", "D"]\nscore = [1.5, 0.5]\n'
          '[[events.matches]]\nround = "sf"\nplayers = ["B", "C"]\nscore = [2, 0]\n')
    mod, scn = rated(tmp_path, e1, e2)
    plan = mod.compile(scn, model, CompileOptions())
    assert plan.args.rt[0, 0, 0] == 2800 and plan.args.rt[1, 0, 0] == 2500
    n = 200_000
    t = plan.run_batch(5, 0, n)
    i = plan.info.names.index("A")
    p = (t["points"][i] / n - 8 - 5) / 3
    a = match_probability(scn.steps, model, scn.events[1].ratings[0], scn.events[1].ratings[1])
    old = match_probability(scn.steps, model, scn.players[0].ratings, scn.players[1].ratings)
    se = np.sqrt(a["p_first"] * (1 - a["p_first"]) / n)
    assert abs(p - a["p_first"]) < 4 * se
    assert abs(p - old["p_first"]) > 40 * se
    for at, offsets in (("start", False), ("start", True), ("event2-sf", False)):
        plan = mod.compile(scn, model, CompileOptions(at=at, offsets=offsets))
        x = plan.run_batch(3, 0, 1500)
        y = ref.tallies(plan, 3, 0, 1500)
        for k in ("place", "qualify", "wildcard", "points", "points_sq"):
            assert np.array_equal(x[k], y[k]), (at, offsets, k)
    # swing's six results of the final mix back to the odds, with the event-2 ratings
    d = mod.swing(scn, model, "event2-sf", sims=1000, seed=1)
    ps = [o["p"] for o in d["matches"][0]["outcomes"]]
    assert sum(ps[:3]) == pytest.approx(a["p_first"], abs=1e-12)


def test_ratings_per_event_inherit_and_seed(tmp_path):
    """A later event inherits the last change; without a bracket the field is seeded by the
    ratings in force at the event."""
    text = RATED.replace('bracket = ["A", "D", "B", "C"]\nratings = { "A" = 2500 }',
                         'ratings = { "A" = 2500 }') % ("", "")
    text += '[[events]]\nname = "E3"\n'
    text = text.replace("events = [1, 2]", "events = [1, 2, 3]")
    f = tmp_path / "three.toml"
    f.write_text(text)
    _, scn = load_scenario(f)
    names = lambda e: [scn.players[i].name for i in scn.events[e].positions]   # noqa: E731
    assert names(1) == ["B", "A", "C", "D"]       # A (2500) is the lowest seed in event 2
    assert scn.events[2].ratings[0]["classical"] == 2500      # and still in event 3
    assert names(2) == names(1)


@pytest.mark.parametrize("table,needle", [
    ('ratings = { "Z" = 2500 }', "unknown player"),
    ('ratings = { "A" = 250 }', "between 1000 and 3500"),
    ('rapid = { "A" = "x" }', "must be a number"),
])
def test_ratings_per_event_refused(tmp_path, table, needle):
    f = tmp_path / "bad.toml"
    f.write_text((RATED % ("", "")).replace('ratings = { "A" = 2500 }', table))
    with pytest.raises(ScenarioError) as e:
        load_scenario(f)
    assert needle in str(e.value) and str(f) in str(e.value) and "events[1]" in str(e.value)


def test_plan_refuses_more_counting_players_than_the_match_log_holds(gp):
    """The kernel's match log keeps a plan index in ``nb.LOG_BITS`` bits: a series with more
    counting players is refused by name (file, key, value), not run wrong."""
    from simcycle.formats.knockout_series.nb import LOG_BITS
    from simcycle.formats.knockout_series.plan import check_log_fits
    _, scn = gp
    check_log_fits(scn, (1 << LOG_BITS) - 2)          # the largest that fits
    with pytest.raises(ScenarioError) as e:
        check_log_fits(scn, (1 << LOG_BITS) - 1)
    assert "players" in str(e.value) and "grand-prix-2019.toml" in str(e.value)
