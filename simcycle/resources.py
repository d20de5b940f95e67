"""Where the files simcycle ships live: the outcome models, the scenarios and the game data.

They sit at the top of the repository (``models/``, ``scenarios/``, ``data/games/``) and are
reached through ``simcycle/shipped/`` (links in the source tree, real copies in an installed
package), so every command finds them from any folder after ``pip install .``.
"""

from __future__ import annotations

from pathlib import Path

SHIPPED = Path(__file__).resolve().parent / "shipped"
MODELS = SHIPPED / "models"
SCENARIOS = SHIPPED / "scenarios"
GAMES = SHIPPED / "games" / "games.csv"


def shipped_scenario(arg: str) -> Path | None:
    """The shipped scenario or experiment ``arg`` names ("candidates-2022", "grand-prix-2019.toml",
    "scenarios/candidates-2022.toml", "experiments/candidates-formats"), or None."""
    p = Path(arg)
    parts = p.parts[1:] if p.parts[:1] == ("scenarios",) else p.parts
    if not parts or any(x in ("..", "") for x in parts):
        return None
    cand = SCENARIOS.joinpath(*parts)
    if cand.suffix != ".toml":
        cand = cand.with_name(cand.name + ".toml")
    return cand.resolve() if cand.is_file() else None


def scenario_names() -> list[str]:
    return sorted(p.stem for p in SCENARIOS.glob("*.toml"))
