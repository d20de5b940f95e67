"""The game data: the shipped CSV is the build's output, the facts it must hold, and bad CSV
files refused with one line naming file, line and column (exit 2)."""

import subprocess
import sys

import numpy as np
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
    newer = {p.name for p in (ROOT / "data" / "games" / "raw" / "2021-2026").glob("*.csv")}
    assert len(newer) == 8
    assert got == {"forecasting-candidates/games.csv",
                   "forecasting-candidates/2021/data/results.csv",
                   "scenarios/candidates-2022.toml", "scenarios/grand-prix-2022.toml",
                   *(f"2021-2026/{n}" for n in newer)}
    assert len(games) > 9000 and set(games.control) <= {"classical", "rapid", "blitz",
                                                          "armageddon", "speed-unknown"}
    assert games.window() == ("2015-01-10", "2026-06-05") or games.window()[1] >= "2026-06-01"


def _points(games, event, norway=False):
    pts: dict = {}
    for i, e in enumerate(games.event):
        if e != event:
            continue
        w, b, r = games.white[i], games.black[i], int(games.result[i])
        if not norway:
            pts[w] = pts.get(w, 0) + (1.0, 0.5, 0.0)[r]
            pts[b] = pts.get(b, 0) + (0.0, 0.5, 1.0)[r]
        elif games.control[i] == "classical":     # Norway Chess: 3 / 1 + Armageddon / 0
            pts[w] = pts.get(w, 0) + (3, 1, 0)[r]
            pts[b] = pts.get(b, 0) + (0, 1, 3)[r]
        else:                                     # Armageddon: 0.5 more; a draw is Black's
            winner = w if r == 0 else b
            pts[winner] = pts.get(winner, 0) + 0.5
    return pts


def test_newer_events_recompute_the_published_scores(games):
    # Published final tables (Wikipedia: Norway Chess 2022, 2023, 2024, 2025; chess.com, UzChess
    # Cup 2025; World Championship 2024), recomputed from the games with each event's scoring.
    n22 = _points(games, "Norway Chess 2022", norway=True)
    assert (n22["Magnus Carlsen"], n22["Shakhriyar Mamedyarov"], n22["Viswanathan Anand"]) == (
        16.5, 15.5, 14.5)
    n23 = _points(games, "Norway Chess 2023", norway=True)
    assert (n23["Hikaru Nakamura"], n23["Fabiano Caruana"], n23["Gukesh D"]) == (16.5, 16, 14.5)
    n24 = _points(games, "Norway Chess 2024", norway=True)
    assert sorted(n24.values(), reverse=True) == [17.5, 15.5, 14.5, 13.5, 11.5, 7]
    n25 = _points(games, "Norway Chess 2025", norway=True)
    assert (n25["Magnus Carlsen"], n25["Fabiano Caruana"], n25["Gukesh D"]) == (16, 15.5, 14.5)
    uz = _points(games, "2nd UzChess Cup Masters 2025")
    assert [uz[p] for p in ("Praggnanandhaa R", "Javokhir Sindarov", "Nodirbek Abdusattorov",
                            "Arjun Erigaisi")] == [5.5, 5.5, 5.5, 5]
    wcc = _points(games, "FIDE World Championship 2024")
    assert (wcc["Gukesh D"], wcc["Ding Liren"]) == (7.5, 6.5)


def test_norway_armageddons_are_the_drawn_classical_pairings(games):
    for year in (2022, 2023, 2024, 2025, 2026):
        ev = f"Norway Chess {year}"
        drawn, arm = set(), set()
        for i, e in enumerate(games.event):
            if e == ev:
                key = (games.round[i], frozenset((games.white[i], games.black[i])))
                if games.control[i] == "classical" and games.result[i] == 1:
                    drawn.add(key)
                elif games.control[i] == "armageddon":
                    arm.add(key)
                    assert games.time_control[i] == "armageddon-10v7"
        assert drawn == arm and drawn, ev


def test_players_are_merged_by_fide_id_and_name(games):
    names = set(games.white) | set(games.black)
    # one canonical name for the spellings "Gukesh D", "Gukesh, D", "Gukesh,D" (FIDE id
    # 46616543) and for "Vachier-Lagrave, Maxime" / "Vachier Lagrave,M" (623539)
    assert "Gukesh D" in names and not {"D Gukesh", "Gukesh,D", "Gukesh, D"} & names
    assert "Maxime Vachier-Lagrave" in names and "Maxime Vachier Lagrave" not in names
    assert "Praggnanandhaa R" in names and "Rameshbabu Praggnanandhaa" not in names
    # players of the older data keep their names in the newer files
    carlsen = [i for i, e in enumerate(games.event) if e == "Norway Chess 2024"
               and "Magnus Carlsen" in (games.white[i], games.black[i])]
    classical = [i for i in carlsen if games.control[i] == "classical"]
    assert len(classical) == 10       # a double round robin of 6 (Wikipedia: Norway Chess 2024)
    assert len(carlsen) - len(classical) == sum(games.result[i] == 1 for i in classical)
    # two players of one surname stay two (no surname-only merging)
    assert {"Rauf Mamedov", "Edgar Mamedov", "Alexander Grischuk", "Arina Grischuk"} <= names


def test_world_cup_tiebreak_controls_follow_the_regulations(games):
    # FIDE World Cup 2025: 2 classical games, then 2 x 15+10, 2 x 10+10, 2 x 5+3, 2 x 3+2
    by_match: dict = {}
    for i, e in enumerate(games.event):
        if e.startswith("FIDE World Cup 2025"):
            by_match.setdefault((e, frozenset((games.white[i], games.black[i]))), []).append(i)
    seen = set()
    for idx in by_match.values():
        for ctl, steps in (("rapid", ("rapid-15+10", "rapid-10+10")),
                           ("blitz", ("blitz-5+3", "blitz-3+2"))):
            tcs = [games.time_control[i] for i in idx if games.control[i] == ctl]
            first, second = tcs.count(steps[0]), tcs.count(steps[1])
            assert first <= 2 and second <= 2 and (second == 0 or first == 2), tcs
            seen.update(tcs)
        assert sum(games.control[i] == "classical" for i in idx) <= 2
    assert {"rapid-15+10", "rapid-10+10", "blitz-5+3", "blitz-3+2"} <= seen
    # Round 5 (FIDE's report): Shankland beat Dubov 3-1
    sh = _points(games.take(games.where(events={"FIDE World Cup 2025 R5"}))
                 .take(np.array([{w, b} == {"Sam Shankland", "Daniil Dubov"}
                                 for w, b in zip(games.take(games.where(
                                     events={"FIDE World Cup 2025 R5"})).white, games.take(
                                     games.where(events={"FIDE World Cup 2025 R5"})).black)])),
                 "FIDE World Cup 2025 R5")
    assert (sh["Sam Shankland"], sh["Daniil Dubov"]) == (3, 1)


def test_no_hidden_test_event_is_in_the_data(games):
    # The scenarios' test material: no Candidates after 2022, no Grand Swiss 2025 round 9-11
    for i, e in enumerate(games.event):
        assert not ("Candidates" in e and games.date[i] > "2022-12-31"), e
        if e == "FIDE Grand Swiss 2025 Open":
            assert int(games.round[i]) <= 8
    assert not any("2021-04-19" <= d <= "2021-04-28" and k == "candidates"
                   for d, k in zip(games.date, games.kind))


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
    ("time control of another control", f"{HEADER},time_control\n{ROW},blitz-3+2\n",
     ["line 2", "column 11 (time_control)", "'blitz-3+2'"]),
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
