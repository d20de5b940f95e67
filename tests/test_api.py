"""The Python API (docs/api.md): the same numbers as the command line, typed results that
survive ``to_pandas()``, a replaceable and checked game model, and the doctests of
docs/api.md."""

import doctest
import json
import subprocess
import sys

import msgspec
import pytest
from click.testing import CliRunner

import simcycle
from simcycle import api
from simcycle.cli import main
from simcycle.errors import ScenarioError

from conftest import ROOT

pd = pytest.importorskip("pandas")

CAND = "candidates-2022"
FIX = "r10 Rapport-Ding 1-0"


def cli_json(*args):
    r = CliRunner().invoke(main, [*args, "--json"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


@pytest.fixture(scope="module")
def cand():
    return simcycle.load(CAND)


def test_import_stays_cheap():
    """``import simcycle`` loads neither the API nor numpy (they come with the first use)."""
    code = ("import sys, simcycle; assert 'load' in dir(simcycle); "
            "print(sorted(m for m in ('numpy', 'numba', 'simcycle.api', 'msgspec') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_simulate_same_numbers_as_cli(cand):
    d = cli_json("simulate", CAND, "--at", "round9", "--sims", "5000", "--seed", "7",
                 "--fix", FIX)
    r = cand.simulate(at="round9", sims=5000, seed=7, fix=[FIX])
    assert r.to_json() == d          # every number, the head and the what-if, identical
    assert r.assumed == ["round 10: Richárd Rapport - Ding Liren 1-0"]
    # a second question on the same Event (its plan kept) gives the same numbers again
    assert cand.simulate(at="round9", sims=5000, seed=7, fix=FIX) == r


def test_other_commands_same_as_cli(cand):
    assert cand.standings("round9").to_json() == cli_json("standings", CAND, "--at", "round9")
    assert cand.odds("round9").to_json() == cli_json("odds", CAND, "--at", "round9")
    assert cand.whocan("round12").to_json() == cli_json("whocan", CAND, "--at", "round12")
    assert (cand.swing("round12", sims=1000, seed=3).to_json()
            == cli_json("swing", CAND, "--at", "round12", "--sims", "1000", "--seed", "3"))


def test_bad_what_if_is_the_cli_line(cand):
    r = CliRunner().invoke(main, ["simulate", CAND, "--at", "round9", "--fix",
                                  "r10 Rapport-Carlsen 1-0"])
    assert r.exit_code == 2
    with pytest.raises(ScenarioError) as e:
        cand.simulate(at="round9", sims=100, fix=["r10 Rapport-Carlsen 1-0"])
    assert r.output.strip() == f"simcycle: error: {e.value}"


@pytest.mark.parametrize("name", [CAND, "grand-prix-2019", "grand-prix-2022",
                                  "acp-tour-2004-05"])
def test_standings_and_odds_round_trip_every_format(name):
    ev = simcycle.load(name)
    cps = ev.checkpoints()
    at = cps[len(cps) // 2]
    for r in (ev.standings(at), ev.odds(at)):
        df = r.to_pandas()
        assert len(df) == len(r.rows()) > 0
        assert type(r).from_pandas(df) == r
        assert type(r).from_json(r.to_json()) == r


def test_every_result_type_round_trips(cand):
    results = [cand.simulate(at="round9", sims=2000, fix=FIX),
               cand.simulate(at="round12", exact=True),
               cand.standings("round9"), cand.odds("round9"),
               cand.swing("round12", sims=1000), cand.whocan("round12"),
               simcycle.load(CAND).history(sims=200)]
    for r in results:
        df = r.to_pandas()
        assert isinstance(df, pd.DataFrame) and len(df) > 0
        back = type(r).from_pandas(df)
        assert back == r, type(r).__name__
    sim = results[0]
    df = sim.to_pandas()
    # the frame holds the numbers, not only the attrs: one column per place
    assert list(df["name"]) == [p.name for p in sim.players]
    assert df["p_place_1"].tolist() == [p.p_place[0] for p in sim.players]


def _round_trip(r):
    df = r.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == len(r.rows()) > 0
    assert type(r).from_pandas(df) == r
    assert type(r).from_json(r.to_json()) == r
    return df


def test_swing_and_whocan_declared_in_every_format():
    """Swing and Whocan of the series formats and the tour: every key the formats write is a
    declared field (nothing left in ``extra``), the JSON comes back unchanged, and the frames
    round-trip."""
    gp19 = simcycle.load("grand-prix-2019")
    sw = gp19.swing("event4-qf", sims=512)
    assert sw.matches and sw.games is msgspec.UNSET and not sw.extra
    m = sw.matches[0]
    assert isinstance(m, api.SwingMatch) and len(m.outcomes) == 6 and not m.extra
    assert all(isinstance(p, api.SwingPlayer) and not p.extra for p in m.swing)
    assert sum(o.p for o in m.outcomes) == pytest.approx(1.0)
    df = _round_trip(sw)
    assert set(df["item.players"]) == {" – ".join(x.players) for x in sw.matches}
    assert sw.to_json() == gp19.swing_json("event4-qf", sims=512)
    tour = simcycle.load("acp-tour-2004-05")
    sw = tour.swing("event3", sims=512)
    assert sw.places and sw.matches is msgspec.UNSET and not sw.extra
    x = sw.places[0]
    assert isinstance(x, api.SwingPlace) and len(x.outcomes) == 3 and not x.extra
    assert all(isinstance(o, api.SwingOutcome) and o.fix and not o.extra for o in x.outcomes)
    assert all(isinstance(p, api.SwingPlayer) and not p.extra for p in x.swing)
    assert sum(o.p for o in x.outcomes) == pytest.approx(1.0)
    df = _round_trip(sw)
    assert set(df["item.player"]) == {x.player for x in sw.places}
    for name, at in (("grand-prix-2019", "event4-qf"), ("acp-tour-2004-05", "event3")):
        w = simcycle.load(name).whocan(at)
        assert not w.extra and w.points
        rows = [r for t in w.targets.values() for r in t]
        assert all(isinstance(r, api.WhocanRow) and not r.extra for r in rows)
        steps = [s for r in rows for s in r.path or []]
        assert steps and all(isinstance(s, api.PathStep) and not s.extra for s in steps)
        assert all(s.words() for s in steps)
        _round_trip(w)


def test_round_robin_swing_declared(cand):
    sw = cand.swing("round12", sims=512)
    assert sw.round == 13 and sw.results == ["1-0", "1/2-1/2", "0-1"] and not sw.extra
    g = sw.games[0]
    assert isinstance(g, api.SwingGame) and [o.result for o in g.outcomes] == sw.results
    p = g.players[0]
    assert p.p("first") == [p.p_first[r] for r in sw.results]
    assert len(sw.now) == 8 and all(isinstance(x, api.SwingNow) for x in sw.now)


def test_experiment_round_trips():
    r = api.experiment("experiments/candidates-formats", sims=500, seed=2)
    d = cli_json("experiment", "experiments/candidates-formats", "--sims", "500", "--seed", "2",
                 "--no-progress")
    assert json.loads(json.dumps(r.to_json())) == d     # (value, se) pairs are JSON lists
    df = r.to_pandas()
    assert set(df["variant"]) == {v.name for v in r.variants}
    assert api.Experiment.from_pandas(df) == r


def test_event_experiment(cand):
    """Variants of a loaded scenario: the scenario as it is gives simulate's P(first)."""
    r = cand.experiment({"no play-off": {"tiebreak.playoff_places": 0}}, at="round9",
                        sims=2000, seed=4)
    assert [v.name for v in r.variants] == ["as in the scenario", "no play-off"]
    sim = cand.simulate(at="round9", sims=2000, seed=4, offsets=False)
    base = r.variants[0]
    got = {p["name"]: p["p_first"][0] for p in base.extra["players"]}
    assert got == {p.name: p.p_first for p in sim.players}


class WhiteWins:
    """A game model of one's own: White wins every game."""

    def probabilities(self, games):
        return [[1.0, 0.0, 0.0] for _ in games]


def test_own_game_model_is_used(cand):
    base = cand.standings("round12")
    r = cand.simulate(at="round12", sims=2000, game_model=WhiteWins())
    whites = {}
    for g in cand.odds("round12").items:
        whites[g.extra["white"]] = whites.get(g.extra["white"], 0) + 1
    for p in r.players:
        pts = next(s.points for s in base.players if s.name == p.name)
        assert p.expected_points == pts + whites.get(p.name, 0)
        assert p.se_expected_points == 0.0


def test_elo_game_model_matches_the_default(cand):
    m = api.EloModel(cand.model())
    a = cand.simulate(at="round9", sims=3000, seed=5, game_model=m, offsets=False)
    b = cand.simulate(at="round9", sims=3000, seed=5, offsets=False)
    for x, y in zip(a.players, b.players):
        assert x.name == y.name
        assert x.p_place == pytest.approx(y.p_place, abs=2e-3)


GOOD = [0.4, 0.3, 0.3]


@pytest.mark.parametrize("make, words", [
    (lambda n: [[0.5, 0.5, 0.5]] + [GOOD] * (n - 1), "sum to 1.5"),
    (lambda n: [[float("nan"), 0.5, 0.5]] + [GOOD] * (n - 1), "not a finite number"),
    (lambda n: [GOOD] * (n - 1) + [[1.2, -0.2, 0.0]], "row {m}: a probability is "
                                                      "outside [0, 1]"),
    (lambda n: [[0.5, 0.5]] * n, "must return shape ({n}, 3)"),
    (lambda n: [GOOD] * (n + 1), "must return shape ({n}, 3)"),
    (lambda n: [[0.5, 0.5]] + [GOOD] * (n - 1), "must return numbers"),
    (lambda n: "many", "must return numbers"),
])
def test_game_model_checked(cand, make, words):
    n = len(cand.odds("round12").items)

    class Bad:
        def probabilities(self, games):
            assert len(games) == n
            return make(n)

    with pytest.raises(ScenarioError) as e:
        cand.simulate(at="round12", sims=100, game_model=Bad(), offsets=False)
    words = words.replace("{n}", str(n)).replace("{m}", str(n - 1))
    assert words in str(e.value) and "\n" not in str(e.value)


def test_game_model_refused_where_it_cannot_apply(cand):
    with pytest.raises(ScenarioError, match="offsets"):
        cand.simulate(at="round12", sims=100, game_model=WhiteWins(), offsets=True)


def test_docs_api_doctests():
    """Every example of docs/api.md runs and prints what the page says."""
    res = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False,
                           optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.attempted >= 10
    assert res.failed == 0


def test_py_typed_shipped():
    assert (ROOT / "simcycle" / "py.typed").exists()
