"""The parameter draw: each replica draws the model's game parameters from the fit's
covariance (``[covariance]`` of a fitted model file, ``OutcomeModel.draw_factor``,
``RoundRobinArgs.draw_factor``).  Kernel against its plain-Python twin, reproducible whatever
the thread count, the draw's spread against the file's covariance, bad files refused."""

import numba
import numpy as np
import pytest

from conftest import SCENARIOS, write
from simcycle.errors import ScenarioError
from simcycle.formats.base import CompileOptions
from simcycle.formats.roundrobin import FORMAT as RR
from simcycle.model import DEFAULT_MODEL, DEFAULT_MODEL_V2, load_model
from simcycle.reference import roundrobin as twin
from simcycle.reference.rng import Stream
from simcycle.scenario import load_scenario


@pytest.fixture(scope="module")
def cand():
    return load_scenario(SCENARIOS / "candidates-2022.toml")[1]


@pytest.fixture(scope="module")
def model():
    # the default (v4, simcycle fit on data/games/games.csv) carries the fit's covariance
    return load_model(DEFAULT_MODEL).for_kind("candidates")


def test_draw_factor_is_the_files_covariance(model):
    """A A^T is the covariance of (ln nu0 + kappa, edge, slope, level per Elo) taken from the
    file's matrix: the Candidates' kappa variance is added to u0's, level is per Elo."""
    A = model.draw_factor("classical")
    got = A @ A.T
    names = list(model.cov_names)
    C = model.cov
    u, k, s, lv = (names.index(x) for x in ("u0:classical", "kappa:candidates",
                                             "slope:classical", "level:classical"))
    assert got[0, 0] == pytest.approx(C[u, u] + C[k, k] + 2 * C[u, k], rel=1e-9)
    assert got[2, 2] == pytest.approx(C[s, s], rel=1e-9)
    assert got[3, 3] == pytest.approx(C[lv, lv] * 1e-4, rel=1e-9)
    assert got[2, 3] == pytest.approx(C[s, lv] * 1e-2, rel=1e-9, abs=1e-15)
    # the file's standard errors are the square roots of its diagonal (written by one fit)
    assert np.sqrt(got[2, 2]) == pytest.approx(model.control("classical").se["slope"], abs=1e-4)


def test_kernel_equals_twin_with_the_draw(cand, model):
    plan = RR.compile(cand, model, CompileOptions(at="round9", param_draw=True))
    assert plan.args.live and plan.args.draw_factor.shape == (4, 4)
    a = plan.run_batch(11, 300, 1200)
    b = twin.tallies(plan, 11, 300, 1200)
    for k in ("place", "qualify", "counters"):
        assert (a[k] == b[k]).all(), k
    # the draw changes replicas: against the same seed without it, some places differ
    off = RR.compile(cand, model, CompileOptions(at="round9", offsets=False)).run_batch(
        11, 300, 1200)
    assert (a["place"] != off["place"]).any()


def test_same_tallies_whatever_the_thread_count(cand, model):
    plan = RR.compile(cand, model, CompileOptions(at="round9", param_draw=True))
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        a = plan.run_batch(5, 0, 3000)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        b = plan.run_batch(5, 0, 3000)
    finally:
        numba.set_num_threads(old)
    for k in a:
        assert np.array_equal(a[k], b[k]), k


def test_drawn_terms_spread_as_the_covariance(cand, model):
    """The twin's drawn terms over 4,000 replicas: their sample covariance matches A A^T
    within sampling error (the variance of a sample variance is 2 sigma^4 / n)."""
    plan = RR.compile(cand, model, CompileOptions(at="start", param_draw=True))
    a = plan.args
    base = twin._drawn_terms(a._replace(draw_factor=np.zeros((0, 0))), Stream(1, 0))
    n = 4000
    x = np.array([twin._drawn_terms(a, Stream(3, r)) for r in range(n)])
    d = np.column_stack([np.log(x[:, 0] / base[0]), x[:, 4] - base[4], x[:, 3] - base[3],
                         x[:, 1] - base[1]])
    want = a.draw_factor @ a.draw_factor.T
    got = np.cov(d.T)
    for i in range(4):
        se = want[i, i] * np.sqrt(2.0 / n)
        assert abs(got[i, i] - want[i, i]) < 4 * se, i
        assert abs(d[:, i].mean()) < 4 * np.sqrt(want[i, i] / n), i


def test_refusals(cand, tmp_path):
    v2 = load_model(DEFAULT_MODEL_V2)          # written before the covariance table
    with pytest.raises(ScenarioError, match="no \\[covariance\\]"):
        RR.compile(cand, v2, CompileOptions(at="start", param_draw=True))
    with pytest.raises(ScenarioError, match="not fitted"):
        load_model(DEFAULT_MODEL).draw_factor("blitz-5+3")
    text = DEFAULT_MODEL.read_text()
    head, _, rest = text.partition("matrix = [\n  [")
    row, _, tail = rest.partition("\n")
    cells = row.split(", ")
    cells[1] = "0.5"                            # the (0, 1) entry only: no longer symmetric
    bad = head + "matrix = [\n  [" + ", ".join(cells) + "\n" + tail
    with pytest.raises(ScenarioError, match="covariance.matrix"):
        load_model(write(tmp_path, "asym.toml", bad))
    short = text.replace('names = ["u0:classical", ', 'names = [', 1)
    with pytest.raises(ScenarioError, match="covariance.matrix"):
        load_model(write(tmp_path, "short.toml", short))


def test_simulate_param_draw_in_the_cli(tmp_path):
    """One line per refusal, the draw said in the output's head and JSON."""
    import json

    from click.testing import CliRunner

    from simcycle.cli import main

    scn = str(SCENARIOS / "candidates-2022.toml")
    r = CliRunner().invoke(main, ["simulate", scn, "--at", "round12", "--sims", "2000",
                                  "--param-draw", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["model"]["param_draw"] is True
    r = CliRunner().invoke(main, ["simulate", scn, "--at", "round12", "--sims", "2000",
                                  "--param-draw", "--model", str(DEFAULT_MODEL_V2)])
    assert r.exit_code == 2 and "[covariance]" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["simulate", scn, "--at", "round12", "--param-draw", "--exact"])
    assert r.exit_code == 2 and "--exact" in r.output
