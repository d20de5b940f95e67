import click

from .options import commentary_inputs, commentary_options, plot_opt, show, with_assumed


@click.command()
@commentary_options
@plot_opt
def scores(scenario, at, model_file, fixes, fix_file, as_json, plot):
    """What score is enough: P(1st) by final score, split into outright / tiebreak /
    play-off / lots (round robins with at most 10 games left, exact)."""
    import msgspec

    from ..commentary.scores import chart, render, scores as run

    fmt, scn, at, model, fixed = commentary_inputs(scenario, at, model_file, fixes, fix_file)
    d = with_assumed(msgspec.to_builtins(run(fmt, scn, model, at, fixed=fixed)), fmt, scn, fixed)
    show(d, as_json, render)
    if plot:
        chart(d, plot)
