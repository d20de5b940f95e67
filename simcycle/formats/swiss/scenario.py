"""A Swiss scenario: the frozen record the rest of the format reads, and its loader.

The schema (``schema.py``) has checked every key, type and range; :func:`load` adds what a
schema cannot see: names, a player paired twice in a round, rounds in order.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...enums import (BLACK_WINS, COL_BLACK, COL_WHITE, DRAW, RESULT_CODES, ROUND_KIND_TRF,
                      SWISS_CRITERIA, UNPLAYED, WHITE_WINS)
from ...errors import ScenarioError
from ...schema import convert
from ..shared.scenario import FromSource, Source, head_of, index_players
from .schema import SwissFile

DEFAULT_KIND = "open"
FORFEITS = {"+-": WHITE_WINS, "-+": BLACK_WINS}   # White / Black wins by forfeit


@dataclass(frozen=True)
class Player:
    name: str
    rating: float
    fide_id: int | None
    title: str
    federation: str
    qualified: bool
    aliases: tuple


@dataclass(frozen=True)
class Game:
    round: int
    white: int
    black: int
    result: int       # enums WHITE_WINS, DRAW, BLACK_WINS, UNPLAYED (paired, not played yet)
    forfeit: bool = False


@dataclass(frozen=True)
class Bye:
    round: int
    player: int
    kind: int         # enums RK_* (H, F, U, Z)


@dataclass(frozen=True)
class Swiss(FromSource):
    source: Source
    players: tuple
    n_rounds: int
    control: str
    qualifying_places: int
    pass_down: bool
    initial_colour: int          # COL_WHITE / COL_BLACK
    acceleration: str            # "none" / "baku"
    pab_points: int              # half points
    order: tuple                 # criterion names, in order ("lots" may stand anywhere)
    tiebreak_source: str
    prize_places: tuple
    prize_split: str
    currency: str
    games: tuple                 # Game, in round order
    byes: tuple                  # Bye, in round order
    paired_rounds: int           # rounds whose pairings the file has

    @property
    def criteria(self) -> tuple:
        """The criterion codes (``enums.TBS_*``) in order."""
        return tuple(SWISS_CRITERIA[c] for c in self.order)

    def round_complete(self, r: int) -> bool:
        gs = [g for g in self.games if g.round == r]
        return bool(gs) and all(g.result != UNPLAYED for g in gs)


def _round(k: int, rd, ev, seen_rounds: set, idx, players, f: str) -> tuple[list, list]:
    """Round entry ``k``'s (games, byes), its round added to ``seen_rounds``: the rounds in
    order from 1, every player paired once (a game or a bye), results as FIDE writes them."""
    n = len(players)
    games, byes = [], []
    key = f"rounds[{k}]"
    r = rd.round
    if r > ev.rounds:
        raise ScenarioError(f"the event has {ev.rounds} rounds", file=f,
                            key=f"{key}.round", value=r)
    if r in seen_rounds:
        raise ScenarioError("round listed twice", file=f, key=f"{key}.round", value=r)
    if r != len(seen_rounds) + 1:
        raise ScenarioError(f"rounds must follow each other from 1 (expected "
                            f"{len(seen_rounds) + 1})", file=f, key=f"{key}.round",
                            value=r)
    seen_rounds.add(r)
    busy: dict[int, str] = {}

    def take(i, where):
        if i in busy:
            raise ScenarioError(f"{players[i].name} is paired twice in round {r} (also "
                                f"at {busy[i]})", file=f, key=where, value=players[i].name)
        busy[i] = where

    for j, (w, b, res) in enumerate(rd.games):
        gk = f"{key}.games[{j}]"
        wi, bi = idx.find(w, gk + "[0]"), idx.find(b, gk + "[1]")
        if wi == bi:
            raise ScenarioError("a player cannot play himself", file=f, key=gk, value=w)
        take(wi, gk)
        take(bi, gk)
        t = res.strip()
        if t in FORFEITS:
            games.append(Game(r, wi, bi, FORFEITS[t], True))
        elif t in RESULT_CODES:
            games.append(Game(r, wi, bi, RESULT_CODES[t]))
        else:
            raise ScenarioError('result must be "1-0", "1/2-1/2", "0-1", "+-", "-+" '
                                'or "*"', file=f, key=gk + "[2]", value=res)
    if not rd.games:
        raise ScenarioError("a round needs its games", file=f, key=f"{key}.games")
    for j, (name, letter) in enumerate(rd.byes):
        bk = f"{key}.byes[{j}]"
        i = idx.find(name, bk + "[0]")
        take(i, bk)
        byes.append(Bye(r, i, ROUND_KIND_TRF[letter]))
    if len(busy) != n:
        missing = [players[i].name for i in range(n) if i not in busy]
        raise ScenarioError(f"round {r}: every player needs a game or a bye (missing: "
                            f"{', '.join(missing[:3])}{' ...' if len(missing) > 3 else ''})",
                            file=f, key=f"{key}", value=len(missing))
    return games, byes


def load(raw: dict, file: str) -> Swiss:
    f = file
    doc = convert(raw, SwissFile, f)
    src = head_of(doc.scenario, f, DEFAULT_KIND)
    if len(doc.players) < 2:
        raise ScenarioError("need a [[players]] list of at least two players", file=f,
                            key="players", value=len(doc.players))
    idx = index_players(doc.players, f)
    players = tuple(Player(p.name, float(p.rating), p.fide_id, p.title, p.federation,
                           p.qualified, tuple(p.aliases)) for p in doc.players)
    n = len(players)
    ev = doc.event
    if ev.qualifying_places > n:
        raise ScenarioError(f"more qualifying places than players ({n})", file=f,
                            key="event.qualifying_places", value=ev.qualifying_places)
    if len(doc.prizes.places) > n:
        raise ScenarioError(f"more place prizes than players ({n})", file=f,
                            key="prizes.places", value=len(doc.prizes.places))
    if len(set(doc.tiebreak.order)) != len(doc.tiebreak.order):
        raise ScenarioError("a criterion is listed twice", file=f, key="tiebreak.order",
                            value=list(doc.tiebreak.order))
    games, byes = [], []
    seen_rounds = set()
    for k, rd in enumerate(doc.rounds):
        g, b = _round(k, rd, ev, seen_rounds, idx, players, f)
        games += g
        byes += b
    # a round after one not finished cannot be paired yet
    for r in sorted(seen_rounds):
        if r > 1 and any(g.result == UNPLAYED for g in games if g.round == r - 1):
            raise ScenarioError(f"round {r} is paired but round {r - 1} is not finished",
                                file=f, key="rounds", value=r)
    return Swiss(
        source=src, players=players, n_rounds=ev.rounds, control=ev.control,
        qualifying_places=ev.qualifying_places, pass_down=ev.pass_down,
        initial_colour=COL_WHITE if ev.initial_colour == "white" else COL_BLACK,
        acceleration=ev.acceleration, pab_points=ev.pab_points, order=tuple(doc.tiebreak.order),
        tiebreak_source=doc.tiebreak.source,
        prize_places=tuple(float(x) for x in doc.prizes.places), prize_split=doc.prizes.split,
        currency=doc.prizes.currency, games=tuple(games), byes=tuple(byes),
        paired_rounds=len(seen_rounds))


__all__ = ["Swiss", "Player", "Game", "Bye", "load", "DRAW"]
