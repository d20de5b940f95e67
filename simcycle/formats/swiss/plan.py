"""Compile a Swiss scenario at a checkpoint into the arguments of ``nb.simulate_nb``."""

from __future__ import annotations

import numpy as np

from ...enums import BLACK_WINS, Q_LOTS, Q_TIEBREAK, RK_FORFEIT_WIN, RK_PLAYED, TBS_LOTS, UNPLAYED
from ...kernels.game_nb import threshold_table_nb
from ..base import CompileOptions, Plan, PlanInfo
from . import rules
from .nb import SwissArgs
from .scenario import Swiss

TOP = 10
# replicas per driver batch: a whole 116-player event costs about 2 ms of CPU
# (benchmarks/README.md), so the default 65,536 would mean a minute or more between progress
# updates and Ctrl-C checks; 1,024 is two chunks (both threads busy) and about a second a batch
SWISS_BATCH = 1024
COUNTER_NAMES = (Q_TIEBREAK, Q_LOTS)


def virtual_points(scn: Swiss) -> np.ndarray:
    """int64 [R, n]: virtual half points for pairing.  Baku acceleration (C.04.5 as this
    format reads it): group A, the top 2 x ceil(n / 4) pairing numbers, get a virtual point
    in the first ceil(ceil(R / 2) / 2) rounds and half a point in the rest of the first
    ceil(R / 2) rounds; nobody else, and no one afterwards."""
    n, R = len(scn.players), scn.n_rounds
    v = np.zeros((R, n), np.int64)
    if scn.acceleration == "baku":
        ga = min(n, 2 * ((n + 3) // 4))
        half = (R + 1) // 2
        full = (half + 1) // 2
        v[:full, :ga] = 2
        v[full:half, :ga] = 1
    return v


def game_thresholds(scn: Swiss, model) -> np.ndarray:
    """float64 [n, n, 2]: (P White wins, P White wins or draws) of every pair at the event's
    control, from the outcome model."""
    rt = model.rating_table([{"classical": p.rating} for p in scn.players])[None]
    ci = model.index(scn.control, file=scn.file, key="event.control")
    return np.ascontiguousarray(threshold_table_nb(model.params, rt)[0, ci])


def next_round(scn: Swiss, start: int, fixed=None):
    """The published boards of round start+1 (1-based), as the kernel's fixed arrays; its
    results count only when ``fixed`` (what-ifs) or the file give them and ``use_results``."""
    games = [g for g in scn.games if g.round == start + 1]
    byes = [b for b in scn.byes if b.round == start + 1]
    fw, fb, fres, fkind = [], [], [], []
    for g in games:
        fw.append(g.black if g.forfeit and g.result == BLACK_WINS else g.white)
        fb.append(g.white if g.forfeit and g.result == BLACK_WINS else g.black)
        res = (fixed or {}).get((g.round, g.white, g.black), -1)
        fres.append(res)
        fkind.append(RK_PLAYED)
        if g.forfeit:
            fres[-1] = 0
            fkind[-1] = RK_FORFEIT_WIN
    for b in byes:
        fw.append(b.player)
        fb.append(-1)
        fres.append(rules.bye_points(scn, b.kind))
        fkind.append(b.kind)
    return [np.array(x, np.int64) for x in (fw, fb, fres, fkind)]


class SwissPlan(Plan):
    def __init__(self, scn: Swiss, model, opts: CompileOptions):
        n = len(scn.players)
        start = rules.last_round(scn, opts.at)
        t = rules.crosstable(scn, start)
        fixed = dict(opts.fixed)
        if opts.at is None:   # the latest: the next round's results known so far count
            for g in scn.games:
                if g.round == start + 1 and g.result != UNPLAYED:
                    fixed.setdefault((g.round, g.white, g.black), g.result)
        fw, fb, fres, fkind = (next_round(scn, start, fixed) if start < scn.n_rounds
                               else [np.zeros(0, np.int64)] * 4)
        crit = []
        for c in scn.criteria:
            if c == TBS_LOTS:
                break
            crit.append(c)
        place_prize = np.zeros(n)
        place_prize[: len(scn.prize_places)] = scn.prize_places
        self.args = SwissArgs(
            gthr=game_thresholds(scn, model), base_opp=t.opp, base_res=t.res,
            base_kind=t.kind, base_colour=t.colour, rating=t.rating, start=start,
            fixed_w=fw, fixed_b=fb, fixed_res=fres, fixed_kind=fkind, n_rounds=scn.n_rounds,
            virtual=virtual_points(scn), init=scn.initial_colour, pab=scn.pab_points,
            criteria=np.array(crit, np.int64),
            qualified=np.array([int(p.qualified) for p in scn.players], np.int64),
            n_qual=scn.qualifying_places, pass_down=scn.pass_down, place_prize=place_prize,
            by_points=scn.prize_split == "points", top=min(TOP, n))
        self.info = PlanInfo(
            names=tuple(scn.names), ratings=np.array([p.rating for p in scn.players]),
            n_places=n, points_scale=2.0, qualifying_places=scn.qualifying_places,
            currency=scn.currency, counter_names=COUNTER_NAMES,
            extra_probabilities=(f"top{min(TOP, n)}",),
            batch=SWISS_BATCH)

    def run_chunks(self, seed: int, first: int, n: int):
        from ...driver import ChunkTallies
        from .nb import simulate_nb

        t = ChunkTallies(n, self.info)
        simulate_nb(np.uint64(seed), np.int64(first), np.int64(n), self.args, t.out)
        return t

    def run_batch(self, seed: int, first: int, n: int) -> dict:
        return self.run_chunks(seed, first, n).summed()
