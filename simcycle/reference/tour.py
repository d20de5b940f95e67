"""Plain-Python twin of ``formats.tour.nb``: the same season, the same draws in the same order.

Reads the same :class:`~simcycle.formats.tour.nb.TourArgs` (``plan.args``) and draws from
``Stream(seed, replica)`` in the kernel's order: offsets (player-major, class-minor, real
players only), the remaining events in date order (an event with what-if places replayed from
a side stream until they hold, as ``nb.replay_fixed_event_nb``; a round robin through the
round-robin stage's twin, ``reference.roundrobin.stage``, on the stage record the kernel
builds, ``nb.rr_event_nb``), then lots among the members level on every tiebreak.  Written
for clarity from the rules (the ACP Tour 2004-2005 regulations, ``formats/tour/rules.py``);
the tests run both on the same (seed, replica) streams and expect identical tallies.
"""

from __future__ import annotations

import numpy as np

from ..enums import (EV_BL, EV_BS, EV_CI, EV_FL, EV_FS, EV_OPP, EV_PS, EV_ROUNDS, EV_SL, EV_SS,
                     EV_SYS, SIM_OPEN, SIM_RR, TOUR_C_LOTS, TOUR_C_TIEBREAK)
from ..formats.tour.nb import rr_event_nb
from ..formats.tour.rules import counted, share_points, tiebreak_key
from ..formats.tour.whatif import MAX_PLAYS, SIDE_KEY
from . import roundrobin as rr_twin
from .games import draw_offsets, game, match, shuffled
from .rng import Stream, mix64

SCORE = {0: 2, 1: 1, 2: 0}   # half points of a game from the player's side (win, draw, loss)


def places_from_scores(scores, share_lots, stream):
    """[(lo, hi)] per player: level scores share the places they cover, or lots order them."""
    k = len(scores)
    order = sorted(range(k), key=lambda i: -scores[i])  # stable: level keep list order
    out = [None] * k
    i = 0
    while i < k:
        j = i
        while j < k and scores[order[j]] == scores[order[i]]:
            j += 1
        grp = order[i:j]
        if share_lots and len(grp) > 1:
            for t, p in enumerate(shuffled(grp, stream)):
                out[p] = (i + t + 1, i + t + 1)
        else:
            for p in grp:
                out[p] = (i + 1, j)
        i = j
    return out


def places_from_order(order, pts, shared):
    """[(lo, hi)] per player from a final order (best first): with ``shared`` players level
    on points share the places they cover, else each holds his own."""
    out = [None] * len(order)
    i = 0
    while i < len(order):
        j = i + 1
        while shared and j < len(order) and pts[order[j]] == pts[order[i]]:
            j += 1
        for p in order[i:j]:
            out[p] = (i + 1, j)
        i = j
    return out


class Season:
    """One replica's games: the model's probabilities from the ratings (offsets on) or the
    plan's threshold table (the same one draw either way)."""

    def __init__(self, a, rt, stream):
        self.a, self.rt, self.stream = a, rt, stream
        self.params = a.params.tolist()

    def play(self, ci, w, b):
        """White w against Black b: 0 White wins, 1 draw, 2 Black wins."""
        if self.a.live:
            return game(self.params, self.rt, self.a.offsets, ci, w, b, self.stream)
        u = self.stream.u01()
        tw, td = (float(x) for x in self.a.thr[0, ci, w, b])
        return 0 if u < tw else (1 if u < td else 2)

    def round_robin(self, e, field):
        """Event row e through the round-robin stage's twin on the kernel's stage record
        (``nb.rr_event_nb``: colours, thresholds and criteria as the tour's rules say), with
        this replica's ratings of the field."""
        ra = rr_event_nb(self.a, np.int64(e))
        rt = [[self.rt[p] for p in field]]
        order, pts = rr_twin.stage(ra, rt, self.stream, rr_twin.terms(ra, self.a.offsets),
                                   [0] * 6)
        return places_from_order(order, pts, not self.a.share_lots)

    def open(self, row, field):
        opp, ci = int(row[EV_OPP]), int(row[EV_CI])
        scores = []
        for a in field:
            s = 0
            for rd in range(int(row[EV_ROUNDS])):
                r = self.play(ci, a, opp) if rd % 2 == 0 else 2 - self.play(ci, opp, a)
                s += SCORE[r]
            scores.append(s)
        return places_from_scores(scores, self.a.share_lots, self.stream)

    def knockout(self, row, field):
        a = self.a
        ss, sl = int(row[EV_SS]), int(row[EV_SL])
        steps = [tuple(int(x) for x in a.steps[s]) for s in range(ss, ss + sl)]
        bs, size = int(row[EV_BS]), int(row[EV_BL])
        alive = [int(x) for x in a.slots[bs: bs + size]]
        places = [None] * len(field)
        while len(alive) > 1:
            nxt, losers = self.knockout_round(alive, field, steps)
            surv = sum(1 for p in nxt if p >= 0)
            for p in losers:
                places[p] = (surv + 1, surv + len(losers))
            alive = nxt
        places[alive[0]] = (1, 1)
        return places

    def knockout_round(self, alive, field, steps):
        """One round of a bracket (``alive``: field positions in bracket order, -1 a bye):
        (who goes on, who lost), a bye passing its opponent on."""
        nxt, losers = [], []
        for i in range(len(alive) // 2):
            x, y = alive[2 * i], alive[2 * i + 1]
            if x < 0 or y < 0:
                nxt.append(y if x < 0 else x)
                continue
            won = match(self.params, self.rt, self.a.offsets, field[x], field[y], steps, [],
                        self.stream)[0]
            nxt.append(x if won == 0 else y)
            losers.append(y if won == 0 else x)
        return nxt, losers

    def event(self, e):
        """(lo, hi, points) of each listed player of event row e, in field order."""
        row = self.a.ev[e]
        fs, fl = int(row[EV_FS]), int(row[EV_FL])
        field = [int(x) for x in self.a.field[fs: fs + fl]]
        if row[EV_SYS] == SIM_RR:
            places = self.round_robin(e, field)
        elif row[EV_SYS] == SIM_OPEN:
            places = self.open(row, field)
        else:
            places = self.knockout(row, field)
        ps = int(row[EV_PS])
        pp = [int(x) for x in self.a.pp[ps: ps + fl]]
        return [(lo, hi, share_points(pp, lo, hi)) for lo, hi in places]


def holds(rows, places) -> bool:
    """Whether the places keep every what-if row (listed player, lo and hi bounds)."""
    return all(b0 <= places[i][0] <= b1 and b2 <= places[i][1] <= b3
               for i, b0, b1, b2, b3 in (map(int, r) for r in rows))


def fixed_event(season, e):
    """Event row e under its what-ifs: the first play from the replica's stream, replays from
    the side stream (seeded from the replica's stream after the first play) until the places
    keep them; the replica's stream then goes on from where the first play left it."""
    a = season.a
    rows = a.fixes[a.fix_start[e]: a.fix_start[e + 1]]
    places = season.event(e)
    if len(rows):
        main = season.stream
        side = Stream(0, 0)
        side.state = mix64(main.state ^ SIDE_KEY)
        season.stream = side
        n = 1
        while n < MAX_PLAYS and not holds(rows, places):
            places = season.event(e)
            n += 1
        season.stream = main
    return places


def ratings(a, stream):
    """[player][class] ratings of one replica: offsets drawn player-major, class-minor, for the
    real players only."""
    rt = [list(map(float, row)) for row in a.rt[0]]
    if a.offsets:
        draw_offsets(rt, a.rt[0], range(a.n_real), a.offset_sd, stream)
    return rt


def flags_of(keys, order, q):
    """[tiebreak, lots]: what decided the last qualifying place (regulations §5.5)."""
    flags = [0, 0]
    if 0 < q < len(order):
        x, y = order[q - 1], order[q]
        if keys[x] == keys[y]:
            flags[TOUR_C_LOTS] = 1
        elif keys[x][0] == keys[y][0]:
            flags[TOUR_C_TIEBREAK] = 1
    return flags


def lots(keys, order, stream):
    """The order with each group level on every tiebreak shuffled, top group first."""
    final = []
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and keys[order[j]] == keys[order[i]]:
            j += 1
        grp = order[i:j]
        final.extend(shuffled(grp, stream) if len(grp) > 1 else grp)
        i = j
    return final


def replica(a, seed: int, r: int, events: list | None = None):
    """One simulated season: (member order best first, totals, flags); ``events``, when
    given, receives each event's (lo, hi, points) per listed player, in date order."""
    stream = Stream(seed, r)
    season = Season(a, ratings(a, stream), stream)
    nm, best_n = a.base_top.shape
    res = [[int(x) for x in a.base_top[m][: a.base_cnt[m]]] for m in range(nm)]
    for e in range(a.ev.shape[0]):
        fs = int(a.ev[e, EV_FS])
        places = fixed_event(season, e)
        if events is not None:
            events.append(places)
        for i, (_, _, pts) in enumerate(places):
            m = int(a.member_of[a.field[fs + i]])
            if m >= 0 and pts > 0:
                res[m] = counted(res[m] + [pts], best_n)
    keys = [tiebreak_key(res[m]) for m in range(nm)]
    order = sorted(range(nm), key=lambda m: keys[m])
    flags = flags_of(keys, order, a.n_qual)
    return lots(keys, order, stream), [sum(x) for x in res], flags


def run(plan, seed: int, first: int, n: int) -> dict:
    """Tallies of replicas first..first+n-1, as ``TourPlan.run_batch`` returns them."""
    a = plan.args
    nm = a.base_top.shape[0]
    place = np.zeros((nm, nm), np.int64)
    qual = np.zeros(nm, np.int64)
    pts = np.zeros(nm)
    pts2 = np.zeros(nm)
    counters = np.zeros(2, np.int64)
    for r in range(first, first + n):
        order, totals, flags = replica(a, seed, r)
        for p, m in enumerate(order):
            place[m, p] += 1
            if p < a.n_qual:
                qual[m] += 1
            pts[m] += totals[m]
            pts2[m] += float(totals[m]) ** 2
        counters += flags
    return {"place": place, "qualify": qual, "points": pts, "points_sq": pts2,
            "prize": np.zeros(nm), "prize_sq": np.zeros(nm), "counters": counters}
