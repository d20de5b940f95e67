import click

from .fit import games_arg
from .options import json_opt, show


@click.command()
@games_arg
@click.option("--model", "model_files", multiple=True, type=click.Path(dir_okay=False),
              help="A fixed model file to score as it is (repeatable; default: "
                   "models/davidson-elo-v1.toml).")
@click.option("--events/--no-events", default=True, show_default=True,
              help="Also simulate the complete round robins: P(winner) at the start and "
                   "after every round.")
@click.option("--sims", default=20_000, show_default=True, type=click.IntRange(1000, 10**7),
              help="Simulations per event and checkpoint.")
@click.option("--seed", default=1, show_default=True, type=click.IntRange(0, 2**63 - 1),
              help="Random seed of the event simulations.")
@json_opt
def backtest(games_csv, model_files, events, sims, seed, as_json):
    """Score outcome models on real games, leaving each event out of the fit that scores it."""
    from ..model.backtest import render, run_backtest
    from ..model.gamedata import read_games

    d = run_backtest(read_games(games_csv), list(model_files), events=events, sims=sims,
                     seed=seed)
    show(d, as_json, render)
