import click

from ..errors import ScenarioError
from .options import json_opt, show


@click.command()
@click.argument("experiment_file", type=click.Path(dir_okay=False))
@click.option("--sims", type=click.IntRange(1, 10**10), default=None,
              help="Simulations per variant (default: the file's experiment.sims).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None)
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
              help="Run the variants on a Dask cluster (scheduler address, or 'local').")
@json_opt
def experiment(experiment_file, sims, seed, dask_address, as_json):
    """Format-design experiments: variants of a scenario side by side (fairness, play-offs,
    lots)."""
    from .. import experiment as ex
    exp = ex.load_experiment(experiment_file)
    if dask_address:
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise ScenarioError("--dask needs the dask extra: pip install 'simcycle[dask]'",
                                key="--dask") from None
    show(ex.run_experiment(exp, sims=sims, seed=seed, dask=dask_address), as_json, ex.render)
