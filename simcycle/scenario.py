"""Read a scenario file and hand it to its format.

``[scenario] format = ...`` names one of :data:`FORMATS`; each is a package under
``simcycle/formats/`` exposing ``FORMAT``, an instance of :class:`~simcycle.formats.base.Format`.
Formats are imported only when a scenario asks for them.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from .errors import ScenarioError
from .files import read_toml

FORMATS = {
    "round-robin": "simcycle.formats.roundrobin",
    "knockout-series": "simcycle.formats.knockout_series",
    "group-series": "simcycle.formats.group_series",
    "tour": "simcycle.formats.tour",
    "swiss": "simcycle.formats.swiss",
    "cycle": "simcycle.formats.cycle",
}


def get_format(name, file: str | None = None):
    """The registered format called ``name``, or a one-line refusal."""
    if not isinstance(name, str) or name not in FORMATS:
        raise ScenarioError("unknown format; known: " + ", ".join(FORMATS), file=file,
                            key="scenario.format", value=name)
    return importlib.import_module(FORMATS[name]).FORMAT


def format_of(raw: dict, file: str):
    head = raw.get("scenario")
    if not isinstance(head, dict):
        raise ScenarioError("missing [scenario] table", file=file, key="scenario")
    return get_format(head.get("format"), file)


def load_data(raw: dict, file: str):
    """(format, scenario) from an already parsed TOML document (experiments, tests)."""
    fmt = format_of(raw, file)
    return fmt, fmt.load(raw, file)


def resolve(path: str | Path) -> Path:
    """The file ``path`` names; when there is none, a shipped scenario of that name
    ("candidates-2022", "scenarios/grand-prix-2022.toml"), so that the shipped scenarios work
    from any folder."""
    p = Path(path)
    if p.exists():
        return p
    from .resources import shipped_scenario
    return shipped_scenario(str(path)) or p


def load_scenario(path: str | Path):
    """(format, scenario) from a scenario file (or a shipped scenario's name)."""
    p = resolve(path)
    return load_data(read_toml(p, "scenario file"), str(p))
