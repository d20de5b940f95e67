"""Options shared by the commands, and the steps every command starts with."""

from __future__ import annotations

import json

import click

from ..errors import ScenarioError


class FiniteRange(click.FloatRange):
    """A float range that also refuses nan and inf (click's ranges let nan through)."""

    name = "finite float range"

    def convert(self, value, param, ctx):
        x = super().convert(value, param, ctx)
        if x != x or x in (float("inf"), float("-inf")):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return x


def _complete_scenario(ctx, param, incomplete: str):
    """Shell completion of SCENARIO: the shipped scenarios' names, then files and folders."""
    from click.shell_completion import CompletionItem

    from ..resources import scenario_names
    names = [CompletionItem(n) for n in scenario_names() if n.startswith(incomplete)]
    return names + [CompletionItem(incomplete, type="file")]


def _scenario_on_line() -> str | None:
    """The scenario named on the line being completed (click leaves ``ctx.params`` empty while
    ``--at`` waits for its value): the first word after the command that is not an option."""
    import os

    from click.parser import split_arg_string

    words = split_arg_string(os.environ.get("COMP_WORDS", ""))
    return next((w for w in words[2:] if not w.startswith("-")), None)


def _complete_checkpoint(ctx, param, incomplete: str):
    """Shell completion of --at: the checkpoints of the scenario already on the line (nothing
    when it does not load)."""
    from click.shell_completion import CompletionItem

    path = ctx.params.get("scenario") or _scenario_on_line()
    if not path:
        return []
    try:
        from ..scenario import load_scenario
        fmt, scn = load_scenario(path)
        return [CompletionItem(c) for c in fmt.checkpoints(scn) if c.startswith(incomplete)]
    except (ScenarioError, OSError):
        return []


scenario_arg = click.argument("scenario", type=click.Path(dir_okay=False),
                              shell_complete=_complete_scenario)
at_opt = click.option("--at", "at", metavar="CHECKPOINT", default=None,
                      shell_complete=_complete_checkpoint,
                      help="Count only the results up to this checkpoint (e.g. start, round9, "
                           "event2-sf); `simcycle checkpoints` lists them.")
json_opt = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
model_opt = click.option("--model", "model_file", type=click.Path(dir_okay=False), default=None,
                         help="Outcome-model TOML file (default: the scenario's, else the "
                              "shipped default model, davidson-elo-v4).")
seed_opt = click.option("--seed", default=1, show_default=True, type=click.IntRange(0, 2**63 - 1),
                        help="Random seed; results depend only on --seed and --sims.")
offsets_opt = click.option("--offsets/--no-offsets", default=None,
                           help="Draw a strength offset per player per simulated event "
                                "(rating uncertainty); default: the model file's [offsets] "
                                "default.")


def fix_options(f):
    """--fix (repeatable) and --fix-file: what-if results for games or matches to play."""
    f = click.option("--fix-file", "fix_file", type=click.Path(dir_okay=False), default=None,
                     help="A file of what-ifs, one per line like --fix (# starts a comment).")(f)
    return click.option("--fix", "fixes", multiple=True, metavar="WHAT-IF",
                        help='Assume a result for a game or match still to play '
                             '(repeatable; names or surnames): round robins "r14 '
                             'Nepomniachtchi-Ding 1-0" (1-0, 0-1, 1/2-1/2); knock-out series '
                             '"Jerusalem: Nepomniachtchi beats Wei 1.5-0.5" (the classical '
                             'score, or "on tiebreaks").')(f)


def commentary_options(f):
    """The options ``needs`` and ``scores`` share: SCENARIO, --at, --model, --fix, --fix-file,
    --json (each command adds its own)."""
    for opt in (json_opt, fix_options, model_opt, at_opt, scenario_arg):
        f = opt(f)
    return f


def commentary_inputs(scenario, at, model_file, fixes, fix_file):
    """(format, scenario, checkpoint, model, what-ifs) of ``commentary_options``."""
    fmt, scn, at = load(scenario, at)
    model = model_for(scn, model_file)
    return fmt, scn, at, model, fixed_of(fmt, scn, at, fixes, fix_file)


def fixed_of(fmt, scn, at, fixes, fix_file) -> dict:
    """The what-ifs of --fix and --fix-file as the format's ``CompileOptions.fixed``."""
    from ..formats.base import FIX

    items = [("--fix", t) for t in fixes]
    if fix_file:
        from ..files import read_text
        for n, line in enumerate(read_text(fix_file, "what-if file").splitlines(), 1):
            text = line.split("#", 1)[0].strip()
            if text:
                items.append((f"{fix_file}: line {n}", text))
    if not items:
        return {}
    fmt.require(FIX, scn)
    fixed: dict = {}
    for key, text in items:
        for k, v in fmt.parse_fix(scn, text, at, key, fixed).items():
            if fixed.get(k, v) != v:
                raise ScenarioError("contradicts an earlier what-if for the same game", key=key,
                                    value=text)
            fixed[k] = v
    return fixed


def load(scenario: str, at: str | None):
    """(format, scenario, checkpoint) with the checkpoint checked."""
    from ..scenario import load_scenario
    fmt, scn = load_scenario(scenario)
    return fmt, scn, fmt.check_at(scn, at)


def model_for(scn, model_file: str | None):
    """The model file (--model, the scenario's, or the default) for the scenario's event
    kind (every game it plays, play-offs included, sees the kind's draw term)."""
    from ..model import load_model
    model = load_model(model_file or scn.model_file).for_kind(scn.kind)
    warn_degenerate(model, scn)
    return model


DEGENERATE = 0.999   # an outcome this likely in every game: the odds are all but decided


def warn_degenerate(model, scn) -> None:
    """One warning line when the model's classical game probabilities are degenerate on the
    scenario's players: some outcome has a probability of 99.9 % or more between the
    strongest and the weakest player (either colour) or between equals."""
    from ..files import read_toml
    if "classical" not in {c.name for c in model.controls}:
        return
    try:
        players = read_toml(scn.file, "scenario file").get("players", [])
        ratings = [float(p["rating"]) for p in players]
    except (ScenarioError, KeyError, TypeError, ValueError):
        return
    if not ratings:
        return
    hi, lo = max(ratings), min(ratings)
    mid = (hi + lo) / 2
    pairs = {"between equals": (mid, mid), "strongest White v weakest Black": (hi, lo),
             "weakest White v strongest Black": (lo, hi)}
    for where, (w, b) in pairs.items():
        probs = model.wdl("classical", w, b)
        k = max(range(3), key=lambda i: probs[i])
        if probs[k] >= DEGENERATE:
            what = ("a White win", "a draw", "a Black win")[k]
            click.echo(f"simcycle: warning: the model {model.name} {model.version} "
                       f"({model.path}) gives {what} a probability of {100 * probs[k]:.2f} % "
                       f"in a classical game {where} on this scenario (99.9 % or more: its "
                       "odds are all but certain)", err=True)
            return


def emit_json(obj) -> None:
    try:
        text = json.dumps(obj, indent=2, ensure_ascii=False, allow_nan=False)
    except ValueError:   # a non-finite number: a bug, never printed as NaN
        raise ScenarioError("internal error: a non-finite number in the output") from None
    click.echo(text)


def with_assumed(d: dict, fmt, scn, fixed: dict) -> dict:
    """``d`` with the what-ifs it assumed (``"assumed"``: one line each), when there are any."""
    if fixed:
        d["assumed"] = fmt.describe_fix(scn, fixed)
    return d


def assumed_lines(d: dict) -> list[str]:
    """The text lines that say which what-ifs an output assumed."""
    return [f"assuming {x}" for x in d.get("assumed", ())]


def show(d: dict, as_json: bool, render) -> None:
    """Print ``d`` as JSON or as the format's text; the what-ifs assumed come right after the
    text's first line."""
    if as_json:
        emit_json(d)
    else:
        head, _, rest = render(d).partition("\n")
        click.echo("\n".join([head, *assumed_lines(d), rest]) if d.get("assumed")
                   else head + ("\n" + rest if rest else ""))


def check_plot_path(ctx, param, value):
    """--plot FILE: a .png or .svg file name (checked before anything runs)."""
    if value is None:
        return None
    from pathlib import Path
    if Path(value).suffix.lower() not in (".png", ".svg"):
        raise click.BadParameter(f"{value!r}: the chart is written as PNG or SVG; name the "
                                 "file *.png or *.svg", ctx=ctx, param=param)
    from ..io.write import real_target
    real_target(value, "chart")     # a chart that could not be written: said before any work
    return value


plot_opt = click.option("--plot", "plot", type=click.Path(dir_okay=False), default=None,
                        metavar="FILE.png|FILE.svg", callback=check_plot_path,
                        help="Also draw the chart into this file (PNG or SVG, by extension).")


# ---- work that would run for hours ---------------------------------------------------------
MAX_SIMS_WITHOUT_YES = 500_000_000   # simulations in all, over every run of one command

yes_opt = click.option("--yes", "yes", is_flag=True,
                       help=f"Run even more than {MAX_SIMS_WITHOUT_YES:,} simulations in all "
                            "(hours of work); refused without it.")


def check_work(total: int, yes: bool, how: str) -> None:
    """Refuse, before any long work, a command that would run more than
    :data:`MAX_SIMS_WITHOUT_YES` simulations in all unless --yes was given (a count, never a
    clock: the same command is refused or run on every machine)."""
    if total > MAX_SIMS_WITHOUT_YES and not yes:
        raise ScenarioError(f"{how + ': ' if how else ''}{total:,} simulations in all would "
                            "run for hours; the "
                            f"limit without --yes is {MAX_SIMS_WITHOUT_YES:,} (add --yes to "
                            "run them)", key="--sims")
