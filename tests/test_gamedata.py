"""The game data: the shipped CSV is the build's output, the facts it must hold, and bad CSV
files refused with one line naming file, line and column (exit 2)."""

import subprocess
import sys

import pytest
from click.testing import CliRunner

from conftest import ROOT, write
from simcycle.cli import main
from simcycle.model.gamedata import DEFAULT_GAMES, read_games

HEADER = "date,event,kind,control,white,black,white_rating,black_rating,result,source"
ROW = "2020-01-01,Some Cup,round-robin,classical,A,B,2700,2710,1/2-1/2,test"


@pytest.fixture(scope="module")
def games():
    return read_games()


def test_shipped_csv_is_what_the_build_makes():
    out = subprocess.run([sys.executable, str(ROOT / "data" / "games" / "build.py"), "--check"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr


def test_candidates_2016_and_2018_are_complete(games):
    # A double round robin of 8 players is 56 games (Wikipedia: Candidates Tournament 2016,
    # 2018); every pairing twice, once with each colour.
    for event in ("Candidates 2016", "Candidates 2018", "Candidates 2022"):
        idx = [i for i, e in enumerate(games.event) if e == event]
        assert len(idx) == 56, event
        pairs = {}
        for i in idx:
            pairs.setdefault(frozenset((games.white[i], games.black[i])), []).append(games.white[i])
        assert len(pairs) == 28 and all(len(set(w)) == 2 for w in pairs.values())
        assert {games.kind[i] for i in idx} == {"candidates"}


def test_every_game_says_where_it_comes_from(games):
    text = DEFAULT_GAMES.read_text(encoding="utf-8").splitlines()
    head = text[0].split(",")
    src = head.index("source")
    got = {line.split(",")[src] for line in text[1:]}
    assert got == {"forecasting-candidates/games.csv",
                   "forecasting-candidates/2021/data/results.csv",
                   "scenarios/candidates-2022.toml", "scenarios/grand-prix-2022.toml"}
    assert len(games) > 6000 and set(games.control) <= {"classical", "rapid", "blitz",
                                                          "armageddon", "speed-unknown"}


def test_candidates_2022_games_are_the_scenarios(games):
    # scenarios/candidates-2022.toml: 14 White wins, 33 draws, 9 Black wins (docs/model.md)
    res = [int(games.result[i]) for i, e in enumerate(games.event) if e == "Candidates 2022"]
    assert (res.count(0), res.count(1), res.count(2)) == (14, 33, 9)


BAD = [
    ("missing column", HEADER.replace(",result", "") + "\n"
     + ROW.replace(",1/2-1/2", "") + "\n", ["line 1", "missing column 'result'"]),
    ("unknown result", f"{HEADER}\n{ROW}\n{ROW.replace('1/2-1/2', '1-1')}\n",
     ["line 3", "column 9 (result)", "'1-1'"]),
    ("non-finite rating", f"{HEADER}\n{ROW.replace('2710', 'nan')}\n",
     ["line 2", "column 8 (black_rating)", "'nan'"]),
    ("infinite rating", f"{HEADER}\n{ROW.replace('2700', 'inf')}\n",
     ["line 2", "column 7 (white_rating)", "'inf'"]),
    ("missing rating", f"{HEADER}\n{ROW}\n{ROW}\n{ROW.replace('2700', '')}\n",
     ["line 4", "column 7 (white_rating)", "missing rating"]),
    ("empty file", "", ["line 1", "empty file"]),
    ("header only", f"{HEADER}\n", ["line 2", "no games"]),
    ("duplicate column", HEADER + ",result\n" + ROW + ",1-0\n",
     ["line 1", "column 11 (result)", "named twice"]),
    ("second header line", f"{HEADER}\n{ROW}\n{HEADER}\n{ROW}\n", ["line 3", "second header"]),
    ("unknown kind", f"{HEADER}\n{ROW.replace('round-robin', 'swiss')}\n",
     ["line 2", "column 3 (kind)", "'swiss'"]),
    ("short row", f"{HEADER}\n{ROW}\n2020-01-02,Cup,open\n", ["line 3", "3 fields"]),
]


@pytest.mark.parametrize("label,text,words", BAD, ids=[b[0] for b in BAD])
def test_bad_game_csv_exits_2_naming_file_line_and_column(tmp_path, label, text, words):
    p = write(tmp_path, "games.csv", text)
    for cmd in (["fit", str(p)], ["backtest", str(p), "--no-events"]):
        r = CliRunner().invoke(main, cmd)
        assert r.exit_code == 2, (label, r.output)
        err = r.output.strip()
        assert len(err.splitlines()) == 1 and "Traceback" not in err, err
        assert str(p) in err, err
        for w in words:
            assert w in err, (label, err)


def test_missing_game_file_and_unknown_event(tmp_path):
    r = CliRunner().invoke(main, ["fit", str(tmp_path / "nope.csv")])
    assert r.exit_code == 2 and "no such game file" in r.output
    r = CliRunner().invoke(main, ["fit", "--exclude-event", "Candidates 1066"])
    assert r.exit_code == 2 and "--exclude-event" in r.output and "Candidates 1066" in r.output
