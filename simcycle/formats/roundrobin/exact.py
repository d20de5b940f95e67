"""Exact odds of a round-robin event by enumeration, to check the Monte Carlo kernel.

Plain Python.  ``exact_round_robin`` enumerates every outcome (1-0, draw, 0-1) of the games
still to play, 3^m leaves, and for each leaf computes exactly the distribution of the final
ranking under the rules the kernel (``nb.rank_nb`` / ``playoff_nb``) applies:

* points first (half points, exact integers), then the scenario's steps in order;
* a criterion (Sonneborn-Berger, wins, head-to-head among the group still level) splits every
  group level on points;
* at the play-off step, if several players are still level at the top, the play-off cascade
  decides first place; the probability that each of them wins it is computed exactly from the
  outcome model (see ``_Playoffs``), and the losers go on through the later steps;
* a group still level when ``lots`` is reached (lots close the list, as in the kernel) takes
  its places in a uniformly random order, so each of its players gets each of its places with
  probability 1/size.

Rating offsets (``--offsets``) are not covered: the games are independent only without them.
See ``docs/exact.md`` for the formulas and limits.
"""

from __future__ import annotations

import itertools
from collections import Counter

from ...enums import (MAX_SUDDEN_DEATH, PLAYOFF_KINDS, PO_ARMAGEDDON, PO_LOTS, PO_MATCH,
                      PO_ROUND_ROBIN, PO_SUDDEN_DEATH_KO, RK_NONE, RK_PLAYED,
                      RR_COUNTER_NAMES, RR_CRITERIA, TB_PLAYOFF, TBS_LOTS)
from ...errors import ScenarioError
from ...reference.criteria import FUNCTIONS, Table
from .rules import SCORE, columns, score_game, split_games, table, tally

# A round-robin play-off among more players than this is refused (its score-vector
# recursion grows too large for plain Python); 8 covers the Candidates.
MAX_PLAYOFF_ROUND_ROBIN = 8


class _Playoffs:
    """Exact win probabilities of the first-place play-off cascade, memoised by
    (tied set, stage).

    ``cascade(T, s)`` returns (win, f1, f2) for the sorted tuple of player indices T entering
    stage s:  win[w] = (P(w wins and no fallback lots), P(w wins by the fallback lots after
    the last stage)); f1 = P(stage 1 (the second) is played); f2 = P(a stage >= 2 is played).
    A stage with no option for the number still level is skipped, as in the kernel.
    """

    def __init__(self, scn, model):
        self.scn = scn
        self.model = model
        self.stages = [[(lo, hi, PLAYOFF_KINDS[kind], ctl) for lo, hi, kind, ctl in stage.options]
                       for stage in scn.stages]
        self.ratings = scn.rating_lists[-1][1]    # the play-off follows the last round
        self._wdl = {}
        self._memo = {}
        self._sd = {}
        self._ko = {}

    # -- single games --------------------------------------------------------------------
    def wdl(self, ctl, white, black):
        """(P white wins, P draw, P black wins) at control ``ctl`` (model.wdl, no offsets)."""
        key = (ctl, white, black)
        v = self._wdl.get(key)
        if v is None:
            rt = self.ratings
            v = self.model.wdl(ctl, self.model.rating(rt[white], ctl),
                               self.model.rating(rt[black], ctl))
            self._wdl[key] = v
        return v

    def lot_game(self, ctl, a, b):
        """One game with colours by lot (fair coin): (P a wins, P draw, P b wins), the
        average of the two colour assignments."""
        w1, d1, l1 = self.wdl(ctl, a, b)   # a White
        w2, d2, l2 = self.wdl(ctl, b, a)   # b White
        return 0.5 * (w1 + l2), 0.5 * (d1 + d2), 0.5 * (l1 + w2)

    def match(self, ctl, a, b):
        """Two games, a White in the first, b in the second: (P a ahead, P level, P b ahead).

        Game 1 (a White) gives (w1, d1, l1), game 2 (b White) gives (w2, d2, l2) from
        White's side.  a is ahead after  a wins + b wins or draw,  or  draw + a wins:
            P(a) = w1 (d2 + l2) + d1 l2,   P(b) = l1 (d2 + w2) + d1 w2,
            P(level) = w1 w2 + d1 d2 + l1 l2.
        """
        w1, d1, l1 = self.wdl(ctl, a, b)
        w2, d2, l2 = self.wdl(ctl, b, a)
        pa = w1 * (d2 + l2) + d1 * l2
        pb = l1 * (d2 + w2) + d1 * w2
        return pa, 1.0 - pa - pb, pb

    def sudden_death(self, ctl, a, b):
        """P(a wins a sudden-death mini-match): first colour by lot, then alternating, games
        until one is won; after MAX_SUDDEN_DEATH games, lots.

        With A = (wA, dA, lA) the game a White, B = (wB, dB, lB) the game b White (White's
        side) and r = dA dB, starting with a White a wins in a pair of games with
        pA = wA + dA lB, so over h = N // 2 pairs (N = MAX_SUDDEN_DEATH)
            P(a | a White first) = pA (1 - r^h) / (1 - r) [+ r^h wA if N is odd] + rest / 2
        where rest is the probability that all N games are drawn (then lots); likewise
        starting with b White, pB = lB + dB wA.  The answer is the average of the two.
        The cap changes the result by less than r^h (< 1e-40 with the shipped model).
        """
        key = (ctl, a, b)
        if key in self._sd:
            return self._sd[key]
        wA, dA, lA = self.wdl(ctl, a, b)
        wB, dB, lB = self.wdl(ctl, b, a)
        r = dA * dB
        h = MAX_SUDDEN_DEATH // 2
        rh = r ** h
        geo = (1.0 - rh) / (1.0 - r) if r < 1.0 else float(h)
        odd = MAX_SUDDEN_DEATH % 2 == 1
        # a White first: games alternate A, B, A, B, ...
        p_a1 = (wA + dA * lB) * geo + (rh * wA if odd else 0.0)
        rest1 = rh * (dA if odd else 1.0)
        # b White first: B, A, B, A, ...
        p_a2 = (lB + dB * wA) * geo + (rh * lB if odd else 0.0)
        rest2 = rh * (dB if odd else 1.0)
        p = 0.5 * (p_a1 + 0.5 * rest1) + 0.5 * (p_a2 + 0.5 * rest2)
        self._sd[key] = p
        self._sd[(ctl, b, a)] = 1.0 - p
        return p

    # -- multi-player play-offs ----------------------------------------------------------
    def round_robin(self, ctl, T):
        """Single round robin among T, colours by lot: {set level at the top: probability}.

        The C(k,2) games are independent; each pair (i, j) uses the colour-averaged
        (lot_game) outcome.  Equivalent to enumerating the 3^(k(k-1)/2) outcomes, computed
        by a recursion over games that finalises each player once all his games are
        played (state: top score so far, who has it, partial scores of the others).
        """
        k = len(T)
        if k > MAX_PLAYOFF_ROUND_ROBIN:
            raise ScenarioError(f"exact odds: a play-off round robin among {k} players is "
                                f"beyond the enumeration (at most {MAX_PLAYOFF_ROUND_ROBIN})",
                                file=self.scn.file, key="tiebreak.playoff")
        probs = {}
        for i in range(k):
            for j in range(i + 1, k):
                probs[(i, j)] = self.lot_game(ctl, T[i], T[j])
        # state: (top, topmask, partial scores of players i..k-1) -> probability
        states = {(-1, 0, (0,) * k): 1.0}
        for i in range(k):
            # player i (position 0 of the partial tuple) plays j = i+1 .. k-1
            for j in range(i + 1, k):
                pw, pd, pl = probs[(i, j)]
                jj = j - i
                nxt: dict = {}
                for (top, mask, sc), p in states.items():
                    for add_i, add_j, q in ((2, 0, pw), (1, 1, pd), (0, 2, pl)):
                        if q == 0.0:
                            continue
                        s = list(sc)
                        s[0] += add_i
                        s[jj] += add_j
                        key = (top, mask, tuple(s))
                        nxt[key] = nxt.get(key, 0.0) + p * q
                states = nxt
            # finalise player i
            nxt = {}
            for (top, mask, sc), p in states.items():
                v = sc[0]
                if v > top:
                    key = (v, 1 << i, sc[1:])
                elif v == top:
                    key = (top, mask | (1 << i), sc[1:])
                else:
                    key = (top, mask, sc[1:])
                nxt[key] = nxt.get(key, 0.0) + p
            states = nxt
        out: dict = {}
        for (top, mask, _), p in states.items():
            S = tuple(T[i] for i in range(k) if mask >> i & 1)
            out[S] = out.get(S, 0.0) + p
        return out

    def knockout(self, ctl, T):
        """Sudden-death knock-out among T: {winner: probability}.

        Lots order the players (all k! orders equally likely); the bracket is the next power
        of two, the first 2 (k - size/2) players in lot order meet in pairs in a first round,
        the others have byes, and the list (first-round winners, then byes) is then paired
        off in order, round after round.  Averaged over the k! orders; a mini-match does not
        depend on the order of its two players (first colour by lot), so brackets are
        compared in a canonical form (children sorted) and each distinct one solved once.
        """
        key = (ctl, T)
        if key in self._ko:
            return self._ko[key]
        k = len(T)
        size = 1
        while size < k:
            size *= 2
        m = k - size // 2
        counts: Counter = Counter()
        for perm in itertools.permutations(T):
            nodes = [_canon((perm[2 * i], perm[2 * i + 1])) for i in range(m)]
            nodes += list(perm[2 * m:])
            while len(nodes) > 1:
                nodes = [_canon((nodes[2 * i], nodes[2 * i + 1])) for i in range(len(nodes) // 2)]
            counts[nodes[0]] += 1
        total = sum(counts.values())
        memo: dict = {}
        out: dict = {}
        for tree, c in counts.items():
            for w, p in self._bracket(ctl, tree, memo).items():
                out[w] = out.get(w, 0.0) + p * c / total
        self._ko[key] = out
        return out

    def _bracket(self, ctl, node, memo):
        if isinstance(node, int):
            return {node: 1.0}
        if node in memo:
            return memo[node]
        left = self._bracket(ctl, node[0], memo)
        right = self._bracket(ctl, node[1], memo)
        out: dict = {}
        for a, pa in left.items():
            for b, pb in right.items():
                x = self.sudden_death(ctl, a, b)
                out[a] = out.get(a, 0.0) + pa * pb * x
                out[b] = out.get(b, 0.0) + pa * pb * (1.0 - x)
        memo[node] = out
        return out

    # -- the cascade -----------------------------------------------------------------------
    def cascade(self, T, s=0):
        key = (T, s)
        res = self._memo.get(key)
        if res is None:
            res = self._memo[key] = self._cascade(T, s)
        return res

    def _option(self, k, s):
        """The first stage >= s with an option for k players, as (stage, kind, ctl) (the
        kernel takes the first matching option), or None after the last stage."""
        for stage in range(s, len(self.stages)):
            for lo, hi, kind, ctl in self.stages[stage]:
                if kind != 0 and lo <= k <= hi:
                    return stage, kind, ctl
        return None

    def _cascade(self, T, s):
        k = len(T)
        if k == 1:
            return {T[0]: (1.0, 0.0)}, 0.0, 0.0
        found = self._option(k, s)
        if found is None:  # after the last stage: lots
            return {t: (0.0, 1.0 / k) for t in T}, 0.0, 0.0
        s, kind, ctl = found
        f1 = 1.0 if s == 1 else 0.0
        f2 = 1.0 if s >= 2 else 0.0
        if kind == PO_LOTS:  # a lots stage decides by lots (kernel counter 3)
            return {t: (0.0, 1.0 / k) for t in T}, f1, f2
        play = self._PLAYS.get((kind, k == 2), _Playoffs._no_effect)
        win: dict = {}
        for T2, q in play(self, ctl, T):
            if q == 0.0:
                continue
            w2, g1, g2 = self.cascade(tuple(sorted(T2)), s + 1)
            for w, (pn, pl) in w2.items():
                old = win.get(w, (0.0, 0.0))
                win[w] = (old[0] + q * pn, old[1] + q * pl)
            if s != 1:
                f1 += q * g1
            if s < 2:
                f2 += q * g2
        return win, f1, f2

    # One play-off of a stage: [(the players still level after it, probability)].
    def _after_match(self, ctl, T):
        pa, pd, pb = self.match(ctl, T[0], T[1])
        return [((T[0],), pa), ((T[1],), pb), (T, pd)]

    def _after_round_robin(self, ctl, T):
        return list(self.round_robin(ctl, T).items())

    def _after_knockout(self, ctl, T):
        return [((w,), p) for w, p in self.knockout(ctl, T).items()]

    def _after_armageddon(self, ctl, T):
        """One game, colours by lot, a draw goes to Black (as game_nb.armageddon_nb)."""
        a, b = T
        w1, d1, l1 = self.wdl(ctl, a, b)
        w2, d2, l2 = self.wdl(ctl, b, a)
        pa = 0.5 * w1 + 0.5 * (d2 + l2)
        return [((a,), pa), ((b,), 1.0 - pa)]

    def _no_effect(self, ctl, T):
        """An option the kernel leaves without effect: the same players go on."""
        return [(T, 1.0)]

    # (kind, two players?) -> the play-off; a match among more than two is a round robin
    _PLAYS = {(PO_MATCH, True): _after_match, (PO_MATCH, False): _after_round_robin,
              (PO_ROUND_ROBIN, True): _after_round_robin,
              (PO_ROUND_ROBIN, False): _after_round_robin,
              (PO_SUDDEN_DEATH_KO, True): _after_knockout,
              (PO_SUDDEN_DEATH_KO, False): _after_knockout,
              (PO_ARMAGEDDON, True): _after_armageddon}

def _canon(pair):
    a, b = pair
    ka = (0, a) if isinstance(a, int) else (1, repr(a))
    kb = (0, b) if isinstance(b, int) else (1, repr(b))
    return (a, b) if ka <= kb else (b, a)


def _order_group(group, criteria, t: Table):
    """Split ``group`` by the criteria in order (C.07 codes, ``reference.criteria`` over the
    crosstable ``t``): (list of subgroups in rank order, whether a subgroup of two or more was
    still level when lots were reached)."""
    groups = [list(group)]
    for crit in criteria:
        if crit == TBS_LOTS:
            return groups, any(len(g) > 1 for g in groups)
        out = []
        for g in groups:
            if len(g) == 1:
                out.append(g)
                continue
            value = FUNCTIONS.get(crit)
            if value is None:
                raise ValueError(f"unknown criterion code {crit}")
            val = {p: value(t, p, g) for p in g}
            for v in sorted(set(val.values()), reverse=True):
                out.append([p for p in g if val[p] == v])
        groups = out
    return groups, False   # the criteria ran out before lots (those before a play-off)


def game_probabilities(scn, model, games):
    """(P white wins, P draw, P black wins) of each game, with the ratings of its round."""
    model.index(scn.control, file=scn.file, key="event.control")
    out = []
    for g in games:
        rt = scn.ratings_at(g.round)
        out.append(model.wdl(scn.control, model.rating(rt[g.white], scn.control),
                             model.rating(rt[g.black], scn.control)))
    return out


def exact_round_robin(scn, model, at, max_games: int = 10, fixed=None) -> dict:
    """Exact distribution of the final ranking of round-robin scenario ``scn`` at checkpoint
    ``at`` (None: every result in the file), no rating offsets; the what-ifs ``fixed``
    ({(round, White, Black): result}) count as played.

    Returns {"scenario", "at", "games_left", "leaves", "p_playoff", "counters", "players"}:
    ``counters`` has the kernel's counter names with their exact probabilities; each player
    has p_place (list), p_first, p_qualify, expected_points (points), expected_prize, and
    p_playoff (P(this player is in a play-off for first)).  The top-level ``p_playoff`` is
    P(a play-off for first is needed).
    """
    played, remaining = split_games(scn, at, fixed)
    m = len(remaining)
    if m > max_games:
        raise ScenarioError(f"exact odds: {m} games left, 3^{m} outcomes; the enumeration "
                            f"stops at {max_games} games", file=scn.file, key="--at",
                            value=at or "latest")
    en = _Enumeration(scn, model, played, remaining)
    en.walk(0, 1.0)
    return {
        "scenario": scn.name,
        "at": at or "latest",
        "games_left": m,
        "leaves": 3 ** m,
        "total_probability": en.total,
        "p_playoff": en.c[0],
        "counters": dict(zip(RR_COUNTER_NAMES, en.c + [en.level_at_cut])),
        "players": en.players(),
    }


class _Enumeration:
    """Every outcome of the remaining games, depth first, with the final ranking's
    probabilities accumulated at each leaf (``exact_round_robin``)."""

    def __init__(self, scn, model, played, remaining):
        n = self.n = len(scn.players)
        self.scn = scn
        self.remaining = remaining
        self.probs = game_probabilities(scn, model, remaining)
        pts0, wins0, res0 = tally(n, played)
        criteria = [RR_CRITERIA[c] for c in scn.order]
        if TBS_LOTS not in criteria:
            criteria.append(TBS_LOTS)
        self.k_po = criteria.index(TB_PLAYOFF) if TB_PLAYOFF in criteria else None
        self.before = criteria if self.k_po is None else criteria[:self.k_po]
        self.after = [] if self.k_po is None else criteria[self.k_po + 1:]
        # a play-off already played after the last round (as the plan's forced_first)
        self.forced = (scn.playoff_winner if scn.playoff_winner is not None and not remaining
                       else None)
        self.po = _Playoffs(scn, model)
        self.nq = scn.qualifying_places
        self.by_points = scn.prize_split == "points"
        self.prize_of_place = list(scn.prize_places) + [0.0] * (n - len(scn.prize_places))
        self.place = [[0.0] * n for _ in range(n)]
        self.e_half = [0.0] * n
        self.level_at_cut = 0.0   # P(the last qualifier is level on points with the next)
        self.e_share = [0.0] * n  # expected place money when it is shared by points
        self.p_in_playoff = [0.0] * n
        self.c = [0.0, 0.0, 0.0, 0.0]
        self.total = 0.0
        self.pts = list(pts0)
        self.wins = list(wins0)
        self.res = [list(r) for r in res0]
        # the crosstable: every scheduled game played at a leaf (its columns' kind), the
        # remaining games' results written in as the walk goes
        self.cols = columns(scn)
        t0 = table(scn, played, self.cols)
        self.xres, self.rating = t0.res, t0.rating
        self.xkind = [[RK_PLAYED if o >= 0 else RK_NONE for o in row] for row in self.cols.opp]
        self.at = [self.cols.of[(g.round, g.white, g.black)] for g in remaining]
        self.t = None   # the leaf's crosstable (``leaf``)

    def walk(self, g, prob):
        """Play games g, g+1, ... every way (probability ``prob`` so far)."""
        if g == len(self.remaining):
            self.leaf(prob)
            return
        pts, res, wins = self.pts, self.res, self.wins
        game = self.remaining[g]
        w, b = game.white, game.black
        cw, cb = self.at[g]
        for code, p in zip((0, 1, 2), self.probs[g]):
            if p <= 0.0:
                continue
            score_game(pts, wins, res, w, b, code)
            self.xres[w][cw], self.xres[b][cb] = SCORE[code]
            self.walk(g + 1, prob * p)
            score_game(pts, wins, res, w, b, code, -1)

    def assign(self, subgroups, pos, weight):
        """Groups ordered from place ``pos`` on, each sharing its places equally."""
        for g in subgroups:
            share = weight / len(g)
            for p in g:
                row = self.place[p]
                for k in range(pos, pos + len(g)):
                    row[k] += share
            pos += len(g)
        return pos

    def split_all(self, groups, crits):
        """Each group ordered by ``crits``: (subgroups in order, did lots decide any?)."""
        out, lots = [], False
        for G in groups:
            subs, lv = _order_group(G, crits, self.t)
            out.extend(subs)
            lots |= lv
        return out, lots

    def money_and_points(self, prob):
        """Points, the level-at-the-cut counter and prize money shared by points."""
        n, pts, nq = self.n, self.pts, self.nq
        self.total += prob
        for i in range(n):
            self.e_half[i] += prob * pts[i]
        if 0 < nq < n:
            ranked = sorted(pts, reverse=True)
            if ranked[nq - 1] == ranked[nq]:
                self.level_at_cut += prob
        if self.by_points:
            pos = 0
            for lv in sorted(set(pts), reverse=True):
                G = [i for i in range(n) if pts[i] == lv]
                share = sum(self.prize_of_place[pos:pos + len(G)]) / len(G)
                for p in G:
                    self.e_share[p] += prob * share
                pos += len(G)

    def leaf(self, prob):
        """One outcome of every remaining game: rank and accumulate."""
        n, pts, c = self.n, self.pts, self.c
        self.money_and_points(prob)
        self.t = Table(self.cols.opp, self.xres, self.xkind, self.cols.colour, self.rating,
                       self.cols.width)
        levels = [[i for i in range(n) if pts[i] == lv] for lv in sorted(set(pts), reverse=True)]
        groups, lots_elsewhere = self.split_all(levels, self.before)
        if self.k_po is None or len(groups[0]) == 1:
            if self.k_po is not None:
                groups, lots = self.split_all(groups, self.after)
                lots_elsewhere |= lots
            self.assign(groups, 0, prob)
            c[3] += prob if lots_elsewhere else 0.0
            return
        G, others = groups[0], groups[1:]
        others, lots_elsewhere = self.split_all(others, self.after)
        self.assign(others, len(G), prob)
        self.playoff(G, prob, lots_elsewhere)

    def playoff(self, G, prob, lots_elsewhere):
        """The group G level for first plays the play-off (or its known winner goes first);
        the others of G are ordered by the criteria after the play-off."""
        c = self.c
        if self.forced in G:
            win, f1, f2 = {self.forced: (1.0, 0.0)}, 0.0, 0.0
        else:
            win, f1, f2 = self.po.cascade(tuple(G))
        c[0] += prob
        c[1] += prob * f1
        c[2] += prob * f2
        for p in G:
            self.p_in_playoff[p] += prob
        p_lots = 0.0
        for w, (pn, pl) in win.items():
            q = pn + pl
            if q == 0.0:
                continue
            self.place[w][0] += prob * q
            rest = [p for p in G if p != w]
            subs, lots = _order_group(rest, self.after, self.t)
            self.assign(subs, 1, prob * q)
            p_lots += pl + (pn if lots else 0.0)
        c[3] += prob if lots_elsewhere else prob * p_lots

    def players(self) -> list[dict]:
        """Each player's exact odds, in the scenario's order."""
        scn, n, nq = self.scn, self.n, self.nq
        out = []
        for i, pl in enumerate(scn.players):
            row = self.place[i]
            money = (self.e_share[i] if self.by_points else
                     sum(row[k] * self.prize_of_place[k] for k in range(n)))
            out.append({
                "name": pl.name,
                "p_place": list(row),
                "p_first": row[0],
                "p_qualify": sum(row[:nq]),
                "expected_points": self.e_half[i] / 2.0,
                "expected_prize": money + scn.per_half_point * self.e_half[i],
                "p_playoff": self.p_in_playoff[i],
            })
        return out
