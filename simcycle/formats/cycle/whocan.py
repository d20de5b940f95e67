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


def whocan(scn: Cycle, at, budget=None, fixed=None) -> dict:
    """Rows for the one target "qualify" (a seat of the final), every pool player.
    ``fixed``: what-ifs {(part index, the part's key): value} (``CycleFormat.parse_fix``);
    an event's count as played in its question, the final's change no seat."""
    budget = DEFAULT_BUDGET if budget is None else budget
    ev_at, _ = rules.part_at(scn, at)
    gone = rules.withdrawn(scn, at)
    done = [_finished(p, a) for p, a in zip(scn.events, ev_at)]
    orders = {e: _order(scn, p) for e, p in enumerate(scn.events) if done[e]}
    open_field = set()          # pool players of events still to play
    for e, p in enumerate(scn.events):
        if not done[e]:
            open_field |= {i for i in (_pool(scn, pl.name) for pl in p.scn.players)
                           if i is not None}
    nm = [p.name for p in scn.players]
    seated: dict[int, str] = {}          # player -> the seat's path, certain
    routes: dict[int, list] = {i: [] for i in range(len(nm))}   # (status, words)
    opened = False                       # a seat before depends on an event still to play
    taken_by_events = []                 # (event, k) opened
    seats = list(scn.seats)
    s = 0
    while s < len(seats):
        seat = seats[s]
        got = None
        for lk in seat.links:
            if lk.kind == FIXED:
                p = lk.player
                if p in gone or p in seated:
                    continue
                if opened and p in open_field:
                    got = "open"
                    break
                got = p
                break
            if lk.kind in (PLACE, BEST):
                e = lk.event
                if done[e]:
                    cand = ([orders[e][lk.place]] if lk.kind == PLACE and lk.place
                            < len(orders[e]) else
                            [p for p in orders[e] if not lk.among or p in lk.among]
                            if lk.kind == BEST else [])
                    cand = [p for p in cand if p not in gone and p not in seated]
                    if opened and any(p in open_field for p in cand[:1]):
                        got = "open"
                        break
                    if cand:
                        got = cand[0]
                        break
                    continue
                if lk.kind == BEST and not opened and not lk.among:
                    k = 1
                    while (s + k < len(seats) and seats[s + k].links[:1]
                           and seats[s + k].links[0].kind == BEST
                           and seats[s + k].links[0].event == e):
                        k += 1
                    mine = {pk: v for (i, pk), v in (fixed or {}).items() if i == e}
                    rows = _event_rows(scn, e, ev_at[e], k, set(seated), gone, budget, mine)
                    taken_by_events.append((e, k, seat.path))
                    for p, r in rows.items():
                        words = r.get("says") or []
                        routes[p].append((r["status"], r.get("via"), seat.path, k, words,
                                          r.get("path"), r.get("at_worst")))
                    opened = True
                    s += k - 1
                    got = "event"
                    break
                got = "open"
                break
            if lk.kind == LIST:
                rl = scn.rating_lists[lk.list]
                ahead = [p for p in rl.order if p not in gone and p not in seated]
                if not opened:
                    got = ahead[0] if ahead else None
                    if got is None:
                        continue
                    break
                # after an open seat: each candidate's chance, in list order
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
                got = "event"
                break
        if isinstance(got, int) and got >= 0:
            seated[got] = seat.path
        elif got == "open":
            opened = True
        s += 1
    rows = []
    for i in sorted(range(len(nm)), key=lambda i: (i not in seated, nm[i])):
        row = {"name": nm[i], "status": None, "via": None, "at_worst": None, "path": None,
               "says": None}
        if i in gone:
            row.update(status=NA, says=["withdrawn"])
        elif i in seated:
            row.update(status=CLINCHED, via="outright",
                       says=[f"holds a seat: {seated[i]}"])
        else:
            rs = routes[i]
            st = {r[0] for r in rs}
            if CLINCHED in st:
                r = next(r for r in rs if r[0] == CLINCHED)
                row.update(status=CLINCHED, via="outright",
                           says=[f"{r[2]}: " + "; ".join(r[4] or [
                               f"clinched the top {r[3]} of the event not yet qualified"])])
            elif ALIVE in st:
                r = next(r for r in rs if r[0] == ALIVE)
                if r[2] in {t[2] for t in taken_by_events}:
                    says = [f"finishes in the top {r[3]} of the {r[2]} not yet qualified"
                            + (": " + " ".join(r[4]) if r[4] else "")]
                else:
                    says = [f"{r[2]}: " + " ".join(r[4])]
                row.update(status=ALIVE, via=r[1] or "outright",
                           path=r[5] if len(r) > 5 else None,
                           at_worst=r[6] if len(r) > 6 else None, says=says)
            elif UNDETERMINED in st or (opened and i in open_field and not rs):
                r = next((r for r in rs if r[0] == UNDETERMINED), None)
                row.update(status=UNDETERMINED, says=[
                    f"{r[2]}: " + "; ".join(r[4]) if r else
                    "depends on seats still open (not settled within the work budget)"])
            else:
                row.update(status=ELIMINATED, says=[
                    "no seat left that can go to him" if not rs else "; ".join(
                        f"{r[2]}: " + (" ".join(r[4]) if r[4] and r[0] == ELIMINATED
                                       and r[2].endswith(")") else "no longer reachable")
                        for r in rs)])
        rows.append(row)
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
            "seats": len(scn.seats), "qualifying_places": len(scn.seats),
            "points": {r["name"]: None for r in rows},
            "budget_nodes": budget, "budget_unit": "solver nodes",
            "events_open": [scn.events[e].label for e, _, _ in taken_by_events],
            "targets": {"qualify": rows}}
