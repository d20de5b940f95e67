"""The game-outcome model: P(white win / draw / black win) by time control.

Plain Python and numpy.  The numba twin of :meth:`OutcomeModel.wdl` is
``simcycle.kernels.outcome_nb.wdl_nb``; both read the same parameter array.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .errors import ScenarioError

DEFAULT_MODEL = Path(__file__).resolve().parent.parent / "models" / "davidson-elo-v1.toml"

from .enums import (N_PARAMS, P_ARMAGEDDON, P_CLASS, P_DRAW0, P_EDGE, P_LEVEL, P_OFFSET_SD,
                    P_OFFSET_SLOPE, P_REF, P_SLOPE, RATING_CLASSES)


@dataclass(frozen=True)
class Control:
    name: str
    rating_class: str
    draw0: float
    white_edge: float
    slope: float
    level: float
    armageddon: bool


@dataclass(frozen=True)
class OutcomeModel:
    name: str
    version: str
    path: str
    reference_rating: float
    rating_blend: float
    offset_sd: dict
    offset_slope: float
    controls: tuple[Control, ...]
    hot_k: dict = field(default_factory=lambda: {c: 0.0 for c in RATING_CLASSES})
    _index: dict = field(default_factory=dict, compare=False, repr=False)

    # -- look-ups -----------------------------------------------------------------------
    def index(self, control: str, *, file: str | None = None, key: str | None = None) -> int:
        try:
            return self._index[control]
        except KeyError:
            raise ScenarioError(
                f"unknown time control; the model {self.name} knows "
                + ", ".join(c.name for c in self.controls), file=file, key=key, value=control
            ) from None

    def control(self, name: str) -> Control:
        return self.controls[self.index(name)]

    @property
    def params(self) -> np.ndarray:
        """Float64 array [n_controls, N_PARAMS] read by the kernels."""
        out = np.zeros((len(self.controls), N_PARAMS))
        for i, c in enumerate(self.controls):
            out[i, P_DRAW0] = c.draw0
            out[i, P_EDGE] = c.white_edge
            out[i, P_SLOPE] = c.slope
            out[i, P_LEVEL] = c.level
            out[i, P_CLASS] = RATING_CLASSES.index(c.rating_class)
            out[i, P_ARMAGEDDON] = 1.0 if c.armageddon else 0.0
            out[i, P_OFFSET_SD] = self.offset_sd[c.rating_class]
            out[i, P_OFFSET_SLOPE] = self.offset_slope
            out[i, P_REF] = self.reference_rating
        out[:, P_LEVEL] /= 100.0
        return out

    def class_index(self, control: str) -> int:
        return RATING_CLASSES.index(self.control(control).rating_class)

    def rating_table(self, players_ratings: list[dict]) -> np.ndarray:
        """Float64 [n_players, 3]: each player's rating per rating class, blended."""
        out = np.zeros((len(players_ratings), len(RATING_CLASSES)))
        for i, r in enumerate(players_ratings):
            base = float(r["classical"])
            for k, cls in enumerate(RATING_CLASSES):
                own = r.get(cls)
                out[i, k] = base if (k == 0 or own is None) else (
                    self.rating_blend * float(own) + (1.0 - self.rating_blend) * base)
        return out

    def rating(self, ratings: dict, control: str) -> float:
        """The rating a player brings to a game at ``control``.

        ``ratings`` maps rating class to rating; ``classical`` is required.  A rapid or
        blitz rating, when known, is blended with the classical one (``rating_blend``).
        """
        cls = self.control(control).rating_class
        base = float(ratings["classical"])
        own = ratings.get(cls)
        if cls == "classical" or own is None:
            return base
        return self.rating_blend * float(own) + (1.0 - self.rating_blend) * base

    # -- probabilities ------------------------------------------------------------------
    def wdl(self, control: str, r_white: float, r_black: float, *, offsets: bool = False):
        """(P white wins, P draw, P black wins) of one game; raw, before Armageddon rules."""
        c = self.control(control)
        slope = self.offset_slope if offsets else c.slope
        return davidson_wdl(c.draw0, c.white_edge, slope, c.level / 100.0,
                            self.reference_rating, r_white, r_black)

    def white_goes_through(self, control: str, r_white: float, r_black: float) -> float:
        """For a decisive single game (Armageddon): P(White goes through)."""
        pw, pd, pb = self.wdl(control, r_white, r_black)
        return pw if self.control(control).armageddon else pw + pd / 2.0


def davidson_wdl(draw0, edge, slope, level, reference, r_white, r_black):
    nu = 2.0 * draw0 / (1.0 - draw0) * math.exp(level * ((r_white + r_black) / 2.0 - reference))
    delta = (1.0 + nu / 2.0) * (slope * (r_white - r_black) + edge)
    s = 10.0 ** (delta / 800.0)
    norm = s + 1.0 / s + nu
    return s / norm, nu / norm, (1.0 / s) / norm


def _num(table: dict, key: str, where: str, file: str, lo: float, hi: float) -> float:
    if key not in table:
        raise ScenarioError("missing number", file=file, key=f"{where}.{key}")
    v = table[key]
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not (lo <= v <= hi):
        raise ScenarioError(f"must be a number in [{lo}, {hi}]", file=file, key=f"{where}.{key}", value=v)
    return float(v)


def load_model(path: str | Path | None = None) -> OutcomeModel:
    """Read and validate a model TOML file (default: the shipped Davidson-Elo v1)."""
    p = Path(path) if path is not None else DEFAULT_MODEL
    f = str(p)
    try:
        raw = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ScenarioError("model file not found", file=f) from None
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(f"not valid TOML: {e}", file=f) from None
    head = raw.get("model")
    if not isinstance(head, dict):
        raise ScenarioError("missing [model] table", file=f, key="model")
    if head.get("name") != "davidson-elo":
        raise ScenarioError("only the 'davidson-elo' form is implemented", file=f,
                            key="model.name", value=head.get("name"))
    ref = _num(head, "reference_rating", "model", f, 1000, 3500)
    blend = _num(head, "rating_blend", "model", f, 0, 1)
    off = raw.get("offsets", {})
    offset_sd = {cls: _num(off, f"sd_{cls}", "offsets", f, 0, 400) for cls in RATING_CLASSES}
    offset_slope = _num(off, "slope", "offsets", f, 0, 2)
    hot = raw.get("hot", {})
    if not isinstance(hot, dict):
        raise ScenarioError("must be a table", file=f, key="hot")
    hot_k = {cls: (_num(hot, f"k_{cls}", "hot", f, 0, 100) if f"k_{cls}" in hot else 0.0)
             for cls in RATING_CLASSES}
    ctl = raw.get("controls")
    if not isinstance(ctl, dict) or not ctl:
        raise ScenarioError("missing [controls.*] tables", file=f, key="controls")
    controls = []
    for name, t in ctl.items():
        where = f"controls.{name}"
        if not isinstance(t, dict):
            raise ScenarioError("must be a table", file=f, key=where)
        cls = t.get("rating_class")
        if cls not in RATING_CLASSES:
            raise ScenarioError(f"rating_class must be one of {', '.join(RATING_CLASSES)}",
                                file=f, key=f"{where}.rating_class", value=cls)
        arm = t.get("draw_counts_for_black", False)
        if not isinstance(arm, bool):
            raise ScenarioError("must be true or false", file=f, key=f"{where}.draw_counts_for_black", value=arm)
        controls.append(Control(
            name=name, rating_class=cls,
            draw0=_num(t, "draw0", where, f, 0.0, 0.99),
            white_edge=_num(t, "white_edge", where, f, -400, 400),
            slope=_num(t, "slope", where, f, 0, 2),
            level=_num(t, "level", where, f, -5, 5),
            armageddon=arm,
        ))
    model = OutcomeModel(name=head["name"], version=str(head.get("version", "")), path=f,
                         reference_rating=ref, rating_blend=blend, offset_sd=offset_sd,
                         offset_slope=offset_slope, controls=tuple(controls), hot_k=hot_k)
    model._index.update({c.name: i for i, c in enumerate(controls)})
    return model
