"""The whocan core: one ladder of questions, one row schema, one budget, one witness pool.

For each player x and target (first place: q = 1; the qualifying places: q) the answer is one
of the :data:`STATUSES`:

  clinched      certain whatever the remaining results (no rival can reach x's key);
  alive         some results get them there: ``via`` "outright" (ahead of all but q-1 rivals on
                every compared criterion) or "tiebreak" (only level, so an undecidable step
                such as a play-off, head-to-head on lots or lots decides); ``path`` is one such
                set of results; ``at_worst`` "out" (they can miss the target) or "tiebreak" (they
                cannot be passed, only caught level);
  eliminated    no results get him there, not even level;
  undetermined  the work budget ran out before the question was settled;
  n/a           the target does not apply (e.g. qualified elsewhere).

A *key* is the tuple of everything the format's deterministic rules compare (points, then the
criteria up to the first undecidable one); keys are compared lexicographically.  The four
questions, for rivals R and q places:

  OUTRIGHT    at most q-1 rivals with key >= x's   (x is in, ahead)
  LEVEL       at most q-1 rivals with key >  x's   (x is in, or level with the last one in)
  PASS_LEVEL  at least q rivals with key >= x's    (x can be caught: not clinched)
  PASS        at least q rivals with key >  x's    (x can be passed outright)

A backend answers one question over the remaining results ("feasible" with a witness,
"infeasible", or "over budget"), replays a witness through the format's own standings code (its
keys), and renders a witness as a path.  The core asks the cheapest source first: witnesses
already found (the pool), then the backend; every feasible answer is replayed and checked
before it counts, and "cannot" always comes from the backend's proof (or key bounds).

Budgets count work, never time: one unit per branch-and-bound node a mixed-integer program
solves (its root included, so every program costs at least one unit).  HiGHS is deterministic
and stops at a node limit, so the same input gives the same answers, ``undetermined`` rows
included, on any machine at any load.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable, Iterable, Protocol, Sequence

CLINCHED, ALIVE, UNDETERMINED, ELIMINATED, NA = ("clinched", "alive", "undetermined",
                                                 "eliminated", "n/a")
STATUSES = (CLINCHED, ALIVE, UNDETERMINED, ELIMINATED, NA)

OUTRIGHT, LEVEL, PASS_LEVEL, PASS = "outright", "level", "pass_level", "pass"
FEASIBLE, INFEASIBLE, OVER_BUDGET = "feasible", "infeasible", "over budget"

QUICK_LIMIT = 20     # work units (solver nodes) per question in the first pass over all rows


class Work:
    """A work allowance in units (solver nodes; None = unlimited): what is left, and what was
    spent.  One per whocan call (the budget) and one per question (its limit)."""

    def __init__(self, units: int | None):
        self.cap = units
        self.used = 0

    def left(self) -> int | None:
        return None if self.cap is None else max(self.cap - self.used, 0)

    def spend(self, units: int) -> None:
        self.used += units

    def part(self, *caps: int | None) -> "Work":
        """A sub-allowance: at most what is left here and at most each of ``caps``."""
        c = [v for v in (self.left(), *caps) if v is not None]
        return Work(min(c) if c else None)


Budget = Work


class Backend(Protocol):
    """What a format's whocan backend provides (``formats/*/whocan.py``)."""

    def solve(self, x: int, rivals: Sequence[int], q: int, question: str,
              work: Work) -> tuple[str, Any]:
        """(FEASIBLE, witness), (INFEASIBLE, None) or (OVER_BUDGET, None); the work done is
        spent from ``work`` (never more than it allows)."""

    def keys(self, witness: Any) -> dict[int, tuple] | PlaceRanges:
        """Every player's key after the remaining results end as ``witness`` (replayed
        through the format's standings code), or their place ranges."""

    def path(self, witness: Any, x: int) -> list[dict]:
        """The witness as a list of results for the report: every open result, so that
        replaying it on the current results gives the row's claim."""

    def words(self, witness: Any, x: int) -> list[str]:
        """The same path in sentences a reader can check by hand (may be empty)."""

    def seeds(self, x: int | None) -> Iterable[Any]:
        """Cheap candidate witnesses to try before solving (may be empty)."""

    def bounds(self) -> tuple[dict[int, tuple], dict[int, tuple]] | None:
        """Lowest and highest key each player can end with, or None."""


class PlaceRanges(dict):
    """What a backend's ``keys`` may return instead of keys: player -> (best place, worst
    place), 0-based, after the rules that decide (a range where a play-off or lots would).
    For rules that are not one comparison per player (head-to-head among those level, a
    play-off for first followed by criteria for the others)."""


def holds(keys: dict, x: int, rivals: Sequence[int], q: int, question: str) -> bool:
    """Does a complete result set with these keys (or place ranges) answer ``question``?"""
    if isinstance(keys, PlaceRanges):
        best, worst = keys[x]
        return {OUTRIGHT: worst < q, LEVEL: best < q, PASS_LEVEL: worst >= q,
                PASS: best >= q}[question]
    kx = keys[x]
    if question in (OUTRIGHT, PASS_LEVEL):
        c = sum(1 for j in rivals if keys[j] >= kx)
    else:
        c = sum(1 for j in rivals if keys[j] > kx)
    return c <= q - 1 if question in (OUTRIGHT, LEVEL) else c >= q


@dataclass
class Pool:
    """Witnesses found so far with their keys: a question one of them answers needs no solve."""

    backend: Backend
    items: list = field(default_factory=list)

    def add(self, witness) -> dict:
        keys = self.backend.keys(witness)
        self.items.append((witness, keys))
        return keys

    def find(self, x, rivals, q, question):
        for witness, keys in self.items:
            if holds(keys, x, rivals, q, question):
                return witness
        return None


def _by_bounds(bounds, x, rivals, q, question) -> bool:
    """True when key bounds alone prove ``question`` infeasible."""
    if bounds is None:
        return False
    lo, hi = bounds
    if question in (OUTRIGHT, LEVEL):     # q rivals are always level with or ahead of x
        n = sum(1 for j in rivals if (lo[j] >= hi[x] if question == OUTRIGHT else lo[j] > hi[x]))
        return n >= q
    n = sum(1 for j in rivals if (hi[j] > lo[x] if question == PASS else hi[j] >= lo[x]))
    return n < q


class Asker:
    """Answers questions for one whocan call: memo, bounds, pool, backend; each feasible
    backend answer replayed and checked before it is believed."""

    def __init__(self, backend: Backend, budget: Work, question_limit: int | None):
        self.backend = backend
        self.budget = budget
        self.question_limit = question_limit
        self.pool = Pool(backend)
        self.bounds = backend.bounds()
        self.memo: dict[Hashable, tuple[str, Any]] = {}

    def seed(self, x: int | None) -> None:
        for w in self.backend.seeds(x):
            self.pool.add(w)

    def ask(self, x, rivals, q, question, limit=None):
        k = (x, tuple(rivals), q, question)
        if k in self.memo:
            return self.memo[k]
        if _by_bounds(self.bounds, x, rivals, q, question):
            self.memo[k] = (INFEASIBLE, None)
            return self.memo[k]
        w = self.pool.find(x, rivals, q, question)
        if w is not None:
            self.memo[k] = (FEASIBLE, w)
            return self.memo[k]
        work = self.budget.part(limit, self.question_limit)
        if work.left() == 0:
            return OVER_BUDGET, None
        status, w = self.backend.solve(x, rivals, q, question, work)
        self.budget.spend(work.used)
        if status == FEASIBLE:
            keys = self.pool.add(w)
            if not holds(keys, x, rivals, q, question):
                return OVER_BUDGET, None      # the replay disagrees: never guess
        if status != OVER_BUDGET:
            self.memo[k] = (status, w)
        return status, w


def new_row(name: str) -> dict:
    return {"name": name, "status": None, "via": None, "at_worst": None, "path": None,
            "says": None}


def settle(asker: Asker, x: int, rivals, q: int, row: dict, limit=None) -> bool:
    """Fill ``row`` by the ladder; False if a question is still open (budget or limit)."""
    if rivals is None:
        row.update(status=NA)
        return True
    if len(rivals) < q:
        row.update(status=CLINCHED, via=OUTRIGHT)
        return True
    found = None
    for question, via in ((OUTRIGHT, "outright"), (LEVEL, "tiebreak")):
        s, w = asker.ask(x, rivals, q, question, limit)
        if s == OVER_BUDGET:
            return False
        if s == FEASIBLE:
            found = (via, w)
            break
    if found is None:
        row.update(status=ELIMINATED)
        return True
    s, _ = asker.ask(x, rivals, q, PASS_LEVEL, limit)
    if s == OVER_BUDGET:
        return False
    if s == INFEASIBLE:
        row.update(status=CLINCHED, via="outright")
        return True
    s2, _ = asker.ask(x, rivals, q, PASS, limit)
    if s2 == OVER_BUDGET:
        return False
    row.update(status=ALIVE, via=found[0], path=asker.backend.path(found[1], x),
               says=asker.backend.words(found[1], x) or None,
               at_worst="out" if s2 == FEASIBLE else "tiebreak")
    return True


def analyse(backend: Backend, names: Sequence[str], order: Sequence[int],
            targets: dict[str, tuple[int, dict[int, Sequence[int] | None]]],
            budget: int | None, question_limit: int | None = None) -> dict[str, list[dict]]:
    """Rows per target, players in ``order``.  ``targets``: name -> (q, {x: rivals or None}).
    ``budget`` and ``question_limit``: work units (solver nodes) for the call and for one
    question (None = unlimited).

    A quick pass (``QUICK_LIMIT`` per question) settles the easy rows first, then the rest
    share what is left of the budget; rows still open are UNDETERMINED."""
    asker = Asker(backend, Work(budget), question_limit)
    asker.seed(None)
    out: dict[str, list[dict]] = {}
    todo = []
    for tname, (q, rivals_of) in targets.items():
        rows = out[tname] = []
        for x in order:
            row = new_row(names[x])
            rows.append(row)
            todo.append((x, rivals_of[x], q, row))
    for limit in (QUICK_LIMIT, None):
        todo = [t for t in todo if not settle(asker, *t, limit=limit)]
        if not todo:
            break
    for *_, row in todo:
        row.update(status=UNDETERMINED)
    return out
