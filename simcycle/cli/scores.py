import click

from .options import (at_opt, fix_options, fixed_of, json_opt, load, model_for, model_opt,
                      plot_opt, scenario_arg, show)


@click.command()
@scenario_arg
@at_opt
@model_opt
@fix_options
@json_opt
@plot_opt
def scores(scenario, at, model_file, fixes, fix_file, as_json, plot):
    """What score is enough: P(1st) by final score, split into outright / tiebreak /
    play-off / lots (round robins with at most 10 games left, exact)."""
    import msgspec

    from ..commentary.scores import chart, render, scores as run

    fmt, scn, at = load(scenario, at)
    model = model_for(scn, model_file)
    fixed = fixed_of(fmt, scn, at, fixes, fix_file)
    d = msgspec.to_builtins(run(fmt, scn, model, at, fixed=fixed))
    if fixed:
        d["assumed"] = fmt.describe_fix(scn, fixed)
    show(d, as_json, render)
    if plot:
        chart(d, plot)
