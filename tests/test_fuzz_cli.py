"""The bad-input contract, fuzzed through the command line.

Hypothesis (seeded: ``derandomize=True``, a bounded number of examples) mutates one place of
every shipped scenario, experiment and model file at a time: a key deleted, an unknown key
added, a value replaced by one of the wrong type, a non-finite or extreme number, an empty or
unknown name.  Each mutated file goes through the commands that read it.  The contract: exit
status 2 with exactly one line naming the file, or exit status 0 with output whose numbers are
all finite (JSON that parses without NaN or Infinity).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
import tomlkit
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, SCENARIOS
from simcycle.cli import main

MODELS = sorted((ROOT / "models").glob("*.toml"))
EXPERIMENTS = sorted((SCENARIOS / "experiments").glob("*.toml"))
REPLACEMENTS = [float("nan"), float("inf"), float("-inf"), 1e308, -1e308, -1, 0, 10**15,
                2.5, "", "x", "Nobody Known", [], {}, True, [[1]], [float("nan")]]
EXAMPLES = 12


def places(doc, path=()):
    """Every (path, value) of a parsed TOML document: tables, list entries and leaves."""
    out = []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.append((path + (k,), v))
            out += places(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out.append((path + (i,), v))
            out += places(v, path + (i,))
    return out


def mutated(doc, path, op, value):
    import copy
    doc = copy.deepcopy(doc)
    parent = doc
    for p in path[:-1]:
        parent = parent[p]
    last = path[-1]
    if op == "delete":
        del parent[last]
    elif op == "unknown key":
        target = parent[last]
        if isinstance(target, dict):
            target["zz_unknown_key"] = 1
        else:
            parent[last] = value
    else:
        parent[last] = value
    return doc


def no_nonfinite(text):
    def refuse(c):
        raise AssertionError(f"non-finite number {c} in the output")
    json.loads(text, parse_constant=refuse)


def check(result, file: Path):
    out, err = result.stdout, result.stderr
    assert "Traceback" not in out + err
    if result.exit_code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert lines[0].startswith("simcycle: error: ") and file.name in lines[0], lines[0]
        assert not out.strip()
    else:
        assert result.exit_code == 0, (result.exit_code, err[-500:])
        no_nonfinite(out)


def fuzz(src: Path, commands):
    doc = tomllib.loads(src.read_text(encoding="utf-8"))
    spots = places(doc)

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(spot=st.sampled_from(spots), op=st.sampled_from(["delete", "replace", "unknown key"]),
           value=st.sampled_from(REPLACEMENTS))
    def run(tmp, spot, op, value):
        path, _ = spot
        bad = tmp / src.name
        bad.write_text(tomlkit.dumps(mutated(doc, path, op, value)), encoding="utf-8")
        for args in commands(bad):
            check(CliRunner().invoke(main, args), bad)
    return run


@pytest.mark.parametrize("name", sorted(p.stem for p in SCENARIOS.glob("*.toml")))
def test_fuzzed_scenarios(tmp_path, name):
    src = SCENARIOS / f"{name}.toml"
    fuzz(src, lambda f: [["standings", str(f), "--json"], ["odds", str(f), "--json"],
                         ["simulate", str(f), "--sims", "300", "--json"]])(tmp_path)


@pytest.mark.parametrize("src", EXPERIMENTS, ids=lambda p: p.stem)
def test_fuzzed_experiments(tmp_path, src):
    text = src.read_text(encoding="utf-8")
    local = tmp_path / "in"
    local.mkdir()
    doc = tomllib.loads(text)
    doc["experiment"]["base"] = str((src.parent / doc["experiment"]["base"]).resolve())
    (local / src.name).write_text(tomlkit.dumps(doc), encoding="utf-8")
    fuzz(local / src.name, lambda f: [["experiment", str(f), "--sims", "200", "--json",
                                       "--no-progress"]])(tmp_path)


@pytest.mark.parametrize("src", MODELS, ids=lambda p: p.stem)
def test_fuzzed_models(tmp_path, src):
    cand = str(SCENARIOS / "candidates-2022.toml")
    fuzz(src, lambda f: [["simulate", cand, "--model", str(f), "--sims", "300", "--json",
                          "--at", "round12"],
                         ["odds", cand, "--model", str(f), "--json", "--at", "round13"]])(tmp_path)
