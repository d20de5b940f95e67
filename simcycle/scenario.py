"""Read a scenario TOML file and hand it to the module of its format.

Every format module (``simcycle.formats.*``) offers the same functions:

  load(path, raw) -> scenario           validate and build a frozen scenario
  checkpoints(scn) -> list[str]         the names --at accepts, in order
  standings(scn, at) -> dict            JSON-able table from the games played
  render_standings(d) -> str            the same, as text
  compile(scn, model, at, offsets) -> Plan   flat arrays for the kernels (see driver.py)
  odds(scn, model, at) -> dict          the games still to play with their probabilities
  render_odds(d) -> str

Checkpoint names are validated by ``check_at`` so that every format refuses them alike.
"""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

from .errors import ScenarioError

FORMATS = {
    "round-robin": "simcycle.formats.roundrobin",
    "knockout-series": "simcycle.formats.knockout_series",
    "group-series": "simcycle.formats.group_series",
    "tour": "simcycle.formats.tour",
}


def read_toml(path: str | Path) -> dict:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError("no such scenario file", file=str(p)) from None
    except IsADirectoryError:
        raise ScenarioError("is a directory, not a scenario file", file=str(p)) from None
    except UnicodeDecodeError:
        raise ScenarioError("not UTF-8 text", file=str(p)) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(f"not valid TOML: {e}", file=str(p)) from None


def format_module(raw: dict, file: str):
    head = raw.get("scenario")
    if not isinstance(head, dict):
        raise ScenarioError("missing [scenario] table", file=file, key="scenario")
    fmt = head.get("format")
    if fmt not in FORMATS:
        raise ScenarioError("unknown format; known: " + ", ".join(FORMATS), file=file,
                            key="scenario.format", value=fmt)
    return importlib.import_module(FORMATS[fmt])


def load_scenario(path: str | Path):
    """Return (format module, scenario)."""
    raw = read_toml(path)
    mod = format_module(raw, str(path))
    return mod, mod.load(Path(path), raw)


def check_at(mod, scn, at: str | None, file: str) -> str | None:
    if at is None:
        return None
    names = mod.checkpoints(scn)
    if at not in names:
        shown = ", ".join(names[:6]) + (", ..., " + names[-1] if len(names) > 7 else "")
        raise ScenarioError(f"no such checkpoint; this scenario has {shown}", file=file,
                            key="--at", value=at)
    return at
