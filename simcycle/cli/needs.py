import click

from .options import commentary_inputs, commentary_options, seed_opt, show, with_assumed


@click.command()
@commentary_options
@click.option("--sims", default=16_384, show_default=True, type=click.IntRange(2048, 10**8),
              help="Simulations per branch where the odds are not exact (whole chunks of 512).")
@click.option("--exact/--no-exact", "exact", default=None,
              help="Exact odds inside each branch (round robins with at most 8 games left; "
                   "the default there) or simulated ones.")
@seed_opt
def needs(scenario, at, model_file, fixes, fix_file, as_json, sims, exact, seed):
    """What each player needs from the next round: branches with their odds."""
    import msgspec

    from ..commentary.branches import needs as run, render

    fmt, scn, at, model, fixed = commentary_inputs(scenario, at, model_file, fixes, fix_file)
    d = run(fmt, scn, model, at, fixed=fixed, sims=sims, seed=seed, exact=exact)
    show(with_assumed(msgspec.to_builtins(d), fmt, scn, fixed), as_json, render)
