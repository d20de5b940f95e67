import click

from ..errors import ScenarioError
from .options import json_opt, show

games_arg = click.argument("games_csv", required=False, type=click.Path(dir_okay=False))


@click.command("fit")
@games_arg
@click.option("--control", "controls", multiple=True,
              type=click.Choice(["classical", "rapid", "armageddon"]),
              help="Fit this control (repeatable; default: classical and rapid).  Armageddon "
                   "holds its slope and level term at the base model's.")
@click.option("--kinds/--no-kinds", default=True, show_default=True,
              help="One draw term per event kind (kinds with enough games).")
@click.option("--level/--no-level", default=True, show_default=True,
              help="The rating-level term of the draw odds.")
@click.option("--prior/--no-prior", default=True, show_default=True,
              help="A normal prior on each control's slope and level term (simcycle.model.fit."
                   "PRIOR, docs/model.md); --no-prior: plain maximum likelihood (v3).")
@click.option("--exclude-event", "exclude", multiple=True, metavar="EVENT",
              help="Leave this event's games out (repeatable).")
@click.option("-o", "--output", "out_file", type=click.Path(dir_okay=False), default=None,
              help="Write the fitted model file here.")
@click.option("--base", "base_file", type=click.Path(dir_okay=False), default=None,
              help="Model whose unfitted controls the output keeps (default: "
                   "models/davidson-elo-v1.toml).")
@click.option("--offsets-default/--no-offsets-default", default=False, show_default=True,
              help="What the written model's [offsets] default says.")
@click.option("--model-version", default="4.0.0", show_default=True,
              help="The version the written model file says.")
@json_opt
def fit(games_csv, controls, kinds, level, prior, exclude, out_file, base_file, offsets_default,
        model_version, as_json):
    """Fit the Davidson-Elo parameters to games by maximum likelihood (default data:
    data/games/games.csv), with standard errors; -o writes a model file."""
    import time

    from ..model import DEFAULT_MODEL_V1, load_model
    from ..model.fit import FIT_CLASSES, PRIOR, fit, fit_report, form_spread, render_fit

    if out_file:                        # a file that could not be written: said before the fit
        from ..io.write import real_target
        real_target(out_file, "model file")
    t0 = time.perf_counter()
    games = _games(games_csv, exclude)
    base = load_model(base_file or DEFAULT_MODEL_V1)
    res = fit(games, classes=tuple(controls) or FIT_CLASSES, kinds=kinds, level=level,
              reference=base.reference_rating, hold=_armageddon_hold(base),
              prior=PRIOR if prior else None)
    spreads = {c: form_spread(games, res, c) for c in res.classes if c != "armageddon"}
    d = fit_report(res, spreads, time.perf_counter() - t0)
    if out_file:
        words = _command(games_csv, controls, kinds, level, prior, exclude, offsets_default,
                         model_version, out_file)
        from ..model.modelfile import render_model
        text = render_model(res, spreads, base, data_label=games_csv or "data/games/games.csv",
                            version=model_version, offsets_default=offsets_default,
                            command=words)
        _write_model(out_file, text)
        d["written"] = out_file
    show(d, as_json, render_fit)


def _command(games_csv, controls, kinds, level, prior, exclude, offsets_default,
             model_version, out_file) -> str:
    """The command line that makes this model file (written into it), defaults left out."""
    words = ["simcycle fit", games_csv or "data/games/games.csv",
             *(f"--control {c}" for c in controls), *([] if kinds else ["--no-kinds"]),
             *([] if level else ["--no-level"]), *([] if prior else ["--no-prior"]),
             *(f"--exclude-event '{e}'" for e in exclude),
             *(["--offsets-default"] if offsets_default else []),
             *([f"--model-version {model_version}"] if model_version != "4.0.0" else []),
             f"-o {out_file}"]
    return " ".join(words)


def _games(games_csv, exclude):
    """The game file read, without the ``--exclude-event`` events (each must be in it)."""
    from ..model.gamedata import read_games

    games = read_games(games_csv)
    for e in exclude:
        if e not in set(games.event):
            raise ScenarioError("no such event in the game file", file=games.file,
                                key="--exclude-event", value=e)
    return games.take(games.where(exclude_events=set(exclude)))


def _armageddon_hold(base) -> dict:
    """The Armageddon terms the fit holds: the base model's Armageddon control's slope and
    level, else the fit's defaults."""
    from ..model.fit import ARMAGEDDON_HOLD

    arm = next((c for c in base.controls if c.armageddon), None)
    if arm is None:
        return ARMAGEDDON_HOLD
    return {"slope:armageddon": arm.slope, "level:armageddon": arm.level}


def _write_model(out_file: str, text: str) -> None:
    """Write the model file's ``text``, once a private scratch copy of it reads back (a file
    that would not load never replaces anything)."""
    import shutil
    import tempfile
    from pathlib import Path

    from ..io.write import atomic_write
    from ..model import load_model

    check = Path(tempfile.mkdtemp()) / Path(out_file).name
    try:
        check.write_text(text, encoding="utf-8")
        load_model(check)
    finally:
        shutil.rmtree(check.parent, ignore_errors=True)
    atomic_write(out_file, text, what="model file")
