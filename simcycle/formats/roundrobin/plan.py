"""Compile a round-robin scenario at a checkpoint into the arrays of ``nb.simulate_nb``."""

from __future__ import annotations

import numpy as np

from ...enums import (BLACK_WINS, COLOURS_SCHEDULED, DRAW, PLAYOFF_KINDS, RATING_CLASSES,
                      RK_NONE, RK_PLAYED, RR_COUNTER_NAMES, RR_CRITERIA, TBS_LOTS, WHITE_WINS)
from ...kernels.game_nb import threshold_table_nb
from ..base import CompileOptions, Plan, PlanInfo
from .nb import PRIZE_BY_ORDER, PRIZE_BY_POINTS, RoundRobinArgs
from .rules import SCORE, columns, split_games
from .scenario import RoundRobin


def rating_table(scn: RoundRobin, model) -> np.ndarray:
    """float64 [segments, players, 3]: the ratings each player brings to a game of each rating
    class, per rating list (segment)."""
    return np.stack([model.rating_table(list(lst)) for _, lst in scn.rating_lists])


class KernelCrosstable:
    """The crosstable arrays of the kernels (``nb.RoundRobinArgs``, ``nb.whocan_enumerate_nb``)
    from ``rules.columns``: opp, colour, kind int64 [n, width] (kind: every scheduled game
    ``RK_PLAYED``, as they all are when the kernels rank), res int64 [n, width] (the half
    points of the games ``played``), pts int64 [n] (their points), rating int64 [n] (the
    start list's classical ratings: the average-rating criteria) and the columns of each
    remaining game in White's and Black's rows (gsw, gsb int64 [m])."""

    def __init__(self, scn: RoundRobin, played, remaining):
        cols = columns(scn)
        n = len(scn.players)
        w = max(cols.width, 1)
        self.opp = np.full((n, w), -1, np.int64)
        self.opp[:, :cols.width] = np.array(cols.opp, np.int64).reshape(n, cols.width)
        self.colour = np.zeros((n, w), np.int64)
        self.colour[:, :cols.width] = np.array(cols.colour, np.int64).reshape(n, cols.width)
        self.kind = np.where(self.opp >= 0, RK_PLAYED, RK_NONE).astype(np.int64)
        self.res = np.zeros((n, w), np.int64)
        for g in played:
            cw, cb = cols.of[(g.round, g.white, g.black)]
            self.res[g.white, cw], self.res[g.black, cb] = SCORE[g.result]
        at = [cols.of[(g.round, g.white, g.black)] for g in remaining]
        self.gsw = np.array([c[0] for c in at], np.int64)
        self.gsb = np.array([c[1] for c in at], np.int64)
        self.pts = self.res.sum(axis=1)
        self.rating = np.array([round(float(r["classical"])) for r in scn.rating_lists[0][1]],
                               np.int64)

    def crosstable(self):
        """The ``criteria_nb.Crosstable`` of the games played (no byes: adj = pts)."""
        from ...kernels.criteria_nb import Crosstable

        return Crosstable(self.opp, self.res, self.kind, self.colour, self.pts, self.pts,
                          self.rating)


# thresholds (white wins below the first, draw below the second) that make a uniform in [0, 1)
# give one result: a game forced to that result while its number is still drawn
FORCED_THRESHOLDS = {WHITE_WINS: (2.0, 2.0), DRAW: (-1.0, 2.0), BLACK_WINS: (-1.0, -1.0)}


def _game_columns(scn: RoundRobin, remaining) -> tuple:
    """The games still to play as columns: White, Black, the rating segment of their round."""
    gw = np.array([g.white for g in remaining], np.int64)
    gb = np.array([g.black for g in remaining], np.int64)
    gseg = np.array([scn.segment_of(g.round) for g in remaining], np.int64)
    return gw, gb, gseg


def _criteria(order) -> list[int]:
    """The tie-break criteria's codes in the scenario's order, lots last (a run always ends
    in a strict order)."""
    criteria = [RR_CRITERIA[c] for c in order]
    if TBS_LOTS not in criteria:
        criteria.append(TBS_LOTS)
    return criteria


def _playoff_table(scn: RoundRobin, model) -> np.ndarray:
    """[stage, option, 4] int64: each play-off stage's options as (least players tied, most,
    play-off kind code, control index in the model)."""
    n_opt = max((len(s.options) for s in scn.stages), default=1)
    stages = np.zeros((len(scn.stages), n_opt, 4), np.int64)
    for s, stage in enumerate(scn.stages):
        for o, (lo, hi, kind, ctl) in enumerate(stage.options):
            stages[s, o] = (lo, hi, PLAYOFF_KINDS[kind],
                            model.index(ctl, file=scn.file,
                                        key=f"tiebreak.playoff[{s}][{o}].control"))
    return stages


class RoundRobinPlan(Plan):
    def __init__(self, scn: RoundRobin, model, opts: CompileOptions):
        n = len(scn.players)
        played, remaining = split_games(scn, opts.at, opts.fixed)
        xt = KernelCrosstable(scn, played, remaining)
        rt = rating_table(scn, model)
        live = bool(opts.offsets or opts.hot or opts.param_draw)
        thr = np.zeros((0, 0, 0, 0, 2)) if live else threshold_table_nb(model.params, rt)
        game_ci = model.index(scn.control, file=scn.file, key="event.control")
        gw, gb, gseg = _game_columns(scn, remaining)
        gthr = np.zeros((0, 2)) if live else np.ascontiguousarray(thr[gseg, game_ci, gw, gb])
        criteria = _criteria(scn.order)
        stages = _playoff_table(scn, model)
        place_prize = np.zeros(n)
        place_prize[: len(scn.prize_places)] = scn.prize_places
        hot_k = np.array([model.hot_k[c] if opts.hot else 0.0 for c in RATING_CLASSES])
        draw_factor = (model.draw_factor(scn.control) if opts.param_draw
                       else np.zeros((0, 0)))
        self.args = RoundRobinArgs(
            params=model.params, rt=rt, thr=thr, live=live, offsets=bool(opts.offsets),
            offset_sd=np.array([model.offset_sd[c] for c in RATING_CLASSES]),
            hot_k=hot_k, draw_factor=draw_factor,
            base_pts=xt.pts, base_res=xt.res, opp=xt.opp, kind=xt.kind, colour=xt.colour,
            rating=xt.rating,
            gw=gw, gb=gb, gsw=xt.gsw, gsb=xt.gsb, gseg=gseg, gthr=gthr,
            game_ci=game_ci,
            criteria=np.array(criteria, np.int64),
            stages=stages,
            playoff_seg=len(scn.rating_lists) - 1,
            # a play-off already played after the last round decides first place
            forced_first=(scn.playoff_winner if scn.playoff_winner is not None and not remaining
                          else -1),
            qualified=(np.arange(n) < scn.qualifying_places).astype(np.int64),
            n_qual=scn.qualifying_places,
            place_prize=place_prize,
            per_half=float(scn.per_half_point),
            prize_split=PRIZE_BY_POINTS if scn.prize_split == "points" else PRIZE_BY_ORDER,
            colours=COLOURS_SCHEDULED,
        )
        self.info = PlanInfo(
            names=tuple(scn.names), ratings=rt[-1, :, 0].copy(), n_places=n, points_scale=2.0,
            qualifying_places=scn.qualifying_places, currency=scn.currency,
            counter_names=RR_COUNTER_NAMES)
        self.remaining = remaining

    def forcing(self, game: tuple[int, int, int], result: int) -> "RoundRobinPlan":
        """This plan with the remaining game ``game`` (round, white, black) forced to
        ``result`` while its random number is still drawn: every other game of a replica sees
        the same numbers as in this plan (``swing``'s common random numbers).  The fast path
        only (thresholds from the table; not with offsets or hot Elo)."""
        import copy

        if self.args.live:
            raise ValueError("forcing needs the fast path (no offsets, no hot Elo)")
        q = next(i for i, g in enumerate(self.remaining) if (g.round, g.white, g.black) == game)
        gthr = self.args.gthr.copy()
        gthr[q] = FORCED_THRESHOLDS[result]
        out = copy.copy(self)
        out.args = self.args._replace(gthr=gthr)
        return out

    def run_batch(self, seed: int, first: int, n: int) -> dict:
        return self.run_chunks(seed, first, n).summed()

    def run_chunks(self, seed: int, first: int, n: int):
        from ...driver import ChunkTallies
        from .nb import simulate_nb

        t = ChunkTallies(n, self.info)
        simulate_nb(np.uint64(seed), np.int64(first), np.int64(n), self.args, t.out)
        return t
