"""The frozen cycle scenario and ``load(raw, file)``: the events and the final read from their
own scenario files, the seats' chains resolved to kinds and indices, and the cross-checks a
schema cannot see (event ids, names, checkpoints, chains that could run dry, fallback loops,
a player in two fixed seats)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...errors import ScenarioError
from ...kinds import REFERENCE_KIND
from ...schema import convert
from ..shared.scenario import FromSource, Source, head_of
from .schema import CycleFile

EVENT_FORMATS = ("round-robin", "group-series", "knockout-series")

# kinds of a chain link (``Link.kind``); the kernel's codes are ``enums.CY_*``
FIXED, PLACE, BEST, LIST = "fixed", "place", "best", "list"


@dataclass(frozen=True)
class Player:
    name: str
    aliases: tuple[str, ...]
    ratings: dict            # rating class -> rating: what he brings to the final if it has
    #                          no rating of its own for him


@dataclass(frozen=True)
class EventPart:
    id: str
    label: str
    fmt: object              # the event's Format
    scn: object              # its frozen scenario
    file: str


@dataclass(frozen=True)
class Link:
    """One resolved link of a chain: ``kind`` FIXED (player), PLACE (event, place 0-based),
    BEST (event; ``among``: only these pool players, empty = anyone) or LIST (list index)."""

    kind: str
    player: int = -1
    event: int = -1
    place: int = -1
    list: int = -1
    among: tuple[int, ...] = ()
    text: str = ""


@dataclass(frozen=True)
class SeatRule:
    id: str
    path: str
    links: tuple[Link, ...]   # the chain, the fallbacks' chains appended


@dataclass(frozen=True)
class RatingListRule:
    id: str
    date: str
    order: tuple[int, ...]    # pool players eligible under the rule, highest-rated first
    source: str


@dataclass(frozen=True)
class WithdrawalRule:
    player: int
    known_at: str
    replaced_by: str


@dataclass(frozen=True)
class Cycle(FromSource):
    source: Source
    players: tuple[Player, ...]          # the pool: everyone who could take a seat
    events: tuple[EventPart, ...]
    final: EventPart
    seats: tuple[SeatRule, ...]
    rating_lists: tuple[RatingListRule, ...]
    withdrawals: tuple[WithdrawalRule, ...]
    nominees: tuple[dict, ...]           # the declared nominee rules, as the reports say them
    checkpoint_names: tuple[str, ...]


class _Pool:
    def __init__(self, file: str):
        self.file = file
        self.players: list[Player] = []
        self._by: dict[str, int] = {}

    def get(self, name: str) -> int | None:
        return self._by.get(name.strip().casefold())

    def add(self, name: str, aliases=(), ratings=None) -> int:
        i = self.get(name)
        if i is None:
            for a in aliases:
                i = self.get(a)
                if i is not None:
                    break
        if i is None:
            i = len(self.players)
            self.players.append(Player(name, tuple(aliases), dict(ratings or {})))
        elif ratings and not self.players[i].ratings:
            p = self.players[i]
            self.players[i] = Player(p.name, p.aliases, dict(ratings))
        for n in (name, *aliases):
            self._by.setdefault(n.strip().casefold(), i)
        return i

    def find(self, name: str, key: str) -> int:
        i = self.get(name)
        if i is None:
            raise ScenarioError("unknown player (in no event, final, list or [[players]] of "
                                "the cycle)", file=self.file, key=key, value=name)
        return i


def _part(ev_id: str, label: str, ref: str, file: str, key: str, allowed) -> EventPart:
    from ...files import read_toml
    from ...scenario import load_data, resolve
    p = Path(ref)
    if not p.is_absolute():
        near = Path(file).parent / p
        p = near if near.exists() else resolve(ref)
    if not p.exists():
        raise ScenarioError("no such scenario file or shipped scenario", file=file, key=key,
                            value=ref)
    raw = read_toml(p, "scenario file")
    head = raw.get("scenario")
    kind = head.get("format") if isinstance(head, dict) else None
    if kind not in allowed:      # refused before loading: a cycle never loads a cycle
        raise ScenarioError("a cycle plays " + " / ".join(allowed) + " scenarios here",
                            file=file, key=key, value=f"{ref} ({kind})")
    fmt, scn = load_data(raw, str(p))
    if fmt.name not in allowed:
        raise ScenarioError("a cycle plays " + " / ".join(allowed) + " scenarios here",
                            file=file, key=key, value=f"{ref} ({fmt.name})")
    return EventPart(ev_id, label or scn.name, fmt, scn, str(p))


def _checkpoints(events, final) -> tuple[str, ...]:
    out = ["start"]
    for part in (*events, final):
        out += [f"{part.id}-{c}" for c in part.fmt.checkpoints(part.scn)[1:]]
    return tuple(out)


def load(raw: dict, file: str) -> Cycle:
    f = convert(raw, CycleFile, file)
    head = head_of(f.scenario, file, REFERENCE_KIND)
    pool = _Pool(file)
    ids, events = _events(f, file)
    final = _part(f.final.id, "", f.final.scenario, file, "final.scenario", ("round-robin",))
    if len(final.scn.players) != len(f.seats):
        raise ScenarioError(f"the final has {len(final.scn.players)} players but the cycle "
                            f"{len(f.seats)} seats", file=file, key="seats", value=len(f.seats))
    for p in final.scn.players:
        pool.add(p.name, *_facts("round-robin", p))
    for p in f.players:
        pool.add(p.name, p.aliases, p.ratings())
    for part in reversed(events):   # the latest event's rating of a player counts
        for p in part.scn.players:
            pool.add(p.name, *_facts(part.fmt.name, p))
    members = tuple(frozenset(pool.get(p.name) for p in part.scn.players) for part in events)
    lists, list_ids = _rating_lists(f, file, pool)
    cps = _checkpoints(events, final)
    withdrawals = _withdrawals(f, file, pool, cps)
    nominees = _nominees(f, file, pool, ids)
    seats = _seats(f, file, pool, ids, list_ids, nominees, events)
    _check_fixed(seats, file, withdrawals, members, lists)
    return Cycle(head, tuple(pool.players), tuple(events), final, tuple(seats), tuple(lists),
                 tuple(withdrawals), tuple(v[1] for v in nominees.values()), cps)


def _events(f, file) -> tuple[dict, list]:
    """The events' ids (index by id) and parts, each read from its own scenario file."""
    ids: dict[str, int] = {}
    events = []
    for k, e in enumerate(f.events):
        if e.id in ids or e.id == f.final.id:
            raise ScenarioError("event id used twice", file=file, key=f"events[{k}].id",
                                value=e.id)
        ids[e.id] = k
        events.append(_part(e.id, e.label, e.scenario, file, f"events[{k}].scenario",
                            EVENT_FORMATS))
    kinds = [e.fmt.name for e in events]
    if (kinds.count("round-robin") > 2 or kinds.count("group-series") > 1
            or kinds.count("knockout-series") > 1):
        raise ScenarioError("a cycle plays at most two round-robin events, one group series "
                            "and one knock-out series before its final", file=file,
                            key="events", value=", ".join(kinds))
    return ids, events


def _rating_lists(f, file, pool) -> tuple[list, dict]:
    """Each rating list's eligible pool players, highest-rated first (excluded players and
    those short of ``min_games`` left out), and the lists' index by id."""
    lists = []
    list_ids: dict[str, int] = {}
    for k, rl in enumerate(f.rating_lists):
        if rl.id in list_ids:
            raise ScenarioError("rating list id used twice", file=file,
                                key=f"rating_lists[{k}].id", value=rl.id)
        list_ids[rl.id] = k
        excl = {pool.add(n) for n in rl.exclude}
        ents = []
        for j, en in enumerate(rl.entries):
            i = pool.add(en.name, (), {"classical": float(en.rating)})
            if rl.min_games and en.games is None:
                raise ScenarioError(f"the list counts games (min_games = {rl.min_games}): "
                                    "say this player's", file=file,
                                    key=f"rating_lists[{k}].entries[{j}].games", value=en.name)
            if i not in excl and (en.games or 0) >= rl.min_games:
                ents.append((-en.rating, j, i))
        lists.append(RatingListRule(rl.id, rl.date, tuple(i for _, _, i in sorted(ents)),
                                    rl.source))
    return lists, list_ids


def _withdrawals(f, file, pool, cps) -> list[WithdrawalRule]:
    out = []
    for k, w in enumerate(f.withdrawals):
        if w.known_at not in cps:
            raise ScenarioError("no such checkpoint of the cycle (simcycle checkpoints lists "
                                "them)", file=file, key=f"withdrawals[{k}].known_at",
                                value=w.known_at)
        out.append(WithdrawalRule(pool.find(w.player, f"withdrawals[{k}].player"),
                                  w.known_at, w.replaced_by))
    return out


def _nominees(f, file, pool, ids) -> dict:
    """Each nominee rule's link (what its reading yields) and its description, by id."""
    nominees = {}
    for k, nm in enumerate(f.nominees):
        key = f"nominees[{k}]"
        elig = tuple(pool.find(n, f"{key}.eligible") for n in nm.eligible)
        if nm.reading == "named":
            link = _named_pick(nm, key, file, pool, elig)
        else:
            if nm.event not in ids:
                raise ScenarioError("no such event in the cycle", file=file,
                                    key=f"{key}.event", value=nm.event)
            link = Link(BEST, event=ids[nm.event], among=elig,
                        text=f"nominee ({nm.id}): the best of {nm.event} not seated")
        nominees[nm.id] = (link, {"id": nm.id, "reading": nm.reading, "picker": nm.picker,
                                  "pick": nm.pick, "event": nm.event, "source": nm.source})
    return nominees


def _named_pick(nm, key, file, pool, elig) -> Link:
    if nm.pick is None:
        raise ScenarioError('reading "named" needs a pick', file=file, key=f"{key}.pick")
    i = pool.find(nm.pick, f"{key}.pick")
    if elig and i not in elig:
        raise ScenarioError("the pick is not among the eligible", file=file,
                            key=f"{key}.pick", value=nm.pick)
    return Link(FIXED, player=i, text=f"nominee ({nm.id}): {nm.pick}")


def _link(src, key, file, pool, ids, list_ids, nominees) -> Link:
    set_ = [k for k, v in (("fixed", src.fixed), ("event", src.event),
                           ("rating_list", src.rating_list), ("nominee", src.nominee)) if v]
    if len(set_) != 1:
        raise ScenarioError("a chain link sets exactly one of fixed, event, rating_list, "
                            "nominee", file=file, key=key, value=", ".join(set_) or "none")
    if src.fixed:
        i = pool.find(src.fixed, f"{key}.fixed")
        if not pool.players[i].ratings:
            raise ScenarioError("no rating for this player: list him in the cycle's "
                                "[[players]]", file=file, key=f"{key}.fixed", value=src.fixed)
        return Link(FIXED, player=i, text=src.fixed)
    if src.event:
        if src.event not in ids:
            raise ScenarioError("no such event in the cycle", file=file, key=f"{key}.event",
                                value=src.event)
        if (src.place is None) == (not src.best):
            raise ScenarioError("an event link says place = N or best = true", file=file,
                                key=key, value=src.event)
        if src.best:
            return Link(BEST, event=ids[src.event], text=f"best of {src.event} not seated")
        return Link(PLACE, event=ids[src.event], place=src.place - 1,
                    text=f"place {src.place} of {src.event}")
    if src.rating_list:
        if src.rating_list not in list_ids:
            raise ScenarioError("no such rating list in the cycle", file=file,
                                key=f"{key}.rating_list", value=src.rating_list)
        return Link(LIST, list=list_ids[src.rating_list],
                    text=f"highest-rated not seated, list {src.rating_list}")
    if src.nominee not in nominees:
        raise ScenarioError("no such nominee rule in the cycle", file=file,
                            key=f"{key}.nominee", value=src.nominee)
    return nominees[src.nominee][0]


def _seats(f, file, pool, ids, list_ids, nominees, events) -> list[SeatRule]:
    seat_ids = {s.id: k for k, s in enumerate(f.seats)}
    if len(seat_ids) != len(f.seats):
        raise ScenarioError("seat id used twice", file=file, key="seats",
                            value=[s.id for s in f.seats])
    own = [[_link(src, f"seats[{k}].chain[{j}]", file, pool, ids, list_ids, nominees)
            for j, src in enumerate(s.chain)] for k, s in enumerate(f.seats)]
    out = []
    for k, s in enumerate(f.seats):
        links = list(own[k])
        seen = [k]
        fb = s.fallback
        while fb is not None:
            if fb not in seat_ids:
                raise ScenarioError("no such seat", file=file, key=f"seats[{k}].fallback",
                                    value=fb)
            j = seat_ids[fb]
            if j in seen:
                raise ScenarioError("the fallbacks run in a circle", file=file,
                                    key=f"seats[{k}].fallback", value=fb)
            seen.append(j)
            links += own[j]
            fb = f.seats[j].fallback
        if not s.chain:
            raise ScenarioError("a seat needs a chain", file=file, key=f"seats[{k}].chain",
                                value=s.id)
        out.append(SeatRule(s.id, s.path, tuple(links)))
    return out


def _facts(fmt_name: str, p) -> tuple[tuple, dict]:
    """(aliases, ratings by class) of an event's player, as each format keeps them."""
    if fmt_name == "group-series":
        r = {"classical": p.rating}
        r.update({k: v for k, v in (("rapid", p.rapid), ("blitz", p.blitz)) if v is not None})
        return tuple(p.aliases), r
    if fmt_name == "knockout-series":
        return (), dict(p.ratings)
    return tuple(p.aliases), dict(p.ratings)


def _yield_set(link, members, lists) -> frozenset:
    """Every pool player a link could ever yield."""
    if link.kind == FIXED:
        return frozenset((link.player,))
    if link.kind in (BEST, PLACE):
        return frozenset(link.among) if link.among else members[link.event]
    return frozenset(lists[link.list].order)


def _can_run_dry(link, k, seats, members, lists) -> bool:
    """Whether seat k's ``link`` can find everyone it could yield seated elsewhere: it yields
    from a set C, and as many other seats can take a player of C as C has players."""
    if link.kind in (FIXED, PLACE):
        return True
    c = _yield_set(link, members, lists)
    rivals = sum(1 for j, o in enumerate(seats) if j != k and any(
        _yield_set(x, members, lists) & c for x in o.links))
    return len(c) <= rivals


def _can_take(o, player, members, lists) -> bool:
    """Whether an earlier seat's link ``o`` can take ``player``."""
    if o.kind == FIXED:
        return o.player == player
    if o.kind in (BEST, PLACE):
        return player in (o.among or members[o.event])
    return o.kind == LIST and player in lists[o.list].order


def _two_fixed(seats, file) -> None:
    """A player in two fixed seats."""
    first_fixed: dict[int, int] = {}
    for k, s in enumerate(seats):
        lk = s.links[0]
        if lk.kind == FIXED:
            if lk.player in first_fixed:
                raise ScenarioError(f"player in two fixed seats ({seats[first_fixed[lk.player]].id}"
                                    f" and {s.id})", file=file, key=f"seats[{k}].chain[0].fixed",
                                    value=lk.text)
            first_fixed[lk.player] = k


def _check_fixed(seats, file, withdrawals, members, lists) -> None:
    """A player in two fixed seats, and a seat nobody can fill: a chain whose every link can
    run dry (fixed players only: a withdrawal, or an earlier seat's event, list or nominee
    that can take him)."""
    _two_fixed(seats, file)
    gone = {w.player for w in withdrawals}
    for k, s in enumerate(seats):
        if not all(_can_run_dry(lk, k, seats, members, lists) for lk in s.links):
            continue
        # fixed players only (or short lists): dry if every one can be gone or taken earlier
        safe = any(lk.kind == FIXED and lk.player not in gone
                   and not any(_can_take(o, lk.player, members, lists)
                               for e in seats[:k] for o in e.links)
                   for lk in s.links)
        if not safe:
            raise ScenarioError("a seat nobody can fill in some run: its chain (fallbacks "
                                "included) can run dry; end it with an event's best or a "
                                "rating list", file=file, key=f"seats[{k}].chain", value=s.id)

