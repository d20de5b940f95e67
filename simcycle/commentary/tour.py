"""``needs`` for a best-N tour: what each member needs from the next event, as branches with
their odds.

A tour's next "round" is its next event, and a player's result in it is a place (shared or
not), not one of three game results, so the branches come from conditioning rather than from
forcing: the rest of the season is simulated replica by replica (``formats/tour/needs_nb.py``,
the tour kernel's own draws; ``needs`` takes no what-if places here), and each replica is filed by
the player's place in the next event (or, for a member not playing it, by who wins it).  A
branch's probability is the share of replicas in it, and the player's P(1st) / P(qualify)
inside it the share of those replicas in which they finish first / in the qualifying places,
with the binomial standard error.  Adjacent places merge where they leave the odds equal (the
rule of ``branches._close``, the noise of a small branch counted).
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ScenarioError
from ..kernels.config import CHUNK
from ..formats.tour.rules import UNIT, event_place_points, share_points
from ..report import ordinal
from .branches import MERGE, Branch, ItemOdds, NeedsReport, PlayerNeeds

SHARED = "shared"          # the winner's code when first place is shared


def place_code(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}-{hi}"


def simulate(scn, model, at, sims: int, seed: int):
    """(plan, event, lo, hi, final): the next event's places per replica and listed player,
    each member's final place (0 = first) per replica; ``sims`` whole chunks."""
    from ..formats.base import CompileOptions
    from ..formats.tour.needs_nb import season_places_nb
    from ..formats.tour.plan import TourPlan

    plan = TourPlan(scn, model, CompileOptions(at=at))
    if not plan.remaining:
        raise ScenarioError("nothing left to play at this checkpoint", file=scn.file,
                            key="--at", value=at or "latest")
    ev = plan.remaining[0]
    n = -(-sims // CHUNK) * CHUNK
    lo = np.zeros((n, len(ev.field)), np.int64)
    hi = np.zeros_like(lo)
    final = np.zeros((n, plan.args.base_top.shape[0]), np.int64)
    season_places_nb(np.uint64(seed), np.int64(0), np.int64(n), plan.args, lo, hi, final)
    return plan, ev, lo, hi, final


def _cell(codes, mask, first, qual):
    c = int(mask.sum())
    n = mask.shape[0]
    f = float(first[mask].mean()) if c else 0.0
    q = float(qual[mask].mean()) if c else 0.0
    return [codes, c / n, f, q, c]


def _se(p: float, c: int) -> float:
    return math.sqrt(p * (1 - p) / c) if c else 0.0


def _close(a, b) -> bool:
    """Equal odds for commentary: within MERGE at 50 % (less towards 0 or 100 %) or within two
    SE; a small branch's SE floored (p(1-p) + 1/c) / c: 0 of 5 replicas is not a certainty."""
    for k in (2, 3):
        m = (a[k] + b[k]) / 2
        se = math.hypot(*(math.sqrt((x[k] * (1 - x[k]) + 1 / max(x[4], 1)) / max(x[4], 1))
                          for x in (a, b)))
        if abs(a[k] - b[k]) > max(MERGE * 4 * m * (1 - m), 2 * se):
            return False
    return True


def _combine(a, b) -> list:
    """Two cells [codes, share, P(1st), P(qualify), count] as one, odds mixed by count."""
    tot = a[4] + b[4]
    f = (a[2] * a[4] + b[2] * b[4]) / tot if tot else 0.0
    q = (a[3] * a[4] + b[3] * b[4]) / tot if tot else 0.0
    return [a[0] + b[0], a[1] + b[1], f, q, tot]


def _merge(cells):
    """Adjacent cells with equal odds (``_close``) merged, in the order given."""
    out = [cells[0]]
    for c in cells[1:]:
        if _close(out[-1], c):
            out[-1] = _combine(out[-1], c)
        else:
            out.append(c)
    return out


def fmt_acp(x: int) -> str:
    """ACP points from hundredths, as few decimals as they need."""
    return f"{x / UNIT:.2f}".rstrip("0").rstrip(".")


def own_label(codes: list[str], pts: list[int], last: bool, only: bool) -> str:
    """Words for a run of results of one player (place codes "1", "2-3", ... and their ACP
    points, best first): the place when it is one, else the ACP points the run earns."""
    if only:
        return "any place"
    if len(codes) == 1:
        lo, _, hi = codes[0].partition("-")
        if not hi:
            return "wins" if lo == "1" else f"finishes {ordinal(int(lo))}"
        return f"shares {ordinal(int(lo))}-{ordinal(int(hi))}"
    a, b = max(pts), min(pts)
    if last:
        return f"earns {fmt_acp(a)} ACP points or fewer" if a > 0 else "earns no ACP points"
    return (f"earns {fmt_acp(a)} ACP points" if a == b
            else f"earns {fmt_acp(b)}-{fmt_acp(a)} ACP points")


def _or(xs: list[str]) -> str:
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " or " + xs[-1]


NOT_WINNING = {          # the outcomes left out of a group, by how many they are
    1: lambda r: f"{r[0]} does not win",
    2: lambda r: f"neither {r[0]} nor {r[1]} wins",
    3: lambda r: f"none of {', '.join(r)} wins"}


def _left_out(codes: list[str], rest: list[str]) -> str | None:
    """A group of outcomes said by the at most three outcomes ``rest`` it leaves out, or
    None when that does not cover the same outcomes."""
    others = [c for c in rest if c != SHARED]
    if rest and SHARED not in rest and len(rest) <= 3:
        return NOT_WINNING[len(rest)](rest) + (" alone" if SHARED in codes else "")
    if SHARED in rest and others and len(others) <= 3:
        return f"a player other than {_or(others)} wins alone"
    return None


def winner_label(codes: list[str], everyone: list[str]) -> str:
    """Words for a group of the event's outcomes (sole winners' names, ``SHARED``); a long
    list said by what it leaves out ("neither Birch nor Hazel wins alone") when that is
    shorter and covers the same outcomes (``everyone``: every outcome seen)."""
    names = [c for c in codes if c != SHARED]
    short = _left_out(codes, [c for c in everyone if c not in codes]) if len(names) > 3 else None
    if short is not None:
        return short
    words = f"{_or(names)} wins" if names else ""
    if SHARED in codes:
        words = (words + ", or first place is shared") if words else "first place is shared"
    return words


def _member_cells(scn, ev, i, lo, hi, first, qual):
    """A member playing the event (its ``i``-th player): cells by the ACP points their place
    earns (shared places at their split points), best first, and the words for a run."""
    pp = event_place_points(scn, ev, max(ev.n_players, len(ev.field)))
    n = lo.shape[0]
    pts = np.zeros(n, np.int64)
    for a, b in {(int(a), int(b)) for a, b in zip(lo[:, i], hi[:, i])}:
        pts[(lo[:, i] == a) & (hi[:, i] == b)] = share_points(pp, a, b)
    values = sorted(set(pts.tolist()), reverse=True)
    cells = []
    for v in values:
        mk = pts == v
        codes = sorted({place_code(int(a), int(b)) for a, b in zip(lo[mk, i], hi[mk, i])},
                       key=lambda c: tuple(map(int, c.split("-"))))
        cells.append(_cell(codes, mk, first, qual))
    worth = {c: v for v, cell in zip(values, cells) for c in cell[0]}
    bottom = min(values)

    def label(codes):
        return own_label(codes, [worth[c] for c in codes], worth[codes[-1]] == bottom, False)
    return cells, label


def _outsider_cells(winner, field, first, qual):
    """A member not in the event: cells by who wins it alone (``SHARED``), the outcomes
    best for the member first, and the words for a group of them."""
    cells = [_cell([field[w] if w >= 0 else SHARED], winner == w, first, qual)
             for w in sorted({int(w) for w in winner})]
    cells.sort(key=lambda c: (-c[2], -c[3]))
    seen = [c for cell in cells for c in cell[0]]
    return cells, lambda codes: winner_label(codes, seen)


def needs(fmt, scn, model, at, *, fixed=None, sims: int = 16_384, seed: int = 1) -> NeedsReport:
    if fixed:
        raise ScenarioError("needs takes no what-if places for a tour (it files simulated "
                            "seasons by the next event's result; swing forces them)",
                            file=scn.file, key="--fix", value="tour")
    plan, ev, lo, hi, final = simulate(scn, model, at, sims, seed)
    n = lo.shape[0]
    nq = plan.args.n_qual
    pname = [p.name for p in scn.players]
    field = [pname[p] for p in ev.field]
    win_alone = (lo == 1) & (hi == 1)
    winner = np.full(n, -1, np.int64)          # listed index of the sole winner, -1 shared
    winner[np.nonzero(win_alone)[0]] = np.nonzero(win_alone)[1]
    item = ItemOdds(ev.name, "event", field,
                    {**{f: float(win_alone[:, i].mean()) for i, f in enumerate(field)},
                     SHARED: float((winner < 0).mean())})
    p_first = (final == 0).mean(axis=0)
    p_qual = (final < nq).mean(axis=0)
    players = []
    for j in sorted(range(len(scn.members)), key=lambda j: (-p_first[j], -p_qual[j])):
        if p_first[j] <= 0 and p_qual[j] <= 0:
            continue
        first, qual = final[:, j] == 0, final[:, j] < nq
        m = scn.members[j]
        if m in ev.field:
            cells, label = _member_cells(scn, ev, ev.field.index(m), lo, hi, first, qual)
            own, other = ev.name, None
        else:
            cells, label = _outsider_cells(winner, field, first, qual)
            own, other = None, ev.name
        merged = _merge(cells)
        if len(merged) == 1:         # nothing in the event moves the member
            label, other = (lambda _: "any place" if own else "whatever happens"), None
        branches = [Branch(label(codes), p, f, q, _se(f, c), _se(q, c), [ev.name],
                           [[x] for x in codes]) for codes, p, f, q, c in merged]
        players.append(PlayerNeeds(plan.info.names[j], float(p_first[j]), float(p_qual[j]),
                                   own, other, branches))
    return NeedsReport(scenario=scn.name, file=scn.file, at=at or "latest", round=ev.name,
                       exact=False, sims=n, seed=seed, qualifying_places=nq, items=[item],
                       players=players, method="conditioned")
