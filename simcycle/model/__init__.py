"""The game-outcome model: P(white win / draw / black win) by time control.

Plain Python and numpy.  The numba twin of :meth:`OutcomeModel.wdl` is
``simcycle.kernels.game_nb.wdl_nb``; both read the same parameter array.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Literal

import msgspec
import numpy as np

from ..enums import (N_PARAMS, P_ARMAGEDDON, P_CLASS, P_DRAW0, P_EDGE, P_LEVEL, P_OFFSET_SD,
                    P_OFFSET_SLOPE, P_REF, P_SLOPE, RATING_CLASSES)
from ..errors import ScenarioError
from ..files import read_toml
from ..kinds import KINDS, REFERENCE_KIND
from ..resources import MODELS
from ..schema import Name, Table, Text, between, convert, whole_between

DEFAULT_MODEL_V1 = MODELS / "davidson-elo-v1.toml"
DEFAULT_MODEL_V2 = MODELS / "davidson-elo-v2.toml"
DEFAULT_MODEL_V3 = MODELS / "davidson-elo-v3.toml"
DEFAULT_MODEL = MODELS / "davidson-elo-v4.toml"

CONTROL_PARAMS = ("draw0", "white_edge", "slope", "level")
COV_NAME = r"^(u0|white_edge|slope|level):(classical|rapid|blitz|armageddon)$|^kappa:[a-z-]+$"
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
    cov_names: tuple = ()                              # [covariance]: the fit's parameters
    cov: np.ndarray | None = field(default=None, compare=False)   # ... and their covariance
    _index: dict = field(default_factory=dict, compare=False, repr=False)

    # -- look-ups -----------------------------------------------------------------------
    def index(self, control: str, *, file: str | None = None, key: str | None = None) -> int:
        try:
            return self._index[control]
        except KeyError:
            raise ScenarioError(
                f"unknown time control; the model {self.name} "
                + (f"({Path(str(self.path)).name}) " if self.path else "") + "knows "
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
        scenario plays (play-offs and tiebreaks included) sees the kind.

        Idempotent and relative to the file's reference kind: a model already for one kind
        (``self.kind``) is moved by the difference of the two terms, so ``for_kind(k)`` twice
        (a cycle's part compiled with the cycle's model) is ``for_kind(k)`` once."""
        if kind == self.kind:
            return self
        k = self.kappa(kind) - self.kappa(self.kind)
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

    def field_note(self, ratings) -> str | None:
        """One line when a field's mean classical rating lies outside the band of mean
        ratings the model was fitted on (``[fit] level_band``), else None."""
        band = self.fit.get("level_band")
        if not band or not len(ratings):
            return None
        mean = float(np.mean(np.asarray(ratings, float)))
        if band[0] <= mean <= band[1]:
            return None
        return (f"note: the field's mean rating {mean:.0f} is outside {band[0]:.0f}-"
                f"{band[1]:.0f}, the mean ratings of the games {self.name} {self.version} was "
                "fitted on (no women's event among them): its draw rates here extrapolate the "
                "level term (docs/model.md)")

    def draw_factor(self, control: str) -> np.ndarray:
        """Float64 [4, 4] A with A A^T the covariance of this control's game terms (ln nu0
        with the kind's kappa added, White's edge, slope, level per Elo) under the fit
        (``[covariance]``): a replica's parameters are the file's plus A z, z ~ N(0, I)
        (``--param-draw``, docs/model.md).  Refused in one line when the file has no
        covariance or the control was not fitted."""
        from .modelfile import FITTED_CONTROL

        where = f"the model {self.name} {self.version}" + (
            f" ({Path(str(self.path)).name})" if self.path else "")
        if self.cov is None:
            raise ScenarioError(f"{where} has no [covariance] table (a file written by "
                                "simcycle fit has one): the parameter draw needs it",
                                key="--param-draw", value=control)
        c = self.control(control)
        cls = next((k for k, names in FITTED_CONTROL.items() if c.name in names), None)
        pos = {nm: j for j, nm in enumerate(self.cov_names)}
        if cls is None or not c.fitted or f"u0:{cls}" not in pos:
            raise ScenarioError(f"the control is not fitted in {where}: it has no covariance "
                                "to draw its parameters from", key="--param-draw", value=control)
        J = np.zeros((4, len(self.cov_names)))
        for row, (q, scale) in enumerate((("u0", 1.0), ("white_edge", 1.0), ("slope", 1.0),
                                          ("level", 0.01))):
            j = pos.get(f"{q}:{cls}")
            if j is not None:          # a held parameter has no row: it is not drawn
                J[row, j] = scale
        k = pos.get(f"kappa:{self.kind}")
        if k is not None:
            J[0, k] = 1.0
        cov4 = J @ self.cov @ J.T
        w, v = np.linalg.eigh((cov4 + cov4.T) / 2.0)
        return np.ascontiguousarray(v * np.sqrt(np.clip(w, 0.0, None)))

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


def davidson_wdl(draw0, edge, slope, level, reference, r_white, r_black, exp=math.exp):
    """(P White wins, P draw, P Black wins) of the Davidson-Elo form (docs/model.md); with
    ``exp=np.exp`` the ratings may be arrays (the backtest scores many games at once)."""
    nu = 2.0 * draw0 / (1.0 - draw0) * exp(level * ((r_white + r_black) / 2.0 - reference))
    delta = (1.0 + nu / 2.0) * (slope * (r_white - r_black) + edge)
    s = 10.0 ** (delta / 800.0)
    norm = s + 1.0 / s + nu
    return s / norm, nu / norm, (1.0 / s) / norm


# ---- the model file, declared (every key, type and range; unknown keys refused) -------------
class ModelHead(Table):
    name: Literal["davidson-elo"]
    reference_rating: between(1000, 3500)
    rating_blend: between(0, 1)
    version: Text = ""
    notes: Text = ""


class FitInfo(Table):
    """``[fit]``: what the parameters were fitted on (written by ``simcycle fit``)."""

    data: Text = ""
    method: Text = ""
    note: Text = ""
    window: tuple[Text, Text] | None = None
    loglik: between(-1e12, 0) | None = None
    kinds: bool = True
    level: bool = True
    kinds_min_games: whole_between(0, 10**9) | None = None
    form_min_games: whole_between(0, 10**9) | None = None
    games_classical: whole_between(0, 10**9) | None = None
    games_rapid: whole_between(0, 10**9) | None = None
    games_blitz: whole_between(0, 10**9) | None = None
    games_armageddon: whole_between(0, 10**9) | None = None
    level_band: tuple[between(1000, 3500), between(1000, 3500)] | None = None
    # the fit's prior: parameter name or prefix -> [centre, sd] (N(centre, sd^2))
    prior: dict[Text, tuple[between(-1e3, 1e3), between(1e-9, 1e3)]] | None = None


SD = between(0, 400)


class Covariance(Table):
    """``[covariance]``: the fit's free parameters (``u0:classical``, ``slope:rapid``,
    ``kappa:candidates``, ...) and their covariance, the inverse observed information."""

    names: list[Annotated[str, msgspec.Meta(pattern=COV_NAME)]]
    matrix: list[list[between(-1e6, 1e6)]]


class Offsets(Table):
    sd_classical: SD
    sd_rapid: SD
    sd_blitz: SD
    default: bool = False
    slope: between(0, 2) | None = None
    sd_classical_se: SD | None = None
    sd_rapid_se: SD | None = None
    sd_blitz_se: SD | None = None


class Hot(Table):
    k_classical: between(0, 100) = 0.0
    k_rapid: between(0, 100) = 0.0
    k_blitz: between(0, 100) = 0.0


LIMITS = {"draw0": (0.0, 0.99), "white_edge": (-400.0, 400.0), "slope": (0.0, 2.0),
          "level": (-5.0, 5.0)}
ControlTable = msgspec.defstruct(
    "ControlTable",
    [("rating_class", Literal[RATING_CLASSES])]
    + [(q, between(*LIMITS[q])) for q in CONTROL_PARAMS]
    + [("draw_counts_for_black", bool, False), ("fitted", bool | None, None)]
    + [(f"{q}_se", between(0, LIMITS[q][1] - LIMITS[q][0]) | None, None) for q in CONTROL_PARAMS],
    bases=(Table,), kw_only=True, forbid_unknown_fields=True, frozen=True)
def _ident(key: str) -> str:
    return key.replace("-", "_")


KindsTable = msgspec.defstruct(   # kappa per kind and its standard error ("candidates_se")
    "KindsTable",
    [(_ident(k), between(-KAPPA_RANGE, KAPPA_RANGE) | None, msgspec.field(default=None, name=k))
     for k in KINDS]
    + [(_ident(k) + "_se", between(0, 10) | None, msgspec.field(default=None, name=f"{k}_se"))
       for k in KINDS],
    bases=(Table,), kw_only=True, forbid_unknown_fields=True, frozen=True)


class ModelFile(Table):
    model: ModelHead
    offsets: Offsets
    controls: dict[Name, ControlTable]
    fit: FitInfo = FitInfo()
    hot: Hot = Hot()
    kinds: KindsTable = KindsTable()
    covariance: Covariance | None = None


def load_model(path: str | Path | None = None) -> OutcomeModel:
    """Read and validate a model TOML file (default: the shipped default model)."""
    p = Path(path) if path is not None else DEFAULT_MODEL
    f = str(p)
    doc = convert(read_toml(p, "model file"), ModelFile, f)
    if not doc.controls:
        raise ScenarioError("missing [controls.*] tables", file=f, key="controls")
    _check_window(doc.fit.window, f)
    kinds, kinds_se = _kinds(doc.kinds, f)
    cov_names, cov = _covariance(doc.covariance, f)
    off = doc.offsets
    controls = tuple(_control(name, t) for name, t in doc.controls.items())
    model = OutcomeModel(
        name=doc.model.name, version=doc.model.version, path=f,
        reference_rating=float(doc.model.reference_rating),
        rating_blend=float(doc.model.rating_blend),
        offset_sd={c: float(getattr(off, f"sd_{c}")) for c in RATING_CLASSES},
        offset_slope=off.slope, controls=controls,
        hot_k={c: float(getattr(doc.hot, f"k_{c}")) for c in RATING_CLASSES},
        kinds=kinds, kinds_se=kinds_se, offsets_default=off.default,
        offset_sd_se=_given({c: getattr(off, f"sd_{c}_se") for c in RATING_CLASSES}),
        fit=_given({k: list(v) if isinstance(v, tuple) else v
                    for k, v in msgspec.structs.asdict(doc.fit).items()}),
        cov_names=cov_names, cov=cov)
    model._index.update({c.name: i for i, c in enumerate(controls)})
    return model


def _given(d: dict) -> dict:
    """``d`` without the entries the file left out (None)."""
    return {k: v for k, v in d.items() if v is not None}


def _check_window(window: tuple | None, f: str) -> None:
    """``[fit] window``, when given, is two ISO dates, the first not after the second."""
    if window is None:
        return
    try:
        lo, hi = (dt.date.fromisoformat(d) for d in window)
        ok = lo <= hi
    except ValueError:
        ok = False
    if not ok:
        raise ScenarioError('must be ["YYYY-MM-DD", "YYYY-MM-DD"], first day first', file=f,
                            key="fit.window", value=list(window))


def _kinds(t, f: str) -> tuple[dict, dict]:
    """The ``[kinds]`` table as (kappa by kind, its standard error by kind), the kinds the
    file gives only; the reference kind's kappa, if given, must be 0."""
    kinds = _given({k: getattr(t, _ident(k)) for k in KINDS})
    kinds_se = _given({k: getattr(t, _ident(k) + "_se") for k in KINDS})
    if kinds.get(REFERENCE_KIND, 0.0) != 0.0:
        raise ScenarioError(f"{REFERENCE_KIND} is the reference kind: its kappa is 0 by "
                            "definition", file=f, key=f"kinds.{REFERENCE_KIND}",
                            value=kinds[REFERENCE_KIND])
    return kinds, kinds_se


def _control(name: str, t) -> Control:
    """One ``[controls.NAME]`` table as a :class:`Control`."""
    return Control(name=name, rating_class=t.rating_class,
                   **{q: float(getattr(t, q)) for q in CONTROL_PARAMS},
                   armageddon=t.draw_counts_for_black, fitted=t.fitted,
                   se=_given({q: getattr(t, f"{q}_se") for q in CONTROL_PARAMS}))


def _covariance(t: Covariance | None, f: str) -> tuple[tuple, np.ndarray | None]:
    """The ``[covariance]`` table checked: square, one row per name, names unique, symmetric
    and positive semi-definite (to rounding)."""
    if t is None:
        return (), None
    n = len(t.names)
    if len(set(t.names)) != n:
        raise ScenarioError("names repeat", file=f, key="covariance.names", value=t.names)
    if len(t.matrix) != n or any(len(r) != n for r in t.matrix):
        raise ScenarioError(f"must be {n} rows of {n} numbers (one per name)", file=f,
                            key="covariance.matrix", value=[len(r) for r in t.matrix])
    m = np.array(t.matrix, float).reshape(n, n)
    scale = max(float(np.max(np.abs(m))) if n else 0.0, 1e-300)
    if n and (not np.allclose(m, m.T, rtol=1e-4, atol=1e-9 * scale)
              or np.linalg.eigvalsh((m + m.T) / 2.0).min() < -1e-6 * scale):
        raise ScenarioError("must be symmetric and positive semi-definite", file=f,
                            key="covariance.matrix", value=f"{n} x {n}")
    return tuple(t.names), (m + m.T) / 2.0
