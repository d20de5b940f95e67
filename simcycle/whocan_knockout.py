"""Who can still finish first, or qualify, in a series of knock-out events: exact, by MILP.

Used by ``formats.knockout_series.whocan``; semantics as in ``simcycle/whocan.py`` (clinched /
alive via outright or tiebreak / eliminated, ``at_worst``, a path), on the series' deterministic
criteria: GP points, then the scenario's tiebreaks in order up to (not including) the first
``head-to-head`` or ``lots``, which are treated as undecidable ("tiebreak").

The level of detail modelled is the one the standings see.  Each remaining match (also those of
events not started, whose pairings follow the bracket) ends with a winner and the classical score
U of its upper player, in half points 0 .. 2n (n classical games): U > n or U < n means the match
was won in the classical games (GP bonus), U = n (level) means tiebreaks, either player may win.
A match in progress with k classical games known allows only U in [K, K + 2(n - k)], K the
half points of the games known.  Decided matches are constants.

Model (one per (player, question); scipy.optimize.milp = HiGHS, exact for integer programs):
- a[e, i, r] binary: the player at bracket position i of event e plays round r (a[., 0] = 1);
  in every slot of round r exactly one player of its block of 2^(r+1) positions reaches r + 1.
- o[e, i, r, k] binary: his round-r match ended in category k (won with U = n+1 .. 2n, won in
  tiebreaks, lost in tiebreaks, lost with U = 0 .. n-1 from his side); sum_k o = a[., r],
  won categories sum to a[., r+1]; in each slot the two players' classical half points sum to 2n
  (this makes the two sides' categories mirror each other).
- per counting player: points = place points (telescoped over the a's) + bonus * classical wins,
  events won, second places, classical half points: all linear.  They are packed into one
  integer key (points * M1 + TB1 * M2 + ...), each multiplier larger than the range below it.
- a question about player X and rivals S (those competing for the target): binary y_j with
  big-M rows, e.g. "outright" = key_j - key_X <= -1 + M y_j and sum y_j <= q - 1; "can be passed"
  = key_j - key_X >= 1 - M (1 - z_j) and sum z_j >= q.

Every witness found is replayed through ``knockout_series.series_table`` (the standings code) and
checked before it is reported; the path is that witness.
"""

from __future__ import annotations

import time

import numpy as np

from .formats import knockout_series as ks

DETERMINISTIC = (ks.SER_EVENTS_WON, ks.SER_SECOND, ks.SER_CLASSICAL)


class Budget:
    """Wall-clock budget shared by the solves of one ``whocan`` call (None = unlimited)."""

    def __init__(self, seconds):
        self.end = None if seconds is None else time.monotonic() + seconds

    def left(self):
        return None if self.end is None else max(self.end - time.monotonic(), 0.0)


def det_criteria(scn):
    """Deterministic criteria after GP points: the scenario's order up to the first H2H / lots."""
    out = []
    for c in scn.criteria:
        if c not in DETERMINISTIC:
            break
        out.append(c)
    return out


def det_key(scn, row):
    """The deterministic comparison tuple of a standings row (from ``series_table``)."""
    f = {ks.SER_EVENTS_WON: "won", ks.SER_SECOND: "second", ks.SER_CLASSICAL: "cls"}
    return (row["points"],) + tuple(row[f[c]] for c in det_criteria(scn))


def remaining_slots(scn, known):
    """(event, round, slot) of every match not decided, in playing order per event."""
    out = []
    for e, ev in enumerate(scn.events):
        n_rounds = ev.size.bit_length() - 1
        for r in range(n_rounds):
            for j in range(ev.size >> (r + 1)):
                m = known.get((e, r, j))
                if m is None or m.winner is None:
                    out.append((e, r, j))
    return out


def allowed_upper(scn, m):
    """Classical half points the upper player may end with in a match (None = not entered)."""
    n = scn.steps[0].games
    if m is None:
        return range(0, 2 * n + 1)
    rem = n - len(m.games[:n])
    return range(m.cls_upper, m.cls_upper + 2 * rem + 1)


def replay(scn, known, outcomes):
    """Standings rows after the remaining matches end as ``outcomes`` {(e, r, j): (upper, lower,
    winner, U)} (U = upper's classical half points; U = n means tiebreaks)."""
    n = scn.steps[0].games
    full = dict(known)
    for (e, r, j), (up, lo, w, u) in outcomes.items():
        full[(e, r, j)] = ks.Match(e, r, j, up, lo, None, (), w,
                                   0 if u != n else ks.UNKNOWN_TB_STEP, u, 2 * n - u)
    rows, _, complete = ks.series_table(scn, full)
    assert complete
    return rows


class SeriesMILP:
    """The bracket and series expressions of one scenario at one checkpoint."""

    def __init__(self, scn, at):
        self.scn = scn
        self.known = ks.counted_matches(scn, at)
        n = scn.steps[0].games
        self.n_cls = n
        V = 2 * n
        # outcome categories from a player's side: (won, classical half points)
        self.cats = ([(True, v) for v in range(n + 1, V + 1)] + [(True, n), (False, n)]
                     + [(False, v) for v in range(0, n)])
        self.lb, self.ub = [], []
        rows = []          # (cols, vals, lo, hi)
        self.a = {}        # (e, i, r) -> column
        self.o = {}        # (e, i, r) -> [columns per category]
        counting = scn.counting
        self.counting = counting
        const = {p: {"cls": 0, "bonus": 0} for p in counting}
        # expression per counting player: criterion -> {col: coef}, constant
        expr = {p: {"points": {}, "won": {}, "second": {}, "cls": {}} for p in counting}
        cconst = {p: {"points": 0, "won": 0, "second": 0, "cls": 0} for p in counting}
        self.slots = []    # remaining (e, r, j)
        bonus = scn.classical_bonus

        def var(lo, hi):
            self.lb.append(lo)
            self.ub.append(hi)
            return len(self.lb) - 1

        def add(d, col, c):
            d[col] = d.get(col, 0) + c

        for e, ev in enumerate(scn.events):
            R = ev.size.bit_length() - 1
            for i in range(ev.size):
                self.a[(e, i, 0)] = var(1, 1)
                for r in range(1, R + 1):
                    self.a[(e, i, r)] = var(0, 1)
            for r in range(R):
                blk = 1 << (r + 1)
                for j in range(ev.size >> (r + 1)):
                    block = range(j * blk, (j + 1) * blk)
                    rows.append(([self.a[(e, i, r + 1)] for i in block], [1] * blk, 1, 1))
                    m = self.known.get((e, r, j))
                    if m is not None and m.winner is not None:
                        for i in block:
                            p = ev.positions[i]
                            c = self.a[(e, i, r + 1)]
                            self.lb[c] = self.ub[c] = 1 if p == m.winner else 0
                            if p in (m.upper, m.lower) and p in const:
                                const[p]["cls"] += m.cls_upper if p == m.upper else m.cls_lower
                                const[p]["bonus"] += p == m.winner and m.step == 0
                        continue
                    self.slots.append((e, r, j))
                    allow = None
                    if m is not None:
                        au = set(allowed_upper(scn, m))
                        allow = {m.upper: au, m.lower: {V - u for u in au}}
                    cls_cols, cls_vals = [], []
                    for i in block:
                        p = ev.positions[i]
                        cols = []
                        for won, v in self.cats:
                            ok = allow is None or p not in allow or v in allow[p]
                            if allow is not None and p not in allow:
                                ok = False   # the two players of an entered match are known
                            cols.append(var(0, 1 if ok else 0))
                        self.o[(e, i, r)] = cols
                        rows.append((cols + [self.a[(e, i, r)]], [1] * len(cols) + [-1], 0, 0))
                        wcols = [c for c, (won, v) in zip(cols, self.cats) if won]
                        rows.append((wcols + [self.a[(e, i, r + 1)]], [1] * len(wcols) + [-1], 0, 0))
                        cls_cols += cols
                        cls_vals += [v for _, v in self.cats]
                        if p in expr:
                            for c, (won, v) in zip(cols, self.cats):
                                if v:
                                    add(expr[p]["cls"], c, v)
                                if won and v > n and bonus:
                                    add(expr[p]["points"], c, bonus)
                    rows.append((cls_cols, cls_vals, V, V))
            # place points, events won, second places
            pv = lambda b: ks._place_value(scn.place_points, b)
            for i, p in enumerate(ev.positions):
                if p not in expr:
                    continue
                cconst[p]["points"] += pv(R)
                for r in range(1, R + 1):
                    d = pv(R - r) - pv(R - r + 1)
                    if d:
                        add(expr[p]["points"], self.a[(e, i, r)], d)
                add(expr[p]["won"], self.a[(e, i, R)], 1)
                add(expr[p]["second"], self.a[(e, i, R - 1)], 1)
                add(expr[p]["second"], self.a[(e, i, R)], -1)
        for p in counting:
            cconst[p]["cls"] += const[p]["cls"]
            cconst[p]["points"] += bonus * const[p]["bonus"]
        self.base_rows = rows
        self.n_base = len(self.lb)

        # ranges of each criterion (over all players) and the key multipliers
        fields = ["points"] + [{ks.SER_EVENTS_WON: "won", ks.SER_SECOND: "second",
                                ks.SER_CLASSICAL: "cls"}[c] for c in det_criteria(scn)]
        self.fields = fields
        lo = {f: 0 for f in fields}
        hi = {f: 0 for f in fields}
        for f in fields:
            for p in counting:
                mn = mx = cconst[p][f]
                for c, k in expr[p][f].items():
                    mn += min(k * self.lb[c], k * self.ub[c])
                    mx += max(k * self.lb[c], k * self.ub[c])
                lo[f] = min(lo[f], mn)
                hi[f] = max(hi[f], mx)
        mult = {}
        m_ = 1
        for f in reversed(fields):
            mult[f] = m_
            m_ *= hi[f] - lo[f] + 1
        self.key_range = m_          # every key difference is < key_range in absolute value
        self.key = {}
        self.key_const = {}
        for p in counting:
            d, c0 = {}, 0
            for f in fields:
                for c, k in expr[p][f].items():
                    add(d, c, k * mult[f])
                c0 += cconst[p][f] * mult[f]
            self.key[p] = d
            self.key_const[p] = c0

    # ------------------------------------------------------------------ one question
    def solve(self, x, rivals, q, question, time_limit=None):
        """question: "outright" (at most q-1 rivals with key >= X's), "level" (at most q-1 with
        key > X's), "pass" (at least q with key > X's), "pass_level" (at least q with key >= X's).
        Returns ("feasible", outcomes), ("infeasible", None) or ("timeout", None)."""
        from scipy.optimize import Bounds, LinearConstraint, milp
        from scipy.sparse import csr_matrix

        lb, ub = list(self.lb), list(self.ub)
        rows = list(self.base_rows)
        M = self.key_range + 1
        ys = []
        for j in rivals:
            y = len(lb)
            lb.append(0)
            ub.append(1)
            ys.append(y)
            d = dict(self.key[j])
            for c, k in self.key[x].items():
                d[c] = d.get(c, 0) - k
            c0 = self.key_const[j] - self.key_const[x]       # key_j - key_x = sum d + c0
            cols = [c for c, k in d.items() if k]
            vals = [d[c] for c in cols]
            if question in ("outright", "level"):
                # y = 0 forces key_j - key_x <= -1 (outright) or <= 0 (level)
                rhs = (-1 if question == "outright" else 0) - c0
                rows.append((cols + [y], vals + [-M], -np.inf, rhs))
            else:
                # z = 1 forces key_j - key_x >= 1 (pass) or >= 0 (pass_level)
                rhs = (1 if question == "pass" else 0) - c0 - M
                rows.append((cols + [y], vals + [-M], rhs, np.inf))
        if question in ("outright", "level"):
            rows.append((ys, [1] * len(ys), -np.inf, q - 1))
        else:
            rows.append((ys, [1] * len(ys), q, np.inf))
        r_idx, c_idx, v = [], [], []
        lo_, hi_ = [], []
        for k, (cols, vals, l, h) in enumerate(rows):
            r_idx += [k] * len(cols)
            c_idx += cols
            v += vals
            lo_.append(l)
            hi_.append(h)
        nv = len(lb)
        A = csr_matrix((np.array(v, float), (r_idx, c_idx)), shape=(len(rows), nv))
        opts = {"disp": False}
        if time_limit is not None:
            opts["time_limit"] = max(float(time_limit), 0.01)
        res = milp(np.zeros(nv), integrality=np.ones(nv), bounds=Bounds(lb, ub),
                   constraints=LinearConstraint(A, lo_, hi_), options=opts)
        if res.status == 0:
            return "feasible", self.outcomes(np.round(res.x).astype(int))
        if res.status == 2:
            return "infeasible", None
        if res.status == 1 and res.x is not None:
            # time limit with a feasible point (a zero objective makes it optimal anyway)
            return "feasible", self.outcomes(np.round(res.x).astype(int))
        return "timeout", None

    def outcomes(self, x):
        """The remaining matches' results in a solution: {(e, r, j): (upper, lower, winner, U)}."""
        out = {}
        for e, r, j in self.slots:
            ev = self.scn.events[e]
            blk = 1 << (r + 1)
            half = blk // 2
            up = lo = w = None
            u = None
            for i in range(j * blk, (j + 1) * blk):
                if x[self.a[(e, i, r)]] != 1:
                    continue
                p = ev.positions[i]
                if i < j * blk + half:
                    up = p
                    cols = self.o[(e, i, r)]
                    k = [t for t, c in enumerate(cols) if x[c] == 1]
                    u = self.cats[k[0]][1]
                else:
                    lo = p
                if x[self.a[(e, i, r + 1)]] == 1:
                    w = p
            out[(e, r, j)] = (up, lo, w, u)
        return out


def claim_holds(scn, known, outcomes, x, rivals, q, question):
    """Replay ``outcomes`` through the standings code and check the question's claim."""
    rows = replay(scn, known, outcomes)
    kx = det_key(scn, rows[x])
    ge = sum(det_key(scn, rows[j]) >= kx for j in rivals)
    gt = sum(det_key(scn, rows[j]) > kx for j in rivals)
    return {"outright": ge <= q - 1, "level": gt <= q - 1, "pass": gt >= q,
            "pass_level": ge >= q}[question]


def path_entries(scn, outcomes):
    n = scn.steps[0].games
    out = []
    for (e, r, j), (up, lo, w, u) in sorted(outcomes.items()):
        ev = scn.events[e]
        R = ev.size.bit_length() - 1
        names = scn.players[up].name, scn.players[lo].name
        tb = u == n
        cls = [u / 2, (2 * n - u) / 2]
        wn, ln = (names[0], names[1]) if w == up else (names[1], names[0])
        cw, cl = (cls[0], cls[1]) if w == up else (cls[1], cls[0])
        out.append({"event": ev.name, "round": ks.round_name(r, R), "players": list(names),
                    "winner": wn, "classical": cls,
                    "decided": "tiebreaks" if tb else "classical",
                    "result": (f"{wn} beats {ln} " + (f"in tiebreaks ({_half(cw)}-{_half(cl)} "
                               "classical)" if tb else f"{_half(cw)}-{_half(cl)} in classical"))})
    return out


def _half(v):
    if v % 1:
        return f"{int(v)}½" if int(v) else "½"
    return f"{int(v)}"


def priority_outcomes(model: SeriesMILP, priority, winner_classical=True):
    """A complete set of results in which every remaining match is won by the player earlier in
    ``priority`` (a list of field indices; players not listed come last, by index), in the
    classical games by the largest margin the known games allow (or in tiebreaks)."""
    scn = model.scn
    n = model.n_cls
    rank = {p: k for k, p in enumerate(priority)}
    big = len(rank)
    out = {}
    for e, ev in enumerate(scn.events):
        R = ev.size.bit_length() - 1
        alive = list(ev.positions)
        for r in range(R):
            nxt = []
            for j in range(len(alive) // 2):
                up, lo = alive[2 * j], alive[2 * j + 1]
                m = model.known.get((e, r, j))
                if m is not None and m.winner is not None:
                    nxt.append(m.winner)
                    continue
                allow = list(allowed_upper(scn, m))
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


class Pool:
    """Witnesses found so far (complete result sets with their replayed keys): a question that
    one of them answers needs no MILP."""

    def __init__(self, model: SeriesMILP, reuse: bool = True):
        self.model = model
        self.items = []
        self.reuse = reuse

    def add(self, outcomes):
        if not self.reuse:
            return
        rows = replay(self.model.scn, self.model.known, outcomes)
        keys = {p: det_key(self.model.scn, rows[p]) for p in self.model.counting}
        self.items.append((outcomes, keys))

    def find(self, x, rivals, q, question):
        for outcomes, keys in self.items:
            kx = keys[x]
            if question in ("outright", "pass_level"):
                c = sum(keys[j] >= kx for j in rivals)
            else:
                c = sum(keys[j] > kx for j in rivals)
            if (c <= q - 1) if question in ("outright", "level") else (c >= q):
                return outcomes
        return None


def seed_pool(model: SeriesMILP, current_points):
    """Heuristic witnesses: for each player, he wins everything and the weakest win the rest;
    he loses at once and the strongest win the rest; the same with tiebreak wins."""
    pool = Pool(model)
    players = list(model.counting)
    by_pts = sorted(players, key=lambda p: (-current_points[p], p))
    others = [p for p in range(len(model.scn.players)) if p not in set(players)]
    for x in players:
        rest = [p for p in by_pts if p != x]
        pool.add(priority_outcomes(model, [x] + rest[::-1] + others))
        pool.add(priority_outcomes(model, rest + others + [x]))
        pool.add(priority_outcomes(model, [x] + others + rest[::-1], winner_classical=False))
    return pool


def analyse(model: SeriesMILP, target_rivals, q, budget: Budget, pool: Pool | None = None):
    """Rows for one target: ``target_rivals`` {x: rivals or None (n/a)}; ``q`` places."""
    scn, known = model.scn, model.known
    if pool is None:
        pool = Pool(model)
    out = {}
    for x, rivals in target_rivals.items():
        name = scn.players[x].name
        if rivals is None:
            out[x] = {"name": name, "status": "n/a", "via": None, "at_worst": None, "path": None,
                      "qualified_elsewhere": True}
            continue
        row = {"name": name, "status": None, "via": None, "at_worst": None, "path": None}
        out[x] = row

        def ask(question):
            oc = pool.find(x, rivals, q, question)
            if oc is not None:
                return "feasible", oc
            left = budget.left()
            if left is not None and left <= 0:
                return "timeout", None
            st, oc = model.solve(x, rivals, q, question, left)
            if st == "feasible":
                if not claim_holds(scn, known, oc, x, rivals, q, question):
                    # never expected (integer data, rounded solution); refuse to guess
                    return "timeout", None
                pool.add(oc)
            return st, oc

        if len(rivals) < q:
            row.update(status="clinched", via="outright")
            continue
        st, oc = ask("outright")
        via = "outright"
        if st == "infeasible":
            st, oc = ask("level")
            via = "tiebreak"
        if st == "timeout":
            row["status"] = "undetermined"
            continue
        if st == "infeasible":
            row["status"] = "eliminated"
            continue
        path = path_entries(scn, oc)
        st2, _ = ask("pass_level")
        if st2 == "timeout":
            row.update(status="undetermined", via=via, path=path)
            continue
        if st2 == "infeasible":
            row.update(status="clinched", via="outright")
            continue
        st3, _ = ask("pass")
        if st3 == "timeout":
            row.update(status="undetermined", via=via, path=path)
            continue
        row.update(status="alive", via=via, path=path,
                   at_worst="out" if st3 == "feasible" else "tiebreak")
    return out
