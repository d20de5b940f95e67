"""What-if places for a tour (``--fix "event4: Alder 1"``): a member's final place in an event
still to play, as ``CompileOptions.fixed`` entries.

An entry is ``(event, player) -> (lo_min, lo_max, hi_min, hi_max)``: ``event`` the event's
index in ``Tour.events`` (date order), ``player`` the player's index, and the inclusive bounds
of his first place (lo) and last place (hi) in the event (lo < hi: places shared, as the
file's ``results`` write them).  Spellings, after an optional ``EVENT:`` (its name, the start of
its name, or ``event1``, ``event2``, ... in date order; default: the next event still to play
that lists the player):

- ``PLAYER 1``, ``PLAYER 2-3``: exactly that place, or exactly those shared places (the file's
  ``results`` spelling): ``(1, 1, 1, 1)``, ``(2, 2, 3, 3)``;
- ``PLAYER 2 to 3``: a first place from 2nd to 3rd, alone or shared with anyone below:
  ``(2, 3, 2, n)`` for a field of n (``swing``'s branches are spelled so).

The plan plays an event with what-ifs by rejection (``nb.replay_fixed_event_nb``), so the rest
of the event follows the model given them.
"""

from __future__ import annotations

import re

from ...enums import SIM_KO
from ...errors import ScenarioError
from ...report import ordinal
from ..shared.brackets import bracket_size
from ..shared.whatif import alias_index, find_events, find_player
from .rules import played
from .scenario import Event, Tour

_FIX = re.compile(r"^(?:(?P<event>[^:]+):\s*)?(?P<who>.+?)\s+"
                  r"(?:(?P<a>\d+)\s+to\s+(?P<b>\d+)|(?P<lo>\d+)(?:\s*-\s*(?P<hi>\d+))?)\s*$",
                  re.I)
# the side stream of an event replayed for its what-ifs (``nb.replay_fixed_event_nb`` and the
# twin) starts at mix64(state ^ SIDE_KEY), the replica's state just after the event's first play
SIDE_KEY = 0x5851F42D4C957F2D
# plays of an event with what-ifs at most: the plan refuses what-ifs never seen in
# ``plan.FIX_CHECK_SIMS`` (20,000) plays, and a probability of 1/20,000 fails 10^6 plays with
# probability e^-50
MAX_PLAYS = 1_000_000
SHAPE = ('a tour what-if is "[EVENT:] PLAYER PLACE" with PLACE a final place (1), shared places '
         '(2-3) or a range of first places (2 to 3)')


def spec_text(b: tuple, n: int) -> str:
    """The place a what-if's bounds ``b`` say, in words, for a field of ``n``."""
    lo_min, lo_max, hi_min, hi_max = b
    if lo_min == lo_max == hi_min == hi_max:
        return f"finishes {ordinal(lo_min)}"
    if lo_min == lo_max and hi_min == hi_max:
        return f"shares {ordinal(lo_min)}-{ordinal(hi_min)}"
    what = ordinal(lo_min) if lo_min == lo_max else f"{ordinal(lo_min)} to {ordinal(lo_max)}"
    return f"finishes {what} (alone or shared)"


def spec_fix(b: tuple) -> str:
    """The ``--fix`` place spelling of bounds ``b``."""
    lo_min, lo_max, hi_min, hi_max = b
    if lo_min == lo_max and hi_min == hi_max:
        return str(lo_min) if lo_min == hi_min else f"{lo_min}-{hi_min}"
    return f"{lo_min} to {lo_max}"


def knockout_ranges(ev: Event) -> list[tuple[int, int]]:
    """The (lo, hi) places a knock-out's players can finish with: the winner, then the losers
    of each round from the final back (round 1's real matches only: the top seeds' byes)."""
    n = len(ev.field)
    size = bracket_size(n)
    out, above, m = [(1, 1)], 1, 1
    while 2 * m < size:
        out.append((above + 1, above + m))
        above += m
        m *= 2
    if n > above:
        out.append((above + 1, n))
    return out


def parse(scn: Tour, text: str, at, key: str, earlier: dict) -> dict:
    """``Format.parse_fix`` for the tour: {(event, player): bounds}, or {} when the event was
    played at ``at`` with a place that keeps the what-if."""
    m = _FIX.match(text.strip())
    if not m:
        raise ScenarioError(SHAPE, file=scn.file, key=key, value=text)
    aliases = alias_index(scn.players)
    p = find_player([pl.name for pl in scn.players], aliases, m.group("who"))
    if p is None:
        raise ScenarioError("no player of the scenario in this what-if (a name or a part of "
                            "it)", file=scn.file, key=key, value=text)
    done = played(scn, at)
    k = _event(scn, m.group("event"), p, done, key, text)
    ev = scn.events[k]
    n = len(ev.field)
    b = _bounds(m, n)
    if not 1 <= b[0] <= b[1] <= n or b[2] > b[3] or b[0] > b[3]:
        raise ScenarioError(f"a place from 1 to {n} (the event's listed field), the first "
                            "place not below the last", file=scn.file, key=key, value=text)
    name = scn.players[p].name
    if done[k]:
        lo, hi = next((lo, hi) for q, lo, hi in ev.results if q == p)
        if not (b[0] <= lo <= b[1] and b[2] <= hi <= b[3]):
            got = ordinal(lo) if lo == hi else f"{ordinal(lo)}-{ordinal(hi)}"
            raise ScenarioError(f"already played: {name} finished {got} in {ev.name}",
                                file=scn.file, key=key, value=text)
        return {}
    _check_shape(scn, ev, b, key, text)
    _check_earlier(scn, k, p, b, earlier, key, text)
    return {(k, p): b}


def _event(scn: Tour, said: str | None, p: int, done: list[bool], key: str, text: str) -> int:
    """The event a what-if names (it must list the player), else the next one to play that
    lists him."""
    name = scn.players[p].name
    if said is not None:
        k = find_events([ev.name for ev in scn.events], said, key, scn.file)[0]
        if p not in scn.events[k].field:
            raise ScenarioError(f"{name} does not play {scn.events[k].name}", file=scn.file,
                                key=key, value=text)
        return k
    k = next((k for k, ev in enumerate(scn.events) if not done[k] and p in ev.field), None)
    if k is None:
        raise ScenarioError(f"{name} plays no event still to play at this checkpoint (name "
                            "the event if it was played)", file=scn.file, key=key, value=text)
    return k


def _bounds(m: re.Match, n: int) -> tuple:
    if m.group("a") is not None:
        a, b = int(m.group("a")), int(m.group("b"))
        return (a, b, a, n)
    lo = int(m.group("lo"))
    hi = int(m.group("hi")) if m.group("hi") is not None else lo
    return (lo, lo, hi, hi)


def _check_shape(scn: Tour, ev: Event, b: tuple, key: str, text: str) -> None:
    """Refuse exact places the event cannot produce: shared places under lots (round robins
    and opens), a knock-out place that is not a round's."""
    if b[0] != b[1] or b[2] != b[3]:
        return
    if ev.sim == SIM_KO:
        ranges = knockout_ranges(ev)
        if (b[0], b[2]) not in ranges:
            shown = ", ".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in ranges)
            raise ScenarioError(f"a knock-out of {len(ev.field)} places its players {shown}",
                                file=scn.file, key=key, value=text)
    elif scn.shared_places == "lots" and b[0] != b[2]:
        raise ScenarioError('level scores are ordered by lots (shared_places = "lots"): no '
                            "shared places", file=scn.file, key=key, value=text)


def _check_earlier(scn: Tour, k: int, p: int, b: tuple, earlier: dict, key: str,
                   text: str) -> None:
    """Refuse a what-if that contradicts an earlier one: the same player's place said
    otherwise, or exact places of the same event that cannot go together (overlapping
    without being the same, or more players than places)."""
    for (k2, q), c in earlier.items():
        if k2 != k:
            continue
        if q == p and c != b:
            raise ScenarioError("contradicts an earlier what-if: "
                                f"{describe(scn, {(k2, q): c})[0]}", file=scn.file, key=key,
                                value=text)
    if b[0] != b[1] or b[2] != b[3]:
        return
    same = 1
    for (k2, q), c in earlier.items():
        if k2 != k or q == p or c[0] != c[1] or c[2] != c[3]:
            continue
        if c == b:
            same += 1
        elif c[0] <= b[2] and b[0] <= c[2]:
            raise ScenarioError("contradicts an earlier what-if: "
                                f"{describe(scn, {(k2, q): c})[0]}", file=scn.file, key=key,
                                value=text)
    if same > b[2] - b[0] + 1:
        where = ordinal(b[0]) if b[0] == b[2] else f"{ordinal(b[0])}-{ordinal(b[2])}"
        raise ScenarioError(f"contradicts the earlier what-ifs: more players than places at "
                            f"{where}", file=scn.file, key=key, value=text)


def describe(scn: Tour, fixed: dict) -> list[str]:
    """``Format.describe_fix`` for the tour: "EVENT: Alder finishes 1st"."""
    out = []
    for (k, p), b in sorted(fixed.items()):
        ev = scn.events[k]
        out.append(f"{ev.name}: {scn.players[p].name} {spec_text(b, len(ev.field))}")
    return out
