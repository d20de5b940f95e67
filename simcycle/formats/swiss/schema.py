"""The layout of a Swiss scenario file (``format = "swiss"``), declared.

Every key is documented in docs/format-swiss.md; ranges and choices live in the types, so the
loader (``scenario.py``) only cross-checks what a schema cannot see (names, rounds, pairings).
"""

from __future__ import annotations

from typing import Literal

from ...enums import SWISS_CRITERIA
from ...schema import Money, Name, Table, Text, whole_between
from ..shared.scenario import Head, PlayerTable

CriterionName = Literal[tuple(SWISS_CRITERIA)]
ByeLetter = Literal["H", "F", "U", "Z"]


class SwissPlayer(PlayerTable):
    """A player; the list's order is the pairing numbers (1, 2, ...)."""

    title: Text = ""
    # already qualified (or not eligible): a qualifying place he reaches passes down
    qualified: bool = False


class Event(Table):
    rounds: whole_between(1, 40)
    control: Name = "classical"
    qualifying_places: whole_between(0, 1000) = 0
    pass_down: bool = True              # a place whose holder is qualified goes to the next
    initial_colour: Literal["white", "black"] = "white"   # pairing number 1's in round 1 (XXC)
    acceleration: Literal["none", "baku"] = "none"
    pab_points: Literal[0, 1, 2] = 2    # half points of a pairing-allocated bye (C.04.1)


class Tiebreak(Table):
    order: tuple[CriterionName, ...] = ("buchholz-cut1", "buchholz", "direct-encounter",
                                        "lots")
    source: Text = ""


class Prizes(Table):
    currency: Text = ""
    places: list[Money] = []
    split: Literal["tiebreak", "points"] = "tiebreak"   # "points": level players share
    source: Text = ""


class Round(Table):
    """One round: its games (White, Black, result: "1-0", "1/2-1/2", "0-1", "+-" / "-+"
    forfeits, "*" paired, not played yet) and its byes (player, TRF letter)."""

    round: whole_between(1, 40)
    games: list[tuple[Name, Name, Name]] = []
    byes: list[tuple[Name, ByeLetter]] = []
    source: Text = ""


class SwissFile(Table):
    scenario: Head
    players: list[SwissPlayer]
    event: Event
    tiebreak: Tiebreak = Tiebreak()
    prizes: Prizes = Prizes()
    rounds: list[Round] = []
