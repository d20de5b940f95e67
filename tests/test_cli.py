"""The command line: --help is cheap, JSON keys are stable, bad input exits 2 with a message."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from conftest import ROOT, SCENARIOS, write
from simcycle.cli import main

CAND = str(SCENARIOS / "candidates-2022.toml")


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_help_does_not_import_numba():
    code = ("import sys\nfrom click.testing import CliRunner\nfrom simcycle.cli import main\n"
            "for a in ([], ['simulate'], ['standings'], ['odds']):\n"
            "    r = CliRunner().invoke(main, a + ['--help'])\n"
            "    assert r.exit_code == 0, r.output\n"
            "print('numba' in sys.modules, 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False"]


def _complete(line: str) -> list[str]:
    """What bash completion offers for the last word of ``line`` (a subprocess, as the shell
    runs it: COMP_WORDS / COMP_CWORD in the environment)."""
    words = line.split()
    env = {**__import__("os").environ, "COMP_WORDS": line, "COMP_CWORD": str(len(words) - 1),
           "_SIMCYCLE_COMPLETE": "bash_complete"}
    code = "from simcycle.cli import main; main(prog_name='simcycle')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, cwd="/")
    return [x.split(",", 1)[1] for x in out.stdout.split()]


def test_shell_completion_of_scenarios_and_checkpoints():
    # shipped scenario names from any folder, then files
    # (scenarios/: candidates-2020.toml and candidates-2022.toml, in name order)
    assert _complete("simcycle simulate cand")[:2] == ["candidates-2020", "candidates-2022"]
    assert "grand-prix-2019" in _complete("simcycle whocan grand")
    # --at: the scenario's own checkpoints (scenarios/candidates-2022.toml: rounds 1-14)
    assert _complete("simcycle simulate candidates-2022 --at round1") == [
        "round1", "round10", "round11", "round12", "round13", "round14"]
    assert _complete("simcycle swing grand-prix-2019 --at event4") == [
        "event4-r1", "event4-qf", "event4-sf", "event4"]
    assert _complete("simcycle swing no-such-file --at e") == []     # nothing, no traceback


def test_standings_json_keys():
    d = json.loads(run("standings", CAND, "--json").output)
    assert {"scenario", "at", "players"} <= set(d)
    for p in d["players"]:
        assert {"name", "rank", "points", "sb", "wins", "prize"} <= set(p)


def test_simulate_json_keys_and_sums():
    r = run("simulate", CAND, "--at", "round10", "--sims", "20000", "--seed", "3", "--json")
    d = json.loads(r.output)
    assert {"scenario", "at", "sims", "seed", "players"} <= set(d)
    assert d["sims"] == 20000 and d["seed"] == 3 and d["at"] == "round10"
    keys = {"name", "p_first", "p_qualify", "se_p_qualify", "expected_points", "expected_prize",
            "p_place"}
    for p in d["players"]:
        assert keys <= set(p)
        assert abs(sum(p["p_place"]) - 1) < 1e-9
    # one qualifying place (Asturian Wikipedia, "Tornéu de Candidatos de 2022",
    # "Organización": the winner earns the title match)
    assert d["qualifying_places"] == 1
    assert abs(sum(p["p_qualify"] for p in d["players"]) - 1) < 1e-9
    assert all(p["p_qualify"] == p["p_first"] for p in d["players"])


def test_simulate_csv_and_text():
    r = run("simulate", CAND, "--at", "round13", "--sims", "2000", "--csv")
    lines = r.output.strip().splitlines()
    assert lines[0].startswith("name,expected_points") and len(lines) == 9
    t = run("simulate", CAND, "--at", "round13", "--sims", "2000").output
    assert "Ian Nepomniachtchi" in t and "one place qualifies, so qualify % = 1st %" in t
    # every column has a legend under the table; "0" is explained against the run count
    assert "exp. pts: expected final points" in t and "0 = never in 2,000 runs" in t
    x = run("simulate", CAND, "--at", "round13", "--exact").output
    assert "exact: every one of 81 outcomes" in x and "0 = impossible, 100 = certain" in x
    assert "±" not in x.split("exp. pts:")[0]            # no standard-error columns when exact


def test_target_se_runs_until_precise():
    d = json.loads(run("simulate", CAND, "--at", "round12", "--sims", "1000",
                       "--target-se", "0.002", "--json").output)
    worst = max(max(p["se_p_qualify"], p["se_p_first"]) for p in d["players"])
    assert worst < 0.002
    # p(1-p)/n < 0.002^2 needs n > 0.25/4e-6 = 62,500 at p = 1/2: the run went past --sims
    assert d["sims"] > 1000


def test_odds_json():
    d = json.loads(run("odds", CAND, "--at", "round13", "--json").output)
    assert len(d["games"]) == 4 and {g["round"] for g in d["games"]} == {14}
    for g in d["games"]:
        assert {"round", "white", "black", "p_white", "p_draw", "p_black"} <= set(g)
        assert abs(g["p_white"] + g["p_draw"] + g["p_black"] - 1) < 1e-12
    assert run("odds", CAND, "--json").output.count('"round"') == 0  # all played


BAD = [
    # (edit to the real scenario, words the message must contain)
    (('"Ding Liren", "Ian Nepomniachtchi", "0-1"', '"Ding Liren", "Magnus Carlsen", "0-1"'),
     ["rounds[0].games[1]", "unknown player", "Magnus Carlsen"]),
    (('"Ding Liren", "Ian Nepomniachtchi", "0-1"', '"Ding Liren", "Ian Nepomniachtchi", "2-0"'),
     ["rounds[0].games[1]", "result", "2-0"]),
    (("round = 2\n", "round = 1\n"), ["rounds[1].round", "entered twice"]),
    (('"Ding Liren", "Ian Nepomniachtchi", "0-1"', '"Ding Liren", "Jan-Krzysztof Duda", "0-1"'),
     ["rounds[0]", "plays twice in round 1"]),
    (("rating = 2806", 'rating = "high"'), ["players[1].rating", "number"]),
    (('format = "round-robin"', 'format = "swiss-ish"'), ["scenario.format", "swiss-ish"]),
    (("cycles = 2 ", "cycles = 1 "), ["rounds[7].round", "play 7 rounds"]),
    (('order = ["sonneborn-berger"', 'order = ["buchholz"'), ["tiebreak.order[0]", "buchholz"]),
    (("[prizes]", "[prizes]\nbonus = 3"), ["prizes.bonus", "unknown key"]),
]


@pytest.mark.parametrize("edit,words", BAD)
def test_bad_input_exits_2_with_a_clear_message(tmp_path, edit, words):
    text = open(CAND, encoding="utf-8").read()
    assert edit[0] in text
    p = write(tmp_path, "bad.toml", text.replace(edit[0], edit[1], 1))
    for cmd in ("standings", "simulate"):
        r = subprocess.run([sys.executable, "-m", "simcycle.cli", cmd, str(p), "--sims", "10"]
                           if cmd == "simulate" else
                           [sys.executable, "-m", "simcycle.cli", cmd, str(p)],
                           capture_output=True, text=True, cwd=ROOT)
        assert r.returncode == 2
        assert "Traceback" not in r.stderr
        assert str(p) in r.stderr
        for w in words:
            assert w in r.stderr, (w, r.stderr)


def test_berger_schedule_refuses_a_game_not_in_it(tmp_path):
    text = open(CAND, encoding="utf-8").read().replace('schedule = "explicit"',
                                                      'schedule = "berger"')
    p = write(tmp_path, "b.toml", text)
    r = CliRunner().invoke(main, ["standings", str(p)])
    assert r.exit_code == 2 and "not in the Berger schedule" in r.output


def test_missing_file_and_unknown_checkpoint():
    r = CliRunner().invoke(main, ["standings", "nope.toml"])
    assert r.exit_code == 2 and "nope.toml" in r.output and "no such scenario file" in r.output
    r = CliRunner().invoke(main, ["simulate", CAND, "--at", "round15"])
    assert r.exit_code == 2 and "--at" in r.output and "round15" in r.output


def test_simulate_exact_matches_the_enumeration_and_refuses_big_remainders():
    d = json.loads(run("simulate", CAND, "--at", "round13", "--exact", "--json").output)
    assert d["method"] == "exact" and d["sims"] is None and d["outcomes"] == 81
    nepo = next(p for p in d["players"] if p["name"] == "Ian Nepomniachtchi")
    assert nepo["p_first"] == 1.0 and nepo["p_qualify"] == 1.0   # clear with a round to spare
    assert abs(sum(p["p_qualify"] for p in d["players"]) - 1) < 1e-12
    r = CliRunner().invoke(main, ["simulate", CAND, "--at", "round9", "--exact"])
    assert r.exit_code == 2 and "20 games left" in r.output


def test_simulate_exact_takes_what_ifs():
    # round 13 as played (scenarios/candidates-2022.toml), assumed from round 12: the exact
    # odds are those of round 13, to the last digit, and the output says what it assumed
    fixes = ["--fix", "r13 Nepomniachtchi - Rapport 1/2-1/2", "--fix", "r13 Radjabov - Caruana "
             "1/2-1/2", "--fix", "r13 Nakamura - Duda 1-0", "--fix", "r13 Firouzja - Ding 1/2-1/2"]
    d = json.loads(run("simulate", CAND, "--at", "round12", "--exact", "--json", *fixes).output)
    want = json.loads(run("simulate", CAND, "--at", "round13", "--exact", "--json").output)
    assert d["players"] == want["players"] and d["outcomes"] == want["outcomes"] == 81
    assert d["assumed"][2] == "round 13: Hikaru Nakamura - Jan-Krzysztof Duda 1-0"
    # a what-if that did not happen: Ding beats Firouzja, and Nakamura loses to Duda
    alt = json.loads(run("simulate", CAND, "--at", "round12", "--exact", "--json",
                         "--fix", "r13 Firouzja - Ding 0-1", "--fix", "r13 Nakamura - Duda 0-1"
                         ).output)
    base = json.loads(run("simulate", CAND, "--at", "round12", "--exact", "--json").output)

    def pts(d, name):
        return {p["name"]: p for p in d["players"]}[name]["expected_points"]

    assert alt["outcomes"] == 3 ** 6 and base["outcomes"] == 3 ** 8
    # a sure win instead of an uncertain game: Ding gains 1 - E[his round-13 score] > 0.3
    assert pts(alt, "Ding Liren") - pts(base, "Ding Liren") > 0.3
    assert pts(alt, "Hikaru Nakamura") < pts(base, "Hikaru Nakamura") - 0.3


def test_ctrl_c_reports_what_finished():
    import signal
    p = subprocess.Popen([sys.executable, "-m", "simcycle.cli", "simulate", CAND, "--sims",
                          "10000000000", "--yes", "--json", "--progress"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = ""
    while "ksim/s" not in seen and "Msim/s" not in seen:   # a batch has finished
        ch = p.stderr.read(1)
        assert ch, "simulate ended before it could be interrupted"
        seen += ch
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130 and "Traceback" not in err
    assert "interrupted after" in err
    d = json.loads(out)
    assert d["interrupted"] is True and 0 < d["sims"] < 10**10
    assert abs(sum(pl["p_first"] for pl in d["players"]) - 1) < 1e-9


def test_ctrl_c_in_the_first_batch_says_nothing_finished(monkeypatch):
    # Ctrl-C before any batch finished: one line, exit 130, no table and no traceback
    from simcycle.formats.roundrobin.plan import RoundRobinPlan

    def interrupted(self, seed, first, n):
        raise KeyboardInterrupt
    monkeypatch.setattr(RoundRobinPlan, "run_batch", interrupted)
    r = CliRunner().invoke(main, ["simulate", CAND, "--json"])
    assert r.exit_code == 130
    assert r.output.strip() == "simcycle: error: interrupted; nothing had finished"


def test_fix_what_ifs_on_simulate_swing_and_whocan(tmp_path):
    # After round 12 (Nepomniachtchi 8½, Ding 6½; scenarios/candidates-2022.toml): if
    # Nepomniachtchi loses both his last games and Ding wins both, they finish level on 8½
    # and only a play-off separates them.
    fixes = ["--fix", "r13 Nepo-Rapport 0-1", "--fix", "r14 Duda - Nepomniachtchi 1-0",
             "--fix", "r13 Firouzja-Ding 0-1", "--fix", "r14 Ding v Nakamura 1-0"]
    d = json.loads(run("simulate", CAND, "--at", "round12", "--sims", "5000", "--json",
                       *fixes).output)
    p = {x["name"]: x for x in d["players"]}
    assert p["Ian Nepomniachtchi"]["expected_points"] == 8.5
    assert p["Ding Liren"]["expected_points"] == 8.5
    assert p["Ian Nepomniachtchi"]["p_first"] + p["Ding Liren"]["p_first"] == 1.0
    assert 0 < p["Ding Liren"]["p_first"] < 1
    assert d["events"]["play-off for first needed"]["p"] == 1.0
    w = json.loads(run("whocan", CAND, "--at", "round12", "--json", *fixes).output)
    st = {r["name"]: (r["status"], r["via"]) for r in w["targets"]["first"]}
    assert st["Ding Liren"] == ("alive", "tiebreak") and st["Hikaru Nakamura"][0] == "eliminated"
    s = json.loads(run("swing", CAND, "--at", "round12", "--sims", "2000", "--json",
                       "--fix", "r13 Nepo-Rapport 0-1").output)
    assert all({g["white"], g["black"]} != {"Ian Nepomniachtchi", "Richárd Rapport"}
               for g in s["games"])
    f = write(tmp_path, "whatif.txt", "# what if\nr13 Nepo-Rapport 0-1\n\nr14 Duda - Nepo 1-0\n")
    d2 = json.loads(run("simulate", CAND, "--at", "round12", "--sims", "2000", "--json",
                        "--fix-file", str(f)).output)
    assert {x["name"]: x for x in d2["players"]}["Ian Nepomniachtchi"]["expected_points"] == 8.5
    # every output says what it assumed, in JSON and in its second line of text
    said = ["round 13: Ian Nepomniachtchi - Richárd Rapport 0-1",
            "round 14: Jan-Krzysztof Duda - Ian Nepomniachtchi 1-0"]
    assert d2["assumed"] == said
    assert w["assumed"][0] == "round 13: Ian Nepomniachtchi - Richárd Rapport 0-1"
    for cmd in (["simulate", "--sims", "2000"], ["whocan"], ["swing", "--sims", "2000"]):
        out = run(cmd[0], CAND, "--at", "round12", *cmd[1:], "--fix-file", str(f)).output
        assert out.splitlines()[1:3] == [f"assuming {x}" for x in said], cmd
    assert "assum" not in run("simulate", CAND, "--at", "round12", "--sims", "2000").output


@pytest.mark.parametrize("fix, words", [
    ("r13 Rapport-Nepo 1-0", "has White against"),
    ("r12 Nepo-Nakamura 1-0", "already played: 1/2-1/2"),
    ("r13 Nepo-Rapport 2-0", "a what-if is"),
    ("r13 Nepo-Carlsen 1-0", "no two players"),
    ("r9 Nepo-Rapport 1-0", "do not meet in round 9"),
])
def test_bad_fix_is_one_line(fix, words):
    r = CliRunner().invoke(main, ["simulate", CAND, "--at", "round12", "--fix", fix])
    assert r.exit_code == 2 and words in r.output and len(r.output.strip().splitlines()) == 1
