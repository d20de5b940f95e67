"""Maximum-likelihood fit of the Davidson-Elo model to games, and the spread of players' form.

The model of ``docs/model.md`` for one game of rating class c and event kind k, with
d = R_white - R_black and x = (mean rating - reference) / 100:

    u = log nu = u0_c + level_c * x + kappa_k          (kappa of the reference kind is 0)
    e = slope_c * d + edge_c                            (Elo)
    a = L * (1 + nu/2) * e,   L = ln(10) / 800          (so s = 10^(Delta/800) = exp(a))
    log P(white) = a - log N,  log P(draw) = u - log N,  log P(black) = -a - log N,
    N = exp(a) + exp(-a) + nu

The parameters are theta = (u0, edge, slope, level) for each fitted class, then kappa for each
fitted kind; draw0 = nu0 / (2 + nu0) with nu0 = exp(u0).  u is linear in theta and a is
linear in (edge, slope) given u, so the gradient and the Hessian of the log-likelihood are
written out below (chain rule through u and a) and checked against finite differences in the
tests.  Standard errors come from the observed information (minus the Hessian) at the optimum.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..errors import ScenarioError
from .gamedata import BLACK_WINS, DRAW, WHITE_WINS, Games
from ..kinds import REFERENCE_KIND

L = math.log(10.0) / 800.0
FIT_CLASSES = ("classical", "rapid")
BAND_PCT = (2.5, 97.5)   # the fitted band of mean ratings: the middle 95 % of the games
# Armageddon: 124 games do not determine the slope and the level term (level 0.24 +- 0.90
# when free): held at the values of the base model's Armageddon (v1: slope 0.85, level 0)
ARMAGEDDON_HOLD = {"slope:armageddon": 0.85, "level:armageddon": 0.0}
PER_CLASS = ("u0", "white_edge", "slope", "level")
MIN_KIND_GAMES = 100          # a kind with fewer games keeps kappa = 0 (not fitted)
MIN_FORM_GAMES = 5            # player-events with fewer games do not inform the form spread
START = {"u0": math.log(2 * 0.65 / 0.35), "white_edge": 30.0, "slope": 0.6, "level": 0.2}
# Optional terms, tried by the backtest (docs/model.md, "per kind"): kslope, a slope shift per
# event kind (d's coefficient becomes slope_c + kslope_k); levelc, the level term on the mean
# rating clamped to LEVEL_CLAMP (in hundreds of Elo from the reference: 2550-2850), bounded
# outside it, in place of the linear one; kspeed, a draw term per event kind for the rapid
# games only (their kappa_k + kspeed_k; with a ridge prior, the reference kind's too);
# levelshared, one level term for the classical and rapid games together (each control's own
# held at 0).
EXTRA_TERMS = ("kslope", "levelc", "kspeed", "levelshared")
# the optional terms' columns a FitData carries unless asked for more (the backtest adds those
# its variants name): the design's width enters the sums of its products in the last bit, so
# the default backtest's layout stays as it was
DESIGN_EXTRA = ("kslope", "levelc")
LEVEL_CLAMP = (-2.0, 1.0)
# The prior of the default procedure (`simcycle fit`, the backtest's `fit`; docs/model.md, "A
# prior for small fits"): N(centre, sd^2) on every fitted control's slope and level term, so
# that a fit on a few hundred games (the first months of the time-ordered backtest) is not
# wild; on the 5,315 classical games it moves no parameter by more than 0.2 of its SE.
#  slope: centre 0.83 = 400/480, Sonas's finding that FIDE results fit Elo's expected score
#    with 480 in place of 400 (the stronger player scores less than Elo says; Jeff Sonas,
#    ChessBase, 2002: docs/model.md [SON]); sd 0.2 covers v1's 0.62 and Elo's own 1.0 within
#    1.1 sd.
#  level: centre 0.40 per 100 Elo, from the draw rates counted in the public games of [FC]
#    (huffyhenry/forecasting-candidates, 2018-21: 61 % draws at a mean rating of 2600-2700,
#    72 % at 2750-2800: ln((2*.72/.28) / (2*.61/.39)) / 1.25 = 0.40); sd 0.25 (0 at 1.6 sd:
#    the sign is what is known -- draws rise with strength -- the size is not).
PRIOR = {"slope": (0.83, 0.2), "level": (0.40, 0.25)}
SCALE = {"u0": 1.0, "white_edge": 100.0, "slope": 1.0, "level": 1.0}   # optimiser units


@dataclass
class Design:
    """The games of a fit as matrices: u = Zu @ theta, e = W @ theta."""
    names: list[str]
    Zu: np.ndarray
    W: np.ndarray
    y: np.ndarray       # result codes
    n: int


def _extra_names(classes, kinds, extra) -> list[str]:
    """The names of the optional terms (``EXTRA_TERMS``) asked for, in design order."""
    return ([f"kslope:{k}" for k in kinds if "kslope" in extra]
            + [f"levelc:{c}" for c in classes if "levelc" in extra]
            + [f"kspeed:{k}" for k in (REFERENCE_KIND, *kinds)
               if "kspeed" in extra and "rapid" in classes]
            + (["levelshared:all"] if "levelshared" in extra else []))


# The optional terms' columns: prefix -> (the matrix it enters, its column given the term's
# argument, each game's class name ("" outside the fitted classes), kind, rating gap d and
# level x), 0 off the games it concerns.
_EXTRA_COLUMNS = {
    # the slope of this kind's games moved by kslope (d's coefficient)
    "kslope": ("W", lambda k, ctl, kind, d, x: np.where((kind == k) & (ctl != ""), d, 0.0)),
    # the level term on the mean rating of this class's games, clamped to a band
    "levelc": ("Zu", lambda c, ctl, kind, d, x: np.where(ctl == c, np.clip(x, *LEVEL_CLAMP),
                                                         0.0)),
    # the draw odds of this kind's rapid games
    "kspeed": ("Zu", lambda k, ctl, kind, d, x: ((kind == k) & (ctl == "rapid")).astype(float)),
    # one level term for the classical and rapid games
    "levelshared": ("Zu", lambda _, ctl, kind, d, x: np.where((ctl == "classical")
                                                              | (ctl == "rapid"), x, 0.0)),
}


def _design(games: Games, classes: tuple[str, ...], kinds: tuple[str, ...],
            reference: float, extra: tuple[str, ...] = ()) -> Design:
    names = ([f"{p}:{c}" for c in classes for p in PER_CLASS] + [f"kappa:{k}" for k in kinds]
             + _extra_names(classes, kinds, extra))
    n, p = len(games), len(names)
    Zu, W = np.zeros((n, p)), np.zeros((n, p))
    code = {c: j for j, c in enumerate(classes)}
    cls = np.array([code.get(c, -1) for c in games.control], np.int64)
    on = cls >= 0
    rows = np.flatnonzero(on)
    ctl = np.where(on, np.array(games.control, dtype=object), "")
    d = np.where(on, games.white_rating - games.black_rating, 0.0)
    x = np.where(on, ((games.white_rating + games.black_rating) / 2.0 - reference) / 100.0, 0.0)
    Zu[rows, 4 * cls[rows]] = 1.0
    Zu[rows, 4 * cls[rows] + 3] = x[rows]
    W[rows, 4 * cls[rows] + 1] = 1.0
    W[rows, 4 * cls[rows] + 2] = d[rows]
    kind = np.array(games.kind, dtype=object)
    for j, k in enumerate(kinds):
        Zu[kind == k, 4 * len(classes) + j] = 1.0
    mats = {"Zu": Zu, "W": W}
    for j in range(4 * len(classes) + len(kinds), p):
        pre, _, arg = names[j].partition(":")
        which, column = _EXTRA_COLUMNS[pre]
        mats[which][:, j] = column(arg, ctl, kind, d, x)
    return Design(names, Zu, W, games.result.astype(np.int64), n)


@dataclass
class FitData:
    """Games prepared once for many fits on subsets of them (the time-ordered backtest fits
    hundreds): the design over every class and kind present, and each game's class, kind and
    date as arrays."""
    games: Games
    classes: tuple
    kinds: tuple                 # every kind present but the reference
    des: Design
    cls: np.ndarray              # class index per game
    kind: np.ndarray             # kind name per game (object array)
    date: np.ndarray             # ISO date per game (str array)
    reference: float

    @classmethod
    def of(cls, games: Games, classes: tuple[str, ...] = FIT_CLASSES,
           reference: float = 2750.0, extra: tuple[str, ...] = DESIGN_EXTRA) -> "FitData":
        """``extra``: the optional terms (``EXTRA_TERMS``) whose columns the design has."""
        sel = games.take(games.where(controls=set(classes)))
        classes = tuple(c for c in classes if c in set(sel.control))
        kinds = tuple(sorted(set(sel.kind) - {REFERENCE_KIND}))
        code = {c: j for j, c in enumerate(classes)}
        return cls(sel, classes, kinds, _design(sel, classes, kinds, reference, extra),
                   np.array([code[c] for c in sel.control], np.int64),
                   np.array(sel.kind, dtype=object), np.array(sel.date), reference)

    def full_theta(self, res: "FitResult") -> np.ndarray:
        """A fit's parameters placed in this design's columns (0 for those it lacks)."""
        pos = {nm: j for j, nm in enumerate(self.des.names)}
        th = np.zeros(len(self.des.names))
        for nm, v in zip(res.names, res.theta):
            th[pos[nm]] = v
        return th

    def probabilities(self, res: "FitResult", rows: np.ndarray) -> np.ndarray:
        """[len(rows), 3] P(white wins, draw, black wins) of the games ``rows`` under a fit
        (a class or kind the fit lacks keeps its terms at 0)."""
        th = self.full_theta(res)
        u = self.des.Zu[rows] @ th
        a = L * (1.0 + np.exp(u) / 2.0) * (self.des.W[rows] @ th)
        _, pw, pd, pb = _probs(u, a)
        return np.column_stack([pw, pd, pb])


def _probs(u, a):
    """(log N, P white, P draw, P black), stably."""
    m = np.maximum(np.abs(a), u)
    log_n = m + np.log(np.exp(a - m) + np.exp(-a - m) + np.exp(u - m))
    return log_n, np.exp(a - log_n), np.exp(u - log_n), np.exp(-a - log_n)


def loglik(theta: np.ndarray, des: Design, order: int = 2):
    """Log-likelihood, and with order >= 1 its gradient, with order 2 its Hessian."""
    u = des.Zu @ theta
    e = des.W @ theta
    nu = np.exp(u)
    A = 1.0 + nu / 2.0
    a = L * A * e
    log_n, pw, pd, pb = _probs(u, a)
    yw, yd, yb = (des.y == WHITE_WINS), (des.y == DRAW), (des.y == BLACK_WINS)
    ll = float(np.sum(np.where(yw, a, 0.0) + np.where(yd, u, 0.0) - np.where(yb, a, 0.0) - log_n))
    if order == 0:
        return ll
    la = (yw.astype(float) - yb) - (pw - pb)           # d ll_i / d a
    lu = yd - pd                                        # d ll_i / d u (a held fixed)
    Ja = (L * nu / 2.0 * e)[:, None] * des.Zu + (L * A)[:, None] * des.W
    grad = Ja.T @ la + des.Zu.T @ lu
    if order == 1:
        return ll, grad
    laa = -((pw + pb) - (pw - pb) ** 2)
    luu = -pd * (1.0 - pd)
    lau = pd * (pw - pb)
    alpha = la * L * nu / 2.0                           # weight of d2a / dtheta2
    Zu, W = des.Zu, des.W
    # Ja'(laa Ja) + Ja'(lau Zu) + Zu'(lau Ja) + Zu'((luu + alpha e) Zu) + Zu'(alpha W)
    # + W'(alpha Zu), in three products
    za = alpha[:, None] * Zu
    h_a = Ja.T @ (laa[:, None] * Ja + lau[:, None] * Zu)
    h_u = Zu.T @ (lau[:, None] * Ja + (luu + alpha * e)[:, None] * Zu + alpha[:, None] * W)
    h_w = W.T @ za
    return ll, grad, h_a + h_u + h_w


@dataclass
class FitResult:
    classes: tuple
    kinds: tuple                 # fitted kinds (kappa free), reference excluded
    fixed_kinds: dict            # kind -> games, kinds present but not fitted (kappa = 0)
    level: bool
    names: list
    theta: np.ndarray
    cov: np.ndarray
    loglik: float
    n_games: dict                # per class
    n_kind: dict                 # per kind, games in the fit
    window: tuple
    iterations: int
    reference: float
    data: str
    method: str = "maximum likelihood: scipy trust-exact with the analytic gradient and Hessian"
    notes: list = field(default_factory=list)
    kinds_min_games: int = MIN_KIND_GAMES
    form_min_games: int = MIN_FORM_GAMES
    held: dict = field(default_factory=dict)     # parameter -> value held (not fitted)
    level_band: tuple = ()       # the middle 95 % of the classical games' mean ratings
    prior: dict = field(default_factory=dict)    # name or prefix -> (centre, sd) of the prior

    @property
    def se(self) -> np.ndarray:
        return np.sqrt(np.maximum(np.diag(self.cov), 0.0))

    def value(self, name: str) -> tuple[float, float]:
        """(estimate, standard error) of a parameter; 0, 0 for a fixed one."""
        if name not in self.names:
            return 0.0, 0.0
        j = self.names.index(name)
        return float(self.theta[j]), float(self.se[j])

    def control(self, cls: str) -> dict:
        """draw0, white_edge, slope, level of a class, each with its standard error."""
        u0, u0_se = self.value(f"u0:{cls}")
        nu0 = math.exp(u0)
        draw0 = nu0 / (2.0 + nu0)
        out = {"draw0": draw0, "draw0_se": u0_se * 2.0 * nu0 / (2.0 + nu0) ** 2}
        for p in ("white_edge", "slope", "level"):
            out[p], out[f"{p}_se"] = self.value(f"{p}:{cls}")
        return out

    def kappa(self) -> dict:
        return {k: self.value(f"kappa:{k}") for k in self.kinds}

    def probabilities(self, games: Games) -> np.ndarray:
        """[n, 3] P(white wins, draw, black wins) of ``games`` under this fit."""
        kinds = tuple(self.kinds)
        extra = tuple(t for t in EXTRA_TERMS if any(nm.startswith(f"{t}:") for nm in self.names))
        des = _design(games, self.classes, kinds, self.reference, extra)
        # kinds unknown to the fit keep kappa = 0: _design leaves their column empty
        u = des.Zu @ self.theta
        a = L * (1.0 + np.exp(u) / 2.0) * (des.W @ self.theta)
        _, pw, pd, pb = _probs(u, a)
        return np.column_stack([pw, pd, pb])


def fit(games: Games, *, classes: tuple[str, ...] = FIT_CLASSES, level: bool = True,
        kinds: bool = True, reference: float = 2750.0, start: FitResult | None = None,
        min_kind_games: int = MIN_KIND_GAMES, hold: dict | None = None,
        prior: dict | None = None) -> FitResult:
    """Fit the parameters of each class in ``classes`` (games of other controls are left out)
    and, with ``kinds``, one kappa per event kind with at least ``min_kind_games`` games;
    ``hold`` ({"slope:armageddon": 0.85, ...}) keeps parameters at given values; ``prior``
    (e.g. ``PRIOR``) a normal prior on parameters (``fit_rows``)."""
    data = FitData.of(games, classes, reference)
    if not data.classes:
        raise ScenarioError("no games of the controls to fit", file=games.file,
                            value=", ".join(FIT_CLASSES))
    return fit_rows(data, np.ones(len(data.games), bool), level=level, kinds=kinds,
                    start=start, min_kind_games=min_kind_games, hold=hold, prior=prior)


def _fit_kinds(kind_rows, kinds: bool, min_kind_games: int):
    """The games per kind, the kinds with their own column (enough games) and the rest."""
    counts: dict[str, int] = {}
    for k in kind_rows:
        counts[k] = counts.get(k, 0) + 1
    free_kinds = tuple(sorted(k for k, n in counts.items()
                              if kinds and k != REFERENCE_KIND and n >= min_kind_games))
    if free_kinds and all(k in free_kinds for k in counts):
        # every game is of a kind with its own term: those terms and the draw intercept are
        # collinear (e.g. a leave-one-event-out fit on Candidates games only), so the kind
        # with the most games is measured by the intercept instead
        drop = max(free_kinds, key=lambda k: (counts[k], k))
        free_kinds = tuple(k for k in free_kinds if k != drop)
    fixed_kinds = {k: n for k, n in sorted(counts.items())
                   if k != REFERENCE_KIND and k not in free_kinds}
    return counts, free_kinds, fixed_kinds


def _start_point(names, start: FitResult | None, level: bool, hold: dict):
    """The starting parameters (``start``'s where it has them, held values fixed), which are
    free, and the scale each free one is optimised in."""
    theta0 = np.array([START.get(nm.split(":")[0], 0.0) for nm in names])
    if start is not None:
        for j, nm in enumerate(names):
            if nm in start.names:
                theta0[j] = start.theta[start.names.index(nm)]
    free = np.array([(level or not nm.startswith("level:")) and nm not in hold
                     for nm in names], bool)
    for j, nm in enumerate(names):
        if not free[j]:
            theta0[j] = hold.get(nm, 0.0)
    scale = np.array([SCALE.get(nm.split(":")[0], 1.0) for nm in names])[free]
    return theta0, free, scale


def _prior_terms(names, ridge: dict | None, prior: dict | None):
    """(1 / prior variance, prior centre) of each parameter: ``ridge`` {prefix: sd} is a
    N(0, sd^2) prior on every parameter of that prefix; ``prior`` {name or prefix: (centre,
    sd)} a N(centre, sd^2) one (a full name such as "slope:classical" before its prefix
    "slope"); no prior: weight 0."""
    pen, mu = np.zeros(len(names)), np.zeros(len(names))
    for j, nm in enumerate(names):
        pre = nm.split(":")[0]
        if prior and (nm in prior or pre in prior):
            c, sd = prior[nm] if nm in prior else prior[pre]
            pen[j], mu[j] = 1.0 / sd ** 2, c
        elif ridge and pre in ridge:
            pen[j] = 1.0 / ridge[pre] ** 2
    return pen, mu


def _maximise(des: Design, theta0, free, scale, pen, mu):
    """Maximise the penalised likelihood over the free parameters (trust-exact with the
    exact Hessian): the optimiser's result, the parameters, and the log-likelihood, gradient
    and Hessian there."""
    from scipy.optimize import minimize
    from threadpoolctl import threadpool_limits

    def full_theta(z):
        th = theta0.copy()
        th[free] = z * scale
        return th

    last: list = [None, None]          # the point and its (ll, grad, hess): f then h there

    def at(z):
        if last[0] is None or not np.array_equal(last[0], z):
            last[0], last[1] = np.array(z), loglik(full_theta(z), des, 2)
        return last[1]

    def f(z):
        ll, g, _ = at(z)
        th = full_theta(z)
        dv = th - mu
        return -ll + 0.5 * float(np.sum(pen * dv * dv)), (-g + pen * dv)[free] * scale

    def h(z):
        hh = at(z)[2]
        return (-hh + np.diag(pen))[np.ix_(free, free)] * np.outer(scale, scale)

    # the products are small and dense: BLAS threads would only spin (30x the CPU, measured)
    with threadpool_limits(1):
        res = minimize(f, theta0[free] / scale, jac=True, hess=h, method="trust-exact",
                       options={"gtol": 1e-8, "maxiter": 200})
        theta = full_theta(res.x)
        ll, grad, hess = loglik(theta, des, 2)
    return res, theta, ll, grad, hess


def _covariance(theta, hess, pen, free, file) -> np.ndarray:
    """The parameters' covariance: the inverse (penalised) information over the free ones,
    0 for held ones."""
    info = (-hess + np.diag(pen))[np.ix_(free, free)]
    if not (np.all(np.isfinite(theta)) and np.all(np.isfinite(info))):
        raise ScenarioError("the fit did not converge to finite values", file=file)
    try:
        cov_free = np.linalg.inv(info)
    except np.linalg.LinAlgError:
        raise ScenarioError("the data do not identify every parameter (singular information)",
                            file=file) from None
    p = len(theta)
    cov = np.zeros((p, p))
    cov[np.ix_(free, free)] = cov_free
    return cov


def _level_band(data: FitData, rows, classes) -> tuple:
    """The percentiles ``BAND_PCT`` of the games' mean rating (classical games if any)."""
    g = data.games
    mean = ((g.white_rating + g.black_rating) / 2.0)[rows]
    on = data.cls[rows] == (data.classes.index("classical") if "classical" in classes else -1)
    return tuple(float(x) for x in np.percentile(mean[on] if on.any() else mean, BAND_PCT))


def _sub_design(full: Design, rows: np.ndarray, classes: tuple, free_kinds,
                extra: tuple[str, ...]) -> Design:
    """The full design's ``rows`` (bool mask) and the columns of ``classes``' terms, the free
    kinds' kappas and the ``extra`` terms they have, in that order."""
    names = ([f"{p}:{c}" for c in classes for p in PER_CLASS]
             + [f"kappa:{k}" for k in free_kinds] + _extra_names(classes, free_kinds, extra))
    pos = {nm: j for j, nm in enumerate(full.names)}
    cols = np.array([pos[nm] for nm in names])
    return Design(names, full.Zu[np.ix_(rows, cols)], full.W[np.ix_(rows, cols)],
                  full.y[rows], int(rows.sum()))


def fit_rows(data: FitData, rows: np.ndarray, *, level: bool = True, kinds: bool = True,
             start: FitResult | None = None, min_kind_games: int = MIN_KIND_GAMES,
             hold: dict | None = None, extra: tuple[str, ...] = (),
             ridge: dict | None = None, prior: dict | None = None) -> FitResult:
    """The fit of ``fit`` on the games ``rows`` (bool mask) of prepared data: the design's
    rows and the columns of the classes and kinds those games have, no re-reading.
    ``extra``: optional terms (``EXTRA_TERMS``); ``ridge`` {"kslope": sd, ...}: a N(0, sd^2)
    prior on the terms of that prefix (penalised likelihood: shrinkage toward 0); ``prior``
    {"slope": (centre, sd), "level:rapid": (centre, sd), ...}: a N(centre, sd^2) prior
    (shrinkage toward the centre; the maximum a posteriori and the inverse penalised
    information are the estimate and its covariance)."""
    hold = dict(hold or {})
    rows = np.asarray(rows, bool)
    file = data.games.file
    n_cls = np.bincount(data.cls[rows], minlength=len(data.classes))
    classes = tuple(c for j, c in enumerate(data.classes) if n_cls[j])
    if not classes:
        raise ScenarioError("no games of the controls to fit", file=file,
                            value=", ".join(FIT_CLASSES))
    counts, free_kinds, fixed_kinds = _fit_kinds(data.kind[rows], kinds, min_kind_games)
    des = _sub_design(data.des, rows, classes, free_kinds, extra)
    theta0, free, scale = _start_point(des.names, start, level, hold)
    pen, mu = _prior_terms(des.names, ridge, prior)
    res, theta, ll, grad, hess = _maximise(des, theta0, free, scale, pen, mu)
    cov = _covariance(theta, hess, pen, free, file)
    notes = []
    if np.max(np.abs((grad - pen * (theta - mu))[free] * scale)) > 1e-3:
        notes.append(f"largest gradient component {np.max(np.abs(grad[free])):.2g} at the end")
    dates = data.date[rows]
    return FitResult(classes=classes, kinds=free_kinds, fixed_kinds=fixed_kinds, level=level,
                     names=des.names, theta=theta, cov=cov, loglik=ll,
                     held={nm: v for nm, v in hold.items() if nm in des.names},
                     level_band=_level_band(data, rows, classes),
                     n_games={c: int(n_cls[data.classes.index(c)]) for c in classes},
                     n_kind=counts, window=(str(min(dates)), str(max(dates))),
                     iterations=int(res.nit), reference=data.reference, data=file,
                     notes=notes, kinds_min_games=min_kind_games, prior=dict(prior or {}),
                     **({"method": "maximum a posteriori under [fit] prior: scipy trust-exact "
                                   "with the analytic gradient and Hessian"} if prior else {}))


# -- form from event to event ----------------------------------------------------------------
@dataclass
class FormSpread:
    """Spread of a player's strength from event to event, beyond what the games' own chance
    explains (Elo points, on the rating scale the model's slope multiplies)."""
    sd: float
    se: float
    player_events: int
    games: int


def form_spread(games: Games, fitted: FitResult, cls: str,
                min_games: int = MIN_FORM_GAMES) -> FormSpread | None:
    """Per player and event (at least ``min_games`` games of class ``cls``): the performance
    against expectation, delta_j = (score - expected) / (d expected / d rating), with its
    binomial variance v_j = var(score) / (d expected / d rating)^2.  Under the model with an
    offset N(0, sd^2) per player and event, delta_j ~ N(0, sd^2 (1 + 1/m_j) + v_j), m_j the
    number of opponents (their own offsets enter the score too); sd is the maximum of that
    likelihood and its standard error comes from the curvature (delta method)."""
    sel = games.take(games.where(controls={cls}))
    if not len(sel) or cls not in fitted.classes:
        return None
    rows = _performances(sel, fitted, cls, min_games)
    if len(rows) < 10:
        return None
    sd, se = _spread_fit(rows)
    return FormSpread(sd=sd, se=se, player_events=len(rows), games=len(sel))


def _performances(sel: Games, fitted: FitResult, cls: str, min_games: int) -> list[tuple]:
    """(delta_j, v_j, m_j) per player and event with at least ``min_games`` of the games
    ``sel`` (see :func:`form_spread`)."""
    P = fitted.probabilities(sel)
    c = fitted.control(cls)
    nu = P[:, 1] / np.sqrt(np.maximum(P[:, 0] * P[:, 2], 1e-300))
    # d/d(rating of White) of White's expected score: d a / d R_w = L (1 + nu/2) slope,
    # d (pw - pb) / d a = (pw + pb) - (pw - pb)^2, score = (1 + pw - pb) / 2
    dscore = 0.5 * ((P[:, 0] + P[:, 2]) - (P[:, 0] - P[:, 2]) ** 2) * L * (1 + nu / 2) * c["slope"]
    exp_white = P[:, 0] + P[:, 1] / 2.0
    var = P[:, 0] + P[:, 1] / 4.0 - exp_white ** 2
    got = np.where(sel.result == WHITE_WINS, 1.0, np.where(sel.result == DRAW, 0.5, 0.0))
    acc: dict = {}
    for i in range(len(sel)):
        for player, sign in ((sel.white[i], 1.0), (sel.black[i], -1.0)):
            key = (player, sel.event[i])
            s = acc.setdefault(key, [0.0, 0.0, 0.0, 0.0, set()])
            s[0] += sign * (got[i] - exp_white[i])
            s[1] += dscore[i]
            s[2] += var[i]
            s[3] += 1
            s[4].add(sel.black[i] if sign > 0 else sel.white[i])
    return [(s[0] / s[1], s[2] / s[1] ** 2, len(s[4])) for s in acc.values()
            if s[3] >= min_games and s[1] > 0]


def _spread_fit(rows: list[tuple]) -> tuple[float, float]:
    """(sd, its standard error; 0 where the curvature gives none): the maximum of
    :func:`form_spread`'s likelihood over ``rows`` of (delta_j, v_j, m_j)."""
    from scipy.optimize import minimize_scalar

    delta = np.array([r[0] for r in rows])
    v = np.array([r[1] for r in rows])
    m = np.array([r[2] for r in rows], float)
    k = 1.0 + 1.0 / m

    def nll(sd):
        t = sd * sd * k + v
        return 0.5 * float(np.sum(np.log(t) + delta * delta / t))

    best = minimize_scalar(nll, bounds=(0.0, 300.0), method="bounded",
                           options={"xatol": 1e-6})
    sd = float(best.x)
    step = max(0.5, 0.01 * sd)
    curv = (nll(sd + step) - 2 * nll(sd) + nll(max(sd - step, 0.0))) / step ** 2
    se = 1.0 / math.sqrt(curv) if curv > 0 else float("nan")
    return sd, se if math.isfinite(se) else 0.0


# -- report -------------------------------------------------------------------------------------
def fit_report(res: FitResult, spreads: dict, seconds: float) -> dict:
    """JSON-able summary of a fit: every parameter with its standard error."""
    return {
        "data": res.data, "window": list(res.window), "games": res.n_games,
        "games_by_kind": res.n_kind, "loglik": res.loglik, "method": res.method,
        "iterations": res.iterations, "seconds": seconds, "level": res.level,
        "prior": {k: {"centre": c, "sd": sd} for k, (c, sd) in res.prior.items()},
        "controls": {c: res.control(c) for c in res.classes},
        "kinds": {k: {"kappa": v, "se": s, "games": res.n_kind.get(k, 0)}
                  for k, (v, s) in res.kappa().items()},
        "kinds_not_fitted": res.fixed_kinds, "reference_kind": REFERENCE_KIND,
        "form_spread": {c: None if s is None else {"sd": s.sd, "se": s.se,
                                                   "player_events": s.player_events}
                        for c, s in spreads.items()},
        "notes": res.notes,
    }


def render_fit(d: dict) -> str:
    lines = [f"Davidson-Elo fit on {d['data']}: {d['window'][0]} .. {d['window'][1]}, "
             + ", ".join(f"{n:,} {c}" for c, n in d["games"].items()) + " games",
             f"log-likelihood {d['loglik']:.2f} ({d['iterations']} iterations, "
             f"{d['seconds']:.2f} s); standard errors from the observed information",
             *(["prior (maximum a posteriori): " + ", ".join(
                 f"{k} N({p['centre']:g}, {p['sd']:g}^2)" for k, p in d["prior"].items())]
               if d.get("prior") else []), ""]
    head = f"{'control':<11}" + "".join(f"{p:>18}" for p in ("draw0", "white_edge", "slope",
                                                               "level"))
    lines += [head, "-" * len(head)]
    for c, p in d["controls"].items():
        cells = "".join(f"{p[q]:>10.3f} ±{p[q + '_se']:>6.3f}" for q in ("draw0", "white_edge",
                                                                          "slope", "level"))
        lines.append(f"{c:<11}{cells}")
    lines += ["", f"event kinds: draw odds x exp(kappa), reference {d['reference_kind']} "
              "(kappa 0)"]
    for k, v in d["kinds"].items():
        lines.append(f"  {k:<14}{v['kappa']:>8.3f} ±{v['se']:.3f}   ({v['games']:,} games)")
    for k, n in d["kinds_not_fitted"].items():
        lines.append(f"  {k:<14}{'0':>8}   not fitted ({n:,} games)")
    lines += ["", "form from event to event (sd of a player's strength offset, Elo):"]
    for c, s in d["form_spread"].items():
        lines.append(f"  {c:<11}" + ("not estimated" if s is None else
                                     f"{s['sd']:.1f} ±{s['se']:.1f}   "
                                     f"({s['player_events']:,} player-events)"))
    lines += [f"note: {n}" for n in d["notes"]]
    return "\n".join(lines)
