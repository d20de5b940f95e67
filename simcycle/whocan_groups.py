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
Groups not drawn at the checkpoint (``future_groups = "draw"``) follow ``draw_rule``:
``snake`` gives fixed groups; ``baskets`` and ``lots`` make the draw part of the MILP
(``_free_event``: binaries put players in groups, pairs of players carry their two games as one
of six combined results, present only when they share a group).  ``draws="as-drawn"`` reads
the file's groups instead (hindsight).

Answers: complete result sets are replayed through ``standings`` and pooled (greedy seeds,
random draws, MILP solutions, and with a free draw first the answers on the file's draw when
the rule allows it); a pooled set witnesses every "can" question it answers.  "Cannot" comes
from bounds on the keys (criteria only grow) or a MILP proved infeasible.  A quick pass with
1 s per MILP, then a pass with ``QUESTION_LIMIT``; a question still open when the budget is
spent leaves its row "undetermined".
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
# a pair's two games in a free-draw group, from p's side: (p's half points, p's wins,
# q's half points, q's wins, (result of the game p has White, result of the game q has White))
PAIR_OUT = [(4, 2, 0, 0, (0, 2)), (3, 1, 1, 0, (0, 1)), (2, 1, 2, 1, (0, 0)),
            (2, 0, 2, 0, (1, 1)), (1, 0, 3, 1, (1, 0)), (0, 0, 4, 2, (2, 0))]
DEFAULT_BUDGET = 20.0      # seconds for one whocan call (all rows)
QUESTION_LIMIT = 10.0      # seconds for one MILP
RANDOM_DRAWS = 12          # random draws tried greedily before a free-draw MILP


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

    def __init__(self, scn, at, draws="rule", fix_draw=False):
        """``draws``: how groups not drawn at the checkpoint are read: "rule" (the
        scenario's ``draw_rule``: every draw it allows for ``baskets`` and ``lots``, the
        fixed groups for ``snake``) or "as-drawn" (the groups in the file)."""
        from .formats import group_series as G

        self.scn, self.at, self.G = scn, at, G
        self.draws = draws
        self.fix_draw = fix_draw     # tests: free-draw model held to the file's draw
        self.free = {}        # event -> free-draw data (see _free_event)
        self.fixed_draw = {}  # event -> groups used for an undrawn event (snake, as-drawn)
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
            if st.groups_known:
                groups = st.groups
            elif draws == "rule" and scn.rules["draw_rule"] != "snake":
                gwin = self._free_event(e, ev, pts, cp, cw, ub, gp6, elim)
                self._knockout(e, st, gwin, pts, tf, ts, cp, cw, ko6, ub)
                continue
            else:
                groups = self._undrawn_groups(e, ev, draws)
                self.fixed_draw[e] = groups
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
            gwin = [{p: win[p] for p in gr.players if win[p].c or win[p].k} for gr in groups]
            self._knockout(e, st, gwin, pts, tf, ts, cp, cw, ko6, ub)
        # keys
        self.eligible = [scn.substitutes_count or not p["substitute"] for p in scn.players]
        self.order = ["points", *[G.CRITERIA[t] for t in scn.tiebreaks if t != "lots"]]
        lo = {c: [self.crit[c][p].k for p in range(n)] for c in self.order}
        hi = {c: [self.crit[c][p].k + ub[c][p] for p in range(n)] for c in self.order}
        self._lohi = (lo, hi)
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
        # bounds on every player's key: criteria only grow from what is fixed now
        self.key_lo = [sum(mult[c] * lo[c][p] for c in self.order) for p in range(n)]
        self.key_hi = [sum(mult[c] * hi[c][p] for c in self.order) for p in range(n)]
        self.now = [pts[p].k for p in range(n)]     # series points fixed at the checkpoint

    def _knockout(self, e, st, gwin, pts, tf, ts, cp, cw, ko6, ub):
        """The event's matches; gwin[g] = {player: _Lin "won group g"}."""
        G = self.G
        sfw = []
        for k, rd in enumerate(("sf1", "sf2")):
            mt = st.ko.get(rd) if st.groups_known else None
            if mt is not None:
                self._fixed_match(mt, rd, pts, tf, ts, cp, cw, ko6)
                sfw.append({mt.winner: _Lin(k=1)})
            else:
                sfw.append(self._open_match(e, rd, [gwin[2 * k], gwin[2 * k + 1]], pts, tf, ts,
                                            cp, cw, ko6, ub, False))
        mt = st.ko.get("final") if st.groups_known else None
        if mt is not None:
            self._fixed_match(mt, "final", pts, tf, ts, cp, cw, ko6)
        else:
            self._open_match(e, "final", sfw, pts, tf, ts, cp, cw, ko6, ub, True)
        # what the open matches can add: a player is in one semi-final at most, and the final
        in_sf = {p for ee, rd, yv in self.matches if ee == e and rd != "final"
                 for side in yv for p in side}
        in_f = {p for ee, rd, yv in self.matches if ee == e and rd == "final"
                for side in yv for p in side}
        for p in in_sf | in_f:
            k = (p in in_sf) + (p in in_f)
            ub["points"][p] += ko6 * k
            ub[3][p] += 4 * k
            ub[4][p] += 2 * k
            if p in in_f:
                ub[1][p] += 1
                ub[2][p] += 1
        del G

    def _draw_order(self, e, ev):
        """The event's roster by rating as the module's draw uses it (compile)."""
        rating = {p: ev.ratings.get(p, self.scn.players[p]["rating"]) for p in ev.roster}
        return sorted(ev.roster, key=lambda p: (-rating[p], p))

    def _undrawn_groups(self, e, ev, draws):
        """Groups of an undrawn event read as fixed: the file's (as-drawn) or the snake's."""
        G, scn = self.G, self.scn
        sched = G.schedule(scn.rules["schedule"])
        if draws == "as-drawn":
            if not ev.groups:
                from .errors import ScenarioError
                raise ScenarioError("whocan --as-drawn needs the event's groups in the file",
                                    file=scn.file, key=f"events[{e}].groups")
            return [G.Group(g.name, g.players, tuple((rd, w, b, -1) for rd, w, b, _ in g.games),
                            None) for g in ev.groups]
        order = self._draw_order(e, ev)
        groups = [[], [], [], []]
        for i, p in enumerate(order):
            q, r = divmod(i, 4)
            groups[r if q % 2 == 0 else 3 - r].append(p)
        return [self._group_of(e, "ABCD"[g], tuple(pl), sched) for g, pl in enumerate(groups)]

    def _group_of(self, e, name, players, sched, res=None):
        """A Group of ``players`` (slot order) with the schedule's games; results from
        ``res`` {(e, White, Black): code} or unplayed."""
        G = self.G
        games = tuple((rd, players[w], players[b],
                       -1 if res is None else res[e, players[w], players[b]])
                      for rd, w, b in sched)
        return G.Group(name, players, games, None)

    def _free_event(self, e, ev, pts, cp, cw, ub, gp6, elim):
        """An event whose groups are still to be drawn by ``baskets`` or ``lots``: binaries
        x[p, g] put each player in a group (four a group; one of each basket of four by
        rating with ``baskets``; the top-rated player in group A, as relabelling groups A<->B,
        C<->D and AB<->CD changes nothing); t[p, q] = "p and q share a group"; each pair's
        two games as one of six combined results, present iff t; the same ranking and
        play-off options as a drawn group, with "won group g" = win[p] AND x[p, g] and the
        group's points conserved (both linearised)."""
        m = self.m
        order = self._draw_order(e, ev)
        baskets = self.scn.rules["draw_rule"] == "baskets"
        bk = {p: i // 4 for i, p in enumerate(order)}
        x = {(p, g): m.var() for p in order for g in range(4)}
        for p in order:
            m.row(_Lin({x[p, g]: 1 for g in range(4)}), 1, 1)
        for g in range(4):
            m.row(_Lin({x[p, g]: 1 for p in order}), 4, 4)
            if baskets:
                for k in range(4):
                    m.row(_Lin({x[p, g]: 1 for p in order if bk[p] == k}), 1, 1)
        if self.fix_draw:
            for g, gr in enumerate(ev.groups):
                for p in gr.players:
                    m.lb[x[p, g]] = 1
        else:
            m.lb[x[order[0], 0]] = 1
        pairs = [(p, q) for i, p in enumerate(order) for q in order[i + 1:]
                 if not baskets or bk[p] != bk[q]]
        t = {}
        s_lin = {p: _Lin() for p in order}
        w_lin = {p: _Lin() for p in order}
        o = {}
        for p, q in pairs:
            v = t[p, q] = t[q, p] = m.var()
            for g in range(4):
                m.row(_Lin({v: 1, x[p, g]: -1, x[q, g]: -1}), -1, np.inf)
                m.row(_Lin({v: 1, x[p, g]: 1, x[q, g]: -1}), -np.inf, 1)
                m.row(_Lin({v: 1, x[q, g]: 1, x[p, g]: -1}), -np.inf, 1)
            ov = o[p, q] = [m.var() for _ in PAIR_OUT]
            m.row(_Lin({u: 1 for u in ov}).add(_Lin({v: 1}), -1), 0, 0)
            for u, (hp, wp, hq, wq, _) in zip(ov, PAIR_OUT):
                s_lin[p].add(_Lin({u: hp}))
                w_lin[p].add(_Lin({u: wp}))
                s_lin[q].add(_Lin({u: hq}))
                w_lin[q].add(_Lin({u: wq}))
        for p in order:
            m.row(_Lin({t[p, q]: 1 for q in order if (p, q) in t}), 3, 3)
            cp[p].add(s_lin[p])
            cw[p].add(w_lin[p])
            ub[3][p] += 12
            ub[4][p] += 6
            ub["points"][p] += gp6[0]
        M = 25
        b = {}
        for p, q in pairs:
            for i, j in ((p, q), (q, p)):
                b[i, j] = m.var()
                m.row(_Lin({b[i, j]: 1, t[p, q]: -1}), -np.inf, 0)
            m.row(_Lin({b[p, q]: 1, b[q, p]: 1}), 0, 1)
            for i, j in ((p, q), (q, p)):
                d = _Lin().add(s_lin[i]).add(s_lin[j], -1)
                # b = 1 -> s_i - s_j >= 1; b = 0 and same group -> s_i <= s_j
                m.row(_Lin(d.c, d.k).add(_Lin({b[i, j]: -M})), 1 - M, np.inf)
                m.row(_Lin(d.c, d.k).add(_Lin({b[i, j]: -M, t[p, q]: M})), -np.inf, M)
        opts = _options(gp6, elim)
        z = {}
        gl, wl = {}, {}
        for p in order:
            zz = z[p] = [m.var() for _ in opts]
            m.row(_Lin({u: 1 for u in zz}), 1, 1)
            above = _Lin({b[q, p]: 1 for q in order if (q, p) in b})
            level = _Lin({t[p, q]: 1 for q in order if (p, q) in t})
            level.add(_Lin({b[p, q]: 1 for q in order if (p, q) in b}), -1)
            level.add(above, -1)
            m.row(_Lin({u: op[0] for u, op in zip(zz, opts)}).add(above, -1), 0, 0)
            m.row(_Lin({u: op[1] for u, op in zip(zz, opts)}).add(level, -1), 0, 0)
            gl[p] = _Lin({u: op[2] for u, op in zip(zz, opts)})
            wl[p] = _Lin({u: 1 for u, op in zip(zz, opts) if op[3]})
            pts[p].add(gl[p])
        gwin = []
        top = gp6[0]
        for g in range(4):
            vs, us = {}, {}
            for p in order:
                v = vs[p] = m.var()
                m.row(_Lin({v: 1}).add(wl[p], -1), -np.inf, 0)
                m.row(_Lin({v: 1, x[p, g]: -1}), -np.inf, 0)
                m.row(_Lin({v: 1, x[p, g]: -1}).add(wl[p], -1), -1, np.inf)
                u = us[p] = m.var(0, top)
                m.row(_Lin({u: 1, x[p, g]: -top}), -np.inf, 0)
                m.row(_Lin({u: 1}).add(gl[p], -1), -np.inf, 0)
                m.row(_Lin({u: 1, x[p, g]: -top}).add(gl[p], -1), -top, np.inf)
            m.row(_Lin({v: 1 for v in vs.values()}), 1, 1)
            m.row(_Lin({u: 1 for u in us.values()}), sum(gp6), sum(gp6))
            gwin.append({p: _Lin({vs[p]: 1}) for p in order})
        self.free[e] = {"order": order, "x": x, "pairs": pairs, "o": o, "z": z, "opts": opts,
                        "s": s_lin, "baskets": baskets, "bk": bk}
        return gwin

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
                won[p] = won[p].add(wl) if p in won else wl
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
    def _open_groups(self):
        """(event, group index) of every group not placed at the checkpoint."""
        out = [(e, gi) for e, gi, *_ in self.groups]
        out += [(e, g) for e in self.free for g in range(4)]
        return out

    def decode(self, x):
        """The results a rounded solution x stands for: (game results {(e, w, b): code},
        play-off places {(e, group index): places}, matches {(e, round): Match},
        draws {e: [four tuples of players in slot order]} for free-draw events)."""
        G = self.G
        res = {}
        for e, gname, rd, w, b, v in self.games:
            res[e, w, b] = int(np.argmax([x[i] for i in v]))
        draws = {}
        ties = []                      # (e, gi, players, scores, option values)
        for e, gi, gr, opts, table, s_lin in self.groups:
            sc = [_value(s, x) for s in s_lin]
            vals = [opts[int(np.argmax([x[v] for v in table[i]]))] for i in range(4)]
            ties.append((e, gi, gr.players, sc, vals))
        for e, f in self.free.items():
            groups = []
            for g in range(4):
                pl = [p for p in f["order"] if x[f["x"][p, g]] == 1]
                pl.sort(key=lambda p: f["order"].index(p))
                groups.append(tuple(pl))
                sc = [_value(f["s"][p], x) for p in pl]
                vals = [f["opts"][int(np.argmax([x[v] for v in f["z"][p]]))] for p in pl]
                ties.append((e, g, tuple(pl), sc, vals))
            draws[e] = groups
            for p, q in f["pairs"]:
                k = [x[u] for u in f["o"][p, q]]
                if max(k) == 1:
                    rp, rq = PAIR_OUT[int(np.argmax(k))][4]
                    res[e, p, q] = rp
                    res[e, q, p] = rq
        playoffs = {}
        for e, gi, players, sc, vals in ties:
            top = max(sc)
            tied = [i for i in range(4) if sc[i] == top]
            if len(tied) < 2:
                continue
            winner = next(i for i in tied if vals[i][3])
            rest = sorted((i for i in tied if i != winner), key=lambda i: -vals[i][2])
            places = [(players[winner],)]
            k = 0
            while k < len(rest):
                same = tuple(players[i] for i in rest if vals[i][2] == vals[rest[k]][2])
                places.append(same)
                k += len(same)
            playoffs[e, gi] = tuple(places)
        kos = {}
        for e, rd, yv in self.matches:
            a = next(p for p in yv[0] if sum(x[v] for v in yv[0][p]) == 1)
            b = next(p for p in yv[1] if sum(x[v] for v in yv[1][p]) == 1)
            _, cl, won = KO_OUT[int(np.argmax([x[v] for v in yv[0][a]]))]
            kos[e, rd] = G.Match(rd, a, b, cl, a if won else b)
        return res, playoffs, kos, draws

    def entries(self, filled):
        """Readable path entries: every result the checkpoint leaves open, from a filled
        scenario (event numbers from 1; results from White's / the first player's side)."""
        G, scn = self.G, self.scn
        nm = [p["name"] for p in scn.players]
        out = []
        for e in sorted(self.free):
            out.append({"event": e + 1, "stage": "draw",
                        "groups": {g.name: [nm[p] for p in g.players]
                                   for g in filled.events[e].groups}})
        for e, gname, rd, w, b, v in self.games:
            gr = next(g for g in filled.events[e].groups if g.name == gname)
            r = next(r for rd_, w_, b_, r in gr.games if (w_, b_) == (w, b))
            out.append({"event": e + 1, "stage": f"group {gname}", "round": rd,
                        "white": nm[w], "black": nm[b], "result": G.RESULT_TEXT[r]})
        for e in sorted(self.free):
            for gr in filled.events[e].groups:
                for rd, w, b, r in gr.games:
                    out.append({"event": e + 1, "stage": f"group {gr.name}", "round": rd,
                                "white": nm[w], "black": nm[b], "result": G.RESULT_TEXT[r]})
        for e, gi in self._open_groups():
            gr = filled.events[e].groups[gi]
            if gr.playoff:
                out.append({"event": e + 1, "stage": f"group {gr.name} play-off",
                            "places": [[nm[p] for p in pl] if len(pl) > 1 else nm[pl[0]]
                                       for pl in gr.playoff]})
        for e, rd, _ in self.matches:
            m = filled.events[e].knockout[rd]
            by_classical = sum((1, 0, -1)[c] for c in m.classical) != 0
            out.append({"event": e + 1, "stage": rd, "players": [nm[m.a], nm[m.b]],
                        "classical": [G.RESULT_TEXT[c] for c in m.classical],
                        "winner": nm[m.winner],
                        "decided": "classical" if by_classical else "tiebreak"})
        return out

    def filled(self, res, playoffs, kos, draws=None, upto=None):
        """The scenario with every open result entered (for replay through ``standings``);
        ``draws`` gives the groups of free-draw events; with ``upto`` only events up to that
        one are needed (later ones keep their open results, for the greedy)."""
        G, scn = self.G, self.scn
        states = G._state(scn, self.at)
        sched = G.schedule(scn.rules["schedule"])
        events = []
        for e, (ev, st) in enumerate(zip(scn.events, states)):
            if st.groups_known:
                base = st.groups
            elif e in self.free:
                base = [self._group_of(e, "ABCD"[g], pl, sched) for g, pl in enumerate(draws[e])]
            else:
                base = self.fixed_draw[e]
            groups = []
            for gi, g in enumerate(base):
                games = tuple((rd, w, b, r if r >= 0 else res.get((e, w, b), -1))
                              for rd, w, b, r in g.games)
                po = playoffs.get((e, gi), g.playoff)
                groups.append(G.Group(g.name, g.players, games, po, g.playoff_note))
            ko = {}
            for rd in G.KO_ROUNDS:
                ko[rd] = st.ko[rd] if (st.groups_known and rd in st.ko) else kos[e, rd]
            events.append(replace(ev, groups=tuple(groups), knockout=ko))
        return replace(scn, events=tuple(events))

    # ---- greedy complete results (seeds for the pool) ---------------------------------------
    def greedy(self, x, best, spread=True, rng=None):
        """One complete set of results, event by event.  ``best``: x wins every game and
        match; in the other games the player with fewer points so far wins (``spread``) or
        they are drawn; other play-offs and matches go to the player with fewer points so far
        (two draws then the tiebreak).  Not ``best``: x loses everything and the player with
        more points so far wins every other game and match 2-0.  Free draws: group g gets
        the g-th player of each basket of four by rating, or a random draw the rule allows
        when ``rng`` is given."""
        G, scn = self.G, self.scn
        tot = list(self.now)
        res, playoffs, kos = {}, {}, {}
        gp6 = [G.POINT * v for v in scn.group_points]
        ko6 = G.POINT * scn.ko_points

        def prefer(a, b):
            """True if a should come out on top."""
            if x in (a, b):
                return (a == x) == best
            return (tot[a], a) < (tot[b], b) if best else (tot[a], -a) > (tot[b], -b)

        def rank(p):
            if p == x:
                return (0 if best else 2, 0)
            return (1, tot[p] if best else -tot[p])

        draws = {}
        for e, f in self.free.items():
            o = list(f["order"])
            if rng is None:
                draws[e] = [tuple(o[4 * k + g] for k in range(4)) for g in range(4)]
            elif f["baskets"]:
                bks = [list(rng.permutation(o[4 * k:4 * k + 4])) for k in range(4)]
                draws[e] = [tuple(int(bks[k][g]) for k in range(4)) for g in range(4)]
            else:
                sh = [int(p) for p in rng.permutation(o)]
                draws[e] = [tuple(sorted(sh[4 * g:4 * g + 4], key=o.index)) for g in range(4)]
        games = {}
        for e, _, _, w, b, _ in self.games:
            games.setdefault(e, []).append((w, b))
        for e, gs in draws.items():
            games[e] = [(w, b) for pl in gs for w in pl for b in pl if b != w]
        none = {(e, rd): None for e, rd, _ in self.matches}
        open_groups = self._open_groups()
        for e in range(len(scn.events)):
            for w, b in games.get(e, ()):
                if x in (w, b) or not best or spread:
                    res[e, w, b] = 0 if prefer(w, b) else 2
                else:
                    res[e, w, b] = 1
            filled = self.filled(res, playoffs, none, draws, upto=e)
            for ee, gi in open_groups:
                if ee != e:
                    continue
                fg = filled.events[e].groups[gi]
                sc, _, _ = G.group_scores(fg)
                top = max(sc)
                tied = [fg.players[i] for i in range(4) if sc[i] == top]
                if len(tied) > 1:
                    order = sorted(tied, key=rank)
                    places = [(order[0],)]
                    if len(order) == 2:
                        places.append((order[1],))
                    elif len(order) == 3:
                        places.append(tuple(order[1:]))
                    else:
                        places += [(order[1],), tuple(order[2:])]
                    playoffs[e, gi] = tuple(places)
                    fg = replace(fg, playoff=tuple(places))
                for p, v in zip(fg.players, G.group_places(fg, gp6)):
                    tot[p] += v
            filled = self.filled(res, playoffs, none, draws, upto=e)
            ev = filled.events[e]
            for ee, rd, _ in self.matches:
                if ee != e:
                    continue
                if rd == "final":
                    a = kos[e, "sf1"].winner if (e, "sf1") in kos else ev.knockout["sf1"].winner
                    b = kos[e, "sf2"].winner if (e, "sf2") in kos else ev.knockout["sf2"].winner
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
                tot[a if wa else b] += ko6
        return res, playoffs, kos, draws

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


def _file_draw_allowed(model, scn):
    """Are the file's groups of every free-draw event a draw the rule allows?"""
    for e, f in model.free.items():
        ev = scn.events[e]
        if len(ev.groups) != 4:
            return False
        if f["baskets"] and any(sorted(f["bk"][p] for p in g.players) != [0, 1, 2, 3]
                                for g in ev.groups):
            return False
    return True


def analyse(scn, at, budget=DEFAULT_BUDGET, question_limit=QUESTION_LIMIT, draws="rule",
            _pool=None, seed=True, fix_draw=False):
    """Rows for targets "first" and "qualify"; see the module docstring.

    Every complete set of results met on the way (greedy seeds: each player winning, or
    losing, everything; every feasible point HiGHS returns) is replayed through
    ``standings`` and kept in a pool; a pooled set answers, without a new MILP, every later
    question it witnesses (someone finishing in, or q rivals level or ahead of someone).
    "Cannot" answers always come from a MILP proved infeasible."""
    from .formats import group_series as G

    t0 = time.monotonic()
    model = SeriesMILP(scn, at, draws, fix_draw)
    seed_pool = []
    if seed and draws == "rule" and model.free and _file_draw_allowed(model, scn):
        # the file's draw is one the rule allows: answer on it first (a smaller MILP); its
        # complete results witness "can" answers for the free draw too
        analyse(scn, at, budget / 2, question_limit, "as-drawn", seed_pool)
    st = G.standings(scn, at)
    names = [p["name"] for p in scn.players]
    order = [scn._index[r["name"].casefold()] for r in st["players"]]
    targets = {"first": 1}
    if scn.qualifying_places > 1:
        targets["qualify"] = scn.qualifying_places
    pool = seed_pool                # (filled scenario, keys)

    def keep(triple):
        filled = model.filled(*triple)
        if any(r < 0 for ev in filled.events for g in ev.groups for *_, r in g.games):
            raise AssertionError("whocan: an incomplete set of results")   # a bug, not an answer
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

    def ask(x, q, strict, at_most, limit):
        f = witness(x, q, strict, at_most)
        if f is not None:
            return "feasible", f
        if model.free and seed:
            # other draws: a few random ones the rule allows, greedy results on each
            rng = np.random.default_rng(1000 + x)
            for _ in range(RANDOM_DRAWS):
                for spread in ((True, False) if at_most else (True,)):
                    keep(model.greedy(x, at_most, spread, rng))
                f = witness(x, q, strict, at_most)
                if f is not None:
                    return "feasible", f
        t_left = min(limit, left())
        if t_left <= 0:
            return "unknown", None
        s, sol = model.ask(x, q, strict, at_most, t_left)
        if s == "feasible":
            keep(model.decode(sol))
            f = witness(x, q, strict, at_most)
            if f is None:            # the replay disagrees with the MILP: never guess
                return "unknown", None
        return s, f

    for x in order if seed else ():
        if model.eligible[x]:
            for best, spread in ((True, True), (True, False), (False, True)):
                keep(model.greedy(x, best, spread))
    el = [j for j in range(len(names)) if model.eligible[j]]

    def by_bounds(x, q, strict, at_most):
        """"infeasible" when the key bounds alone settle the question, else None."""
        lo, hi = model.key_lo, model.key_hi
        if at_most:   # q rivals are always level or ahead (ahead) of x
            n = sum(1 for j in el if j != x and (lo[j] > hi[x] if strict else lo[j] >= hi[x]))
            return "infeasible" if n >= q else None
        n = sum(1 for j in el if j != x and (hi[j] > lo[x] if strict else hi[j] >= lo[x]))
        return "infeasible" if n < q else None

    memo = {}

    def answer(x, q, strict, at_most, limit):
        k = (x, q, strict, at_most)
        if k not in memo:
            b = by_bounds(x, q, strict, at_most)
            if b:
                memo[k] = (b, None)
            else:
                s, f = ask(x, q, strict, at_most, limit)
                if s == "unknown":
                    return s, f
                memo[k] = (s, f)
        return memo[k]

    def settle(x, q, row, limit):
        """Fill row; returns False if a question was left unanswered."""
        found = None
        for claim, strict in (("outright", False), ("tiebreak", True)):
            s, f = answer(x, q, strict, True, limit)
            if s == "unknown":
                return False
            if s == "feasible":
                found = (claim, f)
                break
        if found is None:
            row["status"] = "eliminated"
            return True
        s, _ = answer(x, q, False, False, limit)
        if s == "unknown":
            return False
        if s == "infeasible":
            row.update(status="clinched", via="outright")
            return True
        s2, _ = answer(x, q, True, False, limit)
        if s2 == "unknown":
            return False
        row.update(status="alive", via=found[0], path=model.entries(found[1]),
                   at_worst="out" if s2 == "feasible" else "tiebreak")
        return True

    out = {}
    todo = []
    for tname, q in targets.items():
        rows = out[tname] = []
        for x in order:
            row = {"name": names[x], "status": None, "via": None, "at_worst": None, "path": None}
            rows.append(row)
            if not model.eligible[x]:
                row["status"] = "n/a"
            else:
                todo.append((x, q, row))
    # quick pass first (short MILPs), then the rest with what is left of the budget
    for limit in (min(1.0, question_limit), question_limit):
        todo = [(x, q, row) for x, q, row in todo if not settle(x, q, row, limit)]
    for _, _, row in todo:
        row["status"] = "undetermined"
    if _pool is not None:
        _pool.extend(pool)
    return model, st, out
