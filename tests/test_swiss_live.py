"""Swiss results from TRF-16 (``formats/swiss/live.py``): the shipped file of the 2025 open
agrees with the shipped scenario; a round the scenario lacks is reported as new; byes and
forfeits are read; bad lines are refused naming the file, line and column."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from simcycle.errors import ScenarioError
from simcycle.formats.swiss.live import file_results
from simcycle.scenario import load_data, load_scenario

ROOT = Path(__file__).resolve().parent.parent
TRF = ROOT / "data" / "swiss" / "grand-swiss-2025-open-r1-8.trf"


def test_shipped_trf_agrees_with_the_scenario():
    _, scn = load_scenario("grand-swiss-2025")
    d = file_results(scn, TRF)
    assert d["rounds_in_file"] == list(range(1, 9)) and d["new"] == []


def test_a_round_the_scenario_lacks_is_new():
    raw = tomllib.loads((ROOT / "scenarios" / "grand-swiss-2025.toml").read_text("utf-8"))
    full = load_data(raw, "gs.toml")[1]
    raw["rounds"] = raw["rounds"][:7]
    _, scn = load_data(raw, "gs.toml")
    d = file_results(scn, TRF)
    assert [r["round"] for r in d["new"]] == [8]
    want = {(full.names[g.white], full.names[g.black], {0: "1-0", 1: "1/2-1/2", 2: "0-1"}[
        g.result]) for g in full.games if g.round == 8}
    assert {tuple(g) for g in d["new"][0]["games"]} == want and len(want) == 58


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


TINY = {"scenario": {"name": "tiny", "format": "swiss"}, "event": {"rounds": 3},
        "players": [{"name": n, "rating": r} for n, r in
                    (("A", 2600), ("B", 2500), ("C", 2400), ("D", 2300), ("E", 2200))],
        "rounds": [{"round": 1, "games": [["C", "A", "0-1"], ["B", "D", "-+"]],
                    "byes": [["E", "U"]]}]}
ROWS = [("A", 2600, [(3, "b", "1"), (4, "w", "=")]), ("B", 2500, [(4, "w", "-"), (0, "-", "H")]),
        ("C", 2400, [(1, "w", "0"), (5, "b", "+")]), ("D", 2300, [(2, "b", "+"), (1, "b", "=")]),
        ("E", 2200, [(0, "-", "U"), (3, "w", "-")])]


def write(tmp_path, rows=ROWS, extra=("XXR 3", "XXC white1")):
    p = tmp_path / "t.trf"
    p.write_text("\n".join(["012 tiny", *extra] + [line(i + 1, n, r, rd)
                                                    for i, (n, r, rd) in enumerate(rows)]) + "\n")
    return p


def test_byes_and_forfeits(tmp_path):
    _, scn = load_data(TINY, "t.toml")
    d = file_results(scn, write(tmp_path))
    assert d["new"] == [{"round": 2, "games": [["A", "D", "1/2-1/2"], ["E", "C", "-+"]],
                         "byes": [["B", "H"]]}]


@pytest.mark.parametrize("change, where, why", [
    (lambda r: r.__setitem__(0, ("A", 2600, [(3, "b", "X"), (4, "w", "=")])), "line 4, column 99",
     "none of 1 = 0"),
    (lambda r: r.__setitem__(0, ("A", 2600, [(9, "b", "1"), (4, "w", "=")])), "line 4, column 92",
     "no other player"),
    (lambda r: r.__setitem__(1, ("B", 2500, [(1, "w", "-"), (0, "-", "H")])), "line 5, column 92",
     "does not have this game"),
    (lambda r: r.__setitem__(2, ("C", 0, [(1, "w", "0"), (5, "b", "+")])), "line 6, column 49",
     "rating"),
    (lambda r: r.__setitem__(1, ("B", 2500, [(4, "w", "-"), (0, "-", "Q")])), "line 5, column 109",
     "a bye"),
    (lambda r: r.__setitem__(0, ("A", 2600, [(3, "b", "0"), (4, "w", "=")])), "line 4, column 99",
     "disagree"),
])
def test_bad_lines_name_line_and_column(tmp_path, change, where, why):
    _, scn = load_data(TINY, "t.toml")
    rows = list(ROWS)
    change(rows)
    with pytest.raises(ScenarioError, match=why) as e:
        file_results(scn, write(tmp_path, rows))
    assert f"{where}" in str(e.value) and "t.trf" in str(e.value)


def test_contradiction_and_header_refused(tmp_path):
    raw = dict(TINY, rounds=[{"round": 1, "games": [["C", "A", "1/2-1/2"], ["B", "D", "-+"]],
                              "byes": [["E", "U"]]}])
    _, scn = load_data(raw, "t.toml")
    with pytest.raises(ScenarioError, match="round 1 contradicts the scenario"):
        file_results(scn, write(tmp_path))
    _, scn = load_data(TINY, "t.toml")
    with pytest.raises(ScenarioError, match="XXR says 4 rounds"):
        file_results(scn, write(tmp_path, extra=("XXR 4",)))
    with pytest.raises(ScenarioError, match="XXC"):
        file_results(scn, write(tmp_path, extra=("XXC black1",)))


PGN = ROOT / "data" / "swiss" / "grand-swiss-2025-open-r1-8.pgn"


def test_broadcast_pgn_agrees_and_adds_a_round():
    _, scn = load_scenario("grand-swiss-2025")
    assert file_results(scn, PGN, "pgn")["new"] == []
    raw = tomllib.loads((ROOT / "scenarios" / "grand-swiss-2025.toml").read_text("utf-8"))
    raw["rounds"] = raw["rounds"][:7]
    _, cut = load_data(raw, "gs.toml")
    d = file_results(cut, PGN, "pgn")
    assert [r["round"] for r in d["new"]] == [8] and len(d["new"][0]["games"]) == 58
    assert d["new"][0]["games"] == file_results(cut, TRF)["new"][0]["games"]


def pgn_game(rnd, white, black, result):
    return (f'[Event "tiny"]\n[Round "{rnd}"]\n[White "{white}"]\n[Black "{black}"]\n'
            f'[Result "{result}"]\n\n{result}\n\n')


def test_pgn_player_paired_twice_or_unknown(tmp_path):
    _, scn = load_data(TINY, "t.toml")
    p = tmp_path / "t.pgn"
    p.write_text(pgn_game(2, "A", "D", "1/2-1/2") + pgn_game(2, "A", "E", "1-0"))
    with pytest.raises(ScenarioError, match="A is paired twice in round 2") as e:
        file_results(scn, p, "pgn")
    assert "t.pgn" in str(e.value) and "game 2" in str(e.value)
    p.write_text(pgn_game(2, "A", "Zed", "1-0"))
    with pytest.raises(ScenarioError, match="Zed is no player"):
        file_results(scn, p, "pgn")
    # the broadcast has round 1's game and not its forfeit (B-D): it agrees
    p.write_text(pgn_game(1, "C", "A", "0-1") + pgn_game(2, "A", "D", "1/2-1/2"))
    assert file_results(scn, p, "pgn")["new"] == [
        {"round": 2, "games": [["A", "D", "1/2-1/2"]], "byes": []}]
    p.write_text(pgn_game(1, "C", "A", "1-0"))
    with pytest.raises(ScenarioError, match="round 1 contradicts the scenario"):
        file_results(scn, p, "pgn")


def test_write_appends_the_new_rounds(tmp_path):
    """results --write: the new round goes into the scenario file, which then loads with it;
    a second read finds nothing new."""
    from simcycle.formats.swiss import FORMAT
    toml = tmp_path / "tiny.toml"
    toml.write_text(
        '[scenario]\nname = "tiny"\nformat = "swiss"\n[event]\nrounds = 3\n'
        + "".join(f'[[players]]\nname = "{n}"\nrating = {r}\n' for n, r in
                  (("A", 2600), ("B", 2500), ("C", 2400), ("D", 2300), ("E", 2200)))
        + '[[rounds]]\nround = 1\ngames = [["C", "A", "0-1"], ["B", "D", "-+"]]\n'
          'byes = [["E", "U"]]\n')
    trf = write(tmp_path)
    d = FORMAT.read_results(str(toml), "trf", str(trf), write=True)
    assert d["written"] and [r["round"] for r in d["new"]] == [2]
    _, scn = load_scenario(str(toml))
    assert {(scn.names[g.white], scn.names[g.black]) for g in scn.games if g.round == 2} == {
        ("A", "D"), ("E", "C")}
    assert [(scn.names[b.player], b.round) for b in scn.byes] == [("E", 1), ("B", 2)]
    assert FORMAT.read_results(str(toml), "trf", str(trf), write=True)["new"] == []
