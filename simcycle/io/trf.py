"""Results from a FIDE TRF-16 file (the Tournament Report File that pairing programs and
FIDE's rating server exchange).  A small reader of the fixed columns this needs.

TRF-16 is a fixed-column text format (FIDE Handbook C.04, "TRF16").  Lines start with a
three-character code; only these are read (columns are 1-based, inclusive):

``012``  tournament name (columns 5-): shown, not checked.

``001``  one player and every round he played::

    1-3    "001"
    5-8    starting rank (the id other lines pair him with)
    15-47  name, "Lastname, Firstname"
    58-68  FIDE id (optional)
    then, per round r = 1, 2, ... , ten columns starting at c = 92 + 10 (r - 1):
    c .. c+3   opponent's starting rank ("0000" or blank: no opponent, a bye)
    c+5        colour: "w", "b" ("-" or blank: none)
    c+7        result: "1" win, "=" draw, "0" loss; "W" / "D" / "L" the same for a game
               not rated; blank: not played yet (unfinished)

Byes ("H", "F", "U", "Z", opponent "0000") give no game and are skipped; forfeits ("+",
"-") are refused (a round robin's scenario records games, not forfeits: enter one by hand).
Every other line (``XXR``, ``132``, ``013`` ...) is ignored.  A game appears on both
players' lines; the two must agree (opponent, opposite colours, results adding up to 1),
and the game is reported from White's line.

A Swiss's file (byes, forfeits, a cell per round with its line and column) is read by
:func:`read_trf_swiss` and checked across lines by :func:`check_swiss_rounds`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import ScenarioError
from .pgn import read_text_lenient
from .results import FileResult

FIRST_ROUND_COL = 92     # 1-based column of round 1's opponent field
ROUND_WIDTH = 10
RESULT = {"1": 1.0, "=": 0.5, "0": 0.0, "W": 1.0, "D": 0.5, "L": 0.0}
BYES = set("HFUZ")
FORFEITS = set("+-")


def _col(line: str, a: int, b: int) -> str:
    """Columns a..b (1-based, inclusive) of ``line``, blank-padded."""
    return line[a - 1: b].ljust(b - a + 1)


def read_trf(path: str | Path) -> list[FileResult]:
    """Every game of ``path`` (unfinished ones with result ``*``), from White's line, in
    round order."""
    f = str(path)
    text = read_text_lenient(path, "TRF file")
    from ..formats.shared.scenario import MAX_PLAYERS
    n_lines = text.count("\n001")
    if n_lines > MAX_PLAYERS:
        raise ScenarioError(f"too many player lines ({n_lines:,}; the limit is "
                            f"{MAX_PLAYERS:,})", file=f)
    players: dict[int, dict] = {}
    for ln, line in enumerate(text.split("\n"), 1):
        if line.startswith("001"):
            rank, player = _player(line, ln, f, players)
            players[rank] = player
    if not players:
        if text.strip():
            raise ScenarioError("not a TRF file: no 001 player lines", file=f)
        return []
    rows = []
    for rank, p in sorted(players.items()):
        for r, cell in sorted(p["rounds"].items()):
            row = _game(f, players, rank, p, r, cell)
            if row is not None:
                rows.append(row)
    rows.sort(key=lambda x: x.round)
    return rows


def _player(line: str, ln: int, f: str, players: dict) -> tuple[int, dict]:
    """(starting rank, {name, fide_id, line, rounds: {round: (opponent, colour, result)}})
    of a 001 line."""
    rank_s = _col(line, 5, 8).strip()
    if not rank_s.isdigit():
        raise ScenarioError(f"a 001 line needs its starting rank in columns 5-8 "
                            f"(got {rank_s!r})", file=f, key=f"line {ln}")
    rank = int(rank_s)
    if rank in players:
        raise ScenarioError(f"starting rank {rank} is also on line "
                            f"{players[rank]['line']}", file=f, key=f"line {ln}")
    name = " ".join(_col(line, 15, 47).split())
    if not name:
        raise ScenarioError("a 001 line needs the player's name in columns 15-47",
                            file=f, key=f"line {ln}")
    fid = _col(line, 58, 68).strip()
    rounds = {}
    r = 1
    while True:
        c = FIRST_ROUND_COL + ROUND_WIDTH * (r - 1)
        if len(line.rstrip()) < c:
            break
        rounds[r] = (_col(line, c, c + 3).strip(), _col(line, c + 5, c + 5),
                     _col(line, c + 7, c + 7))
        r += 1
    return rank, {"name": name, "fide_id": int(fid) if fid.isdigit() and int(fid) else None,
                  "line": ln, "rounds": rounds}


def _game(f: str, players: dict, rank: int, p: dict, r: int, cell) -> FileResult | None:
    """Player ``p``'s round ``r`` checked against his opponent's line: the game from White's
    line, None for a bye or from Black's line (the game is reported once)."""
    opp, colour, res = cell
    if res in BYES or opp in ("", "0000", "0"):
        return None
    if not opp.isdigit() or int(opp) not in players:
        raise ScenarioError(f"round {r}: opponent {opp!r} is no player's starting "
                            "rank", file=f, key=f"line {p['line']} ({p['name']})")
    q = players[int(opp)]
    if colour not in "wb":      # a blank too
        raise ScenarioError(f"round {r}: colour {colour!r} against {q['name']} is "
                            "not w or b", file=f, key=f"line {p['line']} ({p['name']})")
    white, black = (p, q) if colour == "w" else (q, p)
    row = FileResult(r, None, white["name"], black["name"], "*", f, f"line {p['line']}",
                     white["fide_id"], black["fide_id"])
    if res in FORFEITS:
        raise row.error(f"forfeit ({res!r}): a forfeit is not a game; enter it in "
                        "the scenario by hand")
    if res != " " and res not in RESULT:
        raise row.error(f"result {res!r} is none of 1 = 0 W D L + - H F U Z")
    _check_other_line(row, rank, p, q, r, colour, res)
    if colour != "w":
        return None
    result = "*" if res == " " else {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}[RESULT[res]]
    return FileResult(r, None, row.white, row.black, result, f, f"line {p['line']}",
                      row.white_id, row.black_id)


def _check_other_line(row: FileResult, rank: int, p: dict, q: dict, r: int, colour: str,
                      res: str) -> None:
    """The opponent ``q``'s line has the same game of round ``r``: against ``p`` (starting
    rank ``rank``), the other colour, the complementary result (both blank if unplayed)."""
    o_opp, o_colour, o_res = q["rounds"].get(r, ("", " ", " "))
    if not (o_opp.isdigit() and int(o_opp) == rank):
        raise row.error(f"line {q['line']} ({q['name']}) does not have this game in "
                        f"round {r}")
    if o_colour == colour:
        raise row.error(f"both lines give {q['name']} and {p['name']} the same "
                        f"colour ({colour}) in round {r}")
    if (res == " ") != (o_res == " ") or (
            res != " " and (o_res not in RESULT or RESULT[res] + RESULT[o_res] != 1)):
        raise row.error(f"the two lines disagree on the result "
                        f"({p['name']} {res.strip() or 'blank'}, {q['name']} "
                        f"{o_res.strip() or 'blank'})")


def write_trf(players, games, path: str | Path | None = None, *, event: str = "") -> str:
    """A TRF-16 text: ``players`` (dicts with name "Last, First", optional fide_id, rating),
    ``games`` (round, white index, black index, result "1-0" / "1/2-1/2" / "0-1" / "*"),
    for tests and examples."""
    n_rounds = max((g[0] for g in games), default=0)
    cells = {i: {} for i in range(len(players))}
    score = [0.0] * len(players)
    for rnd, w, b, res in games:
        rw, rb = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "="),
                  "*": (" ", " ")}[res]
        cells[w][rnd] = (b + 1, "w", rw)
        cells[b][rnd] = (w + 1, "b", rb)
        if res != "*":
            score[w] += RESULT[rw]
            score[b] += RESULT[rb]
    lines = [f"012 {event}"] if event else []
    for i, p in enumerate(players):
        head = (f"001 {i + 1:>4}      {p['name'][:33]:<33} {int(p.get('rating', 0)):>4} "
                f"{p.get('federation', '')[:3]:<3} {p.get('fide_id') or '':>11} "
                f"{'':>10} {score[i]:>4.1f} {'':>4}")
        assert len(head) == 89, len(head)
        rest = ""
        for r in range(1, n_rounds + 1):
            opp, colour, res = cells[i].get(r, (0, "-", "U"))
            rest += f"  {opp:04d} {colour} {res}"
        lines.append((head + rest).rstrip())
    text = "\n".join(lines) + "\n"
    if path is not None:
        from .write import atomic_write
        atomic_write(path, text)
    return text


# --- the Swiss reader: byes, forfeits, every cell with its line and column -------------------

SWISS_RESULTS = set("1=0WDL+-HFUZ")
RATING_COLS = (49, 52)
GAME_SCORE = {"1": 2, "=": 1, "0": 0, "W": 2, "D": 1, "L": 0}      # half points
GAME_TEXT = {2: "1-0", 1: "1/2-1/2", 0: "0-1"}
FORFEIT_TEXT = {("+", "-"): "+-", ("-", "+"): "-+", ("-", "-"): "--"}
MAX_ROUNDS = 40          # an XXR beyond this is refused (no Swiss has more)
INITIAL = ("white1", "black1")


@dataclass(frozen=True)
class Cell:
    """One round of one 001 line: where it is (line, column of its opponent field)."""

    line: int
    col: int
    opp: int | None          # the opponent's starting rank; None: no opponent (a bye)
    colour: str              # "w", "b" or "-"
    result: str              # one of SWISS_RESULTS, or " " (not played yet)


@dataclass(frozen=True)
class TrfPlayer:
    rank: int
    name: str
    rating: int
    fide_id: int | None
    line: int
    cells: dict              # round -> Cell


@dataclass(frozen=True)
class TrfSwiss:
    """A Swiss's TRF-16 file: its 001 lines by starting rank and the two header lines read,
    ``XXR`` (the number of rounds) and ``XXC`` (the initial colour), each None when absent,
    with the line it is on."""

    players: dict            # starting rank -> TrfPlayer
    rounds: int | None = None
    rounds_line: int = 0
    initial: str | None = None      # "white1" or "black1"
    initial_line: int = 0


def _where(ln: int, col: int) -> str:
    return f"line {ln}, column {col}"


def read_trf_swiss(path: str | Path) -> TrfSwiss:
    """Every 001 line of a Swiss's TRF-16 file by starting rank, each round's cell with its
    line and column, and ``XXR`` / ``XXC``.  Refused in one line naming file, line and
    column: a rank given twice, a rating missing (columns 49-52), an opponent field that is
    not a number, a colour that is not w / b / -, a result that is none of 1 = 0 W D L + - H F
    U Z, an ``XXR`` that is not a number of rounds, an ``XXC`` that is not white1 / black1.
    Consistency between lines (the same game on both, one opponent each) is
    :func:`check_swiss_rounds`'s."""
    f = str(path)
    text = read_text_lenient(path, "TRF file")
    from ..formats.shared.scenario import MAX_PLAYERS
    if text.count("\n001") > MAX_PLAYERS:
        raise ScenarioError(f"too many player lines (the limit is {MAX_PLAYERS:,})", file=f)
    players: dict[int, TrfPlayer] = {}
    head: dict = {}
    for ln, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if line.startswith("001"):
            p = _swiss_player(line, ln, f, players)
            players[p.rank] = p
        elif line.startswith(("XXR", "XXC")):
            head.update(_swiss_header(line, ln, f))
    if not players and text.strip():
        raise ScenarioError("not a TRF file: no 001 player lines", file=f)
    return TrfSwiss(players, **head)


def _swiss_header(line: str, ln: int, f: str) -> dict:
    """``XXR n`` -> rounds; ``XXC white1`` / ``black1`` (the rest of the line, such as
    ``rtg``, ignored) -> initial; each with its line."""
    v = line[3:].strip()
    if line.startswith("XXR"):
        if not v.isdigit() or not 1 <= int(v) <= MAX_ROUNDS:
            raise ScenarioError(f"XXR needs the number of rounds (1-{MAX_ROUNDS})", file=f,
                                key=_where(ln, 5), value=v)
        return {"rounds": int(v), "rounds_line": ln}
    word = v.split()[0] if v else ""
    if word not in INITIAL:
        raise ScenarioError("XXC needs white1 or black1", file=f, key=_where(ln, 5), value=v)
    return {"initial": word, "initial_line": ln}


def _swiss_player(line: str, ln: int, f: str, players: dict) -> TrfPlayer:
    """One 001 line: starting rank, name, rating, FIDE id and its round cells."""
    rank_s = _col(line, 5, 8).strip()
    if not rank_s.isdigit() or int(rank_s) == 0:
        raise ScenarioError("a 001 line needs its starting rank in columns 5-8", file=f,
                            key=_where(ln, 5), value=rank_s)
    rank = int(rank_s)
    if rank in players:
        raise ScenarioError(f"starting rank {rank} is also on line {players[rank].line}",
                            file=f, key=_where(ln, 5), value=rank)
    name = " ".join(_col(line, 15, 47).split())
    if not name:
        raise ScenarioError("a 001 line needs the player's name in columns 15-47",
                            file=f, key=_where(ln, 15))
    rating = _col(line, *RATING_COLS).strip()
    if not rating.isdigit() or int(rating) == 0:
        raise ScenarioError(f"{name}: rating missing (columns 49-52 need the rating "
                            "the pairing ranks by)", file=f, key=_where(ln, 49), value=rating)
    fid = _col(line, 58, 68).strip()
    cells = {}
    r = 1
    while len(line.rstrip()) >= FIRST_ROUND_COL + ROUND_WIDTH * (r - 1):
        c = _swiss_cell(line, ln, f, name, r)
        if c is not None:
            cells[r] = c
        r += 1
    return TrfPlayer(rank, name, int(rating), int(fid) if fid.isdigit() and int(fid) else None,
                     ln, cells)


def _swiss_cell(line: str, ln: int, f: str, name: str, r: int) -> Cell | None:
    """Round ``r``'s ten columns of a 001 line, checked on their own (None: blank)."""
    c = FIRST_ROUND_COL + ROUND_WIDTH * (r - 1)
    opp, colour, res = _col(line, c, c + 3).strip(), _col(line, c + 5, c + 5), \
        _col(line, c + 7, c + 7)
    if opp and not opp.isdigit():
        raise ScenarioError(f"{name}, round {r}: the opponent field (columns {c}-"
                            f"{c + 3}) is not a starting rank", file=f,
                            key=_where(ln, c), value=opp)
    if colour not in ("w", "b", "-", " "):
        raise ScenarioError(f"{name}, round {r}: colour is not w, b or -", file=f,
                            key=_where(ln, c + 5), value=colour)
    if res != " " and res not in SWISS_RESULTS:
        raise ScenarioError(f"{name}, round {r}: result is none of 1 = 0 W D L + - "
                            "H F U Z", file=f, key=_where(ln, c + 7), value=res)
    o = int(opp) if opp and int(opp) else None
    if o is None and res in GAME_SCORE:
        raise ScenarioError(f"{name}, round {r}: a game result with no opponent",
                            file=f, key=_where(ln, c), value=opp or "0000")
    if o is not None and res in BYES:
        raise ScenarioError(f"{name}, round {r}: a bye ({res}) with an opponent",
                            file=f, key=_where(ln, c), value=opp)
    if o is None and res == " ":
        return None
    return Cell(ln, c, o, colour, res)


def check_swiss_rounds(players: dict[int, TrfPlayer], f: str) -> dict[int, list]:
    """Each round's boards, checked across lines: ``{round: [(white rank, black rank,
    result, cell), ...] + [(rank, None, letter, cell) for byes]}`` with result "1-0",
    "1/2-1/2", "0-1", "+-", "-+", "--" (double forfeit) or "*".  Refused in one line naming
    the line and column of the cell at fault: an unknown starting rank, a player paired twice
    in a round (two lines name him), a pairing-allocated bye given twice in a round, a game
    the opponent's line does not have, both with the same colour, results that do not add
    up."""
    out: dict[int, list] = {}
    for r in sorted({r for p in players.values() for r in p.cells}):
        named, boards = _who_names_whom(players, r, f)
        for rank, (by, c) in named.items():
            board = _board(players, r, rank, by, c, f)
            if board is not None:
                boards.append(board)
        out[r] = boards
    return out


def _who_names_whom(players: dict, r: int, f: str) -> tuple[dict, list]:
    """Round ``r``: {rank: (rank of the line that names him as opponent, its cell)} and the
    byes [(rank, None, letter, cell)]; refused: an unknown rank, a player named by two lines,
    two pairing-allocated byes."""
    named: dict[int, tuple] = {}
    byes: list = []
    pab = None
    for rank in sorted(players):
        p = players[rank]
        c = p.cells.get(r)
        if c is None:
            continue
        if c.opp is None:
            if c.result == "U" and pab is not None:
                raise ScenarioError(
                    f"{p.name}: a pairing-allocated bye (U) given twice in round "
                    f"{r} (also to {players[pab[0]].name}, line {pab[1].line})",
                    file=f, key=_where(c.line, c.col + 7), value="U")
            if c.result == "U":
                pab = (rank, c)
            byes.append((rank, None, c.result, c))
            continue
        if c.opp not in players:
            raise ScenarioError(f"{p.name}, round {r}: starting rank {c.opp} is no "
                                "player's (no 001 line has it)", file=f,
                                key=_where(c.line, c.col), value=c.opp)
        if c.opp in named:
            other, oc = named[c.opp]
            raise ScenarioError(
                f"{players[c.opp].name} is paired twice in round {r}: with "
                f"{players[other].name} (line {oc.line}) and {p.name}", file=f,
                key=_where(c.line, c.col), value=c.opp)
        named[c.opp] = (rank, c)
    return named, byes


def _board(players: dict, r: int, rank: int, by: int, c: Cell, f: str) -> tuple | None:
    """The game of ``by``'s cell ``c`` against ``rank``, checked against ``rank``'s line:
    (white, black, result, White's cell), or None from the higher rank's line (each game is
    reported once)."""
    q, p = players[rank], players[by]
    d = q.cells.get(r)
    if d is None or d.opp != by:
        got = ("nothing" if d is None else
               "a bye" if d.opp is None else f"starting rank {d.opp}")
        raise ScenarioError(
            f"{p.name} plays {q.name} in round {r} but {q.name}'s line "
            f"({q.line}) has {got}", file=f, key=_where(c.line, c.col), value=c.opp)
    if by > rank:
        return None
    forfeit = c.result in FORFEITS or d.result in FORFEITS
    if not forfeit and (c.colour == d.colour or c.colour not in "wb" or d.colour not in "wb"):
        raise ScenarioError(
            f"{p.name} - {q.name}, round {r}: the colours do not match line "
            f"{d.line} ({c.colour} and {d.colour})", file=f,
            key=_where(c.line, c.col + 5), value=c.colour)
    if not _results_agree(c.result, d.result, forfeit):
        raise ScenarioError(
            f"{p.name} - {q.name}, round {r}: the result contradicts line {d.line} "
            f"({c.result.strip() or 'blank'} and {d.result.strip() or 'blank'})",
            file=f, key=_where(c.line, c.col + 7), value=c.result)
    return _oriented(by, rank, c, d, forfeit)


def _oriented(by: int, rank: int, c: Cell, d: Cell, forfeit: bool) -> tuple:
    """(white, black, result, White's cell) of a checked game; a forfeit without colours
    (``-``) has the lower starting rank as White."""
    white_first = c.colour == "w" or (forfeit and c.colour != "b" and by < rank) \
        or (forfeit and c.colour == "-" and d.colour != "w")
    w, b, cw, cb = (by, rank, c, d) if white_first else (rank, by, d, c)
    if cw.result == " ":
        res = "*"
    elif forfeit:
        res = FORFEIT_TEXT[(cw.result, cb.result)]
    else:
        res = GAME_TEXT[GAME_SCORE[cw.result]]
    return (w, b, res, cw)


def _results_agree(a: str, b: str, forfeit: bool) -> bool:
    """The two lines' results of one game fit: both blank, a game's half points adding up to
    a whole point, or a forfeit (+ -, - +, or - - for a double forfeit)."""
    if (a == " ") != (b == " "):
        return False
    if a == " ":
        return True
    if forfeit:
        return (a, b) in FORFEIT_TEXT
    return GAME_SCORE[a] + GAME_SCORE[b] == 2
