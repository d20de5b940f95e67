"""The layout of a cycle scenario file (``format = "cycle"``), declared.

Every key is documented in docs/format-cycle.md; ranges and choices live in the types, so the
loader (``scenario.py``) only cross-checks what a schema cannot see (event ids, player names,
checkpoints, chains that could run dry, fallbacks that loop).
"""

from __future__ import annotations

from typing import Literal

from ...schema import Name, Rating, Table, Text, whole_between
from ..shared.scenario import Head, PlayerTable

Id = Name


class Event(Table):
    """An event of the cycle, played before the final: an existing scenario file."""

    id: Id                               # its name in seats and checkpoints (``gp-event2``)
    scenario: Name                       # a path (relative to the cycle file) or a shipped name
    label: Text = ""                     # how the reports name it ("Grand Prix 2022")


class Final(Table):
    """The final event (a round robin: its own scenario file says its rules)."""

    scenario: Name
    id: Id = "candidates"


class Source(Table):
    """One link of a seat's chain; exactly one of the keys below is set.

    fixed       a named player
    event, place      the player at that place (1-based) of the event's final order, only
    event, best       the best of the event's order not seated yet (``best = true``)
    rating_list       the highest-rated of that list not seated yet
    nominee           a declared nominee rule ([[nominees]])
    """

    fixed: Name | None = None
    event: Id | None = None
    place: whole_between(1, 1000) | None = None
    best: bool = False
    rating_list: Id | None = None
    nominee: Id | None = None


class Seat(Table):
    """A seat of the final, in priority order: a player qualifying twice takes the first
    seat he reaches and the other passes down its own chain."""

    id: Id
    path: Name                           # the path it stands for ("Grand Prix", "rating")
    chain: tuple[Source, ...]            # tried in order; the first that yields a player
    fallback: Id | None = None           # when the chain runs dry: the chain of this seat


class ListEntry(Table):
    name: Name
    rating: Rating
    games: whole_between(0, 10_000) | None = None   # rated games in the period the rule counts


class RatingList(Table):
    id: Id
    date: Text                           # the list's date ("2022-05")
    entries: tuple[ListEntry, ...]
    min_games: whole_between(0, 10_000) = 0
    exclude: tuple[Name, ...] = ()       # players the rule leaves out (the World Champion)
    source: Text = ""


class Nominee(Table):
    """A nominee rule: who is eligible and who picks, stated as a reading.

    reading "named": the pick is the named player (``pick``), who must be eligible;
    reading "event-best": the best of ``event``'s order among the eligible not yet seated.
    """

    id: Id
    reading: Literal["named", "event-best"]
    eligible: tuple[Name, ...] = ()      # empty: every player of the cycle
    pick: Name | None = None
    event: Id | None = None
    picker: Text = ""                    # who picks, in words ("the organiser, Kontinent ...")
    source: Text = ""


class Withdrawal(Table):
    """A player who leaves the cycle, known from a checkpoint of the cycle on; a seat he holds
    or would take passes down its chain."""

    player: Name
    known_at: Name                        # a cycle checkpoint ("gp-event3-round1")
    replaced_by: Text = ""               # in words, for the reports
    source: Text = ""


class CycleFile(Table):
    scenario: Head
    events: tuple[Event, ...]
    final: Final
    seats: tuple[Seat, ...]
    rating_lists: tuple[RatingList, ...] = ()
    nominees: tuple[Nominee, ...] = ()
    withdrawals: tuple[Withdrawal, ...] = ()
    players: tuple[PlayerTable, ...] = ()   # who may play the final but is in no event file
