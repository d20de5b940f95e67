"""Results from a PGN file (a broadcast's games), read with python-chess.

Only the headers and the movetext's termination marker are used: ``[White]``, ``[Black]``,
``[Round]`` ("10.3" is round 10, board 3; "10" is round 10), ``[Result]``, and the optional
``[WhiteFideId]`` / ``[BlackFideId]``.  python-chess copes with what real broadcasts contain
(a byte-order mark, CRLF line ends, ``{comments}``, ``;`` comments, ``(variations)``, NAGs,
``%`` escape lines); this module adds:

* a missing ``[Round]`` (or ``"?"``): the game is placed from the schedule when its pairing
  with those colours is scheduled once (see :func:`simcycle.io.results.match`);
* a missing ``[Result]``: the termination marker at the end of the moves is used;
* a game whose moves have no termination marker (a file cut short) is refused, as is a game
  whose ``[Result]`` and termination marker disagree, and a "game" without ``[White]`` and
  ``[Black]`` tags (a file that is not PGN);
* an empty file is no games (an event that has not started).

Moves are not replayed: a broadcast's move errors are not ours to judge.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from ..errors import ScenarioError
from .results import FINISHED, FileResult

TAG_LINE = re.compile(r'^\s*\[\s*[A-Za-z0-9_]+\s+"(?:[^"\\]|\\.)*"\s*\]\s*$')
TAG_START = re.compile(r'^\s*\[\s*[A-Za-z0-9_]+\s+"')     # what a tag line starts as
MAX_GAMES = 20_000     # games per PGN file: an event has a few hundred, a season thousands


def check_tag_lines(text: str, f: str) -> None:
    """Refuse a tag line python-chess would drop without a word (a line outside a {comment}
    that starts as a tag, ``[Name "``, but is not ``[Name "value"]``), naming its line."""
    depth = 0
    for n, line in enumerate(text.split("\n"), 1):
        s = line.strip()
        if depth == 0 and TAG_START.match(s) and not TAG_LINE.match(s):
            raise ScenarioError('malformed tag line (a tag is [Name "value"])', file=f,
                                key=f"line {n}", value=s)
        if "{" in s or "}" in s:
            for ch in s.split(";", 1)[0] if depth == 0 else s:
                depth += ch == "{"
                depth = max(0, depth - (ch == "}"))


ROUND = re.compile(r"^\s*(?:round\s*)?(\d+)(?:\.(\d+))?(?:\.\d+)*\s*$", re.IGNORECASE)
NO_ROUND = {"", "?", "-", "??"}


def read_text_lenient(path: str | Path, what: str) -> str:
    """The text of a results file: UTF-8 (a BOM dropped), else Latin-1 (the PGN standard's
    own encoding); CRLF and CR line ends made LF.  Special, binary and huge files are
    refused by :func:`simcycle.files.read_text`."""
    from ..files import read_text
    try:
        text = read_text(path, what)
    except ScenarioError as e:
        if not e.message.startswith("not UTF-8"):
            raise
        text = Path(path).read_bytes().decode("latin-1")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _visitor_class():
    import chess
    import chess.pgn

    class Headers(chess.pgn.BaseVisitor):
        """Headers, the termination marker and nothing else (moves are skipped)."""

        def begin_game(self):
            self.headers = {}
            self.termination = None
            self.any_tag = False

        def visit_header(self, tagname, tagvalue):
            self.headers[tagname] = tagvalue
            self.any_tag = True

        def parse_san(self, board, san):
            # Not replayed: a null move keeps the parser's move stack (so variations are
            # recognised and skipped) at no cost.
            return chess.Move.null()

        def begin_variation(self):
            return chess.pgn.SKIP

        def visit_result(self, result):
            self.termination = result

        def handle_error(self, error):   # nothing to replay: nothing to report
            pass

        def result(self):
            return self

    return Headers


def read_pgn(path: str | Path) -> list[FileResult]:
    """Every game of ``path`` as a :class:`FileResult` (``*`` games included), in file order."""
    import chess.pgn

    f = str(path)
    text = read_text_lenient(path, "PGN file")
    check_tag_lines(text, f)
    n_games = len(re.findall(r"^\s*\[\s*Result\s", text, re.MULTILINE))
    if n_games > MAX_GAMES:
        raise ScenarioError(f"too many games ({n_games:,}; the limit is {MAX_GAMES:,})",
                            file=f)
    handle = io.StringIO(text)
    Visitor = _visitor_class()
    rows = []
    k = 0
    while True:
        start = handle.tell()
        try:
            v = chess.pgn.read_game(handle, Visitor=Visitor)
        except Exception as e:      # python-chess is lenient; anything else is a bad file
            raise ScenarioError(f"not a PGN file: {e}", file=f,
                                key=f"game {k + 1}") from None
        if v is None:
            break
        k += 1
        line = text.count("\n", 0, start) + 1 + _leading_blank_lines(text, start)
        rows.append(_row(v, f, k, line))
    return rows


def _leading_blank_lines(text: str, start: int) -> int:
    rest = text[start:]
    stripped = rest.lstrip()
    return rest[: len(rest) - len(stripped)].count("\n")


def _row(v, f: str, k: int, line: int) -> FileResult:
    h = v.headers
    where = f"game {k}, line {line}"
    white, black = h.get("White", "").strip(), h.get("Black", "").strip()
    if not v.any_tag:
        raise ScenarioError("not a PGN game: no [White] / [Black] tags (is this a PGN file?)",
                            file=f, key=where)
    rnd, board = _round(h.get("Round", ""), f, where, white, black)
    base = FileResult(rnd, board, white or "?", black or "?", "*", f, where,
                      _fide_id(h.get("WhiteFideId")), _fide_id(h.get("BlackFideId")))
    for tag, value in (("White", white), ("Black", black)):
        if value in ("", "?"):
            raise base.error(f"no [{tag}] tag: the players must be named")
    tag_result = h.get("Result", "").strip()
    term = v.termination
    if term is None:
        raise base.error("the moves end without a result (1-0, 0-1, 1/2-1/2 or *): "
                         "the file looks cut short")
    if tag_result in ("", "?"):
        tag_result = term
    if tag_result not in (*FINISHED, "*"):
        raise base.error(f'[Result "{tag_result}"] is not 1-0, 0-1, 1/2-1/2 or *')
    if term != tag_result and term != "*":
        raise base.error(f'[Result "{tag_result}"] but the moves end with {term}')
    return FileResult(rnd, board, base.white, base.black, tag_result, f, where,
                      base.white_id, base.black_id)


def _round(value: str, f: str, where: str, white: str, black: str):
    v = value.strip()
    if v in NO_ROUND:
        return None, None
    m = ROUND.match(v)
    if not m:
        raise ScenarioError(f'[Round "{v}"] is not a round number such as "10" or "10.3"',
                            file=f, key=f"{where} ({white} - {black})")
    return int(m.group(1)), (int(m.group(2)) if m.group(2) else None)


def _fide_id(value) -> int | None:
    if value is None:
        return None
    v = value.strip()
    return int(v) if v.isdigit() and int(v) > 0 else None

