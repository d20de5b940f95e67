"""Compile a tour scenario at a checkpoint into the arrays of ``nb.simulate_nb``, what-if
places included (``whatif.py``); the odds of each event still to play
(``nb.event_odds_nb``)."""

from __future__ import annotations

import numpy as np

from ...enums import (COLOURS_BY_LOT, COLOURS_SCHEDULED, EV_BL, EV_BS, EV_CI, EV_COLOURS,
                      EV_CYCLES, EV_FAST, EV_FL, EV_FS, EV_OPP, EV_PS, EV_ROUNDS, EV_RR, EV_SL,
                      EV_SS, EV_SYS, EV_TS, N_EV_COLS, N_FX_COLS, RATING_CLASSES, SIM_KO,
                      SIM_OPEN, SIM_RR, STEP_ARMAGEDDON, STEP_GAMES)
from ...driver import ChunkTallies
from ...errors import ScenarioError
from ...kernels.game_nb import threshold_table_nb
from ..base import CompileOptions, Plan, PlanInfo
from ..shared.brackets import bracket_size, seeding_order
from .nb import TourArgs, event_odds_nb, fix_hits_nb, simulate_nb
from .rules import (COUNTER_NAMES, UNIT, counted, event_info, event_place_points, played,
                    results_so_far, tables_label)
from .scenario import Event, Tour


class EventRows:
    """The rows of ``TourArgs.ev`` and the flat arrays they point into, event by event."""

    def __init__(self, scn: Tour, model, n_players: int, thr):
        self.scn, self.model, self.thr = scn, model, thr
        self.next_opponent = n_players      # rows of rt after the players: the opponents
        self.rows: list[list[int]] = []
        self.field: list[int] = []
        self.pp: list[int] = []
        self.steps: list[tuple] = []
        self.slots: list[int] = []
        self.games: list[tuple] = []       # (control row, White, Black) of each threshold row
        self.n_rr = 0                        # round robins so far (EV_RR)

    def add(self, ev: Event) -> None:
        row = [0] * N_EV_COLS
        row[EV_SYS] = ev.sim
        row[EV_CYCLES] = ev.cycles
        row[EV_CI] = self.model.index(ev.control, file=self.scn.file, key=f"{ev.key}.control")
        row[EV_ROUNDS] = ev.rounds
        row[EV_OPP] = -1
        if ev.sim == SIM_OPEN:
            row[EV_OPP] = self.next_opponent
            self.next_opponent += 1
        row[EV_TS] = self.add_games(ev, row[EV_CI], row[EV_OPP])
        row[EV_RR] = -1
        if ev.sim == SIM_RR:      # through the round-robin stage (``nb.rr_pack_nb``)
            row[EV_RR] = self.n_rr
            self.n_rr += 1
            # the tour's colours: by lot before each game in a single round robin,
            # alternating by cycle in a double one
            row[EV_COLOURS] = COLOURS_BY_LOT if ev.cycles == 1 else COLOURS_SCHEDULED
        row[EV_FS], row[EV_FL] = len(self.field), len(ev.field)
        self.field.extend(ev.field)
        row[EV_PS] = len(self.pp)
        self.pp.extend(event_place_points(self.scn, ev, len(ev.field)))
        row[EV_SS], row[EV_SL] = len(self.steps), len(ev.steps)
        for s, (kind, ctl, games) in enumerate(ev.steps):
            ci = self.model.index(ctl, file=self.scn.file, key=f"{ev.key}.match[{s}].control")
            self.steps.append((kind, ci, games))
        if ev.sim == SIM_KO:
            row[EV_BS], row[EV_BL] = len(self.slots), bracket_size(len(ev.field))
            # the walk's fast matches (``game_nb.fmatch_nb``: the same draws) over the plan's
            # table: without offsets, and games and Armageddon steps only
            row[EV_FAST] = int(self.thr.shape[0] > 0 and all(
                kind in (STEP_GAMES, STEP_ARMAGEDDON) for kind, _, _ in ev.steps))
            self.slots.extend(s if s < len(ev.field) else -1 for s in seeding_order(row[EV_BL]))
        self.rows.append(row)

    def add_games(self, ev: Event, ci: int, opp: int) -> int:
        """Each game an open can hold, in the kernel's order (its first row; a round robin's
        thresholds are its stage record's, ``nb.rr_event_nb``)."""
        first = len(self.games)
        if ev.sim == SIM_OPEN:      # each listed player White, then Black
            for p in ev.field:
                self.games += [(ci, p, opp), (ci, opp, p)]
        return first

    def arrays(self) -> dict:
        return {"ev": np.array(self.rows, np.int64).reshape(len(self.rows), N_EV_COLS),
                "field": np.array(self.field, np.int64), "pp": np.array(self.pp, np.int64),
                "steps": np.array(self.steps, np.int64).reshape(len(self.steps), 3),
                "slots": np.array(self.slots, np.int64), "gthr": self.thresholds()}

    def thresholds(self) -> np.ndarray:
        """``TourArgs.gthr``: the rows of the shared table ``thr`` for ``games``, in order."""
        if self.thr.shape[0] == 0 or not self.games:
            return np.zeros((0, 2))
        ci, w, b = (np.array(x, np.int64) for x in zip(*self.games))
        return np.ascontiguousarray(self.thr[0, ci, w, b])


def base_results(scn: Tour, done: list[bool]):
    """(counted results so far [members, best_n], how many, facts per member for the
    reports): each member's best-N list from the events played."""
    members = scn.members
    per = results_so_far(scn, done)
    top = np.zeros((len(members), scn.best_n), np.int64)
    cnt = np.zeros(len(members), np.int64)
    extra = []
    for j, m in enumerate(members):
        best = counted([x for x in per[m] if x is not None], scn.best_n)
        top[j, : len(best)] = best
        cnt[j] = len(best)
        extra.append({"counted_now": sum(best) / UNIT, "events_counted_now": len(best),
                      "events_left": sum(1 for k, ev in enumerate(scn.events)
                                         if not done[k] and m in ev.field)})
    return top, cnt, tuple(extra)


def rating_table(scn: Tour, model, remaining: list[Event]) -> np.ndarray:
    """float64 [1, players + opponents, 3]: one segment (the season's ratings); the rows
    after the players are the simulated opponents of the opens still to play, in date order."""
    ratings = [p.ratings for p in scn.players] + [
        {"classical": ev.opponent_rating} for ev in remaining if ev.sim == SIM_OPEN]
    return model.rating_table(ratings)[None]


def fix_arrays(scn: Tour, remaining: list[Event], fixed) -> dict:
    """``TourArgs.fix_start`` and ``fixes`` from what-ifs {(event, player): bounds}
    (``whatif.py``); refused when one names an event that is not still to play."""
    rows: list[list[int]] = []
    start = [0]
    rem = {scn.events.index(ev): e for e, ev in enumerate(remaining)}
    for k, p in fixed:
        if k not in rem:
            from .whatif import describe
            raise ScenarioError("already played at this checkpoint", file=scn.file,
                                key="--fix", value=describe(scn, {(k, p): fixed[k, p]})[0])
    for e, ev in enumerate(remaining):
        k = scn.events.index(ev)
        rows += [[ev.field.index(p), *b] for (k2, p), b in sorted(fixed.items()) if k2 == k]
        start.append(len(rows))
    return {"fix_start": np.array(start, np.int64),
            "fixes": np.array(rows, np.int64).reshape(len(rows), N_FX_COLS)}


def kernel_args(scn: Tour, model, done: list[bool], remaining: list[Event], live: bool,
                fixed=None):
    """(:class:`~.nb.TourArgs`, facts per member for the reports); ``fixed``: what-if places
    (``whatif.py``)."""
    n = len(scn.players)
    members = scn.members
    rt = rating_table(scn, model, remaining)
    thr = np.zeros((0, 0, 0, 0, 2)) if live else threshold_table_nb(model.params, rt)
    table = EventRows(scn, model, n, thr)
    for ev in remaining:
        table.add(ev)
    member_of = np.full(n, -1, np.int64)
    member_of[members] = np.arange(len(members))
    base_top, base_cnt, extra = base_results(scn, done)
    brackets = [bracket_size(len(ev.field)) for ev in remaining if ev.sim == SIM_KO]
    args = TourArgs(
        params=model.params, rt=rt, thr=thr, live=live, offsets=live,
        offset_sd=np.array([model.offset_sd[c] for c in RATING_CLASSES]), n_real=n,
        member_of=member_of, base_top=base_top, base_cnt=base_cnt,
        n_qual=min(scn.qualifying_places, len(members)),
        share_lots=scn.shared_places == "lots",
        max_field=max([len(ev.field) for ev in scn.events] + [2]),
        max_bracket=max([2, *brackets]), **table.arrays(),
        **fix_arrays(scn, remaining, fixed or {}))
    return args, extra


# plays of an event alone that must see its what-ifs hold at least once (seed FIX_CHECK_SEED)
FIX_CHECK_SIMS = 20_000
FIX_CHECK_SEED = 1


def check_fixes(scn: Tour, remaining: list[Event], args: TourArgs, fixed) -> None:
    """Refuse, in one line, the what-ifs of an event that never held in ``FIX_CHECK_SIMS``
    plays of it alone (places no play can give together, or too rare to simulate by replaying
    the event: ``nb.replay_fixed_event_nb``)."""
    from .whatif import describe

    for e, ev in enumerate(remaining):
        if args.fix_start[e + 1] == args.fix_start[e]:
            continue
        if fix_hits_nb(np.uint64(FIX_CHECK_SEED), np.int64(FIX_CHECK_SIMS), np.int64(e),
                       args) == 0:
            k = scn.events.index(ev)
            said = describe(scn, {key: b for key, b in fixed.items() if key[0] == k})
            raise ScenarioError(f"never happened in {FIX_CHECK_SIMS:,} plays of the event: "
                                "impossible together, or too rare to simulate",
                                file=scn.file, key="--fix", value="; ".join(said))


class TourPlan(Plan):
    def __init__(self, scn: Tour, model, opts: CompileOptions):
        done = played(scn, opts.at)
        self.remaining = [ev for k, ev in enumerate(scn.events) if not done[k]]
        self.args, extra = kernel_args(scn, model, done, self.remaining, bool(opts.offsets),
                                       opts.fixed)
        check_fixes(scn, self.remaining, self.args, opts.fixed)
        members = scn.members
        self.info = PlanInfo(
            names=tuple(scn.players[m].name for m in members),
            ratings=self.args.rt[0, members, 0].copy(),   # the members', aligned with names
            n_places=len(members), points_scale=float(UNIT), points_label="ACP points",
            qualifying_places=self.args.n_qual, counter_names=COUNTER_NAMES,
            player_extra=extra)

    def run_batch(self, seed: int, first: int, n: int) -> dict:
        return self.run_chunks(seed, first, n).summed()

    def run_chunks(self, seed: int, first: int, n: int) -> ChunkTallies:
        t = ChunkTallies(n, self.info)
        simulate_nb(np.uint64(seed), np.int64(first), np.int64(n), self.args, t.out)
        return t


# -- odds ------------------------------------------------------------------------------------------
ODDS_SIMS = 20_000
ODDS_SEED = 1


def _event_odds(scn: Tour, plan: TourPlan, e: int, ev: Event) -> dict:
    fl = len(ev.field)
    prob = np.zeros((fl, fl))
    pts = np.zeros(fl)
    event_odds_nb(np.uint64(ODDS_SEED), np.int64(ODDS_SIMS), np.int64(e), plan.args, prob, pts)
    paying = sum(1 for x in event_place_points(scn, ev, fl) if x > 0)
    info = event_info(scn, ev, scn.events.index(ev))
    info["players"] = sorted(
        ({"name": scn.players[p].name, "member": scn.players[p].member,
          "rating": scn.players[p].ratings["classical"],
          "p_place": [float(x) / ODDS_SIMS for x in prob[i, :paying]],
          "expected_points": (float(pts[i]) / ODDS_SIMS / UNIT if scn.players[p].member
                              else 0.0)}
         for i, p in enumerate(ev.field)), key=lambda r: -r["expected_points"])
    return info


def odds(scn: Tour, model, at) -> dict:
    """The events still to play: level, strength, and each listed player's probability of each
    points-paying place and expected ACP points (Monte Carlo over the event alone, fixed seed)."""
    plan = TourPlan(scn, model, CompileOptions(at=at))
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
            "points_tables": tables_label(scn), "sims_per_event": ODDS_SIMS, "seed": ODDS_SEED,
            "model": {"name": model.name, "version": model.version},
            "shared_places": scn.shared_places,
            "events": [_event_odds(scn, plan, e, ev) for e, ev in enumerate(plan.remaining)]}
