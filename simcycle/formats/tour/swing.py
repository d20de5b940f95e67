"""``swing`` for a tour: what each member's place in the next event swings.

A tour's next "round" is its next event.  For every member listed in it, the possible places
are cut into three branches by his first place covered (alone or shared): 1st, 2nd to the
middle of the field, and below (``branches``; fewer in a field of three or less).  A branch is
one what-if (``whatif.py``: "EVENT: PLAYER a to b"), simulated by replaying the event until it
holds (``nb.replay_fixed_event_nb``), so each run is the season given the branch; the runs share
their random numbers with the base run after the event (``formats/shared/swing.py``: paired
chunk standard errors, ``--target-se``, "within noise" at two standard errors).  A branch's
probability is its share of the base run's own replicas (``needs_nb.season_places_nb``, the
same seed and replicas), so the shares sum to 1 and, weighted by them, the branches' odds
average to the base run's within their standard errors.
"""

from __future__ import annotations

import numpy as np

from ...errors import ScenarioError
from ..base import CompileOptions
from ..shared import swing as swing_
from .nb import fix_hits_nb
from .plan import FIX_CHECK_SEED, FIX_CHECK_SIMS, TourPlan, fix_arrays
from .rules import played
from .whatif import spec_fix, spec_text


def branches(n: int) -> list[tuple[int, int]]:
    """The first-place ranges (a, b) of a field of n: 1st, 2nd to ceil(n/2), the rest."""
    m = (n + 1) // 2
    out = [(1, 1)]
    if m >= 2:
        out.append((2, m))
    if n > m:
        out.append((m + 1, n))
    return out


def _possible(plan: TourPlan, scn, fixed: dict, key, groups: list) -> list[tuple[int, int]]:
    """The groups whose what-if (with ``fixed``) held in some of ``FIX_CHECK_SIMS`` plays of
    the event alone; an empty one is merged into the group below (the last into the one
    above), so the groups still cover every place."""
    n = len(plan.remaining[0].field)
    out: list[list[int]] = []
    carry = None
    for a, b in groups:
        a = carry if carry is not None else a
        fx = fix_arrays(scn, plan.remaining, {**fixed, key: (a, b, a, n)})
        if fix_hits_nb(np.uint64(FIX_CHECK_SEED), np.int64(FIX_CHECK_SIMS), np.int64(0),
                       plan.args._replace(**fx)) > 0:
            out.append([a, b])
            carry = None
        else:
            carry = a
    if carry is not None:
        if not out:
            return []
        out[-1][1] = n
    return [(a, b) for a, b in out]


def swing(fmt, scn, model, at, *, sims: int, seed: int, offsets: bool = False,
          round_no=None, fixed=None, target_se=None) -> dict:
    """Every member listed in the next event: P(1st) and P(qualify) under each branch of his
    place in it, with each branch's share; ``fixed`` (what-if places) holds for every run."""
    if round_no is not None:
        raise ScenarioError("--round is for round robins; a tour swings its next event",
                            key="--round", value=round_no)
    fixed = dict(fixed or {})
    done = played(scn, at)
    k = next((k for k in range(len(scn.events)) if not done[k]), None)
    if k is None:
        raise ScenarioError("no event left to play at this checkpoint", file=scn.file,
                            key="--at", value=at or "latest")
    ev = scn.events[k]
    n = len(ev.field)
    run = swing_.Runner(fmt, scn, model, at, offsets=offsets, fixed=fixed, sims=sims,
                        seed=seed, target_se=target_se)
    base = fmt.compile(scn, model, CompileOptions(at=at, offsets=offsets, fixed=fixed))
    todo = []
    for p in ev.field:
        if scn.players[p].member and (k, p) not in fixed:
            groups = _possible(base, scn, fixed, (k, p), branches(n))
            if len(groups) > 1:
                todo.append((p, groups))
    items = []
    for p, groups in todo:
        bounds = [(a, b, a, n) for a, b in groups]
        rows = run.rows([[({(k, p): bd}, 1.0)] for bd in bounds])
        items.append((p, bounds, rows))
    now = run.now()
    shares = _shares(base, ev, run.sims, seed)
    places = []
    for p, bounds, rows in items:
        who = scn.players[p].name
        share = shares[ev.field.index(p)]
        places.append({"event": ev.name, "player": who, "swing": rows, "outcomes": [
            {"result": spec_text(bd, n), "p": float(share(bd)),
             "fix": f"event{k + 1}: {who} {spec_fix(bd)}"} for bd in bounds]})
    places.sort(key=lambda x: -swing_.weight(x["swing"]))
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest", "sims": run.sims,
            "seed": seed, "target_se": target_se, "qualifying_places": base.args.n_qual,
            "next_event": ev.name, "now": now, "places": places}


def _shares(plan: TourPlan, ev, sims: int, seed: int) -> list:
    """Per listed player, bounds -> the share of the base run's replicas (seed, 0 .. sims-1)
    in which his places keep them."""
    from .needs_nb import season_places_nb

    lo = np.zeros((sims, len(ev.field)), np.int64)
    hi = np.zeros_like(lo)
    final = np.zeros((sims, plan.args.base_top.shape[0]), np.int64)
    season_places_nb(np.uint64(seed), np.int64(0), np.int64(sims), plan.args, lo, hi, final)

    def share(i):
        return lambda b: np.mean((lo[:, i] >= b[0]) & (lo[:, i] <= b[1])
                                 & (hi[:, i] >= b[2]) & (hi[:, i] <= b[3]))
    return [share(i) for i in range(len(ev.field))]
