"""Words and colours every output shares: the checkpoint in words ("after round 12"), one
colour per player (the report's charts and tables, the serve page)."""

from __future__ import annotations

# One colour per player (stable at every checkpoint, on the page and in the report's tables
# and charts): Tableau 10, then 10 darker tones.
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#17becf", "#1f4e79", "#a0522d", "#8b1a1a", "#2f6f6a",
           "#2e6b2e", "#8a7a00", "#6a3d77", "#b2506b", "#5a4030", "#bcbd22", "#d62728",
           "#008080", "#800080", "#556b2f")   # no greys: grey is for the lines that recede


def colour_of(names) -> dict[str, str]:
    """Each player's colour, from their place among ``names`` in alphabetical order: the same
    at every checkpoint and in every output (the page, the report's tables and charts)."""
    return {n: PALETTE[i % len(PALETTE)] for i, n in enumerate(sorted(set(names)))}


def after_text(fmt, scn, at) -> str:
    """The checkpoint in words: "after round 12" (from the results in the file when ``at`` is
    not given), "before the start"."""
    cps = list(fmt.checkpoints(scn))
    if at is None:
        from ..report.history import LATEST, checkpoints
        cp = checkpoints(fmt, scn)[-1]
        if cp == LATEST:
            return f"after {_words(cps[-1])} (and the games since)" if len(cps) > 1 else \
                "with the games played so far"
        return "before the start" if cp == "start" else f"after {_words(cp)}"
    return "before the start" if at == "start" else f"after {_words(at)}"


STAGES = {"qf": "quarter-finals", "sf": "semi-finals", "f": "final", "final": "final",
          "groups": "group stage"}


def _words(cp: str) -> str:
    """A checkpoint's name in words: round9 -> "round 9", event3-qf -> "event 3's
    quarter-finals", event2-round3 -> "event 2, round 3", event2-r1 -> "event 2, round 1"."""
    import re
    if cp == "start":
        return "the start"
    m = re.fullmatch(r"round(\d+)", cp)
    if m:
        return f"round {m.group(1)}"
    m = re.fullmatch(r"event(\d+)(?:-(.+))?", cp)
    if m:
        ev, stage = m.groups()
        if stage is None:
            return f"event {ev}"
        if stage in STAGES:
            return f"event {ev}'s {STAGES[stage]}"
        r = re.fullmatch(r"(?:round|r)(\d+)", stage)
        if r:
            return f"event {ev}, round {r.group(1)}"
        return f"event {ev}, {stage}"
    return cp
