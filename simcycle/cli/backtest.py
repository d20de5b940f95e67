import click

from .fit import games_arg
from .options import json_opt, plot_opt, show


@click.command()
@games_arg
@click.option("--model", "model_files", multiple=True, type=click.Path(dir_okay=False),
              help="A fixed model file to score as it is (repeatable; default: "
                   "models/davidson-elo-v1.toml).")
@click.option("--scheme", type=click.Choice(["time-ordered", "leave-one-event-out"]),
              default="time-ordered", show_default=True,
              help="time-ordered: each event scored by fits on the games before its month; "
                   "leave-one-event-out: by fits on every other event (later ones too).")
@click.option("--variants/--no-variants", default=None,
              help="Also refit the variants of docs/model.md: without kind terms, without the "
                   "level term, without the prior (v3), ... (default: leave-one-event-out "
                   "refits the first two, time-ordered none).")
@click.option("--events/--no-events", default=True, show_default=True,
              help="Also simulate the complete round robins: P(first) and P(top 3) at the "
                   "start and at a quarter, half and three quarters of the rounds.")
@click.option("--candidate", "candidates", multiple=True, metavar="NAME",
              help="A candidate fix scored at the event level too (repeatable): shrink-L "
                   "(ratings pulled toward the field's mean by L), widen-L (pushed away from "
                   "it), spread-SD (offsets with a classical spread of SD Elo), param-draw (each "
                   "simulated event draws the fit's parameters from their covariance); fitted on "
                   "the earlier events: shrink-fitted, event-slope, hot (docs/model.md).")
@click.option("--sims", default=20_000, show_default=True, type=click.IntRange(1000, 10**7),
              help="Simulations per event and checkpoint.")
@click.option("--seed", default=1, show_default=True, type=click.IntRange(0, 2**63 - 1),
              help="Random seed of the event simulations.")
@plot_opt
@json_opt
def backtest(games_csv, model_files, scheme, variants, events, candidates, sims, seed, plot,
             as_json):
    """Score outcome models on real games out of sample: by default each event with a fit on
    the games before it (time-ordered)."""
    from ..model.backtest import FIT_VARIANTS, render, run_backtest
    from ..model.gamedata import read_games

    chosen = None if variants is None else (tuple(FIT_VARIANTS) if variants else ("fit",))
    d = run_backtest(read_games(games_csv), list(model_files), events=events, sims=sims,
                     seed=seed, scheme=scheme, variants=chosen, candidates=tuple(candidates))
    if plot and "per_event" in d:     # P(first) reliability (model.backtest.reliability_chart)
        from ..model.backtest import reliability_chart
        reliability_chart(d["per_event"], plot)
    show(d, as_json, render)
