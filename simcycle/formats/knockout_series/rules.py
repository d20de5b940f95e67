"""The rules of a knock-out series as pure functions: checkpoints, what is known at one, the
events' brackets walked with the known matches, GP points, the series table and its
tiebreaks, prize money and the standings.  Plain Python; the kernel (``nb.py``), its twin
(``simcycle/reference/knockout.py``), ``odds``, ``swing`` and whocan follow these.

Units: GP points whole, classical points in half points, money in the currency.
"""

from __future__ import annotations

from ...enums import (SER_CLASSICAL, SER_EVENTS_WON, SER_H2H, SER_LOTS, SER_SECOND,
                      SERIES_CRITERIA, UNKNOWN_TB_STEP)
from ...errors import ScenarioError
from ..shared.brackets import place_value, round_name
from ..shared.entries import ENTRY_DONE, ENTRY_IN, ENTRY_TO_PLAY
from ..shared.prizes import runs, shared_money
from .scenario import KnockoutSeries, Match

FIELD = {SER_EVENTS_WON: "won", SER_SECOND: "second", SER_CLASSICAL: "cls"}   # table columns
DETERMINISTIC = (SER_EVENTS_WON, SER_SECOND, SER_CLASSICAL)
CRITERION_NAME = {v: k for k, v in SERIES_CRITERIA.items()}


# ---- checkpoints and what is known at one --------------------------------------------------
def n_rounds(size: int) -> int:
    return size.bit_length() - 1


def _checkpoint_names(scn: KnockoutSeries):
    """((event, round), name) of every checkpoint after ``start``, in playing order."""
    for e, ev in enumerate(scn.events):
        rounds = n_rounds(ev.size)
        for r in range(rounds):
            yield (e, r), (f"event{e + 1}" if r == rounds - 1
                           else f"event{e + 1}-{round_name(r, rounds)}")


def checkpoints(scn: KnockoutSeries) -> list[str]:
    return ["start"] + [name for _, name in _checkpoint_names(scn)]


def cutoff(scn: KnockoutSeries, at: str | None):
    """(event, round) of the last round counted; None = everything."""
    if at is None:
        return None
    if at == "start":
        return (-1, 0)
    for er, name in _checkpoint_names(scn):
        if name == at:
            return er
    raise ScenarioError("no such checkpoint", file=scn.file, key="--at", value=at)


def counted_matches(scn: KnockoutSeries, at: str | None, fixed=None) -> dict:
    """{(event, round, slot): Match} of the entries counted at ``at``; ``fixed`` adds what-if
    results {(event, round, slot): Match} (swing)."""
    cut = cutoff(scn, at)
    out = {(m.event, m.round, m.slot): m for m in scn.matches
           if cut is None or (m.event, m.round) <= cut}
    out.update(fixed or {})
    return out


def walk(scn: KnockoutSeries, known: dict):
    """Every match of every event whose two players are known and which is not decided, in
    playing order: (event, round, slot, upper, lower, entry or None)."""
    for e, ev in enumerate(scn.events):
        alive = list(ev.positions)
        for r in range(n_rounds(ev.size)):
            nxt = []
            for j in range(len(alive) // 2):
                up, lo = alive[2 * j], alive[2 * j + 1]
                m = known.get((e, r, j))
                if m is not None and m.winner is not None:
                    nxt.append(m.winner)
                    continue
                if up is not None and lo is not None:
                    yield e, r, j, up, lo, m
                nxt.append(None)
            alive = nxt


def open_matches(scn: KnockoutSeries, at: str | None, fixed=None):
    """The matches to be played next: (event, round, slot, upper, lower) of the earliest round
    that has a match with both players known and no result (not even a game)."""
    first = None
    out = []
    for e, r, j, up, lo, m in walk(scn, counted_matches(scn, at, fixed)):
        if first is not None and (e, r) != first:
            break
        if m is None or not m.games:
            first = (e, r)
            out.append((e, r, j, up, lo))
    return out


def remaining_slots(scn: KnockoutSeries, known: dict) -> list[tuple]:
    """(event, round, slot) of every match not decided, in playing order per event."""
    out = []
    for e, ev in enumerate(scn.events):
        for r in range(n_rounds(ev.size)):
            for j in range(ev.size >> (r + 1)):
                m = known.get((e, r, j))
                if m is None or m.winner is None:
                    out.append((e, r, j))
    return out


# ---- one event, then the series table -------------------------------------------------------
def event_state(scn: KnockoutSeries, e: int, known: dict):
    """Walk event e's bracket with the known matches.  Returns per field player
    {out_round, bonus (classical match wins), cls (classical half points), won} and the
    complete matches as (upper, lower, cls_upper, cls_lower)."""
    ev = scn.events[e]
    alive = list(ev.positions)
    info = {p: {"out_round": None, "bonus": 0, "cls": 0, "won": False, "played": False}
            for p in ev.positions}
    log = []
    for r in range(n_rounds(ev.size)):
        nxt = []
        for j in range(len(alive) // 2):
            up, lo = alive[2 * j], alive[2 * j + 1]
            m = known.get((e, r, j))
            if up is None or lo is None or m is None or m.winner is None:
                if m is not None:        # in progress: classical games so far count
                    info[up]["cls"] += m.cls_upper
                    info[lo]["cls"] += m.cls_lower
                    info[up]["played"] = info[lo]["played"] = True
                nxt.append(None)
                continue
            info[up]["cls"] += m.cls_upper
            info[lo]["cls"] += m.cls_lower
            info[up]["played"] = info[lo]["played"] = True
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


def secured_round(scn: KnockoutSeries, info: dict, p: int, e: int, known: dict) -> int:
    """Rounds from the end the player is secured: 0 = winner (Reading ``standings_points =
    "secured"``: a player still in has the place of losing in the first round he has not won)."""
    rounds = n_rounds(scn.events[e].size)
    d = info[p]
    if d["won"]:
        return 0
    if d["out_round"] is not None:
        return rounds - d["out_round"]
    pos = scn.events[e].positions.index(p)
    r = 0
    while r < rounds:
        m = known.get((e, r, pos >> (r + 1)))
        if m is None or m.winner != p:
            break
        r += 1
    return rounds - r


def series_table(scn: KnockoutSeries, known: dict):
    """Per player: events (GP points or None), entries (per event: ENTRY_DONE, ENTRY_IN,
    ENTRY_TO_PLAY or None when not entered), points, won, second, cls (half points), prize
    (event money); the match log; and whether the series is complete."""
    ne = len(scn.events)
    rows = [{"events": [None] * ne, "entries": [None] * ne, "points": 0, "won": 0, "second": 0,
             "cls": 0, "prize": 0.0} for _ in scn.players]
    log = []
    complete = True
    for e, ev in enumerate(scn.events):
        info, elog = event_state(scn, e, known)
        log.extend(elog)
        for p in ev.positions:
            back = secured_round(scn, info, p, e, known)
            if not info[p]["won"] and info[p]["out_round"] is None:
                complete = False
            pts = place_value(scn.place_points, back) + scn.classical_bonus * info[p]["bonus"]
            rw = rows[p]
            rw["events"][e] = pts
            rw["entries"][e] = (ENTRY_DONE if info[p]["won"] or info[p]["out_round"] is not None
                                else ENTRY_IN if info[p]["played"] else ENTRY_TO_PLAY)
            rw["points"] += pts
            rw["won"] += back == 0
            rw["second"] += back == 1 and info[p]["out_round"] is not None
            rw["cls"] += info[p]["cls"]
            rw["prize"] += place_value(scn.event_prizes, back)
    return rows, log, complete


def _split(groups, value):
    out = []
    for g in groups:
        for v in sorted({value(p) for p in g}, reverse=True):
            out.append([p for p in g if value(p) == v])
    return out


def rank_series(scn: KnockoutSeries, rows, log, players) -> list[list[int]]:
    """Groups of players in order (players level on every criterion but lots share a group).
    Head-to-head (Reading ``head_to_head = "once"``): classical half points in the matches
    among the players of the group still level when it is reached."""
    groups = _split([sorted(players)], lambda p: rows[p]["points"])
    for c in scn.criteria:
        if c == SER_LOTS:
            continue
        new = []
        for g in groups:
            if len(g) == 1:
                new.append(g)
            elif c == SER_H2H:
                gs = set(g)
                val = {p: 0 for p in g}
                for up, lo, cu, cl in log:
                    if up in gs and lo in gs:
                        val[up] += cu
                        val[lo] += cl
                new.extend(_split([g], val.__getitem__))
            else:
                new.extend(_split([g], lambda p, f=FIELD[c]: rows[p][f]))
        groups = new
    return groups


def overall_shares(scn: KnockoutSeries, rows, order: list[int]) -> dict[int, float]:
    """Overall prize per player: players level on GP points share the prizes of the places
    they occupy."""
    return shared_money(runs(order, lambda p: rows[p]["points"]), scn.overall_prizes)


def standings(scn: KnockoutSeries, at: str | None, fixed=None) -> dict:
    known = counted_matches(scn, at, fixed)
    rows, log, complete = series_table(scn, known)
    groups = rank_series(scn, rows, log, scn.counting)
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
                "events": rw["events"], "entries": rw["entries"], "status": status,
            })
        rank += len(g)
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest", "complete": complete,
            "currency": scn.currency,
            "events": [ev.name for ev in scn.events], "players": out,
            "qualifying_places": scn.qualifying_places}


# ---- what whocan compares -------------------------------------------------------------------
def det_criteria(scn: KnockoutSeries) -> list[int]:
    """Deterministic criteria after GP points: the scenario's order up to the first
    head-to-head / lots."""
    out = []
    for c in scn.criteria:
        if c not in DETERMINISTIC:
            break
        out.append(c)
    return out


def det_key(scn: KnockoutSeries, row: dict) -> tuple:
    """The deterministic comparison tuple of a series-table row."""
    return (row["points"],) + tuple(row[FIELD[c]] for c in det_criteria(scn))


def what_if(e: int, r: int, j: int, upper: int, lower: int, winner: int, u: int,
            n_cls: int) -> Match:
    """A complete result assumed for an open match: ``u`` = the upper player's classical half
    points; u == n_cls (level) means tiebreaks, the deciding step unknown."""
    return Match(e, r, j, upper, lower, None, (), winner, 0 if u != n_cls else UNKNOWN_TB_STEP,
                 u, 2 * n_cls - u, source="what-if")
