import click

from ..formats.base import WHOCAN
from .options import (FiniteRange, at_opt, fix_options, fixed_of, json_opt, load, scenario_arg,
                      show, with_assumed)


@click.command()
@scenario_arg
@at_opt
@json_opt
@click.option("--budget", type=FiniteRange(0.1, 3600), default=None, metavar="SECONDS",
              help="Time budget for the exact search (default: the format's).")
@fix_options
def whocan(scenario, at, as_json, budget, fixes, fix_file):
    """Who can still finish first or qualify: clinched / alive / eliminated, exactly, with a
    path."""
    fmt, scn, at = load(scenario, at)
    fmt.require(WHOCAN, scn)
    fixed = fixed_of(fmt, scn, at, fixes, fix_file)
    d = fmt.whocan(scn, at, budget, **({"fixed": fixed} if fixed else {}))
    show(with_assumed(d, fmt, scn, fixed), as_json, fmt.render_whocan)
