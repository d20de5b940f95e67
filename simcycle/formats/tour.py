"""A season tour with best-N counting (the ACP Tour 2004-05): scenario loading, event strength
and level, ACP points, standings with the seed's tiebreaks, odds of the events still to play,
and the compiled Plan that ``kernels.tour_nb`` simulates.  Plain Python.

Rules: seed ``shared/seeds/004_e7d5defe5f117bc3.txt`` ("seed 004", the ACP Tour 2004-2005
regulations, in Russian), digested in shared/FORMATS.md §4.  Section numbers below are the
seed's ("§4.1" is item 1 of section 4, "Зачетная система АШП").  The points tables (the
regulations' Appendix 2) are NOT in the seed: a scenario carries them as data and must say
whether they are illustrative.  docs/format-tour.md lists every key and every Reading.
"""

from __future__ import annotations

import datetime as _dt
import math
from dataclasses import dataclass
from pathlib import Path

from ..enums import STEP_GAMES, STEP_KINDS
from ..kinds import KINDS
from .common import Checker, PlayerIndex, read_player
from .shared.brackets import seeding_order as bracket_order

# -- rule constants (each from seed 004) ----------------------------------------------------------
SEASON = (_dt.date(2004, 7, 1), _dt.date(2005, 6, 30))   # seed 004 §2 (first round inside)
LEVELS = ("E", "D", "C", "B", "A")                        # seed 004 §4.1, weakest first
LEVEL_LOW = {"E": 2576, "D": 2601, "C": 2626, "B": 2651, "A": 2676}  # seed 004 §4.1 table
GRAND_SLAM = "GS"                                          # seed 004 §4.1 item 6
SYSTEMS = ("RR", "open", "KO", "DS", "WS")                 # seed 004 §3.2
SCALES = ("rapid", "grand-slam", "classical")              # seed 004 §4.2, rising coefficients
CLASSICAL_MINUTES = 90                                     # seed 004 §3.1
RAPID_MINUTES = 15                                         # seed 004 §3.1
DECLINED_FACTOR = 0.5                                      # seed 004 §3.3 (levels A and B)
BEST_N = 5                                                 # seed 004 §5.4
QUALIFYING = 8                                             # seed 004 §5.4
OPEN_BIG_FIELD = 90                                        # seed 004 §4.1 (Open/WS formula)
UNIT = 100  # ACP points are held in hundredths (integers) so that ties are exact

# kernel codes for how an event is simulated
SIM_RR, SIM_KO, SIM_OPEN = 0, 1, 2
SIM_OF = {"RR": SIM_RR, "DS": SIM_RR, "KO": SIM_KO, "open": SIM_OPEN, "WS": SIM_OPEN}
# columns of the Plan's event table (see kernels/tour_nb.py)
(EV_SYS, EV_CYCLES, EV_CI, EV_ROUNDS, EV_OPP, EV_FS, EV_FL, EV_PS, EV_SS, EV_SL, EV_BS,
 EV_BL, EV_TS) = range(13)
N_EV_COLS = 13

COUNTER_NAMES = ["a tiebreak (fewer counted, then dropping the worst) decided a qualifying place",
                 "lots decided a qualifying place"]


# -- pure functions: strength, level, points --------------------------------------------------------
def _mean(xs):
    return sum(xs) / len(xs)


def event_strength(system: str, ratings, n_players: int | None = None) -> float:
    """Strength R of an event from its starting list (seed 004 §4.1).

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
        if len(r) < 2:
            raise ValueError("a knock-out needs at least two players")
        h = (len(r) + 1) // 2
        return (2.0 * _mean(r[:h]) + _mean(r[h:])) / 3.0
    n = len(r) if n_players is None else int(n_players)
    if n < len(r):
        raise ValueError("n_players is smaller than the starting list")
    k = 10 if n > OPEN_BIG_FIELD else max(1, n // 9)
    if len(r) < 3 * k:
        raise ValueError(f"the formula needs the first {3 * k} ratings of the starting list")
    r1, r2, r3 = _mean(r[:k]), _mean(r[k:2 * k]), _mean(r[2 * k:3 * k])
    return (3.0 * r1 + 2.0 * r2 + r3) / 6.0 + 50.0


def level_of(strength: float, announced: bool = False) -> str | None:
    """Level of an event of strength R (seed 004 §4.1), or None below level E.

    Reading "whole-R": R is rounded to the nearest whole point (halves up) before the table's
    whole-number bands are applied.  An event the ACP Council included before its start keeps
    at least level E (seed 004 §3.5)."""
    rr = math.floor(strength + 0.5)
    lev = None
    for name in LEVELS:
        if rr >= LEVEL_LOW[name]:
            lev = name
    if lev is None and announced:
        lev = "E"
    return lev


def _round_half_up(x: float) -> int:
    return int(math.floor(x + 0.5 + 1e-9))


def share_points(pp, lo: int, hi: int) -> int:
    """Points (hundredths) of a player sharing places lo..hi (1-based): the mean of the points
    of the places covered, rounded half up to a hundredth (Reading "split"; the seed is silent
    on shared places)."""
    k = hi - lo + 1
    s = sum(pp[p - 1] if p - 1 < len(pp) else 0 for p in range(lo, hi + 1))
    return (2 * s + k) // (2 * k)


# -- scenario objects ------------------------------------------------------------------------------
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


@dataclass(frozen=True)
class Tour:
    name: str
    file: str
    source: str
    notes: str
    model_file: str | None
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
    kind: str = "round-robin"   # event kind (simcycle.kinds): the model's draw term

    @property
    def members(self):
        return [i for i, p in enumerate(self.players) if p.member]


def event_place_points(scn: Tour, ev: Event, n_places: int | None = None) -> list[int]:
    """ACP points (hundredths) by final place 1..n of one event: the level's table times the
    coefficient of the event's kind (seed 004 §4.2), halved at levels A and B when the
    organisers declined and zero at C-E then (seed 004 §3.3).  Places beyond the table get 0."""
    n = n_places if n_places is not None else max(ev.n_players, len(ev.field))
    if ev.level is None:
        return [0] * n
    table = scn.tables[ev.level]
    f = scn.coefficients[ev.scale]
    if not ev.joined:
        f *= scn.declined_factor if ev.level in ("A", "B") else 0.0
    return [_round_half_up(UNIT * table[p] * f) if p < len(table) else 0 for p in range(n)]


# -- loading -----------------------------------------------------------------------------------------
def _date(v, ck: Checker, key: str) -> _dt.date:
    if isinstance(v, _dt.datetime):
        return v.date()
    if isinstance(v, _dt.date):
        return v
    if isinstance(v, str):
        try:
            return _dt.date.fromisoformat(v.strip())
        except ValueError:
            pass
    ck.fail("must be a date YYYY-MM-DD", key, v)


def _place(v, ck: Checker, key: str, n: int):
    if isinstance(v, int) and not isinstance(v, bool):
        lo = hi = v
    elif isinstance(v, str):
        parts = v.strip().split("-")
        try:
            nums = [int(x) for x in parts]
        except ValueError:
            ck.fail('a place is a whole number or a shared range like "2-3"', key, v)
        if len(nums) == 1:
            lo = hi = nums[0]
        elif len(nums) == 2:
            lo, hi = nums
        else:
            ck.fail('a place is a whole number or a shared range like "2-3"', key, v)
    else:
        ck.fail('a place is a whole number or a shared range like "2-3"', key, v)
    if not 1 <= lo <= hi <= n:
        ck.fail(f"place must lie within 1..{n} (the field), first <= last", key, v)
    return lo, hi


def _default_control(minutes: float) -> str:
    if minutes >= CLASSICAL_MINUTES:
        return "classical"
    return "rapid-25+10" if minutes >= 25 else "rapid-15+10"


def load(path: Path, raw: dict) -> Tour:
    f = str(path)
    ck = Checker(f)
    ck.unknown_keys(raw, {"scenario", "tour", "points", "players", "events"}, "")
    head = ck.table(raw, "scenario")
    ck.unknown_keys(head, {"name", "format", "source", "model", "notes", "kind"}, "scenario")
    name = ck.get(head, "name", "scenario", str)
    event_kind = ck.get(head, "kind", "scenario", str, default="round-robin", choices=tuple(KINDS))
    if not name.strip():
        ck.fail("empty name", "scenario.name")
    notes = ck.get(head, "notes", "scenario", str, default="")
    source = ck.get(head, "source", "scenario", str, default="")
    model_file = ck.get(head, "model", "scenario", str, default=None)
    if model_file is not None and not Path(model_file).is_absolute():
        cand = (path.parent / model_file).resolve()
        model_file = str(cand) if cand.exists() or not Path(model_file).exists() else model_file

    # [tour]
    t = ck.table(raw, "tour")
    ck.unknown_keys(t, {"season", "best_n", "qualifying_places", "shared_places", "grand_slam_level",
                        "open_placement", "dortmund_system", "declined_factor"}, "tour")
    season = ck.get(t, "season", "tour", list, default=[SEASON[0].isoformat(), SEASON[1].isoformat()])
    if len(season) != 2:
        ck.fail("season is [first day, last day]", "tour.season", season)
    s0, s1 = (_date(season[0], ck, "tour.season[0]"), _date(season[1], ck, "tour.season[1]"))
    if s1 < s0:
        ck.fail("the season ends before it starts", "tour.season", season)
    best_n = ck.get(t, "best_n", "tour", int, default=BEST_N, lo=1, hi=20)
    shared = ck.get(t, "shared_places", "tour", str, default="split", choices=("split", "lots"))
    gsl = ck.get(t, "grand_slam_level", "tour", str, default="own-level",
                 choices=("own-level", "by-strength"))
    ck.get(t, "open_placement", "tour", str, default="listed-only", choices=("listed-only",))
    ck.get(t, "dortmund_system", "tour", str, default="round-robin", choices=("round-robin",))
    declined = ck.get(t, "declined_factor", "tour", float, default=DECLINED_FACTOR, lo=0.0, hi=1.0)

    # [points]
    pt = ck.table(raw, "points")
    ck.unknown_keys(pt, {"illustrative", "source", "coefficients", *LEVELS, GRAND_SLAM}, "points")
    if "illustrative" not in pt:
        ck.fail("say whether the points tables are illustrative (true) or real (false): the "
                "real ACP tables (Appendix 2 of the regulations) are not in seed 004",
                "points.illustrative")
    illustrative = ck.get(pt, "illustrative", "points", bool)
    tsource = ck.get(pt, "source", "points", str, default="")
    if not illustrative and not tsource.strip():
        ck.fail("real points tables need a source", "points.source")
    tables = {}
    for lev in (*LEVELS, GRAND_SLAM):
        key = f"points.{lev}"
        if lev not in pt:
            if lev == GRAND_SLAM and gsl == "by-strength":
                continue
            ck.fail("missing points table (ACP points by final place, 1st first)", key)
        v = pt[lev]
        if not isinstance(v, list) or not v:
            ck.fail("must be a non-empty list of points by place", key, v)
        for j, x in enumerate(v):
            if isinstance(x, bool) or not isinstance(x, (int, float)) or not 0 <= x <= 1e6:
                ck.fail("points must be numbers >= 0", f"{key}[{j}]", x)
            if j and x > v[j - 1]:
                ck.fail("a place may not earn more than the place above it", f"{key}[{j}]", x)
        tables[lev] = tuple(float(x) for x in v)
    co = ck.table(pt, "points.coefficients")
    ck.unknown_keys(co, set(SCALES), "points.coefficients")
    coefficients = {s: ck.get(co, s, "points.coefficients", float, lo=0.0, hi=10.0) for s in SCALES}
    # seed 004 §4.2: by rising coefficient, rapid, Rapid Grand Slam, classical
    if not coefficients["rapid"] < coefficients["grand-slam"] < coefficients["classical"]:
        ck.fail("seed 004 §4.2: coefficients must rise: rapid < grand-slam < classical",
                "points.coefficients", coefficients)

    # [[players]]
    plist = raw.get("players")
    if not isinstance(plist, list) or not plist:
        ck.fail("need a [[players]] list", "players")
    idx = PlayerIndex(ck)
    players = []
    for i, p in enumerate(plist):
        where = f"players[{i}]"
        pname, ratings, aliases, _ = read_player(ck, idx, p, where, {"member"})
        member = ck.get(p, "member", where, bool, default=True)
        players.append(Player(pname, ratings, member, aliases))
    if not any(p.member for p in players):
        ck.fail("no ACP member among the players (seed 004 §5.1: only members count)", "players")

    # [[events]]
    elist = raw.get("events")
    if not isinstance(elist, list) or not elist:
        ck.fail("need an [[events]] list", "events")
    events = []
    names_seen = set()
    for i, e in enumerate(elist):
        where = f"events[{i}]"
        if not isinstance(e, dict):
            ck.fail("must be a table", where)
        ck.unknown_keys(e, {"name", "start", "system", "cycles", "rounds", "minutes", "control",
                            "grand_slam", "joined", "announced", "field", "n_players", "strength",
                            "starting_ratings", "opponent_rating", "match", "results",
                            "illustrative", "source"}, where)
        ename = ck.get(e, "name", where, str)
        if not ename.strip() or ename.casefold() in names_seen:
            ck.fail("event names must be non-empty and different", f"{where}.name", ename)
        names_seen.add(ename.casefold())
        start = _date(e.get("start"), ck, f"{where}.start") if "start" in e else ck.fail(
            "missing key (the date of the first round)", f"{where}.start")
        if not s0 <= start <= s1:
            ck.fail(f"seed 004 §2: an event counts only if its first round falls in the season "
                    f"{s0} .. {s1}", f"{where}.start", start.isoformat())
        system = ck.get(e, "system", where, str, choices=SYSTEMS)
        minutes = ck.get(e, "minutes", where, float, lo=0, hi=1000)
        if minutes < RAPID_MINUTES:
            ck.fail(f"seed 004 §3.1: blitz events are not part of the tour (a player needs at "
                    f"least {RAPID_MINUTES} minutes a game)", f"{where}.minutes", minutes)
        grand_slam = ck.get(e, "grand_slam", where, bool, default=False)
        if minutes >= CLASSICAL_MINUTES:
            if grand_slam:
                ck.fail("the ACP Rapid Grand Slam is rapid (seed 004 §4.1-4.2): minutes must be "
                        f"below {CLASSICAL_MINUTES}", f"{where}.grand_slam", grand_slam)
            scale = "classical"
        else:
            scale = "grand-slam" if grand_slam else "rapid"
        control = ck.get(e, "control", where, str, default=_default_control(minutes))
        if control.startswith("blitz") or control.startswith("armageddon"):
            ck.fail("a tour event's games are classical or rapid (seed 004 §3.1)",
                    f"{where}.control", control)
        joined = ck.get(e, "joined", where, bool, default=True)
        if grand_slam and not joined:
            ck.fail("an ACP Rapid Grand Slam event is the ACP's own (seed 004 §4.1 item 6): "
                    "joined = false makes no sense", f"{where}.joined", joined)
        announced = ck.get(e, "announced", where, bool, default=True)
        flist = ck.get(e, "field", where, list)
        if not flist:
            ck.fail("empty field", f"{where}.field")
        fld = []
        for j, nm in enumerate(flist):
            p = idx.find(nm, f"{where}.field[{j}]")
            if p in fld:
                ck.fail("player listed twice in the field", f"{where}.field[{j}]", nm)
            fld.append(p)
        sim = SIM_OF[system]
        if sim != SIM_OPEN and len(fld) < 2:
            ck.fail("a round robin or knock-out needs at least two players", f"{where}.field")
        n_players = ck.get(e, "n_players", where, int, default=len(fld), lo=1, hi=100000)
        if n_players < len(fld):
            ck.fail("smaller than the listed field", f"{where}.n_players", n_players)
        if sim != SIM_OPEN and n_players != len(fld):
            ck.fail(f"a {system} event lists its whole field (only opens and the Warsaw system may "
                    "list part of it)", f"{where}.n_players", n_players)
        cycles = ck.get(e, "cycles", where, int, default=1, lo=1, hi=2)
        if "cycles" in e and sim != SIM_RR:
            ck.fail("cycles is for round robins (RR, DS)", f"{where}.cycles")
        rounds = ck.get(e, "rounds", where, int, default=0, lo=1, hi=50) if sim == SIM_OPEN else 0
        if sim == SIM_OPEN and "rounds" not in e:
            ck.fail("missing key (rounds of the open)", f"{where}.rounds")
        if sim != SIM_OPEN and "rounds" in e:
            ck.fail("rounds is for opens and the Warsaw system", f"{where}.rounds")
        # strength R (seed 004 §4.1)
        strength = ck.get(e, "strength", where, float, default=None, lo=1000, hi=3500)
        sr = e.get("starting_ratings")
        if sr is not None:
            if sim != SIM_OPEN:
                ck.fail("starting_ratings is for opens and the Warsaw system (others list their "
                        "whole field)", f"{where}.starting_ratings")
            if (not isinstance(sr, list) or not sr or any(
                    isinstance(x, bool) or not isinstance(x, (int, float)) for x in sr)):
                ck.fail("must be a list of ratings in starting-list order",
                        f"{where}.starting_ratings", sr)
            if strength is not None:
                ck.fail("give strength or starting_ratings, not both", f"{where}.strength")
        if strength is None and sr is None and n_players > len(fld):
            ck.fail("the field lists only part of the event: give strength or starting_ratings "
                    "(seed 004 §4.1 takes R from the whole starting list)", f"{where}.strength")
        if strength is not None:
            strength_from = "given"
        else:
            ratings = sr if sr is not None else [players[p].ratings["classical"] for p in fld]
            try:
                strength = event_strength(system, ratings, n_players)
            except ValueError as err:
                ck.fail(f"cannot compute R (seed 004 §4.1): {err}; give strength directly",
                        f"{where}.{'starting_ratings' if sr is not None else 'field'}")
            strength_from = "starting_ratings" if sr is not None else "field"
        if grand_slam and gsl == "own-level":
            level = GRAND_SLAM
        else:
            level = level_of(strength, announced)
        opp = ck.get(e, "opponent_rating", where, float, default=None, lo=1000, hi=3500)
        if opp is not None and sim != SIM_OPEN:
            ck.fail("opponent_rating is for opens and the Warsaw system", f"{where}.opponent_rating")
        if opp is None:
            opp = _mean([players[p].ratings["classical"] for p in fld])
        steps = ()
        if sim == SIM_KO:
            steps = _steps(e.get("match"), ck, f"{where}.match", control)
        elif "match" in e:
            ck.fail("match is for knock-out events", f"{where}.match")
        results = None
        if "results" in e:
            results = _results(e["results"], ck, f"{where}.results", fld, idx, n_players,
                               sim != SIM_OPEN)
        ev_ill = ck.get(e, "illustrative", where, bool, default=False)
        events.append(Event(ename, where, start, system, cycles, rounds, minutes, control, scale,
                            joined, announced, tuple(fld), n_players, float(strength),
                            strength_from, level, float(opp), steps, results, ev_ill,
                            ck.get(e, "source", where, str, default="")))
    events.sort(key=lambda ev: ev.start)  # stable: same day keeps file order
    nq = ck.get(t, "qualifying_places", "tour", int, default=QUALIFYING, lo=1, hi=1000)
    label = " (points tables: illustrative)" if illustrative else ""
    return Tour(name=name + label, file=f, source=source, notes=notes, model_file=model_file,
                players=tuple(players), events=tuple(events), best_n=best_n,
                qualifying_places=nq, shared_places=shared, grand_slam_level=gsl, tables=tables,
                coefficients=coefficients, declined_factor=declined,
                tables_illustrative=illustrative, tables_source=tsource, kind=event_kind)


def _steps(v, ck, key, control):
    if v is None:
        # default KO match: two games at the event's control, then lots if level
        return ((STEP_GAMES, control, 2), (STEP_KINDS["lots"], control, 0))
    if not isinstance(v, list) or not v:
        ck.fail("a list of steps {kind, control, games}", key, v)
    out = []
    for s, st in enumerate(v):
        k2 = f"{key}[{s}]"
        if not isinstance(st, dict):
            ck.fail("must be a table {kind, control, games}", k2, st)
        ck.unknown_keys(st, {"kind", "control", "games"}, k2)
        kind = ck.get(st, "kind", k2, str, choices=tuple(STEP_KINDS))
        if s == 0 and kind != "games":
            ck.fail('the first step of a match is its games (kind = "games")', f"{k2}.kind", kind)
        ctl = ck.get(st, "control", k2, str, default=control)
        games = ck.get(st, "games", k2, int, default=0 if kind != "games" else ..., lo=0, hi=40)
        if kind == "games" and games < 1:
            ck.fail("a games step plays at least one game", f"{k2}.games", games)
        out.append((STEP_KINDS[kind], ctl, games))
    return tuple(out)


def _results(v, ck, key, fld, idx, n_players, whole_field):
    if not isinstance(v, list) or not v:
        ck.fail('a list of [player, place] with place a number or a shared range "2-3"', key, v)
    got = {}
    for j, r in enumerate(v):
        k2 = f"{key}[{j}]"
        if not isinstance(r, list) or len(r) != 2:
            ck.fail('a result is [player, place], e.g. ["Name", 1] or ["Name", "2-3"]', k2, r)
        p = idx.find(r[0], f"{k2} (player)")
        if p not in fld:
            ck.fail("not in this event's field", f"{k2} (player)", r[0])
        if p in got:
            ck.fail("result given twice", f"{k2} (player)", r[0])
        got[p] = _place(r[1], ck, f"{k2} (place)", n_players)
    missing = [p for p in fld if p not in got]
    if missing:
        ck.fail("every listed player needs a place", key, idx.names[missing[0]])
    groups: dict = {}
    for p, rng in got.items():
        groups.setdefault(rng, []).append(p)
    for (lo, hi), ps in groups.items():
        if len(ps) > hi - lo + 1 or (whole_field and len(ps) != hi - lo + 1):
            ck.fail(f"{len(ps)} player(s) share places {lo}-{hi}", key, f"{lo}-{hi}")
    if whole_field:
        covered = sorted(groups)
        nxt = 1
        for lo, hi in covered:
            if lo != nxt:
                ck.fail(f"places do not fit together: place {nxt} is missing or overlaps", key)
            nxt = hi + 1
    else:
        spans = sorted(groups)
        for a, b in zip(spans, spans[1:]):
            if b[0] <= a[1]:
                ck.fail(f"place ranges {a[0]}-{a[1]} and {b[0]}-{b[1]} overlap", key)
    return tuple((p, *got[p]) for p in fld)


# -- checkpoints --------------------------------------------------------------------------------------
def checkpoints(scn: Tour) -> list[str]:
    out = ["start"]
    for k, ev in enumerate(scn.events):
        if ev.results is None:
            break
        out.append(f"event{k + 1}")
    return out


def _played(scn: Tour, at) -> list[bool]:
    """Which events (date order) count as played at checkpoint ``at``."""
    if at is None:
        return [ev.results is not None for ev in scn.events]
    last = 0 if at == "start" else int(at[len("event"):])
    return [k < last for k in range(len(scn.events))]


# -- points and ranking ---------------------------------------------------------------------------------
def played_points(scn: Tour, ev: Event) -> dict:
    """player -> ACP points (hundredths) of a finished event."""
    pp = event_place_points(scn, ev)
    return {p: share_points(pp, lo, hi) for p, lo, hi in ev.results}


def counted(results, best_n: int) -> list[int]:
    """A player's counted results: his best ``best_n`` results that earned points, best first
    (seed 004 §5.4).  Reading "scored": a result of 0 points is not a counted tournament."""
    return sorted((x for x in results if x > 0), reverse=True)[:best_n]


def tiebreak_key(top) -> tuple:
    """Sort key (smaller is better) of a counted list, best first, per seed 004 §5.4-5.5:
    total; (1) fewer counted tournaments; (2) the total without the worst counted result,
    then without the next worst, and so on.  Lots (3) settle what is still level."""
    total = sum(top)
    drops = tuple(-sum(top[: len(top) - k]) for k in range(1, len(top)))
    return (-total, len(top)) + drops


def rank_groups(keys: dict) -> list[list]:
    """Players grouped where every criterion before lots leaves them level, best first."""
    order = sorted(keys, key=lambda p: keys[p])
    groups = []
    for p in order:
        if groups and keys[groups[-1][0]] == keys[p]:
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


def _fmt(x_hundredths: int) -> str:
    return f"{x_hundredths / UNIT:.2f}"


def _event_info(scn: Tour, ev: Event, k: int) -> dict:
    pp = event_place_points(scn, ev)
    paying = sum(1 for x in pp if x > 0)
    return {"number": k + 1, "name": ev.name, "start": ev.start.isoformat(), "system": ev.system,
            "kind": ev.scale, "minutes": ev.minutes, "control": ev.control,
            "strength": round(ev.strength, 2), "strength_from": ev.strength_from,
            "level": ev.level, "joined": ev.joined, "field": len(ev.field),
            "n_players": ev.n_players, "places_paying": paying,
            "place_points": [x / UNIT for x in pp[:paying]],
            "illustrative": ev.illustrative, "source": ev.source}


# -- standings -----------------------------------------------------------------------------------------
def standings(scn: Tour, at) -> dict:
    played = _played(scn, at)
    evs = [(k, ev) for k, ev in enumerate(scn.events) if played[k]]
    per = {m: [None] * len(evs) for m in scn.members}
    for c, (k, ev) in enumerate(evs):
        for p, x in played_points(scn, ev).items():
            if p in per:
                per[p][c] = x
    keys, tops = {}, {}
    for m in scn.members:
        tops[m] = counted([x for x in per[m] if x is not None], scn.best_n)
        keys[m] = tiebreak_key(tops[m])
    groups = rank_groups(keys)
    final = all(played) and len(evs) == len(scn.events)
    nq = scn.qualifying_places
    rows = []
    pos = 0
    unresolved = False
    for g in groups:
        straddles = pos < nq < pos + len(g)
        unresolved |= straddles
        for m in g:
            top = tops[m]
            rows.append({
                "name": scn.players[m].name,
                "rank": pos + 1,
                "shared": len(g) > 1,
                "events": [None if x is None else x / UNIT for x in per[m]],
                "total": sum(top) / UNIT,
                "counted": len(top),
                "played": sum(1 for x in per[m] if x is not None),
                "without_worst": [sum(top[: len(top) - k]) / UNIT for k in range(1, len(top))],
                "qualified": (True if pos + len(g) <= nq else (False if pos >= nq else None)),
            })
        pos += len(g)
    d = {"scenario": scn.name, "file": scn.file, "at": at or "latest", "final": final,
         "events_played": len(evs), "events_total": len(scn.events), "best_n": scn.best_n,
         "qualifying_places": nq, "points_tables": _tables_label(scn),
         "events": [_event_info(scn, ev, k) for k, ev in evs], "players": rows}
    if unresolved:
        d["note"] = ("players level on points, counted tournaments and every drop of the worst "
                     "result straddle the last qualifying place: lots decide (seed 004 §5.5.3)")
    return d


def _tables_label(scn: Tour) -> str:
    if scn.tables_illustrative:
        return ("illustrative (NOT the real ACP tables: Appendix 2 of the regulations is not in "
                "seed 004)" + (f"; {scn.tables_source}" if scn.tables_source else ""))
    return "as given: " + scn.tables_source


def render_standings(d: dict) -> str:
    lines = [f"{d['scenario']}  at {d['at']}  (events played: {d['events_played']} of "
             f"{d['events_total']}{', final' if d['final'] else ''})",
             f"points tables: {d['points_tables']}",
             f"best {d['best_n']} results count; top {d['qualifying_places']} qualify "
             "(ties: fewer counted events, then without the worst result, ..., then lots)", ""]
    if d["events"]:
        lines.append("events:")
        for e in d["events"]:
            lines.append(f"  E{e['number']:<3}{e['start']}  {e['name'][:34]:<35}{e['system']:<5}"
                         f"{e['kind']:<11}R {e['strength']:7.1f}  level {e['level'] or '-':<3}"
                         f"{'' if e['joined'] else ' (organisers declined)'}")
        lines.append("")
    ev_cols = "".join(f"{'E' + str(e['number']):>8}" for e in d["events"])
    head = (f"{'rank':>5}  {'player':<26}{'total':>8}{'cnt':>4}{'-1 worst':>9}{'-2 worst':>9}"
            f"  {'Q':<3}" + ev_cols)
    lines += [head, "-" * len(head)]
    for p in d["players"]:
        rank = ("=" if p["shared"] else "") + str(p["rank"])
        ww = p["without_worst"] + [None, None]
        q = {True: "Q" if d["final"] else "q", False: "", None: "?"}[p["qualified"]]
        lines.append(
            f"{rank:>5}  {p['name'][:25]:<26}{p['total']:8.2f}{p['counted']:4d}"
            + "".join(f"{x:9.2f}" if x is not None else f"{'':9}" for x in ww[:2])
            + f"  {q:<3}" + "".join(f"{x:8.2f}" if x is not None else f"{'.':>8}"
                                    for x in p["events"]))
    lines.append("")
    lines.append("Q qualified, q in a qualifying place now, ? level with the last qualifier "
                 "(lots); '.' did not play")
    if d.get("note"):
        lines.append("note: " + d["note"])
    return "\n".join(lines)


# -- compile ------------------------------------------------------------------------------------------
class TourPlan:
    """Flat arrays for ``kernels.tour_nb.simulate_tour_nb`` (the Plan contract: driver.py)."""

    counter_names = COUNTER_NAMES

    def __init__(self, scn: Tour, model, at, offsets: bool = False):
        import numpy as np

        self.scn = scn
        members = scn.members
        self.names = [scn.players[m].name for m in members]
        self.n_places = len(members)
        self.points_scale = float(UNIT)
        self.qualifying_places = min(scn.qualifying_places, len(members))
        self.currency = None
        self.offsets = bool(offsets)
        self.best_n = scn.best_n
        n = len(scn.players)
        self.n_real = n
        self.member_of = np.full(n, -1, np.int64)
        for j, m in enumerate(members):
            self.member_of[m] = j
        played = _played(scn, at)
        # fixed results so far: each member's counted list (positive results, best first)
        base = {m: [] for m in members}
        for k, ev in enumerate(scn.events):
            if played[k]:
                for p, x in played_points(scn, ev).items():
                    if p in base:
                        base[p].append(x)
        self.base_top = np.zeros((len(members), scn.best_n), np.int64)
        self.base_cnt = np.zeros(len(members), np.int64)
        extra = []
        for j, m in enumerate(members):
            top = counted(base[m], scn.best_n)
            self.base_top[j, : len(top)] = top
            self.base_cnt[j] = len(top)
            extra.append({"counted_now": sum(top) / UNIT, "events_counted_now": len(top),
                          "events_left": sum(1 for k, ev in enumerate(scn.events)
                                             if not played[k] and m in ev.field)})
        self.player_extra = extra
        # events to simulate, date order
        ratings = [p.ratings for p in scn.players]
        from ..reference.games import wdl

        params = model.params
        rt = model.rating_table(ratings + [{"classical": ev.opponent_rating}
                                           for k, ev in enumerate(scn.events)
                                           if not played[k] and SIM_OF[ev.system] == SIM_OPEN])
        rows, fieldl, ppl, stepl, slotl, thrl = [], [], [], [], [], []
        self.remaining = []

        def thr(ci, w, b):  # (P white wins, P white wins or draws), without offsets
            cls = int(params[ci][4])
            pw, pd = wdl(params, ci, rt[w][cls], rt[b][cls], False)
            thrl.extend((pw, pw + pd))
        for k, ev in enumerate(scn.events):
            if played[k]:
                continue
            self.remaining.append(ev)
            sim = SIM_OF[ev.system]
            row = [0] * N_EV_COLS
            row[EV_SYS] = sim
            row[EV_CYCLES] = ev.cycles
            row[EV_CI] = model.index(ev.control, file=scn.file, key=f"{ev.key}.control")
            row[EV_ROUNDS] = ev.rounds
            row[EV_OPP] = -1
            if sim == SIM_OPEN:
                row[EV_OPP] = len(ratings)
                ratings.append({"classical": ev.opponent_rating})
            # thresholds of every game an RR / open can hold (kernel and twin read the same
            # numbers when offsets are off): RR [white i][black j]; open per player (White, Black)
            row[EV_TS] = len(thrl) // 2
            if sim == SIM_RR:
                for a in ev.field:
                    for b in ev.field:
                        thr(row[EV_CI], a, b)
            elif sim == SIM_OPEN:
                for a in ev.field:
                    thr(row[EV_CI], a, row[EV_OPP])
                    thr(row[EV_CI], row[EV_OPP], a)
            row[EV_FS], row[EV_FL] = len(fieldl), len(ev.field)
            fieldl.extend(ev.field)
            row[EV_PS] = len(ppl)
            ppl.extend(event_place_points(scn, ev, len(ev.field)))
            row[EV_SS], row[EV_SL] = len(stepl), len(ev.steps)
            for s, (kind, ctl, games) in enumerate(ev.steps):
                stepl.append((kind, model.index(ctl, file=scn.file, key=f"{ev.key}.match[{s}].control"),
                              games))
            if sim == SIM_KO:
                size = 1
                while size < len(ev.field):
                    size *= 2
                row[EV_BS], row[EV_BL] = len(slotl), size
                slotl.extend(s if s < len(ev.field) else -1 for s in bracket_order(size))
            rows.append(row)
        self.ev = np.array(rows, np.int64).reshape(len(rows), N_EV_COLS)
        self.field = np.array(fieldl, np.int64)
        self.pp = np.array(ppl, np.int64)
        self.steps = np.array(stepl, np.int64).reshape(len(stepl), 3)
        self.slots = np.array(slotl, np.int64)
        self.thr = np.array(thrl, np.float64).reshape(len(thrl) // 2, 2)
        self.params = params
        self.rt = rt
        self.offset_sd = np.array([model.offset_sd[c] for c in ("classical", "rapid", "blitz")])
        self.share_lots = scn.shared_places == "lots"
        self.max_field = max([len(ev.field) for ev in scn.events] + [2])
        from .base import PlanInfo
        self.info = PlanInfo(names=tuple(self.names), ratings=rt[members, 0].copy(),
                             n_places=self.n_places, points_scale=self.points_scale,
                             points_label="ACP points",
                             qualifying_places=self.qualifying_places,
                             counter_names=tuple(COUNTER_NAMES), player_extra=tuple(extra))

    def run_batch(self, seed: int, first: int, n: int) -> dict:
        import numpy as np

        from ..driver import ChunkTallies
        from ..kernels.tour_nb import simulate_tour_nb

        t = ChunkTallies(n, self.info)
        simulate_tour_nb(np.uint64(seed), np.int64(first), np.int64(n), self.ev, self.field,
                         self.pp, self.steps, self.slots, self.thr, self.member_of, self.base_top,
                         self.base_cnt, self.share_lots, np.int64(self.n_real),
                         np.int64(self.max_field), self.params, self.rt, self.offsets,
                         self.offset_sd, np.int64(self.qualifying_places), t.place, t.qualify,
                         t.points, t.points_sq, t.prize, t.prize_sq, t.counters)
        return t.summed()


def compile(scn: Tour, model, at, offsets: bool = False) -> TourPlan:
    return TourPlan(scn, model, at, offsets)


# -- odds ------------------------------------------------------------------------------------------------
ODDS_SIMS = 20_000
ODDS_SEED = 1


def odds(scn: Tour, model, at) -> dict:
    """The events still to play: level, strength, and each listed player's probability of each
    points-paying place and expected ACP points (Monte Carlo over the event alone, fixed seed)."""
    import numpy as np

    from ..kernels.tour_nb import event_odds_nb

    plan = TourPlan(scn, model, at)
    out = []
    for e, ev in enumerate(plan.remaining):
        fl = len(ev.field)
        prob = np.zeros((fl, fl))
        pts = np.zeros(fl)
        event_odds_nb(np.uint64(ODDS_SEED), np.int64(ODDS_SIMS), np.int64(e), plan.ev, plan.field,
                      plan.pp, plan.steps, plan.slots, plan.thr, plan.share_lots, np.int64(plan.max_field),
                      plan.params, plan.rt, prob, pts)
        pp = event_place_points(scn, ev, fl)
        paying = sum(1 for x in pp if x > 0)
        info = _event_info(scn, ev, scn.events.index(ev))
        info["players"] = [{"name": scn.players[p].name,
                            "member": scn.players[p].member,
                            "rating": scn.players[p].ratings["classical"],
                            "p_place": [float(x) / ODDS_SIMS for x in prob[i, :paying]],
                            "expected_points": float(pts[i]) / ODDS_SIMS / UNIT if
                            scn.players[p].member else 0.0}
                           for i, p in enumerate(ev.field)]
        info["players"].sort(key=lambda r: -r["expected_points"])
        out.append(info)
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
            "points_tables": _tables_label(scn), "sims_per_event": ODDS_SIMS, "seed": ODDS_SEED,
            "model": {"name": model.name, "version": model.version},
            "shared_places": scn.shared_places, "events": out}


def render_odds(d: dict) -> str:
    lines = [f"{d['scenario']}  at {d['at']}: {len(d['events'])} events to play "
             f"(model {d['model']['name']} {d['model']['version']}; {d['sims_per_event']:,} "
             f"runs of each event, seed {d['seed']})",
             f"points tables: {d['points_tables']}", ""]
    for e in d["events"]:
        lines.append(f"E{e['number']} {e['start']}  {e['name']}  {e['system']} {e['kind']}, "
                     f"R {e['strength']:.1f} ({e['strength_from']}), level {e['level'] or '-'}"
                     f"{'' if e['joined'] else ', organisers declined'}; "
                     f"{e['places_paying']} places pay")
        shown = min(e["places_paying"], 8)
        head = f"  {'player':<26}{'E[ACP]':>8}  " + " ".join(f"{'P' + str(k + 1):>5}" for k in range(shown))
        lines += [head, "  " + "-" * (len(head) - 2)]
        for p in e["players"]:
            tag = "" if p["member"] else " (not ACP)"
            lines.append(f"  {(p['name'] + tag)[:25]:<26}{p['expected_points']:8.2f}  "
                         + " ".join(f"{100 * x:5.1f}" for x in p["p_place"][:shown]))
        lines.append("")
    return "\n".join(lines)
