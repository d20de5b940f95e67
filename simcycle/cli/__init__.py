"""The ``simcycle`` command line: one module per command, loaded when it is asked for.

Thin: numpy, numba and scipy are imported inside the commands, so ``simcycle --help`` stays
instant.  Every :class:`~simcycle.errors.SimcycleError` (and click's usage errors) ends as one
line on stderr and its exit status; Ctrl-C before anything finished ends with status 130.

:func:`run` is the process entry (the ``simcycle`` script, ``python -m simcycle``): one command,
then exit.  It keeps Python's cyclic garbage collector off while the command imports numpy and
numba and loads its kernels (walking numba's object graph was about a third of a command's
start-up), turns it back on for commands that run longer, and ends the process without tearing
its modules down once every output is flushed (see :func:`run`).
"""

from __future__ import annotations

import gc
import importlib
import io
import os
import sys
import threading
import time

import click

from .. import __version__, interrupts
from ..errors import EXIT_BAD_INPUT, Interrupted, SimcycleError

# command -> one-line summary (shown by --help without importing the command's module)
COMMANDS = {
    "standings": "the table from the results played (up to --at), with tiebreak columns",
    "checkpoints": "the checkpoints --at accepts, in playing order",
    "simulate": "odds of every place, qualifying and prize money",
    "odds": "the games or matches still to play, with their probabilities",
    "swing": "what each game or match of the next round swings",
    "needs": "what each player needs from the next round: branches with their odds",
    "scores": "what score is enough: P(1st) by final score, outright / tiebreak / play-off",
    "whocan": "who can still win or qualify: clinched / alive / eliminated, with a path",
    "experiment": "compare format variants (optionally on a Dask cluster)",
    "fit": "fit the outcome model to real games",
    "backtest": "score outcome models on games they were not fitted on",
    "results": "what a PGN or TRF file of the event adds to the scenario (--write: put it in)",
    "history": "P(first), P(qualify) and expected prize at every checkpoint (--plot a chart)",
    "report": "one self-contained HTML page: standings, odds, history chart, swing, whocan",
    "batch": "many commands in one process (a file or standard input): start-up paid once",
    "serve": "a live what-if page on 127.0.0.1 backed by one engine (--watch a PGN/TRF file)",
    "warm-up": "compile every kernel now (once after an install), or those of one format",
}


_depth = 0     # Main.main calls in progress (``batch`` runs commands inside its own)
_real_stdout = None   # while a one-shot command's standard output is held (see hold_output)


def hold_output() -> None:
    """Hold the command's standard output in memory until it ends, so a signal can never cut
    it in half: at the end it is written whole with signals deferred (``release``), or, when
    the command was interrupted before it finished, not at all."""
    global _real_stdout
    if _real_stdout is None:
        _real_stdout = sys.stdout
        sys.stdout = io.StringIO()


def stream_output() -> None:
    """For commands whose output must flow as it comes (``batch``, ``serve``): write what is
    held and stop holding."""
    _release(keep=True, last=False)


def _release(keep: bool, last: bool = True) -> None:
    """Write the held output (``keep``) or drop it; with ``last`` the command has said its last
    line (a later signal only ends the process)."""
    global _real_stdout
    with interrupts.deferred():
        if _real_stdout is not None:
            held, sys.stdout, _real_stdout = sys.stdout, _real_stdout, None
            if keep and held.getvalue():
                try:
                    _write_all(held.getvalue())
                except BrokenPipeError:
                    pass
        if last:
            interrupts.finish()


def _write_all(text: str) -> None:
    """Write ``text`` to standard output to the last byte: straight to the file descriptor
    (a loop over partial writes), since a signal during a blocking write to a full pipe could
    otherwise leave the text object's buffer half written when the process ends."""
    out = sys.stdout
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):
        out.write(text)
        out.flush()
        return
    out.flush()
    data = memoryview(text.encode(out.encoding or "utf-8", out.errors or "strict"))
    while data:
        data = data[os.write(fd, data):]


def fail(message: str, code: int = EXIT_BAD_INPUT, *, finished: bool = True):
    """End with one line; ``finished=False``: nothing the command printed is complete (it is
    dropped)."""
    with interrupts.deferred():   # the output and the line whole; a signal waits for them
        if _depth <= 1:
            _release(keep=finished, last=False)
        click.echo(f"simcycle: error: {' '.join(message.split())}", err=True)
        if _depth <= 1:
            interrupts.finish()  # the last line: a signal from here on only ends the process
    sys.exit(code)


def check_environment() -> None:
    """Refuse, in one line, environment settings numba would turn into a traceback."""
    v = os.environ.get("NUMBA_NUM_THREADS")
    if v is not None and not (v.strip().isdigit() and int(v) >= 1):
        fail(f"environment: NUMBA_NUM_THREADS: must be a whole number >= 1 (got {v!r})")


class Main(click.Group):
    """Lazy command registry; errors become one line and an exit status."""

    def list_commands(self, ctx):
        return list(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        module = name.replace("-", "_")     # warm-up -> cli/warm_up.py, function warm_up
        return getattr(importlib.import_module(f"{__name__}.{module}"), module)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:   # before click turns it into Abort and prints a blank line
            raise Interrupted() from None
        except Exception as e:      # the interruption surfacing as another error (an import)
            if interrupts.caused_by_signal(e):
                raise Interrupted() from None
            raise

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        global _depth
        _depth += 1
        try:
            self._main(args, prog_name, complete_var, **extra)
        except SystemExit as e:
            code = e.code
        else:
            code = 0
        finally:
            _depth -= 1
        code = code if isinstance(code, int) else (0 if code is None else 1)
        if _depth == 0 and interrupts.is_cli():
            # The simcycle process ends here, streams flushed: no interpreter teardown, where
            # a late signal would meet the default handlers again (and numba's threads joined)
            _release(keep=True)     # (already written or dropped by now, but for safety)
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            os._exit(code)
        sys.exit(code)

    def _main(self, args, prog_name, complete_var, **extra):
        check_environment()
        if _depth == 1:
            if interrupts.is_cli():
                hold_output()
            interrupts.arm()    # from here a Ctrl-C or SIGTERM raises KeyboardInterrupt
        rv = self._invoke(args, prog_name, complete_var, **extra)
        _flush_stdout()
        if _depth <= 1:
            _release(keep=True)     # the whole output, signals deferred while it is written
        sys.exit(rv if isinstance(rv, int) else 0)


    def _invoke(self, args, prog_name, complete_var, **extra):
        """The command's return value; every failure ends here in one line (its exit
        status by kind), a closed pipe quietly."""
        try:
            return super().main(args=args, prog_name=prog_name or "simcycle",
                                complete_var=complete_var, standalone_mode=False, **extra)
        except click.ClickException as e:
            _click_failed(e)
        except (click.Abort, KeyboardInterrupt):   # nothing partial is printed on this path
            fail("interrupted; nothing had finished", interrupts.exit_code(), finished=False)
        except Interrupted as e:
            fail(str(e), e.exit_code, finished=e.reported)
        except SimcycleError as e:
            fail(str(e), e.exit_code)
        except BrokenPipeError:
            if _depth <= 1:
                _release(keep=False)
            sys.stderr.close()
            sys.exit(0)


def _click_failed(e: click.ClickException):
    """Click's own refusals: no arguments (the help, status 0), a usage error (naming the
    command and its --help), any other in its own words."""
    if isinstance(e, click.exceptions.NoArgsIsHelpError):
        click.echo(e.ctx.get_help())
        sys.exit(0)
    if isinstance(e, click.UsageError):
        cmd = e.ctx.command_path if e.ctx is not None else "simcycle"
        fail(f"{cmd}: {e.format_message()} (see {cmd} --help)", e.exit_code)
    fail(e.format_message(), e.exit_code)


def _flush_stdout() -> None:
    """Flush the command's output: a Ctrl-C meanwhile says the output is incomplete, a closed
    pipe is let be."""
    try:
        sys.stdout.flush()
    except KeyboardInterrupt:
        fail("interrupted while printing; the output above is incomplete",
             interrupts.exit_code())
    except BrokenPipeError:
        pass


@click.group(cls=Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="simcycle")
def main():
    """Monte Carlo qualification odds for chess cycles: Candidates, Grand Prix, tours.

    \b
    simcycle standings   SCENARIO   the table from the games played
    simcycle checkpoints SCENARIO   the checkpoints --at accepts
    simcycle simulate    SCENARIO   odds of every place, qualifying and prize money
    simcycle odds        SCENARIO   the games still to play, with W/D/L probabilities
    simcycle swing       SCENARIO   what each game of the next round swings
    simcycle needs       SCENARIO   what each player needs next round, branch by branch
    simcycle scores      SCENARIO   what final score is enough, and how first is decided
    simcycle whocan      SCENARIO   who can still win or qualify, exactly, with a path
    simcycle experiment  FILE       compare format variants (optionally on a Dask cluster)
    simcycle fit         [GAMES]    fit the outcome model to real games
    simcycle backtest    [GAMES]    score outcome models on games they were not fitted on
    simcycle results     SCENARIO   what a PGN / TRF file of the event adds (--write)
    simcycle history     SCENARIO   the odds at every checkpoint (--plot FILE.png|svg)
    simcycle report      SCENARIO   one self-contained HTML page (-o FILE.html)
    simcycle batch       [FILE]     many commands in one process (start-up paid once)
    simcycle serve       SCENARIO   a live what-if page on 127.0.0.1
    simcycle warm-up     [FORMAT]   compile the kernels now (once after an install)
    """


# CPU seconds after which a command that is still running gets the garbage collector back
# (start-up is over by then; a long command keeps its memory bounded).  CPU time, not wall
# time: on a busy machine start-up takes longer by the clock, not in CPU.
GC_OFF_FOR = 2.0


def _gc_back_after(cpu_seconds: float, stop: threading.Event) -> None:
    while not stop.wait(0.25):
        if time.process_time() >= cpu_seconds:
            gc.enable()
            return


def run() -> None:
    """Run one command from ``sys.argv`` and end the process (the console-script entry).

    The collector is off from here until the command ends or has used :data:`GC_OFF_FOR`
    seconds of CPU; only memory use depends on that, never an answer.  In the simcycle process
    :meth:`Main.main` ends the process itself once its streams are flushed (the interruption
    contract, ``simcycle.interrupts``).  Where it returns instead (``run`` called from another
    program), every object is frozen (the interpreter's final collection has nothing to walk),
    the exit handlers run, stdout and stderr are flushed, and the process ends with the
    command's exit status without tearing its modules down, unless a thread other than the
    main one is still running (then it exits the ordinary way, which waits for it).
    """
    gc.disable()
    stop = threading.Event()
    threading.Thread(target=_gc_back_after, args=(GC_OFF_FOR, stop), daemon=True).start()
    try:
        main()
        code = 0
    except SystemExit as e:
        code = e.code
    finally:
        stop.set()
    gc.freeze()
    _exit(code)


def _exit(code) -> None:
    """``sys.exit(code)`` without the interpreter's teardown where that is safe."""
    if isinstance(code, str):     # sys.exit("message"): printed on stderr, status 1
        print(code, file=sys.stderr)
        code = 1
    elif code is None:
        code = 0
    elif not isinstance(code, int):
        code = 1
    others = [t for t in threading.enumerate()
              if t is not threading.main_thread() and not t.daemon and t.is_alive()]
    if others:
        sys.exit(code)
    import atexit
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, OSError, ValueError):   # a closed pipe or stream
            pass
    os._exit(code)
