"""Format ``group-series``: a series of events, each groups of four (double round robin) feeding
semi-finals and a final, with a points race over the series (FIDE Grand Prix 2022).

Plain Python: loading and validation, checkpoints, standings, the Plan for the kernels in
``simcycle.kernels.groups_nb``.  Rules and the named readings are documented in
``docs/format-group-series.md``.

Units: group and series points are kept in sixths of a point (shares of two or three places
stay integers), classical game points in half points, money in the scenario's currency.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..enums import STEP_ARMAGEDDON, STEP_GAMES
from ..errors import ScenarioError
from ..kinds import KINDS

# ---- named readings (FORMATS.md section 2) -------------------------------------------------
RULES = {
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
RULE_DEFAULTS = {"playoff_places": "elimination", "reduced_tie": "next-step",
                 "schedule": "berger-swapped", "future_groups": "draw", "draw_rule": "baskets",
                 "knockout_colours": "lots"}
CRITERIA = {"events-won": 1, "second-places": 2, "classical-points": 3, "classical-wins": 4}
COUNTER_NAMES = ["group-playoff", "armageddon", "qualifying-on-tiebreak", "qualifying-by-lots"]
RESULT_CODES = {"1-0": 0, "1/2-1/2": 1, "½-½": 1, "0.5-0.5": 1, "0-1": 2, "*": -1}
RESULT_TEXT = {0: "1-0", 1: "1/2-1/2", 2: "0-1", -1: "*"}
KO_ROUNDS = ("sf1", "sf2", "final")
ROUNDS = 6
POINT = 6  # sixths

# FIDE Handbook C.05 Annex 1, Berger table for 4 players (numbers 1-4): round -> (White, Black)
_BERGER4 = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


def schedule(kind: str) -> list[tuple[int, int, int]]:
    """(round, white slot, black slot) of a double round robin of four, slots 0-3.

    "berger": the Berger table, second cycle with colours reversed; "berger-swapped": the
    same with the last two rounds of the first cycle swapped (FIDE's recommendation for double
    round robins, so that no player has three games in a row with one colour)."""
    c1 = list(_BERGER4)
    if kind == "berger-swapped":
        c1 = [c1[0], c1[2], c1[1]]
    rounds = c1 + [[(b, a) for a, b in r] for r in c1]
    return [(k + 1, w - 1, b - 1) for k, r in enumerate(rounds) for w, b in r]


# ---- the scenario ----------------------------------------------------------------------
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
class GroupSeries:
    name: str
    file: str
    model_file: str | None
    players: tuple            # dicts: name, aliases, federation, rating, rapid, blitz, seed, substitute
    events: tuple
    rules: dict
    group_points: tuple
    ko_points: int
    prizes: dict
    qualifying_places: int
    tiebreaks: tuple
    currency: str
    max_events: int
    substitutes_count: bool
    controls: dict
    description: str = ""
    kind: str = "group-stage"   # event kind (simcycle.kinds): the model's draw term
    _index: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def names(self):
        return [p["name"] for p in self.players]


class _Ck:
    def __init__(self, file):
        self.file = file

    def fail(self, msg, key=None, value=None, has_value=None):
        raise ScenarioError(msg, file=self.file, key=key, value=value, has_value=has_value)

    def get(self, t, name, where, kind, default=..., lo=None, hi=None, choices=None):
        key = f"{where}.{name}" if where else name
        if not isinstance(t, dict) or name not in t:
            if default is ...:
                self.fail("missing key", key)
            return default
        v = t[name]
        if kind is float and isinstance(v, int) and not isinstance(v, bool):
            v = float(v)
        if not isinstance(v, kind) or (isinstance(v, bool) and kind is not bool):
            self.fail(f"must be {_KIND.get(kind, kind)}", key, v)
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            self.fail(f"must be between {lo} and {hi}", key, v)
        if choices is not None and v not in choices:
            self.fail("must be one of " + ", ".join(map(str, choices)), key, v)
        return v

    def only(self, t, allowed, where):
        for k in t:
            if k not in allowed:
                self.fail("unknown key (allowed: " + ", ".join(sorted(allowed)) + ")",
                          f"{where}.{k}" if where else k)


_KIND = {int: "a whole number", float: "a number", str: "a string", bool: "true or false",
         list: "a list", dict: "a table"}


def _result(ck, text, key):
    if not isinstance(text, str) or text.strip() not in RESULT_CODES:
        ck.fail('impossible result: must be "1-0", "0-1", "1/2-1/2" or "*" (not played)', key, text)
    return RESULT_CODES[text.strip()]


def load(path, raw: dict) -> GroupSeries:
    f = str(path)
    ck = _Ck(f)
    ck.only(raw, {"scenario", "series", "points", "prizes", "controls", "rules", "players",
                  "events"}, "")
    head = raw["scenario"]
    ck.only(head, {"name", "format", "description", "sources", "model", "kind"}, "scenario")
    name = ck.get(head, "name", "scenario", str)
    model_file = ck.get(head, "model", "scenario", str, default=None)
    if model_file is not None:
        model_file = str((Path(path).parent / model_file).resolve())
    series = raw.get("series", {})
    ck.only(series, {"qualifying_places", "max_events_per_player", "substitutes_count",
                     "tiebreaks", "currency"}, "series")
    nq = ck.get(series, "qualifying_places", "series", int, default=2, lo=0, hi=64)
    max_ev = ck.get(series, "max_events_per_player", "series", int, default=2, lo=1, hi=64)
    subs_count = ck.get(series, "substitutes_count", "series", bool, default=True)
    currency = ck.get(series, "currency", "series", str, default="EUR")
    tbs = ck.get(series, "tiebreaks", "series", list,
                 default=["events-won", "second-places", "classical-points", "classical-wins", "lots"])
    for i, t in enumerate(tbs):
        if t == "lots":
            if i != len(tbs) - 1:
                ck.fail('"lots" must come last', f"series.tiebreaks[{i}]", t)
        elif t not in CRITERIA:
            ck.fail("unknown criterion; known: " + ", ".join([*CRITERIA, "lots"]),
                    f"series.tiebreaks[{i}]", t)
    if len(set(tbs)) != len(tbs):
        ck.fail("a criterion is listed twice", "series.tiebreaks", tbs)
    pts = raw.get("points", {})
    ck.only(pts, {"group", "knockout_match_won"}, "points")
    gpts = ck.get(pts, "group", "points", list, default=[7, 4, 2, 0])
    if len(gpts) != 4 or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 100
                                 for x in gpts):
        ck.fail("must be four whole numbers (points for group places 1-4)", "points.group", gpts)
    if not (gpts[0] > gpts[1] >= gpts[2] >= gpts[3]):
        ck.fail("group points must fall with the place, first strictly above second",
                "points.group", gpts)
    kop = ck.get(pts, "knockout_match_won", "points", int, default=3, lo=0, hi=100)
    pr = raw.get("prizes", {})
    ck.only(pr, {"per_player", "per_group_point", "per_knockout_point", "fund_per_event"}, "prizes")
    prizes = {k: ck.get(pr, k, "prizes", float, default=d, lo=0, hi=1e9) for k, d in
              (("per_player", 0.0), ("per_group_point", 0.0), ("per_knockout_point", 0.0))}
    fund = ck.get(pr, "fund_per_event", "prizes", float, default=None, lo=0, hi=1e10)
    if fund is not None:
        paid = 16 * prizes["per_player"] + prizes["per_group_point"] * (4 * sum(gpts)) \
            + prizes["per_knockout_point"] * 3 * kop
        if abs(paid - fund) > 1e-6:
            ck.fail(f"the prize rules pay {paid:,.0f} an event, not the fund given",
                    "prizes.fund_per_event", fund)
    ctl = raw.get("controls", {})
    ck.only(ctl, {"classical", "rapid", "blitz", "armageddon"}, "controls")
    controls = {k: ck.get(ctl, k, "controls", str, default=d) for k, d in
                (("classical", "classical"), ("rapid", "rapid-15+10"), ("blitz", "blitz-3+2"),
                 ("armageddon", "armageddon-5v4"))}
    rr = raw.get("rules", {})
    ck.only(rr, set(RULES), "rules")
    rules = {k: ck.get(rr, k, "rules", str, default=RULE_DEFAULTS[k], choices=RULES[k])
             for k in RULES}

    # players
    plist = raw.get("players")
    if not isinstance(plist, list) or not plist:
        ck.fail("missing [[players]]", "players")
    index: dict = {}
    players = []
    for i, p in enumerate(plist):
        where = f"players[{i}]"
        if not isinstance(p, dict):
            ck.fail("must be a table", where)
        ck.only(p, {"name", "aliases", "federation", "rating", "rapid", "blitz", "seed",
                    "substitute"}, where)
        nm = ck.get(p, "name", where, str)
        aliases = ck.get(p, "aliases", where, list, default=[])
        for a in [nm, *aliases]:
            if not isinstance(a, str):
                ck.fail("aliases must be strings", f"{where}.aliases", a)
            if a.casefold() in index:
                ck.fail("player listed twice (name or alias)", f"{where}.name", a)
            index[a.casefold()] = i
        players.append({
            "name": nm, "aliases": tuple(aliases),
            "federation": ck.get(p, "federation", where, str, default=""),
            "rating": ck.get(p, "rating", where, float, lo=1000, hi=3500),
            "rapid": ck.get(p, "rapid", where, float, default=None, lo=1000, hi=3500),
            "blitz": ck.get(p, "blitz", where, float, default=None, lo=1000, hi=3500),
            "seed": ck.get(p, "seed", where, int, default=None, lo=1, hi=10000),
            "substitute": ck.get(p, "substitute", where, bool, default=False),
        })

    def pid(nm, key):
        if not isinstance(nm, str):
            ck.fail("must be a player's name", key, nm)
        i = index.get(nm.casefold())
        if i is None:
            ck.fail("unknown player (not in [[players]])", key, nm)
        return i

    sched = schedule(rules["schedule"])
    evs = raw.get("events")
    if not isinstance(evs, list) or not evs:
        ck.fail("missing [[events]]", "events")
    if len(evs) > 9:
        ck.fail("at most 9 events", "events", len(evs))
    events = []
    count = [0] * len(players)
    for e, ev in enumerate(evs):
        w = f"events[{e}]"
        if not isinstance(ev, dict):
            ck.fail("must be a table", w)
        ck.only(ev, {"name", "players", "substitutes", "ratings", "groups", "knockout"}, w)
        ename = ck.get(ev, "name", w, str, default=f"Event {e + 1}")
        rl = ck.get(ev, "players", w, list)
        if len(rl) != 16:
            ck.fail("an event has 16 players", f"{w}.players", len(rl))
        roster = []
        for j, nm in enumerate(rl):
            i = pid(nm, f"{w}.players[{j}]")
            if i in roster:
                ck.fail("player listed twice in the event", f"{w}.players[{j}]", nm)
            roster.append(i)
            count[i] += 1
            if count[i] > max_ev:
                ck.fail(f"player in more than {max_ev} events (series.max_events_per_player)",
                        f"{w}.players[{j}]", nm)
        subs = []
        for j, s in enumerate(ck.get(ev, "substitutes", w, list, default=[])):
            sw = f"{w}.substitutes[{j}]"
            if not isinstance(s, dict):
                ck.fail("must be a table { player = ..., replaces = ... }", sw, s)
            ck.only(s, {"player", "replaces"}, sw)
            sn = ck.get(s, "player", sw, str)
            if sn.casefold() not in index:
                ck.fail("substitute is not in the scenario's [[players]]", f"{sw}.player", sn)
            si = index[sn.casefold()]
            ri = pid(ck.get(s, "replaces", sw, str), f"{sw}.replaces")
            if si not in roster:
                ck.fail("substitute does not play this event (not in its players)", f"{sw}.player", sn)
            if ri in roster:
                ck.fail("the replaced player still plays this event", f"{sw}.replaces", s["replaces"])
            subs.append((si, ri))
        ratings = {}
        for nm, r in ck.get(ev, "ratings", w, dict, default={}).items():
            i = pid(nm, f"{w}.ratings")
            if i not in roster:
                ck.fail("rating given for a player who does not play this event", f"{w}.ratings", nm)
            ratings[i] = ck.get({nm: r}, nm, f"{w}.ratings", float, lo=1000, hi=3500)
        groups = []
        seen: dict = {}
        glist = ck.get(ev, "groups", w, list, default=[])
        if glist and len(glist) != 4:
            ck.fail("an event has four groups (or none, when not drawn)", f"{w}.groups", len(glist))
        for g, gr in enumerate(glist):
            gw = f"{w}.groups[{g}]"
            groups.append(_load_group(ck, gr, gw, pid, roster, seen, sched))
            if groups[-1].name in [x.name for x in groups[:-1]]:
                ck.fail("two groups with one name", f"{gw}.name", groups[-1].name)
        ko = {}
        for j, m in enumerate(ck.get(ev, "knockout", w, list, default=[])):
            mw = f"{w}.knockout[{j}]"
            mt = _load_match(ck, m, mw, pid)
            if mt.round in ko:
                ck.fail("knock-out round entered twice", f"{mw}.round", mt.round)
            if not groups:
                ck.fail("knock-out results need the event's groups", mw)
            ko[mt.round] = mt
        events.append(Event(ename, tuple(roster), tuple(subs), ratings, tuple(groups), ko))
        _check_event(ck, events[-1], w, gpts, rules)
    return GroupSeries(
        name=name, file=f, model_file=model_file, players=tuple(players), events=tuple(events),
        rules=rules, group_points=tuple(gpts), ko_points=kop, prizes=prizes,
        qualifying_places=nq, tiebreaks=tuple(tbs), currency=currency, max_events=max_ev,
        substitutes_count=subs_count, controls=controls,
        description=ck.get(head, "description", "scenario", str, default=""),
        kind=ck.get(head, "kind", "scenario", str, default="group-stage", choices=tuple(KINDS)),
        _index=index)


def _load_group(ck, gr, gw, pid, roster, seen, sched) -> Group:
    if not isinstance(gr, dict):
        ck.fail("must be a table", gw)
    ck.only(gr, {"name", "players", "games", "playoff"}, gw)
    gname = ck.get(gr, "name", gw, str, default=str(len(seen) // 4 + 1))
    gpl = ck.get(gr, "players", gw, list)
    if len(gpl) != 4:
        ck.fail("a group has four players", f"{gw}.players", len(gpl))
    ids = []
    for j, nm in enumerate(gpl):
        i = pid(nm, f"{gw}.players[{j}]")
        if i not in roster:
            ck.fail("group player does not play this event", f"{gw}.players[{j}]", nm)
        if i in seen:
            ck.fail(f"player already in group {seen[i]}", f"{gw}.players[{j}]", nm)
        seen[i] = gname
        ids.append(i)
    slot = {p: s for s, p in enumerate(ids)}
    games = {}
    busy = set()
    for j, g in enumerate(ck.get(gr, "games", gw, list, default=[])):
        key = f"{gw}.games[{j}]"
        if not isinstance(g, list) or len(g) != 4:
            ck.fail("a game is [round, White, Black, result]", key, g)
        rd, wn, bn, res = g
        if not isinstance(rd, int) or isinstance(rd, bool) or not 1 <= rd <= ROUNDS:
            ck.fail(f"round must be 1-{ROUNDS}", key, rd)
        wi, bi = pid(wn, key), pid(bn, key)
        if wi not in slot or bi not in slot:
            ck.fail("player not in this group", key, wn if wi not in slot else bn)
        if wi == bi:
            ck.fail("a player cannot play himself", key, wn)
        if (wi, bi) in games:
            ck.fail("group game entered twice (same White and Black)", key, g)
        for p in (wi, bi):
            if (rd, p) in busy:
                ck.fail("player has two games in one round", key, g)
            busy.add((rd, p))
        games[(wi, bi)] = (rd, wi, bi, _result(ck, res, key))
    for rd, ws, bs in sched:
        wi, bi = ids[ws], ids[bs]
        if (wi, bi) not in games:
            if (rd, wi) in busy or (rd, bi) in busy:
                ck.fail(f"cannot fit the unlisted game {gpl[ws]}-{gpl[bs]} into round {rd} "
                        "of the schedule; list it with its round", f"{gw}.games")
            busy.update({(rd, wi), (rd, bi)})
            games[(wi, bi)] = (rd, wi, bi, -1)
    glist = tuple(sorted(games.values(), key=lambda t: (t[0], ids.index(t[1]))))
    playoff = None
    note = ""
    po = gr.get("playoff")
    if po is not None:
        pw = f"{gw}.playoff"
        if not isinstance(po, dict):
            ck.fail("must be a table { places = [...], score = ... }", pw)
        ck.only(po, {"places", "score"}, pw)
        note = ck.get(po, "score", pw, str, default="")
        places = ck.get(po, "places", pw, list)
        out = []
        for j, item in enumerate(places):
            names = item if isinstance(item, list) else [item]
            grp_ids = tuple(pid(nm, f"{pw}.places[{j}]") for nm in names)
            if not grp_ids:
                ck.fail("empty place", f"{pw}.places[{j}]")
            out.append(grp_ids)
        if len(out[0]) != 1:
            ck.fail("first place is never shared: the play-off decides it", f"{pw}.places[0]", places[0])
        playoff = tuple(out)
    return Group(gname, tuple(ids), glist, playoff, note)


def _load_match(ck, m, mw, pid) -> Match:
    if not isinstance(m, dict):
        ck.fail("must be a table", mw)
    ck.only(m, {"round", "players", "classical", "winner", "tiebreak"}, mw)
    rd = ck.get(m, "round", mw, str, choices=KO_ROUNDS)
    pl = ck.get(m, "players", mw, list)
    if len(pl) != 2:
        ck.fail("a match has two players", f"{mw}.players", pl)
    a, b = pid(pl[0], f"{mw}.players[0]"), pid(pl[1], f"{mw}.players[1]")
    if a == b:
        ck.fail("a player cannot play himself", f"{mw}.players", pl)
    cl = ck.get(m, "classical", mw, list)
    if len(cl) != 2:
        ck.fail("a match has two classical games", f"{mw}.classical", cl)
    codes = tuple(_result(ck, r, f"{mw}.classical[{j}]") for j, r in enumerate(cl))
    if -1 in codes:
        ck.fail("a finished match has both classical results", f"{mw}.classical", cl)
    diff = sum((1, 0, -1)[c] for c in codes)
    wn = m.get("winner")
    if wn is None:
        if diff == 0:
            ck.fail("level after the classical games: say who won the tiebreak", f"{mw}.winner")
        winner = a if diff > 0 else b
    else:
        winner = pid(wn, f"{mw}.winner")
        if winner not in (a, b):
            ck.fail("winner is not one of the match's players", f"{mw}.winner", wn)
        if diff != 0 and winner != (a if diff > 0 else b):
            ck.fail("winner contradicts the classical results", f"{mw}.winner", wn)
    return Match(rd, a, b, codes, winner, ck.get(m, "tiebreak", mw, str, default=""))


def group_scores(group: Group, upto_round: int = ROUNDS):
    """(score half points by slot, wins by slot, complete?) counting rounds <= upto_round."""
    slot = {p: s for s, p in enumerate(group.players)}
    score = [0] * 4
    wins = [0] * 4
    complete = True
    for rd, w, b, r in group.games:
        if r < 0 or rd > upto_round:
            complete = False
            continue
        score[slot[w]] += (2, 1, 0)[r]
        score[slot[b]] += (0, 1, 2)[r]
        wins[slot[w]] += r == 0
        wins[slot[b]] += r == 2
    return score, wins, complete


def group_places(group: Group, gp6, with_playoff=True):
    """Points (sixths) by slot of a finished group, or None when a play-off is needed and
    not known.  gp6: points of places 1-4 in sixths."""
    from ..reference.groups import rest_places
    score, _, complete = group_scores(group)
    if not complete:
        return None
    top = max(score)
    tied = [s for s in range(4) if score[s] == top]
    out = [-1] * 4
    if len(tied) == 1:
        out[tied[0]] = gp6[0]
        rest_places(score, gp6, out, 1)
        return out
    if group.playoff is None or not with_playoff:
        return None
    q = 0
    slot = {p: s for s, p in enumerate(group.players)}
    for place in group.playoff:
        v = sum(gp6[q:q + len(place)]) // len(place)
        for p in place:
            out[slot[p]] = v
        q += len(place)
    rest_places(score, gp6, out, q)
    return out


def _check_event(ck, ev: Event, w, gpts, rules):
    gp6 = [POINT * x for x in gpts]
    winners = []
    for g, gr in enumerate(ev.groups):
        gw = f"{w}.groups[{g}]"
        score, _, complete = group_scores(gr)
        if gr.playoff is not None:
            if not complete:
                ck.fail("play-off given but the group's games are not all played", f"{gw}.playoff")
            top = max(score)
            tied = {gr.players[s] for s in range(4) if score[s] == top}
            given = [p for place in gr.playoff for p in place]
            if len(tied) == 1:
                ck.fail("play-off given but nobody is level with the leader", f"{gw}.playoff")
            if len(set(given)) != len(given) or set(given) != tied:
                ck.fail("play-off places must list exactly the players level for first",
                        f"{gw}.playoff.places")
        pl = group_places(gr, gp6)
        winners.append(None if pl is None else gr.players[pl.index(gp6[0])])
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
                ck.fail("a final needs both semi-finals entered", mw)
            exp = (ko["sf1"].winner, ko["sf2"].winner)
        else:
            exp = need[rd]
            if None in exp:
                ck.fail("knock-out entered before its groups are finished (games and play-offs)", mw)
        if {m.a, m.b} != set(exp):
            ck.fail("knock-out pairing contradicts the group winners" if rd != "final"
                    else "final pairing contradicts the semi-final winners", f"{mw}.players")


# ---- checkpoints -------------------------------------------------------------------------
def checkpoints(scn) -> list[str]:
    out = ["start"]
    for n in range(1, len(scn.events) + 1):
        out += [f"event{n}-round{k}" for k in range(1, ROUNDS + 1)]
        out += [f"event{n}-groups", f"event{n}-sf", f"event{n}"]
    return out


def _cp(e, what):
    """Index of a checkpoint: what = round number 1-6, 'groups', 'sf' or 'final'."""
    base = 1 + e * (ROUNDS + 3)
    if isinstance(what, int):
        return base + what - 1
    return base + {"groups": ROUNDS, "sf": ROUNDS + 1, "final": ROUNDS + 2}[what]


def _limit(scn, at):
    return len(checkpoints(scn)) if at is None else checkpoints(scn).index(at)


@dataclass
class _EvState:
    groups_known: bool
    groups: list            # Group views restricted to the checkpoint (results after it = -1)
    playoff_known: list     # per group
    ko: dict                # round -> Match counted


def _state(scn, at):
    """What is known at checkpoint ``at`` (None: everything in the file)."""
    lim = _limit(scn, at)
    out = []
    for e, ev in enumerate(scn.events):
        known = bool(ev.groups) and (scn.rules["future_groups"] == "as-drawn" or e == 0
                                     or lim >= _cp(e - 1, "final"))
        groups, pk = [], []
        for gr in ev.groups if known else ():
            games = tuple((rd, w, b, r if _cp(e, rd) <= lim else -1) for rd, w, b, r in gr.games)
            po = gr.playoff if _cp(e, "groups") <= lim else None
            groups.append(Group(gr.name, gr.players, games, po, gr.playoff_note))
            pk.append(po is not None)
        ko = {}
        for rd, m in ev.knockout.items():
            if known and _cp(e, "sf" if rd != "final" else "final") <= lim:
                ko[rd] = m
        out.append(_EvState(known, groups, pk, ko))
    return out


# ---- standings ---------------------------------------------------------------------------
def _num(sixths):
    v = sixths / POINT
    return int(v) if v == int(v) else round(v, 4)


def standings(scn, at) -> dict:
    states = _state(scn, at)
    n = len(scn.players)
    gp6 = [POINT * x for x in scn.group_points]
    ko6 = POINT * scn.ko_points
    pts = [0] * n
    evp = [[None] * len(scn.events) for _ in range(n)]
    tf, ts, cp, cw = [0] * n, [0] * n, [0] * n, [0] * n
    prize = [0.0] * n
    ev_out = []
    pr = scn.prizes
    for e, (ev, st) in enumerate(zip(scn.events, states)):
        started = st.groups_known and any(r >= 0 for g in st.groups for *_, r in g.games)
        if started:
            for p in ev.roster:
                prize[p] += pr["per_player"]
        gout = []
        for gr in st.groups:
            score, wins, complete = group_scores(gr)
            for s, p in enumerate(gr.players):
                cp[p] += score[s]
                cw[p] += wins[s]
            pl = group_places(gr, gp6) if complete else None
            rows = []
            for s, p in enumerate(gr.players):
                if pl is not None:
                    pts[p] += pl[s]
                    evp[p][e] = pl[s]
                    prize[p] += pr["per_group_point"] * pl[s] / POINT
                rows.append({"name": scn.players[p]["name"], "score": score[s] / 2,
                             "wins": wins[s], "points": None if pl is None else _num(pl[s])})
            order = sorted(range(4), key=lambda s: (-(pl[s] if pl else 0), -score[s], s))
            gout.append({"name": gr.name, "players": [rows[s] for s in order],
                         "complete": complete,
                         "playoff": None if not gr.playoff else
                         {"places": [[scn.players[p]["name"] for p in place] for place in gr.playoff],
                          "score": gr.playoff_note},
                         "playoff_pending": complete and pl is None})
        kout = []
        for rd in KO_ROUNDS:
            m = st.ko.get(rd)
            if m is None:
                continue
            for c in m.classical:
                cp[m.a] += (2, 1, 0)[c]
                cp[m.b] += (0, 1, 2)[c]
                cw[m.a] += c == 0
                cw[m.b] += c == 2
            pts[m.winner] += ko6
            evp[m.winner][e] = (evp[m.winner][e] or 0) + ko6
            prize[m.winner] += pr["per_knockout_point"] * scn.ko_points
            if rd == "final":
                tf[m.winner] += 1
                ts[m.a if m.winner == m.b else m.b] += 1
            kout.append({"round": rd, "players": [scn.players[m.a]["name"], scn.players[m.b]["name"]],
                         "classical": [RESULT_TEXT[c] for c in m.classical],
                         "winner": scn.players[m.winner]["name"], "tiebreak": m.tiebreak or None})
        ev_out.append({"name": ev.name, "groups_known": st.groups_known, "groups": gout,
                       "knockout": kout})
    eligible = [scn.substitutes_count or not p["substitute"] for p in scn.players]
    vals = {1: tf, 2: ts, 3: cp, 4: cw}
    crit = [CRITERIA[t] for t in scn.tiebreaks if t != "lots"]

    def key(p):
        return (pts[p], *[vals[c][p] for c in crit])
    rows = []
    for p, info in enumerate(scn.players):
        rows.append({
            "name": info["name"],
            "rank": None, "shared": False, "eligible": eligible[p],
            "points": _num(pts[p]),
            "events": [None if v is None else _num(v) for v in evp[p]],
            "events_won": tf[p], "second_places": ts[p],
            "classical_points": cp[p] / 2, "classical_wins": cw[p],
            "prize": prize[p],
        })
    elig = [p for p in range(n) if eligible[p]]
    for p in elig:
        better = sum(1 for q in elig if key(q) > key(p))
        same = sum(1 for q in elig if key(q) == key(p))
        rows[p]["rank"] = better + 1
        rows[p]["shared"] = same > 1
    rows.sort(key=lambda r: (r["rank"] is None, r["rank"] or 0, scn._index[r["name"].casefold()]))
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
            "qualifying_places": scn.qualifying_places, "currency": scn.currency,
            "criteria": ["points", *[t for t in scn.tiebreaks]],
            "players": rows, "prize_total": sum(prize), "events": ev_out}


def render_standings(d: dict) -> str:
    n_ev = len(d["events"])
    head = (f"{'rank':>5}  {'player':<24}" + "".join(f"{'E' + str(i + 1):>6}" for i in range(n_ev))
            + f"{'total':>7}{'TF':>4}{'TS':>4}{'GP':>6}{'GW':>4}{'prize ' + (d['currency'] or ''):>14}")
    lines = [f"{d['scenario']}  at {d['at']}", "", head, "-" * len(head)]
    for r in d["players"]:
        rk = "" if r["rank"] is None else (("=" if r["shared"] else "") + str(r["rank"]))
        evs = "".join(f"{'' if v is None else v:>6}" for v in r["events"])
        lines.append(f"{rk:>5}  {r['name'][:24]:<24}{evs}{r['points']:>7}{r['events_won']:>4}"
                     f"{r['second_places']:>4}{r['classical_points']:>6}{r['classical_wins']:>4}"
                     f"{r['prize']:>14,.0f}")
    lines += ["", f"prize money paid: {d['prize_total']:,.0f}; top {d['qualifying_places']} qualify; "
              "TF events won, TS second places, GP classical game points, GW classical wins"]
    for e, ev in enumerate(d["events"]):
        for g in ev["groups"]:
            if g["playoff_pending"]:
                lines.append(f"event {e + 1} group {g['name']}: play-off for first not entered yet")
    return "\n".join(lines)


# ---- the Plan ----------------------------------------------------------------------------
class Plan:
    """Arrays for ``simulate_series_nb`` (see kernels/groups_nb.py); ``args`` by name."""

    def __init__(self, names, n_places, qualifying_places, currency, args, player_extra,
                 ratings):
        from .base import PlanInfo
        self.info = PlanInfo(names=tuple(names), ratings=ratings, n_places=n_places,
                             points_scale=float(POINT), points_label="GP points",
                             qualifying_places=qualifying_places, currency=currency,
                             counter_names=tuple(COUNTER_NAMES), player_extra=tuple(player_extra))
        self.names = names
        self.n_places = n_places
        self.points_scale = float(POINT)
        self.qualifying_places = qualifying_places
        self.currency = currency
        self.counter_names = list(COUNTER_NAMES)
        self.args = args
        self.player_extra = player_extra

    def run_batch(self, seed, first, n):
        import numpy as np

        from ..driver import ChunkTallies
        from ..kernels.groups_nb import simulate_series_nb
        a = self.args
        t = ChunkTallies(n, self.info)
        simulate_series_nb(np.uint64(seed), np.int64(first), np.int64(n), a["params"], a["rt_ev"],
                           a["offsets"], a["offset_sd"], a["steps"], a["pt"], a["roster"],
                           a["draw"], a["gm"], a["grp_fixed"], a["grp_gp"],
                           a["ko_fixed"], a["ko_win"], a["gp6"], a["ko_gp6"], a["prize_rates"],
                           a["places_mode"], a["reduced_mode"], a["ko_lots"], a["eligible"],
                           a["tb_codes"], a["n_qual"], t.place, t.qualify, t.points,
                           t.points_sq, t.prize, t.prize_sq, t.counters)
        return t.summed()


def _event_ratings(scn, e):
    ev = scn.events[e]
    out = []
    for p, info in enumerate(scn.players):
        out.append({"classical": ev.ratings.get(p, info["rating"]), "rapid": info["rapid"],
                    "blitz": info["blitz"]})
    return out


def compile(scn, model, at, offsets=False, fixed=None, fixed_ko=None) -> Plan:
    """``fixed`` maps (event, group, game index) to a result code assumed for a group game
    still to play; ``fixed_ko`` maps (event, knock-out index 0-2) to (classical codes from the
    leading player's side, leading player wins?) for a match still to play whose players are
    known (what-if analysis: ``swing``)."""
    import numpy as np

    from ..model import RATING_CLASSES
    from ..kernels.groups_nb import DRAW_BASKETS, DRAW_FIXED, DRAW_LOTS, wdl_table_nb
    f = scn.file
    ctl = np.array([model.index(scn.controls[k], file=f, key=f"controls.{k}")
                    for k in ("classical", "rapid", "blitz", "armageddon")], np.int64)
    # rows (kind, control row, games, table index): the knock-out match; [1:] is the
    # two-player tiebreak procedure
    steps = np.array([[STEP_GAMES, ctl[0], 2, 0], [STEP_GAMES, ctl[1], 2, 1],
                      [STEP_GAMES, ctl[2], 2, 2], [STEP_ARMAGEDDON, ctl[3], 1, 3]], np.int64)
    npl = len(scn.players)
    n_ev = len(scn.events)
    gp6 = [POINT * x for x in scn.group_points]
    rt_ev = np.zeros((n_ev, npl, 3))
    for e in range(n_ev):
        rt_ev[e] = model.rating_table(_event_ratings(scn, e))
    params = model.params
    pt = np.zeros((n_ev, 4, npl, npl, 2))
    wdl_table_nb(params, rt_ev, ctl, pt)
    roster = np.zeros((n_ev, 16), np.int64)
    draw = np.zeros(n_ev, np.int64)
    gm = np.zeros((n_ev, 4, 12, 4), np.int64)
    grp_fixed = np.full((n_ev, 4), -1, np.int64)
    grp_gp = np.zeros((n_ev, 4, 4), np.int64)
    ko_fixed = np.full((n_ev, 3, 2), -1, np.int64)
    ko_win = np.full((n_ev, 3), -1, np.int64)
    sched = schedule(scn.rules["schedule"])
    for e, (ev, st) in enumerate(zip(scn.events, _state(scn, at))):
        if st.groups_known:
            for g, gr in enumerate(st.groups):
                roster[e, 4 * g:4 * g + 4] = gr.players
                slot = {p: s for s, p in enumerate(gr.players)}
                for j, (rd, w, b, r) in enumerate(gr.games):
                    if r < 0 and fixed and (e, g, j) in fixed:
                        r = fixed[(e, g, j)]
                    gm[e, g, j] = (rd, slot[w], slot[b], r)
                pl = group_places(gr, gp6) if st.playoff_known[g] or gr.playoff is None else None
                if pl is not None:
                    grp_fixed[e, g] = pl.index(gp6[0])
                    grp_gp[e, g] = pl
            winners = [gr.players[grp_fixed[e, g]] if grp_fixed[e, g] >= 0 else -1
                       for g, gr in enumerate(st.groups)]
            firsts = {"sf1": winners[0], "sf2": winners[2]}
            for m_i, rd in enumerate(KO_ROUNDS):
                m = st.ko.get(rd)
                if m is None:
                    continue
                lead = firsts["sf1"] if rd == "sf1" else firsts["sf2"] if rd == "sf2" else \
                    st.ko["sf1"].winner
                flip = m.a != lead
                ko_fixed[e, m_i] = [(2 - c) if flip else c for c in m.classical]
                ko_win[e, m_i] = 0 if m.winner == lead else 1
            for m_i in range(len(KO_ROUNDS)):
                if fixed_ko and (e, m_i) in fixed_ko and ko_win[e, m_i] < 0:
                    codes, lead_wins = fixed_ko[(e, m_i)]
                    ko_fixed[e, m_i] = codes
                    ko_win[e, m_i] = 0 if lead_wins else 1
        else:
            rating = {p: rt_ev[e, p, 0] for p in ev.roster}
            order = sorted(ev.roster, key=lambda p: (-rating[p], p))
            rule = scn.rules["draw_rule"]
            if rule == "snake":
                groups = [[], [], [], []]
                for i, p in enumerate(order):
                    q, r = divmod(i, 4)
                    groups[r if q % 2 == 0 else 3 - r].append(p)
                roster[e] = [p for g in groups for p in g]
                draw[e] = DRAW_FIXED
            else:
                roster[e] = order
                draw[e] = DRAW_BASKETS if rule == "baskets" else DRAW_LOTS
            for g in range(4):
                for j, (rd, ws, bs) in enumerate(sched):
                    gm[e, g, j] = (rd, ws, bs, -1)
    eligible = np.array([scn.substitutes_count or not p["substitute"] for p in scn.players], np.bool_)
    tb_codes = np.array([CRITERIA[t] for t in scn.tiebreaks if t != "lots"], np.int64)
    pr = scn.prizes
    args = {
        "params": params, "rt_ev": rt_ev, "offsets": bool(offsets),
        "offset_sd": np.array([model.offset_sd[c] for c in RATING_CLASSES]),
        "steps": steps, "pt": pt, "roster": roster,
        "draw": draw, "gm": gm, "grp_fixed": grp_fixed, "grp_gp": grp_gp,
        "ko_fixed": ko_fixed, "ko_win": ko_win, "gp6": np.array(gp6, np.int64),
        "ko_gp6": np.int64(POINT * scn.ko_points),
        "prize_rates": np.array([pr["per_player"], pr["per_group_point"], pr["per_knockout_point"]]),
        "places_mode": np.int64(RULES["playoff_places"].index(scn.rules["playoff_places"])),
        "reduced_mode": np.int64(RULES["reduced_tie"].index(scn.rules["reduced_tie"])),
        "ko_lots": scn.rules["knockout_colours"] == "lots",
        "eligible": eligible, "tb_codes": tb_codes, "n_qual": np.int64(scn.qualifying_places),
    }
    extra = [{"events": [e + 1 for e, ev in enumerate(scn.events) if p in ev.roster],
              "eligible": bool(eligible[p])} for p in range(npl)]
    return Plan([p["name"] for p in scn.players], int(eligible.sum()), scn.qualifying_places,
                scn.currency, args, extra, np.array([p["rating"] for p in scn.players], float))


# ---- swing -------------------------------------------------------------------------------
def swing(scn, model, at, *, sims: int, seed: int, offsets=False, round_no=None) -> dict:
    """What each group game of the next round (or of group round ``round_no``) swings: every
    player's P(1st) and P(qualify) if the game ends 1-0, 1/2-1/2 or 0-1, on common random
    numbers.  After the group stage: the next knock-out matches (``_swing_knockout``)."""
    from .. import driver

    target = None
    for e, st in enumerate(_state(scn, at)):
        if not st.groups_known:
            continue
        open_games = [(g, j, rd, w, b) for g, gr in enumerate(st.groups)
                      for j, (rd, w, b, r) in enumerate(gr.games) if r < 0]
        if open_games:
            rn = round_no if round_no is not None else min(x[2] for x in open_games)
            target = (e, [x for x in open_games if x[2] == rn], rn)
            break
    if target is None and round_no is None:
        return _swing_knockout(scn, model, at, sims=sims, seed=seed, offsets=offsets)
    if target is None or not target[1]:
        raise ScenarioError("no group game of that round is left to play at this checkpoint",
                            file=scn.file, key="--round", value=round_no)
    e, games, rn = target
    cname = scn.controls["classical"]
    ratings = _event_ratings(scn, e)
    base = driver.run(compile(scn, model, at, offsets), sims, seed, progress=False)
    names = base.names
    labels = ("1-0", "1/2-1/2", "0-1")
    out = []
    for g, j, rd, w, b in games:
        probs = model.wdl(cname, model.rating(ratings[w], cname), model.rating(ratings[b], cname))
        runs = [driver.run(compile(scn, model, at, offsets, {(e, g, j): code}), sims, seed,
                           progress=False) for code in range(3)]
        players = []
        for i, name in enumerate(names):
            pf = [r.tallies["place"][i, 0] / r.sims for r in runs]
            pq = [r.tallies["qualify"][i] / r.sims for r in runs]
            players.append({"name": name, "p_first": dict(zip(labels, pf)),
                            "p_qualify": dict(zip(labels, pq)),
                            "swing_first": max(pf) - min(pf), "swing_qualify": max(pq) - min(pq)})
        players.sort(key=lambda x: -(x["swing_first"] + x["swing_qualify"]))
        out.append({"event": e + 1, "group": _state(scn, at)[e].groups[g].name, "round": rd,
                    "white": scn.players[w]["name"], "black": scn.players[b]["name"],
                    "p_white": probs[0], "p_draw": probs[1], "p_black": probs[2],
                    "players": players})
    out.sort(key=lambda x: -(x["players"][0]["swing_first"] + x["players"][0]["swing_qualify"]))
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest", "event": e + 1,
            "round": rn, "sims": sims, "seed": seed, "qualifying_places": scn.qualifying_places,
            "now": [{"name": n, "p_first": float(base.tallies["place"][i, 0] / base.sims),
                     "p_qualify": float(base.tallies["qualify"][i] / base.sims)}
                    for i, n in enumerate(names)],
            "games": out}


def _swing_knockout(scn, model, at, *, sims, seed, offsets):
    """The next knock-out matches whose players are known, each under its six results (either
    player winning 2-0 or 1.5-0.5 in the classical games, or on tiebreaks after 1-1)."""
    from .. import driver
    from .shared.matches import Step, match_probability

    plan = compile(scn, model, at, offsets)
    a = plan.args
    todo = None
    for e in range(len(scn.events)):
        if (a["grp_fixed"][e] < 0).any():
            continue
        win = [int(a["roster"][e, 4 * g + a["grp_fixed"][e, g]]) for g in range(4)]
        sf = [(0, win[0], win[1]), (1, win[2], win[3])]
        open_sf = [x for x in sf if a["ko_win"][e, x[0]] < 0]
        if open_sf:
            todo = (e, open_sf)
            break
        if a["ko_win"][e, 2] < 0:
            fin = [x[1] if a["ko_win"][e, x[0]] == 0 else x[2] for x in sf]
            todo = (e, [(2, fin[0], fin[1])])
            break
    if todo is None:
        raise ScenarioError("no group game or knock-out match with known players is left to "
                            "play at this checkpoint", file=scn.file, key="--at",
                            value=at or "latest")
    e, matches = todo
    ctl = scn.controls
    steps = [Step(STEP_GAMES, ctl["classical"], 2, "classical"),
             Step(STEP_GAMES, ctl["rapid"], 2, "rapid"),
             Step(STEP_GAMES, ctl["blitz"], 2, "blitz"),
             Step(STEP_ARMAGEDDON, ctl["armageddon"], 1, "armageddon")]
    ratings = _event_ratings(scn, e)
    white = None if scn.rules["knockout_colours"] == "lots" else 0
    base = driver.run(plan, sims, seed, progress=False)
    names = base.names
    out = []
    for m_i, lead, other in matches:
        mp = match_probability(steps, model, ratings[lead], ratings[other], white)
        p_ltb = mp["p_first"] - mp["p_classical"]
        ln, on = scn.players[lead]["name"], scn.players[other]["name"]
        # a 1-1 is two draws or a win each (the latter counts in the classical-wins
        # criterion): a tiebreak column mixes both, weighted by their probabilities
        c = ctl["classical"]
        rl, ro = model.rating(ratings[lead], c), model.rating(ratings[other], c)
        w1, d1, b1 = model.wdl(c, rl, ro)
        w2, d2, b2 = model.wdl(c, ro, rl)
        q_draws = d1 * d2 / (d1 * d2 + w1 * w2 + b1 * b2)
        tb = [((1, 1), q_draws), ((0, 2), 1.0 - q_draws)]
        # (label, probability, [(classical codes from the leader's side, weight)], leader wins)
        outcomes = [(f"{ln} wins 2-0", mp["p_2_0"], [((0, 0), 1.0)], True),
                    (f"{ln} wins 1.5-0.5", mp["p_15_05"], [((0, 1), 1.0)], True),
                    (f"{ln} wins on tiebreaks (1-1)", p_ltb, tb, True),
                    (f"{on} wins on tiebreaks (1-1)", mp["p_tiebreak"] - p_ltb, tb, False),
                    (f"{on} wins 1.5-0.5", mp["p_05_15"], [((2, 1), 1.0)], False),
                    (f"{on} wins 2-0", mp["p_0_2"], [((2, 2), 1.0)], False)]

        runs = []
        for _, _, mix, lw in outcomes:
            rs = [(driver.run(compile(scn, model, at, offsets, None, {(e, m_i): (codes, lw)}),
                              sims, seed, progress=False), wt) for codes, wt in mix]
            runs.append(rs)
        rows = []
        for i, name in enumerate(names):
            pf = [sum(wt * r.tallies["place"][i, 0] / r.sims for r, wt in rs) for rs in runs]
            pq = [sum(wt * r.tallies["qualify"][i] / r.sims for r, wt in rs) for rs in runs]
            rows.append({"name": name, "p_first": pf, "p_qualify": pq,
                         "swing_first": max(pf) - min(pf), "swing_qualify": max(pq) - min(pq)})
        rows.sort(key=lambda x: -(x["swing_first"] + x["swing_qualify"]))
        out.append({"event": scn.events[e].name, "round": KO_ROUNDS[m_i], "players": [ln, on],
                    "outcomes": [{"result": o[0], "p": o[1]} for o in outcomes], "swing": rows})
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest", "sims": sims,
            "seed": seed, "qualifying_places": scn.qualifying_places,
            "now": [{"name": n, "p_first": float(base.tallies["place"][i, 0] / base.sims),
                     "p_qualify": float(base.tallies["qualify"][i] / base.sims)}
                    for i, n in enumerate(names)],
            "matches": out}


def render_swing(d: dict) -> str:
    if "matches" in d:
        from .knockout_series import render_swing as ko_render
        return ko_render(d)
    from .roundrobin import render_swing as rr_render
    return rr_render(dict(d, scenario=f"{d['scenario']} (event {d['event']}, group round)"))


# ---- odds --------------------------------------------------------------------------------
def odds(scn, model, at) -> dict:
    cname = scn.controls["classical"]
    games = []
    notes = []
    for e, (ev, st) in enumerate(zip(scn.events, _state(scn, at))):
        if not st.groups_known:
            notes.append(f"event {e + 1} ({ev.name}): groups not drawn at this checkpoint "
                         f"(draw rule: {scn.rules['draw_rule']})")
            continue
        ratings = _event_ratings(scn, e)
        for gr in st.groups:
            for rd, w, b, r in gr.games:
                if r >= 0:
                    continue
                pw, pd, pb = model.wdl(cname, model.rating(ratings[w], cname),
                                       model.rating(ratings[b], cname))
                games.append({"event": e + 1, "group": gr.name, "round": rd,
                              "white": scn.players[w]["name"], "black": scn.players[b]["name"],
                              "p_white": pw, "p_draw": pd, "p_black": pb})
    return {"scenario": scn.name, "at": at or "latest", "control": cname, "games": games,
            "notes": notes}


def render_odds(d: dict) -> str:
    lines = [f"{d['scenario']}  at {d['at']}  ({d['control']} games still to play)", ""]
    if d["games"]:
        lines.append(f"{'ev':>3} {'grp':>4} {'rd':>3}  {'White':<24}{'Black':<24}{'1-0':>7}{'draw':>7}{'0-1':>7}")
        for g in d["games"]:
            lines.append(f"{g['event']:>3} {g['group']:>4} {g['round']:>3}  {g['white'][:23]:<24}"
                         f"{g['black'][:23]:<24}{100 * g['p_white']:6.1f}%{100 * g['p_draw']:6.1f}%"
                         f"{100 * g['p_black']:6.1f}%")
    else:
        lines.append("no group games left to play with known pairings")
    lines += d["notes"]
    return "\n".join(lines)


# ---- who can still -------------------------------------------------------------------------
def whocan(scn, at, budget=None, draws="rule") -> dict:
    """Exact "who can still finish first / qualify" (simcycle/whocan_groups.py: a MILP over
    the remaining group games, play-offs, knock-out matches and undrawn groups' draws).
    ``draws``: "rule" (undrawn groups: every draw ``draw_rule`` allows) or "as-drawn" (the
    groups in the file)."""
    from .. import whocan_groups as W

    model, st, targets = W.analyse(scn, at, budget=W.DEFAULT_BUDGET if budget is None else budget,
                                   draws=draws)
    undrawn = [e + 1 for e, s in enumerate(_state(scn, at)) if not s.groups_known]
    reading = None
    if undrawn:
        reading = ("as-drawn" if draws == "as-drawn" else
                   "snake" if scn.rules["draw_rule"] == "snake" else
                   f"any {scn.rules['draw_rule']} draw")
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
            "qualifying_places": scn.qualifying_places,
            "games_left": len(model.games) + 48 * len(model.free),
            "matches_left": len(model.matches),
            "undrawn_events": undrawn, "draws": reading,
            "points": {r["name"]: r["points"] for r in st["players"]},
            "targets": targets}


def render_whocan(d: dict) -> str:
    from ..whocan.render import render_targets

    header = [(f"{d['scenario']}  at {d['at']}: {d['games_left']} group games and "
               f"{d['matches_left']} knock-out matches left")]
    if d.get("draws"):
        ev = ", ".join(map(str, d["undrawn_events"]))
        header.append(f"groups of event(s) {ev} not drawn yet: "
                      + ("taken as drawn in the file" if d["draws"] == "as-drawn" else
                         "the snake groups" if d["draws"] == "snake" else
                         f"{d['draws']} considered"))

    def path(r):
        ko = [g for g in r["path"] if "players" in g]
        if not ko or len(ko) > 9:
            return []
        return ["e.g. " + "; ".join(
            f"ev{g['event']} {g['stage']} {g['winner']} beats "
            f"{next(p for p in g['players'] if p != g['winner'])}" for g in ko)]

    text = render_targets(d, header, qualify_title=f"a qualifying place (top {d['qualifying_places']})",
                          level="lots decide", path_lines=path)
    if any(r["status"] == "undetermined" for rows in d["targets"].values() for r in rows):
        text += "\n\nundetermined: the exact search hit its time budget for these rows"
    return text
