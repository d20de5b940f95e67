"""``simcycle batch``: many commands in one process give the answers one process per command
gives; a failing line is one error line naming the line, and the exit status is the worst."""

import json

from click.testing import CliRunner

from simcycle.cli import main


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


LINES = ["simulate candidates-2022 --at round9 --sims 3000 --seed 4 --json",
         "# a comment, then a blank line", "",
         "simcycle standings candidates-2022 --at round9 --json",
         "odds candidates-2022 --at round13 --json"]


def test_batch_gives_the_single_commands_answers(tmp_path):
    f = tmp_path / "questions.txt"
    f.write_text("\n".join(LINES) + "\n")
    r = run("batch", "--jsonl", str(f))
    assert r.exit_code == 0, r.output
    got = [json.loads(x) for x in r.output.splitlines()]
    assert [g["line"] for g in got] == [1, 4, 5]
    for g in got:
        words = g["command"].split()
        alone = run(*(words[1:] if words[0] == "simcycle" else words))
        assert g["status"] == 0 and json.loads(g["output"]) == json.loads(alone.output)


def test_batch_from_stdin_keeps_going_and_reports_the_line():
    text = ("standings candidates-2022 --at round15\n"
            "checkpoints candidates-2022\n")
    r = run("batch", "-", input=text)
    assert r.exit_code == 2
    assert "round14" in r.stdout            # the second command still ran
    err = [x for x in r.stderr.splitlines() if x]
    assert len(err) == 1
    assert err[0].startswith("simcycle: standard input: line 1: error: ")
    assert "no such checkpoint" in err[0]


def test_batch_stop_and_no_nesting(tmp_path):
    r = run("batch", "--stop", "-", input="standings nope.toml\ncheckpoints candidates-2022\n")
    assert r.exit_code == 2 and "round14" not in r.stdout
    r = run("batch", "-", input="batch -\n")
    assert r.exit_code == 2 and "a batch cannot run a batch" in r.stderr
