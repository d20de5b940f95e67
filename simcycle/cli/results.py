import click

from ..errors import ScenarioError
from ..formats.base import RESULTS
from .options import json_opt, scenario_arg, show


@click.command()
@scenario_arg
@click.option("--pgn", "pgn", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="A PGN file of the event's games (a broadcast's download).")
@click.option("--trf", "trf", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="A FIDE TRF-16 file of the event (round robins with pairings; Swiss events: "
                   "byes, forfeits, XXR and XXC too).")
@click.option("--write", is_flag=True,
              help="Put the new results into the scenario file's [[rounds]] (in place; "
                   "comments and layout kept; a Swiss: the new rounds appended).")
@json_opt
def results(scenario, pgn, trf, write, as_json):
    """What a PGN or TRF file of the event adds to the scenario: every game matched by
    player (name, alias or FIDE id), round and colours against the schedule (a Swiss: against
    the rounds the scenario has, the later ones new); unfinished games (*) skipped; any
    mismatch refused in one line naming the game (a TRF: its line and column)."""
    from ..scenario import load_scenario

    if (pgn is None) == (trf is None):
        raise ScenarioError("give one of --pgn FILE and --trf FILE", key="--pgn")
    fmt, scn = load_scenario(scenario)
    fmt.require(RESULTS, scn)
    d = fmt.read_results(scn.file, "pgn" if pgn else "trf", pgn or trf, write=write)
    show(d, as_json, fmt.render_results)
