"""The layout of a tour scenario file (``format = "tour"``), declared.

Every key is documented in docs/format-tour.md; types, ranges and choices live here (so ``nan``,
``inf``, unknown keys and out-of-range values are refused with file, key and value before
anything reads them), and the loader (``scenario.py``) only cross-checks what a schema cannot
see: dates inside the season, names in the fields, results against the fields, the rules of
the ACP regulations that tie keys together.
"""

from __future__ import annotations

import datetime as _dt
from typing import Annotated, Literal

from ...enums import STEP_KINDS
from ...schema import Meta, Name, Points, Rating, Table, Text, between, whole_between
from ...schema import field as renamed
from ..shared.scenario import Head, PlayerTable
from .rules import BEST_N, DECLINED_FACTOR, QUALIFYING, SEASON, SYSTEMS

MAX_FIELD = 100_000                                     # players in one event (a big open)
Minutes = between(0, 1000)                              # a player's base time per game
Coefficient = between(0, 10)
PointsTable = Annotated[list[Points], Meta(min_length=1)]   # ACP points by place, 1st first
Place = whole_between(1, MAX_FIELD) | Text              # 3 or a shared range "2-3" (loader)


class TourTable(Table):
    """``[tour]``: the season and the Readings (docs/format-tour.md)."""

    season: tuple[_dt.date, _dt.date] = SEASON
    best_n: whole_between(1, 20) = BEST_N
    qualifying_places: whole_between(1, 1000) = QUALIFYING
    shared_places: Literal["split", "lots"] = "split"
    grand_slam_level: Literal["own-level", "by-strength"] = "own-level"
    open_placement: Literal["listed-only"] = "listed-only"
    dortmund_system: Literal["round-robin"] = "round-robin"
    declined_factor: between(0, 1) = DECLINED_FACTOR


class Coefficients(Table):
    """``[points.coefficients]``: factor per kind of event (regulations §4.2)."""

    rapid: Coefficient
    grand_slam: Coefficient = renamed(name="grand-slam")
    classical: Coefficient

    def by_scale(self) -> dict[str, float]:
        return {"rapid": float(self.rapid), "grand-slam": float(self.grand_slam),
                "classical": float(self.classical)}


class PointsTables(Table, kw_only=True):
    """``[points]``: the tables by level (the regulations' Appendix 2: not available)."""

    illustrative: bool | None = None   # required: the loader says why when it is missing
    source: Text = ""
    coefficients: Coefficients
    A: PointsTable
    B: PointsTable
    C: PointsTable
    D: PointsTable
    E: PointsTable
    GS: PointsTable | None = None      # needed with grand_slam_level = "own-level"


class TourPlayer(PlayerTable):
    member: bool = True                # ACP member in 2004 and 2005 (regulations §5.1-5.3)


class MatchStep(Table):
    """One step of a knock-out match (as in the knockout-series format)."""

    kind: Literal[tuple(STEP_KINDS)]
    control: Name | None = None        # default: the event's control
    games: whole_between(0, 40) | None = None   # required for kind = "games"


class EventTable(Table, kw_only=True):
    """One ``[[events]]`` entry."""

    name: Name
    start: _dt.date                    # the first round (TOML date or "YYYY-MM-DD")
    system: Literal[SYSTEMS]
    minutes: Minutes
    control: Name | None = None        # default from minutes (scenario.default_control)
    grand_slam: bool = False
    joined: bool = True
    announced: bool = True
    field: Annotated[list[Name], Meta(min_length=1)]
    n_players: whole_between(1, MAX_FIELD) | None = None
    strength: Rating | None = None
    starting_ratings: Annotated[list[Rating], Meta(min_length=1)] | None = None
    opponent_rating: Rating | None = None
    cycles: whole_between(1, 2) | None = None
    rounds: whole_between(1, 50) | None = None
    match: Annotated[list[MatchStep], Meta(min_length=1)] | None = None
    results: Annotated[list[tuple[Name, Place]], Meta(min_length=1)] | None = None
    illustrative: bool = False
    source: Text = ""


class TourFile(Table):
    scenario: Head
    tour: TourTable
    points: PointsTables
    players: Annotated[list[TourPlayer], Meta(min_length=1)]
    events: Annotated[list[EventTable], Meta(min_length=1)]
