import sys
import time

import click


@click.command("warm-up")
@click.argument("format_name", required=False, metavar="[FORMAT]")
@click.option("--progress/--no-progress", default=None,
              help="Progress line on stderr (default: when stderr is a terminal).")
def warm_up(format_name, progress):
    """Compile every kernel now (or those of one FORMAT: round-robin, knockout-series,
    group-series, tour), so that later commands start at once.

    Run it once after installing or upgrading simcycle: numba keeps what it compiles in its
    on-disk cache, next to the installed files (or in NUMBA_CACHE_DIR).  A second run only
    loads the cache."""
    from .. import warmup
    from ..kernels import config  # noqa: F401  (numba set up as every command has it)

    show = sys.stderr.isatty() if progress is None else progress
    t0 = time.process_time()

    def step(k, n, job):
        if show:
            click.echo(f"\rwarm-up {k + 1}/{n}: {job.label}"[:78].ljust(78), err=True, nl=False)

    done = warmup.warm_up(format_name, step)
    if show:
        click.echo("\r" + " " * 78 + "\r", err=True, nl=False)
    formats = list(dict.fromkeys(j.format for j in done))
    click.echo(f"warm-up: kernels of {', '.join(formats) or 'no format'} ready ({len(done)} "
               f"plans compiled or loaded from the cache, {time.process_time() - t0:.1f} s of "
               "CPU)")
