"""Game results read from an event's files (PGN, TRF), and their check against a round robin.

Both readers (:mod:`.pgn`, :mod:`.trf`) produce :class:`FileResult` rows: round, board, the
names (and FIDE ids) as the file spells them, the result, and where the row came from (file,
game index or line).  :func:`match` turns them into scheduled games of a round robin:

* players by FIDE id (the players' optional ``fide_id`` key), name or alias, case- and
  accent-insensitive, "Last, First" or "Last,F." as well as "First Last";
* the pairing and the colours checked against the schedule of the round; a row without a
  round (a PGN without a ``[Round]`` tag) is placed when the pairing with those colours is
  scheduled exactly once;
* unfinished games (``*``) checked but not counted;
* a result the scenario already has, or that another row gives, must agree.

Every refusal is one :class:`~simcycle.errors.ScenarioError` line naming the file and the game,
e.g. ``games.pgn: game 37 (round 10.3 Ding Liren - Nakamura, Hikaru): ...``.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from ..enums import RESULT_CODES, RESULT_TEXT, UNPLAYED
from ..errors import ScenarioError

FINISHED = ("1-0", "1/2-1/2", "0-1")


@dataclass(frozen=True)
class FileResult:
    """One game as a file gives it."""

    round: int | None        # None: the file does not say (placed from the schedule)
    board: int | None
    white: str
    black: str
    result: str              # "1-0", "1/2-1/2", "0-1" or "*" (not finished)
    file: str
    where: str               # "game 12" (PGN) or "line 14" (TRF)
    white_id: int | None = None
    black_id: int | None = None

    def label(self) -> str:
        rnd = "round ?" if self.round is None else f"round {self.round}"
        if self.round is not None and self.board is not None:
            rnd += f".{self.board}"
        return f"{rnd} {self.white} - {self.black}"

    def error(self, message: str) -> ScenarioError:
        return ScenarioError(message, file=self.file, key=f"{self.where} ({self.label()})")


@dataclass(frozen=True)
class Matched:
    """A row placed in the schedule: the scheduled game's round and players (indices)."""

    round: int
    white: int
    black: int
    code: int                # enums: WHITE_WINS, DRAW, BLACK_WINS, or UNPLAYED ("*")
    row: FileResult

    @property
    def result(self) -> str:
        return RESULT_TEXT[self.code]


def fold(name: str) -> str:
    """A name compared: accents dropped, case folded, spaces collapsed."""
    s = unicodedata.normalize("NFKD", name)
    s = "".join(c for c in s if not unicodedata.combining(c))
    return " ".join(s.replace(".", ". ").split()).casefold()


def name_keys(name: str) -> list[str]:
    """The spellings a name is looked up by: as written, "Last, First" without the comma
    (Chinese order: "Ding, Liren" -> "ding liren") and turned round ("liren ding")."""
    n = fold(name)
    keys = [n]
    if "," in n:
        last, _, first = n.partition(",")
        last, first = last.strip(), first.strip()
        keys += [f"{last} {first}".strip(), f"{first} {last}".strip()]
    return keys


class Roster:
    """The scenario's players, found by FIDE id, name or alias (see :func:`name_keys`)."""

    def __init__(self, players):
        """``players``: objects with ``name``, ``aliases`` and ``fide_id``."""
        self.names = [p.name for p in players]
        self.by_id = {p.fide_id: i for i, p in enumerate(players) if p.fide_id is not None}
        self.by_name: dict[str, int] = {}
        self.by_last: dict[str, set[int]] = {}
        for i, p in enumerate(players):
            for n in (p.name, *p.aliases):
                f = fold(n)
                self.by_name.setdefault(f, i)
                parts = f.split()
                if len(parts) > 1:      # "ian nepomniachtchi": last name and first initial
                    for last, first in ((parts[-1], parts[0]), (parts[0], parts[-1])):
                        self.by_last.setdefault(f"{last}|{first[0]}", set()).add(i)

    def find(self, name: str, fide_id: int | None) -> int | None:
        by_name = self._by_name(name)
        if fide_id is not None and fide_id in self.by_id:
            return self.by_id[fide_id]
        return by_name

    def conflict(self, name: str, fide_id: int | None) -> str | None:
        """A FIDE id that names one player and a name that names another."""
        if fide_id is None or fide_id not in self.by_id:
            return None
        by_name = self._by_name(name)
        i = self.by_id[fide_id]
        if by_name is not None and by_name != i:
            return (f"FIDE id {fide_id} is {self.names[i]}'s, but the name {name!r} is "
                    f"{self.names[by_name]}'s")
        return None

    def _by_name(self, name: str) -> int | None:
        for k in name_keys(name):
            if k in self.by_name:
                return self.by_name[k]
        n = fold(name)
        if "," in n:                    # "Nepomniachtchi, I." / "Nepomniachtchi,Ian"
            last, _, first = n.partition(",")
            first = first.strip()
            if first:
                hits = self.by_last.get(f"{last.strip()}|{first[0]}", set())
                if len(hits) == 1:
                    return next(iter(hits))
        return None


def game_players(roster, row, what: str = "scenario") -> tuple[int, int]:
    """(White, Black) of a file's game as the scenario's player indices, matched by name,
    alias or FIDE id; a name/id conflict, an unknown player or a player against himself is
    refused naming the game's line (``row.error``)."""
    ids = []
    for name, fid, colour in ((row.white, row.white_id, "White"),
                              (row.black, row.black_id, "Black")):
        why = roster.conflict(name, fid)
        if why:
            raise row.error(why)
        i = roster.find(name, fid)
        if i is None:
            raise row.error(f"unknown player {name!r} ({colour}): not a name, alias or "
                            f"FIDE id of the {what}'s [[players]]")
        ids.append(i)
    w, b = ids
    if w == b:
        raise row.error(f"{roster.names[w]} cannot play himself")
    return w, b


def match(rows, players, games, *, what: str = "scenario") -> list[Matched]:
    """Place every row in the schedule (``games``: objects with ``round``, ``white``,
    ``black``, ``result``, one per scheduled game); refuse, in one line naming the game, an
    unknown player, a pairing or colours the schedule does not have, a result that
    contradicts the scenario's or another row's.  Unfinished rows are checked, then kept with
    ``code = UNPLAYED``."""
    roster = Roster(players)
    sched: dict[tuple[int, int, int], object] = {(g.round, g.white, g.black): g for g in games}
    by_pair: dict[tuple[int, int], list] = {}
    rounds = set()
    for g in games:
        by_pair.setdefault((g.white, g.black), []).append(g)
        rounds.add(g.round)
    last_round = max(rounds, default=0)
    seen: dict[tuple[int, int, int], Matched] = {}
    out = []
    for row in rows:
        w, b = game_players(roster, row, what)
        rn = _round_of(row, by_pair.get((w, b), []), rounds, last_round)
        g = sched.get((rn, w, b))
        if g is None:
            raise _not_scheduled(row, rn, w, b, games, sched, roster)
        code = RESULT_CODES[row.result]
        key = (rn, w, b)
        m = Matched(rn, w, b, code, row)
        if code != UNPLAYED:
            if g.result != UNPLAYED and g.result != code:
                raise row.error(f"result {row.result} contradicts the {what}, which has "
                                f"{RESULT_TEXT[g.result]} for this game")
            prev = seen.get(key)
            if prev is not None and prev.code != code:
                raise row.error(f"result {row.result} contradicts {prev.row.file}: "
                                f"{prev.row.where}, which has {prev.result}")
            seen[key] = m
        out.append(m)
    return out


def _round_of(row, cands: list, rounds: set, last_round: int) -> int:
    """The row's round: its own (one the schedule has), else that of the one game of the
    schedule with its players and colours (``cands``)."""
    if row.round is not None:
        if row.round not in rounds:
            raise row.error(f"no round {row.round} in the schedule (the event has {last_round} "
                            "rounds)")
        return row.round
    if len(cands) != 1:
        raise row.error("no round given ([Round] tag missing) and "
                        + ("the schedule has no such game" if not cands else
                           "the players meet with these colours in rounds "
                           + ", ".join(str(g.round) for g in cands)))
    return cands[0].round


def _not_scheduled(row, rn: int, w: int, b: int, games, sched: dict, roster) -> ScenarioError:
    """The error of a row whose game round ``rn`` does not have: wrong colours, or whom the
    two play in that round."""
    names = roster.names
    if (rn, b, w) in sched:
        return row.error(f"wrong colours: in round {rn} the schedule has {names[b]} with White "
                         f"against {names[w]}")
    opp = {**{x.white: x.black for x in games if x.round == rn},
           **{x.black: x.white for x in games if x.round == rn}}
    who = [f"{names[p]} plays {names[opp[p]]}" for p in (w, b) if p in opp]
    return row.error(f"not in the schedule of round {rn}"
                     + (f" ({'; '.join(who)})" if who else ""))


def merged(games, matched, make):
    """``games`` with the results of ``matched`` filled in (``make(game, code)`` builds the
    new game)."""
    res = {(m.round, m.white, m.black): m.code for m in matched if m.code != UNPLAYED}
    return tuple(make(g, res[(g.round, g.white, g.black)])
                 if (g.round, g.white, g.black) in res and g.result == UNPLAYED else g
                 for g in games)
