"""Who can still finish first, or qualify, in a group series (FIDE Grand Prix 2022): exact.

The remaining results are modelled as one mixed-integer program (``scipy.optimize.milp``,
HiGHS), at the level the series cares about:

* every unplayed group game: three binaries (White wins, draw, Black wins);
* every group not yet placed: for each ordered pair of its players a binary "i has more game
  points than j" (big-M on the score difference), and for each player a one-hot choice of
  (players strictly above, players level) with the group points that place gives.  A tie for
  first offers the play-off results the format allows: any of the level players wins; with
  two level the other gets 2nd; with three level (``playoff_places = "elimination"``) the other
  two get 2nd and 3rd in either order or share them, (``"first-only"``) they share; with four
  level one gets 2nd and two share 3rd-4th.  One winner per group and the group's points
  summing to the four places' points make the choices consistent;
* every unplayed knock-out match (semi-final A v B, C v D, final): for each player who can
  reach it, eight binaries, one per outcome seen from his side (won 2-0, won 1.5-0.5, won
  the tiebreak after win + loss, won the tiebreak after two draws, and the four mirrors),
  summing to "he is in this match"; the two sides' outcomes mirror each other.  Classical
  points and wins count toward the series tiebreaks; tiebreak games do not (the module's rule);
* per player, linear expressions for series points (sixths), events won, second places,
  classical points (half points) and classical wins, folded in the scenario's tiebreak order
  into one integer key with multipliers wider than the range of everything below them.

Each (player, target, question) adds "ahead of x" indicators for his rivals (big-M on the
key difference) and a cardinality row, and asks HiGHS for any feasible point:
  outright   at most q-1 rivals with key >= x's key;
  tiebreak   at most q-1 rivals with key >  x's key;
  caught     at least q rivals with key >= x's key (not: clinched);
  passed     at least q rivals with key >  x's key (then at_worst "out", else "tiebreak").
q = 1 for first place, the qualifying places for "qualify"; players left out of the table
(substitutes when ``substitutes_count = false``) are no rivals and get status "n/a".
The path is read off the solution and replayed through ``standings`` before it is returned;
a question HiGHS does not settle within the budget leaves the row "undetermined".

Groups not drawn at the checkpoint (``future_groups = "draw"``) are taken as drawn in the
scenario file (hindsight reading); an event with no groups in the file cannot be analysed.
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

# knock-out outcomes from one side: (label, my classical results, won?)
# results coded as in the scenario (0 I won the game, 1 draw, 2 I lost)
KO_OUT = [
    ("2-0", (0, 0), True), ("1.5-0.5", (0, 1), True), ("1-1, won the tiebreak", (0, 2), True),
    ("1-1, won the tiebreak", (1, 1), True), ("1-1, lost the tiebreak", (0, 2), False),
    ("1-1, lost the tiebreak", (1, 1), False), ("0.5-1.5", (2, 1), False),
    ("0-2", (2, 2), False),
]
KO_MIRROR = [7, 6, 4, 5, 2, 3, 1, 0]
DEFAULT_BUDGET = 20.0      # seconds for one whocan call (all rows)
QUESTION_LIMIT = 10.0      # seconds for one MILP


class _Lin:
    """A linear expression: {variable: coefficient} + constant."""
    __slots__ = ("c", "k")

    def __init__(self, c=None, k=0):
        self.c = dict(c or {})
        self.k = k

    def add(self, other, f=1):
        if isinstance(other, _Lin):
            for v, a in other.c.items():
                self.c[v] = self.c.get(v, 0) + f * a
            self.k += f * other.k
        else:
            self.k += f * other
        return self


class _Model:
    def __init__(self):
        self.lb, self.ub = [], []
        self.rows = []          # (dict, lo, hi)

    def var(self, lo=0, hi=1):
        self.lb.append(lo)
        self.ub.append(hi)
        return len(self.lb) - 1

    def row(self, e: _Lin, lo, hi):
        self.rows.append((dict(e.c), lo - e.k, hi - e.k))

    def solve(self, extra_rows, extra_vars, time_limit):
        from scipy.optimize import Bounds, LinearConstraint, milp
        from scipy.sparse import csr_matrix

        rows = self.rows + extra_rows
        lb = np.array(self.lb + [v[0] for v in extra_vars], float)
        ub = np.array(self.ub + [v[1] for v in extra_vars], float)
        r, c, a = [], [], []
        for i, (d, _, _) in enumerate(rows):
            for v, x in d.items():
                if x:
                    r.append(i)
                    c.append(v)
                    a.append(x)
        A = csr_matrix((a, (r, c)), shape=(len(rows), len(lb)))
        lo = np.array([x[1] for x in rows], float)
        hi = np.array([x[2] for x in rows], float)
        res = milp(np.zeros(len(lb)), integrality=np.ones(len(lb)), bounds=Bounds(lb, ub),
                   constraints=LinearConstraint(A, lo, hi),
                   options={"time_limit": max(time_limit, 0.05), "presolve": True})
        if res.x is not None and res.status in (0, 1):
            return "feasible", np.round(res.x).astype(np.int64)
        if res.status == 2:
            return "infeasible", None
        return "unknown", None


def _value(e: _Lin, x):
    return e.k + sum(a * x[v] for v, a in e.c.items())


class SeriesMILP:
    """The remaining results of a group series at a checkpoint, as a MILP (see module doc)."""

    def __init__(self, scn, at):
        from .formats import group_series as G

        self.scn, self.at, self.G = scn, at, G
        states = G._state(scn, at)
        n = len(scn.players)
        gp6 = [G.POINT * x for x in scn.group_points]
        ko6 = G.POINT * scn.ko_points
        elim = scn.rules["playoff_places"] == "elimination"
        m = self.m = _Model()
        pts, tf, ts, cp, cw = ([_Lin() for _ in range(n)] for _ in range(5))
        self.crit = {"points": pts, 1: tf, 2: ts, 3: cp, 4: cw}
        ub = {k: [0] * n for k in ("points", 1, 2, 3, 4)}   # what the open results can add
        self.games = []       # (e, group name, round, w, b, [3 vars])
        self.groups = []      # (e, group index, players, option table, scores)
        self.matches = []     # (e, round, side vars {p: [8 vars]} per side)
        self.open_events = []
        for e, (ev, st) in enumerate(zip(scn.events, states)):
            if not ev.groups:
                from .errors import ScenarioError
                raise ScenarioError("whocan needs every event's groups in the file (as drawn)",
                                    file=scn.file, key=f"events[{e}].groups")
            groups = st.groups if st.groups_known else [
                G.Group(g.name, g.players, tuple((rd, w, b, -1) for rd, w, b, _ in g.games), None)
                for g in ev.groups]
            pk = st.playoff_known if st.groups_known else [False] * 4
            win = {}                                # player -> _Lin "won the group"
            for gi, gr in enumerate(groups):
                slot = {p: s for s, p in enumerate(gr.players)}
                s_lin = [_Lin() for _ in range(4)]
                w_lin = [_Lin() for _ in range(4)]
                for rd, w, b, r in gr.games:
                    a, bb = slot[w], slot[b]
                    if r >= 0:
                        s_lin[a].add((2, 1, 0)[r])
                        s_lin[bb].add((0, 1, 2)[r])
                        w_lin[a].add(int(r == 0))
                        w_lin[bb].add(int(r == 2))
                        continue
                    v = [m.var() for _ in range(3)]
                    m.row(_Lin({v[0]: 1, v[1]: 1, v[2]: 1}), 1, 1)
                    s_lin[a].add(_Lin({v[0]: 2, v[1]: 1}))
                    s_lin[bb].add(_Lin({v[2]: 2, v[1]: 1}))
                    w_lin[a].add(_Lin({v[0]: 1}))
                    w_lin[bb].add(_Lin({v[2]: 1}))
                    self.games.append((e, gr.name, rd, w, b, v))
                    for p in (w, b):
                        ub[3][p] += 2
                        ub[4][p] += 1
                for s, p in enumerate(gr.players):
                    cp[p].add(s_lin[s])
                    cw[p].add(w_lin[s])
                places = None
                if all(r >= 0 for *_, r in gr.games):
                    places = G.group_places(gr, gp6, with_playoff=pk[gi])
                if places is not None:
                    for s, p in enumerate(gr.players):
                        pts[p].add(places[s])
                        win[p] = _Lin(k=int(places[s] == gp6[0]))
                    continue
                # ranking indicators
                M = 25
                bvar = {}
                for i in range(4):
                    for j in range(4):
                        if i != j:
                            bvar[i, j] = m.var()
                for i in range(4):
                    for j in range(i + 1, 4):
                        m.row(_Lin({bvar[i, j]: 1, bvar[j, i]: 1}), 0, 1)
                for (i, j), v in bvar.items():
                    d = _Lin().add(s_lin[i]).add(s_lin[j], -1)
                    # v = 1 -> s_i - s_j >= 1 ; v = 0 -> s_i - s_j <= 0
                    m.row(_Lin(d.c, d.k).add(_Lin({v: -M})), 1 - M, np.inf)
                    m.row(_Lin(d.c, d.k).add(_Lin({v: -M})), -np.inf, 0)
                opts = _options(gp6, elim)
                table = []
                gsum = _Lin()
                wsum = _Lin()
                for i, p in enumerate(gr.players):
                    z = [m.var() for _ in opts]
                    m.row(_Lin({v: 1 for v in z}), 1, 1)
                    above = _Lin({bvar[j, i]: 1 for j in range(4) if j != i})
                    level = _Lin({bvar[i, j]: -1 for j in range(4) if j != i}, 3)
                    level.add(_Lin({bvar[j, i]: -1 for j in range(4) if j != i}))
                    m.row(_Lin({v: o[0] for v, o in zip(z, opts)}).add(above, -1), 0, 0)
                    m.row(_Lin({v: o[1] for v, o in zip(z, opts)}).add(level, -1), 0, 0)
                    gl = _Lin({v: o[2] for v, o in zip(z, opts)})
                    wl = _Lin({v: 1 for v, o in zip(z, opts) if o[3]})
                    pts[p].add(gl)
                    gsum.add(gl)
                    wsum.add(wl)
                    win[p] = wl
                    table.append(z)
                    ub["points"][p] += gp6[0]
                m.row(gsum, sum(gp6), sum(gp6))
                m.row(wsum, 1, 1)
                self.groups.append((e, gi, gr, opts, table, s_lin))
            # knock-out
            if all(rd in st.ko for rd in G.KO_ROUNDS) and st.groups_known:
                for rd in G.KO_ROUNDS:
                    mt = st.ko[rd]
                    self._fixed_match(mt, rd, pts, tf, ts, cp, cw, ko6)
                continue
            self.open_events.append(e)
            gpl = [g.players for g in groups]
            side_in = {}
            sf_win = {}
            for k, rd in enumerate(("sf1", "sf2")):
                mt = st.ko.get(rd)
                if mt is not None:
                    self._fixed_match(mt, rd, pts, tf, ts, cp, cw, ko6)
                    for p in (mt.a, mt.b):
                        sf_win[p] = _Lin(k=int(mt.winner == p))
                    side_in[rd] = None
                    continue
                sides = [{p: win[p] for p in gpl[2 * k] if win[p].c or win[p].k},
                         {p: win[p] for p in gpl[2 * k + 1] if win[p].c or win[p].k}]
                won = self._open_match(e, rd, sides, pts, tf, ts, cp, cw, ko6, ub, False)
                sf_win.update(won)
            mt = st.ko.get("final")
            if mt is not None:
                self._fixed_match(mt, "final", pts, tf, ts, cp, cw, ko6)
            else:
                sides = [{p: sf_win[p] for p in sf_win if p in gpl[0] + gpl[1]
                          and (sf_win[p].c or sf_win[p].k)},
                         {p: sf_win[p] for p in sf_win if p in gpl[2] + gpl[3]
                          and (sf_win[p].c or sf_win[p].k)}]
                self._open_match(e, "final", sides, pts, tf, ts, cp, cw, ko6, ub, True)
        # keys
        self.eligible = [scn.substitutes_count or not p["substitute"] for p in scn.players]
        self.order = ["points", *[G.CRITERIA[t] for t in scn.tiebreaks if t != "lots"]]
        lo = {c: [self.crit[c][p].k for p in range(n)] for c in self.order}
        hi = {c: [self.crit[c][p].k + ub[c][p] for p in range(n)] for c in self.order}
        el = [p for p in range(n) if self.eligible[p]]
        mult = {}
        f = 1
        for c in reversed(self.order):
            mult[c] = f
            width = max(hi[c][p] for p in el) - min(lo[c][p] for p in el) if el else 0
            f *= width + 1
        self.mult = mult
        self.kmin = sum(mult[c] * min(lo[c][p] for p in el) for c in self.order) if el else 0
        self.kmax = sum(mult[c] * max(hi[c][p] for p in el) for c in self.order) if el else 0
        self.key = []
        for p in range(n):
            e_ = _Lin()
            for c in self.order:
                e_.add(self.crit[c][p], mult[c])
            if e_.c:
                kv = m.var(self.kmin, self.kmax)
                m.row(_Lin({kv: -1}).add(e_), 0, 0)
                self.key.append(_Lin({kv: 1}))
            else:
                self.key.append(e_)
        self.n_vars = len(m.lb)
        self.now = [pts[p].k for p in range(n)]     # series points fixed at the checkpoint

    def _fixed_match(self, mt, rd, pts, tf, ts, cp, cw, ko6):
        pts[mt.winner].add(ko6)
        for c in mt.classical:
            cp[mt.a].add((2, 1, 0)[c])
            cp[mt.b].add((0, 1, 2)[c])
            cw[mt.a].add(int(c == 0))
            cw[mt.b].add(int(c == 2))
        if rd == "final":
            tf[mt.winner].add(1)
            ts[mt.a if mt.winner == mt.b else mt.b].add(1)

    def _open_match(self, e, rd, sides, pts, tf, ts, cp, cw, ko6, ub, final):
        m = self.m
        yv = [{}, {}]
        won = {}
        for s in range(2):
            for p, inn in sides[s].items():
                y = [m.var() for _ in KO_OUT]
                m.row(_Lin({v: 1 for v in y}).add(inn, -1), 0, 0)
                yv[s][p] = y
                wl = _Lin()
                for v, (_, res, w) in zip(y, KO_OUT):
                    hp = sum((2, 1, 0)[r] for r in res)
                    nw = sum(r == 0 for r in res)
                    cp[p].add(_Lin({v: hp}))
                    cw[p].add(_Lin({v: nw}))
                    if w:
                        pts[p].add(_Lin({v: ko6}))
                        wl.add(_Lin({v: 1}))
                        if final:
                            tf[p].add(_Lin({v: 1}))
                    elif final:
                        ts[p].add(_Lin({v: 1}))
                won[p] = wl
                ub["points"][p] += ko6
                ub[3][p] += 4
                ub[4][p] += 2
                if final:
                    ub[1][p] += 1
                    ub[2][p] += 1
        for k in range(len(KO_OUT)):
            d = _Lin({yv[0][p][k]: 1 for p in yv[0]})
            d.add(_Lin({yv[1][p][KO_MIRROR[k]]: 1 for p in yv[1]}), -1)
            m.row(d, 0, 0)
        self.matches.append((e, rd, yv))
        return won

    # ---- questions --------------------------------------------------------------------------
    def ask(self, x, q, strict_rivals, at_most, time_limit):
        """Feasible?  at_most: at most q-1 rivals with key >= x (strict_rivals False) / > x
        (True).  Otherwise: at least q rivals with key >= x / > x."""
        base = len(self.m.lb)
        M = self.kmax - self.kmin + 2
        rows, extra = [], []
        ind = _Lin()
        kx = self.key[x]
        for j in range(len(self.scn.players)):
            if j == x or not self.eligible[j]:
                continue
            d = _Lin().add(self.key[j]).add(kx, -1)
            g = base + len(extra)
            extra.append((0, 1))
            ind.add(_Lin({g: 1}))
            if at_most:
                # g = 0 -> d <= -1 (>= case) or d <= 0 (> case)
                e_ = _Lin(d.c, d.k).add(_Lin({g: -M}))
                rows.append((dict(e_.c), -np.inf, (0 if strict_rivals else -1) - e_.k))
            else:
                # g = 1 -> d >= 0 (>=) or d >= 1 (>)
                e_ = _Lin(d.c, d.k).add(_Lin({g: -M}))
                rows.append((dict(e_.c), (1 if strict_rivals else 0) - M - e_.k, np.inf))
        if at_most:
            rows.append((dict(ind.c), -np.inf, q - 1))
        else:
            rows.append((dict(ind.c), q, np.inf))
        return self.m.solve(rows, extra, time_limit)

    # ---- reading a solution -----------------------------------------------------------------
    def decode(self, x):
        """The results a rounded solution x stands for: (game results {(e, w, b): code},
        play-off places {(e, group index): places}, matches {(e, round): Match})."""
        G = self.G
        res = {}
        for e, gname, rd, w, b, v in self.games:
            res[e, w, b] = int(np.argmax([x[i] for i in v]))
        playoffs = {}
        for e, gi, gr, opts, table, s_lin in self.groups:
            sc = [_value(s, x) for s in s_lin]
            top = max(sc)
            tied = [i for i in range(4) if sc[i] == top]
            if len(tied) < 2:
                continue
            val = {i: opts[int(np.argmax([x[v] for v in table[i]]))] for i in tied}
            winner = next(i for i in tied if val[i][3])
            rest = sorted((i for i in tied if i != winner), key=lambda i: -val[i][2])
            places = [(gr.players[winner],)]
            k = 0
            while k < len(rest):
                same = tuple(gr.players[i] for i in rest if val[i][2] == val[rest[k]][2])
                places.append(same)
                k += len(same)
            playoffs[e, gi] = tuple(places)
        kos = {}
        for e, rd, yv in self.matches:
            a = next(p for p in yv[0] if sum(x[v] for v in yv[0][p]) == 1)
            b = next(p for p in yv[1] if sum(x[v] for v in yv[1][p]) == 1)
            _, cl, won = KO_OUT[int(np.argmax([x[v] for v in yv[0][a]]))]
            kos[e, rd] = G.Match(rd, a, b, cl, a if won else b)
        return res, playoffs, kos

    def entries(self, filled):
        """Readable path entries: every result the checkpoint leaves open, from a filled
        scenario (event numbers from 1; results from White's / the first player's side)."""
        G, scn = self.G, self.scn
        nm = [p["name"] for p in scn.players]
        out = []
        open_games = {(e, w, b) for e, _, _, w, b, _ in self.games}
        for e, gname, rd, w, b, v in self.games:
            gr = next(g for g in filled.events[e].groups if g.name == gname)
            r = next(r for rd_, w_, b_, r in gr.games if (w_, b_) == (w, b))
            out.append({"event": e + 1, "stage": f"group {gname}", "round": rd,
                        "white": nm[w], "black": nm[b], "result": G.RESULT_TEXT[r]})
        for e, gi, gr, *_ in self.groups:
            po = filled.events[e].groups[gi].playoff
            if po:
                out.append({"event": e + 1, "stage": f"group {gr.name} play-off",
                            "places": [[nm[p] for p in pl] if len(pl) > 1 else nm[pl[0]]
                                       for pl in po]})
        for e, rd, _ in self.matches:
            m = filled.events[e].knockout[rd]
            by_classical = sum((1, 0, -1)[c] for c in m.classical) != 0
            out.append({"event": e + 1, "stage": rd, "players": [nm[m.a], nm[m.b]],
                        "classical": [G.RESULT_TEXT[c] for c in m.classical],
                        "winner": nm[m.winner],
                        "decided": "classical" if by_classical else "tiebreak"})
        del open_games
        return out

    def filled(self, res, playoffs, kos):
        """The scenario with every open result entered (for replay through ``standings``)."""
        G, scn = self.G, self.scn
        states = G._state(scn, self.at)
        events = []
        for e, (ev, st) in enumerate(zip(scn.events, states)):
            groups = []
            for gi, g in enumerate(ev.groups):
                known = st.groups_known
                sg = st.groups[gi] if known else None
                games = []
                for j, (rd, w, b, r) in enumerate(g.games):
                    rr = sg.games[j][3] if known else -1
                    games.append((rd, w, b, rr if rr >= 0 else res[e, w, b]))
                po = playoffs.get((e, gi), sg.playoff if known else None)
                groups.append(G.Group(g.name, g.players, tuple(games), po, g.playoff_note))
            ko = {}
            for rd in G.KO_ROUNDS:
                ko[rd] = st.ko[rd] if (st.groups_known and rd in st.ko) else kos[e, rd]
            events.append(replace(ev, groups=tuple(groups), knockout=ko))
        return replace(scn, events=tuple(events))

    # ---- greedy complete results (seeds for the pool) ---------------------------------------
    def greedy(self, x, best):
        """One complete set of results: ``best``: x wins every game and match, other games
        are drawn, other play-offs and matches go to the player with fewer points now
        (two draws, then the tiebreak); not ``best``: x loses everything and the player with
        more points now wins every other game and match 2-0."""
        G, scn = self.G, self.scn
        now = self.now
        res, playoffs, kos = {}, {}, {}

        def prefer(a, b):
            """True if a should come out on top."""
            if x in (a, b):
                return (a == x) == best
            return (now[a] < now[b]) if best else (now[a] > now[b])

        for e, gname, rd, w, b, v in self.games:
            if x in (w, b) or not best:
                res[e, w, b] = 0 if prefer(w, b) else 2
            else:
                res[e, w, b] = 1
        gp6 = [G.POINT * v for v in scn.group_points]
        filled = self.filled(res, {}, {(e, rd): None for e, rd, _ in self.matches})
        for e, gi, gr, *_ in self.groups:
            fg = filled.events[e].groups[gi]
            sc, _, _ = G.group_scores(fg)
            top = max(sc)
            tied = [gr.players[i] for i in range(4) if sc[i] == top]
            if len(tied) > 1:
                order = sorted(tied, key=lambda p: (0, 0) if p == x and best else
                               (2 if p == x else 1, now[p] if best else -now[p]))
                places = [(order[0],)]
                if len(order) == 2:
                    places.append((order[1],))
                elif len(order) == 3:
                    places.append(tuple(order[1:]))
                else:
                    places += [(order[1],), tuple(order[2:])]
                playoffs[e, gi] = tuple(places)
        filled = self.filled(res, playoffs, {(e, rd): None for e, rd, _ in self.matches})
        for e, rd, _ in self.matches:
            ev = filled.events[e]
            if rd == "final":
                a, b = kos[e, "sf1"].winner if (e, "sf1") in kos else ev.knockout["sf1"].winner, \
                    kos[e, "sf2"].winner if (e, "sf2") in kos else ev.knockout["sf2"].winner
            else:
                k = 0 if rd == "sf1" else 2
                a, b = (self._group_winner(ev.groups[k], gp6),
                        self._group_winner(ev.groups[k + 1], gp6))
            wa = prefer(a, b)
            if x in (a, b) or not best:
                cl = (0, 0) if wa else (2, 2)
            else:
                cl = (1, 1)
            kos[e, rd] = G.Match(rd, a, b, cl, a if wa else b)
        return res, playoffs, kos

    def _group_winner(self, gr, gp6):
        pl = self.G.group_places(gr, gp6)
        return gr.players[pl.index(gp6[0])]


def _options(gp6, elim):
    """(above, level, group points, wins the group?) allowed for one player."""
    out = []
    for a in range(4):
        for e in range(4 - a):
            if a == 0 and e == 0:
                out.append((0, 0, gp6[0], True))
            elif a == 0:
                out.append((0, e, gp6[0], True))
                if e == 1:
                    out.append((0, 1, gp6[1], False))
                elif e == 2:
                    share = (gp6[1] + gp6[2]) // 2
                    vals = {gp6[1], gp6[2], share} if elim else {share}
                    out += [(0, 2, v, False) for v in sorted(vals)]
                else:
                    out += [(0, 3, v, False) for v in sorted({gp6[1], (gp6[2] + gp6[3]) // 2})]
            else:
                out.append((a, e, sum(gp6[a:a + e + 1]) // (e + 1), False))
    return out


def _keys(G, filled):
    """Replay a filled scenario through ``standings``: {player id: deterministic key} for the
    players in the table (series points, then the scenario's tiebreaks except lots)."""
    d = G.standings(filled, None)
    names = {"events-won": "events_won", "second-places": "second_places",
             "classical-points": "classical_points", "classical-wins": "classical_wins"}
    crit = ["points"] + [names[t] for t in filled.tiebreaks if t != "lots"]
    return {filled._index[r["name"].casefold()]: tuple(r[c] for c in crit)
            for r in d["players"] if r["eligible"]}


def analyse(scn, at, budget=DEFAULT_BUDGET, question_limit=QUESTION_LIMIT):
    """Rows for targets "first" and "qualify"; see the module docstring.

    Every complete set of results met on the way (greedy seeds: each player winning, or
    losing, everything; every feasible point HiGHS returns) is replayed through
    ``standings`` and kept in a pool; a pooled set answers, without a new MILP, every later
    question it witnesses (someone finishing in, or q rivals level or ahead of someone).
    "Cannot" answers always come from a MILP proved infeasible."""
    from .formats import group_series as G

    t0 = time.monotonic()
    model = SeriesMILP(scn, at)
    st = G.standings(scn, at)
    names = [p["name"] for p in scn.players]
    order = [scn._index[r["name"].casefold()] for r in st["players"]]
    targets = {"first": 1}
    if scn.qualifying_places > 1:
        targets["qualify"] = scn.qualifying_places
    pool = []                       # (filled scenario, keys)

    def keep(triple):
        filled = model.filled(*triple)
        pool.append((filled, _keys(G, filled)))

    def witness(x, q, strict, at_most):
        """A pooled filled scenario answering the question, or None."""
        for filled, k in pool:
            n_ge = sum(1 for j in k if j != x and (k[j] > k[x] if strict else k[j] >= k[x]))
            if (n_ge <= q - 1) if at_most else (n_ge >= q):
                return filled
        return None

    def left():
        return min(question_limit, budget - (time.monotonic() - t0))

    def ask(x, q, strict, at_most):
        f = witness(x, q, strict, at_most)
        if f is not None:
            return "feasible", f
        if left() <= 0:
            return "unknown", None
        s, sol = model.ask(x, q, strict, at_most, left())
        if s == "feasible":
            keep(model.decode(sol))
            f = witness(x, q, strict, at_most)
            if f is None:            # the replay disagrees with the MILP: never guess
                return "unknown", None
        return s, f

    for x in order:
        if model.eligible[x]:
            for best in (True, False):
                keep(model.greedy(x, best))
    out = {}
    for tname, q in targets.items():
        rows = []
        for x in order:
            row = {"name": names[x], "status": None, "via": None, "at_worst": None, "path": None}
            rows.append(row)
            if not model.eligible[x]:
                row["status"] = "n/a"
                continue
            found = None
            for claim, strict in (("outright", False), ("tiebreak", True)):
                s, f = ask(x, q, strict, True)
                if s == "unknown":
                    found = "undetermined"
                    break
                if s == "feasible":
                    found = (claim, model.entries(f))
                    break
            if found == "undetermined":
                row["status"] = "undetermined"
                continue
            if found is None:
                row["status"] = "eliminated"
                continue
            s, _ = ask(x, q, False, False)
            if s == "unknown":
                row["status"] = "undetermined"
                continue
            if s == "infeasible":
                row.update(status="clinched", via="outright")
                continue
            s2, _ = ask(x, q, True, False)
            if s2 == "unknown":
                row["status"] = "undetermined"
                continue
            row.update(status="alive", via=found[0], path=found[1],
                       at_worst="out" if s2 == "feasible" else "tiebreak")
        out[tname] = rows
    return model, st, out
