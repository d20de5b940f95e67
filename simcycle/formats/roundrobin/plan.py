"""Compile a round-robin scenario at a checkpoint into the arrays of ``nb.simulate_nb``."""

from __future__ import annotations

import numpy as np

from ...enums import (BLACK_WINS, DRAW, PLAYOFF_KINDS, RATING_CLASSES, RR_COUNTER_NAMES,
                      RR_CRITERIA, TB_LOTS, WHITE_WINS)
from ...kernels.game_nb import threshold_table_nb
from ..base import CompileOptions, Plan, PlanInfo
from .nb import PRIZE_BY_ORDER, PRIZE_BY_POINTS, RoundRobinArgs
from .rules import split_games, tally
from .scenario import RoundRobin


def rating_table(scn: RoundRobin, model) -> np.ndarray:
    """float64 [segments, players, 3]: the ratings each player brings to a game of each rating
    class, per rating list (segment)."""
    return np.stack([model.rating_table(list(lst)) for _, lst in scn.rating_lists])


# thresholds (white wins below the first, draw below the second) that make a uniform in [0, 1)
# give one result: a game forced to that result while its number is still drawn
FORCED_THRESHOLDS = {WHITE_WINS: (2.0, 2.0), DRAW: (-1.0, 2.0), BLACK_WINS: (-1.0, -1.0)}


class RoundRobinPlan(Plan):
    def __init__(self, scn: RoundRobin, model, opts: CompileOptions):
        n = len(scn.players)
        played, remaining = split_games(scn, opts.at, opts.fixed)
        pts, wins, res = tally(n, played)
        rt = rating_table(scn, model)
        live = bool(opts.offsets or opts.hot or opts.param_draw)
        thr = np.zeros((0, 0, 0, 0, 2)) if live else threshold_table_nb(model.params, rt)
        game_ci = model.index(scn.control, file=scn.file, key="event.control")
        gw = np.array([g.white for g in remaining], np.int64)
        gb = np.array([g.black for g in remaining], np.int64)
        gseg = np.array([scn.segment_of(g.round) for g in remaining], np.int64)
        gthr = np.zeros((0, 2)) if live else np.ascontiguousarray(thr[gseg, game_ci, gw, gb])
        criteria = [RR_CRITERIA[c] for c in scn.order]
        if TB_LOTS not in criteria:     # a run always ends in a strict order
            criteria.append(TB_LOTS)
        n_opt = max((len(s.options) for s in scn.stages), default=1)
        stages = np.zeros((len(scn.stages), n_opt, 4), np.int64)
        for s, stage in enumerate(scn.stages):
            for o, (lo, hi, kind, ctl) in enumerate(stage.options):
                stages[s, o] = (lo, hi, PLAYOFF_KINDS[kind],
                                model.index(ctl, file=scn.file,
                                            key=f"tiebreak.playoff[{s}][{o}].control"))
        place_prize = np.zeros(n)
        place_prize[: len(scn.prize_places)] = scn.prize_places
        hot_k = np.array([model.hot_k[c] if opts.hot else 0.0 for c in RATING_CLASSES])
        draw_factor = (model.draw_factor(scn.control) if opts.param_draw
                       else np.zeros((0, 0)))
        self.args = RoundRobinArgs(
            params=model.params, rt=rt, thr=thr, live=live, offsets=bool(opts.offsets),
            offset_sd=np.array([model.offset_sd[c] for c in RATING_CLASSES]),
            hot_k=hot_k, draw_factor=draw_factor,
            base_pts=np.array(pts, np.int64), base_wins=np.array(wins, np.int64),
            base_res=np.array(res, np.int64).reshape(n, n),
            gw=gw, gb=gb, gseg=gseg, gthr=gthr,
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
