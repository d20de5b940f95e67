"""A group-series scenario: the frozen record the rest of the format reads, and its loader.

The schema (``schema.py``) has checked every key, type and range; :func:`load` adds what a
schema cannot see: player names, rosters and substitutes, groups and their games against the
schedule, play-off places, knock-out pairings against the group winners, the prize fund.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...enums import RESULT_CODES, UNPLAYED
from ...errors import ScenarioError
from ...schema import convert
from ..shared.scenario import FromSource, Source, head_of, index_players
from .rules import POINT, group_places, group_scores, schedule
from .schema import KO_ROUNDS, GroupSeriesFile

MAX_EVENTS = 9

DEFAULT_KIND = "group-stage"   # the pools of a group stage that feeds a knock-out


@dataclass(frozen=True)
class Player:
    name: str
    aliases: tuple
    federation: str
    rating: float             # classical
    rapid: float | None
    blitz: float | None
    seed: int | None
    substitute: bool


@dataclass(frozen=True)
class Group:
    name: str
    players: tuple            # 4 player ids, slot order (Berger numbers 1-4)
    games: tuple              # 12 (round, white id, black id, result code)
    playoff: tuple | None     # places after the play-off: tuple of tuples of ids (shared)
    playoff_note: str = ""


@dataclass(frozen=True)
class Match:
    round: str
    a: int
    b: int
    classical: tuple          # result codes from a's side (0 a won, 1 draw, 2 a lost)
    winner: int
    tiebreak: str = ""


@dataclass(frozen=True)
class Event:
    name: str
    roster: tuple
    substitutes: tuple        # (player, replaces)
    ratings: dict             # id -> classical rating at this event
    groups: tuple             # empty when not drawn
    knockout: dict            # round -> Match


@dataclass(frozen=True)
class GroupSeries(FromSource):
    source: Source
    players: tuple            # Player
    events: tuple             # Event
    rules: dict               # reading name -> chosen reading (schema.READINGS)
    group_points: tuple       # points of group places 1-4
    ko_points: int            # points for a knock-out match won
    win_points: int           # series points per classical game won (group and knock-out)
    prizes: dict              # per_player, per_group_point, per_knockout_point
    qualifying_places: int
    tiebreaks: tuple          # criterion names (schema.CRITERIA), "lots" last when given
    currency: str
    max_events: int
    substitutes_count: bool
    controls: dict            # classical / rapid / blitz / armageddon -> control name
    index: dict = field(default_factory=dict, compare=False, repr=False)  # casefold name -> id



class _Loader:
    """Cross-checks of one file: player lookups and one-line refusals naming file and key."""

    def __init__(self, doc: GroupSeriesFile, file: str):
        self.f = file
        self.doc = doc
        self.idx = index_players(doc.players, file)
        self.sched = schedule(doc.rules.schedule)

    def fail(self, msg, key=None, value=None):
        raise ScenarioError(msg, file=self.f, key=key, value=value)

    def pid(self, name, key) -> int:
        return self.idx.find(name, key)

    def result(self, text, key) -> int:
        t = text.strip()
        if t not in RESULT_CODES:
            self.fail('impossible result: must be "1-0", "0-1", "1/2-1/2" or "*" (not played)',
                      key, text)
        return RESULT_CODES[t]


def load(raw: dict, file: str) -> GroupSeries:
    f = file
    doc = convert(raw, GroupSeriesFile, f)
    src = head_of(doc.scenario, f, DEFAULT_KIND)
    ld = _Loader(doc, f)
    _check_series(ld)
    players = tuple(Player(p.name, tuple(p.aliases), p.federation, float(p.rating),
                           None if p.rapid is None else float(p.rapid),
                           None if p.blitz is None else float(p.blitz), p.seed, p.substitute)
                    for p in doc.players)
    events = _events(ld)
    pr = doc.prizes
    return GroupSeries(
        source=src, players=players, events=events,
        rules={k: getattr(doc.rules, k) for k in doc.rules.__struct_fields__},
        group_points=tuple(doc.points.group), ko_points=doc.points.knockout_match_won,
        win_points=doc.points.classical_win,
        prizes={"per_player": float(pr.per_player), "per_group_point": float(pr.per_group_point),
                "per_knockout_point": float(pr.per_knockout_point)},
        qualifying_places=doc.series.qualifying_places, tiebreaks=tuple(doc.series.tiebreaks),
        currency=doc.series.currency, max_events=doc.series.max_events_per_player,
        substitutes_count=doc.series.substitutes_count,
        controls={k: getattr(doc.controls, k) for k in doc.controls.__struct_fields__},
        index=ld.idx.mapping())


def _check_series(ld: _Loader) -> None:
    doc = ld.doc
    tbs = list(doc.series.tiebreaks)
    for i, t in enumerate(tbs):
        if t == "lots" and i != len(tbs) - 1:
            ld.fail('"lots" must come last', f"series.tiebreaks[{i}]", t)
    if len(set(tbs)) != len(tbs):
        ld.fail("a criterion is listed twice", "series.tiebreaks", tbs)
    gpts = doc.points.group
    if not (gpts[0] > gpts[1] >= gpts[2] >= gpts[3]):
        ld.fail("group points must fall with the place, first strictly above second",
                "points.group", list(gpts))
    pr = doc.prizes
    if pr.fund_per_event is not None:
        paid = 16 * pr.per_player + pr.per_group_point * (4 * sum(gpts)) \
            + pr.per_knockout_point * 3 * doc.points.knockout_match_won
        if abs(paid - pr.fund_per_event) > 1e-6:
            ld.fail(f"the prize rules pay {paid:,.0f} an event, not the fund given",
                    "prizes.fund_per_event", pr.fund_per_event)
    if not doc.players:
        ld.fail("missing [[players]]", "players")
    if not doc.events:
        ld.fail("missing [[events]]", "events")
    if len(doc.events) > MAX_EVENTS:
        ld.fail(f"at most {MAX_EVENTS} events", "events", len(doc.events))


def _events(ld: _Loader) -> tuple:
    events = []
    count = [0] * len(ld.doc.players)
    gp6 = [POINT * x for x in ld.doc.points.group]
    for e, ev in enumerate(ld.doc.events):
        w = f"events[{e}]"
        roster = _roster(ld, ev, w, count)
        subs = _substitutes(ld, ev, w, roster)
        ratings = _event_ratings(ld, ev, w, roster)
        if ev.groups and len(ev.groups) != 4:
            ld.fail("an event has four groups (or none, when not drawn)", f"{w}.groups",
                    len(ev.groups))
        groups: list[Group] = []
        seen: dict = {}
        for g, gr in enumerate(ev.groups):
            gw = f"{w}.groups[{g}]"
            groups.append(_group(ld, gr, gw, roster, seen))
            if groups[-1].name in [x.name for x in groups[:-1]]:
                ld.fail("two groups with one name", f"{gw}.name", groups[-1].name)
        ko = _knockout(ld, ev, w, bool(groups))
        name = ev.name if ev.name is not None else f"Event {e + 1}"
        events.append(Event(name, tuple(roster), tuple(subs), ratings, tuple(groups), ko))
        _check_event(ld, events[-1], w, gp6)
    return tuple(events)


def _event_ratings(ld: _Loader, ev, w: str, roster) -> dict:
    """The event's own ratings {player: rating}, each of a player of its roster."""
    ratings = {}
    for nm, r in ev.ratings.items():
        i = ld.pid(nm, f"{w}.ratings")
        if i not in roster:
            ld.fail("rating given for a player who does not play this event",
                    f"{w}.ratings", nm)
        ratings[i] = float(r)
    return ratings


def _knockout(ld: _Loader, ev, w: str, has_groups: bool) -> dict:
    """The event's knock-out results {round: Match}: each round once, only once the groups
    are given."""
    ko = {}
    for j, m in enumerate(ev.knockout):
        mw = f"{w}.knockout[{j}]"
        mt = _match(ld, m, mw)
        if mt.round in ko:
            ld.fail("knock-out round entered twice", f"{mw}.round", mt.round)
        if not has_groups:
            ld.fail("knock-out results need the event's groups", mw)
        ko[mt.round] = mt
    return ko


def _roster(ld: _Loader, ev, w: str, count: list) -> list:
    if len(ev.players) != 16:
        ld.fail("an event has 16 players", f"{w}.players", len(ev.players))
    roster = []
    max_ev = ld.doc.series.max_events_per_player
    for j, nm in enumerate(ev.players):
        i = ld.pid(nm, f"{w}.players[{j}]")
        if i in roster:
            ld.fail("player listed twice in the event", f"{w}.players[{j}]", nm)
        roster.append(i)
        count[i] += 1
        if count[i] > max_ev:
            ld.fail(f"player in more than {max_ev} events (series.max_events_per_player)",
                    f"{w}.players[{j}]", nm)
    return roster


def _substitutes(ld: _Loader, ev, w: str, roster) -> list:
    subs = []
    for j, s in enumerate(ev.substitutes):
        sw = f"{w}.substitutes[{j}]"
        si = ld.idx.get(s.player)
        if si is None:
            ld.fail("substitute is not in the scenario's [[players]]", f"{sw}.player", s.player)
        ri = ld.pid(s.replaces, f"{sw}.replaces")
        if si not in roster:
            ld.fail("substitute does not play this event (not in its players)", f"{sw}.player",
                    s.player)
        if ri in roster:
            ld.fail("the replaced player still plays this event", f"{sw}.replaces", s.replaces)
        subs.append((si, ri))
    return subs


def _group(ld: _Loader, gr, gw: str, roster, seen: dict) -> Group:
    gname = gr.name if gr.name is not None else str(len(seen) // 4 + 1)
    if len(gr.players) != 4:
        ld.fail("a group has four players", f"{gw}.players", len(gr.players))
    ids = []
    for j, nm in enumerate(gr.players):
        i = ld.pid(nm, f"{gw}.players[{j}]")
        if i not in roster:
            ld.fail("group player does not play this event", f"{gw}.players[{j}]", nm)
        if i in seen:
            ld.fail(f"player already in group {seen[i]}", f"{gw}.players[{j}]", nm)
        seen[i] = gname
        ids.append(i)
    games = _group_games(ld, gr, gw, ids)
    playoff = None if gr.playoff is None else _playoff(ld, gr.playoff, f"{gw}.playoff")
    return Group(gname, tuple(ids), games, playoff,
                 "" if gr.playoff is None else gr.playoff.score)


def _group_games(ld: _Loader, gr, gw: str, ids: list) -> tuple:
    """The twelve games: those listed, the others added from the schedule as unplayed."""
    slot = {p: s for s, p in enumerate(ids)}
    games: dict = {}
    busy: set = set()
    for j, g in enumerate(gr.games):
        key = f"{gw}.games[{j}]"
        rd, wn, bn, res = g
        wi, bi = ld.pid(wn, key), ld.pid(bn, key)
        if wi not in slot or bi not in slot:
            ld.fail("player not in this group", key, wn if wi not in slot else bn)
        if wi == bi:
            ld.fail("a player cannot play himself", key, wn)
        if (wi, bi) in games:
            ld.fail("group game entered twice (same White and Black)", key, list(g))
        for p in (wi, bi):
            if (rd, p) in busy:
                ld.fail("player has two games in one round", key, list(g))
            busy.add((rd, p))
        games[(wi, bi)] = (rd, wi, bi, ld.result(res, key))
    for rd, ws, bs in ld.sched:
        wi, bi = ids[ws], ids[bs]
        if (wi, bi) not in games:
            if (rd, wi) in busy or (rd, bi) in busy:
                ld.fail(f"cannot fit the unlisted game {gr.players[ws]}-{gr.players[bs]} into "
                        f"round {rd} of the schedule; list it with its round", f"{gw}.games")
            busy.update({(rd, wi), (rd, bi)})
            games[(wi, bi)] = (rd, wi, bi, UNPLAYED)
    return tuple(sorted(games.values(), key=lambda t: (t[0], ids.index(t[1]))))


def _playoff(ld: _Loader, po, pw: str) -> tuple:
    out = []
    for j, item in enumerate(po.places):
        names = item if isinstance(item, list) else [item]
        grp_ids = tuple(ld.pid(nm, f"{pw}.places[{j}]") for nm in names)
        if not grp_ids:
            ld.fail("empty place", f"{pw}.places[{j}]")
        out.append(grp_ids)
    if not out:
        ld.fail("a play-off lists the places of the players level for first", f"{pw}.places")
    if len(out[0]) != 1:
        ld.fail("first place is never shared: the play-off decides it", f"{pw}.places[0]",
                po.places[0])
    return tuple(out)


def _match(ld: _Loader, m, mw: str) -> Match:
    if len(m.players) != 2:
        ld.fail("a match has two players", f"{mw}.players", m.players)
    a, b = ld.pid(m.players[0], f"{mw}.players[0]"), ld.pid(m.players[1], f"{mw}.players[1]")
    if a == b:
        ld.fail("a player cannot play himself", f"{mw}.players", m.players)
    if len(m.classical) != 2:
        ld.fail("a match has two classical games", f"{mw}.classical", m.classical)
    codes = tuple(ld.result(r, f"{mw}.classical[{j}]") for j, r in enumerate(m.classical))
    if UNPLAYED in codes:
        ld.fail("a finished match has both classical results", f"{mw}.classical", m.classical)
    return Match(m.round, a, b, codes, _match_winner(ld, m, mw, a, b, codes), m.tiebreak)


def _match_winner(ld: _Loader, m, mw: str, a: int, b: int, codes: tuple) -> int:
    """The match's winner: the classical games' when they are not level, the entry's
    ``winner`` (one of the two, agreeing with the classical games) otherwise or as well."""
    diff = sum((1, 0, -1)[c] for c in codes)
    if m.winner is None:
        if diff == 0:
            ld.fail("level after the classical games: say who won the tiebreak", f"{mw}.winner")
        return a if diff > 0 else b
    winner = ld.pid(m.winner, f"{mw}.winner")
    if winner not in (a, b):
        ld.fail("winner is not one of the match's players", f"{mw}.winner", m.winner)
    if diff != 0 and winner != (a if diff > 0 else b):
        ld.fail("winner contradicts the classical results", f"{mw}.winner", m.winner)
    return winner


def _check_event(ld: _Loader, ev: Event, w: str, gp6) -> None:
    winners = [_check_playoff(ld, gr, f"{w}.groups[{g}]", gp6) for g, gr in enumerate(ev.groups)]
    ko = ev.knockout
    need = {"sf1": (winners[0], winners[1]) if ev.groups else (None, None),
            "sf2": (winners[2], winners[3]) if ev.groups else (None, None)}
    for rd in KO_ROUNDS:
        if rd not in ko:
            continue
        m = ko[rd]
        mw = f"{w}.knockout({rd})"
        if rd == "final":
            if "sf1" not in ko or "sf2" not in ko:
                ld.fail("a final needs both semi-finals entered", mw)
            exp = (ko["sf1"].winner, ko["sf2"].winner)
        else:
            exp = need[rd]
            if None in exp:
                ld.fail("knock-out entered before its groups are finished (games and "
                        "play-offs)", mw)
        if {m.a, m.b} != set(exp):
            ld.fail("knock-out pairing contradicts the group winners" if rd != "final"
                    else "final pairing contradicts the semi-final winners", f"{mw}.players")


def _check_playoff(ld: _Loader, gr: Group, gw: str, gp6):
    """The group's winner when known (games and play-off), after checking its play-off."""
    score, _, complete = group_scores(gr)
    if gr.playoff is not None:
        if not complete:
            ld.fail("play-off given but the group's games are not all played", f"{gw}.playoff")
        top = max(score)
        tied = {gr.players[s] for s in range(4) if score[s] == top}
        given = [p for place in gr.playoff for p in place]
        if len(tied) == 1:
            ld.fail("play-off given but nobody is level with the leader", f"{gw}.playoff")
        if len(set(given)) != len(given) or set(given) != tied:
            ld.fail("play-off places must list exactly the players level for first",
                    f"{gw}.playoff.places")
    pl = group_places(gr, gp6)
    return None if pl is None else gr.players[pl.index(gp6[0])]
