import click

from .options import emit_json, json_opt, load, scenario_arg


@click.command()
@scenario_arg
@json_opt
def checkpoints(scenario, as_json):
    """The checkpoints --at accepts, in playing order ("start" first; with no --at every
    result in the file counts)."""
    fmt, scn, _ = load(scenario, None)
    names = fmt.checkpoints(scn)
    if as_json:
        emit_json({"scenario": scn.name, "file": scn.file, "checkpoints": names})
    else:
        click.echo("\n".join(names))
