"""Errors meant for people: what is wrong and where (file, key or line and column, value).

Each error carries the exit status the command line ends with (as click's exceptions do), so
no command needs its own ``try``/``except``: the CLI prints ``simcycle: error: <one line>``
and exits with ``exit_code``.
"""

from __future__ import annotations

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130   # Ctrl-C; SIGTERM ends with 143 (128 + the signal's number)


def _show(value: object) -> str:
    text = repr(value)
    if len(text) > 80:
        text = text[:77] + "..."
    return text.replace("\n", "\\n").replace("\r", "\\r")


class SimcycleError(Exception):
    """Base of the errors the CLI turns into one line and an exit status."""

    exit_code = EXIT_BAD_INPUT


class ScenarioError(SimcycleError):
    """Bad input, refused at the edge.  The CLI prints it on one line and exits with status 2.

    ``key`` is a dotted path into the file (``players[3].rating``), an option name
    (``--at``) or a place in a text file (``line 12, column 3``)."""

    def __init__(self, message: str, *, file: str | None = None, key: str | None = None,
                 value: object = None, has_value: bool | None = None):
        self.message = " ".join(str(message).split())
        self.file = str(file) if file is not None else None
        self.key = key
        self.value = value
        self.has_value = value is not None if has_value is None else has_value
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ": ".join(p for p in (self.file, self.key) if p)
        text = f"{where}: {self.message}" if where else self.message
        if self.has_value:
            text += f" (got {_show(self.value)})"
        return " ".join(text.splitlines())

    def located(self, file: str | None = None, key_prefix: str | None = None) -> "ScenarioError":
        """Return a copy with the file filled in and the key prefixed."""
        key = self.key
        if key_prefix:
            key = f"{key_prefix}.{key}" if key else key_prefix
        return ScenarioError(self.message, file=self.file or file, key=key,
                             value=self.value, has_value=self.has_value)


class Unsupported(ScenarioError):
    """A command or option the scenario's format does not offer (declared by the format)."""


class Interrupted(SimcycleError):
    """Ctrl-C or SIGTERM: what finished has been reported (or nothing had); exit status
    128 + the signal (130 for Ctrl-C, 143 for SIGTERM; see :mod:`simcycle.interrupts`)."""

    def __init__(self, message: str | None = None):
        #: the command printed what finished before raising (its output is kept); without a
        #: message nothing had finished, and whatever was printed is dropped
        self.reported = message is not None
        super().__init__(message or "interrupted; nothing had finished")

    @property
    def exit_code(self) -> int:   # type: ignore[override]
        from .interrupts import exit_code
        return exit_code()


class ClusterError(SimcycleError):
    """A Dask cluster could not be reached or lost its workers (one line, exit 2)."""

    def __init__(self, message: str):
        self.message = " ".join(str(message).split())
        super().__init__(self.message)

