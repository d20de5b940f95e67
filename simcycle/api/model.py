"""Your own game model in place of the shipped Davidson-Elo model (round robins).

A game model is any object with a ``probabilities(games)`` method: given the games still to
play (a list of :class:`Game`), it returns one row (P white wins, P draw, P black wins) per
game.  Before a simulation uses them, :func:`verify_probabilities` checks them the way
nflseedR's ``simulations_verify_fct`` checks a user's function: the right shape, every number
finite and in [0, 1], every row summing to 1.  A play-off after the last round keeps the
outcome model of the scenario (its time controls differ).
"""

from __future__ import annotations

import math
from typing import Any, Protocol, Sequence

import msgspec

from ..errors import ScenarioError, Unsupported

SUM_TOLERANCE = 1e-9     # |P(white) + P(draw) + P(black) - 1| allowed (rounding of floats)


class Game(msgspec.Struct, frozen=True, kw_only=True):
    """A game still to play, as a game model sees it."""

    round: int
    white: str
    black: str
    white_rating: float       # the rating the scenario's outcome model uses for this game
    black_rating: float
    control: str


class GameModel(Protocol):
    """What ``Event.simulate(game_model=...)`` accepts."""

    def probabilities(self, games: Sequence[Game]) -> Any:
        """[len(games), 3]: P(white wins), P(draw), P(black wins) of each game."""


def verify_probabilities(p: Any, n_games: int, *, who: str = "game model") -> "Any":
    """``p`` as a float64 array [n_games, 3] if it is one row of probabilities per game
    (finite, within [0, 1], each row summing to 1 within 1e-9), else a one-line refusal
    naming the first bad row."""
    import numpy as np

    try:
        a = np.asarray(p, dtype=np.float64)
    except (TypeError, ValueError):
        raise ScenarioError("must return numbers, one row (P white, P draw, P black) per game",
                            key=who, value=type(p).__name__) from None
    if a.shape != (n_games, 3):
        raise ScenarioError(f"must return shape ({n_games}, 3): one row per game still to "
                            f"play", key=who, value=f"shape {a.shape}")
    for i, row in enumerate(a):
        if not all(math.isfinite(x) for x in row):
            raise ScenarioError("a probability is not a finite number", key=f"{who}: row {i}",
                                value=row.tolist())
        if (row < 0).any() or (row > 1).any():
            raise ScenarioError("a probability is outside [0, 1]", key=f"{who}: row {i}",
                                value=row.tolist())
        if abs(row.sum() - 1.0) > SUM_TOLERANCE:
            raise ScenarioError(f"the probabilities sum to {row.sum():.12g}, not 1",
                                key=f"{who}: row {i}", value=row.tolist())
    return a


def games_of(plan, scn, model) -> list[Game]:
    """The games a round-robin plan still plays, in the plan's order."""
    from ..enums import P_CLASS

    a = plan.args
    cls = int(model.params[a.game_ci, P_CLASS])
    return [Game(round=int(g.round), white=scn.names[g.white], black=scn.names[g.black],
                 white_rating=float(a.rt[a.gseg[i], g.white, cls]),
                 black_rating=float(a.rt[a.gseg[i], g.black, cls]), control=scn.control)
            for i, g in enumerate(plan.remaining)]


def apply_game_model(plan, scn, model, opts, game_model: GameModel):
    """A copy of ``plan`` whose remaining games are drawn from ``game_model``'s (verified)
    probabilities instead of the outcome model's."""
    import copy

    import numpy as np

    from ..formats.roundrobin.plan import RoundRobinPlan

    if not isinstance(plan, RoundRobinPlan):
        raise Unsupported("a game model of your own replaces round-robin games only",
                          file=scn.file, key="game_model", value=type(game_model).__name__)
    if opts.offsets or opts.hot or opts.param_draw:
        raise ScenarioError("a game model of your own gives fixed probabilities; turn off "
                            "offsets, hot Elo and the parameter draw", key="game_model")
    games = games_of(plan, scn, model)
    p = verify_probabilities(game_model.probabilities(games), len(games))
    out = copy.copy(plan)
    gthr = np.ascontiguousarray(np.stack([p[:, 0], p[:, 0] + p[:, 1]], axis=1))
    out.args = plan.args._replace(gthr=gthr)
    return out


class EloModel:
    """The scenario's own outcome model as a game model (a starting point for your own: the
    probabilities ``simulate`` uses when no game model is given)."""

    def __init__(self, model):
        self.model = model

    def probabilities(self, games: Sequence[Game]):
        import numpy as np

        out = np.zeros((len(games), 3))
        for i, g in enumerate(games):
            out[i] = self.model.wdl(g.control, g.white_rating, g.black_rating)
        return out
