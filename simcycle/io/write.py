"""Writing files without losing a user's file: :func:`atomic_write` (every file simcycle
writes goes through it) and, for a read-modify-write, :func:`locked_text`.  Also: results
written into a round-robin scenario file's ``[[rounds]]``, keeping everything else.

:func:`atomic_write` writes a temporary file beside the target (the real file, symbolic links
followed), flushes it to disk (``fsync``), gives it the target's permissions and renames it
over the target, so a full disk, a crash or a signal leaves either the old file or the new one,
never half of one.  It refuses, in one :class:`~simcycle.errors.ScenarioError` line and before
writing anything: a target that is not a regular file (a folder, ``/dev/full``, a pipe), a
read-only target, a missing folder; a failed write (``ENOSPC``, a read-only file system,
``/proc``) removes the temporary file and says so, the old file intact.  With ``expect`` (the
bytes read before the change) it compares them with what is there just before the rename and
refuses if someone else changed the file in between.

:func:`locked_text` holds an exclusive lock (``flock`` on the target's folder) while a command
reads, changes and writes a file, so two simcycle processes updating one scenario at once
apply their changes one after the other and lose none.

tomlkit edits the scenario document in place, so comments, blank lines, key order and the
layout of the ``games`` arrays survive; only the result strings change (``"*"`` becomes
``"1-0"``), and a game or round the file does not list yet is appended.  A result that
contradicts the file is refused before anything is written.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

from ..errors import ScenarioError
from ..files import read_text


def _why(e: OSError) -> str:
    if e.errno == errno.ENOSPC:
        return "no space left on the device"
    if e.errno == errno.EROFS:
        return "read-only file system"
    if e.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if e.errno == errno.ENOENT:
        return "no such folder"
    if e.errno == errno.ENOTDIR:
        return "not a folder"
    return e.strerror or str(e)


def real_target(path: str | Path, what: str = "file") -> Path:
    """The file a write to ``path`` must replace (symbolic links followed), checked: its
    folder exists and is writable, and it is a writable regular file or does not exist yet."""
    f = str(path)
    try:
        real = Path(os.path.realpath(path))
    except (OSError, RuntimeError, ValueError) as e:
        raise ScenarioError(f"cannot write the {what}: {e}", file=f) from None
    parent = real.parent
    try:
        pst = os.stat(parent)
    except OSError as e:
        raise ScenarioError(f"cannot write the {what}: {_why(e)} ({parent})", file=f) from None
    if not stat.S_ISDIR(pst.st_mode):
        raise ScenarioError(f"cannot write the {what}: {parent} is not a folder", file=f)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise ScenarioError(f"cannot write the {what}: {_why(e)}", file=f) from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise ScenarioError(f"cannot write the {what}: is a folder", file=f)
        if not stat.S_ISREG(st.st_mode):
            raise ScenarioError(f"cannot write the {what}: not a regular file (a device, pipe "
                                "or socket); name a file", file=f)
        if not st.st_mode & 0o222 or not os.access(real, os.W_OK):
            raise ScenarioError(f"cannot write the {what}: the file is read-only; nothing "
                                "written (make it writable first)", file=f)
    if not os.access(parent, os.W_OK):
        raise ScenarioError(f"cannot write the {what}: folder {parent} not writable", file=f)
    return real


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def atomic_write(path: str | Path, data: str | bytes, *, what: str = "file",
                 expect: bytes | None = None) -> Path:
    """Replace ``path`` (the real file behind any symbolic link) by ``data`` (text is written
    as UTF-8, newlines untouched), atomically; returns the real path written.  ``expect``: the
    file's bytes as they were read (``b""`` for a file that did not exist); if the file holds
    something else just before the rename, nothing is written."""
    f = str(path)
    real = real_target(path, what)
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    try:
        mode = os.stat(real).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    tmp = None
    try:
        try:
            fd, tmp = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.",
                                       suffix=".tmp")
        except OSError as e:
            raise ScenarioError(f"cannot write the {what}: {_why(e)}", file=f) from None
        try:
            _write_all(fd, raw)
            os.fchmod(fd, mode)
            os.fsync(fd)
        except OSError as e:
            raise ScenarioError(f"cannot write the {what}: {_why(e)}; the old file is "
                                "unchanged", file=f) from None
        finally:
            os.close(fd)
        if expect is not None:
            try:
                now = real.read_bytes()
            except FileNotFoundError:
                now = b""
            except OSError as e:
                raise ScenarioError(f"cannot write the {what}: {_why(e)}", file=f) from None
            if now != expect:
                raise ScenarioError(f"the {what} changed while simcycle was updating it; "
                                    "nothing written (run the command again)", file=f)
        try:
            os.replace(tmp, real)
        except OSError as e:
            raise ScenarioError(f"cannot write the {what}: {_why(e)}; the old file is "
                                "unchanged", file=f) from None
        tmp = None
        with contextlib.suppress(OSError):   # the rename itself reaches the disk
            dfd = os.open(real.parent, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return real


@contextlib.contextmanager
def locked_text(path: str | Path, what: str = "file"):
    """Hold an exclusive lock on ``path``'s folder (the real file's) and yield
    ``(text, raw)``: the file as it is now, read under the lock.  Write it back with
    ``atomic_write(path, new, expect=raw)`` inside the ``with``."""
    import fcntl

    real = real_target(path, what)
    dfd = None
    try:
        dfd = os.open(real.parent, os.O_RDONLY)
        fcntl.flock(dfd, fcntl.LOCK_EX)
    except OSError:   # a file system without locks: the comparison before the rename remains
        pass
    try:
        text = read_text(path, what)
        raw = real.read_bytes()
        if raw.decode("utf-8", "replace").removeprefix("\ufeff") != text:
            raise ScenarioError(f"the {what} changed while simcycle was reading it; nothing "
                                "written (run the command again)", file=str(path))
        yield text, raw
    finally:
        if dfd is not None:
            os.close(dfd)     # closing releases the lock


def _key(name) -> str | None:
    return name.strip().casefold() if isinstance(name, str) else None


def write_results(path: str | Path, players, results) -> dict:
    """Put ``results`` — (round, white index, black index, result text, label) — into the
    scenario file ``path`` whose players are ``players`` (objects with ``name`` and
    ``aliases``, in file order).  Returns counts: ``changed``, ``added``, ``unchanged``."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    f = str(path)
    with locked_text(path, "scenario file") as (text, raw):
        try:
            doc = tomlkit.parse(text)
        except TOMLKitError as e:
            raise ScenarioError(f"not valid TOML: {e}", file=f) from None
        counts = _merge(doc, f, players, results)
        if counts["changed"] or counts["added"]:
            atomic_write(path, tomlkit.dumps(doc), what="scenario file", expect=raw)
    return counts


def _merge(doc, f: str, players, results) -> dict:
    """Write ``results`` (round, White, Black, result, label) into the scenario document:
    a game to play ("*") gets its result, a game not listed is added; a game listed with
    another result is refused.  Returns the counts changed / added / unchanged."""
    import tomlkit

    index: dict[str, int] = {}
    for i, p in enumerate(players):
        for n in (p.name, *p.aliases):
            index[_key(n)] = i
    if "rounds" not in doc:
        doc.append("rounds", tomlkit.aot())
    counts = {"changed": 0, "added": 0, "unchanged": 0}
    for rn, w, b, res, label in sorted(results, key=lambda x: x[0]):
        games = _round_games(doc["rounds"], rn)
        entry = next((e for e in games if len(e) == 3 and index.get(_key(e[0])) == w
                      and index.get(_key(e[1])) == b), None)
        if entry is None:
            games.append([players[w].name, players[b].name, res])
            counts["added"] += 1
            continue
        old = str(entry[2]).strip()
        if old == res:
            counts["unchanged"] += 1
        elif old == "*":
            entry[2] = res
            counts["changed"] += 1
        else:
            raise ScenarioError(f"{label}: the file has {old}, the results say {res}; "
                                "nothing written", file=f, key=f"rounds (round {rn})")
    return counts


def _round_games(rounds, rn: int):
    """Round ``rn``'s ``games`` array in the ``[[rounds]]`` tables, the table and the array
    made (multi-line) where missing."""
    import tomlkit

    table = next((t for t in rounds if t.get("round") == rn), None)
    if table is None:
        table = tomlkit.table()
        table["round"] = rn
        _add_games(table)
        rounds.append(table)
    if "games" not in table:
        _add_games(table)
    return table["games"]


def _add_games(table) -> None:
    """An empty multi-line ``games`` array in ``table``."""
    import tomlkit

    table["games"] = tomlkit.array()
    table["games"].multiline(True)
