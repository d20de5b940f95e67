"""Writing a model TOML file from a fit (``simcycle fit -o FILE``).

The file has the layout ``load_model`` reads: the fitted controls carry their estimates and
standard errors, the others keep the base model's values marked ``fitted = false``; ``[fit]``
records the data, the window, the number of games and the log-likelihood; ``[kinds]`` holds
kappa per event kind; ``[offsets]`` the spread of form from event to event.
"""

from __future__ import annotations

import math

from .fit import FitResult, FormSpread
from ..kinds import KINDS, REFERENCE_KIND
from . import RATING_CLASSES, OutcomeModel

# The model controls that each fitted class stands for: the rapid games of the data are 15+10
# (the online tours, the World Rapid 2022, the World Cup 2025's first tiebreaks), 10+10 (its
# second tiebreaks) and 25+10 (the Grand Chess Tour's) without telling most of them apart; the
# Armageddons are Norway Chess's 10 v 7 minutes (data/games/README.md).
FITTED_CONTROL = {"classical": ("classical",), "rapid": ("rapid-15+10", "rapid-10+10"),
                  "armageddon": ("armageddon-10v7",)}
# Controls a fit adds when the base model lacks them: rating class, draw counts for Black.
NEW_CONTROLS = {"armageddon-10v7": ("blitz", True)}
# Armageddon at other time odds, from the 10 v 7 fit: White's edge moved by 120 Elo per
# doubling of the time ratio (talkchess time-handicap threads, [TC] of docs/model.md).
ELO_PER_DOUBLING = 120.0
TIME_ODDS = {"armageddon-10v7": 10 / 7, "armageddon-5v4": 5 / 4}


def _num(x: float, digits: int = 4) -> str:
    if not math.isfinite(x):
        raise ValueError(f"refusing to write a non-finite number ({x})")
    return f"{x:.{digits}f}".rstrip("0").rstrip(".") if "." in f"{x:.{digits}f}" else f"{x}"


def _sci(x: float) -> str:
    if not math.isfinite(x):
        raise ValueError(f"refusing to write a non-finite number ({x})")
    return f"{x:.6e}"


def _offset_lines(res: FitResult, spreads: dict[str, FormSpread | None],
                  base: OutcomeModel) -> list[str]:
    """``[offsets]``' spreads, one per rating class (the base model's where not fitted)."""
    lines = []
    for cls in RATING_CLASSES:
        sp = spreads.get(cls)
        if sp is None:
            lines.append(f"sd_{cls} = {_num(base.offset_sd[cls], 1)}   # not fitted: as in the "
                         "base model")
        else:
            lines.append(f"sd_{cls} = {_num(sp.sd, 1)}   # {sp.player_events} player-events of "
                         f"at least {res.form_min_games} games")
            lines.append(f"sd_{cls}_se = {_num(sp.se, 1)}")
    return lines


def _kind_lines(res: FitResult) -> list[str]:
    """``[kinds]``' kappa per event kind, with why a kind is not fitted."""
    lines = []
    kap = res.kappa()
    for k in KINDS:
        if k == REFERENCE_KIND:
            continue
        if k in kap:
            v, se = kap[k]
            lines.append(f"{k} = {_num(v)}   # {res.n_kind.get(k, 0)} games")
            lines.append(f"{k}_se = {_num(se)}")
        else:
            n = res.n_kind.get(k, 0)
            why = (f"{n} games, fewer than {res.kinds_min_games}" if n else "no games")
            if not res.kinds:
                why = "the fit has no kind terms"
            lines.append(f"{k} = 0.0   # not fitted: {why}")
    return lines


def _fitted_lines(res: FitResult, name: str, cls: str) -> list[str]:
    """A fitted control's parameters with their standard errors (held ones said)."""
    lines = []
    p = res.control(cls)
    for q in ("draw0", "white_edge", "slope", "level"):
        if q == "level" and not res.level:
            lines.append("level = 0.0   # the fit has no level term")
            continue
        held = {"slope": f"slope:{cls}", "level": f"level:{cls}"}.get(q)
        if held in res.held:
            lines.append(f"{q} = {_num(p[q])}   # held, not fitted (as in the base "
                         "model)")
            continue
        lines.append(f"{q} = {_num(p[q])}")
        lines.append(f"{q}_se = {_num(p[q + '_se'])}")
    lines.append(f"fitted = true   # {res.n_games[cls]} {cls} games"
                 + ("" if name == FITTED_CONTROL[cls][0] else
                    f" (the {cls} fit; the data's {cls} games are mostly "
                    f"{FITTED_CONTROL[cls][0].split('-', 1)[1]})"))
    return lines


def _derived_lines(res: FitResult, name: str, derived_from: str, fitted: dict) -> list[str]:
    """An Armageddon control at other time odds, derived from the fitted one."""
    src = res.control(fitted[derived_from])
    shift = ELO_PER_DOUBLING * math.log2(TIME_ODDS[name] / TIME_ODDS[derived_from])
    return [f"draw0 = {_num(src['draw0'])}   # as {derived_from} (fitted)",
            f"white_edge = {_num(src['white_edge'] + shift)}   # {derived_from}'s "
            f"{_num(src['white_edge'], 1)} {'+' if shift >= 0 else '-'} "
            f"{_num(abs(shift), 1)}: {ELO_PER_DOUBLING:.0f} Elo per doubling of the "
            "time ratio",
            f"slope = {_num(src['slope'])}", f"level = {_num(src['level'])}",
            f"fitted = false   # derived from {derived_from} (docs/model.md)"]


def _control_lines(res: FitResult, base: OutcomeModel) -> list[str]:
    """One ``[controls.NAME]`` table per control: fitted, derived, or the base model's."""
    lines = []
    fitted = {name: c for c in res.classes for name in FITTED_CONTROL.get(c, ())}
    for name, rating_class, armageddon, c in _written_controls(base, fitted):
        lines += ["", f'[controls."{name}"]' if not name.isidentifier() else
                  f"[controls.{name}]", f'rating_class = "{rating_class}"']
        lines += _control_body(res, name, c, fitted)
        if armageddon:
            lines.append("draw_counts_for_black = true")
    return lines


def _written_controls(base: OutcomeModel, fitted: dict) -> list[tuple]:
    """(name, rating class, Armageddon, the base's control or None) for each control the file
    gets: the base model's, then each of :data:`NEW_CONTROLS` the fit covers."""
    controls = [(c.name, c.rating_class, c.armageddon, c) for c in base.controls]
    known = {c.name for c in base.controls}
    controls += [(name, rc, arm, None) for name, (rc, arm) in NEW_CONTROLS.items()
                 if name in fitted and name not in known]
    return controls


def _control_body(res: FitResult, name: str, c, fitted: dict) -> list[str]:
    """A control's parameter lines: fitted, else derived from a fitted control at other time
    odds, else the base model's control ``c`` as it is."""
    if name in fitted:
        return _fitted_lines(res, name, fitted[name])
    derived_from = next((n for n in fitted if name in TIME_ODDS and n in TIME_ODDS
                         and n != name), None)
    if derived_from is not None:
        return _derived_lines(res, name, derived_from, fitted)
    return [f"draw0 = {_num(c.draw0)}", f"white_edge = {_num(c.white_edge)}",
            f"slope = {_num(c.slope)}", f"level = {_num(c.level)}",
            "fitted = false   # not fitted (docs/model.md): as in the base model"]


def _covariance_lines(res: FitResult) -> list[str]:
    """``[covariance]``: the fitted parameters' covariance (none when nothing is free)."""
    free = [j for j in range(len(res.names)) if res.cov[j, j] > 0.0]
    if not free:
        return []
    lines = ["", "[covariance]",
             "# The fitted parameters' covariance (the inverse of the observed information):"
             " u0 is",
             "# ln(2*draw0/(1-draw0)), level per 100 Elo, kappa per kind.  The parameter"
             " draw",
             "# (docs/model.md) draws each simulated event's parameters from it.",
             "names = [" + ", ".join(f'"{res.names[j]}"' for j in free) + "]",
             "matrix = ["]
    for i in free:
        lines.append("  [" + ", ".join(_sci(res.cov[i, j]) for j in free) + "],")
    lines.append("]")
    return lines


def _prior_text(prior: dict) -> str:
    """The fit's prior as the body of a TOML inline table: ``slope = [0.83, 0.2], ...``."""
    return ", ".join(f"{k} = [{_num(c)}, {_num(sd)}]" for k, (c, sd) in prior.items())


def render_model(res: FitResult, spreads: dict[str, FormSpread | None], base: OutcomeModel, *,
                 data_label: str, version: str, offsets_default: bool,
                 command: str) -> str:
    """The TOML text of the fitted model."""
    lines = [
        "# simcycle outcome model: Davidson-Elo, one parameter set per time control, with a",
        "# draw-propensity term per event kind.  Written by `simcycle fit`:",
        f"#   {command}",
        "#",
        "#   nu    = 2*draw0/(1-draw0) * exp(level * (mean_rating - reference_rating)/100)",
        "#           * exp(kappa[event kind])",
        "#   delta = (1 + nu/2) * (slope * (R_white - R_black) + white_edge)",
        "#   s     = 10^(delta/800);  N = s + 1/s + nu",
        "#   P(white) = s/N,  P(draw) = nu/N,  P(black) = (1/s)/N",
        "#",
        "# Every fitted number is followed by its standard error (`_se`, from the observed",
        *(["# information, with the prior of [fit] prior added: the fit is its maximum a",
           "# posteriori).  Controls marked `fitted = false` keep the values of "
           f"{base.path.rsplit('/', 1)[-1]}"] if res.prior else
          ["# information).  Controls marked `fitted = false` keep the values of "
           f"{base.path.rsplit('/', 1)[-1]}"]),
        "# (published figures and interpolations, see docs/model.md).",
        "",
        "[model]",
        'name = "davidson-elo"',
        f'version = "{version}"',
        f"reference_rating = {_num(res.reference, 1)}",
        f"rating_blend = {_num(base.rating_blend)}   # as in the base model (not fitted: the "
        "data give classical ratings only)",
        "",
        "[fit]",
        f'data = "{data_label}"',
        f'method = "{res.method}"',
        f'window = ["{res.window[0]}", "{res.window[1]}"]',
        *(f"games_{c} = {res.n_games[c]}" for c in res.classes),
        f"loglik = {_num(res.loglik, 3)}",
        f"kinds = {'true' if res.kinds else 'false'}",
        f"level = {'true' if res.level else 'false'}",
        f"kinds_min_games = {res.kinds_min_games}",
        *([f"level_band = [{res.level_band[0]:.0f}, {res.level_band[1]:.0f}]   # the middle "
           "95 % of the classical games' mean ratings (simulate says when a field is outside)"]
          if res.level_band else []),
        *([f"prior = {{ {_prior_text(res.prior)} }}   # N(centre, sd^2) on each control's "
           "term (a maximum a posteriori fit; provenance: simcycle/model/fit.py PRIOR, "
           "docs/model.md)"] if res.prior else []),
        "",
        "[offsets]",
        "# One strength offset N(0, sd^2) per player and rating class per simulated event",
        "# (--offsets); the games then use each control's own slope.  sd: the spread of a",
        "# player's performance against expectation from event to event, the games' own chance",
        "# removed (simcycle.model.fit.form_spread).",
        f"default = {'true' if offsets_default else 'false'}   # what simulate and swing do "
        "without --offsets/--no-offsets (the shipped models' choice: docs/model.md)",
    ]
    lines += _offset_lines(res, spreads, base)
    lines += ["", "[hot]", "# as in the base model (not fitted)"]
    lines += [f"k_{c} = {_num(base.hot_k[c], 1)}" for c in RATING_CLASSES]
    lines += ["", "[kinds]",
              f"# kappa per event kind: the draw odds nu are multiplied by exp(kappa);"
              f" {REFERENCE_KIND} is the",
              "# reference (0).  One kappa per kind for every control of the event (the data"
              " have no",
              "# Candidates or knock-out games of known speed control to tell them apart)."]
    lines += _kind_lines(res)
    lines += _covariance_lines(res)
    lines += _control_lines(res, base)
    return "\n".join(lines) + "\n"
