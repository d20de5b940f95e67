import click

from ..formats.base import WHOCAN
from .options import (at_opt, fix_options, fixed_of, json_opt, load, scenario_arg,
                      show, with_assumed)


@click.command()
@scenario_arg
@at_opt
@json_opt
@click.option("--budget", type=click.IntRange(0, 10**7), default=None, metavar="NODES",
              help="Work budget for the exact search, in solver nodes (default: the "
                   "format's); counted in work, not time, so answers never depend on load.")
@fix_options
def whocan(scenario, at, as_json, budget, fixes, fix_file):
    """Who can still finish first or qualify: clinched / alive / eliminated, exactly, with a
    path."""
    fmt, scn, at = load(scenario, at)
    fmt.require(WHOCAN, scn)
    fixed = fixed_of(fmt, scn, at, fixes, fix_file)
    d = fmt.whocan(scn, at, budget, **({"fixed": fixed} if fixed else {}))
    # the renderer looked up only when text is printed: reading ``fmt.render_whocan``
    # imports the format's render module (and the tables it draws with)
    show(with_assumed(d, fmt, scn, fixed), as_json, lambda d: fmt.render_whocan(d))
