import click

from ..formats.base import SWING, SWING_TARGET_SE
from .options import (at_opt, check_work, fix_options, fixed_of, json_opt, load, model_for,
                      model_opt, offsets_opt, scenario_arg, seed_opt, show, with_assumed, yes_opt)


@click.command()
@scenario_arg
@at_opt
@click.option("--round", "round_no", type=click.IntRange(1, 10_000), default=None,
              help="The round to examine (default: the next round still to play).")
@click.option("--sims", default=100_000, show_default=True, type=click.IntRange(1000, 10**9),
              help="Simulations per result of each game at most (whole chunks of 512).")
@click.option("--target-se", type=click.FloatRange(0.0, 0.5, min_open=True),
              default=SWING_TARGET_SE, show_default=True,
              help="Stop a game's runs once every swing's standard error (paired runs) is "
                   "below this (a probability: 0.005 is half a percentage point).")
@click.option("--all-sims", "all_sims", is_flag=True,
              help="Run all --sims per result (no early stop).")
@seed_opt
@model_opt
@offsets_opt
@fix_options
@json_opt
@yes_opt
def swing(scenario, at, round_no, sims, target_se, all_sims, seed, model_file, offsets, fixes,
          fix_file, as_json, yes):
    """What each game of the next round swings: P(1st) and P(qualify) for every result."""
    check_work(3 * sims, yes, f"--sims {sims:,} for each result (three at least)")
    fmt, scn, at = load(scenario, at)
    fmt.require(SWING, scn)
    model = model_for(scn, model_file)
    fixed = fixed_of(fmt, scn, at, fixes, fix_file)
    d = fmt.swing(scn, model, at, sims=sims, seed=seed, round_no=round_no,
                  target_se=None if all_sims else target_se,
                  offsets=model.offsets_default if offsets is None else offsets,
                  **({"fixed": fixed} if fixed else {}))
    show(with_assumed(d, fmt, scn, fixed), as_json, fmt.render_swing)
