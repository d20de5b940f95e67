"""A tour scenario: the frozen records the rest of the format reads, and their loader.

The schema (``schema.py``) has checked every key, type and range; :func:`load` adds what a
schema cannot see, one small function per cross-check: dates inside the season, the points
tables' order, player names in the fields, the keys that only some systems take, the event's
strength and level (regulations §4.1), match steps, and the results against the field.
"""

from __future__ import annotations

import datetime as _dt
import itertools
from dataclasses import dataclass

from ...enums import SIM_KO, SIM_OPEN, SIM_RR, STEP_GAMES, STEP_KINDS, STEP_LOTS
from ...errors import ScenarioError
from ...schema import convert
from ..shared.scenario import FromSource, PlayerIndex, Source, head_of, index_players
from .rules import (CLASSICAL_MINUTES, GRAND_SLAM, LEVELS, RAPID_MINUTES, SCALES, event_strength,
                    level_of)
from .schema import EventTable, MatchStep, PointsTables, TourFile

DEFAULT_KIND = "round-robin"   # the tour's events are mostly invitational round robins

# how an event of each system is simulated (Readings open_placement, dortmund_system)
SIM_OF = {"RR": SIM_RR, "DS": SIM_RR, "KO": SIM_KO, "open": SIM_OPEN, "WS": SIM_OPEN}


@dataclass(frozen=True)
class Player:
    name: str
    ratings: dict
    member: bool
    aliases: tuple


@dataclass(frozen=True)
class Event:
    name: str
    key: str                 # events[i] in the file
    start: _dt.date
    system: str
    cycles: int
    rounds: int
    minutes: float
    control: str
    scale: str               # rapid / grand-slam / classical
    joined: bool
    announced: bool
    field: tuple             # player indices, starting-list order
    n_players: int           # whole field (opens may list only some players)
    strength: float
    strength_from: str
    level: str | None        # E..A, GS, or None (not a tour event)
    opponent_rating: float   # opens / WS: the rating of the simulated opponents
    steps: tuple             # KO: ((kind, control, games), ...)
    results: tuple | None    # ((player, lo, hi), ...) in field order, or None (to be played)
    illustrative: bool
    source: str

    @property
    def sim(self) -> int:
        """How the kernel plays it: ``enums.SIM_RR``, ``SIM_KO`` or ``SIM_OPEN``."""
        return SIM_OF[self.system]


@dataclass(frozen=True)
class Tour(FromSource):
    source: Source
    players: tuple
    events: tuple            # in date order
    best_n: int
    qualifying_places: int
    shared_places: str
    grand_slam_level: str
    tables: dict             # level -> tuple of points by place (1st first)
    coefficients: dict       # scale -> factor
    declined_factor: float
    tables_illustrative: bool
    tables_source: str

    @property
    def name(self) -> str:
        """The scenario's name; illustrative points tables say so in every output."""
        return self.source.name + (" (points tables: illustrative)"
                                   if self.tables_illustrative else "")

    @property
    def members(self) -> list[int]:
        return [i for i, p in enumerate(self.players) if p.member]


def default_control(minutes: float) -> str:
    """The outcome model's control for an event's games when the file names none."""
    if minutes >= CLASSICAL_MINUTES:
        return "classical"
    return "rapid-25+10" if minutes >= 25 else "rapid-15+10"


def _fail(message: str, f: str, key: str, *value) -> ScenarioError:
    return ScenarioError(message, file=f, key=key, value=value[0] if value else None,
                         has_value=bool(value))


# -- the tables ----------------------------------------------------------------------------------
def load(raw: dict, file: str) -> Tour:
    f = file
    doc = convert(raw, TourFile, f)
    t = doc.tour
    season = _season(t.season, f)
    illustrative = _illustrative(doc.points, f)
    tables = _tables(doc.points, t.grand_slam_level, f)
    idx = index_players(doc.players, f)
    players = tuple(Player(p.name, p.ratings(), p.member, tuple(p.aliases)) for p in doc.players)
    if not any(p.member for p in players):
        raise _fail("no ACP member among the players (ACP Tour regulations §5.1: only members "
                    "count)",
                    f, "players")
    _distinct_names(doc.events, f)
    events = [_event(e, f"events[{i}]", f, idx, players, season, t.grand_slam_level)
              for i, e in enumerate(doc.events)]
    events.sort(key=lambda ev: ev.start)  # stable: same day keeps file order
    return Tour(source=head_of(doc.scenario, f, DEFAULT_KIND), players=players,
                events=tuple(events),
                best_n=t.best_n, qualifying_places=t.qualifying_places,
                shared_places=t.shared_places, grand_slam_level=t.grand_slam_level,
                tables=tables, coefficients=_coefficients(doc.points, f),
                declined_factor=float(t.declined_factor), tables_illustrative=illustrative,
                tables_source=doc.points.source)


def _season(season, f: str) -> tuple:
    s0, s1 = season
    if s1 < s0:
        raise _fail("the season ends before it starts", f, "tour.season",
                    [s0.isoformat(), s1.isoformat()])
    return s0, s1


def _illustrative(pt: PointsTables, f: str) -> bool:
    if pt.illustrative is None:
        raise _fail("say whether the points tables are illustrative (true) or real (false): the "
                    "real ACP tables (Appendix 2 of the regulations) are not available to the "
                    "project",
                    f, "points.illustrative")
    if not pt.illustrative and not pt.source.strip():
        raise _fail("real points tables need a source", f, "points.source")
    return pt.illustrative


def _tables(pt: PointsTables, gsl: str, f: str) -> dict:
    """level -> points by place; a place may not earn more than the place above it."""
    tables = {}
    for lev in (*LEVELS, GRAND_SLAM):
        v = getattr(pt, lev)
        if v is None:
            if gsl == "by-strength":
                continue
            raise _fail("missing points table (ACP points by final place, 1st first; needed with "
                        'grand_slam_level = "own-level")', f, f"points.{lev}")
        for j in range(1, len(v)):
            if v[j] > v[j - 1]:
                raise _fail("a place may not earn more than the place above it", f,
                            f"points.{lev}[{j}]", v[j])
        tables[lev] = tuple(float(x) for x in v)
    return tables


def _coefficients(pt: PointsTables, f: str) -> dict:
    co = pt.coefficients.by_scale()
    # regulations §4.2: by rising coefficient, rapid, Rapid Grand Slam, classical
    if not co["rapid"] < co["grand-slam"] < co["classical"]:
        raise _fail("ACP Tour regulations §4.2: coefficients must rise: rapid < grand-slam < "
                    "classical",
                    f, "points.coefficients", co)
    assert tuple(co) == SCALES
    return co


def _distinct_names(events, f: str) -> None:
    seen: set[str] = set()
    for i, e in enumerate(events):
        k = e.name.strip().casefold()
        if k in seen:
            raise _fail("event names must be different", f, f"events[{i}].name", e.name)
        seen.add(k)


# -- one event -----------------------------------------------------------------------------------
def _event(e: EventTable, where: str, f: str, idx: PlayerIndex, players: tuple, season: tuple,
           gsl: str) -> Event:
    if not season[0] <= e.start <= season[1]:
        raise _fail("ACP Tour regulations §2: an event counts only if its first round falls in "
                    f"the season {season[0]} .. {season[1]}", f, f"{where}.start",
                    e.start.isoformat())
    sim = SIM_OF[e.system]
    scale, control = _scale(e, where, f)
    fld = _field(e, where, idx, f)
    n_players = _n_players(e, where, sim, fld, f)
    cycles, rounds = _cycles_rounds(e, where, sim, f)
    strength, strength_from = _strength(e, where, sim, fld, n_players, players, f)
    level = GRAND_SLAM if e.grand_slam and gsl == "own-level" else level_of(strength, e.announced)
    steps = _steps(e, where, sim, control, f)
    results = (None if e.results is None else
               _results(e.results, f"{where}.results", fld, idx, n_players, sim != SIM_OPEN, f))
    return Event(e.name, where, e.start, e.system, cycles, rounds, float(e.minutes), control,
                 scale, e.joined, e.announced, fld, n_players, float(strength), strength_from,
                 level, _opponent(e, where, sim, fld, players, f), steps, results,
                 e.illustrative, e.source)


def _scale(e: EventTable, where: str, f: str) -> tuple[str, str]:
    """(kind of event for the coefficients, the model's control of its games): regulations §3.1,
    §4.1-4.2."""
    if e.minutes < RAPID_MINUTES:
        raise _fail("ACP Tour regulations §3.1: blitz events are not part of the tour (a player "
                    f"needs at least {RAPID_MINUTES} minutes a game)", f, f"{where}.minutes",
                    e.minutes)
    if e.minutes >= CLASSICAL_MINUTES:
        if e.grand_slam:
            raise _fail("the ACP Rapid Grand Slam is rapid (ACP Tour regulations §4.1-4.2): "
                        f"minutes must be below {CLASSICAL_MINUTES}", f, f"{where}.grand_slam",
                        e.grand_slam)
        scale = "classical"
    else:
        scale = "grand-slam" if e.grand_slam else "rapid"
    if e.grand_slam and not e.joined:
        raise _fail("an ACP Rapid Grand Slam event is the ACP's own (ACP Tour regulations "
                    "§4.1 item 6): joined = false makes no sense", f, f"{where}.joined", e.joined)
    control = e.control if e.control is not None else default_control(e.minutes)
    if control.startswith(("blitz", "armageddon")):
        raise _fail("a tour event's games are classical or rapid (ACP Tour regulations §3.1)", f,
                    f"{where}.control", control)
    return scale, control


def _field(e: EventTable, where: str, idx: PlayerIndex, f: str) -> tuple:
    fld: list[int] = []
    for j, name in enumerate(e.field):
        p = idx.find(name, f"{where}.field[{j}]")
        if p in fld:
            raise _fail("player listed twice in the field", f, f"{where}.field[{j}]", name)
        fld.append(p)
    if SIM_OF[e.system] != SIM_OPEN and len(fld) < 2:
        raise _fail("a round robin or knock-out needs at least two players", f, f"{where}.field")
    return tuple(fld)


def _n_players(e: EventTable, where: str, sim: int, fld: tuple, f: str) -> int:
    n = len(fld) if e.n_players is None else e.n_players
    if n < len(fld):
        raise _fail("smaller than the listed field", f, f"{where}.n_players", n)
    if sim != SIM_OPEN and n != len(fld):
        raise _fail(f"a {e.system} event lists its whole field (only opens and the Warsaw system "
                    "may list part of it)", f, f"{where}.n_players", n)
    return n


def _cycles_rounds(e: EventTable, where: str, sim: int, f: str) -> tuple[int, int]:
    if e.cycles is not None and sim != SIM_RR:
        raise _fail("cycles is for round robins (RR, DS)", f, f"{where}.cycles")
    if sim == SIM_OPEN and e.rounds is None:
        raise _fail("missing key (rounds of the open)", f, f"{where}.rounds")
    if sim != SIM_OPEN and e.rounds is not None:
        raise _fail("rounds is for opens and the Warsaw system", f, f"{where}.rounds")
    return (1 if e.cycles is None else e.cycles), (e.rounds if sim == SIM_OPEN else 0)


def _strength(e: EventTable, where: str, sim: int, fld: tuple, n_players: int, players: tuple,
              f: str) -> tuple[float, str]:
    """R (regulations §4.1): given, from the starting list, or from the listed field."""
    _strength_keys(e, where, sim, fld, n_players, f)
    if e.strength is not None:
        return float(e.strength), "given"
    sr = e.starting_ratings
    ratings = sr if sr is not None else [players[p].ratings["classical"] for p in fld]
    source = "starting_ratings" if sr is not None else "field"
    try:
        return event_strength(e.system, ratings, n_players), source
    except ValueError as err:
        raise _fail(f"cannot compute R (ACP Tour regulations §4.1): {err}; give strength directly",
                    f, f"{where}.{source}") from None


def _strength_keys(e: EventTable, where: str, sim: int, fld: tuple, n_players: int,
                   f: str) -> None:
    sr = e.starting_ratings
    if sr is not None and sim != SIM_OPEN:
        raise _fail("starting_ratings is for opens and the Warsaw system (others list their "
                    "whole field)", f, f"{where}.starting_ratings")
    if sr is not None and e.strength is not None:
        raise _fail("give strength or starting_ratings, not both", f, f"{where}.strength")
    if e.strength is None and sr is None and n_players > len(fld):
        raise _fail("the field lists only part of the event: give strength or starting_ratings "
                    "(ACP Tour regulations §4.1 takes R from the whole starting list)", f,
                    f"{where}.strength")


def _opponent(e: EventTable, where: str, sim: int, fld: tuple, players: tuple, f: str) -> float:
    """Opens / WS: the rating of the simulated opponents (Reading listed-only); by default the
    mean rating of the listed players."""
    if e.opponent_rating is not None:
        if sim != SIM_OPEN:
            raise _fail("opponent_rating is for opens and the Warsaw system", f,
                        f"{where}.opponent_rating")
        return float(e.opponent_rating)
    r = [players[p].ratings["classical"] for p in fld]
    return float(sum(r) / len(r))


def _steps(e: EventTable, where: str, sim: int, control: str, f: str) -> tuple:
    """KO: the match as steps (kind code, control, games); by default two games at the event's
    control, then lots."""
    if sim != SIM_KO:
        if e.match is not None:
            raise _fail("match is for knock-out events", f, f"{where}.match")
        return ()
    if e.match is None:
        return ((STEP_GAMES, control, 2), (STEP_LOTS, control, 0))
    return tuple(_step(st, f"{where}.match[{s}]", s == 0, control, f)
                 for s, st in enumerate(e.match))


def _step(st: MatchStep, key: str, first: bool, control: str, f: str) -> tuple:
    if first and st.kind != "games":
        raise _fail('the first step of a match is its games (kind = "games")', f,
                    f"{key}.kind", st.kind)
    if st.kind == "games" and st.games is None:
        raise _fail("missing key", f, f"{key}.games")
    if st.kind == "games" and st.games < 1:
        raise _fail("a games step plays at least one game", f, f"{key}.games", st.games)
    return (STEP_KINDS[st.kind], st.control or control, st.games or 0)


# -- results ---------------------------------------------------------------------------------------
PLACE_TEXT = 'a place is a whole number or a shared range like "2-3"'


def _place(v, key: str, n: int, f: str) -> tuple[int, int]:
    """(first, last) place of one result: 3 or "2-3", within 1..n."""
    if isinstance(v, int):
        lo = hi = v
    else:
        try:
            nums = [int(x) for x in v.strip().split("-")]
        except ValueError:
            raise _fail(PLACE_TEXT, f, key, v) from None
        if len(nums) > 2:
            raise _fail(PLACE_TEXT, f, key, v)
        lo, hi = nums[0], nums[-1]
    if not 1 <= lo <= hi <= n:
        raise _fail(f"place must lie within 1..{n} (the field), first <= last", f, key, v)
    return lo, hi


def _results(v, key: str, fld: tuple, idx: PlayerIndex, n_players: int, whole_field: bool,
             f: str) -> tuple:
    """((player, first place, last place), ...) in field order."""
    got: dict[int, tuple] = {}
    for j, (name, place) in enumerate(v):
        k2 = f"{key}[{j}]"
        p = idx.find(name, f"{k2} (player)")
        if p not in fld:
            raise _fail("not in this event's field", f, f"{k2} (player)", name)
        if p in got:
            raise _fail("result given twice", f, f"{k2} (player)", name)
        got[p] = _place(place, f"{k2} (place)", n_players, f)
    missing = [p for p in fld if p not in got]
    if missing:
        raise _fail("every listed player needs a place", f, key, idx.names[missing[0]])
    _places_fit(got, key, whole_field, f)
    return tuple((p, *got[p]) for p in fld)


def _places_fit(got: dict, key: str, whole_field: bool, f: str) -> None:
    """k players sharing places lo..hi cover exactly those places (whole fields) or at most
    them (opens, where unlisted players take the rest); ranges do not overlap, and a whole
    field's places tile 1..n."""
    groups: dict[tuple, list] = {}
    for p, rng in got.items():
        groups.setdefault(rng, []).append(p)
    for (lo, hi), ps in groups.items():
        if len(ps) > hi - lo + 1 or (whole_field and len(ps) != hi - lo + 1):
            raise _fail(f"{len(ps)} player(s) share places {lo}-{hi}", f, key, f"{lo}-{hi}")
    (_tile if whole_field else _no_overlap)(sorted(groups), key, f)


def _tile(spans: list, key: str, f: str) -> None:
    nxt = 1
    for lo, hi in spans:
        if lo != nxt:
            raise _fail(f"places do not fit together: place {nxt} is missing or overlaps", f, key)
        nxt = hi + 1


def _no_overlap(spans: list, key: str, f: str) -> None:
    for a, b in itertools.pairwise(spans):
        if b[0] <= a[1]:
            raise _fail(f"place ranges {a[0]}-{a[1]} and {b[0]}-{b[1]} overlap", f, key)
