"""Format experiments: variants really change the format, and Dask gives the same numbers."""

import pytest
from click.testing import CliRunner

from conftest import SCENARIOS, write
from simcycle import experiment as ex
from simcycle.cli import main

EXP = SCENARIOS / "experiments" / "candidates-formats.toml"


def test_variants_differ_as_their_rules_say():
    exp = ex.load_experiment(EXP)
    d = ex.run_experiment(exp, sims=20000, progress=False)
    v = {x["name"].split(":")[0].split(" (")[0]: x for x in d["variants"]}
    as_played = d["variants"][0]
    sb_first = d["variants"][1]
    triple = d["variants"][3]
    # without a play-off for first, no play-off is ever needed
    assert sb_first["play-off for first needed"][0] == 0
    assert as_played["play-off for first needed"][0] > 0.1
    # a longer event favours the favourite: 42 games v 14 (difference > 4 SE)
    a, sa = as_played["p_favourite_first"]
    b, sb = triple["p_favourite_first"]
    assert b - a > 4 * (sa * sa + sb * sb) ** 0.5
    assert len(v) == 4


def test_sweep_and_bad_keys(tmp_path):
    text = EXP.read_text().replace("[[variant]]", "[sweep]\n\"event.qualifying_places\" = [1, 3]\n\n[[variant]]", 1)
    text = text.replace('base = "../candidates-2022.toml"', f'base = "{SCENARIOS / "candidates-2022.toml"}"')
    exp = ex.load_experiment(write(tmp_path, "e.toml", text))
    assert len(exp["runs"]) == 8
    d = ex.run_experiment(exp, sims=2000, progress=False)
    q1 = d["variants"][0]["p_favourite_qualifies"][0]
    q3 = d["variants"][1]["p_favourite_qualifies"][0]
    assert q3 > q1
    bad = text.replace('"event.qualifying_places"', '"event.nope.x"')
    r = CliRunner().invoke(main, ["experiment", str(write(tmp_path, "b.toml", bad)), "--sims", "10"])
    assert r.exit_code == 2 and "event.nope.x" in r.output


def test_dask_local_cluster_gives_identical_results():
    pytest.importorskip("distributed")
    exp = ex.load_experiment(EXP)
    exp["runs"] = exp["runs"][:2]
    here = ex.run_experiment(exp, sims=5000, progress=False)
    there = ex.run_experiment(exp, sims=5000, dask="local")
    assert here["variants"] == there["variants"]
