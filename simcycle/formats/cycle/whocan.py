"""Can X still reach the cycle's final (the Candidates)?  The seat allocation (``rules``)
combined with each unfinished event's own whocan, for one target: "a seat of the final".

The seats are walked in priority order while they are certain:

* a fixed seat whose player is not withdrawn (as known at the checkpoint) and not seated
  before goes to him; a withdrawn one passes down its chain;
* an event's place or "best not yet seated" links of a finished event take from its final
  standings;
* a rating-list link takes the highest on the list not withdrawn and not seated, when every
  player above him is already settled (seated or withdrawn).

The first seat that depends on an event still to play opens the event's question: its
consecutive "best" links of that event (k of them) are the event's top k among the eligible
players not seated before (passing-down).  That question is answered by the event format's
own exact backend (the group series' mixed-integer programs with rivals = those players, the
same witnesses, replayed) within the work budget; its rows give clinched / alive (with the
event path in words) / eliminated / undetermined.  Seats after an open seat are decided only
when no open seat can take their player: a rating-list seat for X is out of reach when a
player above X on the list has no way to be seated before it (no fixed seat, in no event
still to play), and certain when everyone above X is already seated; anything else is
``undetermined``.  Nothing here simulates: no kernel is compiled.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...whocan.core import ALIVE, CLINCHED, ELIMINATED, NA, UNDETERMINED
from . import rules
from .scenario import BEST, FIXED, LIST, PLACE, Cycle

DEFAULT_BUDGET = 20000     # work units (solver nodes) for the events' questions


def _pool(scn: Cycle, name: str) -> int | None:
    key = name.strip().casefold()
    for i, p in enumerate(scn.players):
        if key in (a.strip().casefold() for a in (p.name, *p.aliases)):
            return i
    return None


def _finished(part, at) -> bool:
    cps = part.fmt.checkpoints(part.scn)
    return (at or cps[-1]) == cps[-1] and _complete(part)


def _complete(part) -> bool:
    st = part.fmt.standings(part.scn, None)
    return bool(st.get("final", True)) and not st.get("games_left") and not st.get(
        "matches_left")


def _order(scn: Cycle, part) -> list[int]:
    st = part.fmt.standings(part.scn, None)
    return [i for i in (_pool(scn, r["name"]) for r in st["players"]) if i is not None]


def _event_rows(scn: Cycle, e: int, at, k: int, seated: set, gone: set, budget,
                fixed=None) -> dict:
    """{pool player: row} of "top k of event e among the eligible players not in seated";
    ``fixed``: the event's own what-ifs (its ``parse_fix`` keys), counted as played."""
    part = scn.events[e]
    es = part.scn
    if part.fmt.name == "group-series":
        from ...whocan.core import analyse
        from ..group_series import rules as gs_rules
        from ..group_series.whocan import QUESTION_LIMIT, SeriesBackend
        st = gs_rules.standings(es, at, fixed or None)
        order = [es.index[r["name"].casefold()] for r in st["players"]]
        backend = SeriesBackend(es, at, "rule", order, True, fixed or None)
        el = backend.model.eligible
        n = len(es.players)
        pool = [_pool(scn, nm) for nm in es.names]
        out = [j for j in range(n) if el[j] and pool[j] not in seated and pool[j] not in gone]
        rivals = {x: ([j for j in out if j != x] if x in out else None) for x in range(n)}
        rows = analyse(backend, es.names, order, {"seat": (k, rivals)}, budget,
                       QUESTION_LIMIT)["seat"]
        return {pool[x]: r for x, r in zip(order, rows) if pool[x] is not None}
    # another format: its own whocan, when its qualifying places are the same question
    d = part.fmt.whocan(es, at, budget, **({"fixed": fixed} if fixed else {}))
    names = [p.name for p in es.players]
    if k == es.qualifying_places and not ({_pool(scn, n) for n in names} & (seated | gone)):
        return {_pool(scn, r["name"]): r for r in d["targets"].get("qualify", [])}
    return {}


@dataclass
class _Walk:
    """The seats walked in priority order: what is certain so far, each player's routes
    to a seat after an open one, and the events whose question was opened."""
    scn: Cycle
    ev_at: list
    gone: set
    done: list
    orders: dict
    open_field: set                      # pool players of events still to play
    budget: int
    fixed: dict | None
    nm: list = field(default_factory=list)
    seated: dict = field(default_factory=dict)     # player -> the seat's path, certain
    routes: dict = field(default_factory=dict)     # player -> [(status, words, ...)]
    opened: bool = False                 # a seat before depends on an event still to play
    taken_by_events: list = field(default_factory=list)    # (event, k, path) opened

    def __post_init__(self):
        self.nm = [p.name for p in self.scn.players]
        self.routes = {i: [] for i in range(len(self.nm))}

    def fixed_link(self, lk):
        """A fixed seat's player, "open", or None (passes down the chain)."""
        p = lk.player
        if p in self.gone or p in self.seated:
            return None
        if self.opened and p in self.open_field:
            return "open"
        return p

    def finished_link(self, lk):
        """A place or "best" link of a finished event: its player, "open", or None."""
        order = self.orders[lk.event]
        cand = ([order[lk.place]] if lk.kind == PLACE and lk.place < len(order) else
                [p for p in order if not lk.among or p in lk.among]
                if lk.kind == BEST else [])
        cand = [p for p in cand if p not in self.gone and p not in self.seated]
        if self.opened and any(p in self.open_field for p in cand[:1]):
            return "open"
        return cand[0] if cand else None

    def open_event(self, seats, s, seat, e) -> int:
        """The first seat of an event still to play: its k consecutive "best" seats asked of
        the event at once (routes for every player it answers); returns k."""
        k = 1
        while (s + k < len(seats) and seats[s + k].links[:1]
               and seats[s + k].links[0].kind == BEST
               and seats[s + k].links[0].event == e):
            k += 1
        mine = {pk: v for (i, pk), v in (self.fixed or {}).items() if i == e}
        rows = _event_rows(self.scn, e, self.ev_at[e], k, set(self.seated), self.gone,
                           self.budget, mine)
        self.taken_by_events.append((e, k, seat.path))
        for p, r in rows.items():
            words = r.get("says") or []
            self.routes[p].append((r["status"], r.get("via"), seat.path, k, words,
                                   r.get("path"), r.get("at_worst")))
        self.opened = True
        return k

    def list_routes(self, seat, rl) -> None:
        """A rating-list seat after an open seat: each candidate's chance, in list order."""
        nm, routes = self.nm, self.routes
        ahead = [p for p in rl.order if p not in self.gone and p not in self.seated]
        before = {a: list(routes[a]) for a in ahead}   # the seats before this one

        def can_sit(a):     # a can take a seat before this one (an event's route)
            return any(r[0] in (ALIVE, CLINCHED, UNDETERMINED) for r in before[a])

        def sure(a):
            return any(r[0] == CLINCHED for r in before[a])
        path = f"{seat.path} (rating list {rl.date})"
        for j, p in enumerate(ahead):
            above = ahead[:j]
            stuck = [a for a in above if not can_sit(a)]
            if stuck:           # someone above cannot be seated before: out of reach
                for b in ahead[j:]:
                    routes[b].append((ELIMINATED, None, path, 1, [
                        f"{nm[stuck[0]]}, above him on the {rl.date} list, cannot "
                        "take an earlier seat"]))
                break
            if all(sure(a) for a in above):
                routes[p].append((CLINCHED, None, path, 1, [
                    f"the highest-rated player on the {rl.date} list not seated "
                    "otherwise: this seat, unless he takes an earlier one"]))
            elif len(above) == 1 and any(r[0] == ALIVE for r in before[above[0]]):
                a = above[0]
                r = next(r for r in before[a] if r[0] == ALIVE)
                routes[p].append((ALIVE, r[1], path, 1, [
                    f"this seat if {nm[a]}, above him on the {rl.date} list, takes a "
                    f"seat of the {r[2]} first: " + " ".join(r[4])], r[5]))
            else:
                routes[p].append((UNDETERMINED, None, path, 1, [
                    f"needs {', '.join(nm[a] for a in above)} seated before it "
                    "(a joint question on the events: not asked)"]))

    def event_link(self, seats, s, seat, lk):
        """A place or "best" link: (who gets the seat, seats consumed beyond this one)."""
        e = lk.event
        if self.done[e]:
            return self.finished_link(lk), 0
        if lk.kind == BEST and not self.opened and not lk.among:
            return "event", self.open_event(seats, s, seat, e) - 1
        return "open", 0

    def list_link(self, seat, lk):
        """A rating-list link: its highest player not settled (None: passes down), or, after
        an open seat, each candidate's route ("event")."""
        rl = self.scn.rating_lists[lk.list]
        if not self.opened:
            ahead = [p for p in rl.order if p not in self.gone and p not in self.seated]
            return ahead[0] if ahead else None
        self.list_routes(seat, rl)
        return "event"

    def seat(self, seats, s) -> int:
        """Walk seat ``s``'s links in order; returns the index of the next seat."""
        seat = seats[s]
        got = None
        for lk in seat.links:
            skip = 0
            if lk.kind == FIXED:
                got = self.fixed_link(lk)
            elif lk.kind in (PLACE, BEST):
                got, skip = self.event_link(seats, s, seat, lk)
            elif lk.kind == LIST:
                got = self.list_link(seat, lk)
            if got is not None:
                s += skip
                break
        if isinstance(got, int) and got >= 0:
            self.seated[got] = seat.path
        elif got == "open":
            self.opened = True
        return s + 1

    def row(self, i: int) -> dict:
        """Player i's row for the target "qualify"."""
        row = {"name": self.nm[i], "status": None, "via": None, "at_worst": None,
               "path": None, "says": None}
        if i in self.gone:
            row.update(status=NA, says=["withdrawn"])
        elif i in self.seated:
            row.update(status=CLINCHED, via="outright",
                       says=[f"holds a seat: {self.seated[i]}"])
        else:
            row.update(self._route_row(i))
        return row

    def _route_row(self, i: int) -> dict:
        """The status, via and words of a player not seated for certain, from his routes."""
        rs = self.routes[i]
        st = {r[0] for r in rs}
        if CLINCHED in st:
            r = next(r for r in rs if r[0] == CLINCHED)
            return dict(status=CLINCHED, via="outright",
                        says=[f"{r[2]}: " + "; ".join(r[4] or [
                            f"clinched the top {r[3]} of the event not yet qualified"])])
        if ALIVE in st:
            return self._alive_row(next(r for r in rs if r[0] == ALIVE))
        if UNDETERMINED in st or (self.opened and i in self.open_field and not rs):
            r = next((r for r in rs if r[0] == UNDETERMINED), None)
            return dict(status=UNDETERMINED, says=[
                f"{r[2]}: " + "; ".join(r[4]) if r else
                "depends on seats still open (not settled within the work budget)"])
        return dict(status=ELIMINATED, says=[_eliminated_words(rs)])

    def _alive_row(self, r) -> dict:
        """An alive player's row from his first alive route."""
        if r[2] in {t[2] for t in self.taken_by_events}:
            says = [f"finishes in the top {r[3]} of the {r[2]} not yet qualified"
                    + (": " + " ".join(r[4]) if r[4] else "")]
        else:
            says = [f"{r[2]}: " + " ".join(r[4])]
        return dict(status=ALIVE, via=r[1] or "outright",
                    path=r[5] if len(r) > 5 else None,
                    at_worst=r[6] if len(r) > 6 else None, says=says)


def _eliminated_words(rs) -> str:
    """Why a player has no seat left: each route's seat and why it is out of reach."""
    if not rs:
        return "no seat left that can go to him"
    return "; ".join(f"{r[2]}: " + (" ".join(r[4]) if r[4] and r[0] == ELIMINATED
                                    and r[2].endswith(")") else "no longer reachable")
                     for r in rs)


def _open_field(scn: Cycle, done: list) -> set:
    """The pool players of the events still to play."""
    out = set()
    for e, p in enumerate(scn.events):
        if not done[e]:
            out |= {i for i in (_pool(scn, pl.name) for pl in p.scn.players) if i is not None}
    return out


def whocan(scn: Cycle, at, budget=None, fixed=None) -> dict:
    """Rows for the one target "qualify" (a seat of the final), every pool player.
    ``fixed``: what-ifs {(part index, the part's key): value} (``CycleFormat.parse_fix``);
    an event's count as played in its question, the final's change no seat."""
    budget = DEFAULT_BUDGET if budget is None else budget
    ev_at, _ = rules.part_at(scn, at)
    done = [_finished(p, a) for p, a in zip(scn.events, ev_at)]
    walk = _Walk(scn, ev_at, rules.withdrawn(scn, at), done,
                 {e: _order(scn, p) for e, p in enumerate(scn.events) if done[e]},
                 _open_field(scn, done), budget, fixed)
    seats = list(scn.seats)
    s = 0
    while s < len(seats):
        s = walk.seat(seats, s)
    nm = walk.nm
    rows = [walk.row(i) for i in sorted(range(len(nm)),
                                        key=lambda i: (i not in walk.seated, nm[i]))]
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
            "seats": len(scn.seats), "qualifying_places": len(scn.seats),
            "points": {r["name"]: None for r in rows},
            "budget_nodes": budget, "budget_unit": "solver nodes",
            "events_open": [scn.events[e].label for e, _, _ in walk.taken_by_events],
            "targets": {"qualify": rows}}
