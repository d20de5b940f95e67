"""Compile a group-series scenario at a checkpoint into the arrays of ``nb.simulate_nb``.

``CompileOptions.fixed`` (what-ifs, ``swing``) takes three kinds of keys: (event, group,
game index) -> a result code for a group game still to play; (event, "sf1" | "sf2" |
"final") -> a ``Match`` (a knock-out what-if, read by ``rules.state`` as played); and (event,
knock-out index 0-2) -> (classical codes from the leading player's side, leading player
wins?) for a match still to play whose players are known (``swing``'s six results).
"""

from __future__ import annotations

import numpy as np

from ...enums import (BLACK_WINS, DRAW_BASKETS, DRAW_FIXED, DRAW_LOTS, GS_COUNTER_NAMES,
                      KO_DECIDED, KO_IN_PROGRESS, KO_OPEN, PLACES_ELIMINATION, PLACES_FIRST_ONLY,
                      RATING_CLASSES, REDUCED_NEXT_STEP, REDUCED_RESTART, SER_CLASSICAL,
                      SER_CLASSICAL_WINS, SER_EVENTS_WON, SER_SECOND, SERIES_CRITERIA,
                      UNKNOWN_TB_STEP, UNPLAYED, WHITE_WINS)
from ...driver import ChunkTallies
from ...kernels import keys
from ...kernels.game_nb import threshold_table_nb
from ..base import CompileOptions, Plan, PlanInfo
from .nb import GroupSeriesArgs, simulate_nb
from .rules import (POINT, EventState, criteria, draw_order, eligible, event_ratings,
                    group_places, knockout_pairs, knockout_steps, schedule, snake,
                    state)
from .schema import KO_ROUNDS
from .scenario import GroupSeries

PLACES_MODE = {"elimination": PLACES_ELIMINATION, "first-only": PLACES_FIRST_ONLY}
REDUCED_MODE = {"next-step": REDUCED_NEXT_STEP, "restart": REDUCED_RESTART}


def match_steps(scn: GroupSeries, model) -> np.ndarray:
    """int64 [4, 3]: ``rules.knockout_steps`` as (kind, control row, games) for the kernel."""
    return np.array([[s.kind, model.index(s.control, file=scn.file, key=f"controls.{s.name}"),
                      s.games] for s in knockout_steps(scn)], np.int64)


def rating_table(scn: GroupSeries, model) -> np.ndarray:
    """float64 [events, players, 3]: each player's ratings by class at each event."""
    return np.stack([model.rating_table(event_ratings(scn, e)) for e in range(len(scn.events))])


class _Arrays:
    """The per-event arrays of the plan, filled event by event."""

    def __init__(self, n_ev: int):
        self.roster = np.zeros((n_ev, 16), np.int64)
        self.draw = np.zeros(n_ev, np.int64)
        self.gm = np.zeros((n_ev, 4, 12, 4), np.int64)
        self.grp_fixed = np.full((n_ev, 4), -1, np.int64)
        self.grp_gp = np.zeros((n_ev, 4, 4), np.int64)
        self.ko_fixed = np.full((n_ev, 3, 2), UNPLAYED, np.int64)
        self.ko_win = np.full((n_ev, 3), -1, np.int64)

    def bracket(self, ko_lots: bool) -> dict:
        """The knock-out's rows for ``bracket_nb.walk_nb`` (the ``GroupSeriesArgs`` fields
        ko_stat, ko_step, ko_cls, ko_white; row = event) from the known games ``ko_fixed`` and
        winners ``ko_win`` (leading player's side = the bracket's upper player)."""
        fx = self.ko_fixed
        known = fx != UNPLAYED
        decided = self.ko_win >= 0
        stat = np.where(decided, KO_DECIDED,
                        np.where(known.any(axis=2), KO_IN_PROGRESS, KO_OPEN)).astype(np.int64)
        cls = np.zeros(fx.shape[:2] + (4,), np.int64)
        cls[..., 0] = (known * (2 - fx)).sum(axis=2)     # WHITE_WINS 0, DRAW 1, BLACK_WINS 2
        cls[..., 1] = (known * fx).sum(axis=2)
        cls[..., 2] = (fx == WHITE_WINS).sum(axis=2)
        cls[..., 3] = (fx == BLACK_WINS).sum(axis=2)
        cls[~decided] = 0
        by_games = known.all(axis=2) & (cls[..., 0] != cls[..., 1])
        step = np.where(decided & ~by_games, UNKNOWN_TB_STEP, 0).astype(np.int64)
        white = np.full(fx.shape[:2], -1 if ko_lots else 0, np.int64)
        return {"ko_stat": stat, "ko_step": step, "ko_cls": cls, "ko_white": white}


def _known_event(x: _Arrays, e: int, st: EventState, gp6, fixed) -> None:
    """An event whose groups are drawn: its groups, games, known places and matches."""
    for g, gr in enumerate(st.groups):
        x.roster[e, 4 * g:4 * g + 4] = gr.players
        slot = {p: s for s, p in enumerate(gr.players)}
        for j, (rd, w, b, r) in enumerate(gr.games):
            if r < 0 and (e, g, j) in fixed:
                r = fixed[(e, g, j)]
            x.gm[e, g, j] = (rd, slot[w], slot[b], r)
        pl = group_places(gr, gp6) if st.playoff_known[g] or gr.playoff is None else None
        if pl is not None:
            x.grp_fixed[e, g] = pl.index(gp6[0])
            x.grp_gp[e, g] = pl
    _known_matches(x, e, st, gp6, fixed)


def _known_matches(x: _Arrays, e: int, st: EventState, gp6, fixed) -> None:
    """The knock-out matches of a drawn event: known results (and knock-out what-ifs, which
    ``state`` counts as known), then swing's outcomes."""
    lead_of = {rd: lead for rd, lead, _ in knockout_pairs(st, gp6)}
    for m_i, rd in enumerate(KO_ROUNDS):
        m = st.ko.get(rd)
        if m is None:
            continue
        lead = lead_of[rd]
        flip = m.a != lead
        x.ko_fixed[e, m_i] = [(2 - c) if flip else c for c in m.classical]
        x.ko_win[e, m_i] = 0 if m.winner == lead else 1
    for m_i in range(len(KO_ROUNDS)):
        if (e, m_i) in fixed and x.ko_win[e, m_i] < 0:
            codes, lead_wins = fixed[(e, m_i)]
            x.ko_fixed[e, m_i] = codes
            x.ko_win[e, m_i] = 0 if lead_wins else 1


def _undrawn_event(x: _Arrays, scn: GroupSeries, e: int, sched) -> None:
    """An event whose groups are still to be drawn by the rule: the roster by rating."""
    order = draw_order(scn, e)
    rule = scn.rules["draw_rule"]
    if rule == "snake":
        x.roster[e] = [p for g in snake(order) for p in g]
        x.draw[e] = DRAW_FIXED
    else:
        x.roster[e] = order
        x.draw[e] = DRAW_BASKETS if rule == "baskets" else DRAW_LOTS
    for g in range(4):
        for j, (rd, ws, bs) in enumerate(sched):
            x.gm[e, g, j] = (rd, ws, bs, UNPLAYED)


def key_bases(scn: GroupSeries, gp6: list[int]) -> np.ndarray:
    """int64 [criteria]: each series criterion's base in the one sort key (``kernels/keys``:
    its largest value + 1, the key's width checked).  A player plays at most 6 group games
    and 2 knock-out matches of ``steps[0]``'s classical games per event."""
    n_ev = len(scn.events)
    games = 6 + 2 * knockout_steps(scn)[0].games
    top = {SER_EVENTS_WON: n_ev, SER_SECOND: n_ev, SER_CLASSICAL: 2 * games * n_ev,
           SER_CLASSICAL_WINS: games * n_ev}
    pts = n_ev * (max(gp6) + 2 * POINT * scn.ko_points + POINT * scn.win_points * games)
    return keys.bases([pts] + [top[SERIES_CRITERIA[c]] for c in criteria(scn)])


def build_args(scn: GroupSeries, model, opts: CompileOptions) -> GroupSeriesArgs:
    fixed = dict(opts.fixed or {})
    rt = rating_table(scn, model)
    live = bool(opts.offsets)
    thr = np.zeros((0, 0, 0, 0, 2)) if live else threshold_table_nb(model.params, rt)
    gp6 = [POINT * v for v in scn.group_points]
    x = _Arrays(len(scn.events))
    sched = schedule(scn.rules["schedule"])
    for e, st in enumerate(state(scn, opts.at, fixed)):
        if st.groups_known:
            _known_event(x, e, st, gp6, fixed)
        else:
            _undrawn_event(x, scn, e, sched)
    pr = scn.prizes
    ko_lots = scn.rules["knockout_colours"] == "lots"
    return GroupSeriesArgs(
        params=model.params, rt=rt, thr=thr, live=live, offsets=bool(opts.offsets),
        offset_sd=np.array([model.offset_sd[c] for c in RATING_CLASSES]),
        steps=match_steps(scn, model), roster=x.roster, draw=x.draw, gm=x.gm,
        grp_fixed=x.grp_fixed, grp_gp=x.grp_gp, ko_fixed=x.ko_fixed, ko_win=x.ko_win,
        **x.bracket(ko_lots),
        gp6=np.array(gp6, np.int64), ko_gp6=POINT * scn.ko_points,
        win_gp6=POINT * scn.win_points,
        prize_rates=np.array([pr["per_player"], pr["per_group_point"],
                              pr["per_knockout_point"]]),
        places_mode=PLACES_MODE[scn.rules["playoff_places"]],
        reduced_mode=REDUCED_MODE[scn.rules["reduced_tie"]],
        ko_lots=ko_lots,
        eligible=np.array(eligible(scn), np.bool_),
        criteria=np.array([SERIES_CRITERIA[c] for c in criteria(scn)], np.int64),
        key_base=key_bases(scn, gp6), n_qual=scn.qualifying_places)


class GroupSeriesPlan(Plan):
    def __init__(self, scn: GroupSeries, model, opts: CompileOptions):
        self.args = build_args(scn, model, opts)
        el = self.args.eligible
        extra = tuple({"events": [e + 1 for e, ev in enumerate(scn.events) if p in ev.roster],
                       "eligible": bool(el[p])} for p in range(len(scn.players)))
        self.info = PlanInfo(
            names=tuple(scn.names), ratings=np.array([p.rating for p in scn.players], float),
            n_places=int(el.sum()), points_scale=float(POINT), points_label="GP points",
            qualifying_places=scn.qualifying_places, currency=scn.currency,
            counter_names=GS_COUNTER_NAMES, player_extra=extra,
            active=tuple(bool(x["events"]) for x in extra))

    def run_batch(self, seed: int, first: int, n: int) -> dict:
        return self.run_chunks(seed, first, n).summed()

    def run_chunks(self, seed: int, first: int, n: int) -> ChunkTallies:
        t = ChunkTallies(n, self.info)
        simulate_nb(np.uint64(seed), np.int64(first), np.int64(n), self.args, t.out)
        return t
