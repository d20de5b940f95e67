"""Out-of-sample scoring of outcome models on real games and events (``simcycle backtest``).

Two schemes.  Time-ordered (the default): each event is scored by fits on the games dated
before the first day of the month in which it starts, refitted month by month (warm-started),
so no game played at or after an event's start is in the fit that scores it; the first months
are a burn-in.  Leave one event out (``--scheme leave-one-event-out``): every event scored by
fits on all the other events, later ones included.  Fixed model files (``--model``, by default
davidson-elo-v1) are scored as they are.

Per game: log-loss, Brier score and ranked probability score against two baselines (the
training data's constant frequencies; Elo with the training draw rate), predicted against
observed draws and White score with z-scores, a reliability table by predicted draw
probability, and the same by event kind, exact time control and rating band.

Per event (round robins whose every game is in the data): P(first) of the real winner and
P(top 3) at the start and at a quarter, half and three quarters of the rounds, simulated with
the event's out-of-sample fit, against a uniform pick and the same fit with all ratings equal
(the standings alone); the reliability of P(first) in bins; candidate fixes on request.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import ScenarioError
from ..enums import RESULT_TEXT
from . import davidson_wdl
from .eventfit import (FITTED_CANDIDATES, SHRINK_GRID, choose_shrink, event_slope,
                       hot_probabilities, hot_ratings, shrink_name)
from .fit import ARMAGEDDON_HOLD, DESIGN_EXTRA, EXTRA_TERMS, PRIOR, FitData, fit_rows
from .gamedata import BLACK_WINS, DRAW, WHITE_WINS, Games
from ..kinds import KINDS

SCORED_CONTROLS = ("classical", "rapid", "armageddon")
MODEL_CONTROL = {"classical": ("classical",), "rapid": ("rapid-15+10",),
                 "armageddon": ("armageddon-10v7", "armageddon-5v4")}   # the first it has
DRAW_BINS = (0.0, 0.3, 0.4, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 1.0)
LEVEL_BANDS = ((0, 2600), (2600, 2700), (2700, 4000))   # mean rating of the two players
CHECKPOINT_FRACTIONS = (0.0, 0.25, 0.5, 0.75)
EVENT_TOP_K = 3               # P(top k): the first three places
MIN_EVENT_PLAYERS = 6         # the event-level summary: complete round robins this large
GROUPS = (("candidates", frozenset({"candidates"})),
          ("round robins", frozenset({"candidates", "round-robin"})))
# The games a fixed model file was fitted on, where its [fit] table does not say: v1's classical
# parameters come from the 1,160 classical games of file B (huffyhenry/forecasting-candidates,
# 2021/data/results.csv; data/games/README.md), 2018-12-11 .. 2021-03-21.
KNOWN_FIT_WINDOWS = {"davidson-elo-v1": ("2018-12-11", "2021-03-21")}
P_FLOOR_SIMS = 0.5            # P(winner) floored at 0.5 / sims (never log 0)


# -- per-game metrics -------------------------------------------------------------------------
def game_metrics(P: np.ndarray, y: np.ndarray) -> dict:
    """Mean log-loss, Brier score (sum over the three outcomes) and ranked probability score
    (outcomes ordered White win, draw, Black win), predicted and observed draw rate and White
    score with their z-scores (observed minus predicted over the predicted standard error,
    games independent)."""
    n = len(y)
    if n == 0:
        return {"n": 0}
    P = np.clip(P, 1e-15, 1.0)
    onehot = np.zeros_like(P)
    onehot[np.arange(n), y] = 1.0
    ll = float(-np.mean(np.log(P[np.arange(n), y])))
    brier = float(np.mean(np.sum((P - onehot) ** 2, axis=1)))
    cp, co = np.cumsum(P, axis=1)[:, :2], np.cumsum(onehot, axis=1)[:, :2]
    rps = float(np.mean(0.5 * np.sum((cp - co) ** 2, axis=1)))
    pd = P[:, 1]
    draws = float(np.sum(y == DRAW))
    sd_draw = math.sqrt(float(np.sum(pd * (1 - pd))))
    ws = P[:, 0] + P[:, 1] / 2
    wvar = P[:, 0] + P[:, 1] / 4 - ws ** 2
    got = np.where(y == WHITE_WINS, 1.0, np.where(y == DRAW, 0.5, 0.0))
    sd_white = math.sqrt(float(np.sum(wvar)))
    return {"n": n, "log_loss": ll, "brier": brier, "rps": rps,
            "draw_pred": float(np.mean(pd)), "draw_obs": draws / n,
            "draw_z": (draws - float(np.sum(pd))) / sd_draw if sd_draw > 0 else 0.0,
            "white_pred": float(np.mean(ws)), "white_obs": float(np.mean(got)),
            "white_z": (float(np.sum(got)) - float(np.sum(ws))) / sd_white if sd_white > 0 else 0.0}


def versus(P: np.ndarray, base: np.ndarray, y: np.ndarray) -> dict:
    """Mean per-game log-loss of P minus that of ``base`` on the same games, with its
    standard error (games independent)."""
    n = len(y)
    r = np.arange(n)
    d = -np.log(np.clip(P[r, y], 1e-15, 1)) + np.log(np.clip(base[r, y], 1e-15, 1))
    return {"diff": float(d.mean()),
            "se": float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0}


def reliability(P: np.ndarray, y: np.ndarray, bins=DRAW_BINS) -> list[dict]:
    """Games grouped by predicted draw probability: predicted against observed, with z."""
    out = []
    pd = P[:, 1]
    for lo, hi in zip(bins, bins[1:]):
        m = (pd >= lo) & (pd < hi if hi < 1.0 else pd <= hi)
        if not m.any():
            continue
        q = pd[m]
        obs = float(np.sum(y[m] == DRAW))
        sd = math.sqrt(float(np.sum(q * (1 - q))))
        out.append({"bin": [lo, hi], "n": int(m.sum()), "pred": float(q.mean()),
                    "obs": obs / m.sum(), "z": (obs - float(q.sum())) / sd if sd > 0 else 0.0})
    return out


# -- predictors -------------------------------------------------------------------------------
def model_probabilities(model, games: Games) -> np.ndarray:
    """[n, 3] probabilities of ``games`` under a model file, each game at its kind."""
    P = np.zeros((len(games), 3))
    groups: dict = {}
    for i, (c, k) in enumerate(zip(games.control, games.kind)):
        groups.setdefault((c, k), []).append(i)
    for (c, k), idx in groups.items():
        m = model.for_kind(k)
        ctl = m.control(next(n for n in MODEL_CONTROL[c] if n in m._index))
        idx = np.array(idx)
        pw, pd, pb = davidson_wdl(ctl.draw0, ctl.white_edge, ctl.slope, ctl.level / 100.0,
                                  m.reference_rating, games.white_rating[idx],
                                  games.black_rating[idx], exp=np.exp)
        P[idx] = np.column_stack([pw, pd, pb])
    return P


def _class_counts(y: np.ndarray, cls: np.ndarray, n_cls: int) -> np.ndarray:
    """[n_cls, 3] White wins, draws, Black wins per class."""
    counts = np.zeros((n_cls, 3))
    np.add.at(counts, (cls, y.astype(np.int64)), 1.0)
    return counts


def _constant_from(counts: np.ndarray, cls: np.ndarray) -> np.ndarray:
    tot = counts.sum(axis=1, keepdims=True)
    freq = np.where(tot > 0, counts / np.maximum(tot, 1.0), 1.0 / 3.0)
    return freq[cls]


def _elo_from(counts: np.ndarray, cls: np.ndarray, d: np.ndarray) -> np.ndarray:
    w, dr, b = counts[:, 0], counts[:, 1], counts[:, 2]
    tot = w + dr + b
    draw = np.where(tot > 0, dr / np.maximum(tot, 1.0), 1.0 / 3.0)[cls]
    h = (400.0 * np.log10(np.maximum(w, 1.0) / np.maximum(b, 1.0)))[cls]
    e = 1.0 / (1.0 + 10.0 ** (-(d + h) / 400.0))
    return np.column_stack([(1 - draw) * e, draw, (1 - draw) * (1 - e)])


def _codes(train: Games, test: Games) -> tuple[np.ndarray, np.ndarray, int]:
    names = sorted(set(train.control) | set(test.control))
    code = {c: j for j, c in enumerate(names)}
    return (np.array([code[c] for c in train.control], np.int64),
            np.array([code[c] for c in test.control], np.int64), len(names))


def constant_probabilities(train: Games, test: Games) -> np.ndarray:
    """The training games' White / draw / Black frequencies, per control."""
    ctr, cte, k = _codes(train, test)
    return _constant_from(_class_counts(train.result, ctr, k), cte)


def elo_probabilities(train: Games, test: Games) -> np.ndarray:
    """Elo with a fixed draw rate: P(draw) = the training draw rate of the control; decisive
    games split by Elo's expected score 1 / (1 + 10^(-(d + h)/400)), h = White's edge in the
    training decisive games, 400 log10(White wins / Black wins)."""
    ctr, cte, k = _codes(train, test)
    return _elo_from(_class_counts(train.result, ctr, k), cte,
                     test.white_rating - test.black_rating)


FIT_VARIANTS = {
    # the default procedure (v4): kinds, level, the prior on slope and level (fit.PRIOR)
    "fit": {"kinds": True, "level": True, "hold": ARMAGEDDON_HOLD, "prior": PRIOR},
    "fit-no-kinds": {"kinds": False, "level": True, "hold": ARMAGEDDON_HOLD, "prior": PRIOR},
    "fit-no-level": {"kinds": True, "level": False, "hold": ARMAGEDDON_HOLD, "prior": PRIOR},
    # v3's procedure: maximum likelihood, no prior
    "fit-no-prior": {"kinds": True, "level": True, "hold": ARMAGEDDON_HOLD},
    # partial pooling of the kind terms (docs/model.md): each kappa shrunk toward the
    # reference kind's 0 by a N(0, 0.3^2) prior, so kinds with 30 games get their own
    "fit-kinds-pooled": {"kinds": True, "level": True, "hold": ARMAGEDDON_HOLD,
                         "prior": PRIOR, "ridge": {"kappa": 0.3}, "min_kind_games": 30},
    # tried against the per-kind misses (docs/model.md): a slope per kind, free or shrunk
    # toward the class's slope by a N(0, 0.15^2) prior; the level term bounded (clamped to
    # mean ratings 2550-2850)
    "fit-kind-slope": {"kinds": True, "level": True, "hold": ARMAGEDDON_HOLD,
                       "extra": ("kslope",)},
    "fit-kind-slope-shrunk": {"kinds": True, "level": True, "hold": ARMAGEDDON_HOLD,
                              "extra": ("kslope",), "ridge": {"kslope": 0.15}},
    "fit-level-bounded": {"kinds": True, "level": False,
                          "hold": {**ARMAGEDDON_HOLD, "levelc:armageddon": 0.0},
                          "extra": ("levelc",)},
    # tried against v4's misses (docs/model.md, "v4's misses"): a draw term per kind for the
    # rapid games, shrunk toward the kind's own kappa by a N(0, 0.3^2) prior (the rapid round
    # robins get a term of their own); one level term for classical and rapid together, under
    # the prior of each control's (fit.PRIOR's level)
    "fit-speed-kinds": {"kinds": True, "level": True, "hold": ARMAGEDDON_HOLD, "prior": PRIOR,
                        "extra": ("kspeed",), "ridge": {"kspeed": 0.3}},
    "fit-level-shared": {"kinds": True, "level": True,
                         "hold": {**ARMAGEDDON_HOLD, "level:classical": 0.0, "level:rapid": 0.0},
                         "prior": {**PRIOR, "levelshared": PRIOR["level"]},
                         "extra": ("levelshared",)},
}
LOEO_VARIANTS = ("fit", "fit-no-kinds", "fit-no-level")   # leave-one-event-out's default
DEFAULT_VARIANTS = ("fit",)
BASELINES = ("constant", "elo-fixed-draw")
SCHEMES = ("time-ordered", "leave-one-event-out")
# time-ordered: a class is fitted, and scored, once this many of its games precede the cutoff
# (Armageddon fits two parameters, the others four)
MIN_TRAIN_CLASS_GAMES = {"classical": 300, "rapid": 300, "armageddon": 50}


def month_start(date: str) -> str:
    """The first day of a date's month (the time-ordered scheme's cutoff)."""
    return date[:8] + "01"


# -- out of sample ----------------------------------------------------------------------------
@dataclass
class OutOfSample:
    games: Games                 # the scored games
    P: dict                      # model name -> [n, 3]
    fits: dict                   # event -> {variant -> FitResult} (its out-of-sample fits)
    full: dict                   # variant -> FitResult on all games
    windows: dict                # fixed model -> (first, last day) of the games it was fitted on
    scheme: str = "leave-one-event-out"
    data: FitData | None = None  # the prepared games the fits index
    train: dict = field(default_factory=dict)    # event -> bool mask over data's games
    cutoff: dict = field(default_factory=dict)   # event -> first day not in its fit
    unscored: dict = field(default_factory=dict)  # class -> games left unscored (burn-in)
    rows: np.ndarray | None = None  # each scored game's row in data.games

    def training_games(self, event: str) -> Games:
        """The games the fits that score ``event`` were made on."""
        return self.data.games.take(self.train[event])


def _fixed_windows(fixed: dict) -> dict:
    windows = {}
    for nm, model in fixed.items():
        w = model.fit.get("window") or KNOWN_FIT_WINDOWS.get(nm)
        if w:
            windows[nm] = tuple(w)
    return windows


def _fit_data(games: Games, reference: float, variants: tuple[str, ...]) -> FitData:
    """The scored games prepared once, with the columns of the optional terms the variants
    use."""
    named = {t for v in variants for t in FIT_VARIANTS[v].get("extra", ())} - set(DESIGN_EXTRA)
    extra = DESIGN_EXTRA + tuple(t for t in EXTRA_TERMS if t in named)
    return FitData.of(games, SCORED_CONTROLS, reference, extra)


def leave_one_event_out(games: Games, fixed: dict, reference: float,
                        variants: tuple[str, ...] = LOEO_VARIANTS) -> OutOfSample:
    """Every fitted variant refitted without each event, scoring that event; fixed models and
    the baselines (whose training data also leave the event out) alongside."""
    data = _fit_data(games, reference, variants)
    scored = data.games
    everything = np.ones(len(scored), bool)
    full = {v: fit_rows(data, everything, **FIT_VARIANTS[v]) for v in variants}
    names = [*fixed, *variants, *BASELINES]
    P = {nm: np.zeros((len(scored), 3)) for nm in names}
    for nm, model in fixed.items():
        P[nm] = model_probabilities(model, scored)
    ev = np.array(scored.event, dtype=object)
    d = scored.white_rating - scored.black_rating
    fits, trains = {}, {}
    for e in dict.fromkeys(scored.event):
        test = ev == e
        train = ~test
        fits[e] = {}
        for v in variants:
            r = fit_rows(data, train, start=full[v], **FIT_VARIANTS[v])
            fits[e][v] = r
            P[v][test] = data.probabilities(r, test)
        counts = _class_counts(scored.result[train], data.cls[train], len(data.classes))
        _score_baselines(P, counts, data.cls[test], d[test], test)
        trains[e] = train
    return OutOfSample(scored, P, fits, full, _fixed_windows(fixed), "leave-one-event-out",
                       data, trains, {}, rows=np.arange(len(scored)))


def _shrunk(res, shrink: float):
    """A fit with every rating gap scaled by 1 - shrink (its slopes so scaled): per game, what
    pulling both players' ratings toward their field's mean by ``shrink`` does."""
    from dataclasses import replace
    theta = res.theta.copy()
    for j, nm in enumerate(res.names):
        if nm.startswith("slope:"):
            theta[j] *= 1.0 - shrink
    return replace(res, theta=theta)


def _score_baselines(P: dict, counts: np.ndarray, cls: np.ndarray, d: np.ndarray,
                     test: np.ndarray) -> None:
    """Fill the baselines' rows ``test`` of ``P`` from the training games' result ``counts``
    by class; ``cls`` and ``d`` (rating gaps, White's minus Black's) are the scored games'."""
    P["constant"][test] = _constant_from(counts, cls)
    P["elo-fixed-draw"][test] = _elo_from(counts, cls, d)


def _events_by_month(games: Games) -> dict:
    """{the first day of a month: the events that start in that month}."""
    first: dict = {}
    for e, dday in zip(games.event, games.date):
        if e not in first or dday < first[e]:
            first[e] = dday
    by_cutoff: dict = {}
    for e, dday in first.items():
        by_cutoff.setdefault(month_start(dday), []).append(e)
    return by_cutoff


def time_ordered(games: Games, fixed: dict, reference: float,
                 variants: tuple[str, ...] = DEFAULT_VARIANTS,
                 shrinks: tuple[float, ...] = ()) -> OutOfSample:
    """Each event scored by fits on the games dated before the first day of the month in
    which it starts (so never on a game played at or after its start), refitted month by
    month and warm-started from the month before.  A class is fitted, and its games scored,
    once at least MIN_TRAIN_CLASS_GAMES of its games precede the cutoff (the first months
    of the data are a burn-in); the baselines use the same training games.  ``shrinks``: the
    fit with rating gaps scaled by 1 - L, scored too (as "shrink-L")."""
    data = _fit_data(games, reference, variants)
    scored = data.games
    n, n_cls = len(scored), len(data.classes)
    everything = np.ones(n, bool)
    full = {v: fit_rows(data, everything, **FIT_VARIANTS[v]) for v in variants}
    names = [*fixed, *variants, *(shrink_name(x) for x in shrinks), *BASELINES]
    P = {nm: np.zeros((n, 3)) for nm in names}
    ev = np.array(scored.event, dtype=object)
    by_cutoff = _events_by_month(scored)
    d = scored.white_rating - scored.black_rating
    keep = np.zeros(n, bool)
    fits, trains, cutoffs = {}, {}, {}
    prev: dict = {v: None for v in variants}
    min_games = np.array([MIN_TRAIN_CLASS_GAMES[c] for c in data.classes])
    for cut in sorted(by_cutoff):
        before = data.date < cut
        ok = np.bincount(data.cls[before], minlength=n_cls) >= min_games
        if not ok.any():
            continue
        train = before & ok[data.cls]
        for v in variants:
            prev[v] = fit_rows(data, train, start=prev[v], **FIT_VARIANTS[v])
        month = dict(prev)
        counts = _class_counts(scored.result[train], data.cls[train], n_cls)
        for e in by_cutoff[cut]:
            test = (ev == e) & ok[data.cls]
            if not test.any():
                continue
            _score_month(P, data, month, test, shrinks)
            _score_baselines(P, counts, data.cls[test], d[test], test)
            fits[e], trains[e], cutoffs[e] = dict(month), train, cut
            keep |= test
    kept = scored.take(keep)
    for nm, model in fixed.items():
        P[nm][keep] = model_probabilities(model, kept)
    unscored = {c: int(np.sum(~keep & (data.cls == j))) for j, c in enumerate(data.classes)}
    return OutOfSample(kept, {nm: x[keep] for nm, x in P.items()}, fits, full,
                       _fixed_windows(fixed), "time-ordered", data, trains, cutoffs, unscored,
                       np.flatnonzero(keep))


def _score_month(P: dict, data: FitData, month: dict, test: np.ndarray,
                 shrinks: tuple[float, ...]) -> None:
    """Fill rows ``test`` of ``P`` from the month's fits (variant -> fit), the fit's shrunk
    forms too."""
    for v, res in month.items():
        P[v][test] = data.probabilities(res, test)
    for x in shrinks:
        P[shrink_name(x)][test] = data.probabilities(_shrunk(month["fit"], x), test)


def hindsight(oos: OutOfSample, mask: np.ndarray, prefixes: tuple[str, ...],
              variant: str = "fit") -> np.ndarray:
    """[mask.sum(), 3] probabilities of the scored games ``mask`` under their own time-ordered
    fits, with the parameters named by ``prefixes`` ("u0", "slope", "kappa", ...) replaced by
    the fit on all the games (hindsight, in sample): which parameter's estimate a group's
    out-of-sample loss comes from (docs/model.md, "v4's misses").  A class's terms are swapped
    for the games of that class only, kappa for every game; a term the month's fit lacked (a
    kind with too few games then) is taken from the full fit too."""
    from dataclasses import replace
    names = list(oos.data.des.names)
    full = oos.data.full_theta(oos.full[variant])
    idx = np.flatnonzero(mask)
    ev = np.array(oos.games.event, dtype=object)[idx]
    ctl = np.array(oos.games.control, dtype=object)[idx]
    P = np.zeros((len(idx), 3))
    for e, c in dict.fromkeys(zip(ev, ctl)):
        res = oos.fits[e][variant]
        theta = oos.data.full_theta(res)
        for j, nm in enumerate(names):
            pre, _, cls = nm.partition(":")
            if pre in prefixes and (pre == "kappa" or cls == c):
                theta[j] = full[j]
        sel = (ev == e) & (ctl == c)
        P[sel] = oos.data.probabilities(replace(res, names=names, theta=theta),
                                        oos.rows[idx[sel]])
    return P


def _metrics_of(oos: OutOfSample, y: np.ndarray, m: np.ndarray) -> dict:
    """Every scored model's metrics on the games ``m``."""
    return {nm: game_metrics(P[m], y[m]) for nm, P in oos.P.items()}


def _control_tables(oos: OutOfSample, y: np.ndarray, mc: np.ndarray) -> dict:
    """The games of one control (``mc``): by event kind, exact time control and rating band."""
    g = oos.games
    kind = np.array(g.kind, dtype=object)
    tcs = np.array(g.time_control, dtype=object)
    mean = (g.white_rating + g.black_rating) / 2
    by_kind = {k: mc & (kind == k) for k in KINDS}
    by_level = {f"{lo}-{hi}": mc & (mean >= lo) & (mean < hi) for lo, hi in LEVEL_BANDS}
    return {"by_kind": {k: _metrics_of(oos, y, m) for k, m in by_kind.items() if m.any()},
            "by_time_control": {t or "not known": _metrics_of(oos, y, mc & (tcs == t))
                                for t in sorted(set(tcs[mc]))},
            "by_level": {b: _metrics_of(oos, y, m) for b, m in by_level.items() if m.any()}}


def _group_masks(oos: OutOfSample) -> list[tuple[str, np.ndarray]]:
    """The groups of the issue: Candidates-type events and the round robins together (classical
    games); and every classical game outside the fixed models' fitting windows (out of sample
    for them too)."""
    g = oos.games
    classical = np.array(g.control, dtype=object) == "classical"
    groups = [(label, classical & np.array([k in kinds for k in g.kind], bool))
              for label, kinds in GROUPS]
    if oos.windows:
        date = np.array(g.date, dtype=object)
        outside = np.ones(len(g), bool)
        for lo, hi in oos.windows.values():
            outside &= (date < lo) | (date > hi)
        groups.append(("outside the fixed models' fit windows", classical & outside))
    return [(label, m) for label, m in groups if m.any()]


def game_tables(oos: OutOfSample) -> dict:
    y = oos.games.result.astype(np.int64)
    ctl = np.array(oos.games.control, dtype=object)
    out: dict = {"overall": {}, "by_kind": {}, "by_level": {}, "by_time_control": {},
                 "reliability": {}, "groups": {}}
    for c in SCORED_CONTROLS:
        mc = ctl == c
        if not mc.any():
            continue
        out["overall"][c] = _metrics_of(oos, y, mc)
        for part, table in _control_tables(oos, y, mc).items():
            out[part][c] = table
        out["reliability"][c] = {nm: reliability(P[mc], y[mc]) for nm, P in oos.P.items()}
    for label, m in _group_masks(oos):
        base = oos.P["constant"][m]
        out["groups"][label] = {nm: dict(game_metrics(P[m], y[m]),
                                         vs_constant=versus(P[m], base, y[m]))
                                for nm, P in oos.P.items()}
    return out


# -- events -------------------------------------------------------------------------------------
def simulate_event(raw_scenario: dict, model, at: str, sims: int, seed: int,
                   offsets: bool, top_k: int = 1, hot: bool = False,
                   param_draw: bool = False) -> tuple[dict, dict]:
    """(P(first), P(in the first ``top_k`` places)) of each player of a round-robin scenario
    given as a plain dict (the layout of a scenario TOML file), simulated from checkpoint
    ``at``.  The only place the backtest touches the format API."""
    from .. import driver
    from ..formats.base import CompileOptions
    from ..scenario import load_data

    fmt, scn = load_data(raw_scenario, raw_scenario["scenario"]["name"])
    plan = fmt.compile(scn, model, CompileOptions(at=at, offsets=offsets, hot=hot,
                                                  param_draw=param_draw))
    res = driver.run(plan, sims, seed, progress=False)
    place = res.tallies["place"] / res.sims
    first, top = place[:, 0], place[:, :top_k].sum(axis=1)
    return ({name: float(p) for name, p in zip(plan.info.names, first)},
            {name: float(p) for name, p in zip(plan.info.names, top)})


def complete_round_robins(games: Games) -> list[dict]:
    """Classical events whose player count is known (``event_players``) and whose games in
    the data form every pairing the same number of times: the whole event is in the data."""
    out = []
    ev = np.array(games.event, dtype=object)
    for e in dict.fromkeys(games.event):
        m = (ev == e) & np.array([c == "classical" for c in games.control], bool)
        idx = np.flatnonzero(m)
        if not len(idx) or not games.event_players[idx[0]]:
            continue
        players = sorted({p for i in idx for p in (games.white[i], games.black[i])})
        n = len(players)
        meets: dict = {}
        for i in idx:
            pair = frozenset((games.white[i], games.black[i]))
            meets[pair] = meets.get(pair, 0) + 1
        if (n != games.event_players[idx[0]] or len(meets) != n * (n - 1) // 2
                or len(set(meets.values())) != 1):
            continue
        out.append({"event": e, "kind": games.kind[idx[0]], "players": players,
                    "cycles": next(iter(meets.values())), "idx": idx})
    return out


def _rounds(games: Games, ev: dict) -> tuple[list[list[int]], bool]:
    """The event's games grouped into rounds: by the data's round column, else by date (a game
    goes to the round after its players' last one), else (irregular dates) by the Berger
    table's slot of each pairing, in which case the round order is not the real one."""
    idx, players, cycles = ev["idx"], ev["players"], ev["cycles"]
    n = len(players)
    per, n_rounds = n // 2, (n - 1 + n % 2) * cycles

    def valid(rounds):
        return len(rounds) == n_rounds and all(
            len(r) == per and len({p for i in r for p in (games.white[i], games.black[i])})
            == 2 * per for r in rounds)

    for grouping in (_rounds_by_column, _rounds_by_date):
        rounds = grouping(games, idx, players)
        if rounds is not None and valid(rounds):
            return rounds, True
    return _rounds_by_berger(games, idx, players, cycles, n_rounds), False


def _rounds_by_column(games: Games, idx, players) -> list[list[int]] | None:
    """The games ``idx`` by the data's round column (None where a round is not a number)."""
    if not all(str(games.round[i]).isdigit() for i in idx):
        return None
    by: dict = {}
    for i in idx:
        by.setdefault(int(games.round[i]), []).append(i)
    return [by[k] for k in sorted(by)]


def _rounds_by_date(games: Games, idx, players) -> list[list[int]]:
    """The games ``idx`` by date: each game in the round after its players' last one."""
    last = {p: 0 for p in players}
    by: dict = {}
    for i in sorted(idx, key=lambda i: (games.date[i], i)):
        r = 1 + max(last[games.white[i]], last[games.black[i]])
        last[games.white[i]] = last[games.black[i]] = r
        by.setdefault(r, []).append(i)
    return [by[k] for k in sorted(by)]


def _rounds_by_berger(games: Games, idx, players, cycles: int,
                      n_rounds: int) -> list[list[int]]:
    """The games ``idx`` by the Berger table's slot of each pairing, a pairing's meetings in
    date order (the rounds' order is then not the real one)."""
    from ..formats.shared.schedules import berger_rounds

    pos = {p: j for j, p in enumerate(players)}
    slots: dict = {}
    for rn, r in enumerate(berger_rounds(len(players), cycles)):
        for w, b in r:
            slots.setdefault(frozenset((w, b)), []).append(rn)
    rounds = [[] for _ in range(n_rounds)]
    for i in sorted(idx, key=lambda i: (games.date[i], i)):
        rounds[slots[frozenset((pos[games.white[i]], pos[games.black[i]]))].pop(0)].append(i)
    return rounds


def event_scenario(games: Games, ev: dict, rounds: list[list[int]],
                   rule: tuple | None = None) -> dict:
    """A round-robin scenario (plain dict, the layout of a scenario TOML file).  ``rule``
    ("shrink", L) pulls every rating toward the field's mean by the fraction L (1: all
    equal; negative: spread out); ("ratings", {player: rating}) gives the ratings."""
    rating: dict = {}
    for i in ev["idx"]:
        rating.setdefault(games.white[i], float(games.white_rating[i]))
        rating.setdefault(games.black[i], float(games.black_rating[i]))
    if rule is not None and rule[0] == "ratings":
        rating = dict(rule[1])
    if rule is not None and rule[0] == "shrink":
        mean = sum(rating.values()) / len(rating)
        rating = {p: mean + (1.0 - rule[1]) * (r - mean) for p, r in rating.items()}
    return {
        "scenario": {"name": ev["event"], "format": "round-robin"},
        "event": {"cycles": ev["cycles"], "control": "classical", "schedule": "explicit",
                  "qualifying_places": 1},
        "tiebreak": {"playoff_places": 0, "order": ["lots"]},
        "players": [{"name": p, "rating": rating[p]} for p in ev["players"]],
        "rounds": [{"round": k + 1, "games": [[games.white[i], games.black[i],
                                              RESULT_TEXT[int(games.result[i])]] for i in r]}
                   for k, r in enumerate(rounds)],
    }


def winners(games: Games, ev: dict) -> list[str]:
    """The players level on top of the final classical points (the real first place, ties kept
    as a set: the simulations break ties by lots)."""
    pts = {p: 0.0 for p in ev["players"]}
    for i in ev["idx"]:
        r = int(games.result[i])
        pts[games.white[i]] += 1.0 if r == WHITE_WINS else 0.5 if r == DRAW else 0.0
        pts[games.black[i]] += 1.0 if r == BLACK_WINS else 0.5 if r == DRAW else 0.0
    top = max(pts.values())
    return sorted(p for p, v in pts.items() if v == top)


def event_models(oos: OutOfSample, fixed: dict, event: str, base_model,
                 candidates: tuple[str, ...] = (), simulated_fixed=()) -> dict:
    """The models simulated for one event: name -> (model, offsets on, ratings rule; the rule
    ``("param-draw",)`` turns the parameter draw on).  The fixed files named in
    ``simulated_fixed``; the event's out-of-sample fit written into a model (with and without
    offsets, their sd from its training games); the same fit with
    every rating set to the field's mean ("equal ratings", the standings alone); and the
    candidate fixes asked for (``candidate_rule``)."""
    from .fit import form_spread

    out = {nm: (m, False, None) for nm, m in fixed.items() if nm in simulated_fixed}
    r = oos.fits[event]["fit"]
    train = oos.training_games(event)
    m = fitted_model(r, base_model, {c: form_spread(train, r, c) for c in r.classes})
    out["fit"] = (m, False, None)
    out["fit+offsets"] = (m, True, None)
    out["equal-ratings"] = (m, False, ("shrink", 1.0))
    for c in candidates:
        out[c] = candidate_rule(c, m)
    return out


def fitted_model(res, base_model, spreads: dict):
    """An OutcomeModel from a FitResult, through the model-file writer and reader."""
    import tempfile

    from . import load_model
    from .modelfile import render_model

    text = render_model(res, spreads, base_model, data_label="backtest", version="backtest",
                        offsets_default=False, command="backtest")
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False, encoding="utf-8") as fh:
        fh.write(text)
    try:
        return load_model(fh.name)
    finally:
        Path(fh.name).unlink()


def candidate_rule(name: str, model) -> tuple:
    """A candidate fix by name: ``shrink-L`` (every rating pulled toward the field's mean by
    the fraction L), ``widen-L`` (pushed away from it: gaps times 1 + L), ``spread-SD``
    (offsets on with a classical strength spread of SD Elo), ``param-draw`` (each replica
    draws the fit's parameters from their covariance); the fitted candidates
    (``eventfit.FITTED_CANDIDATES``) get their rule per event (``event_backtest``)."""
    if name in FITTED_CANDIDATES:
        return (model, False, ("fitted", name))
    if name == "param-draw":
        return (model, False, ("param-draw",))
    kind, _, arg = name.partition("-")
    try:
        x = float(arg)
    except ValueError:
        x = float("nan")
    if kind == "shrink" and 0.0 <= x <= 1.0:
        return (model, False, ("shrink", x))
    if kind == "widen" and 0.0 <= x <= 1.0:
        return (model, False, ("shrink", -x))
    if kind == "spread" and 0.0 <= x <= 400.0:
        from dataclasses import replace
        return (replace(model, offset_sd={**model.offset_sd, "classical": x}), True, None)
    raise ScenarioError("unknown candidate; known: shrink-L, widen-L (0 <= L <= 1), spread-SD "
                        "(0 <= SD <= 400), param-draw, " + ", ".join(FITTED_CANDIDATES),
                        key="--candidate", value=name)


def _points(games: Games, ev: dict) -> dict:
    pts = {p: 0.0 for p in ev["players"]}
    for i in ev["idx"]:
        r = int(games.result[i])
        pts[games.white[i]] += 1.0 if r == WHITE_WINS else 0.5 if r == DRAW else 0.0
        pts[games.black[i]] += 1.0 if r == BLACK_WINS else 0.5 if r == DRAW else 0.0
    return pts


def top_k_shares(pts: dict, k: int) -> dict:
    """Each player's share of the real top-k places by final points: 1 inside, 0 outside, and
    for players level across the k-th place the places left shared among them."""
    order = sorted(pts.values(), reverse=True)
    if k >= len(order):
        return {p: 1.0 for p in pts}
    border = order[k - 1]
    above = sum(1 for v in order if v > border)
    level = sum(1 for v in order if v == border)
    return {p: 1.0 if v > border else (k - above) / level if v == border else 0.0
            for p, v in pts.items()}


def _checkpoints(n_rounds: int, real_order: bool) -> list[tuple[float, str]]:
    out = [(0.0, "start")]
    if real_order:
        for f in CHECKPOINT_FRACTIONS[1:]:
            k = int(round(f * n_rounds))
            if 0 < k < n_rounds and all(k != int(a[1][5:]) for a in out[1:]):
                out.append((f, f"round{k}"))
    return out


def event_backtest(oos: OutOfSample, fixed: dict, base_model, sims: int, seed: int,
                   candidates: tuple[str, ...] = (), simulated_fixed=()) -> dict:
    """Every complete round robin simulated at its checkpoints by each model; candidates fitted
    on earlier events (``eventfit``) get their parameter per event, and their per-game
    probabilities are added to ``oos.P``."""
    games = oos.games
    fitted, plain = _split_candidates(candidates)
    evs = [ev for ev in complete_round_robins(games) if ev["event"] in oos.fits]
    last = {ev["event"]: max(games.date[i] for i in ev["idx"]) for ev in evs}
    cutoffs = _event_cutoffs(oos)
    rows = []
    for ev in evs:
        models = event_models(oos, fixed, ev["event"], base_model, plain, simulated_fixed)
        chosen = {}
        if "event-slope" in fitted:
            chosen["event-slope"] = event_slope(games, oos.P["fit"], evs, last,
                                                cutoffs[ev["event"]])
            models["event-slope"] = (models["fit"][0], False,
                                     ("shrink", 1.0 - chosen["event-slope"]["b"]))
        if "hot" in fitted:
            models["hot"] = (models["fit"][0], False, ("hot",))
        row = _event_row(oos, ev, last[ev["event"]], models, sims, seed)
        row["fitted"] = chosen
        rows.append(row)
    if "shrink-fitted" in fitted:
        _shrink_fitted(rows, cutoffs)
    oos.P.update(fitted_game_probabilities(oos, rows, evs, last, cutoffs, fitted,
                                           base_model.hot_k))
    return {"sims": sims, "seed": seed, "events": rows, "summary": event_summary(rows),
            "reliability": event_reliability(rows)}


def _split_candidates(candidates: tuple[str, ...]) -> tuple[list, tuple]:
    """(the candidates fitted on earlier events, the plain ones simulated as they are); the
    fitted shrink needs every shrink of :data:`SHRINK_GRID` simulated to choose from."""
    fitted = [c for c in candidates if c in FITTED_CANDIDATES]
    plain = tuple(c for c in candidates if c not in FITTED_CANDIDATES)
    if "shrink-fitted" in fitted:
        plain += tuple(shrink_name(x) for x in SHRINK_GRID if shrink_name(x) not in plain)
    return fitted, plain


def _shrink_fitted(rows: list[dict], cutoffs: dict) -> None:
    """Each event's row gets the shrink chosen on the events before its cutoff, and that
    shrink's checkpoints as "shrink-fitted"."""
    for r in rows:
        x, used = choose_shrink(rows, cutoffs[r["event"]])
        r["fitted"]["shrink-fitted"] = {"L": x, "events": used}
        r["models"]["shrink-fitted"] = r["models"]["fit" if x == 0 else shrink_name(x)]


def _event_row(oos: OutOfSample, ev: dict, last: str, models: dict, sims: int,
               seed: int) -> dict:
    """One complete event's row: its real outcome and every model's checkpoints."""
    games = oos.games
    rounds, real_order = _rounds(games, ev)
    pts = _points(games, ev)
    top = max(pts.values())
    win = sorted(p for p, v in pts.items() if v == top)
    n = len(ev["players"])
    k = min(EVENT_TOP_K, n - 1)
    share = top_k_shares(pts, k)
    per_model = {nm: _model_checkpoints(games, ev, rounds, real_order, spec, win, share, k,
                                        sims, seed)
                 for nm, spec in models.items()}
    first = min(games.date[i] for i in ev["idx"])
    in_fit = [nm for nm, (lo, hi) in oos.windows.items() if not (last < lo or first > hi)]
    return {"event": ev["event"], "kind": ev["kind"], "players": n,
            "dates": [first, last], "in_fixed_fit": in_fit,
            "fit_cutoff": oos.cutoff.get(ev["event"]),
            "rounds": len(rounds), "real_round_order": real_order, "winners": win,
            "top_k": k, "top_k_share": share,
            "uniform_neg_log_p": -math.log(len(win) / n),
            "uniform_top_k_brier": float(np.mean([(k / n - share[q]) ** 2 for q in share])),
            "models": per_model}


def _model_checkpoints(games: Games, ev: dict, rounds: list, real_order: bool, spec: tuple,
                       win: list, share: dict, k: int, sims: int, seed: int) -> list[dict]:
    """One model (``spec``: model, offsets on, ratings rule) simulated at an event's
    checkpoints, scored against the real winners ``win`` and top-k shares ``share``."""
    model, offsets, rule = spec
    m = model.for_kind(ev["kind"])
    hot = rule is not None and rule[0] == "hot"
    draw = rule is not None and rule[0] == "param-draw"
    raw = None if hot else event_scenario(games, ev, rounds, None if draw else rule)
    cps = []
    for frac, at in _checkpoints(len(rounds), real_order):
        if hot:        # in-event form: the ratings moved through the rounds played
            played = 0 if at == "start" else int(at[5:])
            raw = event_scenario(games, ev, rounds, ("ratings", hot_ratings(
                model, games, rounds, played, ev["kind"])))
        p, ptop = simulate_event(raw, m, at, sims, seed, offsets, k, hot, draw)
        pw = max(sum(p[w] for w in win), P_FLOOR_SIMS / sims)
        fav = max(p, key=lambda x: (p[x], x))
        brier = float(np.mean([(ptop[q] - share[q]) ** 2 for q in ptop]))
        cps.append({"at": at, "frac": frac, "p_winner": pw, "neg_log_p": -math.log(pw),
                    "favourite": fav, "p_favourite": p[fav],
                    "favourite_won": (fav in win) / len(win),
                    "top_k_brier": brier, "p_first": p, "p_top_k": ptop})
    return cps


def _event_cutoffs(oos: OutOfSample) -> dict:
    """Each scored event's cutoff: its fit's (time-ordered), else the first day of the month
    it starts in (leave one event out)."""
    first: dict = {}
    for e, day in zip(oos.games.event, oos.games.date):
        if e not in first or day < first[e]:
            first[e] = day
    return {e: oos.cutoff.get(e) or month_start(first[e]) for e in oos.fits if e in first}


def fitted_game_probabilities(oos: OutOfSample, rows: list[dict], evs: list[dict], last: dict,
                              cutoffs: dict, fitted: list[str], hot_k: dict) -> dict:
    """Per-game probabilities of the fitted candidates: every scored event's games with the
    parameter fitted on the complete round robins ended before its cutoff."""
    out = {}
    ev = np.array(oos.games.event, dtype=object)
    for name in (c for c in fitted if c != "hot"):
        P = oos.P["fit"].copy()
        for e, cut in cutoffs.items():
            if name == "shrink-fitted":
                x = choose_shrink(rows, cut)[0]
            else:
                x = 1.0 - event_slope(oos.games, oos.P["fit"], evs, last, cut)["b"]
            if x != 0.0:
                m = ev == e
                P[m] = oos.data.probabilities(_shrunk(oos.fits[e]["fit"], x), oos.rows[m])
        out[name] = P
    if "hot" in fitted:
        out["hot"] = hot_probabilities(oos, hot_k)
    return out


WIN_BINS = (0.0, 0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0)


def event_reliability(rows: list[dict], bins=WIN_BINS) -> dict:
    """P(first) of every player at every checkpoint of every event, in bins, against how often
    such players won (a share of 1/w to each of w players level on top), per model; z from the
    predicted variance (players independent, an approximation: one winner per event)."""
    if not rows:
        return {}
    out = {}
    for nm in rows[0]["models"]:
        pred, got = [], []
        for r in rows:
            for cp in r["models"][nm]:
                for q, pq in cp["p_first"].items():
                    pred.append(pq)
                    got.append(1.0 / len(r["winners"]) if q in r["winners"] else 0.0)
        pred, got = np.array(pred), np.array(got)
        tab = []
        for lo, hi in zip(bins, bins[1:]):
            m = (pred >= lo) & ((pred < hi) if hi < 1.0 else (pred <= hi))
            if not m.any():
                continue
            sd = math.sqrt(float(np.sum(pred[m] * (1 - pred[m]))))
            tab.append({"bin": [lo, hi], "n": int(m.sum()), "pred": float(pred[m].mean()),
                        "obs": float(got[m].mean()), "se": sd / m.sum(),
                        "z": (float(got[m].sum()) - float(pred[m].sum())) / sd if sd > 0
                        else 0.0})
        out[nm] = tab
    return out


def event_summary(rows: list[dict]) -> dict:
    """Mean -ln P(winner) per model at the start and at fractions of the event, against the
    uniform pick, with standard errors across events; favourites' wins against expectation.
    The same again on the events outside every fixed model's fitting window, if some are in."""
    if not rows:
        return {}
    out = _summary(rows)
    clean = [r for r in rows if not r.get("in_fixed_fit")]
    if len(clean) < len(rows):
        out["outside_fixed_fit"] = _summary(clean)
    return out


def _se(x: np.ndarray) -> float:
    """The standard error of the mean of ``x`` (0 for a single value)."""
    return float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else 0.0


def _fraction_entry(use: list[dict], models: list, frac: float) -> dict:
    """One checkpoint fraction's row of the summary over the events ``use``."""
    def at(r):
        return next(j for j, cp in enumerate(r["models"][models[0]]) if cp["frac"] == frac)
    entry = {"events": len(use),
             "uniform": float(np.mean([r["uniform_neg_log_p"] for r in use])),
             "uniform_top_k_brier": float(np.mean([r["uniform_top_k_brier"] for r in use]))}
    for nm in models:
        x = np.array([r["models"][nm][at(r)]["neg_log_p"] for r in use])
        d = x - np.array([r["uniform_neg_log_p"] for r in use])
        tb = np.array([r["models"][nm][at(r)]["top_k_brier"] for r in use])
        entry[nm] = {"mean": float(x.mean()), "top_k_brier": float(tb.mean()),
                     "top_k_brier_se": _se(tb), "se": _se(x),
                     "minus_uniform": float(d.mean()), "minus_uniform_se": _se(d)}
    if "fit" in models:
        ref = np.array([r["models"]["fit"][at(r)]["neg_log_p"] for r in use])
        for nm in models:
            d = np.array([r["models"][nm][at(r)]["neg_log_p"] for r in use]) - ref
            entry[nm]["minus_fit"] = float(d.mean())
            entry[nm]["minus_fit_se"] = _se(d)
    return entry


def _favourites(rows: list[dict], models: list) -> dict:
    """Per model: how often the favourite at the start won, against how often it said."""
    fav = {}
    for nm in models:
        won = sum(r["models"][nm][0]["favourite_won"] for r in rows)
        said = sum(r["models"][nm][0]["p_favourite"] for r in rows)
        var = sum(r["models"][nm][0]["p_favourite"] * (1 - r["models"][nm][0]["p_favourite"])
                  for r in rows)
        fav[nm] = {"won": won, "expected": said,
                   "z": (won - said) / math.sqrt(var) if var > 0 else 0.0}
    return fav


def _candidates_at_start(cand: list[dict], models: list[str]) -> dict:
    """The Candidates' rows scored at the start: the events, the mean -log P(winner) under a
    uniform guess and under each model."""
    return {"events": len(cand),
            "uniform": float(np.mean([r["uniform_neg_log_p"] for r in cand])),
            **{nm: float(np.mean([r["models"][nm][0]["neg_log_p"] for r in cand]))
               for nm in models}}


def _summary(rows: list[dict]) -> dict:
    if not rows:
        return {}
    models = list(rows[0]["models"])
    out: dict = {"events": len(rows), "fractions": {}}
    for frac in CHECKPOINT_FRACTIONS:
        use = [r for r in rows if (frac == 0.0 or r["real_round_order"])
               and any(cp["frac"] == frac for cp in r["models"][models[0]])]
        if use:
            out["fractions"][str(frac)] = _fraction_entry(use, models, frac)
    cand = [r for r in rows if r["kind"] == "candidates"]
    if cand:
        out["candidates_at_start"] = _candidates_at_start(cand, models)
    out["favourite_at_start"] = _favourites(rows, models)
    return out


# -- the whole run ------------------------------------------------------------------------------
def _fixed_models(model_files: list[str]) -> dict:
    """The fixed model files to score, by their names (default: v1)."""
    from . import DEFAULT_MODEL_V1, load_model
    fixed = {}
    for f in (model_files or [str(DEFAULT_MODEL_V1)]):
        m = load_model(f)
        label = Path(f).stem
        if label in fixed:
            raise ScenarioError("the same model file twice", file=f, key="--model")
        fixed[label] = m
    return fixed


def _shrinks(candidates: tuple[str, ...], events: bool) -> tuple[float, ...]:
    """The rating shrinkages the candidates ask the per-game part to score too."""
    shrinks = tuple(candidate_rule(c, None)[2][1] for c in candidates
                    if c.startswith(("shrink-", "widen-")) and c not in FITTED_CANDIDATES)
    if "shrink-fitted" in candidates and events:
        shrinks += tuple(x for x in SHRINK_GRID if x not in shrinks)
    return shrinks


def _out_of_sample(games: Games, fixed: dict, reference: float, scheme: str,
                   variants: tuple[str, ...], shrinks: tuple[float, ...]) -> OutOfSample:
    from threadpoolctl import threadpool_limits

    # the fits are small dense products: BLAS threads only spin (measured: 30x the CPU)
    with threadpool_limits(1):
        if scheme == "time-ordered":
            oos = time_ordered(games, fixed, reference, variants, shrinks)
        else:
            oos = leave_one_event_out(games, fixed, reference, variants)
    if not len(oos.games):
        raise ScenarioError(f"nothing to score time-ordered: no month is preceded by "
                            f"{MIN_TRAIN_CLASS_GAMES['classical']} games of a control (--scheme "
                            "leave-one-event-out scores every event)", file=games.file)
    return oos


def run_backtest(games: Games, model_files: list[str], *, events: bool, sims: int,
                 seed: int, scheme: str = "time-ordered", variants: tuple[str, ...] | None = None,
                 candidates: tuple[str, ...] = ()) -> dict:
    from . import DEFAULT_MODEL_V1, load_model

    if scheme not in SCHEMES:
        raise ScenarioError("unknown scheme; known: " + ", ".join(SCHEMES), key="--scheme",
                            value=scheme)
    base = load_model(DEFAULT_MODEL_V1)
    fixed = _fixed_models(model_files)
    for c in candidates:
        candidate_rule(c, base)                           # refuse a bad name before the work
    if variants is None:
        variants = DEFAULT_VARIANTS if scheme == "time-ordered" else LOEO_VARIANTS
    timed = scheme == "time-ordered"
    oos = _out_of_sample(games, fixed, base.reference_rating, scheme, tuple(variants),
                         _shrinks(candidates, events) if timed else ())
    out = {"data": games.file, "scheme": scheme, "window": list(oos.games.window()),
           "games": {c: int(sum(1 for x in oos.games.control if x == c)) for c in SCORED_CONTROLS},
           "unscored_burn_in": oos.unscored,
           "events_scored": len(oos.fits),
           "min_train_class_games": MIN_TRAIN_CLASS_GAMES if timed else None,
           "models": {"fixed": list(fixed), "refitted": list(variants),
                      "baselines": list(BASELINES)},
           "full_fit": {v: fit_summary(r) for v, r in oos.full.items()}}
    if events:
        # fixed models are simulated event by event only when named (--model); the fitted
        # candidates' per-game probabilities come from it too (fitted on earlier events)
        out["per_event"] = event_backtest(oos, fixed, base, sims, seed, tuple(candidates),
                                          tuple(fixed) if model_files else ())
    out["per_game"] = game_tables(oos)
    return out


def fit_summary(r) -> dict:
    return {"loglik": r.loglik, "controls": {c: r.control(c) for c in r.classes},
            "kappa": {k: {"value": v, "se": s} for k, (v, s) in r.kappa().items()},
            "not_fitted_kinds": r.fixed_kinds, "games": r.n_games}


# -- text ---------------------------------------------------------------------------------------
def _f(x: float, fmt: str) -> str:
    return format(x, fmt) if math.isfinite(x) else "n/a"


def _render_head(d: dict) -> list[str]:
    """The data, the scheme and the models compared."""
    if d["scheme"] == "time-ordered":
        how = (f"time-ordered: each of {d['events_scored']:,} events scored by fits on the games "
               "before its month (refitted monthly); not scored (burn-in: fewer earlier games "
               "of the control than " + ", ".join(f"{n} {c}" for c, n in
                                                   d["min_train_class_games"].items()) + "): "
               + ", ".join(f"{n:,} {c}" for c, n in d["unscored_burn_in"].items()))
    else:
        how = (f"leave one event out ({d['events_scored']:,} events, each refitted without it; "
               "a fit then sees later games)")
    return [f"Backtest on {d['data']}: {d['window'][0]} .. {d['window'][1]}, "
            + ", ".join(f"{n:,} {c}" for c, n in d["games"].items()) + " games scored; "
            + how,
            f"fixed models: {', '.join(d['models']['fixed'])};  refitted: "
            f"{', '.join(d['models']['refitted'])};  baselines: "
            f"{', '.join(d['models']['baselines'])}", ""]


def _render_overall(pg: dict, w: int) -> list[str]:
    """Per control: every model's per-game scores, draws and White's score."""
    lines = []
    for c, tab in pg["overall"].items():
        lines.append(f"{c} games: per-game scores (lower is better), draws and White's score "
                     "(predicted / observed, z)")
        head = (f"  {'model':<{w}}{'log-loss':>9}{'Brier':>8}{'RPS':>8}"
                f"{'draws':>18}{'White score':>20}")
        lines += [head, "  " + "-" * (len(head) - 2)]
        for nm, m in tab.items():
            lines.append(f"  {nm:<{w}}{m['log_loss']:>9.4f}{m['brier']:>8.4f}{m['rps']:>8.4f}"
                         f"{m['draw_pred']:>8.3f}/{m['draw_obs']:.3f}{m['draw_z']:>+5.1f}"
                         f"{m['white_pred']:>10.3f}/{m['white_obs']:.3f}{m['white_z']:>+5.1f}")
        lines.append("")
    return lines


def _render_groups(pg: dict, w: int) -> list[str]:
    """The classical groups: log-loss against the constant baseline's."""
    lines = []
    for label, tab in pg["groups"].items():
        lines.append(f"classical {label}: log-loss, and minus the constant baseline's (± SE)")
        for nm, m in tab.items():
            v = m["vs_constant"]
            lines.append(f"  {nm:<{w}}{m['log_loss']:>9.4f}   {v['diff']:>+8.4f} ± {v['se']:.4f}"
                         f"   draws {m['draw_pred']:.3f}/{m['draw_obs']:.3f} "
                         f"z {m['draw_z']:+.1f}   ({m['n']} games)")
        lines.append("")
    return lines


def _render_bands(title: str, label: str, by_control: dict, models: list) -> list[str]:
    """Per control, one band (event kind, rating, time control) a row: log-loss, then the
    predicted / observed draws and z under it."""
    lines = []
    for c, bands in by_control.items():
        lines.append(f"{c} games by {title}: log-loss, then predicted / observed draws (z)")
        head = f"  {label:<13}{'games':>6}" + "".join(f"{nm[:16]:>17}" for nm in models)
        lines += [head, "  " + "-" * (len(head) - 2)]
        for b, tab in bands.items():
            n = next(iter(tab.values()))["n"]
            lines.append(f"  {b:<13}{n:>6}" + "".join(f"{tab[nm]['log_loss']:>17.4f}"
                                                     for nm in models))
            lines.append(f"  {'':<19}" + "".join(
                f"{tab[nm]['draw_pred']:.2f}/{tab[nm]['draw_obs']:.2f} "
                f"{tab[nm]['draw_z']:+.1f}".rjust(17) for nm in models))
        lines.append("")
    return lines


def _render_reliability(d: dict) -> list[str]:
    """Per control, the fit's and each fixed model's games by predicted draw probability."""
    lines = []
    for c, rel in d["per_game"]["reliability"].items():
        for nm in ("fit", *d["models"]["fixed"]):
            lines.append(f"{c} reliability of {nm}: games by predicted draw probability")
            for r in rel[nm]:
                lines.append(f"  {r['bin'][0]:.2f}-{r['bin'][1]:.2f}  {r['n']:>5} games  "
                             f"predicted {r['pred']:.3f}  observed {r['obs']:.3f}  z {r['z']:+.1f}")
            lines.append("")
    return lines


def _render_fitted(rows: list[dict]) -> list[str]:
    """The parameters the fitted candidates took for each event (from the earlier events)."""
    if not any(r.get("fitted") for r in rows):
        return []
    lines = ["", "  parameters fitted on the complete events ended before each event's month "
             "(neutral with fewer than 3): shrink-fitted L (negative: ratings spread out), "
             "event-slope b (1: Elo's spread) ± SE"]
    for r in rows:
        f, parts = r["fitted"], []
        if "shrink-fitted" in f:
            parts.append(f"L {f['shrink-fitted']['L']:+.2f}")
        if "event-slope" in f:
            b = f["event-slope"]
            parts.append(f"b {b['b']:.2f}" + (f" (estimate {b['b_raw']:+.2f} ± {b['se']:.2f})"
                                              if b["b_raw"] is not None else " (not estimated)"))
        used = (f.get("shrink-fitted") or f.get("event-slope"))["events"]
        lines.append(f"  {r['event'][:32]:<34}{used:>3} earlier   " + ",  ".join(parts))
    return lines


def _render_events(pe: dict) -> list[str]:
    """The event-level backtest: the summaries, the events one by one, P(first)'s
    reliability."""
    s = pe["summary"]
    ev_models = list(pe["events"][0]["models"])
    cw = max(24, max(len(nm) for nm in ev_models) + 2)
    lines = [f"Events: {s['events']} round robins with every game in the data, "
             f"{pe['sims']:,} simulations per checkpoint (seed {pe['seed']}); "
             "mean -ln P(real winner), ± SE across events"]
    lines += _render_summary(s, ev_models, cw)
    if "outside_fixed_fit" in s:
        o = s["outside_fixed_fit"]
        lines.append(f"The {o['events']} events outside the fixed models' fit windows "
                     "(out of sample for every model):")
        lines += _render_summary(o, ev_models, cw)
    lines.append("  -ln P(real winner) at the start, event by event "
                 "(+: inside a fixed model's fit window):")
    lines.append(f"  {'event':<34}{'winner':<30}{'uniform':>8}" + "".join(
        f"{nm:>{cw}}" for nm in ev_models))
    lines += [_render_event(r, ev_models, cw) for r in pe["events"]]
    if any(not r["real_round_order"] for r in pe["events"]):
        lines.append("  * game dates do not give the rounds: scored at the start only")
    lines += _render_fitted(pe["events"])
    lines.append("")
    lines.append("Reliability of P(first): every player at every checkpoint, by predicted "
                 "P(first); observed = how often such players won (ties shared); "
                 "± its standard error")
    for nm, tab in pe["reliability"].items():
        lines.append(f"  {nm}")
        lines += [f"    {100 * b['bin'][0]:>3.0f}-{100 * b['bin'][1]:<3.0f} %  "
                  f"{b['n']:>5} players   predicted {100 * b['pred']:5.1f} %   "
                  f"observed {100 * b['obs']:5.1f} ± {100 * b['se']:.1f} %   z {b['z']:+.1f}"
                  for b in tab]
    return lines


def _render_event(r: dict, ev_models: list, cw: int) -> str:
    """An event's line: its name (* scored at the start only, + inside a fixed model's fit
    window), winners, and -ln P(real winner) at the start, uniform then by model."""
    flag = ("" if r["real_round_order"] else " *") + (" +" if r["in_fixed_fit"] else "")
    return (f"  {(r['event'][:30] + flag):<34}{', '.join(r['winners'])[:29]:<30}"
            f"{r['uniform_neg_log_p']:>8.2f}"
            + "".join(f"{r['models'][nm][0]['neg_log_p']:>{cw}.2f}" for nm in ev_models))


def render(d: dict) -> str:
    pg = d["per_game"]
    models = list(next(iter(pg["overall"].values())))
    w = max(16, max(len(m) for m in models) + 2)
    lines = _render_head(d) + _render_overall(pg, w) + _render_groups(pg, w)
    lines += _render_bands("event kind", "kind", pg["by_kind"], models)
    for label, key in (("mean rating", "by_level"), ("time control", "by_time_control")):
        lines += _render_bands(label, label, pg[key], models)
    lines += _render_reliability(d)
    pe = d.get("per_event")
    if pe and pe["events"]:
        lines += _render_events(pe)
    return "\n".join(lines).rstrip()


def _render_summary(s: dict, ev_models: list, cw: int) -> list[str]:
    head = f"  {'checkpoint':<18}{'events':>7}{'uniform':>9}" + "".join(
        f"{nm:>{cw}}" for nm in ev_models)
    lines = [head, "  " + "-" * (len(head) - 2)]
    for frac, e in s["fractions"].items():
        lines += _render_fraction(float(frac), e, ev_models, cw)
    c = s.get("candidates_at_start")
    if c:
        lines.append(f"  {'Candidates, start':<18}{c['events']:>7}{c['uniform']:>9.3f}"
                     + "".join(f"{c[nm]:.3f}".rjust(cw) for nm in ev_models))
    lines += ["", "  favourite at the start: events won (ties shared) / expected by the model"]
    for nm, v in s["favourite_at_start"].items():
        lines.append(f"    {nm:<26}{v['won']:>6.2f} / {v['expected']:.2f}   z {v['z']:+.1f}")
    return lines + [""]


def _render_fraction(frac: float, e: dict, ev_models: list, cw: int) -> list[str]:
    """A checkpoint's lines of the event summary: mean -ln P(real winner) ± SE by model, its
    difference from the fit's (when "fit" is one of the models), P(top 3)'s Brier score."""
    at = "start" if frac == 0 else f"{100 * frac:.0f} % of rounds"
    lines = [f"  {at:<18}{e['events']:>7}{e['uniform']:>9.3f}" + "".join(
        f"{e[nm]['mean']:.3f} ±{e[nm]['se']:.3f}".rjust(cw) for nm in ev_models)]
    if "fit" in ev_models:
        lines.append(f"  {'  minus fit':<34}" + "".join(
            f"{e[nm]['minus_fit']:+.3f} ±{e[nm]['minus_fit_se']:.3f}".rjust(cw)
            for nm in ev_models))
    lines.append(f"  {'  P(top 3) Brier':<25}{e['uniform_top_k_brier']:>9.3f}" + "".join(
        f"{e[nm]['top_k_brier']:.3f} ±{e[nm]['top_k_brier_se']:.3f}".rjust(cw)
        for nm in ev_models))
    return lines


# -- chart --------------------------------------------------------------------------------------
def reliability_chart(per_event: dict, path, models=("fit", "equal-ratings")) -> str:
    """P(first) predicted against observed in the bins of ``event_reliability``, with the
    observed share's standard error, for a few models; saved as PNG or SVG by extension."""
    from ..report.charts import Figure, save

    fig = Figure(figsize=(6.4, 5.2))
    ax = fig.add_subplot()
    ax.plot([0, 100], [0, 100], color="0.5", lw=1, ls="--", label="perfect calibration")
    for k, nm in enumerate(m for m in models if m in per_event["reliability"]):
        tab = per_event["reliability"][nm]
        x = [100 * b["pred"] for b in tab]
        y = [100 * b["obs"] for b in tab]
        e = [100 * b["se"] for b in tab]
        ax.errorbar([v + 0.6 * k for v in x], y, yerr=e, fmt="o-", capsize=3, ms=4, lw=1,
                    label=f"{nm} ({sum(b['n'] for b in tab):,} player-checkpoints)")
    ax.set_xlim(0, 100)
    ax.set_ylim(0, 105)
    ax.set_xlabel("predicted P(first) in the bin, mean (%)")
    ax.set_ylabel("observed: share of such players who won (%), ± 1 SE")
    n = len(per_event["events"])
    ax.set_title(f"P(first) reliability, {n} complete round robins, time-ordered\n"
                 "(start, 25 %, 50 %, 75 % of rounds; bins 0-5-10-20-35-50-75-100 %)",
                 fontsize=10)
    ax.grid(True, color="0.9")
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    return save(fig, path)
