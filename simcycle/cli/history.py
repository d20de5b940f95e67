import click

from ..errors import Interrupted, ScenarioError
from .options import (check_work, emit_json, json_opt, load, model_for, model_opt, offsets_opt,
                      plot_opt, scenario_arg, seed_opt, yes_opt)


@click.command()
@scenario_arg
@click.option("--sims", default=20_000, show_default=True, type=click.IntRange(100, 10**9),
              help="Simulations per checkpoint (20,000 gives standard errors below 0.4 "
                   "points of %; every checkpoint uses the same seed: common random numbers).")
@seed_opt
@model_opt
@offsets_opt
@json_opt
@click.option("--csv", "as_csv", is_flag=True,
              help="Print CSV: one row per checkpoint and player.")
@plot_opt
@click.option("--progress/--no-progress", default=None,
              help="Progress bar over the checkpoints on stderr (default: when stderr is a "
                   "terminal).")
@yes_opt
def history(scenario, sims, seed, model_file, offsets, as_json, as_csv, plot, progress, yes):
    """P(first), P(qualify) and the expected prize of every player at every checkpoint, with
    standard errors (--plot FILE.png|svg draws a line per player)."""
    from ..report import history as hist

    if as_json and as_csv:
        raise ScenarioError("choose one of --json and --csv", key="--csv")
    fmt, scn, _ = load(scenario, None)
    n = len(hist.checkpoints(fmt, scn))
    check_work(sims * n, yes, f"--sims {sims:,} at each of {n} checkpoints")
    model = model_for(scn, model_file)
    d = hist.history(fmt, scn, model, sims=sims, seed=seed, offsets=offsets, progress=progress)
    if not d["checkpoints"]:
        raise KeyboardInterrupt
    if plot:
        from ..report import charts
        charts.history_chart(d, plot)
    if as_json:
        emit_json(d)
    elif as_csv:
        click.echo(hist.history_csv(d), nl=False)
    else:
        click.echo(hist.history_text(d))
    if d["interrupted"]:
        raise Interrupted(f"interrupted after {len(d['checkpoints'])} of "
                          f"{d['checkpoints_requested']} checkpoints; the figures above cover "
                          "those")
