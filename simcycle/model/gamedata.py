"""Reading and checking a game-data CSV (``data/games/games.csv`` or a file of the same layout).

Bad data is refused with a ScenarioError naming the file, the line and the column: a missing
or repeated column, a second header line, an unknown result, kind or control, a missing or
non-finite rating, an empty file.  The games come back as column arrays for the fit.
"""

from __future__ import annotations

import csv
import datetime as dt
import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..enums import BLACK_WINS, DRAW, RESULT_CODES, UNPLAYED, WHITE_WINS  # noqa: F401
from ..errors import ScenarioError
from ..kinds import GAME_CONTROLS, KINDS
from ..resources import GAMES

DEFAULT_GAMES = GAMES

REQUIRED = ("date", "event", "kind", "control", "white", "black", "white_rating",
            "black_rating", "result", "source")
OPTIONAL = ("kind_from", "event_players", "round", "time_control")
# The exact time control, where known: "classical", "rapid-15+10", "blitz-3+2" (minutes +
# seconds a move), "armageddon-10v7" (White's v Black's minutes); its word is the control's.
TIME_CONTROL = re.compile(r"classical|(rapid|blitz)-\d+\+\d+|armageddon-\d+v\d+")
RESULTS = {k: v for k, v in RESULT_CODES.items() if v != UNPLAYED}   # a game played
RATING_RANGE = (1000.0, 3500.0)


@dataclass(frozen=True)
class Games:
    """Games as columns; ``result`` is 0 White won, 1 draw, 2 Black won."""
    file: str
    date: tuple
    event: tuple
    kind: tuple
    control: tuple
    white: tuple
    black: tuple
    white_rating: np.ndarray
    black_rating: np.ndarray
    result: np.ndarray
    round: tuple
    event_players: tuple
    time_control: tuple = ()     # the exact control ("rapid-10+10"), "" where not known

    def __post_init__(self):
        if len(self.time_control) != len(self.date):
            object.__setattr__(self, "time_control", ("",) * len(self.date))

    def __len__(self) -> int:
        return len(self.date)

    def take(self, mask) -> "Games":
        """The games where ``mask`` (bool array) is true."""
        idx = np.flatnonzero(np.asarray(mask, bool))
        pick = lambda col: tuple(col[i] for i in idx)  # noqa: E731
        return Games(self.file, pick(self.date), pick(self.event), pick(self.kind),
                     pick(self.control), pick(self.white), pick(self.black),
                     self.white_rating[idx], self.black_rating[idx], self.result[idx],
                     pick(self.round), pick(self.event_players), pick(self.time_control))

    def where(self, *, controls=None, kinds=None, events=None, exclude_events=None) -> np.ndarray:
        m = np.ones(len(self), bool)
        if controls is not None:
            m &= np.array([c in controls for c in self.control], bool)
        if kinds is not None:
            m &= np.array([k in kinds for k in self.kind], bool)
        if events is not None:
            m &= np.array([e in events for e in self.event], bool)
        if exclude_events is not None:
            m &= np.array([e not in exclude_events for e in self.event], bool)
        return m

    def window(self) -> tuple[str, str]:
        return (min(self.date), max(self.date)) if len(self) else ("", "")


def _fail(file: str, line: int, col: int | None, name: str | None, message: str,
          value: object = None, has_value: bool | None = None):
    key = f"line {line}" + (f", column {col} ({name})" if col is not None else "")
    raise ScenarioError(message, file=file, key=key, value=value, has_value=has_value)


MAX_GAME_ROWS = 500_000   # games per CSV file (the shipped data holds about 7,000)


def _rows(p: Path, f: str) -> list[list[str]]:
    """The file's CSV rows, or one line saying why it cannot be read (a byte-order mark, as
    spreadsheet programs write, is dropped; a quote left open names its line)."""
    from ..files import read_text

    text = read_text(p, "game file")
    lines = text.splitlines()
    if len(lines) > MAX_GAME_ROWS + 1:
        raise ScenarioError(f"too many games (more than the limit of {MAX_GAME_ROWS:,} rows)",
                            file=f)
    reader = csv.reader(lines, strict=True)
    rows = []
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as e:
            why = str(e)
            if "field limit" in why or "end of data" in why:
                why = "a quote is not closed on this line (a field runs into the next lines)"
            raise ScenarioError(f"not valid CSV: {why}", file=f, key=f"line {start}") from None
        if any("\n" in cell for cell in row):   # a quoted field ran past its line
            raise ScenarioError("a quote is not closed on this line (a field runs into the "
                                "next lines)", file=f, key=f"line {start}")
        rows.append(row)
    if not rows or not any(cell.strip() for cell in rows[0]):
        raise ScenarioError("empty file: no header line", file=f, key="line 1")
    return rows


def _header(rows: list[list[str]], f: str) -> tuple[list[str], dict[str, int]]:
    """(column names, {name: index}): no name twice, every required column."""
    header = [h.strip() for h in rows[0]]
    pos: dict[str, int] = {}
    for j, h in enumerate(header):
        if h in pos:
            _fail(f, 1, j + 1, h, f"column named twice (first as column {pos[h] + 1})")
        pos[h] = j
    for need in REQUIRED:
        if need not in pos:
            _fail(f, 1, None, None, f"missing column {need!r} (needed: {', '.join(REQUIRED)})")
    return header, pos


# Columns whose cell must be one of a known set: (column, the set, what the refusal says).
KNOWN_WORDS = (("kind", KINDS, "unknown kind; known: " + ", ".join(KINDS)),
               ("control", GAME_CONTROLS, "unknown control; known: " + ", ".join(GAME_CONTROLS)),
               ("result", RESULTS, 'result must be "1-0", "0-1" or "1/2-1/2"'))


def _checked(f: str, i: int, pos: dict[str, int], cell: dict[str, str]):
    """Check one row's cells (line ``i``): ((White's rating, Black's rating), players in the
    event or 0)."""
    def bad(name, message, value=None):
        _fail(f, i, pos[name] + 1, name, message, value, has_value=True)

    _check_words(cell, bad)
    ratings = [_rating(cell[name], name, bad) for name in ("white_rating", "black_rating")]
    _check_time_control(cell, bad)
    n_players = cell.get("event_players", "")
    if n_players and not (n_players.isdigit() and 2 <= int(n_players) <= 1000):
        bad("event_players", "must be a whole number of players (2 or more) or empty",
            n_players)
    return ratings, int(n_players) if n_players else 0


def _check_words(cell: dict[str, str], bad) -> None:
    """The date, the names that must not be empty, White is not Black, and the
    :data:`KNOWN_WORDS` columns; ``bad(column, message, value)`` refuses."""
    try:
        dt.date.fromisoformat(cell["date"])
    except ValueError:
        bad("date", "date must be YYYY-MM-DD", cell["date"])
    for name in ("event", "white", "black", "source"):
        if not cell[name]:
            bad(name, "empty", cell[name])
    if cell["white"] == cell["black"]:
        bad("black", "a player cannot play himself", cell["black"])
    for name, known, message in KNOWN_WORDS:
        if cell[name] not in known:
            bad(name, message, cell[name])


def _rating(raw: str, name: str, bad) -> float:
    """Column ``name``'s cell as a rating: a finite number in :data:`RATING_RANGE`."""
    if not raw:
        bad(name, "missing rating", raw)
    try:
        v = float(raw)
    except ValueError:
        bad(name, "rating must be a number", raw)
    if not math.isfinite(v) or not RATING_RANGE[0] <= v <= RATING_RANGE[1]:
        bad(name, f"rating must be a finite number in [{RATING_RANGE[0]:.0f}, "
                  f"{RATING_RANGE[1]:.0f}]", raw)
    return v


def _check_time_control(cell: dict[str, str], bad) -> None:
    """The optional exact time control: empty, or :data:`TIME_CONTROL`'s form with the row's
    control as its word."""
    tc = cell.get("time_control", "")
    if tc and (not TIME_CONTROL.fullmatch(tc) or tc.split("-")[0] != cell["control"]):
        bad("time_control", f"must be empty or the {cell['control']} control written like "
            "classical, rapid-15+10, blitz-3+2, armageddon-10v7", tc)


def _append(cols: dict, cell: dict[str, str], ratings: list, n_players: int) -> None:
    """One checked row's values onto the columns."""
    for name, v in zip(("white_rating", "black_rating"), ratings):
        cols[name].append(v)
    for name in ("date", "event", "kind", "control", "white", "black", "source"):
        cols[name].append(cell[name])
    cols["result"].append(RESULTS[cell["result"]])
    cols["round"].append(cell.get("round", ""))
    cols["time_control"].append(cell.get("time_control", ""))
    cols["event_players"].append(n_players)


def read_games(path: str | Path | None = None) -> Games:
    """Read and check a game CSV (default: the shipped ``data/games/games.csv``)."""
    p = Path(path) if path is not None else DEFAULT_GAMES
    f = str(p)
    rows = _rows(p, f)
    header, pos = _header(rows, f)
    cols = {k: [] for k in (*REQUIRED, *OPTIONAL)}
    for i, row in enumerate(rows[1:], start=2):
        if not row or not any(cell.strip() for cell in row):
            continue
        if [c.strip() for c in row] == header:
            _fail(f, i, None, None, "a second header line")
        if len(row) != len(header):
            _fail(f, i, None, None, f"{len(row)} fields where the header has {len(header)}")
        cell = {k: row[pos[k]].strip() for k in pos}
        _append(cols, cell, *_checked(f, i, pos, cell))
    if not cols["date"]:
        raise ScenarioError("no games: the file has a header and nothing else", file=f,
                            key="line 2")
    return Games(file=f, date=tuple(cols["date"]), event=tuple(cols["event"]),
                 kind=tuple(cols["kind"]), control=tuple(cols["control"]),
                 white=tuple(cols["white"]), black=tuple(cols["black"]),
                 white_rating=np.array(cols["white_rating"]),
                 black_rating=np.array(cols["black_rating"]),
                 result=np.array(cols["result"], np.int8), round=tuple(cols["round"]),
                 event_players=tuple(cols["event_players"]),
                 time_control=tuple(cols["time_control"]))
