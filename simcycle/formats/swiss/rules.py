"""The rules of a Swiss event as functions: checkpoints, the crosstable at a checkpoint,
byes' points, qualifying places with passing-down, shared prizes and the standings table.
The tie-break values come from the shared kernel ``kernels/criteria_nb.py`` (the same code
the simulation ranks with).

Units: points in half points; criteria in the units of ``criteria.TABLE``.
"""

from __future__ import annotations

import numpy as np

from ...enums import (BLACK_WINS, COL_BLACK, COL_WHITE, DRAW, RK_FORFEIT_LOSS, RK_FORFEIT_WIN,
                      RK_FULL_BYE, RK_HALF_BYE, RK_PAB, RK_PLAYED, RK_ZERO_BYE, TBS_LOTS,
                      UNPLAYED, WHITE_WINS)
from ...errors import ScenarioError
from ..shared.prizes import runs, shared_money
from .scenario import Swiss

SCORE = {WHITE_WINS: (2, 0), DRAW: (1, 1), BLACK_WINS: (0, 2)}   # half points (White, Black)


def bye_points(scn: Swiss, kind: int) -> int:
    """Half points of a bye: pairing-allocated (the event's), full, half, zero."""
    return {RK_PAB: scn.pab_points, RK_FULL_BYE: 2, RK_HALF_BYE: 1, RK_ZERO_BYE: 0}[kind]


def checkpoints(scn: Swiss) -> list[str]:
    out = ["start"]
    for r in range(1, scn.paired_rounds + 1):
        if not scn.round_complete(r):
            break
        out.append(f"round{r}")
    return out


def last_round(scn: Swiss, at: str | None) -> int:
    """The rounds whose results count at ``at`` (None: every finished round)."""
    if at is None:
        return len(checkpoints(scn)) - 1
    return 0 if at == "start" else int(at[len("round"):])


def crosstable(scn: Swiss, rounds: int):
    """The crosstable arrays (opp, res, kind, colour: int64 [n, event rounds]) of rounds
    1..rounds, and the C.07 record (``criteria_nb.Crosstable``) over them."""
    from ...kernels.criteria_nb import Crosstable, adjusted_nb
    n, R = len(scn.players), scn.n_rounds
    opp = np.full((n, R), -1, np.int64)
    res = np.zeros((n, R), np.int64)
    kind = np.zeros((n, R), np.int64)
    colour = np.zeros((n, R), np.int64)
    for g in scn.games:
        if g.round > rounds:
            continue
        r = g.round - 1
        if g.result == UNPLAYED:
            raise ScenarioError(f"round {g.round} is not finished", file=scn.file,
                                key="--at", value=f"round{rounds}")
        sw, sb = SCORE[g.result]
        opp[g.white, r], opp[g.black, r] = g.black, g.white
        res[g.white, r], res[g.black, r] = sw, sb
        if g.forfeit:
            kind[g.white, r] = RK_FORFEIT_WIN if sw == 2 else RK_FORFEIT_LOSS
            kind[g.black, r] = RK_FORFEIT_WIN if sb == 2 else RK_FORFEIT_LOSS
        else:
            kind[g.white, r] = kind[g.black, r] = RK_PLAYED
            colour[g.white, r], colour[g.black, r] = COL_WHITE, COL_BLACK
    for b in scn.byes:
        if b.round <= rounds:
            kind[b.player, b.round - 1] = b.kind
            res[b.player, b.round - 1] = bye_points(scn, b.kind)
    t = Crosstable(opp, res, kind, colour, np.zeros(n, np.int64), np.zeros(n, np.int64),
                   np.array([round(p.rating) for p in scn.players], np.int64))
    adjusted_nb(t, rounds)
    return t


def kernel_pairing(scn: Swiss, rounds: int) -> list[tuple[int, int]]:
    """Round ``rounds + 1``'s boards as the Dutch pairing kernel pairs the crosstable of
    rounds 1..``rounds`` (pairing scores with any acceleration's virtual points): (White,
    Black) best board first, a pairing-allocated bye as (player, -1).  A function of the
    results so far only (the Dutch system has no chance in it)."""
    from ...kernels.dutch_nb import pair_round_nb, pair_scratch
    from .plan import virtual_points
    n = len(scn.players)
    t = crosstable(scn, rounds)
    pts = (t.res[:, :rounds].sum(1) + virtual_points(scn)[rounds]).astype(np.int64)
    ow, ob = np.zeros(n // 2 + 1, np.int64), np.zeros(n // 2 + 1, np.int64)
    k = pair_round_nb(t, rounds, scn.n_rounds, pts, scn.initial_colour, pair_scratch(n), ow,
                      ob)
    return [(int(ow[j]), int(ob[j])) for j in range(k)]


def qualifiers(order, qualified, places: int, pass_down: bool) -> list[int]:
    """The players who take the ``places`` qualifying places of the final ``order``: with
    passing-down, a place whose holder is already qualified goes to the next in the order."""
    out = []
    for p in order:
        if len(out) == places:
            break
        if pass_down and qualified[p]:
            continue
        out.append(p)
    return out


def ranked(scn: Swiss, t, rounds: int):
    """(order, brk, values int64 [n, criteria]) of the standings after ``rounds``: lots are
    not drawn (players level on every criterion share the place)."""
    from ...kernels.criteria_nb import rank_criteria_nb, values_nb
    n = len(scn.players)
    crit = np.array([c for c in scn.criteria if c != TBS_LOTS], np.int64)
    order, brk = np.empty(n, np.int64), np.empty(n, np.int64)
    vals = np.zeros((n, len(crit)), np.int64)
    values_nb(t, rounds, crit, order, brk, np.empty(n, np.int64), vals)
    rank_criteria_nb(t, rounds, crit, order, brk, np.empty(n, np.int64),
                     np.empty(n, np.int64), np.empty(n, np.int64), np.zeros(1, np.uint64),
                     False)
    return order, brk, vals


def standings(scn: Swiss, at: str | None) -> dict:
    from ...criteria import BY_CODE
    rounds = last_round(scn, at)
    t = crosstable(scn, rounds)
    order, brk, vals = ranked(scn, t, rounds)
    names = [c for c in scn.order if c != "lots"]
    crit = [BY_CODE[c] for c in scn.criteria if c != TBS_LOTS]
    final = rounds == scn.n_rounds
    q = set(qualifiers([int(p) for p in order], [p.qualified for p in scn.players],
                       scn.qualifying_places, scn.pass_down))
    groups = []
    for pos, p in enumerate(order):
        if brk[pos] or not groups:
            groups.append([])
        groups[-1].append(int(p))
    prize = {}
    if final and scn.prize_places:
        gs = (runs([p for g in groups for p in g], lambda p: int(t.pts[p]))
              if scn.prize_split == "points" else groups)
        prize = shared_money(gs, scn.prize_places)
    rows = []
    pos = 0
    for g in groups:
        for p in g:
            pl = scn.players[p]
            rows.append({"rank": pos + 1, "shared": len(g) > 1, "name": pl.name,
                         "title": pl.title, "rating": pl.rating, "fide_id": pl.fide_id,
                         "points": int(t.pts[p]) / 2,
                         "tiebreaks": {nm: int(vals[p, c]) / crit[c].scale
                                       for c, nm in enumerate(names)},
                         "qualified_before": pl.qualified,
                         "in_qualifying_place": p in q, "prize": prize.get(p)})
        pos += len(g)
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
            "rounds_played": rounds, "rounds": scn.n_rounds, "final": final,
            "criteria": names,
            "criteria_c07": [c.c07 for c in crit],
            "criteria_legend": {c.c07: c.label for c in crit},
            "qualifying_places": scn.qualifying_places, "pass_down": scn.pass_down,
            "currency": scn.currency, "players": rows}
