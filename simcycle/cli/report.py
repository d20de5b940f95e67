from pathlib import Path

import click

from ..errors import ScenarioError
from .options import (at_opt, check_work, fix_options, fixed_of, load, model_for, model_opt,
                      scenario_arg, seed_opt, yes_opt)


@click.command()
@scenario_arg
@at_opt
@click.option("-o", "--output", "output", required=True, type=click.Path(dir_okay=False),
              metavar="FILE.html", help="The page to write (one self-contained HTML file).")
@click.option("--sims", default=20_000, show_default=True, type=click.IntRange(1000, 10**9),
              help="Simulations for the odds, and per checkpoint for the history chart.")
@click.option("--swing-sims", default=10_000, show_default=True,
              type=click.IntRange(1000, 10**9), help="Simulations per result for the swing.")
@seed_opt
@model_opt
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when stderr is a terminal).")
@fix_options
@yes_opt
def report(scenario, at, output, sims, swing_sims, seed, model_file, progress, fixes, fix_file,
           yes):
    """One self-contained HTML page (no network needed to view it): standings, odds, the
    games still to play, the history chart, the next round's swing, who can still win or
    qualify with a path in words, and the model and number of simulations used."""
    from ..io.write import atomic_write, real_target
    from ..report import html

    if Path(output).suffix.lower() not in (".html", ".htm"):
        raise ScenarioError("the report is an HTML page: name the file *.html", key="-o",
                            value=output)
    real_target(output, "report")      # a page that could not be written: said before any work
    fmt, scn, at = load(scenario, at)
    from ..report.history import checkpoints
    n = len(checkpoints(fmt, scn))
    check_work(sims * (1 + n) + 3 * swing_sims, yes,
               f"--sims {sims:,} for the odds and each of {n} checkpoints")
    model = model_for(scn, model_file)
    fixed = fixed_of(fmt, scn, at, fixes, fix_file)
    ctx = html.collect(fmt, scn, model, at, sims=sims, seed=seed, swing_sims=swing_sims,
                       progress=progress, fixed=fixed)
    text = html.page(ctx)
    atomic_write(output, text, what="report")
    click.echo(f"wrote {output} ({len(text) // 1024:,} KiB): {scn.name} at {at or 'latest'}, "
               f"{sims:,} simulations, seed {seed}")
