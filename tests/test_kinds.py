"""Event kinds in the model (for_kind), the model files v1 and v2, the scenario key
[scenario] kind and its wiring through the command line, offsets defaults."""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from conftest import SCENARIOS, write
from simcycle.cli import main
from simcycle.cli.options import model_for as _model
from simcycle.formats.base import CompileOptions
from simcycle.errors import ScenarioError
from simcycle.model.gamedata import read_games
from simcycle.model import DEFAULT_MODEL, DEFAULT_MODEL_V1, P_DRAW0, load_model
from simcycle.scenario import load_scenario

CAND = str(SCENARIOS / "candidates-2022.toml")
V1_TEXT = DEFAULT_MODEL_V1.read_text(encoding="utf-8")


def run(*args):
    return CliRunner().invoke(main, list(args))


def model_with(tmp_path, extra: str, replace: tuple = ()):
    text = V1_TEXT
    for a, b in replace:
        assert a in text
        text = text.replace(a, b)
    return write(tmp_path, "m.toml", text + "\n" + extra)


def test_for_kind_multiplies_the_draw_odds(tmp_path):
    # draw0 0.5 means draw odds nu0 = 2*0.5/0.5 = 2; kappa = ln 2 doubles them to 4, so
    # draw0 becomes 4/(2+4) = 2/3; kappa = -ln 2 halves them to 1: draw0 1/3.
    p = model_with(tmp_path, f"[kinds]\ncandidates = {math.log(2)}\nknockout = {-math.log(2)}\n",
                   (("draw0 = 0.72 ", "draw0 = 0.5 "),))
    m = load_model(p)
    assert m.control("classical").draw0 == 0.5
    assert m.for_kind("candidates").control("classical").draw0 == pytest.approx(2 / 3)
    assert m.for_kind("knockout").control("classical").draw0 == pytest.approx(1 / 3)
    # every control moves, play-off controls included: rapid-15+10 draw0 0.51, nu0 = 1.02/0.49
    nu = 1.02 / 0.49 * 2
    assert m.for_kind("candidates").control("rapid-15+10").draw0 == pytest.approx(nu / (2 + nu))
    # the reference kind, kinds the file does not list, and no kind leave the model as it is
    for k in ("round-robin", "open", None):
        assert m.for_kind(k).control("classical").draw0 == 0.5
    assert m.for_kind("candidates").kind == "candidates"
    # idempotent, and relative to the reference kind: applied twice it is applied once (a
    # cycle's part compiled with the cycle's model); from one kind to another, odds 4 -> 1
    c = m.for_kind("candidates")
    assert c.for_kind("candidates").control("classical").draw0 == pytest.approx(2 / 3)
    assert c.for_kind("knockout").control("classical").draw0 == pytest.approx(1 / 3)
    assert c.for_kind(None).control("classical").draw0 == pytest.approx(0.5)
    with pytest.raises(ScenarioError):
        m.for_kind("swiss")


def test_draw_rate_under_the_candidates_kind_matches_kappa():
    m = load_model()
    k = m.kinds["candidates"]
    d0 = m.control("classical").draw0
    nu = 2 * d0 / (1 - d0) * math.exp(k)
    assert m.for_kind("candidates").control("classical").draw0 == pytest.approx(nu / (2 + nu))
    # equal players at the reference: P(draw) = nu/(s + 1/s + nu) with White's edge in s
    pw, pd, pb = m.for_kind("candidates").wdl("classical", 2750, 2750)
    assert pd < m.wdl("classical", 2750, 2750)[1]


def test_playoff_games_of_a_candidates_scenario_use_the_kind():
    mod, scn = load_scenario(CAND)
    assert scn.kind == "candidates"
    model = _model(scn, None)                # what every command uses
    assert model.kind == "candidates"
    base = load_model()
    plan = mod.compile(scn, model, CompileOptions(at="round13"))
    for ctl in ("classical", "rapid-15+10", "rapid-10+5", "blitz-3+2"):
        ci = model.index(ctl)
        d0 = base.control(ctl).draw0
        nu = 2 * d0 / (1 - d0) * math.exp(base.kinds["candidates"])
        assert plan.args.params[ci, P_DRAW0] == pytest.approx(nu / (2 + nu)), ctl
    # the play-off stages of the plan point at those rows
    assert {int(x) for x in plan.args.stages[:, :, 3].ravel()} >= {model.index("rapid-15+10")}


def test_v1_still_loads_unchanged():
    m = load_model(DEFAULT_MODEL_V1)
    assert m.version == "1.0.0" and m.kinds == {} and m.offsets_default is False
    assert m.offset_slope == 0.87 and m.control("classical").draw0 == 0.72
    assert m.control("classical").level == 0.49
    assert m.params[m.index("classical"), 7] == 0.87


def _sources():
    import csv

    from simcycle.model.gamedata import DEFAULT_GAMES
    with open(DEFAULT_GAMES, encoding="utf-8", newline="") as fh:
        return [r["source"] for r in csv.DictReader(fh)]


def test_v2_is_fitted_on_the_games_before_2022_07():
    from simcycle.model import DEFAULT_MODEL_V2
    m = load_model(DEFAULT_MODEL_V2)
    assert DEFAULT_MODEL_V2.name == "davidson-elo-v2.toml" and m.path == str(DEFAULT_MODEL_V2)
    assert DEFAULT_MODEL.name == "davidson-elo-v4.toml"
    assert m.version == "2.0.0"
    g = read_games()
    # v2 was fitted on the games of the build before the 2021-2026 files came in
    old = g.take(np.array([not s.startswith("2021-2026/") for s in _sources()], bool))
    assert m.fit["games_classical"] == sum(1 for c in old.control if c == "classical")
    assert m.fit["window"] == list(old.take(old.where(controls={"classical", "rapid"})).window())
    c = m.control("classical")
    assert c.fitted is True and set(c.se) == {"draw0", "white_edge", "slope", "level"}
    assert m.control("armageddon-5v4").fitted is False
    assert set(m.kinds_se) <= set(m.kinds) and "candidates" in m.kinds_se
    # with offsets each control keeps its own slope (v2 has no offsets.slope)
    assert m.offset_slope is None and m.params[m.index("classical"), 7] == c.slope


BAD_MODELS = [
    ("[kinds]\nswiss = 0.1\n", (), "kinds.swiss"),
    ("[kinds]\ncandidates = 9.0\n", (), "kinds.candidates"),
    ("[kinds]\ncandidates = nan\n", (), "kinds.candidates"),
    ("[kinds]\nround-robin = 0.2\n", (), "kinds.round-robin"),
    ("[kinds]\ncandidates_se = -1.0\n", (), "kinds.candidates_se"),
    ('[fit]\nwindow = ["2020-01-01", "2019-01-01"]\n', (), "fit.window"),
    ("[fit]\nloglik = inf\n", (), "fit.loglik"),
    ("[fit]\ngames = 3\n", (), "fit.games"),
    ("", (("level = 0.49", "level = 0.49\nlevel_se = inf"),), "controls.classical.level_se"),
    ("", (("level = 0.49", "level = 0.49\ndraw1 = 0.3"),), "controls.classical.draw1"),
    ("", (("slope = 0.87", "slope = 0.87\ndefault = 1"),), "offsets.default"),
    ("", (("draw0 = 0.72 ", "draw0 = inf "),), "controls.classical.draw0"),
]


@pytest.mark.parametrize("extra,replace,key", BAD_MODELS, ids=[b[2] for b in BAD_MODELS])
def test_bad_model_keys_exit_2_with_the_key(tmp_path, extra, replace, key):
    p = model_with(tmp_path, extra, replace)
    r = run("odds", CAND, "--at", "round13", "--model", str(p))
    assert r.exit_code == 2, r.output
    assert key in r.output and str(p) in r.output and len(r.output.strip().splitlines()) == 1


def test_scenario_kind_defaults_and_refusal(tmp_path):
    kinds = {f: load_scenario(SCENARIOS / f)[1].kind for f in
             ("grand-prix-2019.toml", "grand-prix-2022.toml", "acp-tour-2004-05.toml")}
    assert kinds == {"grand-prix-2019.toml": "knockout", "grand-prix-2022.toml": "group-stage",
                     "acp-tour-2004-05.toml": "round-robin"}
    text = open(CAND, encoding="utf-8").read()
    p = write(tmp_path, "c.toml", text.replace('kind = "candidates"', 'kind = "swiss"'))
    r = run("standings", str(p))
    assert r.exit_code == 2 and "scenario.kind" in r.output and "swiss" in r.output
    p = write(tmp_path, "c2.toml", text.replace('kind = "candidates"', ""))
    assert load_scenario(p)[1].kind == "round-robin"


def test_simulate_reports_the_kind_and_takes_offsets_from_the_model(tmp_path):
    d = json.loads(run("simulate", CAND, "--at", "round12", "--sims", "2000", "--json").output)
    assert d["model"]["kind"] == "candidates" and d["model"]["offsets"] is False
    p = write(tmp_path, "m.toml", DEFAULT_MODEL.read_text(encoding="utf-8").replace(
        "default = false", "default = true"))
    d = json.loads(run("simulate", CAND, "--at", "round12", "--sims", "2000", "--json",
                       "--model", str(p)).output)
    assert d["model"]["offsets"] is True
    d = json.loads(run("simulate", CAND, "--at", "round12", "--sims", "2000", "--json",
                       "--model", str(p), "--no-offsets").output)
    assert d["model"]["offsets"] is False
    r = run("simulate", CAND, "--at", "round13", "--exact", "--json", "--model", str(p))
    assert r.exit_code == 0, r.output
