"""The cycle's rules as pure functions: what each part plays at a checkpoint of the cycle,
who is withdrawn, and the seat allocation in plain Python (the twin of ``nb.allocate_nb``)."""

from __future__ import annotations

from .scenario import BEST, FIXED, LIST, PLACE, Cycle


def checkpoints(scn: Cycle) -> list[str]:
    return list(scn.checkpoint_names)


def part_at(scn: Cycle, at: str | None) -> tuple[list[str | None], str | None]:
    """The checkpoint of each event and of the final at the cycle checkpoint ``at`` (None:
    every result in the files): events before the one ``at`` names are complete (None), the
    later ones and the final at their start."""
    parts = (*scn.events, scn.final)
    if at is None:
        ats = [None] * len(parts)
    elif at == "start":
        ats = ["start"] * len(parts)
    else:
        k = next(i for i, p in enumerate(parts) if at.startswith(p.id + "-")
                 and at[len(p.id) + 1:] in p.fmt.checkpoints(p.scn))
        ats = [None] * k + [at[len(parts[k].id) + 1:]] + ["start"] * (len(parts) - k - 1)
    return ats[:-1], ats[-1]


def withdrawn(scn: Cycle, at: str | None) -> set[int]:
    """Pool players withdrawn as known at ``at`` (None: the latest)."""
    names = scn.checkpoint_names
    i = len(names) if at is None else names.index(at)
    return {w.player for w in scn.withdrawals if names.index(w.known_at) <= i}


def allocate(scn: Cycle, orders: list[list[int]], gone: set[int]) -> list[tuple[int, int]]:
    """(player, link index) of each seat in order: each seat takes the first player its chain
    yields who is not withdrawn and not seated yet (-1, -1: the chain ran dry).  ``orders``:
    each event's final order as pool players, best first."""
    seated: set[int] = set()
    out = []
    for seat in scn.seats:
        got = (-1, -1)
        for j, lk in enumerate(seat.links):
            free = [p for p in _yields(scn, lk, orders) if p not in gone and p not in seated]
            if free:
                got = (free[0], j)
                break
        if got[0] >= 0:
            seated.add(got[0])
        out.append(got)
    return out


def start_numbers(scn: Cycle, field: list[int]) -> list[int]:
    """Pool player at each start number of the final (the twin of ``nb.seat_field_nb``): a
    player the final's file lists keeps his number, the others take the free numbers in seat
    order."""
    listed = {}
    for k, p in enumerate(scn.final.scn.players):
        for i, q in enumerate(scn.players):
            if q.name == p.name or p.name in q.aliases:
                listed[i] = k
    out = [-1] * len(field)
    for p in field:
        if p in listed:
            out[listed[p]] = p
    free = iter(k for k in range(len(field)) if out[k] < 0)
    for p in field:
        if p not in listed:
            out[next(free)] = p
    return out


def _yields(scn: Cycle, lk, orders) -> list[int]:
    """The players a link would take, in its order of preference."""
    if lk.kind == FIXED:
        return [lk.player]
    if lk.kind == PLACE:
        o = orders[lk.event]
        return [o[lk.place]] if lk.place < len(o) else []
    if lk.kind == BEST:
        return [p for p in orders[lk.event] if not lk.among or p in lk.among]
    assert lk.kind == LIST
    return list(scn.rating_lists[lk.list].order)


def link_path(scn: Cycle, seat, lk) -> str:
    """The path a link stands for: a fixed seat's own path; else its source (event, list,
    nominee)."""
    if lk.kind == FIXED and not lk.text.startswith("nominee"):
        return seat.path
    if lk.kind in (PLACE, BEST) and not lk.text.startswith("nominee"):
        return scn.events[lk.event].label
    if lk.kind == LIST:
        rl = scn.rating_lists[lk.list]
        return f"rating list {rl.date}"
    return lk.text.split(":")[0]
