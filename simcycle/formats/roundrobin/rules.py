"""The rules of a round robin as pure functions: checkpoints, scores, Sonneborn-Berger, the
tiebreak order, prize money and the standings table.  Plain Python; the kernel (``nb.py``),
its twin (``simcycle/reference/roundrobin.py``), exact enumeration and whocan follow these.

Units: points in half points, Sonneborn-Berger in quarter points, money in the currency.
"""

from __future__ import annotations

from typing import NamedTuple

from ...enums import (BLACK_WINS, COL_BLACK, COL_NONE, COL_WHITE, DRAW, RK_NONE, RK_PLAYED,
                      RR_CRITERIA, TBS_DIRECT_ENCOUNTER, TBS_SONNEBORN_BERGER, TBS_WINS,
                      WHITE_WINS)
from ...reference.criteria import FUNCTIONS, Table
from ..shared.prizes import runs, shared_money
from ..shared.tiebreaks import Splits
from .scenario import PLAYOFF, Game, RoundRobin

SCORE = {WHITE_WINS: (2, 0), DRAW: (1, 1), BLACK_WINS: (0, 2)}   # half points (White, Black)


# What a round robin's steps are called in its tables and notes (the values are the C.07
# criteria, ``reference.criteria`` / ``kernels/criteria_nb``, by the codes of RR_CRITERIA).
CRITERION_TEXT = {"sonneborn-berger": "Sonneborn-Berger", "wins": "wins",
                  "head-to-head": "head-to-head", PLAYOFF: "play-off", "points": "points"}
assert set(CRITERION_TEXT) == set(RR_CRITERIA) - {"lots"} | {"points"}


# ---- checkpoints and what is known at one --------------------------------------------------
def checkpoints(scn: RoundRobin) -> list[str]:
    out = ["start"]
    for rn in range(1, scn.n_rounds + 1):
        if all(g.result >= 0 for g in scn.games if g.round == rn):
            out.append(f"round{rn}")
        else:
            break
    return out


def last_round(scn: RoundRobin, at: str | None) -> int:
    if at is None:
        return scn.n_rounds
    return 0 if at == "start" else int(at[len("round"):])


def split_games(scn: RoundRobin, at: str | None, fixed=None):
    """(played, remaining) at checkpoint ``at`` (None: every result in the file).

    ``fixed`` maps (round, white, black) to a result assumed for a game still to play
    (what-ifs: ``swing`` and ``--fix``)."""
    last = last_round(scn, at)
    played, remaining = [], []
    for g in scn.games:
        if g.result >= 0 and g.round <= last:
            played.append(g)
        elif fixed and (g.round, g.white, g.black) in fixed:
            played.append(Game(g.round, g.white, g.black, fixed[(g.round, g.white, g.black)]))
        else:
            remaining.append(g)
    return played, remaining


# ---- scores --------------------------------------------------------------------------------
def tally(n: int, played):
    """Half points, wins, and the n x n table of half points scored by i against j."""
    pts = [0] * n
    wins = [0] * n
    res = [[0] * n for _ in range(n)]
    for g in played:
        score_game(pts, wins, res, g.white, g.black, g.result)
    return pts, wins, res


def score_game(pts, wins, res, w, b, result, sign=1):
    """Add (sign 1) or take back (sign -1) one game, White ``w``, Black ``b``, ``result`` an
    ``enums`` result code: half points, wins and res[i][j] (i's half points against j); the
    twin of ``nb.play_nb``."""
    sw, sb = SCORE[result]
    pts[w] += sign * sw
    pts[b] += sign * sb
    res[w][b] += sign * sw
    res[b][w] += sign * sb
    wins[w] += sign * (result == WHITE_WINS)
    wins[b] += sign * (result == BLACK_WINS)


class Columns(NamedTuple):
    """A round robin as a C.07 crosstable (``kernels/criteria_nb.Crosstable``): each
    player's games in playing order are his columns, so the criteria the Swiss ranks on read a
    round robin unchanged (a double round robin's two games against one opponent are two
    columns: wins counts each).

    opp     [n][width]: the opponent of column c (-1: none; a player's row may be shorter)
    colour  [n][width]: ``enums.COL_WHITE`` / ``COL_BLACK`` (``COL_NONE``: no game)
    of      {(round, white, black): (White's column, Black's column)}
    width   the most games any player has
    """

    opp: list
    colour: list
    of: dict
    width: int


def columns(scn: RoundRobin) -> Columns:
    """Every scheduled game's columns (games in round order, then file order)."""
    n = len(scn.players)
    rows: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    of = {}
    for g in sorted(scn.games, key=lambda g: g.round):
        of[(g.round, g.white, g.black)] = (len(rows[g.white]), len(rows[g.black]))
        rows[g.white].append((g.black, COL_WHITE))
        rows[g.black].append((g.white, COL_BLACK))
    width = max((len(r) for r in rows), default=0)
    opp = [[o for o, _ in r] + [-1] * (width - len(r)) for r in rows]
    colour = [[c for _, c in r] + [COL_NONE] * (width - len(r)) for r in rows]
    return Columns(opp, colour, of, width)


def table(scn: RoundRobin, games, cols: Columns | None = None) -> Table:
    """The crosstable (``reference.criteria.Table``) of ``games`` (each a played ``Game``):
    their columns (``columns``) hold their half points and kind ``RK_PLAYED``, the columns
    of games not among them ``RK_NONE``."""
    cols = cols or columns(scn)
    n = len(scn.players)
    res = [[0] * cols.width for _ in range(n)]
    kind = [[RK_NONE] * cols.width for _ in range(n)]
    for g in games:
        cw, cb = cols.of[(g.round, g.white, g.black)]
        res[g.white][cw], res[g.black][cb] = SCORE[g.result]
        kind[g.white][cw] = kind[g.black][cb] = RK_PLAYED
    rating = [round(float(r["classical"])) for r in scn.rating_lists[0][1]]
    return Table(cols.opp, res, kind, cols.colour, rating, cols.width)


def criterion_value(name: str, t: Table):
    """The value criterion ``name`` orders a group by (higher is better), as f(player,
    group): the C.07 function of its code (``enums.RR_CRITERIA``) over the crosstable."""
    f = FUNCTIONS[RR_CRITERIA[name]]
    return lambda i, g: f(t, i, g)


def rank(scn: RoundRobin, t: Table, playoff_winner=None) -> Splits:
    """Players grouped where every criterion but lots leaves them level (a table never draws
    lots), with what separated each neighbour pair.  The play-off step puts its winner first
    when it has been played (``playoff_winner``); until then the criteria order the top group
    like any other, as a display."""
    pts = t.pts
    order = sorted(range(len(pts)), key=lambda i: -pts[i])
    sp = Splits([order])
    sp.by("points", lambda i, g: pts[i])
    for crit in scn.order:
        if crit == PLAYOFF:
            if playoff_winner is not None:
                sp.first_apart(playoff_winner, PLAYOFF)
        elif crit != "lots":
            sp.by(crit, criterion_value(crit, t))
    return sp


def place_ranges(scn: RoundRobin, t: Table, playoff_winner=None) -> list[tuple]:
    """For each player, the best and the worst place (0-based) the rules can give him once
    the games are over: one place where the deterministic criteria (points, Sonneborn-Berger,
    wins, head-to-head) decide, a range where a play-off or lots still would.

    At the play-off step the players level at the top play off for first: each may win it
    (place 0) or lose it, and then the later criteria order the losers among themselves."""
    pts = t.pts
    n = len(pts)
    steps = [c for c in scn.order]
    steps = steps[:steps.index("lots")] if "lots" in steps else steps
    sp = Splits([sorted(range(n), key=lambda i: -pts[i])])
    sp.by("points", lambda i, g: pts[i])
    frozen = None
    for k, crit in enumerate(steps):
        if crit == PLAYOFF:
            top = sp.groups[0]
            if len(top) > 1:
                frozen = (top, steps[k + 1:])
                sp.groups = sp.groups[1:]
            continue
        sp.by(crit, criterion_value(crit, t))
    out: dict[int, tuple] = {}
    pos = 0
    if frozen is not None:
        top, later = frozen
        out = _playoff_ranges(top, later, t, playoff_winner)
        pos = len(top)
    for g in sp.groups:
        for x in g:
            out[x] = (pos, pos + len(g) - 1)
        pos += len(g)
    return [out[i] for i in range(n)]


def _playoff_ranges(top, later, t: Table, playoff_winner) -> dict[int, tuple]:
    """{player of the play-off group ``top``: (best, worst place)}: first if he can win the
    play-off (only ``playoff_winner`` when it is one of them), else ordered among the
    losers by the ``later`` criteria, for each winner he could lose to."""
    winners = [playoff_winner] if playoff_winner in top else top
    out = {}
    for x in top:
        lo = 0 if x in winners else None
        hi = 0
        for w in winners:
            if w == x:
                continue
            sub = Splits([[p for p in top if p != w]])
            for crit in later:
                sub.by(crit, criterion_value(crit, t))
            start, size = _span(sub.groups, x)
            lo = 1 + start if lo is None else min(lo, 1 + start)
            hi = max(hi, start + size)
        out[x] = (lo, hi)
    return out


def _span(groups, x) -> tuple[int, int]:
    """(first position, size) of the group of ``groups`` (in order) that holds ``x``."""
    start = 0
    for g in groups:
        if x in g:
            return start, len(g)
        start += len(g)
    raise ValueError(x)


def place_prizes(scn: RoundRobin, groups, pts) -> dict[int, float]:
    """Money per player once the event is over: the places a group covers are shared equally
    by its members ("tiebreak": groups level on every criterion; "points": level on points,
    whatever the tiebreaks decide), plus the money per half point."""
    if scn.prize_split == "points":
        groups = runs([p for g in groups for p in g], lambda p: pts[p])
    money = shared_money(groups, scn.prize_places)
    return {p: m + scn.per_half_point * pts[p] for p, m in money.items()}


# ---- the standings table -------------------------------------------------------------------
LEVEL_PLAYOFF = "level: a play-off decides"


def playoff_group(scn: RoundRobin, t: Table) -> list[int]:
    """The players a play-off for first would be between now: level at the top on points and
    on every criterion the order puts before its play-off step (empty when the order has no
    play-off or one player leads)."""
    if PLAYOFF not in scn.order:
        return []
    pts = t.pts
    sp = Splits([sorted(range(len(pts)), key=lambda i: -pts[i])])
    sp.by("points", lambda i, g: pts[i])
    for crit in scn.order:
        if crit == PLAYOFF:
            break
        if crit != "lots":
            sp.by(crit, criterion_value(crit, t))
    top = sp.groups[0]
    return list(top) if len(top) > 1 else []


def standings(scn: RoundRobin, at: str | None) -> dict:
    n = len(scn.players)
    played, remaining = split_games(scn, at)
    t = table(scn, played)
    pts = t.pts
    sb = [FUNCTIONS[TBS_SONNEBORN_BERGER](t, i, ()) for i in range(n)]
    wins = [FUNCTIONS[TBS_WINS](t, i, ()) for i in range(n)]
    final = not remaining
    sp = rank(scn, t, scn.playoff_winner if final else None)
    groups = sp.groups
    prize_of = place_prizes(scn, groups, pts) if final else {}
    rows = _standing_rows(scn, sp, played, t, wins, sb, prize_of)
    level = _level_for_playoff(scn, t, final)
    for row, p in zip(rows, [p for grp in groups for p in grp]):
        if p in level:
            row.update(rank=1, shared=True, ahead_by=LEVEL_PLAYOFF)
    d = {"scenario": scn.name, "file": scn.file, "at": at or "latest",
         "rounds_played": max((g.round for g in played), default=0),
         # the rounds every game of which is played (rounds_played is the latest round with a
         # game played: mid-round they differ)
         "rounds_complete": _rounds_complete(played, remaining),
         "final": final,
         "currency": scn.currency, "prize_split": scn.prize_split,
         "criteria": ["points", *[c for c in scn.order if c != "lots"]], "players": rows}
    if final:
        d.update(_prize_total(scn, prize_of))
    d.update(_level_note(scn, level, groups, final))
    return d


def _level_for_playoff(scn: RoundRobin, t: Table, final: bool) -> set:
    """Players level at the top where the rules leave first place to a play-off (one not
    played yet): they share first; the later criteria only list them (they order the
    play-off's losers), they do not break the tie."""
    if final and scn.playoff_winner is not None:
        return set()
    return set(playoff_group(scn, t))


def _rounds_complete(played, remaining) -> int:
    """The last round every game of which is played (0: none)."""
    return max((r for r in {g.round for g in played}
                if all(g.round != r for g in remaining)), default=0)


def _prize_total(scn: RoundRobin, prize_of: dict) -> dict:
    """The final standings' ``prize_total``, and a ``prize_warning`` when it is not the
    scenario's fund."""
    total = sum(prize_of.values())
    if scn.fund is not None and abs(total - scn.fund) > 0.5:
        return {"prize_total": total,
                "prize_warning": f"prizes sum to {total:,.0f}, the fund is {scn.fund:,.0f}"}
    return {"prize_total": total}


def _standing_rows(scn: RoundRobin, sp: Splits, played, t: Table, wins, sb,
                   prize_of: dict) -> list[dict]:
    """A row per player in standings order: rank (the first of a level group's), points,
    Sonneborn-Berger, wins, games played, prize, what puts him above the next."""
    games = [0] * len(scn.players)
    for g in played:
        games[g.white] += 1
        games[g.black] += 1
    pts = t.pts
    rows = []
    pos = 0
    for grp in sp.groups:
        for p in grp:
            rows.append({
                "name": scn.players[p].name,
                "rank": pos + 1,
                "shared": len(grp) > 1,
                "points": pts[p] / 2,
                "sb": sb[p] / 4,
                "wins": wins[p],
                "games": games[p],
                "prize": prize_of.get(p),
                "ahead_by": _why(sp, p, t, sb, wins, scn),
            })
        pos += len(grp)
    return rows


def _level_note(scn: RoundRobin, level: set, groups, final: bool) -> dict:
    """The standings' ``note`` on players level for first ({} when no one is): ``level`` those
    a play-off still to come decides between, else the first group level on every criterion
    (None before the end)."""
    if level:
        return {"note": f"{len(level)} players level for first: a play-off decides"
                        + ("" if final else " if they are still level after the last round")}
    if not (groups and len(groups[0]) > 1):
        return {}
    how = "a play-off" if PLAYOFF in scn.order else "lots"
    return {"note": f"level for first on every criterion: {how} decide" if final else None}


def _why(sp: Splits, p: int, t: Table, sb, wins, scn) -> str | None:
    """Why ``p`` stands above the next player although they are level on points."""
    if p not in sp.reason:
        return None
    crit, q = sp.reason[p]
    if crit == "points":
        return None
    name = scn.players[q].name
    if crit == "head-to-head":
        group = [x for x in range(len(t.pts)) if t.pts[x] == t.pts[p]]
        de = FUNCTIONS[TBS_DIRECT_ENCOUNTER]
        a = de(t, p, group) / 2
        b = de(t, q, group) / 2
        return f"ahead of {name} on head-to-head ({fmt_points(a)}-{fmt_points(b)})"
    if crit == "sonneborn-berger":
        return f"ahead of {name} on Sonneborn-Berger ({sb[p] / 4:.2f} v {sb[q] / 4:.2f})"
    if crit == "wins":
        return f"ahead of {name} on wins ({wins[p]} v {wins[q]})"
    return f"won the play-off against {name}"


def fmt_points(x: float) -> str:
    whole = int(x)
    return (str(whole) if whole or x == 0 else "") + ("½" if x - whole else "")
