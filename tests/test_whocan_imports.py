"""whocan's import path: the formats that answer from bounds, rules and replays (the tour, the
Swiss) or from HiGHS programs (the series) import no numba and no SciPy as a whole command;
importing numba is most of a command's start-up (issue 18: whocan under a CPU-second).

Each case runs the real command in a child process with ``python -X importtime``, which lists
every module the process imported on standard error."""

import os
import subprocess
import sys

import pytest

HEAVY = ("numba", "scipy")

CASES = [     # scenario, checkpoint, the format package whose whocan answers
    ("acp-tour-2004-05", "event2", "tour"),          # plan (the kernels) off the path
    ("grand-swiss-2025", "round6", "swiss"),         # the criteria's legends: criteria.py
    ("candidates-2022", "round10", "roundrobin"),    # the flow backend
    ("grand-prix-2019", "event2", "knockout_series"),   # HiGHS through highspy
]


def imported(scenario: str, at: str, fmt: str) -> set[str]:
    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "simcycle", "whocan",
                        scenario, "--at", at, "--json"], capture_output=True, text=True,
                       env={**os.environ, "NUMBA_NUM_THREADS": "1"})
    assert p.returncode == 0, p.stderr[-500:]
    assert p.stdout.lstrip().startswith("{")
    mods = set()
    for line in p.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name != "package":          # the header line
                mods.add(name)
    assert f"simcycle.formats.{fmt}.whocan" in mods     # the listing is the command's own
    return mods


@pytest.mark.parametrize("scenario,at,fmt", CASES)
def test_whocan_imports_no_numba_or_scipy(scenario, at, fmt):
    mods = imported(scenario, at, fmt)
    heavy = sorted(m for m in mods if m.split(".")[0] in HEAVY)
    assert heavy == [], f"whocan {scenario} --at {at} imported {heavy[:5]}"


@pytest.mark.parametrize("scenario,at,fmt", CASES + [("grand-prix-2022", "event3", "group_series")])
def test_whocan_json_imports_no_renderer(scenario, at, fmt):
    """``--json`` prints no text: the format's render module and the tables it draws with
    are not imported (``cli/whocan.py`` looks the renderer up only to print text)."""
    mods = imported(scenario, at, fmt)
    text = sorted(m for m in mods if m.endswith(".render") or m == "simcycle.report.table")
    assert text == [], f"whocan {scenario} --at {at} --json imported {text}"
