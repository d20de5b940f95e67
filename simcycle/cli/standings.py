import click

from .options import at_opt, json_opt, load, scenario_arg, show


@click.command()
@scenario_arg
@at_opt
@json_opt
def standings(scenario, at, as_json):
    """The standings from the results played (up to --at), with tiebreak columns."""
    fmt, scn, at = load(scenario, at)
    show(fmt.standings(scn, at), as_json, fmt.render_standings)
