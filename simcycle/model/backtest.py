"""Out-of-sample scoring of outcome models on real games and events (``simcycle backtest``).

Leave one event out: for every event of the data, the fitted candidates are refitted on all
the other events and then score that event's games, so nothing is scored in sample.  Fixed
model files (``--model``, by default davidson-elo-v1) are scored as they are.

Per game: log-loss, Brier score and ranked probability score against two baselines (the
training data's constant frequencies; Elo with the training draw rate), predicted against
observed draws and White score with z-scores, a reliability table by predicted draw
probability, and the same by event kind and by rating level.

Per event (round robins whose every game is in the data): P(first) of the real winner at the
start and after every round, simulated with the left-out fit, against a uniform pick; and how
often the model's favourite won against how often the model said it would.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import ScenarioError
from ..enums import RESULT_TEXT
from . import davidson_wdl
from .gamedata import BLACK_WINS, DRAW, WHITE_WINS, Games
from ..kinds import KINDS

SCORED_CONTROLS = ("classical", "rapid")
MODEL_CONTROL = {"classical": "classical", "rapid": "rapid-15+10"}
DRAW_BINS = (0.0, 0.3, 0.4, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 1.0)
LEVEL_BANDS = ((0, 2600), (2600, 2700), (2700, 2750), (2750, 2800), (2800, 4000))
CHECKPOINT_FRACTIONS = (0.0, 0.25, 0.5, 0.75)
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
        ctl = m.control(MODEL_CONTROL[c])
        idx = np.array(idx)
        pw, pd, pb = davidson_wdl(ctl.draw0, ctl.white_edge, ctl.slope, ctl.level / 100.0,
                                  m.reference_rating, games.white_rating[idx],
                                  games.black_rating[idx], exp=np.exp)
        P[idx] = np.column_stack([pw, pd, pb])
    return P


def constant_probabilities(train: Games, test: Games) -> np.ndarray:
    """The training games' White / draw / Black frequencies, per control."""
    P = np.zeros((len(test), 3))
    for c in set(test.control):
        y = train.result[np.array([x == c for x in train.control], bool)]
        freq = np.bincount(y, minlength=3) / max(len(y), 1) if len(y) else np.full(3, 1 / 3)
        P[np.array([x == c for x in test.control], bool)] = freq
    return P


def elo_probabilities(train: Games, test: Games) -> np.ndarray:
    """Elo with a fixed draw rate: P(draw) = the training draw rate of the control; decisive
    games split by Elo's expected score 1 / (1 + 10^(-(d + h)/400)), h = White's edge in the
    training decisive games, 400 log10(White wins / Black wins)."""
    P = np.zeros((len(test), 3))
    for c in set(test.control):
        y = train.result[np.array([x == c for x in train.control], bool)]
        w, dr, b = np.bincount(y, minlength=3) if len(y) else (1, 1, 1)
        draw = dr / max(w + dr + b, 1)
        h = 400.0 * math.log10(max(w, 1) / max(b, 1))
        m = np.array([x == c for x in test.control], bool)
        d = test.white_rating[m] - test.black_rating[m]
        e = 1.0 / (1.0 + 10.0 ** (-(d + h) / 400.0))
        P[m] = np.column_stack([(1 - draw) * e, np.full(m.sum(), draw), (1 - draw) * (1 - e)])
    return P


FIT_VARIANTS = {
    "fit": {"kinds": True, "level": True},
    "fit-no-kinds": {"kinds": False, "level": True},
    "fit-no-level": {"kinds": True, "level": False},
}
BASELINES = ("constant", "elo-fixed-draw")


# -- leave one event out ----------------------------------------------------------------------
@dataclass
class OutOfSample:
    games: Games                 # the scored games
    P: dict                      # model name -> [n, 3]
    fits: dict                   # event -> {variant -> FitResult} (left-out fits)
    full: dict                   # variant -> FitResult on all games
    windows: dict                # fixed model -> (first, last day) of the games it was fitted on


def leave_one_event_out(games: Games, fixed: dict, reference: float) -> OutOfSample:
    """Every fitted variant refitted without each event, scoring that event; fixed models and
    the baselines (whose training data also leave the event out) alongside."""
    from .fit import fit

    scored = games.take(games.where(controls=set(SCORED_CONTROLS)))
    full = {v: fit(scored, reference=reference, **kw) for v, kw in FIT_VARIANTS.items()}
    names = [*fixed, *FIT_VARIANTS, *BASELINES]
    P = {nm: np.zeros((len(scored), 3)) for nm in names}
    for nm, model in fixed.items():
        P[nm] = model_probabilities(model, scored)
    ev = np.array(scored.event, dtype=object)
    fits = {}
    for e in dict.fromkeys(scored.event):
        test_m = ev == e
        train, test = scored.take(~test_m), scored.take(test_m)
        fits[e] = {}
        for v, kw in FIT_VARIANTS.items():
            r = fit(train, reference=reference, start=full[v], **kw)
            fits[e][v] = r
            P[v][test_m] = r.probabilities(test)
        P["constant"][test_m] = constant_probabilities(train, test)
        P["elo-fixed-draw"][test_m] = elo_probabilities(train, test)
    windows = {}
    for nm, model in fixed.items():
        w = model.fit.get("window") or KNOWN_FIT_WINDOWS.get(nm)
        if w:
            windows[nm] = tuple(w)
    return OutOfSample(scored, P, fits, full, windows)


def game_tables(oos: OutOfSample) -> dict:
    g, y = oos.games, oos.games.result.astype(np.int64)
    ctl = np.array(g.control, dtype=object)
    kind = np.array(g.kind, dtype=object)
    mean = (g.white_rating + g.black_rating) / 2
    out: dict = {"overall": {}, "by_kind": {}, "by_level": {}, "reliability": {},
                 "groups": {}}
    for c in SCORED_CONTROLS:
        mc = ctl == c
        if not mc.any():
            continue
        out["overall"][c] = {nm: game_metrics(P[mc], y[mc]) for nm, P in oos.P.items()}
        out["by_kind"][c] = {}
        for k in KINDS:
            m = mc & (kind == k)
            if m.any():
                out["by_kind"][c][k] = {nm: game_metrics(P[m], y[m]) for nm, P in oos.P.items()}
        out["by_level"][c] = {}
        for lo, hi in LEVEL_BANDS:
            m = mc & (mean >= lo) & (mean < hi)
            if m.any():
                out["by_level"][c][f"{lo}-{hi}"] = {nm: game_metrics(P[m], y[m])
                                                    for nm, P in oos.P.items()}
        out["reliability"][c] = {nm: reliability(P[mc], y[mc]) for nm, P in oos.P.items()}
    # the groups of the issue: Candidates-type events and the round robins together; and every
    # classical game outside the fixed models' fitting windows (out of sample for them too)
    date = np.array(g.date, dtype=object)
    outside = np.ones(len(y), bool)
    for lo, hi in oos.windows.values():
        outside &= (date < lo) | (date > hi)
    groups = [(label, (ctl == "classical") & np.array([k in kinds for k in kind], bool))
              for label, kinds in GROUPS]
    if oos.windows:
        groups.append(("outside the fixed models' fit windows", (ctl == "classical") & outside))
    for label, m in groups:
        if m.any():
            base = oos.P["constant"][m]
            out["groups"][label] = {nm: dict(game_metrics(P[m], y[m]),
                                             vs_constant=versus(P[m], base, y[m]))
                                    for nm, P in oos.P.items()}
    return out


# -- events -------------------------------------------------------------------------------------
def simulate_event(raw_scenario: dict, model, at: str, sims: int, seed: int,
                   offsets: bool) -> dict:
    """P(first) of each player of a round-robin scenario given as a plain dict (the layout of
    a scenario TOML file), simulated from checkpoint ``at``.  The only place the backtest
    touches the format API."""
    from .. import driver
    from ..formats.base import CompileOptions
    from ..scenario import load_data

    fmt, scn = load_data(raw_scenario, raw_scenario["scenario"]["name"])
    plan = fmt.compile(scn, model, CompileOptions(at=at, offsets=offsets))
    res = driver.run(plan, sims, seed, progress=False)
    first = res.tallies["place"][:, 0] / res.sims
    return {name: float(p) for name, p in zip(plan.info.names, first)}


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

    if all(str(games.round[i]).isdigit() for i in idx):
        by: dict = {}
        for i in idx:
            by.setdefault(int(games.round[i]), []).append(i)
        rounds = [by[k] for k in sorted(by)]
        if valid(rounds):
            return rounds, True
    last = {p: 0 for p in players}
    by = {}
    for i in sorted(idx, key=lambda i: (games.date[i], i)):
        r = 1 + max(last[games.white[i]], last[games.black[i]])
        last[games.white[i]] = last[games.black[i]] = r
        by.setdefault(r, []).append(i)
    rounds = [by[k] for k in sorted(by)]
    if valid(rounds):
        return rounds, True
    from ..formats.shared.schedules import berger_rounds

    pos = {p: j for j, p in enumerate(players)}
    slots: dict = {}
    for rn, r in enumerate(berger_rounds(n, cycles)):
        for w, b in r:
            slots.setdefault(frozenset((w, b)), []).append(rn)
    rounds = [[] for _ in range(n_rounds)]
    for i in sorted(idx, key=lambda i: (games.date[i], i)):
        rounds[slots[frozenset((pos[games.white[i]], pos[games.black[i]]))].pop(0)].append(i)
    return rounds, False


def event_scenario(games: Games, ev: dict, rounds: list[list[int]]) -> dict:
    """A round-robin scenario (plain dict, the layout of a scenario TOML file)."""
    rating: dict = {}
    for i in ev["idx"]:
        rating.setdefault(games.white[i], float(games.white_rating[i]))
        rating.setdefault(games.black[i], float(games.black_rating[i]))
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


def event_models(oos: OutOfSample, fixed: dict, event: str, base_model) -> dict:
    """The models simulated for one left-out event: the fixed files, and the left-out fits
    written into models (with and without offsets, the offsets' sd from the left-out data)."""
    from .fit import form_spread

    out = {}
    for nm, m in fixed.items():
        out[nm] = (m, False)
        out[f"{nm}+offsets"] = (m, True)
    train = oos.games.take(np.array([e != event for e in oos.games.event], bool))
    for v in ("fit", "fit-no-kinds"):
        r = oos.fits[event][v]
        m = fitted_model(r, base_model, {c: form_spread(train, r, c) for c in r.classes})
        out[v] = (m, False)
        if v == "fit":
            out[f"{v}+offsets"] = (m, True)
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


def event_backtest(oos: OutOfSample, fixed: dict, base_model, sims: int, seed: int) -> dict:
    games = oos.games
    rows = []
    for ev in complete_round_robins(games):
        rounds, real_order = _rounds(games, ev)
        raw = event_scenario(games, ev, rounds)
        win = winners(games, ev)
        n_rounds = len(rounds)
        ats = ["start"] + ([f"round{k}" for k in range(1, n_rounds)] if real_order else [])
        per_model = {}
        for nm, (model, offsets) in event_models(oos, fixed, ev["event"], base_model).items():
            m = model.for_kind(ev["kind"])
            cps = []
            for at in ats:
                p = simulate_event(raw, m, at, sims, seed, offsets)
                pw = max(sum(p[w] for w in win), P_FLOOR_SIMS / sims)
                fav = max(p, key=lambda x: (p[x], x))
                cps.append({"at": at, "p_winner": pw, "neg_log_p": -math.log(pw),
                            "favourite": fav, "p_favourite": p[fav],
                            "favourite_won": (fav in win) / len(win)})
            per_model[nm] = cps
        first, last = min(games.date[i] for i in ev["idx"]), max(games.date[i] for i in ev["idx"])
        in_fit = [nm for nm, (lo, hi) in oos.windows.items() if not (last < lo or first > hi)]
        rows.append({"event": ev["event"], "kind": ev["kind"], "players": len(ev["players"]),
                     "dates": [first, last], "in_fixed_fit": in_fit,
                     "rounds": n_rounds, "real_round_order": real_order, "winners": win,
                     "uniform_neg_log_p": -math.log(len(win) / len(ev["players"])),
                     "models": per_model})
    return {"sims": sims, "seed": seed, "events": rows, "summary": event_summary(rows)}


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


def _summary(rows: list[dict]) -> dict:
    if not rows:
        return {}
    models = list(rows[0]["models"])
    out: dict = {"events": len(rows), "fractions": {}}
    for frac in CHECKPOINT_FRACTIONS:
        use = [r for r in rows if frac == 0.0 or r["real_round_order"]]
        if not use:
            continue
        at = lambda r: 0 if frac == 0.0 else int(round(frac * r["rounds"]))  # noqa: E731
        entry = {"events": len(use),
                 "uniform": float(np.mean([r["uniform_neg_log_p"] for r in use]))}
        for nm in models:
            x = np.array([r["models"][nm][at(r)]["neg_log_p"] for r in use])
            d = x - np.array([r["uniform_neg_log_p"] for r in use])
            entry[nm] = {"mean": float(x.mean()),
                         "se": float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else 0.0,
                         "minus_uniform": float(d.mean()),
                         "minus_uniform_se": (float(d.std(ddof=1) / math.sqrt(len(d)))
                                              if len(d) > 1 else 0.0)}
        if "fit" in models:
            ref = np.array([r["models"]["fit"][at(r)]["neg_log_p"] for r in use])
            for nm in models:
                d = np.array([r["models"][nm][at(r)]["neg_log_p"] for r in use]) - ref
                entry[nm]["minus_fit"] = float(d.mean())
                entry[nm]["minus_fit_se"] = (float(d.std(ddof=1) / math.sqrt(len(d)))
                                             if len(d) > 1 else 0.0)
        out["fractions"][str(frac)] = entry
    cand = [r for r in rows if r["kind"] == "candidates"]
    if cand:
        out["candidates_at_start"] = {
            "events": len(cand),
            "uniform": float(np.mean([r["uniform_neg_log_p"] for r in cand])),
            **{nm: float(np.mean([r["models"][nm][0]["neg_log_p"] for r in cand]))
               for nm in models}}
    fav = {}
    for nm in models:
        won = sum(r["models"][nm][0]["favourite_won"] for r in rows)
        said = sum(r["models"][nm][0]["p_favourite"] for r in rows)
        var = sum(r["models"][nm][0]["p_favourite"] * (1 - r["models"][nm][0]["p_favourite"])
                  for r in rows)
        fav[nm] = {"won": won, "expected": said,
                   "z": (won - said) / math.sqrt(var) if var > 0 else 0.0}
    out["favourite_at_start"] = fav
    return out


# -- the whole run ------------------------------------------------------------------------------
def run_backtest(games: Games, model_files: list[str], *, events: bool, sims: int,
                 seed: int) -> dict:
    from . import DEFAULT_MODEL_V1, load_model

    fixed = {}
    for f in (model_files or [str(DEFAULT_MODEL_V1)]):
        m = load_model(f)
        label = Path(f).stem
        if label in fixed:
            raise ScenarioError("the same model file twice", file=f, key="--model")
        fixed[label] = m
    base = load_model(DEFAULT_MODEL_V1)
    reference = base.reference_rating
    oos = leave_one_event_out(games, fixed, reference)
    window = oos.games.window()
    out = {"data": games.file, "window": list(window),
           "games": {c: int(sum(1 for x in oos.games.control if x == c)) for c in SCORED_CONTROLS},
           "events_left_out": len(oos.fits),
           "models": {"fixed": list(fixed), "refitted": list(FIT_VARIANTS),
                      "baselines": list(BASELINES)},
           "full_fit": {v: fit_summary(r) for v, r in oos.full.items()},
           "per_game": game_tables(oos)}
    if events:
        out["per_event"] = event_backtest(oos, fixed, base, sims, seed)
    return out


def fit_summary(r) -> dict:
    return {"loglik": r.loglik, "controls": {c: r.control(c) for c in r.classes},
            "kappa": {k: {"value": v, "se": s} for k, (v, s) in r.kappa().items()},
            "not_fitted_kinds": r.fixed_kinds, "games": r.n_games}


# -- text ---------------------------------------------------------------------------------------
def _f(x: float, fmt: str) -> str:
    return format(x, fmt) if math.isfinite(x) else "n/a"


def render(d: dict) -> str:
    pg = d["per_game"]
    models = list(next(iter(pg["overall"].values())))
    w = max(16, max(len(m) for m in models) + 2)
    lines = [f"Backtest on {d['data']}: {d['window'][0]} .. {d['window'][1]}, "
             + ", ".join(f"{n:,} {c}" for c, n in d["games"].items()) + " games; "
             f"leave one event out ({d['events_left_out']:,} events, each refitted without it)",
             f"fixed models: {', '.join(d['models']['fixed'])};  refitted: "
             f"{', '.join(d['models']['refitted'])};  baselines: "
             f"{', '.join(d['models']['baselines'])}", ""]
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
    for label, tab in pg["groups"].items():
        lines.append(f"classical {label}: log-loss, and minus the constant baseline's (± SE)")
        for nm, m in tab.items():
            v = m["vs_constant"]
            lines.append(f"  {nm:<{w}}{m['log_loss']:>9.4f}   {v['diff']:>+8.4f} ± {v['se']:.4f}"
                         f"   draws {m['draw_pred']:.3f}/{m['draw_obs']:.3f} "
                         f"z {m['draw_z']:+.1f}   ({m['n']} games)")
        lines.append("")
    for c, kinds in pg["by_kind"].items():
        lines.append(f"{c} games by event kind: log-loss, then predicted / observed draws (z)")
        head = f"  {'kind':<13}{'games':>6}" + "".join(f"{nm[:16]:>17}" for nm in models)
        lines += [head, "  " + "-" * (len(head) - 2)]
        for k, tab in kinds.items():
            n = next(iter(tab.values()))["n"]
            lines.append(f"  {k:<13}{n:>6}" + "".join(f"{tab[nm]['log_loss']:>17.4f}"
                                                     for nm in models))
            lines.append(f"  {'':<19}" + "".join(
                f"{tab[nm]['draw_pred']:.2f}/{tab[nm]['draw_obs']:.2f} {tab[nm]['draw_z']:+.1f}"
                .rjust(17) for nm in models))
        lines.append("")
    for c, bands in pg["by_level"].items():
        lines.append(f"{c} games by mean rating: log-loss")
        head = f"  {'rating':<13}{'games':>6}" + "".join(f"{nm[:16]:>17}" for nm in models)
        lines += [head, "  " + "-" * (len(head) - 2)]
        for b, tab in bands.items():
            n = next(iter(tab.values()))["n"]
            lines.append(f"  {b:<13}{n:>6}" + "".join(f"{tab[nm]['log_loss']:>17.4f}"
                                                     for nm in models))
        lines.append("")
    for c, rel in pg["reliability"].items():
        for nm in ("fit", *d["models"]["fixed"]):
            lines.append(f"{c} reliability of {nm}: games by predicted draw probability")
            for r in rel[nm]:
                lines.append(f"  {r['bin'][0]:.2f}-{r['bin'][1]:.2f}  {r['n']:>5} games  "
                             f"predicted {r['pred']:.3f}  observed {r['obs']:.3f}  z {r['z']:+.1f}")
            lines.append("")
    pe = d.get("per_event")
    if pe and pe["events"]:
        s = pe["summary"]
        ev_models = list(pe["events"][0]["models"])
        cw = max(24, max(len(nm) for nm in ev_models) + 2)
        lines.append(f"Events: {s['events']} round robins with every game in the data, "
                     f"{pe['sims']:,} simulations per checkpoint (seed {pe['seed']}); "
                     "mean -ln P(real winner), ± SE across events")
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
        for r in pe["events"]:
            win = ", ".join(r["winners"])
            flag = ("" if r["real_round_order"] else " *") + (" +" if r["in_fixed_fit"] else "")
            lines.append(f"  {(r['event'][:30] + flag):<34}{win[:29]:<30}"
                         f"{r['uniform_neg_log_p']:>8.2f}" + "".join(
                             f"{r['models'][nm][0]['neg_log_p']:>{cw}.2f}" for nm in ev_models))
        if any(not r["real_round_order"] for r in pe["events"]):
            lines.append("  * game dates do not give the rounds: scored at the start only")
    return "\n".join(lines).rstrip()


def _render_summary(s: dict, ev_models: list, cw: int) -> list[str]:
    head = f"  {'checkpoint':<18}{'events':>7}{'uniform':>9}" + "".join(
        f"{nm:>{cw}}" for nm in ev_models)
    lines = [head, "  " + "-" * (len(head) - 2)]
    for frac, e in s["fractions"].items():
        at = "start" if float(frac) == 0 else f"{100 * float(frac):.0f} % of rounds"
        lines.append(f"  {at:<18}{e['events']:>7}{e['uniform']:>9.3f}" + "".join(
            f"{e[nm]['mean']:.3f} ±{e[nm]['se']:.3f}".rjust(cw) for nm in ev_models))
        if "fit" in ev_models:
            lines.append(f"  {'  minus fit':<34}" + "".join(
                f"{e[nm]['minus_fit']:+.3f} ±{e[nm]['minus_fit_se']:.3f}".rjust(cw)
                for nm in ev_models))
    c = s.get("candidates_at_start")
    if c:
        lines.append(f"  {'Candidates, start':<18}{c['events']:>7}{c['uniform']:>9.3f}"
                     + "".join(f"{c[nm]:.3f}".rjust(cw) for nm in ev_models))
    lines += ["", "  favourite at the start: events won (ties shared) / expected by the model"]
    for nm, v in s["favourite_at_start"].items():
        lines.append(f"    {nm:<26}{v['won']:>6.2f} / {v['expected']:.2f}   z {v['z']:+.1f}")
    return lines + [""]
