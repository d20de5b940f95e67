"""Who can still finish first, or in the qualifying places, of a best-N tour (ACP Tour
2004-05 regulations §5.4-5.5): the whocan backend (``whocan/core.py`` asks the questions).

A result set gives every event still to play a complete set of places for its listed players:
a round robin, Dortmund- or Grand-Slam-style event (``SIM_RR``) any order of its field; a
knock-out its bracket (``shared.brackets.bracket_size``, ``seeding_order``: the losers of
a round share the places they cover, as the kernel plays it); an open (``SIM_OPEN``, the
listed players only) distinct places among all ``n_players``, the unlisted players taking the
rest.  A player's key is the regulations' order (``rules.tiebreak_key``: best-N total, fewer
counted events, the total without the worst result, ...); lots (§5.5.3) leave players level.

The answers are sound, not complete:
* "cannot" comes from key bounds only: a member's lowest total (last place in every event
  still to play; more results never lower a best-N total) and highest (first place in every
  one);
* "can" comes from a complete result set found by a search and replayed through the
  standings code (``rules.counted``, ``rules.tiebreak_key``).  The search puts players in
  places by priority lists: the player asked about first (or last), the rivals who would pass
  them anyway next (or those closest below), the others last (or first); then, while its work
  budget lasts, random priority lists (a seeded generator: the same input, the same answer).
A question neither settles is "undetermined": never a guess.  Work is counted in result sets
evaluated (one unit each).
"""

from __future__ import annotations

import zlib

import numpy as np

from ...enums import SIM_KO, SIM_OPEN
from ...whocan.core import FEASIBLE, LEVEL, OUTRIGHT, OVER_BUDGET, Work, holds
from ...whocan.core import analyse as analyse_rows
from ..shared.brackets import bracket_size, seeding_order
from .rules import UNIT, counted, event_place_points, played, share_points, tiebreak_key
from .scenario import Tour

DEFAULT_BUDGET = 20000     # result sets evaluated in one whocan call
QUESTION_LIMIT = 400       # result sets evaluated for one question
BIG = 10 ** 9


def event_places(ev, priority: list[int], down: set) -> tuple:
    """((player, first place, last place), ...) of one event: players in ``priority`` order
    (field players not listed come last), those in ``down`` pushed to the bottom."""
    rank = {p: k for k, p in enumerate(priority)}
    order = sorted(ev.field, key=lambda p: (p in down, rank.get(p, len(rank)), p))
    if ev.sim == SIM_KO:
        return _bracket(ev, order)
    n = max(ev.n_players, len(ev.field))
    ups = [p for p in order if p not in down]
    downs = [p for p in order if p in down]
    places = {p: k + 1 for k, p in enumerate(ups)}
    if ev.sim == SIM_OPEN:
        places.update({p: n - len(downs) + k + 1 for k, p in enumerate(downs)})
    else:
        places.update({p: len(ups) + k + 1 for k, p in enumerate(downs)})
    return tuple((p, places[p], places[p]) for p in ev.field)


def _bracket(ev, order: list[int]) -> tuple:
    """A knock-out played with the player earlier in ``order`` winning every match; the field
    is seeded in its listed order; the losers of a round share the places they cover."""
    size = bracket_size(len(ev.field))
    better = {p: k for k, p in enumerate(order)}
    alive = [ev.field[s] if s < len(ev.field) else None for s in seeding_order(size)]
    place = {}
    while len(alive) > 1:
        nxt, lost = [], []
        for a, b in zip(alive[::2], alive[1::2]):
            if a is None or b is None:
                nxt.append(b if a is None else a)
                continue
            w = a if better[a] < better[b] else b
            nxt.append(w)
            lost.append(b if w == a else a)
        left = sum(p is not None for p in nxt)
        for p in lost:
            place[p] = (left + 1, left + len(lost))
        alive = nxt
    place[alive[0]] = (1, 1)
    return tuple((p, *place[p]) for p in ev.field)


class TourBackend:
    """The events still to play at a checkpoint; witnesses are {event index: results}."""

    def __init__(self, scn: Tour, at):
        self.scn = scn
        done = played(scn, at)
        self.todo = [k for k, d in enumerate(done) if not d]
        self.members = list(scn.members)
        self.pp = {k: event_place_points(scn, scn.events[k]) for k in range(len(scn.events))}
        self.base = {m: [] for m in self.members}
        self._shares = {}     # (event, first place, last place) -> share_points
        for k, d in enumerate(done):
            if d:
                self._add(self.base, k, scn.events[k].results)
        self.now = {m: sum(counted(self.base[m], scn.best_n)) for m in self.members}
        self._bounds()

    def _add(self, per, k, results):
        pp, memo = self.pp[k], self._shares
        for p, lo, hi in results:
            if p in per:
                v = memo.get((k, lo, hi))
                if v is None:
                    v = memo[k, lo, hi] = share_points(pp, lo, hi)
                per[p].append(v)

    def _bounds(self):
        lo, hi = {}, {}
        for m in self.members:
            mine = [k for k in self.todo if m in self.scn.events[k].field]
            worst = [min(self.pp[k][:max(self.scn.events[k].n_players,
                                         len(self.scn.events[k].field))]) for k in mine]
            best = [self.pp[k][0] for k in mine]
            lo[m] = (sum(counted(self.base[m] + worst, self.scn.best_n)), -BIG)
            hi[m] = (sum(counted(self.base[m] + best, self.scn.best_n)), BIG)
        self.lo, self.hi = lo, hi

    # ---- the backend protocol ----------------------------------------------------------------
    def bounds(self):
        return self.lo, self.hi

    def keys(self, witness) -> dict:
        per = {m: list(v) for m, v in self.base.items()}
        for k, results in witness.items():
            self._add(per, k, results)
        return {m: tuple(-v for v in tiebreak_key(counted(per[m], self.scn.best_n)))
                for m in self.members}

    def path(self, witness, x) -> list[dict]:
        nm = self.scn.names
        out = []
        for k in sorted(witness):
            ev = self.scn.events[k]
            for p, lo, hi in sorted(witness[k], key=lambda r: (r[1], nm[r[0]])):
                out.append({"event": ev.name, "player": nm[p],
                            "place": str(lo) if lo == hi else f"{lo}-{hi}",
                            "points": share_points(self.pp[k], lo, hi) / UNIT})
        return out

    def words(self, witness, x) -> list[str]:
        """One sentence per event: the places of the members who score or matter."""
        nm = self.scn.names
        out = []
        for k in sorted(witness):
            ev = self.scn.events[k]
            rows = sorted(witness[k], key=lambda r: (r[1], nm[r[0]]))
            pts = [r for r in rows if share_points(self.pp[k], r[1], r[2]) > 0]
            none = [nm[p] for p, lo, hi in rows if share_points(self.pp[k], lo, hi) == 0]
            out.append(f"{ev.name}: " + ", ".join(
                f"{nm[p]} {lo if lo == hi else f'{lo}-{hi}'}" for p, lo, hi in pts)
                + ("; " if pts and none else "")
                + (f"no points for {', '.join(none)}" if none else ""))
        return out

    def seeds(self, x):
        return ()

    def solve(self, x, rivals, q, question, work: Work | None = None):
        work = Work(QUESTION_LIMIT) if work is None or work.left() is None else work
        for witness in self._candidates(x, rivals, q, question):
            if work.left() == 0:
                return OVER_BUDGET, None
            work.spend(1)
            if holds(self.keys(witness), x, rivals, q, question):
                return FEASIBLE, witness
        return OVER_BUDGET, None         # not reached: the candidates do not end

    # ---- the search --------------------------------------------------------------------------
    def _fill(self, priority, down) -> dict:
        return {k: event_places(self.scn.events[k], priority, down) for k in self.todo}

    def _candidates(self, x, rivals, q, question):
        """Priority lists, structured ones first, then seeded random ones without end."""
        winning = question in (OUTRIGHT, LEVEL)
        by_hi = sorted(rivals, key=lambda j: (-self.hi[j][0], j))
        by_now = sorted(rivals, key=lambda j: (-self.now[j], j))
        others = [p for p in range(len(self.scn.players)) if p != x and p not in rivals]
        if winning:
            # x first; q-1 rivals allowed ahead (the strongest), the rest at the bottom,
            # the least dangerous of them highest
            for ranked in (by_now, by_hi):
                ahead = ranked[:q - 1]
                rest = ranked[q - 1:][::-1]
                yield self._fill([x] + ahead + others + rest, set(rest))
                yield self._fill(ahead + [x] + others + rest, set(rest))
        else:
            # x last; the q rivals closest to x (below it first) as high as possible
            for ranked in (by_now[::-1], by_hi[::-1], by_now, by_hi):
                chosen = ranked[:q]
                yield self._fill(chosen + [j for j in rivals if j not in chosen] + others,
                                 {x})
        seed = zlib.crc32(f"{x}|{q}|{question}".encode())
        rng = np.random.default_rng(seed)
        pool = list(rivals) + others
        while True:
            perm = [pool[i] for i in rng.permutation(len(pool))]
            cut = int(rng.integers(0, len(perm) + 1))
            if winning:
                yield self._fill([x] + perm, set(perm[cut:]))
            else:
                yield self._fill(perm, {x} | set(perm[cut:]))


def bound_words(backend: TourBackend, x: int, q: int, status: str, target: str) -> list[str]:
    """Why a row is clinched or eliminated, in totals a reader can add up: both come from
    the key bounds (the lowest total: last in every event left; the highest: first)."""
    nm = backend.scn.names
    lo, hi = backend.lo, backend.hi
    what = "first place" if target == "first" else f"the top {q}"
    rivals = [j for j in backend.members if j != x]
    if status == "eliminated":
        sure = sorted((j for j in rivals if lo[j][0] > hi[x][0]), key=lambda j: -lo[j][0])
        return [f"can no longer reach {what}: {hi[x][0] / UNIT:.2f} at most (first in every "
                "event left), and " + ", ".join(f"{nm[j]} is sure of {lo[j][0] / UNIT:.2f}"
                                               for j in sure[:q])]
    can = [j for j in rivals if hi[j][0] >= lo[x][0]]
    return [f"has clinched {what}: {lo[x][0] / UNIT:.2f} at least (last in every event left), "
            f"and only {len(can)} rival(s) can reach that total"]


def whocan(scn: Tour, at, budget=None) -> dict:
    """Rows for targets "first" and "qualify" (members only), with the report's facts."""
    backend = TourBackend(scn, at)
    members = backend.members
    order = sorted(members, key=lambda m: tuple(tiebreak_key(counted(backend.base[m],
                                                                     scn.best_n))) + (m,))
    rivals = {x: [j for j in members if j != x] for x in members}
    targets = {"first": (1, rivals), "qualify": (scn.qualifying_places, rivals)}
    rows = analyse_rows(backend, scn.names, order, targets,
                        DEFAULT_BUDGET if budget is None else budget, QUESTION_LIMIT)
    for tname, (q, _) in targets.items():
        for x, row in zip(order, rows[tname]):
            if row["status"] in ("clinched", "eliminated"):
                row["says"] = bound_words(backend, x, q, row["status"], tname)
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
            "events_left": len(backend.todo), "best_n": scn.best_n,
            "qualifying_places": scn.qualifying_places,
            "points": {scn.names[m]: backend.now[m] / UNIT for m in members},
            "budget_nodes": DEFAULT_BUDGET if budget is None else budget,
            "budget_unit": "result sets", "targets": rows}
