import click

from .options import (at_opt, fix_options, fixed_of, json_opt, load, model_for, model_opt,
                      plot_opt, scenario_arg, seed_opt, show)


@click.command()
@scenario_arg
@at_opt
@click.option("--sims", default=65_536, show_default=True, type=click.IntRange(2048, 10**8),
              help="Simulations where the table is not exact (whole chunks of 512).")
@click.option("--exact/--no-exact", "exact", default=None,
              help="Exact (round robins with at most 10 games left; the default there) or "
                   "simulated.")
@seed_opt
@model_opt
@fix_options
@json_opt
@plot_opt
def scores(scenario, at, sims, exact, seed, model_file, fixes, fix_file, as_json, plot):
    """What score is enough: P(1st) by final score, split into outright / tiebreak /
    play-off / lots (round robins: exact with at most 10 games left, else simulated)."""
    import msgspec

    from ..commentary.scores import chart, render, scores as run

    fmt, scn, at = load(scenario, at)
    model = model_for(scn, model_file)
    fixed = fixed_of(fmt, scn, at, fixes, fix_file)
    d = msgspec.to_builtins(run(fmt, scn, model, at, fixed=fixed, exact=exact, sims=sims,
                                seed=seed))
    if fixed:
        d["assumed"] = fmt.describe_fix(scn, fixed)
    show(d, as_json, render)
    if plot:
        chart(d, plot)
