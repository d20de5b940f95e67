"""``simcycle batch FILE``: many commands in one process, so start-up is paid once."""

import click


@click.command()
@click.argument("commands", type=click.Path(dir_okay=False, allow_dash=True), default="-")
@click.option("--jsonl", is_flag=True,
              help="Print one JSON object per command (line, command, status, output, error) "
                   "instead of the outputs one after another.")
@click.option("--keep-going/--stop", default=True, show_default=True,
              help="Go on after a command that fails (its one-line error on stderr).")
def batch(commands, jsonl, keep_going):
    """Run the simcycle commands of a file (or of standard input, '-'), one per line, in one
    process: "simulate candidates-2022 --at round9 --json".  Blank lines and lines starting
    with # are skipped; the exit status is the worst command's."""
    import json
    import sys

    from .. import interrupts
    from . import stream_output

    stream_output()     # each command's output as it comes, not held to the end
    lines, where = _lines(commands)
    worst = 0
    for n, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        status, output, message = _run(_command_args(text, n, where), jsonl)
        if jsonl:
            click.echo(json.dumps({"line": n, "command": text, "status": status,
                                   "output": output, "error": message.strip() or None},
                                  ensure_ascii=False))
        if message:
            _say_error(message, f"simcycle: {where}: line {n}: ")
        worst = max(worst, status)
        if status and not keep_going or interrupts.received():   # Ctrl-C stops the batch
            break
    sys.exit(worst)


def _lines(commands: str) -> tuple[list[str], str]:
    """(the batch's lines, where they come from: the file's name or "standard input")."""
    if commands == "-":
        import sys
        return sys.stdin.read().splitlines(), "standard input"
    from ..files import read_text
    return read_text(commands, "batch file").splitlines(), commands


def _say_error(message: str, lead: str) -> None:
    """A command's error lines on stderr, each after ``lead`` (the file and line) instead of
    its own "simcycle: "."""
    click.echo("".join(lead + m.removeprefix("simcycle: ") + "\n"
                       for m in message.splitlines() if m.strip()), err=True, nl=False)


def _command_args(text: str, n: int, where: str) -> list[str]:
    """Line ``n``'s arguments (a leading "simcycle" dropped); a batch in a batch refused."""
    import shlex

    from ..errors import ScenarioError
    try:
        args = shlex.split(text)
    except ValueError as e:
        raise ScenarioError(f"cannot split the line: {e}", file=where, key=f"line {n}",
                            value=text) from None
    if args[:1] == ["simcycle"]:
        args = args[1:]
    if args[:1] == ["batch"]:
        raise ScenarioError("a batch cannot run a batch", file=where, key=f"line {n}",
                            value=text)
    return args


def _run(args: list[str], jsonl: bool) -> tuple[int, str, str]:
    """Run one command in-process: (exit status, its output when ``jsonl`` (else it went to
    stdout as it came), its stderr)."""
    import contextlib
    import io
    import sys

    from ..errors import EXIT_BAD_INPUT
    from . import main
    out, err = io.StringIO(), io.StringIO()
    status = 0
    with contextlib.redirect_stdout(out if jsonl else sys.stdout), \
            contextlib.redirect_stderr(err):
        try:
            main.main(args, prog_name="simcycle")
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else (0 if e.code is None
                                                             else EXIT_BAD_INPUT)
    return status, out.getvalue(), err.getvalue()
