"""A series of knock-out events with a points race: the FIDE Grand Prix 2019 format.

Plain Python: loading and validation of the scenario, the standings from the results played,
exact match probabilities (``odds``), and the Plan that feeds ``kernels.knockout_nb``.
The scenario keys, the rules and every Reading are documented in docs/format-knockout-series.md.

Conventions
- A bracket of ``size`` players (a power of two) is a list of positions; round 0 pairs positions
  (0, 1), (2, 3), ...; the winner of slot j of a round meets the winner of slot j ^ 1 in the next.
  In a slot the *upper* player comes from the even position / slot, the *lower* from the odd one.
- Game codes from a player's side: 0 won, 1 drawn, 2 lost (enums WHITE_WINS, DRAW, BLACK_WINS
  read from White's side; here always from the named player's side).
- Classical points are kept in half points, GP points as whole points, money as floats.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..enums import STEP_GAMES, STEP_KINDS
from ..errors import ScenarioError
from ..kinds import KINDS
from .common import Checker, PlayerIndex
from .shared.brackets import flat_slot as _flat_slot
from .shared.brackets import place_value as _place_value
from .shared.brackets import round_name, round_names
from .shared.brackets import seeding_order as world_cup_order
from .shared.matches import Step, match_probability, step_boundaries
from .shared.matches import replay as _replay

# Series tiebreak criteria (codes used by the kernel; order is scenario data)
SER_EVENTS_WON, SER_SECOND, SER_CLASSICAL, SER_H2H, SER_LOTS = 1, 2, 3, 4, 5
SERIES_CRITERIA = {
    "events-won": SER_EVENTS_WON,
    "second-places": SER_SECOND,
    "classical-points": SER_CLASSICAL,
    "head-to-head": SER_H2H,
    "lots": SER_LOTS,
}

UNKNOWN_TB_STEP = -2   # the match went to tiebreaks, the deciding step is not known

SCORE_VALUES = {1: 0, 0.5: 1, 0: 2}   # a player's score -> code from his side (1 == 1.0)


@dataclass(frozen=True)
class Player:
    name: str
    federation: str
    ratings: dict
    events: tuple
    counts: bool
    qualified_elsewhere: bool
    note: str = ""


@dataclass(frozen=True)
class Match:
    event: int          # 0-based
    round: int          # 0-based
    slot: int           # slot in its round
    upper: int          # player index (field)
    lower: int
    white: int | None   # player with White in the first classical game, if known
    games: tuple        # known game codes from upper's side, in playing order (may be partial)
    winner: int | None  # player index, None while the match is in progress
    step: int           # deciding step (0 = classical), UNKNOWN_TB_STEP, or -1 in progress
    cls_upper: int      # classical half points (only meaningful when complete or games known)
    cls_lower: int
    source: str = ""


@dataclass(frozen=True)
class Event:
    name: str
    size: int
    positions: tuple     # player index per bracket position
    bracket_given: bool


@dataclass(frozen=True)
class KnockoutSeries:
    name: str
    file: str
    model_file: str | None
    players: tuple
    events: tuple
    steps: tuple
    matches: tuple           # sorted by (event, round, slot)
    place_points: tuple      # winner, runner-up, SF losers, QF losers, ... (last repeats)
    classical_bonus: int
    event_prizes: tuple      # same order as place_points
    overall_prizes: tuple
    criteria: tuple          # series tiebreak codes after GP points
    qualifying_places: int
    currency: str
    unknown_classical_win: tuple = (3, 1)   # Reading: classical half points when only "won in classical" is known
    source: str = ""
    kind: str = "knockout"   # event kind (simcycle.kinds): the model's draw term
    _index: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def counting(self) -> list[int]:
        return [i for i, p in enumerate(self.players) if p.counts]


# ----------------------------------------------------------------------------- helpers
def _score(code: int) -> int:
    return {0: 2, 1: 1, 2: 0}[code]


# ----------------------------------------------------------------------------- loading
def load(path: Path, raw: dict) -> KnockoutSeries:
    file = str(path)
    ck = Checker(file)
    head = raw["scenario"]
    ck.unknown_keys(raw, {"scenario", "series", "match", "players", "events"}, "")
    ck.unknown_keys(head, {"name", "format", "source", "model", "notes", "kind"}, "scenario")
    name = ck.get(head, "name", "scenario", str)
    event_kind = ck.get(head, "kind", "scenario", str, default="knockout", choices=tuple(KINDS))
    model_file = ck.get(head, "model", "scenario", str, default=None)
    if model_file is not None:
        model_file = str((Path(file).parent / model_file).resolve())

    ser = ck.table(raw, "series")
    ck.unknown_keys(ser, {"place_points", "classical_win_bonus", "event_prizes", "overall_prizes",
                          "currency", "tiebreaks", "qualifying_places", "qualified_elsewhere",
                          "unknown_classical_win", "head_to_head", "standings_points",
                          "notes"}, "series")
    # Readings with one implemented value each, named so that a scenario states them
    ck.get(ser, "head_to_head", "series", str, default="once", choices=["once"])
    ck.get(ser, "standings_points", "series", str, default="secured", choices=["secured"])
    place_points = _int_list(ck, ser, "place_points", "series", lo=0)
    bonus = ck.get(ser, "classical_win_bonus", "series", int, default=0, lo=0, hi=100)
    event_prizes = _num_list(ck, ser, "event_prizes", "series")
    overall = _num_list(ck, ser, "overall_prizes", "series", default=[])
    currency = ck.get(ser, "currency", "series", str, default="EUR")
    qplaces = ck.get(ser, "qualifying_places", "series", int, default=2, lo=0, hi=100)
    crit_names = ck.get(ser, "tiebreaks", "series", list,
                        default=["events-won", "second-places", "classical-points",
                                 "head-to-head", "lots"])
    criteria = []
    for k, c in enumerate(crit_names):
        if c not in SERIES_CRITERIA:
            ck.fail("unknown series tiebreak; known: " + ", ".join(SERIES_CRITERIA),
                    f"series.tiebreaks[{k}]", c)
        criteria.append(SERIES_CRITERIA[c])
    if not criteria or criteria[-1] != SER_LOTS:
        criteria.append(SER_LOTS)   # a strict order in the end, always
    ucw = ck.get(ser, "unknown_classical_win", "series", list, default=[1.5, 0.5])
    if (len(ucw) != 2 or not all(isinstance(x, (int, float)) for x in ucw)
            or not (ucw[0] + ucw[1] == 2 and ucw[0] > ucw[1])):
        ck.fail("must be the winner's and loser's classical points of a 2-game win, e.g. [1.5, 0.5]",
                "series.unknown_classical_win", ucw)

    # the match format
    mt = ck.table(raw, "match")
    ck.unknown_keys(mt, {"steps", "first_white", "tiebreak_colours", "notes"}, "match")
    ck.get(mt, "first_white", "match", str, default="lots", choices=["lots"])
    ck.get(mt, "tiebreak_colours", "match", str, default="as-classical", choices=["as-classical"])
    steps_raw = ck.get(mt, "steps", "match", list)
    steps = []
    for k, s in enumerate(steps_raw):
        where = f"match.steps[{k}]"
        if not isinstance(s, dict):
            ck.fail("must be a table", where, s)
        ck.unknown_keys(s, {"kind", "control", "games", "name"}, where)
        kind = ck.get(s, "kind", where, str, choices=list(STEP_KINDS))
        control = ck.get(s, "control", where, str, default="" if kind == "lots" else ...)
        games = ck.get(s, "games", where, int, default=2 if kind == "games" else 1, lo=1, hi=50)
        if k == 0 and kind != "games":
            ck.fail("the first step is the classical part: kind must be \"games\"", f"{where}.kind", kind)
        steps.append(Step(STEP_KINDS[kind], control, games,
                          ck.get(s, "name", where, str, default=control or kind)))
    if not steps:
        ck.fail("at least the classical step is needed", "match.steps")
    if len({s.name for s in steps}) != len(steps):
        ck.fail("step names must differ (give each a name)", "match.steps")

    # players
    plist = raw.get("players")
    if not isinstance(plist, list) or not plist:
        ck.fail("missing [[players]]", "players")
    idx = PlayerIndex(ck)
    qual_names = ck.get(ser, "qualified_elsewhere", "series", list, default=[])
    players = []
    for k, p in enumerate(plist):
        where = f"players[{k}]"
        if not isinstance(p, dict):
            ck.fail("must be a table", where, p)
        ck.unknown_keys(p, {"name", "aliases", "federation", "rating", "rapid", "blitz", "events",
                            "counts", "note", "role"}, where)
        nm = ck.get(p, "name", where, str)
        idx.add(nm, ck.get(p, "aliases", where, list, default=[]), f"{where}.name")
        ratings = {"classical": ck.get(p, "rating", where, float, lo=1000, hi=3500)}
        for cls in ("rapid", "blitz"):
            v = ck.get(p, cls, where, float, default=None, lo=1000, hi=3500)
            if v is not None:
                ratings[cls] = v
        evs = ck.get(p, "events", where, list)
        for e in evs:
            if not isinstance(e, int) or isinstance(e, bool) or e < 1:
                ck.fail("events are numbers 1, 2, ...", f"{where}.events", e)
        if len(set(evs)) != len(evs):
            ck.fail("an event is listed twice", f"{where}.events", evs)
        players.append(dict(name=nm, federation=ck.get(p, "federation", where, str, default=""),
                            ratings=ratings, events=tuple(sorted(evs)),
                            counts=ck.get(p, "counts", where, bool, default=True),
                            note=ck.get(p, "note", where, str, default="")))
    qual = set()
    for k, q in enumerate(qual_names):
        qual.add(idx.find(q, f"series.qualified_elsewhere[{k}]"))
    players = tuple(Player(qualified_elsewhere=(i in qual), **d) for i, d in enumerate(players))

    # events
    elist = raw.get("events")
    if not isinstance(elist, list) or not elist:
        ck.fail("missing [[events]]", "events")
    n_ev = len(elist)
    for i, p in enumerate(players):
        for e in p.events:
            if e > n_ev:
                ck.fail(f"the scenario has {n_ev} events", f"players[{i}].events", e)
    events = []
    matches = []
    for e, ev in enumerate(elist):
        where = f"events[{e}]"
        if not isinstance(ev, dict):
            ck.fail("must be a table", where, ev)
        ck.unknown_keys(ev, {"name", "dates", "bracket", "matches", "notes", "source"}, where)
        ename = ck.get(ev, "name", where, str, default=f"event {e + 1}")
        field_ = [i for i, p in enumerate(players) if (e + 1) in p.events]
        size = len(field_)
        if size < 2 or size & (size - 1):
            ck.fail(f"an event needs a power of two of players (2, 4, 8, 16, ...); {size} are "
                    "scheduled for it (players' events)", where, size)
        br = ck.get(ev, "bracket", where, list, default=None)
        if br is not None:
            pos = []
            for k, nm in enumerate(br):
                i = idx.find(nm, f"{where}.bracket[{k}]")
                if (e + 1) not in players[i].events:
                    ck.fail(f"player is not scheduled for event {e + 1} (see his events)",
                            f"{where}.bracket[{k}]", nm)
                if i in pos:
                    ck.fail("player twice in the bracket", f"{where}.bracket[{k}]", nm)
                pos.append(i)
            if len(pos) != size:
                ck.fail(f"the bracket must list all {size} players scheduled for this event",
                        f"{where}.bracket", len(pos))
        else:
            seeded = sorted(field_, key=lambda i: (-players[i].ratings["classical"], players[i].name))
            pos = [seeded[s] for s in world_cup_order(size)]
        events.append(Event(ename, size, tuple(pos), br is not None))
        matches.extend(_load_matches(ck, ev, e, where, pos, players, idx, steps, ucw))

    # bracket consistency: feeders known and won by the players entered
    known = {(m.event, m.round, m.slot): m for m in matches}
    for m in matches:
        if m.round > 0:
            for side, pl in ((0, m.upper), (1, m.lower)):
                f = known.get((m.event, m.round - 1, 2 * m.slot + side))
                key = f"events[{m.event}].matches ({m.source})"
                if f is None or f.winner != pl:
                    ck.fail("these players cannot meet in this round: the earlier match of "
                            f"{players[pl].name} in this event is not entered as won by him", key,
                            players[pl].name)
    matches.sort(key=lambda m: (m.event, m.round, m.slot))
    scn = KnockoutSeries(
        name=name, file=file, model_file=model_file, players=players, events=tuple(events),
        steps=tuple(steps), matches=tuple(matches), place_points=tuple(place_points),
        classical_bonus=bonus, event_prizes=tuple(event_prizes), overall_prizes=tuple(overall),
        criteria=tuple(criteria), qualifying_places=qplaces, currency=currency,
        unknown_classical_win=(int(round(2 * ucw[0])), int(round(2 * ucw[1]))),
        source=ck.get(head, "source", "scenario", str, default=""), kind=event_kind)
    scn._index.update({(m.event, m.round, m.slot): m for m in matches})
    return scn


def _int_list(ck, t, name, where, lo=None):
    v = ck.get(t, name, where, list)
    if not v or not all(isinstance(x, int) and not isinstance(x, bool) for x in v) or (
            lo is not None and min(v) < lo):
        ck.fail("must be a non-empty list of whole numbers", f"{where}.{name}", v)
    return v


def _num_list(ck, t, name, where, default=...):
    v = ck.get(t, name, where, list, default=default)
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) and x >= 0 for x in v):
        ck.fail("must be a list of non-negative numbers", f"{where}.{name}", v)
    return [float(x) for x in v]


def _codes(ck, vals, key):
    out = []
    for k, x in enumerate(vals):
        if isinstance(x, bool) or x not in SCORE_VALUES:
            ck.fail("a game result is the first-listed player's score: 1, 0.5 or 0", f"{key}[{k}]", x)
        out.append(SCORE_VALUES[x])
    return out


def _load_matches(ck, ev, e, where, pos, players, idx, steps, ucw):
    """Validate the [[events.matches]] of one event."""
    size = len(pos)
    n_rounds = size.bit_length() - 1
    names = round_names(n_rounds)
    where_pos = {p: k for k, p in enumerate(pos)}
    mlist = ck.get(ev, "matches", where, list, default=[])
    seen = {}
    out = []
    bounds = step_boundaries(steps)
    n_cls = steps[0].games
    for k, m in enumerate(mlist):
        mw = f"{where}.matches[{k}]"
        if not isinstance(m, dict):
            ck.fail("must be a table", mw, m)
        ck.unknown_keys(m, {"round", "players", "white", "classical", "tiebreaks", "score",
                            "winner", "decided_by", "source", "note"}, mw)
        alias = [f"r{k + 1}" for k in range(n_rounds)]
        rn = ck.get(m, "round", mw, str, choices=list(dict.fromkeys(names + alias)))
        r = names.index(rn) if rn in names else alias.index(rn)
        rn = names[r]
        pl = ck.get(m, "players", mw, list)
        if len(pl) != 2:
            ck.fail("a match has two players", f"{mw}.players", pl)
        a, b = (idx.find(x, f"{mw}.players[{j}]") for j, x in enumerate(pl))
        for j, x in enumerate((a, b)):
            if x not in where_pos:
                ck.fail(f"player is not scheduled for event {e + 1}", f"{mw}.players[{j}]",
                        players[x].name)
        if a == b:
            ck.fail("a player cannot meet himself", f"{mw}.players", pl)
        pa, pb = where_pos[a], where_pos[b]
        if pa >> (r + 1) != pb >> (r + 1) or (pa >> r) == (pb >> r):
            ck.fail(f"these players cannot meet in round {rn} of this bracket (positions "
                    f"{pa + 1} and {pb + 1})", f"{mw}.players", pl)
        slot = pa >> (r + 1)
        for x in (a, b):
            if (r, x) in seen:
                ck.fail("duplicate entry: this player already has a match in this round",
                        f"{mw}.players", players[x].name)
            seen[(r, x)] = True
        flip = (pa >> r) & 1 == 1           # the first-listed player is the lower one
        upper, lower = (b, a) if flip else (a, b)
        src = ck.get(m, "source", mw, str, default="")
        white = ck.get(m, "white", mw, str, default=None)
        if white is not None:
            white = idx.find(white, f"{mw}.white")
            if white not in (a, b):
                ck.fail("must be one of the two players", f"{mw}.white", players[white].name)
        cls = _codes(ck, ck.get(m, "classical", mw, list, default=[]), f"{mw}.classical")
        if len(cls) > n_cls:
            ck.fail(f"the classical part has {n_cls} games", f"{mw}.classical", len(cls))
        tbs = _codes(ck, ck.get(m, "tiebreaks", mw, list, default=[]), f"{mw}.tiebreaks")
        score = ck.get(m, "score", mw, list, default=None)
        winner = ck.get(m, "winner", mw, str, default=None)
        if winner is not None:
            winner = idx.find(winner, f"{mw}.winner")
            if winner not in (a, b):
                ck.fail("must be one of the two players", f"{mw}.winner", players[winner].name)
        decided = ck.get(m, "decided_by", mw, str, default=None)
        step_names = [s.name for s in steps]
        if decided is not None and decided not in step_names + ["classical", "tiebreaks"]:
            ck.fail("must be \"classical\", \"tiebreaks\" or a step name: " + ", ".join(step_names),
                    f"{mw}.decided_by", decided)

        # what the entry says, from the first-listed player's side
        res_winner, res_step = None, None
        score_cls = None
        fixed = list(cls)
        if tbs:
            if len(cls) != n_cls:
                ck.fail("tiebreak games need the classical games first", f"{mw}.tiebreaks", tbs)
            w, s, used = _replay(steps, cls + tbs)
            if w is None or used != len(cls) + len(tbs):
                ck.fail("these games do not end the match (level, or games after the end)",
                        f"{mw}.tiebreaks", tbs)
            res_winner, res_step = w, s
            fixed = cls + tbs
        elif len(cls) == n_cls:
            w, s, used = _replay(steps[:1], cls)
            if w is not None:
                res_winner, res_step = w, 0
        if score is not None:
            if (len(score) != 2 or not all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                           and x >= 0 for x in score)
                    or any((2 * x) % 1 for x in score)):
                ck.fail("must be the two players' match scores, e.g. [2.5, 1.5]", f"{mw}.score", score)
            tot = score[0] + score[1]
            if tot not in bounds:
                ck.fail("this many games do not end the match at any step", f"{mw}.score", score)
            s = bounds.index(tot)
            d = score[0] - score[1]
            kind = steps[s].kind
            ok = (abs(d) >= 1) if kind == STEP_GAMES else (abs(d) <= 1)
            if kind == STEP_GAMES:
                ok = ok and abs(d) <= steps[s].games
            if not ok:
                ck.fail("this score does not end the match", f"{mw}.score", score)
            if d > 0:
                w = 0
            elif d < 0:
                w = 1
            else:
                if winner is None:
                    ck.fail("a level score (drawn Armageddon) needs the winner", f"{mw}.winner")
                w = 0 if winner == a else 1
            if s == 0:
                cpts = (int(2 * score[0]), int(2 * score[1]))
                if cls and len(cls) == n_cls and (sum(_score(c) for c in cls),
                                                  sum(_score(2 - c) for c in cls)) != cpts:
                    ck.fail("score and classical games disagree", f"{mw}.score", score)
            if res_winner is not None and (res_winner, res_step) != (w, s):
                ck.fail("score and games disagree", f"{mw}.score", score)
            res_winner, res_step = w, s
            if s == 0 and len(cls) < n_cls:
                score_cls = (int(2 * score[0]), int(2 * score[1]))   # classical points from the score
        if decided is not None:
            s = (0 if decided == "classical" else UNKNOWN_TB_STEP if decided == "tiebreaks"
                 else step_names.index(decided))
            if res_step is not None and not (res_step == s or (s == UNKNOWN_TB_STEP and res_step > 0)):
                ck.fail("decided_by disagrees with the games or score", f"{mw}.decided_by", decided)
            if res_step is None:
                if len(cls) == n_cls:
                    w0, _, _ = _replay(steps[:1], cls)
                    if s == 0 and w0 is None:
                        ck.fail("the classical games are level: the match was not decided in "
                                "classical", f"{mw}.decided_by", decided)
                    if s != 0 and w0 is not None:
                        ck.fail("the classical games already decided the match",
                                f"{mw}.decided_by", decided)
                if winner is None:
                    ck.fail("decided_by needs the winner", f"{mw}.winner")
                res_step = s
        if winner is not None:
            w = 0 if winner == a else 1
            if res_winner is not None and res_winner != w:
                ck.fail("the winner disagrees with the games or score", f"{mw}.winner",
                        players[winner].name)
            if res_winner is None and res_step is None:
                ck.fail("the winner needs how the match was decided (decided_by, score or games)",
                        f"{mw}.decided_by")
            res_winner = w
        complete = res_winner is not None
        if score_cls is not None:
            cls_pts = score_cls
        elif complete and res_step == 0 and len(cls) < n_cls:
            # Reading unknown_classical_win: the winner's classical points when only
            # "won in the classical games" is known
            cls_pts = (ucw[0] * 2, ucw[1] * 2) if res_winner == 0 else (ucw[1] * 2, ucw[0] * 2)
            cls_pts = (int(round(cls_pts[0])), int(round(cls_pts[1])))
        elif complete and res_step != 0:
            cls_pts = (n_cls, n_cls)    # level after the classical games
            if len(cls) == n_cls:
                cls_pts = (sum(_score(c) for c in cls), sum(_score(2 - c) for c in cls))
        elif fixed is not None:
            cls_pts = (sum(_score(c) for c in cls), sum(_score(2 - c) for c in cls))
        if not complete and not cls and white is None:
            ck.fail("the entry gives no result: give classical games, score, or winner and "
                    "decided_by", mw)
        # to the upper player's side
        if flip:
            cls_pts = (cls_pts[1], cls_pts[0])
            games = tuple(2 - c for c in (fixed or []))
        else:
            games = tuple(fixed or [])
        win_idx = None
        if complete:
            win_idx = a if res_winner == 0 else b
        out.append(Match(e, r, slot, upper, lower, white, games, win_idx, res_step if complete else -1,
                         cls_pts[0], cls_pts[1], source=src or f"{rn} {players[a].name}-{players[b].name}"))
    return out


# ----------------------------------------------------------------------------- checkpoints
def checkpoints(scn: KnockoutSeries) -> list[str]:
    out = ["start"]
    for e, ev in enumerate(scn.events):
        n_rounds = ev.size.bit_length() - 1
        for r in range(n_rounds):
            out.append(f"event{e + 1}" if r == n_rounds - 1
                       else f"event{e + 1}-{round_name(r, n_rounds)}")
    return out


def _cutoff(scn, at):
    """(event, round) of the last round counted; None = everything."""
    if at is None:
        return None
    if at == "start":
        return (-1, 0)
    for e, ev in enumerate(scn.events):
        n_rounds = ev.size.bit_length() - 1
        for r in range(n_rounds):
            name = f"event{e + 1}" if r == n_rounds - 1 else f"event{e + 1}-{round_name(r, n_rounds)}"
            if name == at:
                return (e, r)
    raise ScenarioError("no such checkpoint", file=scn.file, key="--at", value=at)


def counted_matches(scn, at) -> dict:
    cut = _cutoff(scn, at)
    out = {}
    for m in scn.matches:
        if cut is None or (m.event, m.round) <= cut:
            out[(m.event, m.round, m.slot)] = m
    return out


# ----------------------------------------------------------------------------- standings
def event_state(scn, e, known):
    """Walk event e's bracket with the known matches.  Returns per field player
    (round reached, eliminated?, classical wins without tiebreak, classical half points, prize-round)
    and the list of complete matches as (upper, lower, cls_u, cls_l)."""
    ev = scn.events[e]
    n_rounds = ev.size.bit_length() - 1
    alive = list(ev.positions)
    info = {p: {"out_round": None, "bonus": 0, "cls": 0, "won": False} for p in ev.positions}
    log = []
    for r in range(n_rounds):
        nxt = []
        for j in range(len(alive) // 2):
            up, lo = alive[2 * j], alive[2 * j + 1]
            m = known.get((e, r, j))
            if up is None or lo is None or m is None or m.winner is None:
                if m is not None:        # in progress: classical games so far count
                    info[up]["cls"] += m.cls_upper
                    info[lo]["cls"] += m.cls_lower
                nxt.append(None)
                continue
            info[up]["cls"] += m.cls_upper
            info[lo]["cls"] += m.cls_lower
            log.append((up, lo, m.cls_upper, m.cls_lower))
            w, l_ = (up, lo) if m.winner == up else (lo, up)
            if m.step == 0:
                info[w]["bonus"] += 1
            info[l_]["out_round"] = r
            nxt.append(w)
        alive = nxt
    if alive[0] is not None:
        info[alive[0]]["won"] = True
    return info, log


def _secured_round(info, p, n_rounds, e, known, scn):
    """Rounds from the end the player is secured: 0 = winner."""
    d = info[p]
    if d["won"]:
        return 0
    if d["out_round"] is not None:
        return n_rounds - d["out_round"]
    # still in: at least the place of losing in the first round he has not won
    ev = scn.events[e]
    pos = ev.positions.index(p)
    r = 0
    while r < n_rounds:
        m = known.get((e, r, pos >> (r + 1)))
        if m is None or m.winner != p:
            break
        r += 1
    return n_rounds - r


def series_table(scn, known):
    """Per player: events (points or None), points, events_won, second, cls (half points),
    event prize, and the match log."""
    n = len(scn.players)
    rows = [{"events": [None] * len(scn.events), "points": 0, "won": 0, "second": 0, "cls": 0,
             "prize": 0.0} for _ in range(n)]
    log = []
    complete = True
    for e, ev in enumerate(scn.events):
        n_rounds = ev.size.bit_length() - 1
        info, elog = event_state(scn, e, known)
        log.extend(elog)
        for p in ev.positions:
            back = _secured_round(info, p, n_rounds, e, known, scn)
            if not info[p]["won"] and info[p]["out_round"] is None:
                complete = False
            pts = _place_value(scn.place_points, back) + scn.classical_bonus * info[p]["bonus"]
            rw = rows[p]
            rw["events"][e] = pts
            rw["points"] += pts
            rw["won"] += back == 0
            rw["second"] += back == 1 and info[p]["out_round"] is not None
            rw["cls"] += info[p]["cls"]
            rw["prize"] += _place_value(scn.event_prizes, back)
    return rows, log, complete


def rank_series(scn, rows, log, players):
    """Groups of players in order (players level on every criterion but lots share a group)."""
    crit = [c for c in scn.criteria if c != SER_LOTS]
    key0 = lambda p: rows[p]["points"]
    groups = _split([sorted(players)], key0)
    for c in crit:
        new = []
        for g in groups:
            if len(g) == 1:
                new.append(g)
                continue
            if c == SER_H2H:
                gs = set(g)
                val = {p: 0 for p in g}
                for up, lo, cu, cl in log:
                    if up in gs and lo in gs:
                        val[up] += cu
                        val[lo] += cl
                new.extend(_split([g], lambda p: val[p]))
            else:
                f = {SER_EVENTS_WON: "won", SER_SECOND: "second", SER_CLASSICAL: "cls"}[c]
                new.extend(_split([g], lambda p: rows[p][f]))
        groups = new
    return groups


def _split(groups, value):
    out = []
    for g in groups:
        vals = sorted({value(p) for p in g}, reverse=True)
        for v in vals:
            out.append([p for p in g if value(p) == v])
    return out


def overall_shares(scn, rows, order_players):
    """Overall prize per player: equal GP points share the prizes of the places they occupy."""
    pr = list(scn.overall_prizes) + [0.0] * len(order_players)
    out = {}
    k = 0
    while k < len(order_players):
        e = k
        while e < len(order_players) and rows[order_players[e]]["points"] == rows[order_players[k]]["points"]:
            e += 1
        share = sum(pr[k:e]) / (e - k)
        for p in order_players[k:e]:
            out[p] = share
        k = e
    return out


def standings(scn: KnockoutSeries, at) -> dict:
    known = counted_matches(scn, at)
    rows, log, complete = series_table(scn, known)
    counting = scn.counting
    groups = rank_series(scn, rows, log, counting)
    order = [p for g in groups for p in g]
    shares = overall_shares(scn, rows, order) if complete else {}
    out = []
    rank = 1
    left = scn.qualifying_places
    wildcard = False
    for g in groups:
        for p in g:
            pl = scn.players[p]
            rw = rows[p]
            status = None
            if pl.qualified_elsewhere:
                status = "qualified elsewhere"
            elif complete and left > 0:
                status = "qualifies"
                left -= 1
            elif complete and not wildcard:
                status = "wildcard claimant"
                wildcard = True
            if status in ("qualifies", "wildcard claimant") and len(g) > 1:
                status += " (level on every criterion: lots)"
            out.append({
                "name": pl.name, "rank": rank, "points": rw["points"],
                "events_won": rw["won"], "second_places": rw["second"],
                "classical_points": rw["cls"] / 2, "prize": rw["prize"] + shares.get(p, 0.0),
                "events": rw["events"], "status": status,
            })
        rank += len(g)
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest", "complete": complete,
            "currency": scn.currency,
            "events": [ev.name for ev in scn.events], "players": out,
            "qualifying_places": scn.qualifying_places}


def render_standings(d: dict) -> str:
    evs = d["events"]
    lines = [f"{d['scenario']}  at {d['at']}" + ("" if d["complete"] else "  (series not complete)"), ""]
    head = (f"{'#':>3} {'player':<26}" + "".join(f"{e[:9]:>10}" for e in evs)
            + f"{'GP':>5}{'TB1':>5}{'TB2':>5}{'TB3':>6}{'prize':>12}  status")
    lines += [head, "-" * len(head)]
    for p in d["players"]:
        cells = "".join(f"{'-' if x is None else x:>10}" for x in p["events"])
        cp = p["classical_points"]
        cps = f"{int(cp)}½" if cp % 1 else f"{int(cp)}"
        lines.append(f"{p['rank']:>3} {p['name'][:25]:<26}{cells}{p['points']:>5}{p['events_won']:>5}"
                     f"{p['second_places']:>5}{cps:>6}{p['prize']:>12,.2f}  {p['status'] or ''}")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- exact match odds
def game_probs(model, control, rt_w, rt_b):
    pw, pd, pb = model.wdl(control, rt_w, rt_b)
    return pw, pd, pb


def odds(scn: KnockoutSeries, model, at) -> dict:
    known = counted_matches(scn, at)
    out = []
    for e, ev in enumerate(scn.events):
        n_rounds = ev.size.bit_length() - 1
        alive = list(ev.positions)
        for r in range(n_rounds):
            nxt = []
            for j in range(len(alive) // 2):
                up, lo = alive[2 * j], alive[2 * j + 1]
                m = known.get((e, r, j))
                if m is not None and m.winner is not None:
                    nxt.append(m.winner)
                    continue
                if up is not None and lo is not None:
                    pu, pl = scn.players[up], scn.players[lo]
                    white = None
                    if m is not None and m.white is not None:
                        white = 0 if m.white == up else 1
                    kn = tuple(m.games) if m is not None else ()
                    pr = match_probability(scn.steps, model, pu.ratings, pl.ratings, white, kn)
                    out.append({"event": ev.name, "round": round_name(r, n_rounds),
                                "players": [pu.name, pl.name],
                                "p_win": [pr["p_first"], 1 - pr["p_first"]],
                                "p_tiebreak": pr["p_tiebreak"]})
                nxt.append(None)
            alive = nxt
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest", "matches": out}


def render_odds(d: dict) -> str:
    lines = [f"{d['scenario']}  at {d['at']}: matches whose players are known", ""]
    if not d["matches"]:
        lines.append("(none: every match is decided or waits for an earlier one)")
    for m in d["matches"]:
        a, b = m["players"]
        lines.append(f"{m['event'][:12]:<13}{m['round']:<7}{a[:24]:<25}{100 * m['p_win'][0]:5.1f} %  "
                     f"{b[:24]:<25}{100 * m['p_win'][1]:5.1f} %   tiebreaks {100 * m['p_tiebreak']:4.1f} %")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- plan
class KnockoutSeriesPlan:
    """Flat arrays for ``kernels.knockout_nb.simulate_series_nb`` (see its docstring)."""

    points_scale = 1.0

    def __init__(self, scn: KnockoutSeries, model, at, offsets: bool = False, fixed=None):
        self.scn = scn
        counting = scn.counting
        self.names = [scn.players[i].name for i in counting]
        self.n_places = len(counting)
        self.qualifying_places = scn.qualifying_places
        self.currency = scn.currency
        self.counter_names = []
        F = len(scn.players)
        self.plan_index = np.full(F, -1, np.int64)
        for k, i in enumerate(counting):
            self.plan_index[i] = k
        self.qual_else = np.array([1 if scn.players[i].qualified_elsewhere else 0 for i in counting],
                                  np.int64)
        self.offsets = bool(offsets)
        self.params = model.params
        self.rt0 = model.rating_table([p.ratings for p in scn.players])
        self.offset_sd = np.array([model.offset_sd[c] for c in ("classical", "rapid", "blitz")])
        # steps
        self.steps = np.array([[s.kind, model.index(s.control, file=scn.file, key="match.steps")
                                if s.control else 0, s.games] for s in scn.steps], np.int64)
        n_games = sum(s.games if s.kind == STEP_GAMES else 1 for s in scn.steps)
        # game thresholds per control row, white, black (offsets off)
        from ..kernels.knockout_nb import threshold_table_nb
        self.thr = threshold_table_nb(self.params, self.rt0)
        # events
        n_ev = len(scn.events)
        S = max(ev.size for ev in scn.events)
        self.ev_size = np.array([ev.size for ev in scn.events], np.int64)
        self.pos = np.full((n_ev, S), -1, np.int64)
        for e, ev in enumerate(scn.events):
            self.pos[e, :ev.size] = ev.positions
        known = counted_matches(scn, at)
        known.update(fixed or {})   # what-if results (swing)
        ns = max(S - 1, 1)
        self.kstat = np.zeros((n_ev, ns), np.int64)
        self.kwin = np.zeros((n_ev, ns), np.int64)
        self.kstep = np.zeros((n_ev, ns), np.int64)
        self.kcls = np.zeros((n_ev, ns, 2), np.int64)
        self.kwhite = np.full((n_ev, ns), -1, np.int64)
        self.kfixed = np.full((n_ev, ns, max(n_games, 1)), -1, np.int64)
        for (e, r, j), m in known.items():
            size = scn.events[e].size
            flat = _flat_slot(size, r, j)
            if m.white is not None:
                self.kwhite[e, flat] = 0 if m.white == m.upper else 1
            if m.winner is not None:
                self.kstat[e, flat] = 1
                self.kwin[e, flat] = 0 if m.winner == m.upper else 1
                self.kstep[e, flat] = m.step
                self.kcls[e, flat] = (m.cls_upper, m.cls_lower)
            else:
                self.kstat[e, flat] = 2
                for g, c in enumerate(m.games):
                    self.kfixed[e, flat, g] = c
        # points and prizes by rounds from the end (0 = winner)
        R = max(ev.size.bit_length() - 1 for ev in scn.events)
        self.place_pts = np.array([_place_value(scn.place_points, b) for b in range(R + 1)], np.int64)
        self.place_prize = np.array([_place_value(scn.event_prizes, b) for b in range(R + 1)], np.float64)
        self.bonus = int(scn.classical_bonus)
        n = len(counting)
        self.overall = np.zeros(n)
        k = min(n, len(scn.overall_prizes))
        self.overall[:k] = scn.overall_prizes[:k]
        self.criteria = np.array(scn.criteria, np.int64)
        self.n_matches = int(sum(ev.size - 1 for ev in scn.events))
        from .base import PlanInfo
        self.info = PlanInfo(names=tuple(self.names), ratings=self.rt0[counting, 0].copy(),
                             n_places=self.n_places, points_scale=1.0, points_label="GP points",
                             qualifying_places=self.qualifying_places, currency=self.currency,
                             extra_probabilities=("wildcard",), player_extra=tuple(
                                 {"qualified_elsewhere": bool(self.qual_else[i])}
                                 for i in range(len(self.names))))

    def run_batch(self, seed: int, first: int, n: int) -> dict:
        from ..driver import ChunkTallies
        from ..kernels.knockout_nb import simulate_series_nb
        t = ChunkTallies(n, self.info)
        simulate_series_nb(np.uint64(seed), np.int64(first), np.int64(n), self.params, self.rt0,
                           self.thr, self.offsets, self.offset_sd, self.steps, self.ev_size,
                           self.pos, self.kstat, self.kwin, self.kstep, self.kcls, self.kwhite,
                           self.kfixed, self.place_pts, self.place_prize, self.bonus, self.overall,
                           self.criteria, self.plan_index, self.qual_else,
                           np.int64(self.qualifying_places), np.int64(self.n_matches),
                           t.place, t.qualify, t.extra["wildcard"], t.points, t.points_sq,
                           t.prize, t.prize_sq)
        return t.summed()

    extra_probabilities = ["wildcard"]

    @property
    def player_extra(self) -> list[dict]:
        return [{"qualified_elsewhere": bool(self.qual_else[i])} for i in range(len(self.names))]


def compile(scn: KnockoutSeries, model, at, offsets: bool = False, fixed=None) -> KnockoutSeriesPlan:
    for s in scn.steps:
        if s.control:
            model.index(s.control, file=scn.file, key="match.steps")
    return KnockoutSeriesPlan(scn, model, at, offsets, fixed)


# ----------------------------------------------------------------------------- swing
def open_matches(scn: KnockoutSeries, at):
    """The matches to be played next: (event, round, slot, upper, lower) of the earliest round
    that has a match with both players known and no result."""
    known = counted_matches(scn, at)
    for e, ev in enumerate(scn.events):
        n_rounds = ev.size.bit_length() - 1
        alive = list(ev.positions)
        for r in range(n_rounds):
            nxt, found = [], []
            for j in range(len(alive) // 2):
                up, lo = alive[2 * j], alive[2 * j + 1]
                m = known.get((e, r, j))
                if m is not None and m.winner is not None:
                    nxt.append(m.winner)
                    continue
                if up is not None and lo is not None and (m is None or not m.games):
                    found.append((e, r, j, up, lo))
                nxt.append(None)
            if found:
                return found
            alive = nxt
    return []


def swing(scn: KnockoutSeries, model, at, *, sims: int, seed: int, offsets: bool = False,
          round_no=None) -> dict:
    """What each of the next matches swings: every player's P(1st) and P(qualify) under each of
    its six results (either player winning 2-0 or 1.5-0.5 in the classical games, or on
    tiebreaks after 1-1).  The runs of a match share their random numbers (same seed, same
    replicas)."""
    from .. import driver

    if round_no is not None:
        raise ScenarioError("--round is for round robins; knock-out series swing the next matches",
                            key="--round", value=round_no)
    todo = open_matches(scn, at)
    if not todo:
        raise ScenarioError("no match left to play at this checkpoint", file=scn.file, key="--at",
                            value=at or "latest")
    names = [p.name for p in scn.players]
    base = driver.run(compile(scn, model, at, offsets), sims, seed, progress=False)
    plan_names = base.names
    out = []
    for e, r, j, up, lo in todo:
        pu, pl = scn.players[up], scn.players[lo]
        mp = match_probability(scn.steps, model, pu.ratings, pl.ratings)
        p_up_tb = mp["p_first"] - mp["p_classical"]
        outcomes = [  # (label, probability, winner, step, upper's and lower's classical halves)
            (f"{pu.name} wins 2-0", mp["p_2_0"], up, 0, 4, 0),
            (f"{pu.name} wins 1.5-0.5", mp["p_15_05"], up, 0, 3, 1),
            (f"{pu.name} wins on tiebreaks (1-1)", p_up_tb, up, UNKNOWN_TB_STEP, 2, 2),
            (f"{pl.name} wins on tiebreaks (1-1)", mp["p_tiebreak"] - p_up_tb, lo, UNKNOWN_TB_STEP, 2, 2),
            (f"{pl.name} wins 1.5-0.5", mp["p_05_15"], lo, 0, 1, 3),
            (f"{pl.name} wins 2-0", mp["p_0_2"], lo, 0, 0, 4),
        ]
        cols = []
        for label, p, w, step, c_up, c_lo in outcomes:
            m = Match(event=e, round=r, slot=j, upper=up, lower=lo, white=None, games=(),
                      winner=w, step=step, cls_upper=c_up, cls_lower=c_lo, source="what-if")
            res = driver.run(compile(scn, model, at, offsets, {(e, r, j): m}), sims, seed,
                             progress=False)
            cols.append((label, p, res))
        players = []
        for i, name in enumerate(plan_names):
            pf = [c[2].tallies["place"][i, 0] / c[2].sims for c in cols]
            pq = [c[2].tallies["qualify"][i] / c[2].sims for c in cols]
            players.append({"name": name, "p_first": pf, "p_qualify": pq,
                            "swing_first": max(pf) - min(pf), "swing_qualify": max(pq) - min(pq)})
        players.sort(key=lambda x: -(x["swing_first"] + x["swing_qualify"]))
        n_rounds = scn.events[e].size.bit_length() - 1
        out.append({"event": scn.events[e].name, "round": round_names(n_rounds)[r],
                    "players": [names[up], names[lo]],
                    "outcomes": [{"result": c[0], "p": c[1]} for c in cols],
                    "swing": players})
    now = [{"name": n, "p_first": float(base.tallies["place"][i, 0] / base.sims),
            "p_qualify": float(base.tallies["qualify"][i] / base.sims)}
           for i, n in enumerate(plan_names)]
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest", "sims": sims,
            "seed": seed, "qualifying_places": scn.qualifying_places, "now": now,
            "matches": out}


def render_swing(d: dict) -> str:
    lines = [f"{d['scenario']}  at {d['at']}: what the next matches swing "
             f"({d['sims']:,} simulations per result, common random numbers)", ""]
    for m in d["matches"]:
        lines.append(f"{m['event']} {m['round']}: {m['players'][0]} v {m['players'][1]}")
        for k, o in enumerate(m["outcomes"]):
            lines.append(f"  ({k + 1}) {o['result']:<52}{100 * o['p']:5.1f} %")
        k = len(m["outcomes"])
        cols = "/".join(f"({i + 1})" for i in range(k))
        lines.append(f"  {'player':<26}{'P(1st) % if ' + cols:>{8 * k + 8}}"
                     f"{'P(qualify) % if ' + cols:>{8 * k + 12}}")
        for p in m["swing"]:
            if p["swing_first"] < 0.005 and p["swing_qualify"] < 0.005:
                continue
            f = " / ".join(f"{100 * x:5.1f}" for x in p["p_first"])
            q = " / ".join(f"{100 * x:5.1f}" for x in p["p_qualify"])
            lines.append(f"  {p['name'][:25]:<26}{f:>{8 * k + 8}}{q:>{8 * k + 12}}")
        lines.append("")
    return "\n".join(lines).rstrip()


# ----------------------------------------------------------------------------- who can still
WHOCAN_BUDGET = 30.0   # seconds per whocan call; rows not settled in time are "undetermined"


def whocan(scn: KnockoutSeries, at, budget: float | None = WHOCAN_BUDGET,
           heuristics: bool = True) -> dict:
    """Exact clinched / alive / eliminated for first place and the qualifying places, by MILP
    (``simcycle/whocan_knockout.py``); rows follow the standings order.  ``heuristics`` = try
    the cheap candidate result sets (each replayed and checked) before a MILP; off, every
    question is a MILP (same answers, slower: used by the tests)."""
    from ..whocan_knockout import Budget, Pool, SeriesMILP, analyse, remaining_slots, seed_pool

    st = standings(scn, at)
    idx = {p.name: i for i, p in enumerate(scn.players)}
    order = [idx[r["name"]] for r in st["players"]]
    model = SeriesMILP(scn, at)
    bud = Budget(budget)
    counting = scn.counting
    pool = (seed_pool(model, {idx[r["name"]]: r["points"] for r in st["players"]})
            if heuristics else Pool(model, reuse=False))
    first = analyse(model, {x: [j for j in counting if j != x] for x in order}, 1, bud, pool)
    eligible = [j for j in counting if not scn.players[j].qualified_elsewhere]
    q = scn.qualifying_places
    qual = analyse(model, {x: (None if scn.players[x].qualified_elsewhere
                               else [j for j in eligible if j != x]) for x in order}, q, bud, pool)
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
            "matches_left": len(remaining_slots(scn, model.known)),
            "qualifying_places": q,
            "criteria": ["points"] + [k for k, v in SERIES_CRITERIA.items()
                                      if v in model_criteria(scn)],
            "points": {r["name"]: r["points"] for r in st["players"]},
            "budget_seconds": budget,
            "targets": {"first": [first[x] for x in order], "qualify": [qual[x] for x in order]}}


def model_criteria(scn):
    from ..whocan_knockout import det_criteria
    return det_criteria(scn)


def render_whocan(d: dict) -> str:
    from ..whocan.render import render_targets

    def path(r):
        if not r["path"]:
            return []
        if len(r["path"]) <= 8:
            return ["e.g. " + "; ".join(f"{g['event']} {g['round']}: {g['result']}"
                                        for g in r["path"])]
        own = [g for g in r["path"] if r["name"] in g["players"]]
        mine = "; ".join(f"{g['event']} {g['round']}: {g['result']}" for g in own)
        return [f"e.g. (all {len(r['path'])} matches in --json)"
                + (f" his own: {mine}" if own else " he has no match left")]

    return render_targets(
        d, [f"{d['scenario']}  at {d['at']}: {d['matches_left']} matches left; compared on "
            + ", ".join(d["criteria"]) + " (then head-to-head / lots = tiebreak)"],
        qualify_title=f"a qualifying place (top {d['qualifying_places']} not qualified elsewhere)",
        level="head-to-head / lots decide", path_lines=path)
