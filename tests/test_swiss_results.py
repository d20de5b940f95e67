"""``simcycle results`` for a Swiss (``formats/swiss/results.py``, ``io/trf.py``): the shipped
TRF-16 and PGN files of the Grand Swiss 2025 agree with the shipped scenario; a round the
scenario lacks is new; byes (H F U Z) and forfeits are read; ``XXR`` / ``XXC`` are checked;
``--write`` appends the new rounds and refuses a file that would not load; bad input (a player
paired twice in a round, an unknown pairing number, a bye given twice, results that contradict
the other line or the scenario, a rating missing; in the PGN a result that contradicts the
scenario, a player paired twice or unknown) is refused in one line naming the file and the
line and column (TRF) or the game's line (PGN), exit status 2.  The Grand Swiss cases are the
real file with one cell edited; the byes and forfeits ones a five-player event written here."""

from __future__ import annotations

from pathlib import Path

import tomllib

import pytest
from click.testing import CliRunner

from simcycle.cli import main
from simcycle.errors import ScenarioError
from simcycle.formats.swiss import FORMAT
from simcycle.formats.swiss.results import file_results, read_results
from simcycle.io.trf import FIRST_ROUND_COL, ROUND_WIDTH
from simcycle.scenario import load_data, load_scenario

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
        assert d["rounds_in_file"] == list(range(1, 9)) and d["games_in_file"] == 8 * 58


def cut_to_seven():
    """The shipped scenario without its round 8, and the full one."""
    raw = tomllib.loads(Path(SCN).read_text("utf-8"))
    full = load_data(raw, "gs.toml")[1]
    raw["rounds"] = raw["rounds"][:7]
    return load_data(raw, "gs.toml")[1], full


def test_a_round_the_scenario_lacks_is_new_from_trf_and_pgn():
    cut, full = cut_to_seven()
    d = file_results(cut, "trf", str(TRF))
    assert [r["round"] for r in d["new_rounds"]] == [8] and d["new_rounds"][0]["byes"] == []
    # the scenario's round 8 as (white, black, result): 1-0 / 1/2-1/2 / 0-1 from its result code
    want = {(full.names[g.white], full.names[g.black], {0: "1-0", 1: "1/2-1/2", 2: "0-1"}[
        g.result]) for g in full.games if g.round == 8}
    assert {tuple(g) for g in d["new_rounds"][0]["games"]} == want and len(want) == 58
    assert len(d["new"]) == 58 and d["already_known"] == 7 * 58
    p = file_results(cut, "pgn", str(PGN))
    assert p["new_rounds"] == d["new_rounds"]


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


# ---- a five-player event with byes and forfeits ------------------------------------------------
def line(rank, name, rating, rounds):
    """A 001 line: rounds = [(opponent rank or 0, colour, result)]."""
    s = [" "] * (92 + 10 * len(rounds))

    def put(col, text):
        s[col - 1:col - 1 + len(text)] = text
    put(1, "001")
    put(5, f"{rank:4d}")
    put(15, name)
    put(49, f"{rating:4d}" if rating else "    ")
    for r, (opp, colour, res) in enumerate(rounds):
        c = 92 + 10 * r
        put(c, f"{opp:4d}" if opp else "0000")
        put(c + 5, colour)
        put(c + 7, res)
    return "".join(s).rstrip()


PLAYERS = (("A", 2600), ("B", 2500), ("C", 2400), ("D", 2300), ("E", 2200))
ROUND1 = {"round": 1, "games": [["C", "A", "0-1"], ["B", "D", "-+"]], "byes": [["E", "U"]]}
TINY = {"scenario": {"name": "tiny", "format": "swiss"}, "event": {"rounds": 3},
        "players": [{"name": n, "rating": r} for n, r in PLAYERS], "rounds": [ROUND1]}
# round 1 as the scenario has it; round 2: A - D drawn, E forfeits to C, B a half-point bye
ROWS = [("A", 2600, [(3, "b", "1"), (4, "w", "=")]), ("B", 2500, [(4, "w", "-"), (0, "-", "H")]),
        ("C", 2400, [(1, "w", "0"), (5, "b", "+")]), ("D", 2300, [(2, "b", "+"), (1, "b", "=")]),
        ("E", 2200, [(0, "-", "U"), (3, "w", "-")])]


def write(tmp_path, rows=ROWS, extra=("XXR 3", "XXC white1")):
    p = tmp_path / "t.trf"
    p.write_text("\n".join(["012 tiny", *extra] + [line(i + 1, n, r, rd)
                                                    for i, (n, r, rd) in enumerate(rows)]) + "\n")
    return p


def tiny(rounds=(ROUND1,)):
    return load_data(dict(TINY, rounds=list(rounds)), "t.toml")[1]


def test_byes_and_forfeits(tmp_path):
    d = file_results(tiny(), "trf", str(write(tmp_path)))
    assert d["new_rounds"] == [{"round": 2, "games": [["A", "D", "1/2-1/2"], ["E", "C", "-+"]],
                                "byes": [["B", "H"]]}]
    # round 1's forfeit and U bye agree with the scenario's: 2 games + 1 bye already known
    assert d["already_known"] == 3 and d["rounds_in_file"] == [1, 2]


def _row(k, name, rating, rounds):
    rows = list(ROWS)
    rows[k] = (name, rating, rounds)
    return rows


@pytest.mark.parametrize("rows, where, why", [
    (_row(0, "A", 2600, [(3, "b", "X"), (4, "w", "=")]), "line 4, column 99",
     "result is none of 1 = 0"),
    (_row(0, "A", 2600, [(9, "b", "1"), (4, "w", "=")]), "line 4, column 92",
     "starting rank 9 is no player"),
    (_row(1, "B", 2500, [(5, "w", "-"), (0, "-", "H")]), "line 5, column 92",
     "line .8. has a bye"),
    (_row(2, "C", 0, [(1, "w", "0"), (5, "b", "+")]), "line 6, column 49", "rating missing"),
    (_row(1, "B", 2500, [(4, "w", "-"), (0, "-", "Q")]), "line 5, column 109",
     "result is none of"),
    (_row(0, "A", 2600, [(3, "b", "0"), (4, "w", "=")]), "line 4, column 99",
     "contradicts line 6"),
])
def test_bad_lines_name_line_and_column(tmp_path, rows, where, why):
    with pytest.raises(ScenarioError, match=why) as e:
        file_results(tiny(), "trf", str(write(tmp_path, rows)))
    assert str(e.value).startswith(f"{tmp_path / 't.trf'}: {where}:"), str(e.value)


def test_contradiction_and_header_refused(tmp_path):
    drawn = dict(ROUND1, games=[["C", "A", "1/2-1/2"], ["B", "D", "-+"]])
    with pytest.raises(ScenarioError, match="result 0-1 contradicts the scenario, which has "
                       "1/2-1/2 for C - A"):
        file_results(tiny([drawn]), "trf", str(write(tmp_path)))
    given_u = dict(ROUND1, byes=[["E", "H"]])
    with pytest.raises(ScenarioError, match=r"gives E a bye \(U\); the scenario has a H bye"):
        file_results(tiny([given_u]), "trf", str(write(tmp_path)))
    with pytest.raises(ScenarioError, match="line 2, column 5: XXR says 4 rounds"):
        file_results(tiny(), "trf", str(write(tmp_path, extra=("XXR 4",))))
    with pytest.raises(ScenarioError, match="line 2, column 5: XXC gives another initial"):
        file_results(tiny(), "trf", str(write(tmp_path, extra=("XXC black1",))))
    with pytest.raises(ScenarioError, match="line 2, column 5: XXC needs white1 or black1"):
        file_results(tiny(), "trf", str(write(tmp_path, extra=("XXC green",))))


def pgn_game(rnd, white, black, result):
    return (f'[Event "tiny"]\n[Round "{rnd}"]\n[White "{white}"]\n[Black "{black}"]\n'
            f'[Result "{result}"]\n\n{result}\n\n')


def test_pgn_player_paired_twice_or_unknown(tmp_path):
    scn = tiny()
    p = tmp_path / "t.pgn"
    p.write_text(pgn_game(2, "A", "D", "1/2-1/2") + pgn_game(2, "A", "E", "1-0"))
    with pytest.raises(ScenarioError, match="A is paired twice in round 2") as e:
        file_results(scn, "pgn", str(p))
    assert "t.pgn: game 2" in str(e.value)
    p.write_text(pgn_game(2, "A", "Zed", "1-0"))
    with pytest.raises(ScenarioError, match="unknown player 'Zed'"):
        file_results(scn, "pgn", str(p))
    # the broadcast has round 1's game and not its forfeit (B-D): it agrees
    p.write_text(pgn_game(1, "C", "A", "0-1") + pgn_game(2, "A", "D", "1/2-1/2"))
    assert file_results(scn, "pgn", str(p))["new_rounds"] == [
        {"round": 2, "games": [["A", "D", "1/2-1/2"]], "byes": []}]
    p.write_text(pgn_game(1, "C", "A", "1-0"))
    with pytest.raises(ScenarioError, match="round 1: result 1-0 contradicts the scenario"):
        file_results(scn, "pgn", str(p))


def tiny_toml(tmp_path):
    toml = tmp_path / "tiny.toml"
    toml.write_text(
        '[scenario]\nname = "tiny"\nformat = "swiss"\n[event]\nrounds = 3\n'
        + "".join(f'[[players]]\nname = "{n}"\nrating = {r}\n' for n, r in PLAYERS)
        + '[[rounds]]\nround = 1\ngames = [["C", "A", "0-1"], ["B", "D", "-+"]]\n'
          'byes = [["E", "U"]]\n')
    return toml


def test_write_appends_the_new_rounds(tmp_path):
    """results --write: the new round goes into the scenario file, which then loads with it;
    a second read finds nothing new."""
    toml = tiny_toml(tmp_path)
    trf = write(tmp_path)
    d = FORMAT.read_results(str(toml), "trf", str(trf), write=True)
    assert d["written"] and [r["round"] for r in d["new_rounds"]] == [2]
    _, scn = load_scenario(str(toml))
    assert {(scn.names[g.white], scn.names[g.black]) for g in scn.games if g.round == 2} == {
        ("A", "D"), ("E", "C")}
    assert [(scn.names[b.player], b.round) for b in scn.byes] == [("E", 1), ("B", 2)]
    again = FORMAT.read_results(str(toml), "trf", str(trf), write=True)
    assert again["new_rounds"] == [] and not again["written"] and again["already_known"] == 6


def test_write_refuses_a_file_that_would_not_load(tmp_path):
    """A broadcast's round 2 lacks B's bye (a PGN has none): the scenario would not load with
    it, so nothing is written."""
    toml = tiny_toml(tmp_path)
    before = toml.read_bytes()
    p = tmp_path / "t.pgn"
    p.write_text(pgn_game(2, "A", "D", "1/2-1/2") + pgn_game(2, "E", "C", "0-1"))
    with pytest.raises(ScenarioError, match="not written: with the new rounds of t.pgn the "
                       "scenario would not load: .*missing: B"):
        FORMAT.read_results(str(toml), "pgn", str(p), write=True)
    assert toml.read_bytes() == before
    assert not FORMAT.read_results(str(toml), "pgn", str(p))["written"]


def test_the_command_shows_and_writes_new_rounds(tmp_path):
    toml = tiny_toml(tmp_path)
    trf = write(tmp_path)
    r = CliRunner().invoke(main, ["results", str(toml), "--trf", str(trf)])
    assert r.exit_code == 0, r.output
    assert "round 2 is not in the scenario yet: 2 board(s), byes: B (H)" in r.output
    assert "--write appends" in r.output
    r = CliRunner().invoke(main, ["results", str(toml), "--trf", str(trf), "--write"])
    assert r.exit_code == 0 and "written: the new round(s)" in r.output, r.output


def test_write_refuses_new_results_inside_a_known_round(tmp_path):
    """Round 1's C - A is * in the scenario and 0-1 in the file: --write only appends whole
    rounds, so it refuses (nothing written) and says so; without --write it is a new result."""
    toml = tiny_toml(tmp_path)
    toml.write_text(toml.read_text().replace('["C", "A", "0-1"]', '["C", "A", "*"]'))
    before = toml.read_bytes()
    trf = write(tmp_path)
    d = FORMAT.read_results(str(toml), "trf", str(trf))
    assert [(r["round"], r["white"], r["result"]) for r in d["new"]][0] == (1, "C", "0-1")
    r = CliRunner().invoke(main, ["results", str(toml), "--trf", str(trf), "--write"])
    assert r.exit_code == 2 and toml.read_bytes() == before
    out = r.output.strip().splitlines()
    assert len(out) == 1 and "--write appends whole new rounds only" in out[0], r.output


def test_players_by_fide_id_else_name(tmp_path):
    """A's line spelt "Other, Name" but with A's FIDE id (columns 58-68) is A; a FIDE id of A
    on B's line (B's name) is refused at column 58."""
    raw = dict(TINY, players=[dict(p, fide_id=100 + k) for k, p in enumerate(TINY["players"])])
    scn = load_data(raw, "t.toml")[1]
    rows = _row(0, "Other, Name", 2600, ROWS[0][2])
    p = write(tmp_path, rows)
    ls = p.read_text().split("\n")
    ls[3] = ls[3][:57] + f"{100:>11}" + ls[3][68:]          # line 4: rank 1, FIDE id 100
    p.write_text("\n".join(ls))
    d = file_results(scn, "trf", str(p))
    assert d["new_rounds"][0]["games"][0] == ["A", "D", "1/2-1/2"]
    ls[4] = ls[4][:57] + f"{100:>11}" + ls[4][68:]          # line 5: B with A's FIDE id
    p.write_text("\n".join(ls))
    with pytest.raises(ScenarioError, match="line 5, column 58: FIDE id 100 is A's, but the "
                       "name 'B' is B's"):
        file_results(scn, "trf", str(p))
