"""The models v3 and v4 (the default): fitted on the shipped games to 2026 with the speed
controls, every parameter with its provenance; v4 the same fit with the prior on slope and level
(within 0.2 SE of v3 on these games); the Armageddon fit's held terms and its derived 5 v 4 odds;
the one-line note when a field lies outside the ratings the model was fitted on."""

import math

import numpy as np
import pytest
from click.testing import CliRunner

from conftest import SCENARIOS, write
from simcycle.cli import main
from simcycle.model import DEFAULT_MODEL, DEFAULT_MODEL_V2, DEFAULT_MODEL_V3, load_model
from simcycle.model.fit import ARMAGEDDON_HOLD, PRIOR, fit
from simcycle.model.gamedata import read_games


@pytest.fixture(scope="module")
def v3():
    return load_model(DEFAULT_MODEL_V3)


def test_default_model_is_v4_the_prior_fit_within_a_fifth_of_an_se_of_v3(v3):
    v4 = load_model()
    assert DEFAULT_MODEL.name == "davidson-elo-v4.toml" and v4.version == "4.0.0"
    assert {k: tuple(x) for k, x in v4.fit["prior"].items()} == PRIOR and "prior" not in v3.fit
    g = read_games()
    r = fit(g, classes=("classical", "rapid", "armageddon"), hold=ARMAGEDDON_HOLD, prior=PRIOR)
    for cls, name in (("classical", "classical"), ("rapid", "rapid-15+10")):
        p, c4, c3 = r.control(cls), v4.control(name), v3.control(name)
        assert c4.slope == pytest.approx(p["slope"], abs=1e-4)
        assert c4.draw0 == pytest.approx(p["draw0"], abs=1e-4)
        for q in ("draw0", "white_edge", "slope"):
            assert abs(getattr(c4, q) - getattr(c3, q)) < 0.2 * c3.se[q], (name, q)
    assert v4.fit["games_classical"] == v3.fit["games_classical"]


def test_v3_is_fitted_on_the_shipped_games(v3):
    assert DEFAULT_MODEL_V3.name == "davidson-elo-v3.toml" and v3.version == "3.0.0"
    g = read_games()
    for c in ("classical", "rapid", "armageddon"):
        assert v3.fit[f"games_{c}"] == sum(1 for x in g.control if x == c), c
    used = g.take(g.where(controls={"classical", "rapid", "armageddon"}))
    assert v3.fit["window"] == list(used.window()) and v3.fit["window"][1] >= "2026-06-01"
    # the fitted controls carry standard errors; the others say they are not fitted
    for name in ("classical", "rapid-15+10", "rapid-10+10", "armageddon-10v7"):
        c = v3.control(name)
        assert c.fitted is True and {"draw0", "white_edge"} <= set(c.se), name
    for c in v3.controls:
        assert c.fitted is not None, c.name
    # v2 stays selectable, unchanged
    v2 = load_model(DEFAULT_MODEL_V2)
    assert v2.version == "2.0.0" and v2.control("classical").draw0 == 0.6953


def test_v3_reproduces_the_fit_it_was_written_from(v3):
    g = read_games()
    r = fit(g, classes=("classical", "rapid", "armageddon"), hold=ARMAGEDDON_HOLD)
    for cls, name in (("classical", "classical"), ("rapid", "rapid-15+10"),
                      ("armageddon", "armageddon-10v7")):
        p, c = r.control(cls), v3.control(name)
        assert c.draw0 == pytest.approx(p["draw0"], abs=1e-4)
        assert c.white_edge == pytest.approx(p["white_edge"], abs=1e-3)
        assert c.slope == pytest.approx(p["slope"], abs=1e-4)
    # held, not fitted: the base model's Armageddon slope and level term
    assert r.value("slope:armageddon") == (0.85, 0.0) and r.value("level:armageddon")[1] == 0.0
    assert "slope" not in v3.control("armageddon-10v7").se
    # the Armageddons of the data: White won 69, drew 20 (Black goes through), lost 35 of 124
    y = g.result[np.array([c == "armageddon" for c in g.control])]
    assert list(np.bincount(y, minlength=3)) == [69, 20, 35]


def test_armageddon_5v4_is_derived_from_10v7_by_the_time_odds(v3):
    a, b = v3.control("armageddon-10v7"), v3.control("armageddon-5v4")
    # 120 Elo per doubling of the time ratio (talkchess time-handicap threads)
    assert b.white_edge == pytest.approx(a.white_edge + 120 * math.log2((5 / 4) / (10 / 7)),
                                         abs=0.01)
    assert b.draw0 == pytest.approx(a.draw0) and b.armageddon and b.fitted is False
    # equal players: White goes through (wins) with 10 v 7 more often than with 5 v 4
    assert v3.white_goes_through("armageddon-10v7", 2750, 2750) > v3.white_goes_through(
        "armageddon-5v4", 2750, 2750) > 0.45


def test_field_outside_the_fitted_ratings_gets_one_line(v3, tmp_path):
    lo, hi = v3.fit["level_band"]
    assert 2450 < lo < 2600 < 2800 < hi < 2900
    assert v3.field_note([2700, 2760]) is None
    note = v3.field_note([lo - 60, lo - 40])
    assert note.startswith("note:") and f"{lo - 50:.0f}" in note and "\n" not in note
    assert f"{lo:.0f}-{hi:.0f}" in note and "women" in note     # names the band and the gap
    text = (SCENARIOS / "candidates-2022.toml").read_text(encoding="utf-8")
    r = CliRunner().invoke(main, ["simulate", str(SCENARIOS / "candidates-2022.toml"),
                                  "--at", "start", "--sims", "1000"])
    assert r.exit_code == 0 and "outside" not in r.output
    # the same field 300 points lower (a mean near 2470): one line says so
    import re
    low = re.sub(r"rating = (\d+)", lambda m: f"rating = {int(m.group(1)) - 300}", text)
    p = write(tmp_path, "low.toml", low)
    r = CliRunner().invoke(main, ["simulate", str(p), "--at", "start", "--sims", "1000"])
    assert r.exit_code == 0, r.output
    lines = [ln for ln in r.output.splitlines() if "outside" in ln]
    assert len(lines) == 1 and "fitted on" in lines[0]


def test_v3_reproduces_its_data_s_draws_and_armageddon_odds(v3):
    from simcycle.model.backtest import model_probabilities
    g = read_games()
    # in sample, the fitted model's expected draws and White wins over its classical round
    # robins and its Armageddons lie within 2.5 standard errors of the counts
    for control, kind in (("classical", "round-robin"), ("armageddon", None)):
        sel = g.take(g.where(controls={control}, kinds=None if kind is None else {kind}))
        P = model_probabilities(v3, sel)
        for k in (0, 1):
            got = float(np.sum(sel.result == k))
            sd = math.sqrt(float(np.sum(P[:, k] * (1 - P[:, k]))))
            assert abs(got - P[:, k].sum()) < 2.5 * sd, (control, k, got, P[:, k].sum())
