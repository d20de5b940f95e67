"""simcycle from Python (docs/api.md): ``simcycle.load(name_or_path)`` gives an
:class:`Event`; its ``standings``, ``odds``, ``simulate``, ``swing``, ``whocan`` and
``history`` return declared types (``simcycle.api.results``) with ``to_pandas()``.

The same engine answers the command line, ``simcycle batch`` and the ``serve`` page.
"""

from .engine import Event, experiment, load, simulation
from .model import EloModel, Game, GameModel, verify_probabilities
from .results import (Chance, Experiment, History, HistoryRow, ModelInfo, Odds, PathStep,
                      PlayerOdds, Simulation, Standings, StandingRow, Swing, SwingGame,
                      SwingMatch, SwingNow, SwingOutcome, SwingPlayer, Whocan, WhocanRow)

__all__ = ["Event", "load", "experiment", "simulation", "Game", "GameModel", "EloModel",
           "verify_probabilities", "Simulation", "PlayerOdds", "ModelInfo", "Chance",
           "Standings", "StandingRow", "Odds", "Swing", "SwingGame", "SwingMatch",
           "SwingNow", "SwingOutcome", "SwingPlayer", "Whocan", "WhocanRow", "PathStep",
           "History", "HistoryRow", "Experiment"]
