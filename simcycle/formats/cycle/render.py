"""Text of the cycle's reports: the seats and their chains (standings), the parts (odds)."""

from __future__ import annotations


def standings(d: dict) -> str:
    lines = [f"{d['scenario']}  at {d['at']}", "",
             f"{'seat':<22}{'path':<28}chain (first that yields a player not seated)"]
    lines.append("-" * 100)
    for s in d["seats"]:
        lines.append(f"{s['id'][:21]:<22}{s['path'][:27]:<28}" + " -> ".join(s["chain"]))
    lines += ["", "parts, in playing order (checkpoint each is at):"]
    for p in d["parts"]:
        lines.append(f"  {p['id']}: {p['name']} ({p['format']}) at {p['at']}")
    if d["withdrawn"]:
        lines.append("withdrawn (their seats pass down): " + ", ".join(d["withdrawn"]))
    for nm in d["nominees"]:
        lines.append(f"nominee rule {nm['id']}: reading {nm['reading']}"
                     + (f", pick {nm['pick']}" if nm["pick"] else "")
                     + (f", best of {nm['event']}" if nm["event"] else "")
                     + (f"; picks: {nm['picker']}" if nm["picker"] else ""))
    lines += ["", "A player qualifying twice takes the first seat he reaches (seats in priority "
              "order); the other seat passes down its chain."]
    return "\n".join(lines)


def odds(d: dict) -> str:
    lines = [f"{d['scenario']}  at {d['at']}: the parts still to play", ""]
    for p in d["events"]:
        lines.append(f"  {p['id']}: {p['name']} at {p['at']}"
                     f" ({p['still']} still to play)")
    lines.append("")
    lines.append("simcycle odds on each part's own scenario file lists its games and matches.")
    return "\n".join(lines)


def whocan(d: dict) -> str:
    """One line per player: status, then why or how in words."""
    import textwrap

    from ...whocan.core import STATUSES
    lines = [f"{d['scenario']}  at {d['at']}: who can still take one of the {d['seats']} seats "
             "of the final", ""]
    for r in sorted(d["targets"]["qualify"], key=lambda r: STATUSES.index(r["status"])):
        lines.append(f"  {r['status']:<12} {r['name']}")
        for k, s in enumerate(r.get("says") or []):
            lines += textwrap.wrap(s, 96, initial_indent="               "
                                   + ("in words: " if k == 0 else "          "),
                                   subsequent_indent=" " * 25)
    lines += ["", "undetermined: not settled by the seat rules and the events' exact whocan "
              f"within the work budget ({d['budget_nodes']} {d['budget_unit']}); never a guess"]
    return "\n".join(lines)
