"""Compile a cycle at a checkpoint: each event's own plan (its stage's argument record), the
final's (on the live path: its field changes replica by replica) and the cycle's
:class:`~.nb.CycleArgs`."""

from __future__ import annotations

import re

import numpy as np

from ...enums import CY_LINKS, RR_COUNTER_NAMES
from ...kernels.game_nb import threshold_table_nb
from ..base import CompileOptions, Plan, PlanInfo
from . import rules
from .nb import CycleArgs
from .scenario import BEST, Cycle


def slug(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "_", text.casefold()).strip("_")


def _gs_placeholder(params):
    from ..group_series.nb import GroupSeriesArgs
    i8 = np.int64
    return GroupSeriesArgs(
        params=params, rt=np.zeros((1, 1, 3)), thr=np.zeros((1, 1, 1, 1, 2)), live=False,
        offsets=False, offset_sd=np.zeros(3), steps=np.zeros((4, 3), i8),
        roster=np.zeros((0, 16), i8), draw=np.zeros(0, i8), gm=np.zeros((0, 4, 12, 4), i8),
        grp_fixed=np.zeros((0, 4), i8), grp_gp=np.zeros((0, 4, 4), i8),
        ko_stat=np.zeros((0, 3), i8), ko_win=np.zeros((0, 3), i8), ko_step=np.zeros((0, 3), i8),
        ko_cls=np.zeros((0, 3, 4), i8), ko_white=np.zeros((0, 3), i8),
        ko_fixed=np.zeros((0, 3, 2), i8), gp6=np.zeros(4, i8),
        ko_gp6=0, win_gp6=0, prize_rates=np.zeros(3), places_mode=0, reduced_mode=0,
        ko_lots=False, eligible=np.zeros(1, np.bool_), criteria=np.zeros(0, i8),
        key_base=np.zeros(0, i8), n_qual=0)


def _ko_placeholder(params):
    """A ``KnockoutArgs`` of the same numba type as a real one (so a cycle without a knock-out
    series runs the same kernel specialisation); no event, no player."""
    from ..knockout_series.nb import KnockoutArgs
    i8 = np.int64
    z1, z2, z3 = np.zeros(1, i8), np.zeros((1, 1), i8), np.zeros((1, 1, 2), i8)
    return KnockoutArgs(
        params=params, rt=np.zeros((1, 1, 3)), thr=np.zeros((0, 0, 0, 0, 2)), live=False,
        offsets=False, offset_sd=np.zeros(3), steps=np.zeros((1, 3), i8), ev_size=z1,
        ev_rounds=z1.copy(), pos=np.full((1, 2), -1, i8), kstat=z2, kwin=z2.copy(),
        kstep=z2.copy(), kcls=z3, kwhite=z2.copy(), kfixed=np.full((1, 1, 1), -1, i8),
        place_pts=z1.copy(), place_prize=np.zeros(1), bonus=0, overall=np.zeros(0), n_paid=0,
        criteria=np.zeros(0, i8), n_packed=0, key_base=np.zeros(0, i8), plan_index=np.zeros(0, i8),
        pos_plan=np.zeros((1, 2), i8), qual_else=np.zeros(0, i8), n_qual=0, n_matches=0, fast=False)


def _padded(maps):
    """The lists of ``maps`` as the rows of an int64 matrix, padded with -1."""
    width = max((len(m) for m in maps), default=1)
    out = np.full((len(maps), width), -1, np.int64)
    for e, m in enumerate(maps):
        out[e, :len(m)] = m
    return out


# an event's format -> its kind code (``CycleArgs.ev_kind``); any other is a knock-out series
_EVENT_KIND = {"round-robin": 0, "group-series": 1}


class CyclePlan(Plan):
    def __init__(self, scn: Cycle, model, opts: CompileOptions):
        ev_at, fin_at = rules.part_at(scn, opts.at)
        pool = {p.name: i for i, p in enumerate(scn.players)}
        P = len(scn.players)
        fixed = [{pk: v for (i, pk), v in opts.fixed.items() if i == k}
                 for k in range(len(scn.events) + 1)]     # each part's own what-ifs
        (rrs, gss, kos), kinds, slots, maps = self._compile_events(scn, model, opts, ev_at,
                                                                   fixed, pool)
        fmodel = model.for_kind(scn.final.scn.kind)
        fplan = scn.final.fmt.compile(scn.final.scn, fmodel,
                                      CompileOptions(at=fin_at, offsets=opts.offsets,
                                                     hot=opts.hot, fixed=fixed[-1]))
        # the final's games read their thresholds by player id from the pool's table (CycleArgs
        # .thr), unless offsets, hot Elo or a parameter draw move them inside a replica (the
        # live path)
        live = bool(fplan.args.offsets or np.any(fplan.args.hot_k != 0.0)
                    or fplan.args.draw_factor.shape[0] > 0)
        fa = fplan.args._replace(live=live, thr=np.zeros((0, 0, 0, 0, 2)),
                                 gthr=np.zeros((0, 2)))
        n = len(scn.final.scn.players)
        fin_slot, pool_rt = self._pool_ratings(scn, pool, fmodel, fa)
        gone = rules.withdrawn(scn, opts.at)
        ev_map = _padded(maps)
        thr = (np.zeros((0, 0, 0, 2)) if live else np.ascontiguousarray(
            threshold_table_nb(fa.params, pool_rt)[:, fa.game_ci]))
        c = self._cycle_args(scn, gone, ev_map, kinds, slots, fin_slot, pool_rt, thr)
        self.rrs = (tuple(rrs) + (fa, fa))[:2]
        self.ga = gss[0] if gss else _gs_placeholder(fa.params)
        self.ka = kos[0] if kos else _ko_placeholder(fa.params)
        self.n_rr, self.n_gs, self.n_ko = len(rrs), len(gss), len(kos)
        self.fa, self.c = fa, c
        self.info = PlanInfo(
            names=tuple(p.name for p in scn.players),
            ratings=np.array([p.ratings.get("classical", 0.0) for p in scn.players], float),
            n_places=n, points_scale=2.0, qualifying_places=len(scn.seats),
            points_label=f"points in the {scn.final.id}", currency=fplan.info.currency,
            counter_names=tuple(f"{scn.final.id}: {x}" for x in RR_COUNTER_NAMES),
            extra_probabilities=tuple(f"seat_{slug(s.id)}" for s in scn.seats)
            + tuple(f"via_{slug(x)}" for x in self.paths),
            player_extra=tuple({"withdrawn": i in gone} for i in range(P)),
            field_measures=True)

    def _compile_events(self, scn, model, opts, ev_at, fixed, pool):
        """Compile each event at its checkpoint: (its argument records by kind (round robin,
        group series, knock-out series), each event's kind code (``CycleArgs.ev_kind``), its
        index among its kind, its players' pool indices)."""
        by_kind: tuple[list, list, list] = ([], [], [])
        kinds, slots, maps = [], [], []
        for k, (part, at) in enumerate(zip(scn.events, ev_at)):
            plan = part.fmt.compile(part.scn, model.for_kind(part.scn.kind),
                                    CompileOptions(at=at, offsets=opts.offsets, fixed=fixed[k]))
            maps.append([self._pool_index(scn, pool, nm) for nm in plan.info.names])
            kind = _EVENT_KIND.get(part.fmt.name, 2)
            kinds.append(kind)
            slots.append(len(by_kind[kind]))
            by_kind[kind].append(plan.args)
        return by_kind, kinds, slots, maps

    def _pool_ratings(self, scn, pool, fmodel, fa):
        """(each pool player's index in the final's field or -1, [segment, pool player, class]
        ratings at the final's control: the final's own for its field, the player's list
        otherwise)."""
        P = len(scn.players)
        fin_slot = np.full(P, -1, np.int64)
        pool_rt = np.zeros((fa.rt.shape[0], P, 3))
        for i, p in enumerate(scn.players):   # players no seat can take have no rating
            if p.ratings:
                pool_rt[:, i, :] = fmodel.rating_table([p.ratings])[0]
        for k, p in enumerate(scn.final.scn.players):
            i = self._pool_index(scn, pool, p.name)
            fin_slot[i] = k
            pool_rt[:, i, :] = fa.rt[:, k, :]
        return fin_slot, pool_rt

    @staticmethod
    def _pool_index(scn, pool, name) -> int:
        if name in pool:
            return pool[name]
        key = name.strip().casefold()
        for i, p in enumerate(scn.players):
            if key in (a.strip().casefold() for a in (p.name, *p.aliases)):
                return i
        raise KeyError(name)

    def _cycle_args(self, scn, gone, ev_map, kinds, slots, fin_slot, pool_rt,
                    thr) -> CycleArgs:
        P = len(scn.players)
        S = len(scn.seats)
        L = max(len(s.links) for s in scn.seats)
        links = np.zeros((S, L, 3), np.int64)
        seat_path = np.zeros((S, L), np.int64)
        among_rows: list[tuple[int, ...]] = []
        paths: list[str] = []
        for s, seat in enumerate(scn.seats):
            for j, lk in enumerate(seat.links):
                a = lk.player if lk.kind == "fixed" else (lk.list if lk.kind == "list"
                                                         else lk.event)
                b = lk.place
                if lk.kind == BEST:
                    b = -1
                    if lk.among:
                        among_rows.append(lk.among)
                        b = len(among_rows) - 1
                links[s, j] = (CY_LINKS[lk.kind], a, b)
                path = rules.link_path(scn, seat, lk)
                if path not in paths:
                    paths.append(path)
                seat_path[s, j] = paths.index(path)
        among = np.zeros((max(len(among_rows), 1), P), np.bool_)
        for r, row in enumerate(among_rows):
            among[r, list(row)] = True
        K = max((len(rl.order) for rl in scn.rating_lists), default=1)
        lists = np.full((max(len(scn.rating_lists), 1), max(K, 1)), -1, np.int64)
        for r, rl in enumerate(scn.rating_lists):
            lists[r, :len(rl.order)] = rl.order
        self.paths = tuple(paths)
        return CycleArgs(links=links, among=among, lists=lists,
                         avail=np.array([i not in gone for i in range(P)], np.bool_),
                         ev_map=ev_map, ev_kind=np.array(kinds, np.int64),
                         ev_slot=np.array(slots, np.int64), fin_slot=fin_slot,
                         pool_rt=pool_rt, thr=thr, seat_path=seat_path, n_paths=len(paths))

    def run_batch(self, seed: int, first: int, n: int) -> dict:
        return self.run_chunks(seed, first, n).summed()

    def run_chunks(self, seed: int, first: int, n: int):
        """The replicas' tallies per chunk (``driver.ChunkTallies``: ``needs`` takes its
        standard errors from them)."""
        from ...driver import ChunkTallies
        from .nb import simulate_nb

        t = ChunkTallies(n, self.info)
        simulate_nb(np.uint64(seed), np.int64(first), np.int64(n), self.rrs[0], self.rrs[1],
                    np.int64(self.n_rr), self.ga, np.int64(self.n_gs), self.ka,
                    np.int64(self.n_ko), self.fa, self.c, t.out)
        return t
