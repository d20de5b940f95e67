"""Malformed scenarios are refused with a ScenarioError, never another exception.

Seeded random mutations of every shipped scenario (deleted lines, values of the wrong type or
range, changed results, swapped and duplicated lines, broken names) go through load,
standings, compile and odds at a few checkpoints."""

import random

import pytest

from conftest import SCENARIOS
from simcycle.errors import ScenarioError
from simcycle.model import load_model
from simcycle.formats.base import CompileOptions
from simcycle.scenario import load_scenario

MODEL = load_model()
VALUES = ['"x"', "-1", "0", "99999", "[]", "true", "1.5", '["a"]', "{}"]


def mutate(lines, rnd):
    out = list(lines)
    for _ in range(rnd.randint(1, 3)):
        i = rnd.randrange(len(out))
        op = rnd.randrange(6)
        if op == 0:
            del out[i]
        elif op == 1 and "=" in out[i]:
            out[i] = out[i].split("=")[0] + "= " + rnd.choice(VALUES)
        elif op == 2:
            out[i] = out[i].replace("1-0", rnd.choice(["0-1", "2-0", "*", "1/2-1/2"]))
        elif op == 3:
            j = rnd.randrange(len(out))
            out[i], out[j] = out[j], out[i]
        elif op == 4:
            out[i] = out[i].replace('"', '"Z', 1)
        else:
            out.insert(i, out[rnd.randrange(len(out))])
    return out


@pytest.mark.parametrize("name", sorted(p.name for p in SCENARIOS.glob("*.toml")))
def test_mutated_scenarios_fail_only_with_scenario_errors(tmp_path, name):
    lines = (SCENARIOS / name).read_text(encoding="utf-8").splitlines()
    rnd = random.Random(name)
    refused = 0
    for trial in range(80):
        p = tmp_path / f"m{trial}.toml"
        p.write_text("\n".join(mutate(lines, rnd)), encoding="utf-8")
        try:
            mod, scn = load_scenario(p)
            for at in [None] + mod.checkpoints(scn)[:2]:
                mod.standings(scn, at)
                mod.compile(scn, MODEL, CompileOptions(at=at))
                if not name.startswith("acp-tour"):   # the tour's odds simulate each event
                    mod.odds(scn, MODEL, at)
        except ScenarioError as e:
            refused += 1
            assert str(p) in str(e), str(e)   # the message names the file
    assert refused > 10   # the mutations really produce bad input
