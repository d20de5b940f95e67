"""The layout of a group-series scenario file (``format = "group-series"``), declared.

Every key is documented in docs/format-group-series.md; ranges and choices live in the types,
so the loader (``scenario.py``) only cross-checks what a schema cannot see (names, rosters,
groups, pairings, results against the schedule, the prize fund).
"""

from __future__ import annotations

from typing import Literal

from ...enums import SERIES_CRITERIA
from ...schema import Name, Rating, Table, Text, between, whole_between
from ..shared.scenario import Head, PlayerTable

ROUNDS = 6                       # a double round robin of four
KO_ROUNDS = ("sf1", "sf2", "final")
# the series criteria this format counts (``enums.SERIES_CRITERIA`` names), and lots
CRITERIA = ("events-won", "second-places", "classical-points", "classical-wins")
CriterionName = Literal[CRITERIA + ("lots",)]
assert all(c in SERIES_CRITERIA for c in CRITERIA)

# the named readings of the rules (docs/format-group-series.md, `[rules]`), first = default
READINGS = {
    # how the play-off for first orders the tied players it knocks out
    "playoff_places": ("elimination", "first-only"),
    # what a three-player tie cut to two plays next
    "reduced_tie": ("next-step", "restart"),
    # round and colour table used for games the scenario does not list
    "schedule": ("berger-swapped", "berger"),
    # groups of an event whose draw is not yet known at the checkpoint
    "future_groups": ("draw", "as-drawn"),
    "draw_rule": ("baskets", "snake", "lots"),
    # colours of the first classical game of a simulated knock-out match
    "knockout_colours": ("lots", "first-listed"),
}
GroupPoint = whole_between(0, 100)


class Series(Table):
    qualifying_places: whole_between(0, 64) = 2
    max_events_per_player: whole_between(1, 64) = 2
    substitutes_count: bool = True
    tiebreaks: tuple[CriterionName, ...] = CRITERIA + ("lots",)
    currency: Text = "EUR"


class PointsTable(Table):
    group: tuple[GroupPoint, GroupPoint, GroupPoint, GroupPoint] = (7, 4, 2, 0)
    knockout_match_won: GroupPoint = 3
    classical_win: GroupPoint = 0      # series points per classical game won (a what-if rule)


class Prizes(Table):
    per_player: between(0, 1e9) = 0.0
    per_group_point: between(0, 1e9) = 0.0
    per_knockout_point: between(0, 1e9) = 0.0
    fund_per_event: between(0, 1e10) | None = None


class Controls(Table):
    classical: Name = "classical"
    rapid: Name = "rapid-15+10"
    blitz: Name = "blitz-3+2"
    armageddon: Name = "armageddon-5v4"


class Rules(Table):
    playoff_places: Literal[READINGS["playoff_places"]] = "elimination"
    reduced_tie: Literal[READINGS["reduced_tie"]] = "next-step"
    schedule: Literal[READINGS["schedule"]] = "berger-swapped"
    future_groups: Literal[READINGS["future_groups"]] = "draw"
    draw_rule: Literal[READINGS["draw_rule"]] = "baskets"
    knockout_colours: Literal[READINGS["knockout_colours"]] = "lots"


class SeriesPlayer(PlayerTable):
    seed: whole_between(1, 10_000) | None = None
    substitute: bool = False


class Substitute(Table):
    player: Name
    replaces: Name


class Playoff(Table):
    """The play-off for first of a finished group: places in order, a shared one a list."""

    places: list[Name | list[Name]]
    score: Text = ""


class GroupTable(Table):
    players: list[Name]
    name: Name | None = None
    games: list[tuple[whole_between(1, ROUNDS), Name, Name, Text]] = []   # round, W, B, result
    playoff: Playoff | None = None


class KnockoutTable(Table):
    round: Literal[KO_ROUNDS]
    players: list[Name]
    classical: list[Text]        # from the first-listed player's side
    winner: Name | None = None
    tiebreak: Text = ""


class EventTable(Table):
    players: list[Name]
    name: Text | None = None
    substitutes: list[Substitute] = []
    ratings: dict[Name, Rating] = {}
    groups: list[GroupTable] = []
    knockout: list[KnockoutTable] = []


class GroupSeriesFile(Table):
    scenario: Head
    series: Series = Series()
    points: PointsTable = PointsTable()
    prizes: Prizes = Prizes()
    controls: Controls = Controls()
    rules: Rules = Rules()
    players: list[SeriesPlayer] = []
    events: list[EventTable] = []

