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


scenario_arg = click.argument("scenario", type=click.Path(dir_okay=False))
at_opt = click.option("--at", "at", metavar="CHECKPOINT", default=None,
                      help="Count only the results up to this checkpoint (e.g. start, round9, "
                           "event2-sf); `simcycle checkpoints` lists them.")
json_opt = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
model_opt = click.option("--model", "model_file", type=click.Path(dir_okay=False), default=None,
                         help="Outcome-model TOML file (default: the scenario's, else the "
                              "shipped default model).")
seed_opt = click.option("--seed", default=1, show_default=True, type=click.IntRange(0, 2**63 - 1),
                        help="Random seed; results depend only on --seed and --sims.")
offsets_opt = click.option("--offsets/--no-offsets", default=False, show_default=True,
                           help="Draw a strength offset per player per simulated event "
                                "(rating uncertainty).")


def load(scenario: str, at: str | None):
    """(format, scenario, checkpoint) with the checkpoint checked."""
    from ..scenario import load_scenario
    fmt, scn = load_scenario(scenario)
    return fmt, scn, fmt.check_at(scn, at)


def model_for(scn, model_file: str | None):
    from ..model import load_model
    return load_model(model_file or scn.model_file)


def emit_json(obj) -> None:
    try:
        text = json.dumps(obj, indent=2, ensure_ascii=False, allow_nan=False)
    except ValueError:   # a non-finite number: a bug, never printed as NaN
        raise ScenarioError("internal error: a non-finite number in the output") from None
    click.echo(text)


def show(d: dict, as_json: bool, render) -> None:
    if as_json:
        emit_json(d)
    else:
        click.echo(render(d))


def check_plot_path(ctx, param, value):
    """--plot FILE: a .png or .svg file name (checked before anything runs)."""
    if value is None:
        return None
    from pathlib import Path
    if Path(value).suffix.lower() not in (".png", ".svg"):
        raise click.BadParameter(f"{value!r}: the chart is written as PNG or SVG; name the "
                                 "file *.png or *.svg", ctx=ctx, param=param)
    return value


plot_opt = click.option("--plot", "plot", type=click.Path(dir_okay=False), default=None,
                        metavar="FILE.png|FILE.svg", callback=check_plot_path,
                        help="Also draw the chart into this file (PNG or SVG, by extension).")
