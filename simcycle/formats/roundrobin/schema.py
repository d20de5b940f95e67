"""The layout of a round-robin scenario file (``format = "round-robin"``), declared.

Every key is documented in docs/scenarios.md; ranges and choices live in the types, so the
loader (``scenario.py``) only cross-checks what a schema cannot see (names, rounds, pairings).
"""

from __future__ import annotations

from typing import Literal

from ...enums import PLAYOFF_KINDS, RR_CRITERIA
from ...schema import Money, Name, Rating, Table, Text, whole_between
from ..shared.scenario import Head, PlayerTable

PlayoffKindName = Literal[tuple(k for k in PLAYOFF_KINDS if k != "paired-knockout")]
CriterionName = Literal[tuple(RR_CRITERIA)]
SCHEDULES = ("explicit", "berger", "berger-mirrored")


class Event(Table):
    cycles: whole_between(1, 8) = 1
    control: Name = "classical"
    schedule: Literal[SCHEDULES] = "berger"
    qualifying_places: whole_between(0, 1000) = 1
    # results kept in an event's own files, relative to the scenario (docs/live.md)
    results_pgn: Name | None = None
    results_trf: Name | None = None


class PlayoffOption(Table):
    tied: tuple[whole_between(2, 1000), whole_between(2, 1000)]
    kind: PlayoffKindName
    control: Name | None = None


class Tiebreak(Table):
    playoff_places: whole_between(0, 1) = 0
    playoff: list[list[PlayoffOption] | PlayoffOption] = []
    order: tuple[CriterionName, ...] = ("sonneborn-berger", "wins", "head-to-head", "lots")
    playoff_winner: Name | None = None


class Prizes(Table):
    currency: Text = ""
    places: list[Money] = []
    per_half_point: Money = 0.0
    fund: Money | None = None
    split: Literal["tiebreak", "points"] = "tiebreak"


class Round(Table):
    round: whole_between(1, 10_000)
    date: Text = ""
    games: list[tuple[Name, Name, Name]] = []


class RatingList(Table):
    """Ratings from a round on (e.g. an event resumed a year later with a new list)."""

    from_round: whole_between(1, 10_000)
    ratings: dict[Name, Rating]
    rapid: dict[Name, Rating] = {}
    blitz: dict[Name, Rating] = {}
    source: Text = ""


class RoundRobinFile(Table):
    scenario: Head
    players: list[PlayerTable]
    event: Event = Event()
    tiebreak: Tiebreak = Tiebreak()
    prizes: Prizes = Prizes()
    rounds: list[Round] = []
    ratings: list[RatingList] = []
