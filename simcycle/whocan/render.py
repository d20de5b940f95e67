"""The text of a whocan answer, shared by every format."""

from __future__ import annotations

from .core import STATUSES


def render_targets(d: dict, header: list, *, qualify_title: str, level: str, path_lines,
                   fmt_points=str) -> str:
    """``level``: what decides between players level on every compared criterion (e.g.
    "tiebreaks decide"); ``path_lines(row)`` gives the lines that show a live player's path."""
    lines = list(header) + [""]
    for target, rows in d["targets"].items():
        title = "first place" if target == "first" else qualify_title
        lines.append(f"Who can still take {title}:")
        for r in sorted(rows, key=lambda r: STATUSES.index(r["status"])):
            pts = fmt_points(d["points"][r["name"]])
            head = f"  {r['status']:<12} {r['name']:<26}{pts:>6}"
            if r["status"] == "alive":
                how = "outright" if r["via"] == "outright" else f"only level ({level})"
                worst = (f"; cannot be passed, at worst level ({level})"
                         if r["at_worst"] == "tiebreak" else "")
                lines.append(f"{head}  {how}{worst}")
                lines.extend("               " + x for x in path_lines(r))
            elif r["status"] in ("clinched", "eliminated") and r.get("says"):
                lines.append(head)
                lines.extend(("               in words: " if k == 0 else
                              "                         ") + x
                             for k, x in enumerate(r["says"]))
            elif r["status"] == "n/a":
                lines.append(f"{head}  qualified elsewhere")
            elif r["status"] == "undetermined":
                lines.append(f"{head}  (work budget of {d.get('budget_nodes')} "
                             f"{d.get('budget_unit', 'solver nodes')} reached)")
            else:
                lines.append(head)
        lines.append("")
    return "\n".join(lines).rstrip()
