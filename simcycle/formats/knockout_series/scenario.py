"""A knock-out-series scenario: the frozen record the rest of the format reads, and its loader.

The schema (``schema.py``) has checked every key, type and range; :func:`load` adds what a
schema cannot see: player names, the events' fields and brackets, each match entry against the
bracket and the match steps, and the per-event rating lists.

Conventions
- A bracket of ``size`` players (a power of two) is a list of positions; round 0 pairs positions
  (0, 1), (2, 3), ...; the winner of slot j of a round meets the winner of slot j ^ 1 in the
  next.  In a slot the *upper* player comes from the even position / slot, the *lower* from the
  odd one (``shared/brackets.py``).
- Game codes from a player's side: 0 won, 1 drawn, 2 lost (``enums.SCORE_CODES``).
- Classical points are kept in half points, GP points as whole points, money as floats.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...enums import SCORE_CODES, SER_LOTS, SERIES_CRITERIA, STEP_GAMES, STEP_KINDS, UNKNOWN_TB_STEP
from ...errors import ScenarioError
from ...schema import convert
from ..shared.brackets import round_names, seeding_order
from ..shared.matches import Step, replay, step_boundaries
from ..shared.scenario import FromSource, Source, head_of, index_players
from .schema import KnockoutSeriesFile

DEFAULT_KIND = "knockout"   # a knock-out event of short matches


@dataclass(frozen=True)
class Player:
    name: str
    federation: str
    ratings: dict            # the player's own ratings (in force from event 1)
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
    ratings: tuple       # per player (all of them): the rating dict in force at this event


@dataclass(frozen=True)
class KnockoutSeries(FromSource):
    source: Source
    players: tuple
    events: tuple
    steps: tuple
    matches: tuple           # sorted by (event, round, slot)
    place_points: tuple      # winner, runner-up, SF losers, QF losers, ... (last repeats)
    classical_bonus: int
    event_prizes: tuple      # same order as place_points
    overall_prizes: tuple
    criteria: tuple          # series tiebreak codes (enums.SER_*) after GP points
    qualifying_places: int
    currency: str
    unknown_classical_win: tuple = (3, 1)   # Reading: classical half points when only "won
    #                                          in classical" is known


    @property
    def counting(self) -> list[int]:
        return [i for i, p in enumerate(self.players) if p.counts]


def load(raw: dict, file: str) -> KnockoutSeries:
    f = file
    doc = convert(raw, KnockoutSeriesFile, f)
    src = head_of(doc.scenario, f, DEFAULT_KIND)
    ser = doc.series
    criteria = [SERIES_CRITERIA[c] for c in ser.tiebreaks]
    if not criteria or criteria[-1] != SER_LOTS:
        criteria.append(SER_LOTS)   # a strict order in the end, always
    ucw = _unknown_classical_win(ser.unknown_classical_win, f)
    steps = _steps(doc.match.steps, f)
    idx = index_players(doc.players, f)
    qual = {idx.find(q, f"series.qualified_elsewhere[{k}]")
            for k, q in enumerate(ser.qualified_elsewhere)}
    players = tuple(_player(p, i, i in qual, len(doc.events), f)
                    for i, p in enumerate(doc.players))
    events, matches = [], []
    ratings = tuple(dict(p.ratings) for p in players)
    for e, ev in enumerate(doc.events):
        ratings = _event_ratings(ev, e, ratings, idx, f)
        event = _event(ev, e, players, ratings, idx, f)
        events.append(event)
        matches.extend(_matches(ev, e, event.positions, players, idx, steps, ucw, f))
    _check_feeders(matches, players, f)
    matches.sort(key=lambda m: (m.event, m.round, m.slot))
    return KnockoutSeries(
        source=src, players=players, events=tuple(events), steps=tuple(steps),
        matches=tuple(matches), place_points=tuple(ser.place_points),
        classical_bonus=ser.classical_win_bonus,
        event_prizes=tuple(float(x) for x in ser.event_prizes),
        overall_prizes=tuple(float(x) for x in ser.overall_prizes), criteria=tuple(criteria),
        qualifying_places=ser.qualifying_places, currency=ser.currency,
        unknown_classical_win=(int(round(2 * ucw[0])), int(round(2 * ucw[1]))))


def _unknown_classical_win(ucw, f: str):
    """``series.unknown_classical_win`` checked (the winner's and loser's classical points of
    a 2-game win, whole or half) and returned as it is."""
    if not (ucw[0] + ucw[1] == 2 and ucw[0] > ucw[1]) or any((2 * x) % 1 for x in ucw):
        raise ScenarioError("must be the winner's and loser's classical points of a 2-game win, "
                            "e.g. [1.5, 0.5]", file=f, key="series.unknown_classical_win",
                            value=list(ucw))
    return ucw


def _player(p, i: int, qualified: bool, n_ev: int, f: str) -> Player:
    """Player ``i`` of the file, his events (each once, each in the scenario) sorted."""
    if len(set(p.events)) != len(p.events):
        raise ScenarioError("an event is listed twice", file=f, key=f"players[{i}].events",
                            value=p.events)
    for e in p.events:
        if e > n_ev:
            raise ScenarioError(f"the scenario has {n_ev} events", file=f,
                                key=f"players[{i}].events", value=e)
    return Player(p.name, p.federation, p.ratings(), tuple(sorted(p.events)), p.counts,
                  qualified, p.note)


def _steps(raw_steps, f: str) -> list[Step]:
    steps = []
    for k, s in enumerate(raw_steps):
        where = f"match.steps[{k}]"
        if s.control is None and s.kind != "lots":
            raise ScenarioError("missing key", file=f, key=f"{where}.control")
        if k == 0 and s.kind != "games":
            raise ScenarioError('the first step is the classical part: kind must be "games"',
                                file=f, key=f"{where}.kind", value=s.kind)
        control = s.control or ""
        games = s.games if s.games is not None else (2 if s.kind == "games" else 1)
        steps.append(Step(STEP_KINDS[s.kind], control, games, s.name or control or s.kind))
    if len({s.name for s in steps}) != len(steps):
        raise ScenarioError("step names must differ (give each a name)", file=f,
                            key="match.steps")
    return steps


def _event_ratings(ev, e: int, prev: tuple, idx, f: str) -> tuple:
    """The rating dicts in force at event e: the previous event's, changed by its tables."""
    if not (ev.ratings or ev.rapid or ev.blitz):
        return prev
    cur = [dict(r) for r in prev]
    for cls, key, table in (("classical", "ratings", ev.ratings), ("rapid", "rapid", ev.rapid),
                            ("blitz", "blitz", ev.blitz)):
        for name, value in table.items():
            cur[idx.find(name, f"events[{e}].{key}")][cls] = float(value)
    return tuple(cur)


def _event(ev, e: int, players, ratings, idx, f: str) -> Event:
    where = f"events[{e}]"
    field_ = [i for i, p in enumerate(players) if (e + 1) in p.events]
    size = len(field_)
    if size < 2 or size & (size - 1):
        raise ScenarioError(f"an event needs a power of two of players (2, 4, 8, 16, ...); "
                            f"{size} are scheduled for it (players' events)", file=f, key=where,
                            value=size)
    if ev.bracket is None:   # seeded by the classical ratings in force at this event
        seeded = sorted(field_, key=lambda i: (-ratings[i]["classical"], players[i].name))
        pos = [seeded[s] for s in seeding_order(size)]
    else:
        pos = []
        for k, nm in enumerate(ev.bracket):
            i = idx.find(nm, f"{where}.bracket[{k}]")
            if (e + 1) not in players[i].events:
                raise ScenarioError(f"player is not scheduled for event {e + 1} (see their events)",
                                    file=f, key=f"{where}.bracket[{k}]", value=nm)
            if i in pos:
                raise ScenarioError("player twice in the bracket", file=f,
                                    key=f"{where}.bracket[{k}]", value=nm)
            pos.append(i)
        if len(pos) != size:
            raise ScenarioError(f"the bracket must list all {size} players scheduled for this "
                                "event", file=f, key=f"{where}.bracket", value=len(pos))
    return Event(ev.name or f"event {e + 1}", size, tuple(pos), ev.bracket is not None, ratings)


def _check_feeders(matches, players, f: str) -> None:
    """Bracket consistency: the earlier matches of both players entered, won by them."""
    known = {(m.event, m.round, m.slot): m for m in matches}
    for m in matches:
        if m.round == 0:
            continue
        for side, pl in ((0, m.upper), (1, m.lower)):
            fm = known.get((m.event, m.round - 1, 2 * m.slot + side))
            if fm is None or fm.winner != pl:
                raise ScenarioError(
                    "these players cannot meet in this round: the earlier match of "
                    f"{players[pl].name} in this event is not entered as won by them", file=f,
                    key=f"events[{m.event}].matches ({m.source})", value=players[pl].name)


# ---- match entries ---------------------------------------------------------------------------
def _score(code: int) -> int:
    """Half points of a game code from the player's side."""
    return {0: 2, 1: 1, 2: 0}[code]


def _codes(vals, f: str, key: str) -> list[int]:
    out = []
    for k, x in enumerate(vals):
        if x not in SCORE_CODES:
            raise ScenarioError("a game result is the first-listed player's score: 1, 0.5 or 0",
                                file=f, key=f"{key}[{k}]", value=x)
        out.append(SCORE_CODES[x])
    return out


def _matches(ev, e: int, pos, players, idx, steps, ucw, f: str) -> list[Match]:
    """Validate the [[events.matches]] of one event."""
    n_rounds = len(pos).bit_length() - 1
    names = round_names(n_rounds)
    aliases = [f"r{k + 1}" for k in range(n_rounds)]
    where_pos = {p: k for k, p in enumerate(pos)}
    seen: set = set()
    out = []
    for k, m in enumerate(ev.matches):
        mw = f"events[{e}].matches[{k}]"
        if m.round in names:
            r = names.index(m.round)
        elif m.round in aliases:
            r = aliases.index(m.round)
        else:
            raise ScenarioError("must be one of " + ", ".join(dict.fromkeys(names + aliases)),
                                file=f, key=f"{mw}.round", value=m.round)
        a, b = (idx.find(x, f"{mw}.players[{j}]") for j, x in enumerate(m.players))
        for j, x in enumerate((a, b)):
            if x not in where_pos:
                raise ScenarioError(f"player is not scheduled for event {e + 1}", file=f,
                                    key=f"{mw}.players[{j}]", value=players[x].name)
        if a == b:
            raise ScenarioError("a player cannot meet himself", file=f, key=f"{mw}.players",
                                value=list(m.players))
        pa, pb = where_pos[a], where_pos[b]
        if pa >> (r + 1) != pb >> (r + 1) or (pa >> r) == (pb >> r):
            raise ScenarioError(f"these players cannot meet in round {names[r]} of this bracket "
                                f"(positions {pa + 1} and {pb + 1})", file=f,
                                key=f"{mw}.players", value=list(m.players))
        for x in (a, b):
            if (r, x) in seen:
                raise ScenarioError("duplicate entry: this player already has a match in this "
                                    "round", file=f, key=f"{mw}.players", value=players[x].name)
            seen.add((r, x))
        out.append(_entry(m, mw, e, r, pa >> (r + 1), (a, b), (pa >> r) & 1 == 1, players, idx,
                          steps, ucw, f, names[r]))
    return out


def _member(name, pair, players, idx, f: str, key: str) -> int | None:
    """A player named in an entry (white, winner): one of the two, or None."""
    if name is None:
        return None
    i = idx.find(name, key)
    if i not in pair:
        raise ScenarioError("must be one of the two players", file=f, key=key,
                            value=players[i].name)
    return i


def _entry(m, mw, e, r, slot, pair, flip, players, idx, steps, ucw, f, rn) -> Match:
    """One match entry: what it says, from the first-listed player's side, then turned to the
    upper player's side (``flip``: the first-listed player is the lower one)."""
    a, b = pair
    n_cls = steps[0].games
    white = _member(m.white, pair, players, idx, f, f"{mw}.white")
    winner = _member(m.winner, pair, players, idx, f, f"{mw}.winner")
    cls = _codes(m.classical, f, f"{mw}.classical")
    if len(cls) > n_cls:
        raise ScenarioError(f"the classical part has {n_cls} games", file=f,
                            key=f"{mw}.classical", value=len(cls))
    tbs = _codes(m.tiebreaks, f, f"{mw}.tiebreaks")
    step_names = [s.name for s in steps]
    _check_decided_by(m.decided_by, step_names, f, mw)
    res_winner, res_step, fixed = _from_games(cls, tbs, steps, f, mw)
    score_cls = None
    if m.score is not None:
        res_winner, res_step, score_cls = _from_score(m.score, cls, winner, a, res_winner,
                                                      res_step, steps, f, mw)
    if m.decided_by is not None:
        res_step = _from_decided(m.decided_by, cls, winner, res_step, step_names, steps, f, mw)
    if winner is not None:
        res_winner = _stated_winner(winner, a, res_winner, res_step, players, f, mw)
    complete = res_winner is not None
    cls_pts = _classical_points(cls, complete, res_winner, res_step, score_cls, n_cls, ucw)
    if not complete and not cls and white is None:
        raise ScenarioError("the entry gives no result: give classical games, score, or winner "
                            "and decided_by", file=f, key=mw)
    if flip:   # to the upper player's side
        a, b, cls_pts, fixed = b, a, cls_pts[::-1], [2 - c for c in fixed]
    return Match(e, r, slot, a, b, white, tuple(fixed),
                 pair[res_winner] if complete else None,
                 res_step if complete else -1, cls_pts[0], cls_pts[1],
                 source=m.source or f"{rn} {players[pair[0]].name}-{players[pair[1]].name}")


def _check_decided_by(decided, step_names: list[str], f: str, mw: str) -> None:
    """``decided_by``, when given, is "classical", "tiebreaks" or a step's name."""
    if decided is not None and decided not in step_names + ["classical", "tiebreaks"]:
        raise ScenarioError('must be "classical", "tiebreaks" or a step name: '
                            + ", ".join(step_names), file=f, key=f"{mw}.decided_by",
                            value=decided)


def _stated_winner(winner: int, a: int, res_winner, res_step, players, f: str, mw: str) -> int:
    """The entry's ``winner`` (0: the first-listed player ``a``, 1: the other), checked against
    the winner the games or score give and needing how the match was decided."""
    w = 0 if winner == a else 1
    if res_winner is not None and res_winner != w:
        raise ScenarioError("the winner disagrees with the games or score", file=f,
                            key=f"{mw}.winner", value=players[winner].name)
    if res_winner is None and res_step is None:
        raise ScenarioError("the winner needs how the match was decided (decided_by, score "
                            "or games)", file=f, key=f"{mw}.decided_by")
    return w


def _from_games(cls, tbs, steps, f, mw):
    """(winner 0/1 or None, deciding step or None, the known games) from the games entered."""
    n_cls = steps[0].games
    if tbs:
        if len(cls) != n_cls:
            raise ScenarioError("tiebreak games need the classical games first", file=f,
                                key=f"{mw}.tiebreaks", value=tbs)
        w, s, used = replay(steps, cls + tbs)
        if w is None or used != len(cls) + len(tbs):
            raise ScenarioError("these games do not end the match (level, or games after the "
                                "end)", file=f, key=f"{mw}.tiebreaks", value=tbs)
        return w, s, cls + tbs
    if len(cls) == n_cls:
        w, _, _ = replay(steps[:1], cls)
        if w is not None:
            return w, 0, list(cls)
    return None, None, list(cls)


def _from_score(score, cls, winner, a, res_winner, res_step, steps, f, mw):
    """(winner, deciding step, classical half points or None) from the match score."""
    n_cls = steps[0].games
    s = _score_step(score, steps, f, mw)
    w = _score_winner(score, winner, a, f, mw)
    cpts = (int(2 * score[0]), int(2 * score[1]))
    if s == 0 and len(cls) == n_cls and (sum(_score(c) for c in cls),
                                         sum(_score(2 - c) for c in cls)) != cpts:
        raise ScenarioError("score and classical games disagree", file=f, key=f"{mw}.score",
                            value=list(score))
    if res_winner is not None and (res_winner, res_step) != (w, s):
        raise ScenarioError("score and games disagree", file=f, key=f"{mw}.score",
                            value=list(score))
    return w, s, (cpts if s == 0 and len(cls) < n_cls else None)


def _score_step(score, steps, f, mw) -> int:
    """The step a match score ends the match at: half points each, as many games in all as
    the steps up to it hold, and a margin that step can end on (games: at least one point,
    at most its games; otherwise at most one)."""
    if any((2 * x) % 1 for x in score):
        raise ScenarioError("must be the two players' match scores, e.g. [2.5, 1.5]", file=f,
                            key=f"{mw}.score", value=list(score))
    bounds = step_boundaries(steps)
    tot = score[0] + score[1]
    if tot not in bounds:
        raise ScenarioError("this many games do not end the match at any step", file=f,
                            key=f"{mw}.score", value=list(score))
    s = bounds.index(tot)
    d = abs(score[0] - score[1])
    ok = 1 <= d <= steps[s].games if steps[s].kind == STEP_GAMES else d <= 1
    if not ok:
        raise ScenarioError("this score does not end the match", file=f, key=f"{mw}.score",
                            value=list(score))
    return s


def _score_winner(score, winner, a, f, mw) -> int:
    """0 if the first-listed player ``a`` won by the score, else 1; a level score (a drawn
    Armageddon) needs the entry's ``winner``."""
    if score[0] != score[1]:
        return 0 if score[0] > score[1] else 1
    if winner is None:
        raise ScenarioError("a level score (drawn Armageddon) needs the winner", file=f,
                            key=f"{mw}.winner")
    return 0 if winner == a else 1


def _from_decided(decided, cls, winner, res_step, step_names, steps, f, mw):
    """The deciding step from ``decided_by``, checked against what the entry already says."""
    n_cls = steps[0].games
    s = (0 if decided == "classical" else UNKNOWN_TB_STEP if decided == "tiebreaks"
         else step_names.index(decided))
    if res_step is not None:
        if not (res_step == s or (s == UNKNOWN_TB_STEP and res_step > 0)):
            raise ScenarioError("decided_by disagrees with the games or score", file=f,
                                key=f"{mw}.decided_by", value=decided)
        return res_step
    if len(cls) == n_cls:
        w0, _, _ = replay(steps[:1], cls)
        if s == 0 and w0 is None:
            raise ScenarioError("the classical games are level: the match was not decided in "
                                "classical", file=f, key=f"{mw}.decided_by", value=decided)
        if s != 0 and w0 is not None:
            raise ScenarioError("the classical games already decided the match", file=f,
                                key=f"{mw}.decided_by", value=decided)
    if winner is None:
        raise ScenarioError("decided_by needs the winner", file=f, key=f"{mw}.winner")
    return s


def _classical_points(cls, complete, res_winner, res_step, score_cls, n_cls, ucw):
    """Classical half points (first-listed, second-listed) of an entry."""
    if score_cls is not None:
        return score_cls
    if complete and res_step == 0 and len(cls) < n_cls:
        # Reading unknown_classical_win: the winner's classical points when only "won in the
        # classical games" is known
        hi, lo = int(round(ucw[0] * 2)), int(round(ucw[1] * 2))
        return (hi, lo) if res_winner == 0 else (lo, hi)
    if complete and res_step != 0 and len(cls) < n_cls:
        return (n_cls, n_cls)    # level after the classical games
    return (sum(_score(c) for c in cls), sum(_score(2 - c) for c in cls))
