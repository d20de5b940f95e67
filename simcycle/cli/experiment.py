import click

from ..errors import ClusterError, Interrupted
from .options import check_work, json_opt, model_opt, show, yes_opt


@click.command()
@click.argument("experiment_file", type=click.Path(dir_okay=False))
@click.option("--sims", type=click.IntRange(1, 10**10), default=None,
              help="Simulations per variant (default: the file's experiment.sims).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None,
              help="Random seed (default: the file's experiment.seed); every variant uses it.")
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
              help="Run the variants on a Dask cluster (scheduler address), or 'local' (one "
                   "in-process worker: checks the cluster path without a cluster).")
@model_opt
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when stderr is a terminal).")
@json_opt
@yes_opt
def experiment(experiment_file, sims, seed, dask_address, model_file, progress, as_json,
               yes):
    """Format-design experiments: variants of a scenario side by side (fairness, play-offs,
    lots, each player's chances)."""
    from .. import experiment as ex
    exp = ex.load_experiment(experiment_file, model_file)
    n = len(exp["runs"])
    check_work((sims or exp["sims"]) * n, yes, f"{sims or exp['sims']:,} simulations for "
               f"each of {n} variants")
    d = ex.run_experiment(exp, sims=sims, seed=seed, dask=dask_address,
                          progress=progress is not False)
    if d["variants"] or not d["incomplete"]:
        show(d, as_json, ex.render)
    if d["incomplete"]:
        if d["incomplete"].startswith("interrupted"):
            raise Interrupted(d["incomplete"] + ("; the figures above cover those"
                                                 if d["variants"] else ""))
        raise ClusterError(d["incomplete"] + ("; the figures above cover the others"
                                              if d["variants"] else ""))
