"""The resident engine: one scenario loaded once, every question answered in-process.

:func:`simulation` is the one function that turns (scenario, model, options) into
``simulate``'s documented JSON; the command line (``simcycle simulate``), the Python API
(:meth:`Event.simulate`), ``simcycle batch`` and the ``serve`` page all call it, so they give
the same numbers for the same seed.  An :class:`Event` keeps its scenario, its models and its
compiled plans, so a new question pays neither start-up nor loading nor compiling again.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Any, Iterable

from ..errors import ScenarioError
from ..formats.base import SWING, SWING_TARGET_SE, WHOCAN, CompileOptions
from . import results as R
from .model import GameModel
from .run import _assumed, simulation

PLAN_CACHE = 32     # compiled plans kept per Event (what-ifs from a page add up)


def _key(fixed: dict) -> tuple:
    return tuple(sorted(((repr(k), repr(v)) for k, v in fixed.items())))


class Event:
    """A scenario loaded once (``simcycle.load``): ask it for standings, odds, simulations,
    swings, whocan and history as often as you like; the model and the compiled plans are
    kept between questions.

    ``name_or_path``: a shipped scenario's name ("candidates-2022") or a scenario file.
    ``model``: an outcome-model file (default: the scenario's, else the shipped default).
    ``results``: a PGN or TRF file of the event (round robins) read as if the scenario named
    it (``[event] results_pgn`` / ``results_trf``; docs/live.md).
    """

    def __init__(self, name_or_path: str | Path, model: str | Path | None = None, *,
                 results: str | Path | None = None):
        from ..scenario import load_scenario

        self.source = str(name_or_path)
        if results is None:
            self.format, self.scenario = load_scenario(name_or_path)
        else:
            self.format, self.scenario = _with_results(name_or_path, results)
        self.model_file = None if model is None else str(model)
        self._models: dict = {}
        self._plans: OrderedDict = OrderedDict()

    # ---- what the scenario is -------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.scenario.name

    @property
    def file(self) -> str:
        return self.scenario.file

    def checkpoints(self) -> list[str]:
        """The checkpoints ``at=`` accepts, in playing order ("start" first)."""
        return list(self.format.checkpoints(self.scenario))

    def __repr__(self) -> str:
        return f"<simcycle.Event {self.name!r} ({self.format.name})>"

    # ---- the pieces every question needs -------------------------------------------------
    def model(self, model: str | Path | None = None):
        """The outcome model (an ``OutcomeModel``) for this event's kind."""
        from ..model import load_model

        path = model or self.model_file or self.scenario.model_file
        key = None if path is None else str(path)
        if key not in self._models:
            self._models[key] = load_model(key).for_kind(self.scenario.kind)
        return self._models[key]

    def at(self, at: str | None) -> str | None:
        """``at`` checked against the checkpoints (None: every result in the file)."""
        return self.format.check_at(self.scenario, at)

    def fixed(self, fix: Iterable[str] | str | None, at: str | None) -> dict:
        """What-ifs in the command line's words ("r10 Rapport-Ding 1-0") as the format's
        ``CompileOptions.fixed``; a bad one is refused in the line the command line gives."""
        from ..cli.options import fixed_of

        if isinstance(fix, str):
            fix = [fix]
        return fixed_of(self.format, self.scenario, at, tuple(fix or ()), None)

    def plan(self, model, opts: CompileOptions):
        """The compiled plan for ``opts`` (kept: the same question compiles once)."""
        key = (id(model), opts.at, opts.offsets, opts.hot, _key(dict(opts.fixed)))
        if key in self._plans:
            self._plans.move_to_end(key)
            return self._plans[key]
        plan = self.format.compile(self.scenario, model, opts)
        self._plans[key] = plan
        while len(self._plans) > PLAN_CACHE:
            self._plans.popitem(last=False)
        return plan

    # ---- the questions -------------------------------------------------------------------
    def standings(self, at: str | None = None) -> R.Standings:
        """The table from the results played up to ``at``."""
        return R.Standings.from_json(self.format.standings(self.scenario, self.at(at)))

    def odds(self, at: str | None = None, *, model: str | Path | None = None) -> R.Odds:
        """The games or matches still to play whose players are known, with probabilities."""
        return R.Odds.from_json(self.format.odds(self.scenario, self.model(model), self.at(at)))

    def simulate_json(self, at: str | None = None, *, sims: int = 100_000, seed: int = 1,
                      fix: Iterable[str] | str | None = None, model: str | Path | None = None,
                      offsets: bool | None = None, hot: bool = False,
                      target_se: float | None = None, exact: bool = False,
                      game_model: GameModel | None = None, progress: bool | None = False,
                      fixed: dict | None = None) -> dict:
        """``simulate``'s documented JSON (what :meth:`simulate` types)."""
        at = self.at(at)
        m = self.model(model)
        fixed = self.fixed(fix, at) if fixed is None else fixed
        plan = None
        if not exact:
            off = m.offsets_default and not hot if offsets is None else offsets
            plan = self.plan(m, CompileOptions(at=at, offsets=off, hot=hot, fixed=fixed))
        d, _ = simulation(self.format, self.scenario, m, at=at, sims=_whole(sims, "sims"),
                          seed=_whole(seed, "seed"), fixed=fixed, offsets=offsets, hot=hot,
                          target_se=target_se, exact=exact, progress=progress, plan=plan,
                          game_model=game_model)
        return d

    def simulate(self, at: str | None = None, *, sims: int = 100_000, seed: int = 1,
                 fix: Iterable[str] | str | None = None, model: str | Path | None = None,
                 offsets: bool | None = None, hot: bool = False, target_se: float | None = None,
                 exact: bool = False, game_model: GameModel | None = None,
                 progress: bool | None = False) -> R.Simulation:
        """Simulate the rest of the event from ``at``: every player's place, qualifying and
        prize odds with standard errors (``simcycle simulate``).  ``fix``: what-ifs in the
        command line's words; ``game_model``: your own game probabilities (round robins,
        checked by :func:`simcycle.api.verify_probabilities`)."""
        return R.Simulation.from_json(self.simulate_json(
            at, sims=sims, seed=seed, fix=fix, model=model, offsets=offsets, hot=hot,
            target_se=target_se, exact=exact, game_model=game_model, progress=progress))

    def swing_json(self, at: str | None = None, *, sims: int = 100_000, seed: int = 1,
                   round: int | None = None, fix: Iterable[str] | str | None = None,
                   model: str | Path | None = None, offsets: bool | None = None,
                   target_se: float | None = SWING_TARGET_SE) -> dict:
        self.format.require(SWING, self.scenario)
        at = self.at(at)
        m = self.model(model)
        fixed = self.fixed(fix, at)
        d = self.format.swing(self.scenario, m, at, sims=_whole(sims, "sims"),
                              seed=_whole(seed, "seed"), round_no=round, target_se=target_se,
                              offsets=m.offsets_default if offsets is None else offsets,
                              **({"fixed": fixed} if fixed else {}))
        return _assumed(d, self.format, self.scenario, fixed)

    def swing(self, at: str | None = None, *, sims: int = 100_000, seed: int = 1,
              round: int | None = None, fix: Iterable[str] | str | None = None,
              model: str | Path | None = None, offsets: bool | None = None,
              target_se: float | None = SWING_TARGET_SE) -> R.Swing:
        """What each game or match of the next round swings (``simcycle swing``): at most
        ``sims`` per result, fewer once every swing's paired SE is below ``target_se``
        (None: all of them; ``formats/shared/swing.py``)."""
        return R.Swing.from_json(self.swing_json(at, sims=sims, seed=seed, round=round,
                                                 fix=fix, model=model, offsets=offsets,
                                                 target_se=target_se))

    def whocan_json(self, at: str | None = None, *, fix: Iterable[str] | str | None = None,
                    budget: int | None = None) -> dict:
        self.format.require(WHOCAN, self.scenario)
        at = self.at(at)
        fixed = self.fixed(fix, at)
        d = self.format.whocan(self.scenario, at, budget, **({"fixed": fixed} if fixed else {}))
        return _assumed(d, self.format, self.scenario, fixed)

    def whocan(self, at: str | None = None, *, fix: Iterable[str] | str | None = None,
               budget: int | None = None) -> R.Whocan:
        """Who can still finish first or qualify, exactly, with a path (``simcycle whocan``)."""
        return R.Whocan.from_json(self.whocan_json(at, fix=fix, budget=budget))

    def history(self, *, sims: int = 20_000, seed: int = 1, model: str | Path | None = None,
                offsets: bool | None = None) -> R.History:
        """The odds at every checkpoint, one seed for all (``simcycle history``)."""
        from ..report import history as hist

        return R.History.from_json(hist.history(
            self.format, self.scenario, self.model(model), sims=_whole(sims, "sims"),
            seed=_whole(seed, "seed"), offsets=offsets, progress=False))

    def experiment(self, variants: dict[str, dict[str, Any]], *, at: str | None = None,
                   sims: int = 100_000, seed: int = 1,
                   model: str | Path | None = None) -> R.Experiment:
        """Variants of this scenario side by side (``simcycle experiment`` without a file):
        ``variants`` maps a variant's name to the keys it sets, written as in an experiment
        file's ``set`` (docs/experiments.md), e.g. ``{"no play-off": {"tiebreak.playoff":
        []}}``; the scenario as it is comes first."""
        import copy

        from .. import experiment as ex
        from ..files import read_toml
        from ..scenario import load_data

        base = read_toml(Path(self.file), "scenario file")
        runs = [{"name": "as in the scenario", "data": copy.deepcopy(base)}]
        for name, sets in variants.items():
            data = copy.deepcopy(base)
            for key, val in sets.items():
                ex.set_path(data, key, val, self.file, f"variant {name!r}")
            fmt, scn = load_data(data, self.file)
            fmt.check_at(scn, at)
            runs.append({"name": name, "data": data})
        mf = model or self.model_file
        exp = {"name": self.name, "file": self.file, "base": self.file, "at": self.at(at),
               "sims": _whole(sims, "sims"), "seed": _whole(seed, "seed"),
               "model": None if mf is None else str(Path(mf).resolve()), "runs": runs}
        return R.Experiment.from_json(ex.run_experiment(exp, progress=False))


def experiment(path: str | Path, *, sims: int | None = None,
               seed: int | None = None) -> R.Experiment:
    """Run an experiment file's variants side by side (``simcycle experiment``, locally)."""
    from .. import experiment as ex

    d = ex.run_experiment(ex.load_experiment(path), sims=sims, seed=seed, progress=False)
    return R.Experiment.from_json(d)


def load(name_or_path: str | Path, model: str | Path | None = None) -> Event:
    """A scenario loaded once: ``simcycle.load("candidates-2022").simulate(at="round9")``."""
    return Event(name_or_path, model)


def _with_results(name_or_path, results):
    """(format, scenario) of a scenario file with a results file added to its [event]."""
    from ..files import read_toml
    from ..scenario import load_data, resolve

    p = resolve(name_or_path)
    raw = read_toml(p, "scenario file")
    kind = Path(results).suffix.lower().lstrip(".")
    if kind not in ("pgn", "trf"):
        raise ScenarioError("a results file is a PGN (*.pgn) or TRF (*.trf) file",
                            key="--watch", value=str(results))
    ev = raw.get("event")
    if not isinstance(ev, dict):
        raise ScenarioError("results files are read for round robins (an [event] table)",
                            file=str(p), key="--watch", value=str(results))
    ev[f"results_{kind}"] = str(Path(results).resolve())
    return load_data(raw, str(p))


def _whole(v: Any, key: str) -> int:
    lo = 1 if key == "sims" else 0
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v < 2**63:
        raise ScenarioError(f"must be a whole number >= {lo}", key=key, value=v)
    return v
