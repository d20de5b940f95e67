"""The game-outcome model: P(white win / draw / black win) by time control.

Plain Python and numpy.  The numba twin of :meth:`OutcomeModel.wdl` is
``simcycle.kernels.outcome_nb.wdl_nb``; both read the same parameter array.
"""

from __future__ import annotations

import datetime as dt
import math
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from .errors import ScenarioError
from .kinds import KINDS, REFERENCE_KIND

MODELS = Path(__file__).resolve().parent.parent / "models"
DEFAULT_MODEL_V1 = MODELS / "davidson-elo-v1.toml"
DEFAULT_MODEL = MODELS / "davidson-elo-v2.toml"

from .enums import (N_PARAMS, P_ARMAGEDDON, P_CLASS, P_DRAW0, P_EDGE, P_LEVEL, P_OFFSET_SD,
                    P_OFFSET_SLOPE, P_REF, P_SLOPE, RATING_CLASSES)


CONTROL_PARAMS = ("draw0", "white_edge", "slope", "level")
KAPPA_RANGE = 5.0             # |kappa| above this (a factor e^5 on the draw odds) is refused


@dataclass(frozen=True)
class Control:
    name: str
    rating_class: str
    draw0: float
    white_edge: float
    slope: float
    level: float
    armageddon: bool
    se: dict = field(default_factory=dict, compare=False)   # parameter -> standard error
    fitted: bool | None = None                              # None: the file does not say


@dataclass(frozen=True)
class OutcomeModel:
    name: str
    version: str
    path: str
    reference_rating: float
    rating_blend: float
    offset_sd: dict
    offset_slope: float | None       # None: with offsets each control keeps its own slope
    controls: tuple[Control, ...]
    hot_k: dict = field(default_factory=lambda: {c: 0.0 for c in RATING_CLASSES})
    kinds: dict = field(default_factory=dict)          # kind -> kappa (draw odds x e^kappa)
    kinds_se: dict = field(default_factory=dict)
    offsets_default: bool = False
    offset_sd_se: dict = field(default_factory=dict)
    fit: dict = field(default_factory=dict)            # the [fit] table, as read
    kind: str | None = None                            # the kind for_kind applied
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

    def kappa(self, kind: str | None) -> float:
        """The draw-propensity term of an event kind (0 for the reference kind, for a kind
        the file does not fit, and for None)."""
        if kind is None:
            return 0.0
        if kind not in KINDS:
            raise ScenarioError("unknown event kind; known: " + ", ".join(KINDS), value=kind)
        return float(self.kinds.get(kind, 0.0))

    def for_kind(self, kind: str | None) -> "OutcomeModel":
        """The model for the games of an event of this kind: every control's draw odds
        nu0 = 2 draw0 / (1 - draw0) multiplied by exp(kappa[kind]), i.e. draw0 becomes
        nu0 e^kappa / (2 + nu0 e^kappa).  Kernels read only ``params``, so every game a
        scenario plays (play-offs and tiebreaks included) sees the kind."""
        k = self.kappa(kind)
        if k == 0.0:
            return replace(self, kind=kind)
        ctl = []
        for c in self.controls:
            nu0 = 2.0 * c.draw0 / (1.0 - c.draw0) * math.exp(k)
            ctl.append(replace(c, draw0=nu0 / (2.0 + nu0)))
        return replace(self, controls=tuple(ctl), kind=kind)

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
            out[i, P_OFFSET_SLOPE] = c.slope if self.offset_slope is None else self.offset_slope
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
        slope = self.offset_slope if offsets and self.offset_slope is not None else c.slope
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


def _only(table: dict, allowed: set, where: str, file: str) -> None:
    for k in table:
        if k not in allowed:
            raise ScenarioError("unknown key (allowed: " + ", ".join(sorted(allowed)) + ")",
                                file=file, key=f"{where}.{k}" if where else k)


def _table(raw: dict, key: str, file: str) -> dict:
    t = raw.get(key, {})
    if not isinstance(t, dict):
        raise ScenarioError("must be a table", file=file, key=key)
    return t


def _bool(table: dict, key: str, where: str, file: str, default: bool) -> bool:
    v = table.get(key, default)
    if not isinstance(v, bool):
        raise ScenarioError("must be true or false", file=file, key=f"{where}.{key}", value=v)
    return v


def _se(table: dict, key: str, where: str, file: str, hi: float) -> float | None:
    """An optional standard error ``key``: a finite number in [0, hi]."""
    return _num(table, key, where, file, 0.0, hi) if key in table else None


def _fit_table(raw: dict, f: str) -> dict:
    """``[fit]``: what the parameters were fitted on (written by ``simcycle fit``)."""
    t = _table(raw, "fit", f)
    counts = {f"games_{c}" for c in RATING_CLASSES}
    _only(t, {"data", "method", "window", "loglik", "kinds", "level", "note", "kinds_min_games",
              "form_min_games", *counts}, "fit", f)
    for k in ("data", "method", "note"):
        if k in t and not isinstance(t[k], str):
            raise ScenarioError("must be a string", file=f, key=f"fit.{k}", value=t[k])
    if "window" in t:
        w = t["window"]
        ok = isinstance(w, list) and len(w) == 2 and all(isinstance(x, str) for x in w)
        try:
            ok = ok and dt.date.fromisoformat(w[0]) <= dt.date.fromisoformat(w[1])
        except ValueError:
            ok = False
        if not ok:
            raise ScenarioError('must be ["YYYY-MM-DD", "YYYY-MM-DD"], first day first', file=f,
                                key="fit.window", value=w)
    for k in (*counts, "kinds_min_games", "form_min_games"):
        if k in t and (isinstance(t[k], bool) or not isinstance(t[k], int) or t[k] < 0):
            raise ScenarioError("must be a whole number >= 0", file=f, key=f"fit.{k}", value=t[k])
    if "loglik" in t:
        _num(t, "loglik", "fit", f, -1e12, 0.0)
    for k in ("kinds", "level"):
        _bool(t, k, "fit", f, True)
    return dict(t)


def _kinds_table(raw: dict, f: str) -> tuple[dict, dict]:
    """``[kinds]``: kappa per event kind (``candidates = -0.25``, ``candidates_se = 0.16``)."""
    t = _table(raw, "kinds", f)
    _only(t, set(KINDS) | {f"{k}_se" for k in KINDS}, "kinds", f)
    kappa = {k: _num(t, k, "kinds", f, -KAPPA_RANGE, KAPPA_RANGE) for k in KINDS if k in t}
    se = {k: _num(t, f"{k}_se", "kinds", f, 0.0, 10.0) for k in KINDS if f"{k}_se" in t}
    if kappa.get(REFERENCE_KIND, 0.0) != 0.0:
        raise ScenarioError(f"{REFERENCE_KIND} is the reference kind: its kappa is 0 by "
                            "definition", file=f, key=f"kinds.{REFERENCE_KIND}",
                            value=kappa[REFERENCE_KIND])
    return kappa, se


def load_model(path: str | Path | None = None) -> OutcomeModel:
    """Read and validate a model TOML file (default: the shipped default model)."""
    p = Path(path) if path is not None else DEFAULT_MODEL
    f = str(p)
    try:
        raw = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ScenarioError("model file not found", file=f) from None
    except IsADirectoryError:
        raise ScenarioError("is a directory, not a model file", file=f) from None
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(f"not valid TOML: {e}", file=f) from None
    _only(raw, {"model", "fit", "offsets", "hot", "kinds", "controls"}, "", f)
    head = raw.get("model")
    if not isinstance(head, dict):
        raise ScenarioError("missing [model] table", file=f, key="model")
    _only(head, {"name", "version", "reference_rating", "rating_blend", "notes"}, "model", f)
    if head.get("name") != "davidson-elo":
        raise ScenarioError("only the 'davidson-elo' form is implemented", file=f,
                            key="model.name", value=head.get("name"))
    ref = _num(head, "reference_rating", "model", f, 1000, 3500)
    blend = _num(head, "rating_blend", "model", f, 0, 1)
    off = _table(raw, "offsets", f)
    _only(off, {"default", "slope", *(f"sd_{c}" for c in RATING_CLASSES),
                *(f"sd_{c}_se" for c in RATING_CLASSES)}, "offsets", f)
    offset_sd = {cls: _num(off, f"sd_{cls}", "offsets", f, 0, 400) for cls in RATING_CLASSES}
    offset_sd_se = {cls: v for cls in RATING_CLASSES
                    if (v := _se(off, f"sd_{cls}_se", "offsets", f, 400)) is not None}
    offset_slope = _num(off, "slope", "offsets", f, 0, 2) if "slope" in off else None
    offsets_default = _bool(off, "default", "offsets", f, False)
    hot = _table(raw, "hot", f)
    _only(hot, {f"k_{c}" for c in RATING_CLASSES}, "hot", f)
    hot_k = {cls: (_num(hot, f"k_{cls}", "hot", f, 0, 100) if f"k_{cls}" in hot else 0.0)
             for cls in RATING_CLASSES}
    fit_info = _fit_table(raw, f)
    kinds, kinds_se = _kinds_table(raw, f)
    ctl = raw.get("controls")
    if not isinstance(ctl, dict) or not ctl:
        raise ScenarioError("missing [controls.*] tables", file=f, key="controls")
    controls = []
    for name, t in ctl.items():
        where = f"controls.{name}"
        if not isinstance(t, dict):
            raise ScenarioError("must be a table", file=f, key=where)
        _only(t, {"rating_class", "draw_counts_for_black", "fitted", *CONTROL_PARAMS,
                  *(f"{q}_se" for q in CONTROL_PARAMS)}, where, f)
        cls = t.get("rating_class")
        if cls not in RATING_CLASSES:
            raise ScenarioError(f"rating_class must be one of {', '.join(RATING_CLASSES)}",
                                file=f, key=f"{where}.rating_class", value=cls)
        arm = _bool(t, "draw_counts_for_black", where, f, False)
        fitted = _bool(t, "fitted", where, f, False) if "fitted" in t else None
        limits = {"draw0": (0.0, 0.99), "white_edge": (-400, 400), "slope": (0, 2),
                  "level": (-5, 5)}
        se = {q: v for q in CONTROL_PARAMS
              if (v := _se(t, f"{q}_se", where, f, limits[q][1] - limits[q][0])) is not None}
        controls.append(Control(
            name=name, rating_class=cls,
            **{q: _num(t, q, where, f, *limits[q]) for q in CONTROL_PARAMS},
            armageddon=arm, se=se, fitted=fitted,
        ))
    model = OutcomeModel(name=head["name"], version=str(head.get("version", "")), path=f,
                         reference_rating=ref, rating_blend=blend, offset_sd=offset_sd,
                         offset_slope=offset_slope, controls=tuple(controls), hot_k=hot_k,
                         kinds=kinds, kinds_se=kinds_se, offsets_default=offsets_default,
                         offset_sd_se=offset_sd_se, fit=fit_info)
    model._index.update({c.name: i for i, c in enumerate(controls)})
    return model
