"""Write results into a round-robin scenario file's ``[[rounds]]``, keeping everything else.

tomlkit edits the document in place, so comments, blank lines, key order and the layout of
the ``games`` arrays survive; only the result strings change (``"*"`` becomes ``"1-0"``), and
a game or round the file does not list yet is appended.  A result that contradicts the file is
refused before anything is written, and the file is replaced atomically (a temporary file in
the same folder, then a rename), so an interrupted write never leaves half a scenario.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..errors import ScenarioError
from ..files import read_text


def _key(name) -> str | None:
    return name.strip().casefold() if isinstance(name, str) else None


def write_results(path: str | Path, players, results) -> dict:
    """Put ``results`` — (round, white index, black index, result text, label) — into the
    scenario file ``path`` whose players are ``players`` (objects with ``name`` and
    ``aliases``, in file order).  Returns counts: ``changed``, ``added``, ``unchanged``."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    f = str(path)
    text = read_text(path, "scenario file")
    try:
        doc = tomlkit.parse(text)
    except TOMLKitError as e:
        raise ScenarioError(f"not valid TOML: {e}", file=f) from None
    index: dict[str, int] = {}
    for i, p in enumerate(players):
        for n in (p.name, *p.aliases):
            index[_key(n)] = i
    if "rounds" not in doc:
        doc.append("rounds", tomlkit.aot())
    rounds = doc["rounds"]
    counts = {"changed": 0, "added": 0, "unchanged": 0}
    for rn, w, b, res, label in sorted(results, key=lambda x: x[0]):
        table = next((t for t in rounds if t.get("round") == rn), None)
        if table is None:
            table = tomlkit.table()
            table["round"] = rn
            table["games"] = tomlkit.array()
            table["games"].multiline(True)
            rounds.append(table)
        if "games" not in table:
            table["games"] = tomlkit.array()
            table["games"].multiline(True)
        games = table["games"]
        for entry in games:
            if (len(entry) == 3 and index.get(_key(entry[0])) == w
                    and index.get(_key(entry[1])) == b):
                old = str(entry[2]).strip()
                if old == res:
                    counts["unchanged"] += 1
                elif old == "*":
                    entry[2] = res
                    counts["changed"] += 1
                else:
                    raise ScenarioError(f"{label}: the file has {old}, the results say {res}; "
                                        "nothing written", file=f, key=f"rounds (round {rn})")
                break
        else:
            games.append([players[w].name, players[b].name, res])
            counts["added"] += 1
    if counts["changed"] or counts["added"]:
        _replace(Path(path), tomlkit.dumps(doc))
    return counts


def _replace(path: Path, text: str) -> None:
    mode = path.stat().st_mode & 0o7777
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
