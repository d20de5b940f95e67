"""The one function behind ``simulate``'s JSON, kept apart from :mod:`simcycle.api.engine`
so the command line's ``simulate`` loads neither the result types nor the engine's classes
(start-up, benchmarks/README.md); the engine re-exports :func:`simulation`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import ScenarioError, Unsupported
from ..formats.base import EXACT, CompileOptions

if TYPE_CHECKING:
    from .model import GameModel


def simulation(fmt, scn, model, *, at: str | None, sims: int, seed: int,
               fixed: dict | None = None, offsets: bool | None = None, hot: bool = False,
               target_se: float | None = None, exact: bool = False,
               progress: bool | None = False, plan=None, game_model: GameModel | None = None,
               partial: bool = False, param_draw: bool = False):
    """``simulate``'s JSON (docs/cli.md) and the driver's result (None when exact).

    ``offsets`` None: the model file's default (off with ``hot`` or ``exact``).  ``plan``: a
    plan already compiled for these options (the engine's cache).  ``param_draw``: each replica
    draws the model's parameters from the fit's covariance (round robins, docs/model.md)."""
    from .. import report

    fixed = fixed or {}
    if offsets is None:
        offsets = model.offsets_default and not (hot or exact)
    opts = CompileOptions(at=at, offsets=offsets, hot=hot, fixed=fixed, param_draw=param_draw)
    if exact:
        fmt.require(EXACT, scn)
        if offsets or hot or param_draw:
            raise ScenarioError("--exact does not model rating uncertainty", key="--exact")
        if game_model is not None:
            raise Unsupported("a replaced game model simulates; it does not enumerate",
                              key="--exact")
        return _assumed(report.exact_json(scn, fmt.exact(scn, model, at, fixed), model), fmt,
                        scn, fixed), None
    from .. import driver
    if plan is None:
        plan = fmt.compile(scn, model, opts)
    if game_model is not None:
        from .model import apply_game_model
        plan = apply_game_model(plan, scn, model, opts, game_model)
    # partial (the CLI): on Ctrl-C the finished batches, flagged interrupted (driver.run)
    res = driver.run(plan, sims, seed, target_se=target_se, progress=progress,
                     partial=partial)
    return _assumed(report.simulation_json(scn, plan, res, at, model, opts), fmt, scn,
                    fixed), res


def _assumed(d: dict, fmt, scn, fixed: dict) -> dict:
    if fixed:
        d["assumed"] = fmt.describe_fix(scn, fixed)
    return d
