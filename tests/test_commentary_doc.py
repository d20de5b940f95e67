"""docs/commentary.md quotes real output: every block that opens with ``$ simcycle ...`` is
run here with the default model and seed, and its lines must be the command's output (lines
"..." and "[... ...]" stand for lines left out; the quoted lines between them must appear in
the output, in order and contiguous).  A doc that drifts from the code fails here."""

from __future__ import annotations

import re
import shlex

import pytest
from click.testing import CliRunner

from conftest import ROOT
from simcycle.cli import main

DOC = ROOT / "docs" / "commentary.md"


def _blocks() -> list[tuple[str, list[str]]]:
    """(command, quoted output lines) of every fenced block opening with ``$ simcycle``."""
    out = []
    for m in re.finditer(r"```[a-z]*\n\$ (simcycle [^\n]*)\n(.*?)```", DOC.read_text(), re.S):
        out.append((m.group(1), m.group(2).rstrip("\n").split("\n")))
    return out


BLOCKS = _blocks()


def _segments(lines: list[str]) -> list[list[str]]:
    """The quoted lines split at the elisions ("..." or "[... the other members ...]")."""
    segs: list[list[str]] = [[]]
    for line in lines:
        if line.strip() == "..." or re.fullmatch(r"\s*\[\.\.\..*\.\.\.\]\s*", line):
            segs.append([])
        else:
            segs[-1].append(line.rstrip())
    return [s for s in segs if s]


def test_the_doc_quotes_the_commands_the_brief_names():
    cmds = " | ".join(c for c, _ in BLOCKS)
    for needle in ("candidates-2022.toml --at round12", "grand-prix-2019.toml --at event4-qf",
                   "grand-prix-2022.toml --at event2", "acp-tour-2004-05"):
        assert needle in cmds


def test_segments_split_at_elisions():
    assert _segments(["a", "...", "b", "c", "[... the rest ...]", "d"]) == [["a"], ["b", "c"],
                                                                         ["d"]]


@pytest.mark.parametrize("cmd,quoted", BLOCKS, ids=[c[9:70] for c, _ in BLOCKS])
def test_quoted_output_is_the_commands_output(cmd, quoted, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    args = shlex.split(cmd)[1:]
    if "--plot" in args:        # the figure is the doc's; the test draws its own copy
        args[args.index("--plot") + 1] = str(tmp_path / "plot.png")
    r = CliRunner().invoke(main, args, catch_exceptions=False)
    assert r.exit_code == 0, r.output
    got = [line.rstrip() for line in r.output.split("\n")]
    at = 0
    for seg in _segments(quoted):
        for i in range(at, len(got) - len(seg) + 1):
            if got[i:i + len(seg)] == seg:
                at = i + len(seg)
                break
        else:
            first = next((j for j, q in enumerate(seg) if q not in got[at:]), 0)
            pytest.fail(f"`{cmd}`: quoted line not in the output (in order): {seg[first]!r}\n"
                        "output:\n" + r.output)
