"""Compile a knock-out-series scenario at a checkpoint into the arrays of ``nb.simulate_nb``."""

from __future__ import annotations

import numpy as np

from ...enums import (KO_COUNTER_NAMES, KO_DECIDED, KO_IN_PROGRESS, RATING_CLASSES,
                      SER_CLASSICAL, SER_EVENTS_WON, SER_SECOND, STEP_ARMAGEDDON, STEP_GAMES)
from ...driver import ChunkTallies
from ...errors import ScenarioError
from ...kernels import keys
from ...kernels.game_nb import threshold_table_nb
from ..base import CompileOptions, Plan, PlanInfo
from ..shared.brackets import flat_slot, place_value
from .nb import LOG_BITS, KnockoutArgs, simulate_nb
from .rules import counted_matches, n_rounds
from .scenario import KnockoutSeries

EXTRA = ("wildcard",)


def rating_table(scn: KnockoutSeries, model) -> np.ndarray:
    """float64 [events, field players, 3]: the ratings each player brings to a game of each
    rating class at each event (the rating list in force there)."""
    return np.stack([model.rating_table(list(ev.ratings)) for ev in scn.events])


def step_table(scn: KnockoutSeries, model) -> np.ndarray:
    """int64 [steps, 3]: (kind, control row, games) of each match step."""
    return np.array([[s.kind, model.index(s.control, file=scn.file, key="match.steps")
                      if s.control else 0, s.games] for s in scn.steps], np.int64)


def packed_criteria(scn: KnockoutSeries) -> np.ndarray:
    """The bases of the leading plain-number criteria that sort with GP points as one int64
    key (``kernels/keys.py``: each criterion's largest value + 1; the key's width checked);
    the rest are ranked group by group."""
    n_ev = len(scn.events)
    rounds = max(n_rounds(ev.size) for ev in scn.events)
    n_cls = scn.steps[0].games
    top = {SER_EVENTS_WON: n_ev, SER_SECOND: n_ev, SER_CLASSICAL: n_ev * rounds * 2 * n_cls}
    tops = [n_ev * (max(scn.place_points) + scn.classical_bonus * rounds)]
    for c in scn.criteria:
        if c not in top:
            break
        tops.append(top[c])
    return keys.bases(tops[:keys.fits(tops)])


def _positions(scn: KnockoutSeries) -> np.ndarray:
    """[event, bracket position] the player (scenario index) at each position, -1 past the
    event's size."""
    pos = np.full((len(scn.events), max(ev.size for ev in scn.events)), -1, np.int64)
    for e, ev in enumerate(scn.events):
        pos[e, :ev.size] = ev.positions
    return pos


def _overall_prizes(scn: KnockoutSeries, n: int) -> np.ndarray:
    """The series' prize by final place for the ``n`` counting players (0 past the list)."""
    overall = np.zeros(n)
    k = min(n, len(scn.overall_prizes))
    overall[:k] = scn.overall_prizes[:k]
    return overall


def _paid(overall: np.ndarray) -> int:
    """Places up to the last with overall money (``KnockoutArgs.n_paid``)."""
    nz = np.flatnonzero(overall)
    return int(nz[-1]) + 1 if nz.size else 0


def _pos_plan(plan_index: np.ndarray, pos: np.ndarray, n: int) -> np.ndarray:
    """[event, bracket position] the plan index of the player there, n for one who does not
    count (``KnockoutArgs.pos_plan``; a -1 position reads plan_index as the kernel's
    ``plan_index[pos[e, k]]`` did, from the end)."""
    pp = plan_index[pos] if plan_index.size else np.full(pos.shape, -1, np.int64)
    return np.where(pp < 0, n, pp).astype(np.int64)


def check_log_fits(scn: KnockoutSeries, n: int) -> None:
    """The kernel's match log keeps a plan index (0 .. n) in ``nb.LOG_BITS`` bits."""
    if n >= (1 << LOG_BITS) - 1:
        raise ScenarioError(f"at most {(1 << LOG_BITS) - 2} players can count in a series",
                            file=scn.file, key="players", value=n)


def _table_steps(scn: KnockoutSeries) -> bool:
    """Every step games or an Armageddon (the steps the threshold table's fast path plays)."""
    return all(s.kind in (STEP_GAMES, STEP_ARMAGEDDON) for s in scn.steps)


class KnockoutSeriesPlan(Plan):
    """Flat arrays for ``nb.simulate_nb`` (``nb.KnockoutArgs`` documents each)."""

    def __init__(self, scn: KnockoutSeries, model, opts: CompileOptions):
        counting = scn.counting
        n = len(counting)
        check_log_fits(scn, n)
        F = len(scn.players)
        plan_index = np.full(F, -1, np.int64)
        plan_index[counting] = np.arange(n)
        qual_else = np.array([int(bool(scn.players[i].qualified_elsewhere)) for i in counting],
                             np.int64)
        rt = rating_table(scn, model)
        live = bool(opts.offsets)
        thr = np.zeros((0, 0, 0, 0, 2)) if live else threshold_table_nb(model.params, rt)
        steps = step_table(scn, model)
        n_games = sum(s.games if s.kind == STEP_GAMES else 1 for s in scn.steps)
        n_ev = len(scn.events)
        pos = _positions(scn)
        known = _known_arrays(scn, counted_matches(scn, opts.at, opts.fixed), n_ev,
                              pos.shape[1], n_games)
        R = max(n_rounds(ev.size) for ev in scn.events)
        key_base = packed_criteria(scn)
        overall = _overall_prizes(scn, n)
        self.args = KnockoutArgs(
            params=model.params, rt=rt, thr=thr, live=live, offsets=bool(opts.offsets),
            offset_sd=np.array([model.offset_sd[c] for c in RATING_CLASSES]),
            steps=steps,
            ev_size=np.array([ev.size for ev in scn.events], np.int64),
            ev_rounds=np.array([n_rounds(ev.size) for ev in scn.events], np.int64),
            pos=pos, **known,
            place_pts=np.array([place_value(scn.place_points, b) for b in range(R + 1)],
                               np.int64),
            place_prize=np.array([place_value(scn.event_prizes, b) for b in range(R + 1)],
                                 np.float64),
            bonus=int(scn.classical_bonus), overall=overall, n_paid=_paid(overall),
            criteria=np.array(scn.criteria, np.int64), n_packed=len(key_base),
            key_base=key_base,
            plan_index=plan_index, pos_plan=_pos_plan(plan_index, pos, n), qual_else=qual_else,
            n_qual=int(scn.qualifying_places),
            n_matches=int(sum(ev.size - 1 for ev in scn.events)),
            fast=not live and _table_steps(scn))
        self.info = PlanInfo(
            names=tuple(scn.players[i].name for i in counting),
            ratings=rt[-1, counting, 0].copy(), n_places=n, points_scale=1.0,
            points_label="GP points", qualifying_places=scn.qualifying_places,
            currency=scn.currency, extra_probabilities=EXTRA, counter_names=KO_COUNTER_NAMES,
            player_extra=tuple({"qualified_elsewhere": bool(q)} for q in qual_else))

    def run_batch(self, seed: int, first: int, n: int) -> dict:
        return self.run_chunks(seed, first, n).summed()

    def run_chunks(self, seed: int, first: int, n: int) -> ChunkTallies:
        t = ChunkTallies(n, self.info)
        simulate_nb(np.uint64(seed), np.int64(first), np.int64(n), self.args, t.out)
        return t


def _known_arrays(scn: KnockoutSeries, known: dict, n_ev: int, S: int, n_games: int) -> dict:
    """kstat, kwin, kstep, kcls, kwhite, kfixed (``nb.KnockoutArgs``) from the known matches."""
    ns = max(S - 1, 1)
    out = {"kstat": np.zeros((n_ev, ns), np.int64), "kwin": np.zeros((n_ev, ns), np.int64),
           "kstep": np.zeros((n_ev, ns), np.int64), "kcls": np.zeros((n_ev, ns, 2), np.int64),
           "kwhite": np.full((n_ev, ns), -1, np.int64),
           "kfixed": np.full((n_ev, ns, max(n_games, 1)), -1, np.int64)}
    for (e, r, j), m in known.items():
        f = flat_slot(scn.events[e].size, r, j)
        if m.white is not None:
            out["kwhite"][e, f] = 0 if m.white == m.upper else 1
        if m.winner is not None:
            out["kstat"][e, f] = KO_DECIDED
            out["kwin"][e, f] = 0 if m.winner == m.upper else 1
            out["kstep"][e, f] = m.step
            out["kcls"][e, f] = (m.cls_upper, m.cls_lower)
        else:
            out["kstat"][e, f] = KO_IN_PROGRESS
            for g, c in enumerate(m.games):
                out["kfixed"][e, f, g] = c
    return out
