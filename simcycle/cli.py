"""The ``simcycle`` command line.  Thin: heavy imports (numpy, numba) happen inside commands,
so ``simcycle --help`` stays instant."""

from __future__ import annotations

import sys

import click

from . import __version__
from .errors import ScenarioError

EXIT_BAD_INPUT = 2


class _Group(click.Group):
    """Turns ScenarioError into one clear line and exit status 2."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except ScenarioError as e:
            click.echo(f"simcycle: error: {e}", err=True)
            ctx.exit(EXIT_BAD_INPUT)
        except KeyboardInterrupt:  # before a run started: nothing finished to report
            click.echo("simcycle: interrupted", err=True)
            ctx.exit(130)


scenario_arg = click.argument("scenario", type=click.Path(dir_okay=False))
at_opt = click.option("--at", "at", metavar="CHECKPOINT", default=None,
                      help="Count only the results up to this checkpoint (e.g. start, round9, event2-sf).")
json_opt = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
model_opt = click.option("--model", "model_file", type=click.Path(dir_okay=False), default=None,
                         help="Outcome-model TOML file (default: models/davidson-elo-v2.toml).")
offsets_opt = click.option("--offsets/--no-offsets", default=None,
                           help="Draw a strength offset per player per simulated event (rating "
                                "uncertainty); default: the model file's [offsets] default.")
games_arg = click.argument("games_csv", required=False, type=click.Path(dir_okay=False))


def _load(scenario, at):
    from .scenario import check_at, load_scenario
    mod, scn = load_scenario(scenario)
    return mod, scn, check_at(mod, scn, at, scenario)


def _model(scn, model_file):
    """The model file (--model, the scenario's, or the default) for the scenario's event kind."""
    from .model import load_model
    return load_model(model_file or getattr(scn, "model_file", None)).for_kind(
        getattr(scn, "kind", None))


def _emit_json(obj):
    import json
    click.echo(json.dumps(obj, indent=2, ensure_ascii=False))


def _show(d, as_json, render):
    if as_json:
        _emit_json(d)
    else:
        click.echo(render(d))


def _require(mod, name, scenario, what):
    """The format module's function ``name``, or a clear refusal."""
    if not hasattr(mod, name):
        raise ScenarioError(f"{what} is not available for this format yet", file=scenario,
                            key="scenario.format")
    return getattr(mod, name)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="simcycle")
def main():
    """Monte Carlo qualification odds for chess cycles: Candidates, Grand Prix, tours.

    \b
    simcycle standings SCENARIO        the table from the games played
    simcycle simulate  SCENARIO        odds of every place, qualifying and prize money
    simcycle odds      SCENARIO        the games still to play, with W/D/L probabilities
    simcycle swing     SCENARIO        what each game of the next round swings
    simcycle whocan    SCENARIO        who can still win or qualify, exactly, with a path
    simcycle experiment FILE           compare format variants (optionally on a Dask cluster)
    simcycle fit [GAMES]               fit the outcome model to real games
    simcycle backtest [GAMES]          score outcome models on games they were not fitted on
    """


@main.command()
@scenario_arg
@at_opt
@json_opt
def standings(scenario, at, as_json):
    """The standings from the results played (up to --at), with tiebreak columns."""
    mod, scn, at = _load(scenario, at)
    _show(mod.standings(scn, at), as_json, mod.render_standings)


@main.command()
@scenario_arg
@at_opt
@json_opt
@model_opt
def odds(scenario, at, as_json, model_file):
    """The games still to play with their win / draw / loss probabilities."""
    mod, scn, at = _load(scenario, at)
    _show(mod.odds(scn, _model(scn, model_file), at), as_json, mod.render_odds)


@main.command()
@scenario_arg
@at_opt
@click.option("--sims", default=100_000, show_default=True, type=click.IntRange(1, 10**10),
              help="Number of simulated completions (the minimum, with --target-se).")
@click.option("--seed", default=1, show_default=True, type=click.IntRange(0, 2**63 - 1),
              help="Random seed; results depend only on --seed and --sims.")
@model_opt
@click.option("--target-se", type=click.FloatRange(min=1e-6, max=0.5), default=None,
              help="Keep simulating until every reported probability's standard error is below this.")
@offsets_opt
@click.option("--hot-elo", "hot", is_flag=True,
              help="Round robins: update ratings after each simulated game (K from the model "
                   "file); an alternative to --offsets.")
@json_opt
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV instead of a table.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when stderr is a terminal).")
@click.option("--exact", is_flag=True,
              help="Round robins with at most 10 games left: enumerate every outcome instead "
                   "of simulating (exact probabilities, play-offs included).")
def simulate(scenario, at, sims, seed, model_file, target_se, offsets, hot, as_json, as_csv,
             progress, exact):
    """Simulate the rest of the event or series from --at: place, qualifying and prize odds."""
    if as_json and as_csv:
        raise ScenarioError("choose one of --json and --csv", key="--csv")
    mod, scn, at = _load(scenario, at)
    model = _model(scn, model_file)
    offsets = model.offsets_default and not (hot or exact) if offsets is None else offsets
    from . import report
    if hot and offsets:
        raise ScenarioError("choose --offsets or --hot-elo, not both", key="--hot-elo")
    if hot and "hot-elo" not in getattr(mod, "FORMAT_FEATURES", ()):
        raise ScenarioError("--hot-elo is not available for this format yet", file=scenario,
                            key="scenario.format")
    if exact:
        if offsets or hot:
            raise ScenarioError("--exact does not model rating uncertainty", key="--exact")
        d = report.exact_json(scn, _require(mod, "exact", scenario, "--exact")(scn, model, at), model)
        res = None
    else:
        from . import driver
        plan = mod.compile(scn, model, at, offsets=offsets, **({"hot": True} if hot else {}))
        res = driver.run(plan, sims, seed, target_se=target_se, progress=progress)
        d = report.simulation_json(scn, plan, res, at, model, offsets)
    if as_json:
        _emit_json(d)
    elif as_csv:
        click.echo(report.simulation_csv(d), nl=False)
    else:
        click.echo(report.simulation_text(d))
    if res is not None and res.interrupted:
        click.echo(f"simcycle: interrupted after {res.sims} simulations; the figures above "
                   "cover those", err=True)
        sys.exit(130)


@main.command()
@scenario_arg
@at_opt
@click.option("--round", "round_no", type=int, default=None,
              help="The round to examine (default: the next round still to play).")
@click.option("--sims", default=100_000, show_default=True, type=click.IntRange(1000, 10**9),
              help="Simulations per result of each game.")
@click.option("--seed", default=1, show_default=True, type=click.IntRange(0, 2**63 - 1))
@model_opt
@offsets_opt
@json_opt
def swing(scenario, at, round_no, sims, seed, model_file, offsets, as_json):
    """What each game of the next round swings: P(1st) and P(qualify) for every result."""
    mod, scn, at = _load(scenario, at)
    fn = _require(mod, "swing", scenario, "swing")
    model = _model(scn, model_file)
    d = fn(scn, model, at, sims=sims, seed=seed,
           offsets=model.offsets_default if offsets is None else offsets, round_no=round_no)
    _show(d, as_json, mod.render_swing)


@main.command()
@scenario_arg
@at_opt
@json_opt
def whocan(scenario, at, as_json):
    """Who can still finish first or qualify: clinched / alive / eliminated, exactly, with a path."""
    mod, scn, at = _load(scenario, at)
    _show(_require(mod, "whocan", scenario, "whocan")(scn, at), as_json, mod.render_whocan)


@main.command()
@click.argument("experiment_file", type=click.Path(dir_okay=False))
@click.option("--sims", type=click.IntRange(1, 10**10), default=None,
              help="Simulations per variant (default: the file's experiment.sims).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None)
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
              help="Run the variants on a Dask cluster (scheduler address, or 'local').")
@json_opt
def experiment(experiment_file, sims, seed, dask_address, as_json):
    """Format-design experiments: variants of a scenario side by side (fairness, play-offs, lots)."""
    from . import experiment as ex
    exp = ex.load_experiment(experiment_file)
    if dask_address:
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise ScenarioError("--dask needs the dask extra: pip install 'simcycle[dask]'",
                                key="--dask") from None
    _show(ex.run_experiment(exp, sims=sims, seed=seed, dask=dask_address), as_json, ex.render)


@main.command("fit")
@games_arg
@click.option("--control", "controls", multiple=True, type=click.Choice(["classical", "rapid"]),
              help="Fit only this control (repeatable; default: classical and rapid).")
@click.option("--kinds/--no-kinds", default=True, show_default=True,
              help="One draw term per event kind (kinds with enough games).")
@click.option("--level/--no-level", default=True, show_default=True,
              help="The rating-level term of the draw odds.")
@click.option("--exclude-event", "exclude", multiple=True, metavar="EVENT",
              help="Leave this event's games out (repeatable).")
@click.option("-o", "--output", "out_file", type=click.Path(dir_okay=False), default=None,
              help="Write the fitted model file here.")
@click.option("--base", "base_file", type=click.Path(dir_okay=False), default=None,
              help="Model whose unfitted controls the output keeps (default: "
                   "models/davidson-elo-v1.toml).")
@click.option("--offsets-default/--no-offsets-default", default=False, show_default=True,
              help="What the written model's [offsets] default says.")
@json_opt
def fit_cmd(games_csv, controls, kinds, level, exclude, out_file, base_file, offsets_default,
            as_json):
    """Fit the Davidson-Elo parameters to games by maximum likelihood (default data:
    data/games/games.csv), with standard errors; -o writes a model file."""
    import time

    from .fit import FIT_CLASSES, fit, fit_report, form_spread, render_fit
    from .gamedata import read_games
    from .model import DEFAULT_MODEL_V1, load_model

    t0 = time.perf_counter()
    games = read_games(games_csv)
    for e in exclude:
        if e not in set(games.event):
            raise ScenarioError("no such event in the game file", file=games.file,
                                key="--exclude-event", value=e)
    games = games.take(games.where(exclude_events=set(exclude)))
    base = load_model(base_file or DEFAULT_MODEL_V1)
    res = fit(games, classes=tuple(controls) or FIT_CLASSES, kinds=kinds, level=level,
              reference=base.reference_rating)
    spreads = {c: form_spread(games, res, c) for c in res.classes}
    d = fit_report(res, spreads, time.perf_counter() - t0)
    if out_file:
        from pathlib import Path

        from .modelfile import render_model
        words = ["simcycle fit", games_csv or "data/games/games.csv",
                 *(f"--control {c}" for c in controls), *([] if kinds else ["--no-kinds"]),
                 *([] if level else ["--no-level"]),
                 *(f"--exclude-event '{e}'" for e in exclude),
                 *(["--offsets-default"] if offsets_default else []), f"-o {out_file}"]
        text = render_model(res, spreads, base, data_label=games_csv or "data/games/games.csv",
                            version="2.0.0", offsets_default=offsets_default,
                            command=" ".join(words))
        Path(out_file).write_text(text, encoding="utf-8")
        load_model(out_file)            # the file written must read back
        d["written"] = out_file
    _show(d, as_json, render_fit)


@main.command()
@games_arg
@click.option("--model", "model_files", multiple=True, type=click.Path(dir_okay=False),
              help="A fixed model file to score as it is (repeatable; default: "
                   "models/davidson-elo-v1.toml).")
@click.option("--events/--no-events", default=True, show_default=True,
              help="Also simulate the complete round robins: P(winner) at the start and "
                   "after every round.")
@click.option("--sims", default=20_000, show_default=True, type=click.IntRange(1000, 10**7),
              help="Simulations per event and checkpoint.")
@click.option("--seed", default=1, show_default=True, type=click.IntRange(0, 2**63 - 1))
@json_opt
def backtest(games_csv, model_files, events, sims, seed, as_json):
    """Score outcome models on real games, leaving each event out of the fit that scores it."""
    from .backtest import render, run_backtest
    from .gamedata import read_games

    d = run_backtest(read_games(games_csv), list(model_files), events=events, sims=sims,
                     seed=seed)
    _show(d, as_json, render)


if __name__ == "__main__":  # pragma: no cover
    main()
