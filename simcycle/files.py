"""Reading the files people give simcycle: scenarios, models, experiments, games, PGN, TRF.

Every file goes through :func:`read_text`, which refuses what is not a readable regular text
file (a directory, a FIFO or device that would block, a symlink loop, binary data, something
huge) with one :class:`~simcycle.errors.ScenarioError` line instead of a traceback or a hang.
"""

from __future__ import annotations

import errno
import os
import stat
import tomllib
from pathlib import Path

from .errors import ScenarioError

MAX_BYTES = 64 * 1024 * 1024   # no scenario, model or game file comes near this
# TOML bounds, far above every shipped file (the largest, a 2025 Grand Swiss scenario, holds
# about 2,500 values nested 8 deep) and far below what takes minutes or a RecursionError
MAX_TOML_DEPTH = 24
MAX_TOML_VALUES = 50_000


def read_text(path: str | Path, what: str = "file") -> str:
    """The UTF-8 text of ``path`` (a leading byte-order mark dropped)."""
    p = Path(path)
    f = str(p)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise ScenarioError(f"no such {what}", file=f) from None
    except PermissionError:
        raise ScenarioError(f"{what} not readable (permission denied)", file=f) from None
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise ScenarioError("symbolic link loop", file=f) from None
        raise ScenarioError(f"cannot read {what}: {e.strerror or e}", file=f) from None
    if stat.S_ISDIR(st.st_mode):
        raise ScenarioError(f"is a directory, not a {what}", file=f)
    if not stat.S_ISREG(st.st_mode):
        raise ScenarioError("not a regular file (a pipe, socket or device)",
                            file=f)
    if st.st_size > MAX_BYTES:
        raise ScenarioError(f"too large for a {what} ({st.st_size:,} bytes)", file=f)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise ScenarioError(f"cannot read {what}: {e.strerror or e}", file=f) from None
    if b"\x00" in data:
        raise ScenarioError(f"binary data, not a text {what}", file=f)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise ScenarioError(f"not UTF-8 text (line {line})", file=f) from None
    return text[1:] if text.startswith("\ufeff") else text


def read_toml(path: str | Path, what: str = "file") -> dict:
    """A TOML file as a dict; syntax errors name the line and column."""
    f = str(path)
    text = read_text(path, what)
    return loads_toml(text, f)


def loads_toml(text: str, file: str) -> dict:
    """TOML text as a dict, within :data:`MAX_TOML_DEPTH` and :data:`MAX_TOML_VALUES` (one
    line naming the file and the limit otherwise, before any long work)."""
    if text.count("=") > MAX_TOML_VALUES:     # a cheap bound before the parse itself
        raise ScenarioError(f"too many keys (more than the limit of {MAX_TOML_VALUES:,})",
                            file=file)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(f"not valid TOML: {e}", file=file) from None
    except RecursionError:
        raise ScenarioError(f"nested too deeply (the limit is {MAX_TOML_DEPTH} levels)",
                            file=file) from None
    check_size(data, file)
    return data


def check_size(data, file: str) -> None:
    """Refuse a document nested deeper than :data:`MAX_TOML_DEPTH` or holding more than
    :data:`MAX_TOML_VALUES` keys and array items (counted without recursion)."""
    stack = [(data, 1)]
    values = 0
    while stack:
        x, depth = stack.pop()
        if depth > MAX_TOML_DEPTH:
            raise ScenarioError(f"nested too deeply (the limit is {MAX_TOML_DEPTH} levels)",
                                file=file)
        items = x.values() if isinstance(x, dict) else x
        values += len(items)
        if values > MAX_TOML_VALUES:
            raise ScenarioError("too many keys and values (more than the limit of "
                                f"{MAX_TOML_VALUES:,})", file=file)
        stack.extend((v, depth + 1) for v in items if isinstance(v, (dict, list)))
