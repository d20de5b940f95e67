"""The layout of a knock-out-series scenario file (``format = "knockout-series"``), declared.

Every key is documented in docs/format-knockout-series.md; ranges and choices live in the
types, so the loader (``scenario.py``) only cross-checks what a schema cannot see (names,
brackets, match entries against the match steps, per-event rating lists).
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from ...enums import STEP_KINDS
from ...schema import Money, Name, Rating, Table, Text, between, whole_between
from ..shared.scenario import Head, PlayerTable

# the series tiebreaks this format implements (``enums.SERIES_CRITERIA`` has more)
CRITERIA = ("events-won", "second-places", "classical-points", "head-to-head", "lots")
CriterionName = Literal[CRITERIA]
StepKindName = Literal[tuple(STEP_KINDS)]
GameScore = between(0, 1)          # a player's score in one game: 1, 0.5 or 0 (loader checks)
MatchScore = between(0, 100)       # a player's match score, in points


class Series(Table):
    place_points: Annotated[list[whole_between(0, 1_000_000)], Meta(min_length=1)]
    event_prizes: Annotated[list[Money], Meta(min_length=1)]   # [] has no winner's prize
    classical_win_bonus: whole_between(0, 100) = 0
    overall_prizes: list[Money] = []
    currency: Text = "EUR"
    tiebreaks: tuple[CriterionName, ...] = CRITERIA
    qualifying_places: whole_between(0, 100) = 2
    qualified_elsewhere: list[Name] = []
    # Readings (named options; docs/format-knockout-series.md)
    unknown_classical_win: tuple[between(0, 2), between(0, 2)] = (1.5, 0.5)
    head_to_head: Literal["once"] = "once"
    standings_points: Literal["secured"] = "secured"
    notes: Text = ""


class StepTable(Table):
    kind: StepKindName
    control: Name | None = None       # required except for lots
    games: whole_between(1, 50) | None = None   # default: 2 for "games", else 1
    name: Name | None = None          # default: the control (or the kind)


class MatchRules(Table):
    steps: Annotated[list[StepTable], Meta(min_length=1)]
    first_white: Literal["lots"] = "lots"
    tiebreak_colours: Literal["as-classical"] = "as-classical"
    notes: Text = ""


class SeriesPlayer(PlayerTable, kw_only=True):
    events: list[whole_between(1, 1000)]
    counts: bool = True
    note: Text = ""
    role: Text = ""


class MatchEntry(Table):
    round: Name
    players: tuple[Name, Name]
    white: Name | None = None
    classical: list[GameScore] = []
    tiebreaks: list[GameScore] = []
    score: tuple[MatchScore, MatchScore] | None = None
    winner: Name | None = None
    decided_by: Name | None = None
    source: Text = ""
    note: Text = ""


class EventTable(Table):
    name: Name | None = None
    dates: Text = ""
    bracket: list[Name] | None = None
    matches: list[MatchEntry] = []
    # the rating list in force from this event on (later events inherit it until changed)
    ratings: dict[Name, Rating] = {}
    rapid: dict[Name, Rating] = {}
    blitz: dict[Name, Rating] = {}
    notes: Text = ""
    source: Text = ""


class KnockoutSeriesFile(Table):
    scenario: Head
    series: Series
    match: MatchRules
    players: Annotated[list[SeriesPlayer], Meta(min_length=1)]
    events: Annotated[list[EventTable], Meta(min_length=1)]
