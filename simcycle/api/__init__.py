"""simcycle from Python (docs/api.md): ``simcycle.load(name_or_path)`` gives an
:class:`Event`; its ``standings``, ``odds``, ``simulate``, ``swing``, ``whocan`` and
``history`` return declared types (``simcycle.api.results``) with ``to_pandas()``.

The same engine answers the command line, ``simcycle batch`` and the ``serve`` page.

Each name of ``__all__`` is imported from its module when it is first used, so the command
line's ``simulate`` (which needs only :func:`simulation`, ``api/run.py``) does not load the
result types (start-up, benchmarks/README.md).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:   # what a type checker sees; at run time the names come lazily
    from .engine import Event, experiment, load, simulation
    from .model import EloModel, Game, GameModel, verify_probabilities
    from .results import (Chance, Experiment, History, HistoryRow, ModelInfo, Odds, PathStep,
                          PlayerOdds, Simulation, Standings, StandingRow, Swing, SwingGame,
                          SwingMatch, SwingNow, SwingOutcome, SwingPlace, SwingPlayer, Whocan,
                          WhocanRow)

__all__ = ["Event", "load", "experiment", "simulation", "Game", "GameModel", "EloModel",
           "verify_probabilities", "Simulation", "PlayerOdds", "ModelInfo", "Chance",
           "Standings", "StandingRow", "Odds", "Swing", "SwingGame", "SwingMatch",
           "SwingNow", "SwingOutcome", "SwingPlace", "SwingPlayer", "Whocan", "WhocanRow",
           "PathStep",
           "History", "HistoryRow", "Experiment"]

_MODULES = ("engine", "model", "results")   # where the names of ``__all__`` are defined


def __getattr__(name: str):
    if name in __all__:
        for module in _MODULES:
            found = vars(importlib.import_module(f".{module}", __name__))
            if name in found:
                globals()[name] = found[name]
                return found[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__all__})
