"""The process entry (``simcycle`` / ``python -m simcycle``: ``simcycle.cli.run``) and
``simcycle warm-up``.

``run`` switches the garbage collector off for start-up and ends the process without the
interpreter's teardown; these tests check that nothing a command writes is lost on the way
out, that exit statuses are kept, and that the collector state of an in-process caller is
left alone.
"""

import gc
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from conftest import ROOT
from simcycle.cli import main

CAND = str(ROOT / "scenarios" / "candidates-2022.toml")


def simcycle(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "simcycle", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=900)


def test_output_is_complete_and_exit_statuses_kept(tmp_path):
    p = simcycle("simulate", CAND, "--sims", "2000", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)                  # the whole JSON document reached the pipe
    assert d["sims"] == 2000
    assert abs(sum(pl["p_first"] for pl in d["players"]) - 1) < 1e-9
    out = tmp_path / "sim.csv"
    with out.open("w") as f:                  # stdout a file: flushed before the exit
        p = subprocess.run([sys.executable, "-m", "simcycle", "simulate", CAND, "--sims",
                            "500", "--csv"], stdout=f, stderr=subprocess.PIPE, text=True,
                           cwd=tmp_path, timeout=900)
    assert p.returncode == 0, p.stderr
    rows = out.read_text().splitlines()
    assert len(rows) == 1 + 8 and rows[0].startswith("name,")   # a header and 8 players
    p = simcycle("simulate", str(tmp_path / "missing.toml"))
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.strip().splitlines() == [
        f"simcycle: error: {tmp_path / 'missing.toml'}: no such scenario file"]
    p = simcycle("--version")
    assert p.returncode == 0 and p.stdout.strip() == "simcycle, version 0.1.0"


def test_a_closed_pipe_ends_quietly():
    # `simcycle simulate ... | head -1`: the reader goes away; no traceback, no error line
    p = subprocess.run(f"'{sys.executable}' -m simcycle simulate '{CAND}' --sims 200 | head -1",
                       shell=True, capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert p.returncode == 0 and "Traceback" not in p.stderr and "Error" not in p.stderr
    assert p.stdout.count("\n") == 1


def test_in_process_callers_keep_their_collector():
    # the CLI called in-process (tests, notebooks) leaves the collector as it found it
    assert gc.isenabled()
    r = CliRunner().invoke(main, ["checkpoints", CAND])
    assert r.exit_code == 0 and gc.isenabled()


def test_warm_up_one_format_and_the_plans_it_lists():
    from simcycle import warmup
    from simcycle.scenario import FORMATS

    jobs = warmup.jobs()
    # every registered format with a shipped scenario is warmed, with and without offsets
    fmts = {j.format for j in jobs}
    assert {"round-robin", "knockout-series", "group-series", "tour"} <= fmts <= set(FORMATS)
    for f in fmts:
        assert {(j.offsets, j.hot) for j in jobs if j.format == f} >= {(False, False),
                                                                       (True, False)}
    assert {j.format for j in warmup.jobs("tour")} == {"tour"}
    p = simcycle("warm-up", "round-robin", "--no-progress", cwd=ROOT / "docs")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    lines = p.stdout.strip().splitlines()
    n = len(warmup.jobs("round-robin"))
    assert len(lines) == 1 and lines[0].startswith("warm-up: kernels of round-robin ready")
    assert f"({n} plans compiled or loaded" in lines[0]


@pytest.mark.parametrize("arg", ["swiss-open", ""])
def test_warm_up_refuses_an_unknown_format_in_one_line(arg):
    r = CliRunner().invoke(main, ["warm-up", arg])
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("simcycle: error: FORMAT: unknown format")
