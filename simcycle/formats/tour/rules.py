"""The rules of the ACP Tour 2004-05 as pure functions: event strength and level, ACP points by
place, best-N counting, the regulations' tiebreaks, checkpoints and the standings table.  Plain
Python; the kernel (``nb.py``) and its twin (``simcycle/reference/tour.py``) follow these.

Rules: the ACP Tour 2004-2005 regulations (Association of Chess Professionals, "Регламент
АШП-Тура 2004-2005", ACP, 2004, in Russian), cited below as "regulations".  Section numbers
below are the regulations' own ("§4.1" is item 1 of section 4, "Зачетная система АШП").  The
points tables (the regulations' Appendix 2) were not available to the project: a scenario
carries them as data and must say whether they are illustrative.  docs/format-tour.md lists
every key and every Reading.

Units: ACP points in hundredths (integers), so that ties are exact.
"""

from __future__ import annotations

import datetime as _dt
import math
from typing import TYPE_CHECKING

from ...enums import TOUR_COUNTER_NAMES

if TYPE_CHECKING:   # pragma: no cover
    from .scenario import Event, Tour

# -- rule constants (each from the ACP regulations) ----------------------------------------------
SEASON = (_dt.date(2004, 7, 1), _dt.date(2005, 6, 30))   # regulations §2 (first round inside)
LEVELS = ("E", "D", "C", "B", "A")                        # regulations §4.1, weakest first
LEVEL_LOW = {"E": 2576, "D": 2601, "C": 2626, "B": 2651, "A": 2676}  # regulations §4.1 table
GRAND_SLAM = "GS"                                          # regulations §4.1 item 6
SYSTEMS = ("RR", "open", "KO", "DS", "WS")                 # regulations §3.2
SCALES = ("rapid", "grand-slam", "classical")              # regulations §4.2, rising coefficients
CLASSICAL_MINUTES = 90                                     # regulations §3.1
RAPID_MINUTES = 15                                         # regulations §3.1
DECLINED_FACTOR = 0.5                                      # regulations §3.3 (levels A and B)
DECLINED_LEVELS = ("A", "B")                               # regulations §3.3 (C-E: nothing)
BEST_N = 5                                                 # regulations §5.4
QUALIFYING = 8                                             # regulations §5.4
OPEN_BIG_FIELD = 90                                        # regulations §4.1 (Open/WS formula)
UNIT = 100  # ACP points are held in hundredths (integers) so that ties are exact

COUNTER_NAMES = TOUR_COUNTER_NAMES


# -- strength, level, points -----------------------------------------------------------------------
def _mean(xs):
    return sum(xs) / len(xs)


def event_strength(system: str, ratings, n_players: int | None = None) -> float:
    """Strength R of an event from its starting list (regulations §4.1).

    ``ratings``: Elo ratings in starting-list order.  For opens and the Warsaw system the list
    may hold only the top of the field: ``n_players`` is then the whole field's size (it decides
    between the "more than 90 players" and the "ninths" rule).

    RR, DS: R = mean of all.  KO: R = (2 R1 + R2) / 3, R1 / R2 the means of the top / bottom half
    (Reading: with an odd field the middle player goes to the top half).  Open, WS:
    R = (3 R1 + 2 R2 + R3) / 6 + 50, R1..R3 the means of starting ranks 1-10, 11-20, 21-30 when
    more than 90 play, else of the first, second and third ninth of the list (Reading: a ninth
    is floor(n / 9) players, at least 1).
    """
    r = [float(x) for x in ratings]
    if system not in SYSTEMS:
        raise ValueError(f"unknown system {system!r}")
    if not r:
        raise ValueError("empty starting list")
    if system in ("RR", "DS"):
        return _mean(r)
    if system == "KO":
        return _knockout_strength(r)
    return _open_strength(r, len(r) if n_players is None else int(n_players))


def _knockout_strength(r: list[float]) -> float:
    if len(r) < 2:
        raise ValueError("a knock-out needs at least two players")
    h = (len(r) + 1) // 2
    return (2.0 * _mean(r[:h]) + _mean(r[h:])) / 3.0


def _open_strength(r: list[float], n: int) -> float:
    if n < len(r):
        raise ValueError("n_players is smaller than the starting list")
    k = 10 if n > OPEN_BIG_FIELD else max(1, n // 9)
    if len(r) < 3 * k:
        raise ValueError(f"the formula needs the first {3 * k} ratings of the starting list")
    r1, r2, r3 = _mean(r[:k]), _mean(r[k:2 * k]), _mean(r[2 * k:3 * k])
    return (3.0 * r1 + 2.0 * r2 + r3) / 6.0 + 50.0


def level_of(strength: float, announced: bool = False) -> str | None:
    """Level of an event of strength R (regulations §4.1), or None below level E.

    Reading "whole-R": R is rounded to the nearest whole point (halves up) before the table's
    whole-number bands are applied.  An event the ACP Council included before its start keeps
    at least level E (regulations §3.5)."""
    rr = math.floor(strength + 0.5)
    lev = None
    for name in LEVELS:
        if rr >= LEVEL_LOW[name]:
            lev = name
    if lev is None and announced:
        lev = "E"
    return lev


def _round_half_up(x: float) -> int:
    return math.floor(x + 0.5 + 1e-9)


def share_points(pp, lo: int, hi: int) -> int:
    """Points (hundredths) of a player sharing places lo..hi (1-based): the mean of the points
    of the places covered, rounded half up to a hundredth (Reading "split"; the regulations
    are silent on shared places).  The kernel computes the same (``nb.event_points_nb``)."""
    k = hi - lo + 1
    s = sum(pp[p - 1] if p - 1 < len(pp) else 0 for p in range(lo, hi + 1))
    return (2 * s + k) // (2 * k)


def event_place_points(scn: Tour, ev: Event, n_places: int | None = None) -> list[int]:
    """ACP points (hundredths) by final place 1..n of one event: the level's table times the
    coefficient of the event's kind (regulations §4.2), halved at levels A and B when the
    organisers declined and zero at C-E then (regulations §3.3).  Places beyond the table get 0."""
    n = n_places if n_places is not None else max(ev.n_players, len(ev.field))
    if ev.level is None:
        return [0] * n
    table = scn.tables[ev.level]
    f = scn.coefficients[ev.scale]
    if not ev.joined:
        f *= scn.declined_factor if ev.level in DECLINED_LEVELS else 0.0
    return [_round_half_up(UNIT * table[p] * f) if p < len(table) else 0 for p in range(n)]


# -- best N and the tiebreaks (regulations §5.4-5.5) ----------------------------------------------
def counted(results, best_n: int) -> list[int]:
    """A player's counted results: his best ``best_n`` results that earned points, best first
    (regulations §5.4).  Reading "scored": a result of 0 points is not a counted tournament."""
    return sorted((x for x in results if x > 0), reverse=True)[:best_n]


def tiebreak_key(top) -> tuple:
    """Sort key (smaller is better) of a counted list, best first, per regulations §5.4-5.5:
    total; (1) fewer counted tournaments; (2) the total without the worst counted result,
    then without the next worst, and so on.  Lots (3) settle what is still level."""
    total = sum(top)
    drops = tuple(-sum(top[: len(top) - k]) for k in range(1, len(top)))
    return (-total, len(top)) + drops


def rank_groups(keys: dict) -> list[list]:
    """Players grouped where every criterion before lots leaves them level, best first."""
    order = sorted(keys, key=lambda p: keys[p])
    groups: list[list] = []
    for p in order:
        if groups and keys[groups[-1][0]] == keys[p]:
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


# -- checkpoints and what is known at one ----------------------------------------------------------
def checkpoints(scn: Tour) -> list[str]:
    """``start``, then ``eventK`` while events 1..K (date order) all have results."""
    out = ["start"]
    for k, ev in enumerate(scn.events):
        if ev.results is None:
            break
        out.append(f"event{k + 1}")
    return out


def played(scn: Tour, at: str | None) -> list[bool]:
    """Which events (date order) count as played at checkpoint ``at``."""
    if at is None:
        return [ev.results is not None for ev in scn.events]
    last = 0 if at == "start" else int(at[len("event"):])
    return [k < last for k in range(len(scn.events))]


def played_points(scn: Tour, ev: Event) -> dict:
    """player -> ACP points (hundredths) of a finished event."""
    pp = event_place_points(scn, ev)
    return {p: share_points(pp, lo, hi) for p, lo, hi in ev.results}


def results_so_far(scn: Tour, done: list[bool]) -> dict[int, list]:
    """member -> ACP points (hundredths) of each played event, None where he did not play."""
    evs = [ev for k, ev in enumerate(scn.events) if done[k]]
    per: dict[int, list] = {m: [None] * len(evs) for m in scn.members}
    for c, ev in enumerate(evs):
        for p, x in played_points(scn, ev).items():
            if p in per:
                per[p][c] = x
    return per


# -- the standings table ---------------------------------------------------------------------------
def tables_label(scn: Tour) -> str:
    if scn.tables_illustrative:
        return ("illustrative (NOT the real ACP tables: Appendix 2 of the ACP Tour regulations "
                "is not available to the project)"
                + (f"; {scn.tables_source}" if scn.tables_source else ""))
    return "as given: " + scn.tables_source


def event_info(scn: Tour, ev: Event, k: int) -> dict:
    """What the reports show of event number k + 1 (date order)."""
    pp = event_place_points(scn, ev)
    paying = sum(1 for x in pp if x > 0)
    return {"number": k + 1, "name": ev.name, "start": ev.start.isoformat(), "system": ev.system,
            "kind": ev.scale, "minutes": ev.minutes, "control": ev.control,
            "strength": round(ev.strength, 2), "strength_from": ev.strength_from,
            "level": ev.level, "joined": ev.joined, "field": len(ev.field),
            "n_players": ev.n_players, "places_paying": paying,
            "place_points": [x / UNIT for x in pp[:paying]],
            "illustrative": ev.illustrative, "source": ev.source}


def _qualified(pos: int, size: int, nq: int) -> bool | None:
    """True when the whole group is inside the qualifying places, False when outside, None
    when it straddles the last one (lots)."""
    return True if pos + size <= nq else (False if pos >= nq else None)


def _row(scn: Tour, m: int, results: list, top: list, pos: int, group: list, nq: int) -> dict:
    return {"name": scn.players[m].name, "rank": pos + 1, "shared": len(group) > 1,
            "events": [None if x is None else x / UNIT for x in results],
            "total": sum(top) / UNIT, "counted": len(top),
            "played": sum(1 for x in results if x is not None),
            "without_worst": [sum(top[: len(top) - k]) / UNIT for k in range(1, len(top))],
            "qualified": _qualified(pos, len(group), nq)}


def _rows(scn: Tour, per: dict, tops: dict) -> tuple[list, bool]:
    """The table's rows, best first, and whether a group level on every criterion before lots
    straddles the last qualifying place."""
    groups = rank_groups({m: tiebreak_key(tops[m]) for m in scn.members})
    nq = scn.qualifying_places
    rows, pos, unresolved = [], 0, False
    for g in groups:
        unresolved |= pos < nq < pos + len(g)
        rows += [_row(scn, m, per[m], tops[m], pos, g, nq) for m in g]
        pos += len(g)
    return rows, unresolved


def standings(scn: Tour, at: str | None) -> dict:
    """The members' table from the events played up to ``at``: ACP points per event, best-N
    total, the regulations' tiebreaks, rank (shared where every criterion before lots is level)."""
    done = played(scn, at)
    per = results_so_far(scn, done)
    tops = {m: counted([x for x in per[m] if x is not None], scn.best_n) for m in scn.members}
    rows, unresolved = _rows(scn, per, tops)
    n_played = sum(done)
    d = {"scenario": scn.name, "file": scn.file, "at": at or "latest",
         "final": all(done) and n_played == len(scn.events),
         "events_played": n_played, "events_total": len(scn.events), "best_n": scn.best_n,
         "qualifying_places": scn.qualifying_places, "points_tables": tables_label(scn),
         "events": [event_info(scn, ev, k) for k, ev in enumerate(scn.events) if done[k]],
         "players": rows}
    if unresolved:
        d["note"] = ("players level on points, counted tournaments and every drop of the worst "
                     "result straddle the last qualifying place: lots decide "
                     "(ACP Tour regulations §5.5.3)")
    return d
