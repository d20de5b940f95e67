"""``simcycle results`` for a Swiss: the shipped TRF-16 and PGN files of the Grand Swiss 2025
agree with the shipped scenario, and bad input (a player paired twice in a round, an unknown
pairing number, a bye given twice, results that contradict the other line or the scenario,
a rating missing; in the PGN a result that contradicts the scenario, a player paired twice)
is refused in one line naming the file and the line and column (TRF) or the game's line
(PGN), exit status 2.  Each bad file is the real one with one cell edited."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from simcycle.cli import main
from simcycle.errors import ScenarioError
from simcycle.formats.swiss.results import read_results
from simcycle.io.trf import FIRST_ROUND_COL, ROUND_WIDTH

ROOT = Path(__file__).resolve().parent.parent
SCN = str(ROOT / "scenarios" / "grand-swiss-2025.toml")
TRF = ROOT / "data" / "swiss" / "grand-swiss-2025-open-r1-8.trf"
PGN = ROOT / "data" / "swiss" / "grand-swiss-2025-open-r1-8.pgn"


def lines():
    return TRF.read_text(encoding="utf-8").split("\n")


def line_of(ls, rank):
    """(index into ls, 1-based line number) of the 001 line of starting rank ``rank``."""
    for k, s in enumerate(ls):
        if s.startswith("001") and int(s[4:8]) == rank:
            return k, k + 1
    raise KeyError(rank)


def set_cell(ls, rank, r, cell):
    """Round ``r`` of ``rank``'s line replaced by ``cell`` (8 characters: "0059 b =")."""
    k, _ = line_of(ls, rank)
    c = FIRST_ROUND_COL + ROUND_WIDTH * (r - 1) - 1
    ls[k] = ls[k][:c] + cell + ls[k][c + 8:]


def cell(ls, rank, r):
    k, _ = line_of(ls, rank)
    c = FIRST_ROUND_COL + ROUND_WIDTH * (r - 1) - 1
    return ls[k][c:c + 8]


def refused(tmp_path, ls, name="bad.trf"):
    p = tmp_path / name
    p.write_text("\n".join(ls), encoding="utf-8")
    with pytest.raises(ScenarioError) as e:
        read_results(SCN, "trf", str(p))
    text = str(e.value)
    assert text.startswith(str(p) + ": line ") and "\n" not in text, text
    return text


def col(r, offset=0):
    return FIRST_ROUND_COL + ROUND_WIDTH * (r - 1) + offset


def test_the_shipped_files_agree_with_the_scenario():
    for kind, path in (("trf", TRF), ("pgn", PGN)):
        d = read_results(SCN, kind, str(path))
        # 116 players, 8 rounds, no byes: 58 boards a round
        assert d["already_known"] == 8 * 58 and d["new"] == [] and d["new_rounds"] == []


def test_a_player_paired_twice_in_a_round(tmp_path):
    ls = lines()
    # round 1: pairing number 1 played 59; give pairing number 2 the same opponent
    assert cell(ls, 1, 1).startswith("  59")
    set_cell(ls, 2, 1, "  59 w =")
    _, ln = line_of(ls, 2)
    text = refused(tmp_path, ls)
    assert f"line {ln}, column {col(1)}:" in text and "paired twice in round 1" in text


def test_an_unknown_pairing_number(tmp_path):
    ls = lines()
    set_cell(ls, 5, 3, " 999 w 1")
    _, ln = line_of(ls, 5)
    text = refused(tmp_path, ls)
    assert f"line {ln}, column {col(3)}:" in text and "starting rank 999 is no player" in text


def test_a_bye_given_twice(tmp_path):
    ls = lines()
    opp = int(cell(ls, 1, 1)[:4])
    set_cell(ls, 1, 1, "0000 - U")
    set_cell(ls, opp, 1, "0000 - U")
    _, ln = line_of(ls, opp)
    text = refused(tmp_path, ls)
    assert f"line {ln}, column {col(1, 7)}:" in text and "bye (U) given twice" in text


def test_a_result_that_contradicts_the_other_line(tmp_path):
    ls = lines()
    c = cell(ls, 1, 2)             # 1 beat 105 with White in round 2
    assert c == " 105 w 1"
    set_cell(ls, 1, 2, " 105 w =")
    _, ln = line_of(ls, 1)
    text = refused(tmp_path, ls)
    assert f"line {ln}, column {col(2, 7)}:" in text and "contradicts line" in text


def test_a_result_that_contradicts_the_scenario(tmp_path):
    ls = lines()
    set_cell(ls, 1, 2, " 105 w 0")
    set_cell(ls, 105, 2, "   1 b 1")
    _, ln = line_of(ls, 1)
    text = refused(tmp_path, ls)
    assert f"line {ln}, column {col(2)}:" in text
    assert "result 0-1 contradicts the scenario, which has 1-0" in text


def test_a_rating_missing(tmp_path):
    ls = lines()
    k, ln = line_of(ls, 7)
    ls[k] = ls[k][:48] + "    " + ls[k][52:]
    text = refused(tmp_path, ls)
    assert f"line {ln}, column 49:" in text and "rating missing" in text


def test_pgn_errors_name_the_game_and_its_line(tmp_path):
    text = PGN.read_text(encoding="utf-8")
    # game 1 (round 1.1, Xiong - Praggnanandhaa) was drawn: make it a White win
    head = text.index('[Result "1/2-1/2"]')
    bad = text[:head] + '[Result "1-0"]' + text[head + len('[Result "1/2-1/2"]'):]
    end = bad.index("1/2-1/2", head)
    bad = bad[:end] + "1-0" + bad[end + len("1/2-1/2"):]
    p = tmp_path / "bad.pgn"
    p.write_text(bad, encoding="utf-8")
    with pytest.raises(ScenarioError) as e:
        read_results(SCN, "pgn", str(p))
    assert str(e.value).startswith(f"{p}: game 1, line 1 (round 1.1 Xiong, Jeffery - "
                                   "Praggnanandhaa R): round 1: result 1-0 contradicts the "
                                   "scenario"), str(e.value)
    # the same game twice: its players are paired twice in round 1
    first = text[:text.index("[Event", 10)]
    p.write_text(first + "\n" + first, encoding="utf-8")
    with pytest.raises(ScenarioError) as e:
        read_results(SCN, "pgn", str(p))
    assert "game 2, line" in str(e.value) and "paired twice in round 1 (also game 1, " \
        "line 1)" in str(e.value)


def test_the_command_exits_2_with_one_line(tmp_path):
    ls = lines()
    set_cell(ls, 5, 3, " 999 w 1")
    p = tmp_path / "bad.trf"
    p.write_text("\n".join(ls), encoding="utf-8")
    r = CliRunner().invoke(main, ["results", SCN, "--trf", str(p)])
    assert r.exit_code == 2
    out = r.output.strip().splitlines()
    assert len(out) == 1 and out[0].startswith(f"simcycle: error: {p}: line "), r.output
