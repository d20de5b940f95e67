"""Who can still finish first, or qualify, in a group series (FIDE Grand Prix 2022): the whocan
backend (``whocan/core.py`` asks the questions, this module answers them).

The remaining results are modelled as one mixed-integer program (``whocan.milp``, HiGHS), at
the level the series cares about:

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
  points and wins count toward the series tiebreaks; tiebreak games do not;
* per player, linear expressions for series points (sixths), events won, second places,
  classical points (half points) and classical wins, folded in the scenario's tiebreak order
  into one integer key with multipliers wider than the range of everything below them.

Groups not drawn at the checkpoint (``future_groups = "draw"``) follow ``draw_rule``:
``snake`` gives fixed groups; ``baskets`` and ``lots`` make the draw part of the MILP
(:meth:`SeriesMILP._free_event`: binaries put players in groups, pairs of players carry their
two games as one of six combined results, present only when they share a group).
``draws="as-drawn"`` reads the file's groups instead (hindsight).

A witness is a complete filled scenario, replayed through ``rules.standings`` for its keys.
Seeds: greedy complete result sets (each player winning, or losing, everything).  ``solve``
tries, with a free draw, greedy results on random draws the rule allows, then (when the file's
draw is one the rule allows) the smaller MILP on the file's draw, then the full MILP.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np

from ...enums import RESULT_TEXT, UNPLAYED
from ...errors import ScenarioError
from ...kernels import keys
from ...whocan.core import FEASIBLE, INFEASIBLE, LEVEL, OUTRIGHT, Work, holds
from ...whocan.core import analyse as analyse_rows
from ...whocan.milp import Lin, Model, question_rows
from ...whocan.words import bound_words, points_words
from . import rules
from .rules import POINT, group_places, group_scores, group_winner, schedule, snake
from .scenario import Group, GroupSeries, Match
from .schema import KO_ROUNDS

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
DEFAULT_BUDGET = 20000     # work units (solver nodes) for one whocan call (all rows)
QUESTION_LIMIT = 5000      # solver nodes for one question
LEAN = "lean"              # greedy style: draws, but the player with more points so far loses
RESTRICTED_LIMIT = 200     # solver nodes for a restricted program (witnesses only)
STEER_X = 20              # weight of x's own points in a restricted program's objective
PROBE_FULL = 200           # solver nodes the full program runs at least (kept for pass two)
CATCH_SPARE = 2            # rivals beyond q whose combinations try to catch a player
RANDOM_DRAWS = 12          # random draws tried greedily before a free-draw MILP
BIG_M = 25                 # > any difference of two players' group scores (half points)
POINTS = "points"
CRITERIA = {"events-won": "tf", "second-places": "ts", "classical-points": "cp",
            "classical-wins": "cw"}


def options(gp6, elim):
    """(above, level, group points, wins the group?) allowed for one player of a group."""
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


class _Tallies:
    """Per player: a Lin per criterion (what the checkpoint fixes + the open results) and
    what the open results can add at most."""

    def __init__(self, n: int):
        self.lin = {c: [Lin() for _ in range(n)] for c in (POINTS, *CRITERIA.values())}
        self.ub = {c: [0] * n for c in self.lin}

    def add(self, crit: str, p: int, e, bound: int = 0) -> None:
        self.lin[crit][p].add(e)
        self.ub[crit][p] += bound


class SeriesMILP:
    """The remaining results of a group series at a checkpoint, as a MILP (module doc)."""

    def __init__(self, scn: GroupSeries, at, draws="rule", fix_draw=False, given=None,
                 fixed=None):
        """``draws``: how groups not drawn at the checkpoint are read: "rule" (the
        scenario's ``draw_rule``: every draw it allows for ``baskets`` and ``lots``, the
        fixed groups for ``snake``) or "as-drawn" (the groups in the file).  ``fix_draw``
        (tests): the free-draw model held to the file's draw.  ``given``: {event: groups
        (player tuples in slot order)} for undrawn events, read as drawn so (one draw the
        rule allows: a smaller program for witnesses)."""
        self.given = given or {}
        self.scn, self.at = scn, at
        self.draws = draws
        self.fix_draw = fix_draw
        self.free = {}        # event -> free-draw data (see _free_event)
        self.fixed_draw = {}  # event -> groups used for an undrawn event (snake, as-drawn)
        self.states = rules.state(scn, at, fixed)
        self.gp6 = [POINT * x for x in scn.group_points]
        self.ko6 = POINT * scn.ko_points
        self.elim = scn.rules["playoff_places"] == "elimination"
        self.m = Model()
        self.t = _Tallies(len(scn.players))
        self.crit = self.t.lin
        self.games = []       # (e, group name, round, w, b, [3 vars])
        self.groups = []      # (e, group index, group, option table, per-slot variables, scores)
        self.matches = []     # (e, round, side vars [{p: [8 vars]}, {p: [8 vars]}])
        for e, (ev, st) in enumerate(zip(scn.events, self.states)):
            if st.groups_known:
                self._drawn_event(e, st.groups, st)
            elif e in self.given:
                sched = schedule(scn.rules["schedule"])
                self.fixed_draw[e] = [group_of("ABCD"[g], pl, sched)
                                      for g, pl in enumerate(self.given[e])]
                self._drawn_event(e, self.fixed_draw[e], st)
            elif draws == "rule" and scn.rules["draw_rule"] != "snake":
                self._knockout(e, st, self._free_event(e))
            else:
                self.fixed_draw[e] = self._undrawn_groups(e, ev, draws)
                self._drawn_event(e, self.fixed_draw[e], st)
        self._keys()

    # ---- building -------------------------------------------------------------------------
    def _drawn_event(self, e, groups, st):
        pk = st.playoff_known if st.groups_known else [False] * 4
        win = {}                                # player -> Lin "won the group"
        for gi, gr in enumerate(groups):
            win.update(self._group(e, gi, gr, pk[gi]))
        gwin = [{p: win[p] for p in gr.players if win[p].c or win[p].k} for gr in groups]
        self._knockout(e, st, gwin)

    def _group_games(self, e, gr):
        """Score and wins by slot (Lin) of a drawn group; its open games become variables."""
        m, t = self.m, self.t
        slot = {p: s for s, p in enumerate(gr.players)}
        s_lin = [Lin() for _ in range(4)]
        w_lin = [Lin() for _ in range(4)]
        for rd, w, b, r in gr.games:
            a, bb = slot[w], slot[b]
            if r >= 0:
                s_lin[a].add((2, 1, 0)[r])
                s_lin[bb].add((0, 1, 2)[r])
                w_lin[a].add(int(r == 0))
                w_lin[bb].add(int(r == 2))
                continue
            v = [m.var() for _ in range(3)]
            m.row(Lin({v[0]: 1, v[1]: 1, v[2]: 1}), 1, 1)
            s_lin[a].add(Lin({v[0]: 2, v[1]: 1}))
            s_lin[bb].add(Lin({v[2]: 2, v[1]: 1}))
            w_lin[a].add(Lin({v[0]: 1}))
            w_lin[bb].add(Lin({v[2]: 1}))
            self.games.append((e, gr.name, rd, w, b, v))
            for p in (w, b):
                t.ub["cp"][p] += 2
                t.ub["cw"][p] += 1
        for s, p in enumerate(gr.players):
            t.add("cp", p, s_lin[s])
            t.add("cw", p, w_lin[s])
        return s_lin

    def _group(self, e, gi, gr, playoff_known) -> dict:
        """One drawn group; returns {player: Lin "won the group"}."""
        s_lin = self._group_games(e, gr)
        places = None
        if all(r >= 0 for *_, r in gr.games):
            places = group_places(gr, self.gp6, with_playoff=playoff_known)
        if places is not None:
            for s, p in enumerate(gr.players):
                self.t.add(POINTS, p, places[s])
            return {p: Lin(k=int(places[s] == self.gp6[0])) for s, p in enumerate(gr.players)}
        above, level = self._slot_ranking(s_lin)
        win, table = {}, []
        gsum, wsum = Lin(), Lin()
        for i, p in enumerate(gr.players):
            z, gl, wl = self._place_choice(above[i], level[i])
            self.t.add(POINTS, p, gl, self.gp6[0])
            gsum.add(gl)
            wsum.add(wl)
            win[p] = wl
            table.append(z)
        self.m.row(gsum, sum(self.gp6), sum(self.gp6))
        self.m.row(wsum, 1, 1)
        self.groups.append((e, gi, gr, self.opts, table, s_lin))
        return win

    @property
    def opts(self):
        return options(self.gp6, self.elim)

    def _slot_ranking(self, s_lin):
        """Per slot: Lin "players strictly above" and "players level" from pair indicators
        b[i, j] = "i scored more than j"."""
        m = self.m
        bvar = {(i, j): m.var() for i in range(4) for j in range(4) if i != j}
        for i in range(4):
            for j in range(i + 1, 4):
                m.row(Lin({bvar[i, j]: 1, bvar[j, i]: 1}), 0, 1)
        for (i, j), v in bvar.items():
            d = Lin().add(s_lin[i]).add(s_lin[j], -1)
            # v = 1 -> s_i - s_j >= 1 ; v = 0 -> s_i - s_j <= 0
            m.row(Lin(d.c, d.k).add(Lin({v: -BIG_M})), 1 - BIG_M, np.inf)
            m.row(Lin(d.c, d.k).add(Lin({v: -BIG_M})), -np.inf, 0)
        above = [Lin({bvar[j, i]: 1 for j in range(4) if j != i}) for i in range(4)]
        level = []
        for i in range(4):
            lv = Lin({bvar[i, j]: -1 for j in range(4) if j != i}, 3)
            lv.add(Lin({bvar[j, i]: -1 for j in range(4) if j != i}))
            level.append(lv)
        return above, level

    def _place_choice(self, above: Lin, level: Lin):
        """One player's one-hot place option tied to (above, level): (variables, Lin group
        points, Lin wins the group)."""
        m = self.m
        opts = self.opts
        z = [m.var() for _ in opts]
        m.row(Lin({v: 1 for v in z}), 1, 1)
        m.row(Lin({v: o[0] for v, o in zip(z, opts)}).add(above, -1), 0, 0)
        m.row(Lin({v: o[1] for v, o in zip(z, opts)}).add(level, -1), 0, 0)
        return (z, Lin({v: o[2] for v, o in zip(z, opts)}),
                Lin({v: 1 for v, o in zip(z, opts) if o[3]}))

    def _knockout(self, e, st, gwin):
        """The event's matches; gwin[g] = {player: Lin "won group g"}."""
        sfw = []
        for k, rd in enumerate(("sf1", "sf2")):
            mt = st.ko.get(rd) if st.groups_known else None
            if mt is not None:
                self._fixed_match(mt, rd)
                sfw.append({mt.winner: Lin(k=1)})
            else:
                sfw.append(self._open_match(e, rd, [gwin[2 * k], gwin[2 * k + 1]], False))
        mt = st.ko.get("final") if st.groups_known else None
        if mt is not None:
            self._fixed_match(mt, "final")
        else:
            self._open_match(e, "final", sfw, True)
        # what the open matches can add: a player is in one semi-final at most, and the final
        in_sf = {p for ee, rd, yv in self.matches if ee == e and rd != "final"
                 for side in yv for p in side}
        in_f = {p for ee, rd, yv in self.matches if ee == e and rd == "final"
                for side in yv for p in side}
        ub = self.t.ub
        for p in in_sf | in_f:
            k = (p in in_sf) + (p in in_f)
            ub[POINTS][p] += self.ko6 * k
            ub["cp"][p] += 4 * k
            ub["cw"][p] += 2 * k
            if p in in_f:
                ub["tf"][p] += 1
                ub["ts"][p] += 1

    def _fixed_match(self, mt, rd):
        t = self.t
        t.add(POINTS, mt.winner, self.ko6)
        for c in mt.classical:
            t.add("cp", mt.a, (2, 1, 0)[c])
            t.add("cp", mt.b, (0, 1, 2)[c])
            t.add("cw", mt.a, int(c == 0))
            t.add("cw", mt.b, int(c == 2))
        if rd == "final":
            t.add("tf", mt.winner, 1)
            t.add("ts", mt.a if mt.winner == mt.b else mt.b, 1)

    def _open_match(self, e, rd, sides, final):
        m, t = self.m, self.t
        yv = [{}, {}]
        won = {}
        for s in range(2):
            for p, inn in sides[s].items():
                y = [m.var() for _ in KO_OUT]
                m.row(Lin({v: 1 for v in y}).add(inn, -1), 0, 0)
                yv[s][p] = y
                wl = Lin()
                for v, (_, res, w) in zip(y, KO_OUT):
                    t.add("cp", p, Lin({v: sum((2, 1, 0)[r] for r in res)}))
                    t.add("cw", p, Lin({v: sum(r == 0 for r in res)}))
                    if w:
                        t.add(POINTS, p, Lin({v: self.ko6}))
                        wl.add(Lin({v: 1}))
                    if final:
                        t.add("tf" if w else "ts", p, Lin({v: 1}))
                won[p] = won[p].add(wl) if p in won else wl
        for k in range(len(KO_OUT)):
            d = Lin({yv[0][p][k]: 1 for p in yv[0]})
            d.add(Lin({yv[1][p][KO_MIRROR[k]]: 1 for p in yv[1]}), -1)
            m.row(d, 0, 0)
        self.matches.append((e, rd, yv))
        return won

    def _undrawn_groups(self, e, ev, draws):
        """Groups of an undrawn event read as fixed: the file's (as-drawn) or the snake's."""
        sched = schedule(self.scn.rules["schedule"])
        if draws == "as-drawn":
            if not ev.groups:
                raise ScenarioError("whocan --as-drawn needs the event's groups in the file",
                                    file=self.scn.file, key=f"events[{e}].groups")
            return [replace(g, games=tuple((rd, w, b, UNPLAYED) for rd, w, b, _ in g.games),
                            playoff=None) for g in ev.groups]
        return [group_of("ABCD"[g], tuple(pl), sched)
                for g, pl in enumerate(snake(rules.draw_order(self.scn, e)))]

    # ---- a free draw ----------------------------------------------------------------------
    def _free_event(self, e):
        """An event whose groups are still to be drawn by ``baskets`` or ``lots``: binaries
        x[p, g] put each player in a group (four a group; one of each basket of four by
        rating with ``baskets``; the top-rated player in group A, as relabelling groups A<->B,
        C<->D and AB<->CD changes nothing); t[p, q] = "p and q share a group"; each pair's
        two games as one of six combined results, present iff t; the same ranking and
        play-off options as a drawn group, with "won group g" = win[p] AND x[p, g] and the
        group's points conserved (both linearised).  Returns gwin as for a drawn event."""
        f = self._draw_vars(e)
        self._pair_games(f)
        self._pair_ranking(f)
        self._free_places(f)
        self.free[e] = f
        return self._free_winners(f)

    def _draw_vars(self, e):
        m = self.m
        order = rules.draw_order(self.scn, e)
        baskets = self.scn.rules["draw_rule"] == "baskets"
        bk = {p: i // 4 for i, p in enumerate(order)}
        x = {(p, g): m.var() for p in order for g in range(4)}
        for p in order:
            m.row(Lin({x[p, g]: 1 for g in range(4)}), 1, 1)
        for g in range(4):
            m.row(Lin({x[p, g]: 1 for p in order}), 4, 4)
            if baskets:
                for k in range(4):
                    m.row(Lin({x[p, g]: 1 for p in order if bk[p] == k}), 1, 1)
        if self.fix_draw:
            for g, gr in enumerate(self.scn.events[e].groups):
                for p in gr.players:
                    m.lb[x[p, g]] = 1
        else:
            m.lb[x[order[0], 0]] = 1
        pairs = [(p, q) for i, p in enumerate(order) for q in order[i + 1:]
                 if not baskets or bk[p] != bk[q]]
        t = {}
        for p, q in pairs:
            v = t[p, q] = t[q, p] = m.var()
            for g in range(4):
                m.row(Lin({v: 1, x[p, g]: -1, x[q, g]: -1}), -1, np.inf)
                m.row(Lin({v: 1, x[p, g]: 1, x[q, g]: -1}), -np.inf, 1)
                m.row(Lin({v: 1, x[q, g]: 1, x[p, g]: -1}), -np.inf, 1)
        for p in order:
            m.row(Lin({t[p, q]: 1 for q in order if (p, q) in t}), 3, 3)
        return {"e": e, "order": order, "x": x, "pairs": pairs, "t": t, "baskets": baskets,
                "bk": bk, "opts": self.opts}

    def _pair_games(self, f):
        m, tl = self.m, self.t
        s_lin = {p: Lin() for p in f["order"]}
        w_lin = {p: Lin() for p in f["order"]}
        o = {}
        for p, q in f["pairs"]:
            ov = o[p, q] = [m.var() for _ in PAIR_OUT]
            m.row(Lin({u: 1 for u in ov}).add(Lin({f["t"][p, q]: 1}), -1), 0, 0)
            for u, (hp, wp, hq, wq, _) in zip(ov, PAIR_OUT):
                s_lin[p].add(Lin({u: hp}))
                w_lin[p].add(Lin({u: wp}))
                s_lin[q].add(Lin({u: hq}))
                w_lin[q].add(Lin({u: wq}))
        for p in f["order"]:
            tl.add("cp", p, s_lin[p], 12)
            tl.add("cw", p, w_lin[p], 6)
        f.update(o=o, s=s_lin)

    def _pair_ranking(self, f):
        """b[i, j] = "i and j share a group and i scored more"."""
        m = self.m
        t, s_lin = f["t"], f["s"]
        b = {}
        for p, q in f["pairs"]:
            for i, j in ((p, q), (q, p)):
                b[i, j] = m.var()
                m.row(Lin({b[i, j]: 1, t[p, q]: -1}), -np.inf, 0)
            m.row(Lin({b[p, q]: 1, b[q, p]: 1}), 0, 1)
            for i, j in ((p, q), (q, p)):
                d = Lin().add(s_lin[i]).add(s_lin[j], -1)
                # b = 1 -> s_i - s_j >= 1; b = 0 and same group -> s_i <= s_j
                m.row(Lin(d.c, d.k).add(Lin({b[i, j]: -BIG_M})), 1 - BIG_M, np.inf)
                m.row(Lin(d.c, d.k).add(Lin({b[i, j]: -BIG_M, t[p, q]: BIG_M})), -np.inf,
                      BIG_M)
        f["b"] = b

    def _free_places(self, f):
        order, t, b = f["order"], f["t"], f["b"]
        z, gl, wl = {}, {}, {}
        for p in order:
            above = Lin({b[q, p]: 1 for q in order if (q, p) in b})
            level = Lin({t[p, q]: 1 for q in order if (p, q) in t})
            level.add(Lin({b[p, q]: 1 for q in order if (p, q) in b}), -1)
            level.add(above, -1)
            z[p], gl[p], wl[p] = self._place_choice(above, level)
            self.t.add(POINTS, p, gl[p], self.gp6[0])
        f.update(z=z, gl=gl, wl=wl)

    def _free_winners(self, f):
        m = self.m
        top = self.gp6[0]
        gwin = []
        for g in range(4):
            vs, us = {}, {}
            for p in f["order"]:
                xg = f["x"][p, g]
                v = vs[p] = m.var()
                m.row(Lin({v: 1}).add(f["wl"][p], -1), -np.inf, 0)
                m.row(Lin({v: 1, xg: -1}), -np.inf, 0)
                m.row(Lin({v: 1, xg: -1}).add(f["wl"][p], -1), -1, np.inf)
                u = us[p] = m.var(0, top)
                m.row(Lin({u: 1, xg: -top}), -np.inf, 0)
                m.row(Lin({u: 1}).add(f["gl"][p], -1), -np.inf, 0)
                m.row(Lin({u: 1, xg: -top}).add(f["gl"][p], -1), -top, np.inf)
            m.row(Lin({v: 1 for v in vs.values()}), 1, 1)
            m.row(Lin({u: 1 for u in us.values()}), sum(self.gp6), sum(self.gp6))
            gwin.append({p: Lin({vs[p]: 1}) for p in f["order"]})
        return gwin

    # ---- keys -----------------------------------------------------------------------------
    def _keys(self):
        """One integer key per player (criteria folded with multipliers) and its bounds."""
        scn = self.scn
        n = len(scn.players)
        self.eligible = rules.eligible(scn)
        self.order = [POINTS, *[CRITERIA[c] for c in rules.criteria(scn)]]
        lin, ub = self.t.lin, self.t.ub
        lo = {c: [lin[c][p].k for p in range(n)] for c in self.order}
        hi = {c: [lin[c][p].k + ub[c][p] for p in range(n)] for c in self.order}
        el = [p for p in range(n) if self.eligible[p]]
        self._multipliers(lo, hi, el)
        self.key = [self._key_of(p) for p in range(n)]
        self.lo = {p: tuple(lo[c][p] for c in self.order) for p in el}
        self.hi = {p: tuple(hi[c][p] for c in self.order) for p in el}
        self.now = [lin[POINTS][p].k for p in range(n)]   # series points fixed now

    def _multipliers(self, lo, hi, el):
        """Each criterion's multiplier: wider than the range of everything after it (the one
        key packer, ``kernels/keys.py``, the key exact in the solver's float64)."""
        widths = [max(hi[c][p] for p in el) - min(lo[c][p] for p in el) if el else 0
                  for c in self.order]
        self.mult = mult = dict(zip(self.order, keys.multipliers(widths, keys.EXACT_LIMIT)))
        self.kmin = sum(mult[c] * min(lo[c][p] for p in el) for c in self.order) if el else 0
        self.kmax = sum(mult[c] * max(hi[c][p] for p in el) for c in self.order) if el else 0

    def _key_of(self, p) -> Lin:
        """Player p's key: a constant, or one integer variable tied to the folded criteria."""
        e_ = Lin()
        for c in self.order:
            e_.add(self.t.lin[c][p], self.mult[c])
        if not e_.c:
            return e_
        kv = self.m.var(self.kmin, self.kmax)
        self.m.row(Lin({kv: -1}).add(e_), 0, 0)
        return Lin({kv: 1})

    # ---- questions ------------------------------------------------------------------------
    def ask(self, x, rivals, q, question, work: Work | None, restricted=False, probe=None):
        """(FEASIBLE, solution), (INFEASIBLE, None) or (OVER_BUDGET, None); ``work``: the
        allowance in solver nodes (``whocan.milp.Model.solve``).  ``restricted``: x's
        own open results all go his way (all won for OUTRIGHT / LEVEL, all lost for PASS /
        PASS_LEVEL) and the search is steered by the rivals' and x's series points: a
        smaller, easier program whose solutions are witnesses too, but whose infeasibility
        proves nothing.  ``probe``: nodes HiGHS runs at least (``Model.solve``: the run is
        kept for the second pass, answers unchanged)."""
        extra_vars, rows = question_rows(self.m, dict(enumerate(self.key)), x, rivals, q,
                                         question, self.kmax - self.kmin + 2)
        objective = None
        if restricted:
            winning = question in (OUTRIGHT, LEVEL)
            rows += self._own_results(x, winning)
            objective = {}
            sign = 1 if winning else -1
            for j in rivals:
                for v, a in self.crit[POINTS][j].c.items():
                    objective[v] = objective.get(v, 0) + sign * a
            for v, a in self.crit[POINTS][x].c.items():
                objective[v] = objective.get(v, 0) - sign * STEER_X * a
        return self.m.solve(rows, extra_vars, work, objective, probe)

    def _own_results(self, x, winning):
        """Rows holding x's open games, pairs and matches to wins (or losses)."""
        rows = []
        for e, gname, rd, w, b, v in self.games:
            if x in (w, b):
                keep = v[0] if (w == x) == winning else v[2]
                rows += [({u: 1}, 0, 0) for u in v if u != keep]
        for f in self.free.values():
            for (p, q), ov in f["o"].items():
                if x in (p, q):
                    keep = 0 if (p == x) == winning else len(PAIR_OUT) - 1
                    rows += [({u: 1}, 0, 0) for k, u in enumerate(ov) if k != keep]
        for e, rd, yv in self.matches:
            for side in yv:
                if x in side:
                    keep = 0 if winning else len(KO_OUT) - 1
                    rows += [({u: 1}, 0, 0) for k, u in enumerate(side[x]) if k != keep]
        return rows

    # ---- reading a solution ---------------------------------------------------------------
    def open_groups(self):
        """(event, group index) of every group not placed at the checkpoint."""
        out = [(e, gi) for e, gi, *_ in self.groups]
        out += [(e, g) for e in self.free for g in range(4)]
        return out

    def decode(self, x):
        """The results a rounded solution x stands for: (game results {(e, w, b): code},
        play-off places {(e, group index): places}, matches {(e, round): Match},
        draws {e: [four tuples of players in slot order]} for free-draw events)."""
        res = {}
        for e, gname, rd, w, b, v in self.games:
            res[e, w, b] = int(np.argmax([x[i] for i in v]))
        ties = []                      # (e, gi, players, scores, option values)
        for e, gi, gr, opts, table, s_lin in self.groups:
            sc = [s.value(x) for s in s_lin]
            vals = [opts[int(np.argmax([x[v] for v in table[i]]))] for i in range(4)]
            ties.append((e, gi, gr.players, sc, vals))
        draws = {e: self._decode_free(f, x, res, ties) for e, f in self.free.items()}
        playoffs = {}
        for e, gi, players, sc, vals in ties:
            po = _playoff_of(players, sc, vals)
            if po is not None:
                playoffs[e, gi] = po
        kos = {}
        for e, rd, yv in self.matches:
            a = next(p for p in yv[0] if sum(x[v] for v in yv[0][p]) == 1)
            b = next(p for p in yv[1] if sum(x[v] for v in yv[1][p]) == 1)
            _, cl, won = KO_OUT[int(np.argmax([x[v] for v in yv[0][a]]))]
            kos[e, rd] = Match(rd, a, b, cl, a if won else b)
        return res, playoffs, kos, draws

    def _decode_free(self, f, x, res, ties):
        e = f["e"]
        groups = []
        for g in range(4):
            pl = [p for p in f["order"] if x[f["x"][p, g]] == 1]
            pl.sort(key=lambda p: f["order"].index(p))
            groups.append(tuple(pl))
            sc = [f["s"][p].value(x) for p in pl]
            vals = [f["opts"][int(np.argmax([x[v] for v in f["z"][p]]))] for p in pl]
            ties.append((e, g, tuple(pl), sc, vals))
        for p, q in f["pairs"]:
            k = [x[u] for u in f["o"][p, q]]
            if max(k) == 1:
                rp, rq = PAIR_OUT[int(np.argmax(k))][4]
                res[e, p, q] = rp
                res[e, q, p] = rq
        return groups

    def entries(self, filled):
        """Readable path entries: every result the checkpoint leaves open, from a filled
        scenario (event numbers from 1; results from White's / the first player's side)."""
        nm = self.scn.names
        out = []
        for e in sorted(self.free):
            out.append({"event": e + 1, "stage": "draw",
                        "groups": {g.name: [nm[p] for p in g.players]
                                   for g in filled.events[e].groups}})
        for e, gname, rd, w, b, v in self.games:
            gr = next(g for g in filled.events[e].groups if g.name == gname)
            r = next(r for rd_, w_, b_, r in gr.games if (w_, b_) == (w, b))
            out.append({"event": e + 1, "stage": f"group {gname}", "round": rd,
                        "white": nm[w], "black": nm[b], "result": RESULT_TEXT[r]})
        for e in sorted(self.free):
            for gr in filled.events[e].groups:
                for rd, w, b, r in gr.games:
                    out.append({"event": e + 1, "stage": f"group {gr.name}", "round": rd,
                                "white": nm[w], "black": nm[b], "result": RESULT_TEXT[r]})
        for e, gi in self.open_groups():
            gr = filled.events[e].groups[gi]
            if gr.playoff:
                out.append({"event": e + 1, "stage": f"group {gr.name} play-off",
                            "places": [[nm[p] for p in pl] if len(pl) > 1 else nm[pl[0]]
                                       for pl in gr.playoff]})
        for e, rd, _ in self.matches:
            m = filled.events[e].knockout[rd]
            by_classical = sum((1, 0, -1)[c] for c in m.classical) != 0
            out.append({"event": e + 1, "stage": rd, "players": [nm[m.a], nm[m.b]],
                        "classical": [RESULT_TEXT[c] for c in m.classical],
                        "winner": nm[m.winner],
                        "decided": "classical" if by_classical else "tiebreak"})
        return out

    def filled(self, res, playoffs, kos, draws=None):
        """The scenario with every open result entered (for replay through ``standings``);
        ``draws`` gives the groups of free-draw events.  Results not given stay open."""
        events = tuple(self.filled_event(e, res, playoffs, kos, draws)
                       for e in range(len(self.scn.events)))
        return replace(self.scn, events=events)

    def filled_event(self, e, res, playoffs, kos, draws=None):
        """Event ``e`` of :meth:`filled` alone (the greedy results read one event at a
        time)."""
        ev, st = self.scn.events[e], self.states[e]
        if st.groups_known:
            base = st.groups
        elif e in self.free:
            sched = schedule(self.scn.rules["schedule"])
            base = [group_of("ABCD"[g], pl, sched) for g, pl in enumerate(draws[e])]
        else:
            base = self.fixed_draw[e]
        groups = []
        for gi, g in enumerate(base):
            games = tuple((rd, w, b, r if r >= 0 else res.get((e, w, b), UNPLAYED))
                          for rd, w, b, r in g.games)
            po = playoffs.get((e, gi), g.playoff)
            groups.append(replace(g, games=games, playoff=po))
        return replace(ev, groups=tuple(groups), knockout=self.knockout_of(e, kos))

    def knockout_of(self, e, kos) -> dict:
        """Event ``e``'s knock-out matches in :meth:`filled`: those known at the checkpoint,
        then ``kos``."""
        st = self.states[e]
        ko = {rd: st.ko[rd] if (st.groups_known and rd in st.ko) else kos.get((e, rd))
              for rd in KO_ROUNDS}
        return {k: v for k, v in ko.items() if v is not None}


def _pts(h: int) -> str:
    """Half points as a score: 3, 2½, ½."""
    whole, half = divmod(h, 2)
    return (str(whole) if whole or not half else "") + ("½" if half else "")


def _match_words(nm, m: Match) -> str:
    a, b = (m.a, m.b) if m.winner == m.a else (m.b, m.a)
    mine = sum((2, 1, 0)[c] for c in m.classical)
    sw = mine if m.winner == m.a else 2 * len(m.classical) - mine
    score = f"{_pts(sw)}-{_pts(2 * len(m.classical) - sw)}"
    how = score if 2 * sw != 2 * len(m.classical) else f"on tiebreaks after {score}"
    return f"{nm[a]} beats {nm[b]} {how}"


def path_words(model: SeriesMILP, filled) -> list[str]:
    """A path (a filled scenario) in sentences, one per event with results still open: the
    final score of every group with open games (draw and play-off included) and every open
    knock-out match with its classical score; each game is in the path itself."""
    nm = model.scn.names
    open_groups = {}
    for e, gi in model.open_groups():
        open_groups.setdefault(e, []).append(gi)
    for e, gname, *_ in model.games:
        gi = next(i for i, g in enumerate(filled.events[e].groups) if g.name == gname)
        if gi not in open_groups.setdefault(e, []):
            open_groups[e].append(gi)
    ko = {}
    for e, rd, _ in model.matches:
        ko.setdefault(e, []).append(rd)
    out = []
    for e in sorted(set(open_groups) | set(ko)):
        ev = filled.events[e]
        parts = []
        for gi in sorted(open_groups.get(e, ())):
            g = ev.groups[gi]
            sc, _, _ = group_scores(g)
            order = sorted(range(4), key=lambda s: -sc[s])
            text = f"group {g.name} " + ("drawn as " if e in model.free else "") + \
                ", ".join(f"{nm[g.players[s]]} {_pts(sc[s])}" for s in order)
            if g.playoff:
                text += f" ({nm[g.playoff[0][0]]} wins the play-off)"
            parts.append(text)
        sfs = [_match_words(nm, ev.knockout[rd]) for rd in ko.get(e, ()) if rd != "final"]
        if sfs:
            parts.append("semi-finals: " + ", ".join(sfs) if len(sfs) > 1 else
                         "semi-final: " + sfs[0])
        if "final" in ko.get(e, ()):
            parts.append("final: " + _match_words(nm, ev.knockout["final"]))
        out.append(f"{ev.name}: " + "; ".join(parts))
    return out


def group_of(name, players, sched) -> Group:
    """A Group of ``players`` (slot order) with the schedule's games, unplayed."""
    games = tuple((rd, players[w], players[b], UNPLAYED) for rd, w, b in sched)
    return Group(name, tuple(players), games, None)


def _playoff_of(players, sc, vals):
    """The play-off places a solution's place options say, for a group level for first."""
    top = max(sc)
    tied = [i for i in range(4) if sc[i] == top]
    if len(tied) < 2:
        return None
    winner = next(i for i in tied if vals[i][3])
    rest = sorted((i for i in tied if i != winner), key=lambda i: -vals[i][2])
    places = [(players[winner],)]
    k = 0
    while k < len(rest):
        same = tuple(players[i] for i in rest if vals[i][2] == vals[rest[k]][2])
        places.append(same)
        k += len(same)
    return tuple(places)


# ---- greedy complete results (seeds for the pool) -------------------------------------------
class Greedy:
    """One complete set of results, event by event, for player x.  ``best``: x wins every
    game and match; in the other games the player with fewer points so far wins (``spread``)
    or they are drawn; other play-offs and matches go to the player with fewer points so far
    (two draws then the tiebreak).  Not ``best``: x loses everything and the player with more
    points so far wins every other game and match 2-0.  Free draws: group g gets the g-th
    player of each basket of four by rating, or a random draw the rule allows when ``rng`` is
    given."""

    def __init__(self, model: SeriesMILP, x: int, best: bool, spread: bool = True, rng=None,
                 fav=()):
        self.m, self.x, self.best, self.spread = model, x, best, spread
        self.fav = tuple(fav)      # players who beat everyone else but x, earlier ones first
        self.tot = list(model.now)
        self.res, self.playoffs, self.kos = {}, {}, {}
        self.draws = {e: _draw(f, rng) for e, f in model.free.items()}

    def prefer(self, a, b) -> bool:
        """True if a should come out on top."""
        x, tot = self.x, self.tot
        if x in (a, b):
            return (a == x) == self.best
        if self.fav and (a in self.fav or b in self.fav):
            return b not in self.fav or a in self.fav and self.fav.index(a) < self.fav.index(b)
        return (tot[a], a) < (tot[b], b) if self.best else (tot[a], -a) > (tot[b], -b)

    def rank(self, p):
        if p == self.x:
            return (0 if self.best else 2, 0)
        if p in self.fav:
            return (0, self.fav.index(p))
        return (1, self.tot[p] if self.best else -self.tot[p])

    def run(self):
        m = self.m
        games = {}
        for e, _, _, w, b, _ in m.games:
            games.setdefault(e, []).append((w, b))
        for e, gs in self.draws.items():
            games[e] = [(w, b) for pl in gs for w in pl for b in pl if b != w]
        # each event is built once (``SeriesMILP.filled_event``): its groups after its games
        # and play-offs, then its matches; later events add no result to it
        events = []
        for e in range(len(m.scn.events)):
            self._games(e, games.get(e, ()))
            ev = self._playoffs(e)
            self._matches(e, ev)
            events.append(replace(ev, knockout=m.knockout_of(e, self.kos)))
        return replace(m.scn, events=tuple(events))

    def _games(self, e, games):
        for w, b in games:
            if self.x in (w, b) or not self.best or self.spread is True:
                self.res[e, w, b] = 0 if self.prefer(w, b) else 2
            elif self.spread == LEAN and self.tot[w] != self.tot[b]:
                self.res[e, w, b] = 0 if self.tot[w] < self.tot[b] else 2
            else:
                self.res[e, w, b] = 1

    def _playoffs(self, e):
        """Play-offs of event ``e``'s groups level for first; the event with its groups
        filled (its matches as known at the checkpoint)."""
        m = self.m
        filled = m.filled_event(e, self.res, self.playoffs, {}, self.draws)
        groups = list(filled.groups)
        for ee, gi in m.open_groups():
            if ee != e:
                continue
            fg = filled.groups[gi]
            sc, _, _ = group_scores(fg)
            top = max(sc)
            tied = [fg.players[i] for i in range(4) if sc[i] == top]
            if len(tied) > 1:
                order = sorted(tied, key=self.rank)
                places = [(order[0],)]
                if len(order) == 2:
                    places.append((order[1],))
                elif len(order) == 3:
                    places.append(tuple(order[1:]))
                else:
                    places += [(order[1],), tuple(order[2:])]
                self.playoffs[e, gi] = tuple(places)
                fg = groups[gi] = replace(fg, playoff=tuple(places))
            for p, v in zip(fg.players, group_places(fg, m.gp6)):
                self.tot[p] += v
        return replace(filled, groups=tuple(groups))

    def _matches(self, e, ev):
        """Event ``e``'s open matches; ``ev``: the event after its play-offs."""
        m = self.m
        for ee, rd, _ in m.matches:
            if ee != e:
                continue
            if rd == "final":
                a, b = (self.kos[e, s].winner if (e, s) in self.kos else ev.knockout[s].winner
                        for s in ("sf1", "sf2"))
            else:
                k = 0 if rd == "sf1" else 2
                a, b = group_winner(ev.groups[k], m.gp6), group_winner(ev.groups[k + 1], m.gp6)
            wa = self.prefer(a, b)
            if self.x in (a, b) or not self.best:
                cl = (0, 0) if wa else (2, 2)
            else:
                cl = (1, 1)
            self.kos[e, rd] = Match(rd, a, b, cl, a if wa else b)
            self.tot[a if wa else b] += m.ko6


def _draw(f, rng):
    """Groups (slot order) of a free-draw event: basket by basket, or a random allowed draw."""
    o = list(f["order"])
    if rng is None:
        return [tuple(o[4 * k + g] for k in range(4)) for g in range(4)]
    if f["baskets"]:
        bks = [list(rng.permutation(o[4 * k:4 * k + 4])) for k in range(4)]
        return [tuple(int(bks[k][g]) for k in range(4)) for g in range(4)]
    sh = [int(p) for p in rng.permutation(o)]
    return [tuple(sorted(sh[4 * g:4 * g + 4], key=o.index)) for g in range(4)]


# ---- the backend ------------------------------------------------------------------------------
def file_draw_allowed(model: SeriesMILP, scn: GroupSeries) -> bool:
    """Are the file's groups of every free-draw event a draw the rule allows?"""
    for e, f in model.free.items():
        ev = scn.events[e]
        if len(ev.groups) != 4:
            return False
        if f["baskets"] and any(sorted(f["bk"][p] for p in g.players) != [0, 1, 2, 3]
                                for g in ev.groups):
            return False
    return True


class SeriesBackend:
    """The whocan backend: witnesses are complete filled scenarios."""

    def __init__(self, scn: GroupSeries, at, draws="rule", order=(), seed=True, fixed=None):
        self.scn = scn
        self.model = SeriesMILP(scn, at, draws, fixed=fixed)
        self.order = list(order)
        self.use_seeds = seed
        self._tries = {}      # (x, winning) -> (generator, greedy tries so far) for solve
        self._known = {}      # id(seed) -> (seed, its keys): replayed once
        self._seeded = {}     # (p, best) -> keys of p's extreme greedy result set (seeds)
        self._cannot = {}     # (x, rivals) -> most places q with "level with the q-th" proven
        self.qmax = None      # the most places a question will ask about (``whocan``)
        self._catch = {}      # (x, rivals) -> greedy result sets catching x (``_catch_tries``)
        # the file's draw is one the rule allows: a question is tried on it first (a smaller
        # MILP); its witnesses answer for the free draw too
        self.drawn = (SeriesMILP(scn, at, "as-drawn", fixed=fixed)
                      if seed and draws == "rule" and self.model.free
                      and file_draw_allowed(self.model, scn) else None)
        # the restricted programs (witnesses only) read undrawn events as one allowed draw:
        # the file's, else basket by basket
        if self.drawn is not None:
            self.small = self.drawn
        elif self.model.free:
            self.small = SeriesMILP(scn, at, draws, given={e: _draw(f, None)
                                                           for e, f in self.model.free.items()},
                                    fixed=fixed)
        else:
            self.small = self.model

    def bounds(self):
        return self.model.lo, self.model.hi

    def keys(self, witness) -> dict:
        got = self._known.get(id(witness))
        if got is not None and got[0] is witness:
            return got[1]
        t, _ = rules.tally(witness, None, tables=False)
        return rules.keys(witness, t)

    def extremes(self, p: int) -> tuple[float, float]:
        """(most, fewest) series points of player p: p wins every game, play-off and match
        left, or loses every one (``Greedy``), each replayed through the standings code
        (``rules.tally``); both are reached, and no results give p more or fewer (group
        places and knock-out rounds pay more the higher they are)."""
        memo = self.__dict__.setdefault("_extremes", {})
        if p not in memo:
            got = []
            for best in (True, False):
                seeded = self._seeded.get((p, best))      # the same result set, replayed
                if seeded is not None:
                    got.append(seeded[p][0] / rules.POINT)
                    continue
                t, _ = rules.tally(Greedy(self.model, p, best).run(), None, tables=False)
                got.append(t.pts[p] / rules.POINT)
            memo[p] = (got[0], got[1])
        return memo[p]

    def path(self, witness, x) -> list[dict]:
        return self.model.entries(witness)

    def words(self, witness, x) -> list[str]:
        return path_words(self.model, witness)

    def seeds(self, x):
        if x is not None or not self.use_seeds:
            return
        # the file's draw first (when the rule allows it), then the rule's baskets
        for model in ((self.drawn,) if self.drawn is not None else ()) + (self.model,):
            for p in self.order:
                if model.eligible[p]:
                    for best, spread in ((True, True), (True, False), (False, True)):
                        w = Greedy(model, p, best, spread).run()
                        k = self.keys(w)
                        # kept for ``keys`` (the pool replays each seed once) and, on the
                        # full model with spread, for ``extremes`` (the same result sets)
                        self._known[id(w)] = (w, k)
                        if model is self.model and spread is True:
                            self._seeded[p, best] = k
                        yield w

    def _greedy_tries(self, x, winning):
        """Greedy result sets for x on ``RANDOM_DRAWS`` random draws (one generator seeded
        by x), with their keys, in a fixed order: the same for every question asked with
        the same x and side, so each is built and replayed once per whocan call, and only
        as far as a question reads them."""
        rng, done = self._tries.setdefault((x, winning), (np.random.default_rng(1000 + x), []))
        spreads = (True, False) if winning else (True,)
        for i in range(RANDOM_DRAWS * len(spreads)):
            if i == len(done):
                w = Greedy(self.model, x, winning, spreads[i % len(spreads)], rng).run()
                done.append((w, self.keys(w)))
            yield done[i]

    def _catch_tries(self, x, rivals, q):
        """Greedy result sets in which x loses everything and q rivals (combinations of the
        q + ``CATCH_SPARE`` with the highest keys reachable, each in both orders of
        precedence) beat everyone else, on the restricted programs' draw: witnesses that x
        can be caught or passed, with their keys, built once per x and rivals."""
        who = (x, tuple(rivals))
        if who not in self._catch:
            top = sorted(rivals, key=lambda j: (self.model.hi[j], -j), reverse=True)
            tries = []
            for fav in itertools.combinations(top[:q + CATCH_SPARE], q):
                for f in (fav, fav[::-1]):
                    w = Greedy(self.small, x, False, fav=f).run()
                    k = self.keys(w)
                    self._known[id(w)] = (w, k)
                    tries.append((w, k))
            self._catch[who] = tries
        return self._catch[who]

    def solve(self, x, rivals, q, question, work: Work | None = None):
        winning = question in (OUTRIGHT, LEVEL)
        who = (x, tuple(rivals))
        if winning and self._cannot.get(who, 0) >= q:
            # implied: no result set leaves at most q'-1 rivals ahead of x for some q' >= q,
            # so none leaves fewer (nor fewer level with or ahead)
            return INFEASIBLE, None
        if self.model.free and self.use_seeds:
            # other draws: a few random ones the rule allows, greedy results on each
            for w, keys in self._greedy_tries(x, winning):
                if holds(keys, x, rivals, q, question):
                    return FEASIBLE, w
        if not winning and self.use_seeds:
            for w, keys in self._catch_tries(x, rivals, q):
                if holds(keys, x, rivals, q, question):
                    return FEASIBLE, w
        # a restricted program first (on the file's draw when the rule allows it): quick
        # witnesses; then the full program, which also proves "cannot"
        work = Work(None) if work is None else work
        small = self.small
        half = work.left()
        part = work.part(RESTRICTED_LIMIT, None if half is None else max(half // 2, 1))
        s, sol = small.ask(x, rivals, q, question, part, True)
        work.spend(part.used)
        if s == FEASIBLE:
            return s, small.filled(*small.decode(sol))
        if winning and s == INFEASIBLE:
            # the restricted program has no point: the weakest winning question first
            # (level with the last of the most places asked about): when even that has no
            # point, neither has this one, nor the other winning questions about x
            # (``_cannot``); a point it finds is not used (the question's own program gives
            # the witness), and it is charged only when it settles the question
            qs = max(q, self.qmax or q)
            if (qs, LEVEL) != (q, question):
                s, _ = self.model.ask(x, rivals, qs, LEVEL, Work(work.left()), probe=PROBE_FULL)
                if s == INFEASIBLE:
                    self._cannot[who] = qs
                    work.spend(1)
                    return s, None
        s, sol = self.model.ask(x, rivals, q, question, work, probe=PROBE_FULL)
        if s == FEASIBLE:
            return s, self.model.filled(*self.model.decode(sol))
        if s == INFEASIBLE and question == LEVEL:
            self._cannot[who] = max(self._cannot.get(who, 0), q)
        return s, None


def whocan(scn: GroupSeries, at, budget=None, draws="rule", question_limit=QUESTION_LIMIT,
           seed=True, fixed=None) -> dict:
    """Rows for targets "first" and "qualify" (module doc), with the report's facts;
    ``fixed``: what-ifs (group games, knock-out matches; ``GroupSeriesFormat.parse_fix``)."""
    st = rules.standings(scn, at, fixed)
    order = [scn.index[r["name"].casefold()] for r in st["players"]]
    backend = SeriesBackend(scn, at, draws, order, seed, fixed)
    backend.qmax = scn.qualifying_places
    model = backend.model
    el = model.eligible
    n = len(scn.players)
    rivals = {x: ([j for j in range(n) if j != x and el[j]] if el[x] else None)
              for x in range(n)}
    targets = {"first": (1, rivals)}
    if scn.qualifying_places > 1:
        targets["qualify"] = (scn.qualifying_places, rivals)
    rows = analyse_rows(backend, scn.names, order, targets,
                        DEFAULT_BUDGET if budget is None else budget, question_limit)
    crit = rules.criteria(scn)
    words = "series points" + (f" and then {', '.join(c.replace('-', ' ') for c in crit)}"
                               if crit else "")
    for tname, (q, _) in targets.items():
        for x, row in zip(order, rows[tname]):
            if row["status"] in ("clinched", "eliminated"):
                row["says"] = bound_words(
                    row["status"], tname, q, x, rivals[x], lambda j: backend.extremes(j)[0],
                    lambda j: backend.extremes(j)[1], scn.names, points_words,
                    lambda j: backend.extremes(j)[0] != backend.extremes(j)[1], words)
    undrawn = [e + 1 for e, s in enumerate(model.states) if not s.groups_known]
    reading = None
    if undrawn:
        reading = ("as-drawn" if draws == "as-drawn" else
                   "snake" if scn.rules["draw_rule"] == "snake" else
                   f"any {scn.rules['draw_rule']} draw")
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
            "qualifying_places": scn.qualifying_places,
            "games_left": len(model.games) + 48 * len(model.free),
            "matches_left": len(model.matches),
            "undrawn_events": undrawn, "draws": reading,
            "points": {r["name"]: r["points"] for r in st["players"]},
            "budget_nodes": DEFAULT_BUDGET if budget is None else budget, "targets": rows}
