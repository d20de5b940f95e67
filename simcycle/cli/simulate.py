import click

from ..errors import Interrupted, ScenarioError
from .options import (FiniteRange, at_opt, check_work, emit_json, fix_options, fixed_of, json_opt,
                      load, model_for, model_opt, offsets_opt, plot_opt, scenario_arg, seed_opt,
                      show, yes_opt)


@click.command()
@scenario_arg
@at_opt
@click.option("--sims", default=100_000, show_default=True, type=click.IntRange(1, 10**10),
              help="Number of simulated completions (the minimum, with --target-se).")
@seed_opt
@model_opt
@click.option("--target-se", type=FiniteRange(min=1e-6, max=0.5), default=None,
              help="Keep simulating until every reported probability's standard error is "
                   "below this.")
@offsets_opt
@click.option("--hot-elo", "hot", is_flag=True,
              help="Update ratings after each simulated game (K from the model file); an "
                   "alternative to --offsets.")
@click.option("--param-draw", is_flag=True,
              help="Round robins: each simulated event draws the model's parameters from the "
                   "fit's covariance (parameter uncertainty; off by default, docs/model.md).")
@json_opt
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV instead of a table.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when stderr is a terminal).")
@fix_options
@click.option("--exact", is_flag=True,
              help="Round robins with at most 10 games left: enumerate every outcome instead "
                   "of simulating (exact probabilities, play-offs included).")
@plot_opt
@yes_opt
def simulate(scenario, at, sims, seed, model_file, target_se, offsets, hot, param_draw, as_json,
             as_csv, progress, fixes, fix_file, exact, plot, yes):
    """Simulate the rest of the event or series from --at: place, qualifying and prize odds."""
    from .. import report

    if as_json and as_csv:
        raise ScenarioError("choose one of --json and --csv", key="--csv")
    from ..api.run import simulation
    if not exact:
        check_work(sims, yes, "")
    fmt, scn, at = load(scenario, at)
    model = model_for(scn, model_file)
    fixed = fixed_of(fmt, scn, at, fixes, fix_file)
    d, res = simulation(fmt, scn, model, at=at, sims=sims, seed=seed, fixed=fixed,
                        offsets=offsets, hot=hot, target_se=target_se, exact=exact,
                        progress=progress, partial=True,   # partial: shown, labelled
                        param_draw=param_draw)
    if plot:   # the place distribution of every player (charts.place_chart)
        from ..report import charts
        charts.place_chart(d, plot)
    if as_json:
        emit_json(d)
    elif as_csv:
        click.echo(report.simulation_csv(d), nl=False)
    else:
        show(d, False, report.simulation_text)
        note = field_note(fmt, scn, model, at)
        if note:
            click.echo(note)
    if res is not None and res.interrupted:
        raise Interrupted(f"interrupted after {res.sims:,} of {res.requested:,} simulations; "
                          "the figures above cover those")


def field_note(fmt, scn, model, at) -> str | None:
    """The model's one-line note when the field's mean rating lies outside the ratings it was
    fitted on (``OutcomeModel.field_note``; the field's ratings from a compiled plan)."""
    from ..formats.base import CompileOptions

    if not model.fit.get("level_band"):
        return None
    return model.field_note(fmt.compile(scn, model, CompileOptions(at=at)).info.ratings)
