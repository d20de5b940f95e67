"""A player's part in one event of a series, as the standings report it (JSON strings, and the
marks of the text table)."""

from __future__ import annotations

ENTRY_DONE = "done"          # his event is over: the points are final
ENTRY_IN = "in"              # still playing it: the points so far
ENTRY_TO_PLAY = "to play"    # entered, has not played a game of it yet
# not entered: None (JSON null)

LEGEND = ("+ still playing that event (points so far), . entered but not started, "
          "- not entered")


def cell(points, entry: str | None) -> str:
    """Text of one event cell of a series table."""
    if entry is None:
        return "-"
    if entry == ENTRY_TO_PLAY:
        return "."
    text = "" if points is None else (f"{points:g}" if isinstance(points, float) else str(points))
    return text + ("+" if entry == ENTRY_IN else "")
