import click

from .options import commentary_inputs, commentary_options, plot_opt, seed_opt, show, with_assumed


@click.command()
@commentary_options
@click.option("--sims", default=None, type=click.IntRange(2048, 10**8),
              help="Simulations where the table is not exact (whole chunks of 512; default "
                   "65,536, a Swiss 16,384).")
@click.option("--exact/--no-exact", "exact", default=None,
              help="Exact (round robins with at most 10 games left; the default there) or "
                   "simulated.")
@seed_opt
@plot_opt
def scores(scenario, at, model_file, fixes, fix_file, as_json, sims, exact, seed, plot):
    """What score is enough: P(1st) by final score, split into outright / tiebreak /
    play-off / lots (round robins: exact with at most 10 games left, else simulated)."""
    import msgspec

    from ..commentary.scores import chart, render, scores as run

    fmt, scn, at, model, fixed = commentary_inputs(scenario, at, model_file, fixes, fix_file)
    d = with_assumed(msgspec.to_builtins(run(fmt, scn, model, at, fixed=fixed, exact=exact,
                                             sims=sims, seed=seed)), fmt, scn, fixed)
    show(d, as_json, render)
    if plot:
        chart(d, plot)
