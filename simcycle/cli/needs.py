import click

from .options import (at_opt, fix_options, fixed_of, json_opt, load, model_for, model_opt,
                      scenario_arg, seed_opt, show)


@click.command()
@scenario_arg
@at_opt
@click.option("--sims", default=16_384, show_default=True, type=click.IntRange(2048, 10**8),
              help="Simulations per branch where the odds are not exact (whole chunks of 512).")
@click.option("--exact/--no-exact", "exact", default=None,
              help="Exact odds inside each branch (round robins with at most 8 games left; "
                   "the default there) or simulated ones.")
@seed_opt
@model_opt
@fix_options
@json_opt
def needs(scenario, at, sims, exact, seed, model_file, fixes, fix_file, as_json):
    """What each player needs from the next round: branches with their odds."""
    import msgspec

    from ..commentary.branches import needs as run, render

    fmt, scn, at = load(scenario, at)
    model = model_for(scn, model_file)
    fixed = fixed_of(fmt, scn, at, fixes, fix_file)
    d = run(fmt, scn, model, at, fixed=fixed, sims=sims, seed=seed, exact=exact)
    if fixed:
        d.assumed = fmt.describe_fix(scn, fixed)
    show(msgspec.to_builtins(d), as_json, render)
