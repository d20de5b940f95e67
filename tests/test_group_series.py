"""The group-series format on the FIDE Grand Prix 2022 (scenarios/grand-prix-2022.toml):
the replayed final table, checkpoints, simulations at known turning points, bad input.

Expected values: [RU] Russian Wikipedia, "Гран-при ФИДЕ 2022",
https://ru.wikipedia.org/wiki/Гран-при_ФИДЕ_2022 ; [ES] Spanish Wikipedia, "Gran Premio de la
FIDE 2022", https://es.wikipedia.org/wiki/Gran_Premio_de_la_FIDE_2022 ."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcycle.cli import main
from simcycle.errors import ScenarioError
from simcycle.formats.base import CompileOptions
from simcycle.model import load_model
from simcycle.scenario import load_scenario

SCENARIO = "scenarios/grand-prix-2022.toml"
TEXT = Path(SCENARIO).read_text(encoding="utf-8")

# [RU], final standings table: name, rank ("Итог"), shared, GP per event (None = did not
# play), total, TF, TS, GP (classical game points), GW (classical wins), prize in euros.
FINAL = [
    ("Hikaru Nakamura", 1, False, [13, None, 10], 23, 1, 1, 12.5, 6, 42000),
    ("Richard Rapport", 2, False, [7, 13, None], 20, 1, 0, 11, 6, 36000),
    ("Wesley So", 3, False, [4, None, 13], 17, 1, 0, 9.5, 4, 33000),
    ("Levon Aronian", 4, False, [10, None, 2], 12, 0, 1, 10, 6, 25000),
    ("Dmitry Andreikin", 5, False, [None, 10, None], 10, 0, 1, 5.5, 2, 18000),
    ("Amin Tabatabaei", 6, False, [None, 3, 7], 10, 0, 0, 7.5, 4, 20000),
    ("Shakhriyar Mamedyarov", 7, False, [None, 3, 7], 10, 0, 0, 7.5, 1, 20000),
    ("Leinier Dominguez", 8, False, [7, None, 2], 9, 0, 0, 7.5, 4, 19000),
    ("Sam Shankland", 9, False, [None, 4, 4], 8, 0, 0, 7, 2, 18000),
    ("Maxime Vachier-Lagrave", 10, False, [None, 7, 1], 8, 0, 0, 6.5, 2, 18000),
    ("Anish Giri", 11, False, [None, 7, 0], 7, 0, 0, 7.5, 2, 17000),
    ("Vidit Gujrathi", 12, False, [3, 4, None], 7, 0, 0, 6, 3, 17000),
    ("Nikita Vitiugov", 13, False, [None, 3, 3], 6, 0, 0, 6, 2, 16000),
    ("Alexandr Predke", 14, True, [None, 3, 1], 4, 0, 0, 5.5, 2, 14000),
    ("Grigoriy Oparin", 14, True, [0, None, 4], 4, 0, 0, 5.5, 2, 14000),
    ("Andrey Esipenko", 16, True, [4, None, 0], 4, 0, 0, 5, 2, 14000),
    ("Vincent Keymer", 16, True, [0, None, 4], 4, 0, 0, 5, 2, 14000),
    ("Radoslaw Wojtaszek", 18, False, [4, None, None], 4, 0, 0, 3.5, 1, 9000),
    ("Vladimir Fedoseev", 19, False, [2, 1, None], 3, 0, 0, 5.5, 3, 13000),
    ("Yu Yangyi", 20, False, [None, 0, 3], 3, 0, 0, 5.5, 0, 13000),
    ("Daniil Dubov", 21, False, [3, None, 0], 3, 0, 0, 5, 1, 13000),
    ("Alexander Grischuk", 22, False, [2, 0, None], 2, 0, 0, 5, 1, 12000),
    ("Pentala Harikrishna", 23, False, [2, 0, None], 2, 0, 0, 4.5, 0, 12000),
    ("Etienne Bacrot", 24, False, [0, 2, None], 2, 0, 0, 4, 0, 12000),
    ("Alexei Shirov", 25, False, [0, 1, None], 1, 0, 0, 4, 1, 11000),
    ("Ding Liren", 26, False, [None, None, None], 0, 0, 0, 0, 0, 0),
]


@pytest.fixture(scope="module")
def gp():
    return load_scenario(SCENARIO)


def test_final_table_reproduces_seed(gp):
    mod, scn = gp
    d = mod.standings(scn, None)
    got = [(p["name"], p["rank"], p["shared"], p["events"], p["points"], p["events_won"],
            p["second_places"], p["classical_points"], p["classical_wins"], p["prize"])
           for p in d["players"]]
    assert got == FINAL
    assert d["prize_total"] == 450_000  # [RU] prize fund: 150,000 an event, three events



@pytest.mark.parametrize("at", [None, "event1-round4", "event2-sf"])
def test_tally_without_tables_counts_the_same_totals(gp, at):
    # whocan's replays count the totals alone (``tables=False``); on the file and on greedy
    # result sets filled from a checkpoint (random draws for the undrawn events) every total
    # is the one the standings' tally counts
    import numpy as np

    from simcycle.formats.group_series import rules
    from simcycle.formats.group_series.whocan import Greedy, SeriesMILP

    _, scn = gp
    filled = [scn]
    if at is not None:
        model = SeriesMILP(scn, at)
        rng = np.random.default_rng(5)
        filled += [Greedy(model, x, best, spread, rng).run()
                   for x in (0, 7, 18) for best, spread in ((True, True), (True, False),
                                                            (False, True))]
    fields = ("pts", "evp", "tf", "ts", "cp", "cw", "prize")
    for f in filled:
        full, tables = rules.tally(f, None)
        lean, none = rules.tally(f, None, tables=False)
        assert tables and none is None
        assert [getattr(lean, k) for k in fields] == [getattr(full, k) for k in fields]
        assert rules.keys(f, lean) == rules.keys(f, full)
    assert len({tuple(rules.keys(f, rules.tally(f, None, tables=False)[0]).items())
                for f in filled}) == len(filled)

def test_standings_json_cli_and_text():
    r = CliRunner().invoke(main, ["standings", SCENARIO, "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["players"][0]["name"] == "Hikaru Nakamura" and d["players"][0]["prize"] == 42000
    r = CliRunner().invoke(main, ["standings", SCENARIO])
    assert r.exit_code == 0
    assert "  =14  Alexandr Predke" in r.output and "  =16  Vincent Keymer" in r.output


def test_checkpoints_and_group_stage_points(gp):
    mod, scn = gp
    cps = mod.checkpoints(scn)
    assert cps[:3] == ["start", "event1-round1", "event1-round2"]
    assert cps[7:10] == ["event1-groups", "event1-sf", "event1"] and cps[-1] == "event3"
    assert len(cps) == 1 + 3 * 9
    d = mod.standings(scn, "event1-groups")
    # Berlin 1 group B ([RU], event 1 group B table): Rapport won the rapid play-off with
    # Wojtaszek 1.5-0.5
    grp = {g["name"]: g for g in d["events"][0]["groups"]}
    assert [(p["name"], p["points"]) for p in grp["B"]["players"]] == [
        ("Richard Rapport", 7), ("Radoslaw Wojtaszek", 4), ("Vladimir Fedoseev", 2),
        ("Grigoriy Oparin", 0)]
    # group C: Vidit and Dubov level on 3 share 2nd-3rd, (4 + 2) / 2 = 3 ([RU] final table)
    assert [p["points"] for p in grp["C"]["players"]] == [7, 3, 3, 0]
    # at event1-round6 the play-offs are not counted yet
    d = mod.standings(scn, "event1-round6")
    assert [g["playoff_pending"] for g in d["events"][0]["groups"]] == [False, True, False, True]
    # before event 2 its groups are not drawn (future_groups = "draw")
    assert d["events"][1]["groups_known"] is False


def test_entries(gp):
    """Who is still playing which event.  [RU], event tables: Rapport won Berlin group B and
    played the semi-final, Wojtaszek did not; Nakamura played Berlin 1 and Berlin 2, not
    Belgrade; Rapport played Belgrade."""
    mod, scn = gp
    got = {p["name"]: p for p in mod.standings(scn, "event1-groups")["players"]}
    assert got["Richard Rapport"]["entries"][0] == "in"
    assert got["Radoslaw Wojtaszek"]["entries"][0] == "done"
    got = {p["name"]: p for p in mod.standings(scn, "event2-round3")["players"]}
    assert got["Hikaru Nakamura"]["entries"] == ["done", None, "to play"]
    assert got["Richard Rapport"]["entries"][1] == "in"
    assert got["Richard Rapport"]["events"][1] is None    # group places only when complete
    got = {p["name"]: p for p in mod.standings(scn, None)["players"]}
    assert got["Ding Liren"]["entries"] == [None, None, None]
    assert all(x in (None, "done") for p in got.values() for x in p["entries"])
    r = CliRunner().invoke(main, ["standings", SCENARIO, "--at", "event2-round3"])
    assert r.exit_code == 0, r.output
    assert "Berlin 1  Belgrade  Berlin 2" in r.output        # the events' names head the columns
    assert "entered but not started" in r.output


def _simulate(at, sims=4000, extra=()):
    r = CliRunner().invoke(main, ["simulate", SCENARIO, "--at", at, "--sims", str(sims),
                                  "--json", "--no-progress", *extra])
    assert r.exit_code == 0, r.output
    return {p["name"]: p for p in json.loads(r.output)["players"]}


def test_what_ifs_of_the_real_results_give_the_next_checkpoint(gp):
    """Assuming every round-4 game of Belgrade with its real result (the file's groups) from
    event2-round3 is the same as simulating from event2-round4: same draws, same numbers."""
    from simcycle.enums import RESULT_TEXT
    mod, scn = gp
    ev = scn.events[1]
    fixes = []
    for gr in ev.groups:
        for rd, w, b, r in gr.games:
            if rd == 4:
                fixes += ["--fix", f"Belgrade: r4 {scn.names[w]} - {scn.names[b]} "
                                   f"{RESULT_TEXT[r]}"]
    assert len(fixes) == 16         # four groups, two games a round
    args = ["--sims", "4000", "--json", "--no-progress", "--seed", "5"]
    r = CliRunner().invoke(main, ["simulate", SCENARIO, "--at", "event2-round3", *args, *fixes])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    later = json.loads(CliRunner().invoke(main, ["simulate", SCENARIO, "--at", "event2-round4",
                                                 *args]).output)
    assert len(d["assumed"]) == 8 and d["assumed"][0].startswith("Belgrade")
    assert d["players"] == later["players"]
    r = CliRunner().invoke(main, ["swing", SCENARIO, "--at", "event2-round3", "--sims", "2000",
                                  "--json", *fixes[:2]])
    assert r.exit_code == 0, r.output
    sw = json.loads(r.output)
    assert sw["round"] == 4 and len(sw["games"]) == 7      # the assumed game is not swung
    for fix, words in [("Belgrade: r4 Rapport - Giri 1-0", "do not meet"),
                       ("Rapport beats Giri 2-0", "do not meet in a knock-out match"),
                       ("Berlin: r1 Rapport - Giri 1-0", "more than one event starts so")]:
        r = CliRunner().invoke(main, ["simulate", SCENARIO, "--at", "event2-round3",
                                      "--fix", fix])
        assert r.exit_code == 2 and words in r.output, (fix, r.output)



def test_knockout_what_ifs_replay_the_real_matches(gp):
    """Berlin 1's semi-finals assumed with their real results from event1-groups give the
    numbers of event1-sf (same seed: identical); with the final too ("on tiebreaks": two
    classical draws, as [RU] gives it), whocan answers as at event1.  Source of the results:
    the scenario's [[events.knockout]] entries ([RU])."""
    sf = ["--fix", "Berlin 1: Nakamura beats Rapport 1.5-0.5",
          "--fix", "event1: Aronian beats Dominguez 1.5-0.5"]
    final = ["--fix", "Berlin 1: Nakamura beats Aronian on tiebreaks"]
    args = ["--sims", "4000", "--json", "--no-progress", "--seed", "5"]

    def run(*a):
        r = CliRunner().invoke(main, list(a))
        assert r.exit_code == 0, r.output
        return json.loads(r.output)

    got = run("simulate", SCENARIO, "--at", "event1-groups", *args, *sf)
    assert got["players"] == run("simulate", SCENARIO, "--at", "event1-sf", *args)["players"]
    assert got["assumed"] == [
        "Berlin 1 (3-17 February 2022) semi-final 1: Hikaru Nakamura beats Richard Rapport "
        "1½-½ in the classical games",
        "Berlin 1 (3-17 February 2022) semi-final 2: Levon Aronian beats Leinier Dominguez "
        "1½-½ in the classical games"]
    w = run("whocan", SCENARIO, "--at", "event1-groups", "--json", *sf, *final)
    want = run("whocan", SCENARIO, "--at", "event1", "--json")
    assert {t: [(r["name"], r["status"]) for r in rows] for t, rows in w["targets"].items()} \
        == {t: [(r["name"], r["status"]) for r in rows] for t, rows in want["targets"].items()}
    assert w["points"] == want["points"] and w["matches_left"] == want["matches_left"]
    assert w["assumed"][-1].endswith("on tiebreaks (two classical draws assumed)")
    # swing after an assumed semi-final: the other one
    sw = run("swing", SCENARIO, "--at", "event1-groups", "--sims", "1000", "--json", *sf[:2])
    assert [m["players"] for m in sw["matches"]] == [["Levon Aronian", "Leinier Dominguez"]]
    # a real match with its real result is no what-if; with another it is refused
    same = run("simulate", SCENARIO, "--at", "event1-sf", *args, *sf[:2])
    assert "assumed" not in same
    for at, fix, words in [
            ("event1-sf", "Berlin 1: Nakamura beats Rapport 2-0", "already played: Hikaru "
             "Nakamura beats Richard Rapport 1½-½"),
            ("event1-groups", "Berlin 1: Nakamura beats Aronian 2-0", "do not meet"),
            ("event1-groups", "Berlin 1: Nakamura beats Rapport 2-1", "the winner's classical"),
            ("event1-round6", "Berlin 1: Nakamura beats Rapport 2-0", "do not meet")]:
        r = CliRunner().invoke(main, ["simulate", SCENARIO, "--at", at, "--fix", fix])
        assert r.exit_code == 2 and words in r.output, (fix, r.output)
        assert len(r.output.strip().splitlines()) == 1


def test_whocan_with_the_real_results_as_what_ifs_answers_as_at_the_next_checkpoint(gp):
    """whocan from event2-round3 assuming Belgrade's round-4 games with their real results
    settles every player as whocan at event2-round4 does (the same statuses, games left and
    points), and says what it assumed."""
    from simcycle.enums import RESULT_TEXT
    mod, scn = gp
    fixes = [f"Belgrade: r4 {scn.names[w]} - {scn.names[b]} {RESULT_TEXT[r]}"
             for gr in scn.events[1].groups for rd, w, b, r in gr.games if rd == 4]
    args = [a for f in fixes for a in ("--fix", f)]
    r = CliRunner().invoke(main, ["whocan", SCENARIO, "--at", "event2-round3", "--json", *args])
    assert r.exit_code == 0, r.output
    got = json.loads(r.output)
    want = json.loads(CliRunner().invoke(main, ["whocan", SCENARIO, "--at", "event2-round4",
                                                "--json"]).output)

    def statuses(d):
        return {t: {row["name"]: row["status"] for row in rows}
                for t, rows in d["targets"].items()}

    assert statuses(got) == statuses(want)
    assert got["games_left"] == want["games_left"] == 64
    assert got["points"] == want["points"]
    assert len(got["assumed"]) == 8
    assert not any(row["status"] == "undetermined" for rows in got["targets"].values()
                   for row in rows)
    # an assumed game is not part of any path: the paths list only the games still open
    for rows in got["targets"].values():
        for row in rows:
            for step in row.get("path") or []:
                assert not (step.get("event") == 2 and step.get("round") == 4), step


def test_top_two_settled_after_event3_groups():
    # [ES] introduction, and [RU] above its final table: after the group stage of the third
    # event Nakamura and Rapport were certain of the top two places
    ps = _simulate("event3-groups")
    for name, p in ps.items():
        assert p["p_qualify"] == (1.0 if name in ("Hikaru Nakamura", "Richard Rapport") else 0.0)


def test_nakamura_first_after_event3_semifinal():
    # [ES] introduction: during his semi-final Nakamura passed Rapport's score and won the series
    ps = _simulate("event3-sf")
    assert ps["Hikaru Nakamura"]["p_first"] == 1.0
    assert ps["Hikaru Nakamura"]["expected_points"] >= 23


@pytest.mark.parametrize("at", ["start", "event1", "event2"])
def test_two_qualify_and_fund_paid(at):
    ps = _simulate(at, sims=3000)
    assert sum(p["p_qualify"] for p in ps.values()) == pytest.approx(2.0, abs=1e-9)
    assert sum(p["p_first"] for p in ps.values()) == pytest.approx(1.0, abs=1e-9)
    # every simulated series pays exactly 3 x 150,000 ([RU] prize fund)
    assert sum(p["expected_prize"] for p in ps.values()) == pytest.approx(450_000, rel=1e-9)
    assert ps["Ding Liren"]["p_qualify"] == 0.0   # withdrew from every event
    if at == "event2":
        assert ps["Richard Rapport"]["expected_points"] == 20.0  # done: 7 + 13


def test_replay_is_deterministic():
    ps = _simulate("event3", sims=600)
    assert (ps["Hikaru Nakamura"]["p_first"] == 1.0
            and ps["Hikaru Nakamura"]["expected_prize"] == 42000)
    assert ps["Richard Rapport"]["p_place"][1] == 1.0
    # =14 Predke / Oparin are level on every criterion: lots, about half each
    assert 0.4 < ps["Alexandr Predke"]["p_place"][13] < 0.6


def test_readings_are_switchable(tmp_path, gp):
    mod, _ = gp
    text = TEXT.replace('playoff_places = "elimination"', 'playoff_places = "first-only"')
    text = text.replace('draw_rule = "baskets"', 'draw_rule = "snake"')
    text = text.replace('reduced_tie = "next-step"', 'reduced_tie = "restart"')
    f = tmp_path / "gp.toml"
    f.write_text(text, encoding="utf-8")
    m2, scn = load_scenario(f)
    assert scn.rules["playoff_places"] == "first-only" and scn.rules["draw_rule"] == "snake"
    # the 2022 play-offs were all two-player: the replay does not change
    assert [p["points"] for p in m2.standings(scn, None)["players"]][:3] == [23, 20, 17]
    plan = m2.compile(scn, load_model(), CompileOptions(at="start"))
    # snake by rating for the undrawn events 2 and 3: no random draw, groups of four
    assert list(plan.args.draw) == [0, 0, 0]
    assert sorted(plan.args.roster[1]) == sorted(
        scn.index[n.casefold()] for n in ("Andreikin", "Shankland", "Bacrot", "Grischuk", "Giri",
                                           "Vitiugov", "Tabatabaei", "Harikrishna", "Rapport",
                                           "Vidit", "Shirov", "Fedoseev", "Vachier-Lagrave",
                                           "Mamedyarov", "Predke", "Yu"))


def test_odds_lists_open_games():
    r = CliRunner().invoke(main, ["odds", SCENARIO, "--at", "event2-round5", "--json"])
    assert r.exit_code == 0
    d = json.loads(r.output)
    assert len(d["games"]) == 8 and all(g["round"] == 6 and g["event"] == 2 for g in d["games"])
    assert all(abs(g["p_white"] + g["p_draw"] + g["p_black"] - 1) < 1e-12 for g in d["games"])


# ---- bad input -------------------------------------------------------------------------------
BAD = [
    # a player in two groups of one event
    ('players = ["Rapport", "Wojtaszek", "Fedoseev", "Oparin"]',
     'players = ["Rapport", "Wojtaszek", "Fedoseev", "Nakamura"]', "already in group"),
    # a group game entered twice
    ('  [1, "Nakamura", "Bacrot", "1/2-1/2"],',
     '  [1, "Nakamura", "Bacrot", "1/2-1/2"],\n  [2, "Nakamura", "Bacrot", "1-0"],',
     "entered twice"),
    # a knock-out pairing contradicting the group winners
    ('players = ["Nakamura", "Rapport"]', 'players = ["Nakamura", "Wojtaszek"]',
     "contradicts the group winners"),
    # a substitute who is not in the scenario
    ('{ player = "Radoslaw Wojtaszek", replaces = "Ding Liren" }',
     '{ player = "Magnus Carlsen", replaces = "Ding Liren" }', "substitute is not in"),
    # an unknown player in a game
    ('  [1, "Nakamura", "Bacrot", "1/2-1/2"],', '  [1, "Nakamura", "Bacrotte", "1/2-1/2"],',
     "unknown player"),
    # an impossible result
    ('  [1, "Nakamura", "Bacrot", "1/2-1/2"],', '  [1, "Nakamura", "Bacrot", "2-0"],',
     "impossible result"),
    # a match winner contradicting its classical games
    ('classical = ["0-1", "1/2-1/2"]  # from the first player\'s side\nwinner = "Rapport"',
     'classical = ["0-1", "1/2-1/2"]  # from the first player\'s side\nwinner = "Andreikin"',
     "contradicts the classical"),
    # a play-off for a group with no tie
    ('[[events.groups]]\nname = "C"',
     '[[events.groups]]\nname = "C"\nplayoff = { places = ["Aronian", "Vidit"] }',
     "nobody is level"),
    # an unknown reading
    ('schedule = "berger-swapped"', 'schedule = "swiss"', "must be one of"),
]


@pytest.mark.parametrize("old,new,msg", BAD)
def test_bad_input_exit_2(tmp_path, old, new, msg):
    assert old in TEXT
    f = tmp_path / "bad.toml"
    f.write_text(TEXT.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ScenarioError) as e:
        load_scenario(f)
    assert msg in str(e.value) and str(f) in str(e.value)
    r = CliRunner().invoke(main, ["standings", str(f)])
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_points_for_classical_wins(tmp_path):
    # [points] classical_win = 1 (a what-if rule, not the 2022 regulations): every player's
    # series total grows by exactly his classical wins (group games and knock-out classical
    # games, the table's GW column); the kernel equals its twin under the rule; whocan says
    # plainly that it does not model it.
    from simcycle.reference import groups as twin

    text = TEXT.replace("[points]", "[points]\nclassical_win = 1", 1)
    assert text != TEXT
    f = tmp_path / "gp-bonus.toml"
    f.write_text(text, encoding="utf-8")
    fmt, bonus = load_scenario(f)
    _, plain = load_scenario(SCENARIO)
    a = {r["name"]: r for r in fmt.standings(plain, None)["players"]}
    b = {r["name"]: r for r in fmt.standings(bonus, None)["players"]}
    for name, r in a.items():
        assert b[name]["points"] == r["points"] + r["classical_wins"], name
    model = load_model()
    plan = fmt.compile(bonus, model, CompileOptions(at="event2-round4"))
    k = plan.run_batch(5, 0, 1500)
    t = twin.simulate_series(plan.args, 5, 0, 1500)
    assert (k["place"] == t["place"]).all() and (k["points"] == t["points"]).all()
    # at the end every replica is the final table: expected points = the table's
    final = plan.__class__(bonus, model, CompileOptions(at=None))
    res = final.run_batch(1, 0, 200)
    for i, name in enumerate(final.info.names):
        assert res["points"][i] / 200 / 6 == pytest.approx(b[name]["points"]), name
    with pytest.raises(ScenarioError, match="classical wins"):
        fmt.whocan(bonus, "event3")


def test_odds_list_the_knockout_matches_whose_players_are_known():
    """After Berlin 1's groups: the two semi-finals (group winners A v B, C v D, [RU]), each
    with P(win) from the match model (the same as swing's six results add up to); after the
    semi-finals, the final; with group games left (after round 5), no match."""
    def odds(at):
        r = CliRunner().invoke(main, ["odds", SCENARIO, "--at", at, "--json"])
        assert r.exit_code == 0, r.output
        return json.loads(r.output)

    d = odds("event1-groups")
    assert [(m["round"], m["players"]) for m in d["matches"]] == [
        ("semi-final 1", ["Hikaru Nakamura", "Richard Rapport"]),
        ("semi-final 2", ["Levon Aronian", "Leinier Dominguez"])]
    sw = json.loads(CliRunner().invoke(main, ["swing", SCENARIO, "--at", "event1-groups",
                                              "--sims", "1000", "--json"]).output)
    for m, s in zip(d["matches"], sw["matches"]):
        assert abs(sum(m["p_win"]) - 1) < 1e-12 and 0 < m["p_tiebreak"] < 1
        assert abs(m["p_win"][0] - sum(o["p"] for o in s["outcomes"][:3])) < 1e-12
    assert [m["round"] for m in odds("event1-sf")["matches"]] == ["final"]
    assert odds("event1-round5")["matches"] == [] and odds("event1-round5")["games"]
    text = CliRunner().invoke(main, ["odds", SCENARIO, "--at", "event1-groups"]).output
    assert "Berlin 1       semi-final 1  Hikaru Nakamura" in text and "tiebreaks =" in text
    # after the last group round and before the play-offs (the scenario's group B and D
    # play-offs, [RU]): no match yet, the pending play-offs are said
    pending = [x for x in odds("event1-round6")["notes"] if "play-off for first" in x]
    assert [x.split(" group ")[1][:1] for x in pending] == ["B", "D"]
    assert pending[1].endswith("(Leinier Dominguez, Wesley So)")
