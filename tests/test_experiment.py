"""Format experiments: variants really change the format, and Dask gives the same numbers."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from conftest import SCENARIOS, write
from simcycle import experiment as ex
from simcycle.cli import main
from simcycle.enums import Q_LOTS, Q_TIEBREAK

EXP = SCENARIOS / "experiments" / "candidates-formats.toml"


def test_variants_differ_as_their_rules_say():
    exp = ex.load_experiment(EXP)
    d = ex.run_experiment(exp, sims=20000, progress=False)
    v = {x["name"].split(":")[0].split(" (")[0]: x for x in d["variants"]}
    as_played = d["variants"][0]
    sb_first = d["variants"][1]
    triple = d["variants"][3]
    # without a play-off for first, no play-off is ever needed
    assert sb_first["measures"]["play-off for first needed"][0] == 0
    assert as_played["measures"]["play-off for first needed"][0] > 0.1
    # a longer event favours the favourite: 42 games v 14 (difference > 4 SE)
    a, sa = as_played["measures"]["p_favourite_first"]
    b, sb = triple["measures"]["p_favourite_first"]
    assert b - a > 4 * (sa * sa + sb * sb) ** 0.5
    assert len(v) == 4


def test_sweep_and_bad_keys(tmp_path):
    text = EXP.read_text().replace("[[variant]]",
                                   "[sweep]\n\"event.qualifying_places\" = [1, 3]\n\n[[variant]]",
                                   1)
    text = text.replace('base = "../candidates-2022.toml"',
                        f'base = "{SCENARIOS / "candidates-2022.toml"}"')
    exp = ex.load_experiment(write(tmp_path, "e.toml", text))
    assert len(exp["runs"]) == 8
    d = ex.run_experiment(exp, sims=2000, progress=False)
    q1 = d["variants"][0]["measures"]["p_favourite_qualifies"][0]
    q3 = d["variants"][1]["measures"]["p_favourite_qualifies"][0]
    assert q3 > q1
    bad = text.replace('"event.qualifying_places"', '"event.nope.x"')
    r = CliRunner().invoke(main, ["experiment", str(write(tmp_path, "b.toml", bad)),
                                  "--sims", "10"])
    assert r.exit_code == 2 and "event.nope.x" in r.output


def test_dask_local_cluster_gives_identical_results():
    pytest.importorskip("distributed")
    exp = ex.load_experiment(EXP)
    exp["runs"] = exp["runs"][:2]
    here = ex.run_experiment(exp, sims=5000, progress=False)
    there = ex.run_experiment(exp, sims=5000, dask="local")
    assert here["variants"] == there["variants"]


@pytest.mark.parametrize("edit, words", [
    ('drop = ["rounds"]', 'drop = ["roundz"]', ),
    ('drop = ["rounds"]', 'drop = "rounds"'),
    ("sims = 200000", "sims = 0"),
    ("seed = 2022", "seed = -1"),
    ("seed = 2022", "seed = nan"),
    ('set = { "event.cycles" = 1, "event.schedule" = "berger" }',
     'set = { "event.cycles" = 1, "event.schedule" = "berger", "event.colour" = 1 }'),
    ('name = "single round robin', 'nme = "single round robin'),
], ids=["unknown-drop", "drop-not-a-list", "sims-0", "seed-negative", "seed-nan",
        "variant-key-the-scenario-refuses", "unknown-variant-key"])
def test_bad_experiment_files_exit_2_with_one_line(tmp_path, edit, words):
    # each edit of the shipped experiment makes it wrong in one place; the command must name
    # the file and the key on one line, exit 2, and run nothing
    if isinstance(words, tuple):
        words = words[0]
    text = EXP.read_text().replace('base = "../candidates-2022.toml"',
                                   f'base = "{SCENARIOS / "candidates-2022.toml"}"')
    assert edit in text
    bad = write(tmp_path, "bad.toml", text.replace(edit, words, 1))
    r = CliRunner().invoke(main, ["experiment", str(bad), "--sims", "10"])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("simcycle: error: ") and str(bad) in lines[0]
    assert "Traceback" not in r.output


def test_dask_errors_are_one_line():
    pytest.importorskip("distributed")
    for address, words in (("not an address", "cannot connect"),
                           ("tcp://127.0.0.1:1", "cannot connect")):
        r = CliRunner().invoke(main, ["experiment", str(EXP), "--sims", "10", "--dask", address])
        assert r.exit_code == 2 and words in r.output
        assert len(r.output.strip().splitlines()) == 1


EMPTY_CLUSTER = """
import json, sys
import distributed
from click.testing import CliRunner
from simcycle import experiment as ex
from simcycle.cli import main
ex.WORKER_WAIT = 1.0
with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None) as c:
    r = CliRunner().invoke(main, ["experiment", sys.argv[1], "--sims", "10", "--dask",
                                  c.scheduler_address])
print(json.dumps({"code": r.exit_code, "output": r.output}))
"""


def test_dask_cluster_without_workers_is_one_line():
    # in a process of its own: once, in a full run from a fresh clone, the in-process cluster's
    # event loop did not start within distributed's 10 s after the earlier tests' Dask clients
    # (a failure of the set-up, not of what the test checks)
    pytest.importorskip("distributed")
    p = subprocess.run([sys.executable, "-c", EMPTY_CLUSTER, str(EXP)], capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    r = json.loads(p.stdout.strip().splitlines()[-1])
    assert r["code"] == 2 and "no workers" in r["output"], r
    assert len(r["output"].strip().splitlines()) == 1


def test_failed_variants_keep_what_finished(monkeypatch):
    # a variant that fails on the cluster (as when its workers are killed) does not lose the
    # others: they are reported, then one error line
    pytest.importorskip("distributed")
    real = ex.run_one

    def flaky(name, *a):
        if name.startswith("single"):
            raise RuntimeError("worker lost")
        return real(name, *a)
    monkeypatch.setattr(ex, "run_one", flaky)
    r = CliRunner().invoke(main, ["experiment", str(EXP), "--sims", "500", "--dask", "local"])
    assert r.exit_code == 2
    assert "V3  triple round robin" in r.output          # the others finished and are shown
    last = r.output.strip().splitlines()[-1]
    assert last.startswith("simcycle: error: 1 of 4 variants failed") and "worker lost" in last


def test_ctrl_c_keeps_the_finished_variants(monkeypatch):
    real = ex.run_one

    def stop(name, *a):
        if name.startswith("single"):
            raise KeyboardInterrupt
        return real(name, *a)
    monkeypatch.setattr(ex, "run_one", stop)
    r = CliRunner().invoke(main, ["experiment", str(EXP), "--sims", "500"])
    assert r.exit_code == 130
    assert "V2  Sonneborn-Berger" in r.output and "triple" not in r.output
    assert r.output.strip().splitlines()[-1] == ("simcycle: error: interrupted after 2 of 4 "
                                                 "variants; the figures above cover those")


GP22 = SCENARIOS / "experiments" / "grand-prix-2022-formats.toml"


def test_grand_prix_experiment_compares_draws_scoring_and_events():
    # scenarios/experiments/grand-prix-2022-formats.toml: every variant of a group series
    # runs, each reports the fairness measures and every player's P(qualify); the variants
    # really change the format
    d = ex.run_experiment(ex.load_experiment(GP22), sims=20_000, progress=False)
    v = d["variants"]
    assert len(v) == 5 and not d["incomplete"]
    for x in v:
        m = x["measures"]
        assert {"p_favourite_first", "p_favourite_qualifies", Q_TIEBREAK, Q_LOTS} <= set(m)
        assert abs(sum(p["p_qualify"][0] for p in x["players"]) - 2) < 1e-9   # two places
        assert x["favourite"] != "Ding Liren"      # he played no event: not the favourite
    tb = [x["measures"][Q_TIEBREAK] for x in v]
    # a point per classical win separates players: fewer ties at the qualifying cut (the
    # difference is many standard errors)
    assert tb[0][0] - tb[3][0] > 6 * (tb[0][1] ** 2 + tb[3][1] ** 2) ** 0.5
    # the fourth event: its 16 players get a third event, the others do not
    four = {p["name"]: p["p_qualify"][0] for p in v[4]["players"]}
    asp = {p["name"]: p["p_qualify"][0] for p in v[0]["players"]}
    assert four["Levon Aronian"] > asp["Levon Aronian"]
    assert four["Vladimir Fedoseev"] < asp["Vladimir Fedoseev"]
    text = ex.render(d)
    assert "P(qualify) % by player" in text and "V5  four events" in text


def test_experiment_on_a_knockout_series(tmp_path):
    # the Grand Prix 2019 (knock-out series): the fairness figures exist and the favourite is
    # one of the players who count
    exp = write(tmp_path, "ko.toml", f"""
[experiment]
name = "Grand Prix 2019: the classical-win bonus"
base = "{SCENARIOS / 'grand-prix-2019.toml'}"
at = "start"
sims = 5000
[[variant]]
name = "as played"
[[variant]]
name = "no bonus for a match won in classical games"
set = {{ "series.classical_win_bonus" = 0 }}
""")
    d = ex.run_experiment(ex.load_experiment(exp), progress=False)
    for x in d["variants"]:
        m = x["measures"]
        assert 0 < m["p_favourite_qualifies"][0] < 1
        assert abs(sum(p["p_qualify"][0] for p in x["players"]) - 2) < 1e-9


GS25 = SCENARIOS / "experiments" / "grand-swiss-formats.toml"


def test_grand_swiss_experiment_loads_and_a_variant_runs():
    # scenarios/experiments/grand-swiss-formats.toml: every variant's scenario says what its
    # name says; one variant (9 rounds, the cheapest) runs with few simulations and reports
    # the two measures the experiment is about
    exp = ex.load_experiment(GS25)
    runs = {r["name"]: r["scenario"] for r in exp["runs"]}
    assert len(runs) == 5
    base = runs["as played: 11 rounds, no acceleration, ARO-C1 first"]
    assert (base.n_rounds, base.acceleration, base.order[0], base.games) == (11, "none",
                                                                            "aro-cut1", ())
    assert runs["9 rounds"].n_rounds == 9 and runs["13 rounds"].n_rounds == 13
    assert runs["11 rounds, Baku acceleration"].acceleration == "baku"
    assert runs["11 rounds, Buchholz cut 1, Buchholz, Sonneborn-Berger first"].order[:3] == (
        "buchholz-cut1", "buchholz", "sonneborn-berger")
    r = next(r for r in exp["runs"] if r["name"] == "9 rounds")
    v = ex.run_one(r["name"], r["format"], r["scenario"], r["model"], exp["at"], 64, 1)
    m = v["measures"]
    assert v["favourite"] == "Praggnanandhaa R" and v["sims"] == 64
    assert {"p_favourite_qualifies", Q_TIEBREAK, Q_LOTS} <= set(m)
    assert 0 <= m[Q_TIEBREAK][0] <= 1
    # two places, always filled (the World Champion's passes down): P(qualify) sums to 2
    assert abs(sum(p["p_qualify"][0] for p in v["players"]) - 2) < 1e-9
    assert next(p for p in v["players"] if p["name"] == "Gukesh D")["p_qualify"][0] == 0
