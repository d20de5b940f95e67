"""Ctrl-C and SIGTERM: one contract for every command.

* **While the command line starts** (the imports, before :func:`arm`): a signal ends the
  process at once with one line, ``simcycle: error: interrupted; nothing had finished``, and status
  128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM); no traceback can be printed.
* **While a command runs** (:func:`arm` was called): the first SIGINT or SIGTERM raises
  :class:`KeyboardInterrupt` in the main thread.  ``driver.run`` lets it through (nothing
  partial escapes) unless its caller asked for a partial result (``partial=True``) and knows
  how to label one; commands that run several simulations keep only the parts that finished
  (see docs/cli.md, "Interruptions").  The CLI ends with one line and :func:`exit_code`.
* **After the first signal**, or once the command has said its last line (:func:`finish`), a
  further signal ends the process at once with the same status, adding a line only if none was
  said yet.

The handlers are installed only in the simcycle process itself (the ``simcycle`` script or
``python -m simcycle``), never in a program that imports simcycle as a library.
"""

from __future__ import annotations

import os
import signal
import sys

SIGNALS = (signal.SIGINT, signal.SIGTERM)
_received = 0          # the first signal received, 0 for none
_armed = False         # a command is running: raise KeyboardInterrupt
_said = False          # the one line about the interruption was written
_installed = False
_deferring = 0         # inside ``with deferred()`` (nested count): a signal waits in _held_signal
_held_signal = 0
_pending = False       # the first signal came inside a foreign callback: raised again soon


def _line(text: str) -> None:
    global _said
    if not _said:
        _said = True
        try:
            os.write(2, f"simcycle: error: {text}\n".encode())
        except OSError:
            pass


def _in_foreign_callback(frame) -> bool:
    """True where an exception would only be printed as "Exception ignored" (a traceback) and
    the signal lost: a ctypes callback from llvmlite (numba's compiled-object cache), a weakref
    callback such as importlib's module-lock ``cb``, or a finaliser (``__del__``)."""
    while frame is not None:
        code = frame.f_code
        if ("llvmlite" in code.co_filename or code.co_name == "__del__"
                or (code.co_name == "cb" and code.co_filename.startswith("<frozen importlib"))):
            return True
        frame = frame.f_back
    return False


def _handler(signum, frame):
    global _received, _pending, _held_signal
    if _deferring:          # inside ``deferred``: acted on when it ends
        _held_signal = _held_signal or signum
        return
    first = _received == 0 or _pending
    if _received == 0:
        _received = signum
    if _armed and first:
        if _in_foreign_callback(frame):   # ask again in a moment, outside the callback
            import threading
            _pending = True
            threading.Timer(0.05, os.kill, (os.getpid(), signum)).start()
            return
        _pending = False
        raise KeyboardInterrupt
    _line("interrupted; nothing had finished" if not _armed and first else "interrupted")
    os._exit(128 + _received)


def is_cli() -> bool:
    """True in the simcycle process itself: the console script, or ``python -m simcycle``
    (whose package is imported while ``sys.argv[0]`` is still ``-m``)."""
    if _installed:      # decided when the package was imported (argv[0] changes under -m)
        return True
    arg0 = sys.argv[0] if sys.argv else ""
    return arg0 == "-m" or os.path.basename(arg0) in ("simcycle", "simcycle.exe")


def install() -> None:
    """Install the handlers (only in the simcycle process, only from the main thread)."""
    global _installed
    if _installed or not is_cli():
        return
    try:
        for s in SIGNALS:
            signal.signal(s, _handler)
    except ValueError:   # not the main thread
        return
    _installed = True


def arm() -> None:
    """A command is running from here on: a signal raises KeyboardInterrupt."""
    global _armed
    install()
    _armed = True


def finish() -> None:
    """The command has said its last line: a later signal only ends the process."""
    global _armed, _said
    _armed = False
    _said = True


class deferred:
    """``with deferred():`` a SIGINT or SIGTERM arriving inside the block is held and acted on
    when the block ends, so the final output is written whole or not at all.  (Blocking the
    signal in this thread would not do: any of numba's or BLAS's threads may receive it, and
    Python then runs the handler in the main thread all the same.)"""

    def __enter__(self):
        global _deferring
        _deferring += 1         # blocks nest: the outermost one acts on a held signal
        return self

    def __exit__(self, *exc):
        global _deferring, _held_signal
        _deferring -= 1
        if not _deferring and _held_signal:
            signum, _held_signal = _held_signal, 0
            _handler(signum, None)
        return False


def received() -> int:
    """The first signal received (``signal.SIGINT``, ``signal.SIGTERM``) or 0."""
    return _received


def caused_by_signal(e: BaseException) -> bool:
    """Whether ``e`` is the interruption in another guise: a signal was received and the
    KeyboardInterrupt it raised is in ``e``'s chain (``__cause__`` / ``__context__``).  A
    signal that lands while a C extension initialises (numba's ``_devicearray`` during the
    first kernel's import) surfaces as that import's ImportError, its context the
    KeyboardInterrupt; it is still Ctrl-C, not a failure."""
    if not _received:
        return False
    seen = set()
    x: BaseException | None = e
    while x is not None and id(x) not in seen:
        if isinstance(x, KeyboardInterrupt):
            return True
        seen.add(id(x))
        x = x.__cause__ or x.__context__
    return False


def exit_code() -> int:
    """128 + the signal that interrupted the command: 130 for Ctrl-C (and by default), 143
    for SIGTERM."""
    return 128 + (_received or signal.SIGINT)
