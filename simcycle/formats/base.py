"""What every format is: one declared interface, registered by name.

A format (round robin, knock-out series, group series, tour) is a subclass of :class:`Format`
in a package of the same files (``schema.py``, ``rules.py``, ``plan.py``, ``nb.py``,
``render.py``, optionally ``whocan.py``), registered in ``simcycle.formats.FORMATS``.  It
declares the optional commands it offers in ``features``; the command line asks
:meth:`Format.require` instead of probing for functions, and every format refuses what it
cannot do with the same one-line error.

Data flow: TOML → :meth:`Format.load` (schema + cross-checks) → frozen scenario →
:meth:`Format.compile` (with one :class:`CompileOptions`) → :class:`Plan` (numpy arrays) →
:meth:`Plan.run_batch` (numba kernel) → tallies → ``driver.Result``.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Mapping

from ..errors import ScenarioError, Unsupported

if TYPE_CHECKING:   # pragma: no cover
    import numpy as np

    from ..model import OutcomeModel

class render_from:
    """A format's ``render_*`` method: the function ``name`` of the format package's
    ``render`` module, imported when first called (``render_standings =
    render_from("standings")``), so commands that print JSON or no format text (``simulate``)
    do not load the renderers and the whocan and swing modules they import (start-up)."""

    def __init__(self, name: str):
        self.name = name
        self.module = ""

    def __set_name__(self, owner: type, attr: str) -> None:
        self.module = f"{owner.__module__}.render"

    def __get__(self, obj: Any, owner: type | None = None):
        if obj is None:      # on the class (ABC's abstract-method check): the descriptor
            return self
        return getattr(importlib.import_module(self.module), self.name)


# Optional capabilities a format may declare.
SWING = "swing"          # what each game or match of the next round swings
WHOCAN = "whocan"        # exact clinched / alive / eliminated with a path
EXACT = "exact"          # exact enumeration of small remainders (simulate --exact)
HOT_ELO = "hot-elo"      # ratings updated inside a simulated event (simulate --hot-elo)
PARAM_DRAW = "param-draw"   # each replica draws the model's parameters (docs/model.md)
FIX = "fix"              # what-if results for games or matches still to play (--fix)
RESULTS = "results"      # results read from PGN / TRF files against the schedule
# swing's default target for the paired standard error of every swing (half a percentage
# point: the text shows probabilities to a tenth of a point; formats/shared/swing.py)
SWING_TARGET_SE = 0.005
FEATURE_TEXT = {SWING: "swing", WHOCAN: "whocan", EXACT: "--exact", HOT_ELO: "--hot-elo",
                PARAM_DRAW: "the parameter draw",
                FIX: "--fix", RESULTS: "results from PGN/TRF files"}


@dataclass(frozen=True)
class CompileOptions:
    """Everything ``compile`` takes besides the scenario and the model.

    at       checkpoint: count only the results up to it (None: every result in the file)
    offsets  one strength offset per player and rating class per simulated event
    hot      "hot" Elo: ratings move inside a simulated event (formats with HOT_ELO)
    param_draw  each replica draws the model's game parameters from the fit's covariance
             (formats with PARAM_DRAW; ``OutcomeModel.draw_factor``)
    fixed    what-if results for games or matches still to play, in the format's own keys
             (``swing`` and ``--fix``); each format documents its keys
    """

    at: str | None = None
    offsets: bool = False
    hot: bool = False
    param_draw: bool = False
    fixed: Mapping[Any, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PlanInfo:
    """What a compiled plan tells the driver, the reports and the experiments.

    names              players in plan order (the rows of every tally)
    ratings            classical rating of each, aligned with ``names`` (float64)
    n_places           places tallied per player
    points_scale       divide tallied points by this (2 for half points, 6 for sixths, ...)
    points_label       what the points are ("points", "GP points", "ACP points")
    qualifying_places  how many qualify
    currency           of the prize money ("" when there is none)
    counter_names      events counted once per replica (a play-off was needed, ...)
    extra_probabilities  per-player probabilities tallied besides place and qualify
    player_extra       per-player facts for the reports (events played, eligibility, ...)
    active             per player: takes part (plays a game or match of the event or series);
                       empty = everyone.  Experiments look for the favourite among them.
    batch              replicas per driver batch (0 = the driver's default); a format whose
                       replicas are costly (the Swiss) asks for smaller batches, so progress,
                       --target-se and Ctrl-C come at least every few seconds.  Results do not
                       depend on it (a replica's stream depends only on seed and index).
    field_measures     experiments also measure the field the qualifiers make (a cycle: the
                       final's field): its mean rating and its share of the top players by
                       rating (``experiment.measure``)
    """

    names: tuple[str, ...]
    ratings: "np.ndarray"
    n_places: int
    points_scale: float
    qualifying_places: int
    points_label: str = "points"
    currency: str = ""
    counter_names: tuple[str, ...] = ()
    extra_probabilities: tuple[str, ...] = ()
    player_extra: tuple[dict, ...] = ()
    active: tuple[bool, ...] = ()
    batch: int = 0
    field_measures: bool = False


class Plan(ABC):
    """A scenario compiled for its kernel: flat arrays, run in batches of replicas."""

    info: PlanInfo

    @abstractmethod
    def run_batch(self, seed: int, first: int, n: int) -> dict[str, "np.ndarray"]:
        """Tallies of replicas ``first .. first+n-1``, summed: 'place' int64 [players,
        places], 'qualify' int64 [players], 'points' / 'points_sq' / 'prize' / 'prize_sq'
        float64 [players]; 'counters' int64 [k] named by ``info.counter_names``; one int64
        [players] array per name in ``info.extra_probabilities``."""

    def run_chunks(self, seed: int, first: int, n: int) -> Any:
        """The same replicas' tallies before summing (a ``driver.ChunkTallies``: one row per
        chunk of ``kernels.config.CHUNK`` replicas), for standard errors from batch means
        (``swing``).  Formats that offer ``swing`` implement it; ``run_batch`` is then
        ``run_chunks(...).summed()``."""
        raise NotImplementedError(f"{type(self).__name__} keeps no chunk rows")


class Format(ABC):
    """One format of event or series.  Subclasses are registered in ``FORMATS``."""

    name: ClassVar[str]                      # the value of [scenario] format
    features: ClassVar[frozenset[str]] = frozenset()
    default_kind: ClassVar[str] = "round-robin"   # the event kind when a scenario says none

    # ---- required ---------------------------------------------------------------------
    @abstractmethod
    def load(self, raw: dict, file: str) -> Any:
        """Validate a parsed TOML document and build the frozen scenario."""

    @abstractmethod
    def checkpoints(self, scn: Any) -> list[str]:
        """The names ``--at`` accepts, in playing order ("start" first)."""

    @abstractmethod
    def standings(self, scn: Any, at: str | None) -> dict:
        """JSON-able table from the results played up to ``at``."""

    @abstractmethod
    def odds(self, scn: Any, model: "OutcomeModel", at: str | None) -> dict:
        """The games or matches still to play whose players are known, with probabilities."""

    @abstractmethod
    def compile(self, scn: Any, model: "OutcomeModel", opts: CompileOptions) -> Plan:
        """The plan that simulates the rest of the event or series from ``opts.at``."""

    @abstractmethod
    def render_standings(self, d: dict) -> str: ...

    @abstractmethod
    def render_odds(self, d: dict) -> str: ...

    # ---- optional, declared in ``features`` ------------------------------------------
    def swing(self, scn: Any, model: "OutcomeModel", at: str | None, *, sims: int, seed: int,
              offsets: bool = False, round_no: int | None = None,
              fixed: Mapping[Any, Any] | None = None, target_se: float | None = None) -> dict:
        """What each game or match of the next round swings (``formats/shared/swing.py``):
        every player's P(1st) and P(qualify) under each result of each game or match
        :meth:`swing_items` lists, on common random numbers, each difference with its paired
        SE; at most ``sims`` replicas per result, fewer once every swing's paired standard
        error is below ``target_se``.  ``fixed`` (what-ifs) holds for every run."""
        from .shared import swing as swing_

        self.require(SWING, scn)
        fixed = dict(fixed or {})
        ex = self.swing_items(scn, model, at, round_no, fixed)
        run = swing_.Runner(self, scn, model, at, offsets=offsets, fixed=fixed, sims=sims,
                            seed=seed, target_se=target_se,
                            compile_=self.swing_compile(scn, model, at, offsets, fixed))
        return swing_.report(scn, at, ex, run, seed=seed, target_se=target_se)

    def swing_items(self, scn: Any, model: "OutcomeModel", at: str | None,
                    round_no: int | None = None, fixed: Mapping[Any, Any] | None = None) -> Any:
        """What ``swing`` examines at ``at`` (a ``formats.shared.swing.Examined``): the games
        or matches of the next round (or of ``round_no``) not assumed in ``fixed``, each
        possible result a mixture of what-ifs in the format's own keys.  A cycle swings its
        part in progress through it."""
        raise self._unsupported(SWING, scn)

    def swing_compile(self, scn: Any, model: "OutcomeModel", at: str | None, offsets: bool,
                      fixed: Mapping[Any, Any]) -> Any:
        """fixed -> Plan for swing's runs (``formats.shared.swing.Runner``'s ``compile_``), or
        None: an ordinary ``compile``.  A format overrides it to keep the random streams
        aligned across results (the round robin forces a game while drawing its number)."""
        return None

    def render_swing(self, d: dict) -> str:
        raise self._unsupported(SWING, None)

    def whocan(self, scn: Any, at: str | None, budget: float | None = None,
               fixed: Mapping[Any, Any] | None = None) -> dict:
        raise self._unsupported(WHOCAN, scn)

    def render_whocan(self, d: dict) -> str:
        raise self._unsupported(WHOCAN, None)

    def exact(self, scn: Any, model: "OutcomeModel", at: str | None, fixed=None) -> dict:
        raise self._unsupported(EXACT, scn)

    def read_results(self, scenario_file: str, kind: str, path: str, *,
                     write: bool = False) -> dict:
        """What a PGN (``kind`` "pgn") or TRF ("trf") file adds to the scenario, checked against
        its schedule; ``write`` puts the new results into the scenario file."""
        raise self._unsupported(RESULTS, None)

    def render_results(self, d: dict) -> str:
        raise self._unsupported(RESULTS, None)

    def parse_fix(self, scn: Any, text: str, at: str | None, key: str,
                  earlier: Mapping[Any, Any] | None = None) -> dict:
        """One what-if (``--fix "r14 Nepomniachtchi-Ding 1-0"``) as ``CompileOptions.fixed``
        entries; refused in one line (naming ``key``) if the game or match does not exist or
        was already played with another result.  ``earlier``: the what-ifs before this one
        (a knock-out final can follow the semi-finals it assumes)."""
        raise self._unsupported(FIX, scn)

    def describe_fix(self, scn: Any, fixed: dict) -> list[str]:
        """The what-ifs of ``fixed`` (``parse_fix`` entries) in words, for every output that
        assumed them."""
        raise self._unsupported(FIX, scn)

    # ---- shared -----------------------------------------------------------------------
    def require(self, feature: str, scn: Any = None) -> None:
        """Refuse, in one line, a feature this format does not declare."""
        if feature not in self.features:
            raise self._unsupported(feature, scn)

    def check_at(self, scn: Any, at: str | None) -> str | None:
        """``at`` if it names a checkpoint of ``scn``, else a one-line refusal."""
        if at is None:
            return None
        names = self.checkpoints(scn)
        if at not in names:
            shown = ", ".join(names[:6]) + (", ..., " + names[-1] if len(names) > 7 else "")
            raise ScenarioError(f"no such checkpoint; this scenario has {shown} "
                                "(simcycle checkpoints lists them all)",
                                file=getattr(scn, "file", None), key="--at", value=at)
        return at

    def check_options(self, scn: Any, opts: CompileOptions) -> None:
        """Refuse options the format cannot honour."""
        if opts.param_draw:
            self.require(PARAM_DRAW, scn)
        if opts.hot:
            self.require(HOT_ELO, scn)
            if opts.offsets:
                raise ScenarioError("choose --offsets or --hot-elo, not both", key="--hot-elo")

    def _unsupported(self, feature: str, scn: Any) -> Unsupported:
        return Unsupported(f"{FEATURE_TEXT.get(feature, feature)} is not available for the "
                           f"{self.name} format", file=getattr(scn, "file", None),
                           key="scenario.format", value=self.name)
