"""Who can still finish first, or qualify, in a series of knock-out events: the whocan backend
(one mixed-integer program per question, ``whocan.milp``), on the series' deterministic
criteria: GP points, then the scenario's tiebreaks in order up to (not including) the first
``head-to-head`` or ``lots``, which are treated as undecidable ("tiebreak").

The level of detail modelled is the one the standings see.  Each remaining match (also those
of events not started, whose pairings follow the bracket) ends with a winner and the classical
score U of its upper player, in half points 0 .. 2n (n classical games): U > n or U < n means
the match was won in the classical games (GP bonus), U = n (level) means tiebreaks, either
player may win.  A match in progress with k classical games known allows only U in
[K, K + 2(n - k)], K the half points of the games known.  Decided matches are constants.

Model (built once per checkpoint; each question adds its rows, ``whocan.milp.question_rows``):
- a[e, i, r] binary: the player at bracket position i of event e plays round r (a[., 0] = 1);
  in every slot of round r exactly one player of its block of 2^(r+1) positions reaches r + 1.
- o[e, i, r, k] binary: his round-r match ended in category k (won with U = n+1 .. 2n, won in
  tiebreaks, lost in tiebreaks, lost with U = 0 .. n-1 from his side); sum_k o = a[., r], won
  categories sum to a[., r+1]; in each slot the two players' classical half points sum to 2n
  (this makes the two sides' categories mirror each other).
- per counting player: points = place points (telescoped over the a's) + bonus * classical
  wins, events won, second places, classical half points: all linear.  They are packed into
  one integer key (points * M1 + TB1 * M2 + ...), each multiplier larger than the range below.

A witness is {(e, r, j): (upper, lower, winner, U)} for every open match; the core replays
each through the standings code (``rules.series_table``, via :meth:`SeriesBackend.keys`)
before it believes it.
"""

from __future__ import annotations

from ...kernels import keys
from ...whocan.core import (FEASIBLE, INFEASIBLE, LEVEL, OUTRIGHT, OVER_BUDGET, PASS,
                            PASS_LEVEL, Work, holds)
from ...whocan.milp import Lin, Model, question_rows
from ..shared.brackets import place_value, round_name
from .rules import (FIELD, counted_matches, det_criteria, det_key, n_rounds, series_table,
                    what_if)
from .scenario import KnockoutSeries


def allowed_upper(scn: KnockoutSeries, m) -> range:
    """Classical half points the upper player may end with in a match (None = not entered)."""
    n = scn.steps[0].games
    if m is None:
        return range(0, 2 * n + 1)
    rem = n - len(m.games[:n])
    return range(m.cls_upper, m.cls_upper + 2 * rem + 1)


def replay(scn: KnockoutSeries, known: dict, outcomes: dict):
    """Series-table rows after the remaining matches end as ``outcomes``."""
    n = scn.steps[0].games
    full = dict(known)
    for (e, r, j), (up, lo, w, u) in outcomes.items():
        full[(e, r, j)] = what_if(e, r, j, up, lo, w, u, n)
    rows, _, complete = series_table(scn, full)
    assert complete
    return rows


def _half(v) -> str:
    if v % 1:
        return f"{int(v)}½" if int(v) else "½"
    return f"{int(v)}"


class SeriesBackend:
    """The bracket and series expressions of one scenario at one checkpoint (a
    ``whocan.core.Backend``).  ``heuristics`` off: no candidate result sets (``seeds``), every
    question not answered by a witness found before is a MILP."""

    def __init__(self, scn: KnockoutSeries, at: str | None, heuristics: bool = True,
                 fixed=None):
        self.scn = scn
        self.known = counted_matches(scn, at, fixed)
        self.heuristics = heuristics
        self.n_cls = n = scn.steps[0].games
        # outcome categories from a player's side: (won, classical half points)
        self.cats = ([(True, v) for v in range(n + 1, 2 * n + 1)] + [(True, n), (False, n)]
                     + [(False, v) for v in range(0, n)])
        self.counting = scn.counting
        # presolve off: HiGHS finds a feasible point of these models at the root in a few
        # milliseconds, and presolve costs ten times that (GP 2019, all 17 checkpoints:
        # 4.9 s instead of 21 s with the points-only questions below)
        self.model = Model(presolve=False)
        self.a: dict = {}        # (e, i, r) -> variable
        self.o: dict = {}        # (e, i, r) -> [variable per category]
        self.slots: list = []    # the open matches (e, r, j)
        self.expr = {p: {f: Lin() for f in ("points", "won", "second", "cls")}
                     for p in self.counting}
        for e in range(len(scn.events)):
            self._event(e)
        self._pack()

    # ---- the model ---------------------------------------------------------------------------
    def _event(self, e: int) -> None:
        scn, mdl = self.scn, self.model
        ev = scn.events[e]
        R = n_rounds(ev.size)
        for i in range(ev.size):
            self.a[(e, i, 0)] = mdl.var(1, 1)
            for r in range(1, R + 1):
                self.a[(e, i, r)] = mdl.var(0, 1)
        for r in range(R):
            blk = 1 << (r + 1)
            for j in range(ev.size >> (r + 1)):
                block = range(j * blk, (j + 1) * blk)
                mdl.row(Lin({self.a[(e, i, r + 1)]: 1 for i in block}), 1, 1)
                m = self.known.get((e, r, j))
                if m is not None and m.winner is not None:
                    self._decided(e, r, m, block)
                else:
                    self._open(e, r, j, m, block)
        pv = lambda b: place_value(scn.place_points, b)   # noqa: E731
        for i, p in enumerate(ev.positions):
            if p not in self.expr:
                continue
            x = self.expr[p]
            x["points"].add(pv(R))
            for r in range(1, R + 1):
                d = pv(R - r) - pv(R - r + 1)
                if d:
                    x["points"].add(Lin({self.a[(e, i, r)]: d}))
            x["won"].add(Lin({self.a[(e, i, R)]: 1}))
            x["second"].add(Lin({self.a[(e, i, R - 1)]: 1, self.a[(e, i, R)]: -1}))

    def _decided(self, e, r, m, block) -> None:
        ev = self.scn.events[e]
        for i in block:
            p = ev.positions[i]
            c = self.a[(e, i, r + 1)]
            self.model.lb[c] = self.model.ub[c] = 1 if p == m.winner else 0
            if p in (m.upper, m.lower) and p in self.expr:
                self.expr[p]["cls"].add(m.cls_upper if p == m.upper else m.cls_lower)
                if p == m.winner and m.step == 0:
                    self.expr[p]["points"].add(self.scn.classical_bonus)

    def _open(self, e, r, j, m, block) -> None:
        ev = self.scn.events[e]
        mdl = self.model
        n = self.n_cls
        bonus = self.scn.classical_bonus
        self.slots.append((e, r, j))
        allow = None
        if m is not None:
            au = set(allowed_upper(self.scn, m))
            allow = {m.upper: au, m.lower: {2 * n - u for u in au}}
        total = Lin()
        for i in block:
            p = ev.positions[i]
            cols = []
            for won, v in self.cats:
                # the two players of an entered match are known
                ok = allow is None or (p in allow and v in allow[p])
                cols.append(mdl.var(0, 1 if ok else 0))
            self.o[(e, i, r)] = cols
            mdl.row(Lin({c: 1 for c in cols}).add(Lin({self.a[(e, i, r)]: 1}), -1), 0, 0)
            wins = Lin({c: 1 for c, (won, _) in zip(cols, self.cats) if won})
            mdl.row(wins.add(Lin({self.a[(e, i, r + 1)]: 1}), -1), 0, 0)
            total.add(Lin({c: v for c, (_, v) in zip(cols, self.cats)}))
            if p in self.expr:
                x = self.expr[p]
                for c, (won, v) in zip(cols, self.cats):
                    if v:
                        x["cls"].add(Lin({c: v}))
                    if won and v > n and bonus:
                        x["points"].add(Lin({c: bonus}))
        mdl.row(total, 2 * n, 2 * n)

    def _range(self, e: Lin) -> tuple[int, int]:
        lb, ub = self.model.lb, self.model.ub
        lo = hi = e.k
        for c, k in e.c.items():
            lo += min(k * lb[c], k * ub[c])
            hi += max(k * lb[c], k * ub[c])
        return lo, hi

    def _pack(self) -> None:
        """One integer key per counting player: points, then the deterministic criteria."""
        self.fields = ["points"] + [FIELD[c] for c in det_criteria(self.scn)]
        lo = {f: 0 for f in self.fields}
        hi = {f: 0 for f in self.fields}
        self.field_bounds = {}
        for p in self.counting:
            for f in self.fields:
                b = self.field_bounds[(p, f)] = self._range(self.expr[p][f])
                lo[f] = min(lo[f], b[0])
                hi[f] = max(hi[f], b[1])
        # the one key packer (kernels/keys.py), the key exact in the solver's float64
        widths = [hi[f] - lo[f] for f in self.fields]
        mult = dict(zip(self.fields, keys.multipliers(widths, keys.EXACT_LIMIT)))
        # every key difference is < key_range in absolute value
        self.key_range = mult[self.fields[0]] * (widths[0] + 1)
        self.points_key = {p: self.expr[p]["points"] for p in self.counting}
        self.points_range = hi["points"] - lo["points"] + 1
        self.points_memo: dict = {}
        self.key = {}
        for p in self.counting:
            k = Lin()
            for f in self.fields:
                k.add(self.expr[p][f], mult[f])
            self.key[p] = k

    # ---- the backend protocol ----------------------------------------------------------------
    def solve(self, x, rivals, q, question, work: Work | None = None):
        """The question on GP points alone first, twice: relaxed (x in: at most q-1 rivals
        with more points; x out: at least q rivals with as many), then restricted (x in: at
        most q-1 rivals with as many; x out: at least q with more).  Their big-M is small, so
        HiGHS settles them 10-25 times faster than the packed-key question: the relaxation
        infeasible, the question is; a witness of either that answers the question is kept.
        Only when neither settles it is the packed-key question solved.  ``work``: the
        allowance in solver nodes shared by the three programs."""
        work = Work(None) if work is None else work
        if len(self.fields) > 1:
            relaxed, restricted = ((LEVEL, OUTRIGHT) if question in (OUTRIGHT, LEVEL)
                                   else (PASS_LEVEL, PASS))
            for points_q in (relaxed, restricted):
                status, w = self._on_points(x, rivals, q, points_q, work)
                if status == OVER_BUDGET or (status == INFEASIBLE and points_q == relaxed):
                    return status, None
                if status == FEASIBLE and holds(self.keys(w), x, rivals, q, question):
                    return FEASIBLE, w
        extra_vars, rows = question_rows(self.model, self.key, x, rivals, q, question,
                                         self.key_range + 1)
        status, sol = self.model.solve(rows, extra_vars, work)
        if status == FEASIBLE:
            return FEASIBLE, self.outcomes(sol)
        return (INFEASIBLE, None) if status == INFEASIBLE else (OVER_BUDGET, None)

    def _on_points(self, x, rivals, q, question, work: Work):
        """``question`` asked on GP points alone (memoised)."""
        k = (x, tuple(rivals), q, question)
        if k not in self.points_memo:
            extra_vars, rows = question_rows(self.model, self.points_key, x, rivals, q,
                                             question, self.points_range + 1)
            status, sol = self.model.solve(rows, extra_vars, work)
            if status == OVER_BUDGET:
                return OVER_BUDGET, None
            self.points_memo[k] = (status, self.outcomes(sol) if status == FEASIBLE else None)
        return self.points_memo[k]

    def keys(self, witness) -> dict:
        rows = replay(self.scn, self.known, witness)
        return {p: det_key(self.scn, rows[p]) for p in self.counting}

    def path(self, witness, x) -> list[dict]:
        n = self.n_cls
        out = []
        for (e, r, j), (up, lo, w, u) in sorted(witness.items()):
            ev = self.scn.events[e]
            names = self.scn.players[up].name, self.scn.players[lo].name
            tb = u == n
            cls = [u / 2, (2 * n - u) / 2]
            wn, ln = (names[0], names[1]) if w == up else (names[1], names[0])
            cw, cl = (cls[0], cls[1]) if w == up else (cls[1], cls[0])
            out.append({"event": ev.name, "round": round_name(r, n_rounds(ev.size)),
                        "players": list(names), "winner": wn, "classical": cls,
                        "decided": "tiebreaks" if tb else "classical",
                        "result": (f"{wn} beats {ln} "
                                   + (f"in tiebreaks ({_half(cw)}-{_half(cl)} classical)" if tb
                                      else f"{_half(cw)}-{_half(cl)} in classical"))})
        return out

    def words(self, witness, x) -> list[str]:
        """Every open match of the path, one sentence per event: "Jerusalem: QF A beats B
        1½-½ in classical, ...; SF ...; final ..."."""
        by_event: dict = {}
        for g in self.path(witness, x):
            by_event.setdefault(g["event"], {}).setdefault(g["round"], []).append(g["result"])
        return [f"{ev}: " + "; ".join(f"{rd} " + ", ".join(rs) for rd, rs in rounds.items())
                for ev, rounds in by_event.items()]

    def seeds(self, x):
        """For each counting player: they win everything and the weakest (on points now) win
        the rest; they lose at once and the strongest win the rest; they win everything in
        tiebreaks."""
        if not self.heuristics or x is not None:
            return
        rows, _, _ = series_table(self.scn, self.known)
        players = list(self.counting)
        by_pts = sorted(players, key=lambda p: (-rows[p]["points"], p))
        others = [p for p in range(len(self.scn.players)) if p not in set(players)]
        for y in players:
            rest = [p for p in by_pts if p != y]
            yield self.priority_outcomes([y] + rest[::-1] + others)
            yield self.priority_outcomes(rest + others + [y])
            yield self.priority_outcomes([y] + others + rest[::-1], winner_classical=False)

    def bounds(self):
        """None: every "cannot" comes from a MILP's proof (the points-only questions make
        them cheap)."""
        return None

    def extremes(self, p: int) -> tuple[float, float]:
        """(most, fewest) series points of counting player p: p wins every open match in
        classical by the widest margin allowed, or loses every one at once (the others by
        index), each replayed through the standings code; both are reached, and no results
        give p more or fewer (place points grow with the round reached, the bonus with
        classical wins)."""
        memo = self.__dict__.setdefault("_extremes", {})
        if p not in memo:
            others = [j for j in range(len(self.scn.players)) if j != p]
            rows_best = replay(self.scn, self.known, self.priority_outcomes([p] + others))
            rows_worst = replay(self.scn, self.known, self.priority_outcomes(others + [p]))
            memo[p] = (rows_best[p]["points"], rows_worst[p]["points"])
        return memo[p]

    # ---- witnesses ---------------------------------------------------------------------------
    def outcomes(self, sol) -> dict:
        """The open matches' results in a solution: {(e, r, j): (upper, lower, winner, U)}."""
        out = {}
        for e, r, j in self.slots:
            ev = self.scn.events[e]
            blk = 1 << (r + 1)
            half = blk // 2
            up = lo = w = u = None
            for i in range(j * blk, (j + 1) * blk):
                if sol[self.a[(e, i, r)]] != 1:
                    continue
                p = ev.positions[i]
                if i < j * blk + half:
                    up = p
                    k = [t for t, c in enumerate(self.o[(e, i, r)]) if sol[c] == 1]
                    u = self.cats[k[0]][1]
                else:
                    lo = p
                if sol[self.a[(e, i, r + 1)]] == 1:
                    w = p
            out[(e, r, j)] = (up, lo, w, u)
        return out

    def priority_outcomes(self, priority, winner_classical=True) -> dict:
        """A complete set of results in which every open match is won by the player earlier in
        ``priority`` (field indices; players not listed come last, by index), in the classical
        games by the largest margin the known games allow (or in tiebreaks)."""
        n = self.n_cls
        rank = {p: k for k, p in enumerate(priority)}
        big = len(rank)
        out = {}
        for e, ev in enumerate(self.scn.events):
            alive = list(ev.positions)
            for r in range(n_rounds(ev.size)):
                nxt = []
                for j in range(len(alive) // 2):
                    up, lo = alive[2 * j], alive[2 * j + 1]
                    m = self.known.get((e, r, j))
                    if m is not None and m.winner is not None:
                        nxt.append(m.winner)
                        continue
                    allow = list(allowed_upper(self.scn, m))
                    w = min((up, lo), key=lambda p: (rank.get(p, big), p))
                    if w == up:
                        u = allow[-1] if winner_classical else (n if n in allow else allow[-1])
                        if u < n:
                            w = lo
                    else:
                        u = allow[0] if winner_classical else (n if n in allow else allow[0])
                        if u > n:
                            w = up
                    out[(e, r, j)] = (up, lo, w, u)
                    nxt.append(w)
                alive = nxt
        return out
