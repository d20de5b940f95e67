import click

from .options import at_opt, json_opt, load, model_for, model_opt, scenario_arg, show


@click.command()
@scenario_arg
@at_opt
@json_opt
@model_opt
def odds(scenario, at, as_json, model_file):
    """The games (or matches) still to play with their probabilities."""
    fmt, scn, at = load(scenario, at)
    show(fmt.odds(scn, model_for(scn, model_file), at), as_json, fmt.render_odds)
