"""Text of the knock-out-series reports: standings, odds, swing, whocan."""

from __future__ import annotations

import textwrap

from ...whocan.render import render_targets
from ..shared.entries import LEGEND, cell
from ..shared.swing import render_match_swing


def standings(d: dict) -> str:
    evs = d["events"]
    lines = [f"{d['scenario']}  at {d['at']}" + ("" if d["complete"] else
                                                  "  (series not complete)"), ""]
    head = (f"{'#':>3} {'player':<26}" + "".join(f"{e[:9]:>10}" for e in evs)
            + f"{'GP':>5}{'TB1':>5}{'TB2':>5}{'TB3':>6}{'prize':>12}  status")
    lines += [head, "-" * len(head)]
    for p in d["players"]:
        cells = "".join(f"{cell(x, s):>10}" for x, s in zip(p["events"], p["entries"]))
        cp = p["classical_points"]
        cps = f"{int(cp)}½" if cp % 1 else f"{int(cp)}"
        lines.append(f"{p['rank']:>3} {p['name'][:25]:<26}{cells}{p['points']:>5}"
                     f"{p['events_won']:>5}{p['second_places']:>5}{cps:>6}{p['prize']:>12,.2f}"
                     f"  {p['status'] or ''}")
    lines += ["", "event columns: Grand Prix points (still playing: points secured so far); "
              + LEGEND,
              "GP Grand Prix points; TB1 events won; TB2 second places; TB3 classical game "
              f"points; prize in {d['currency'] or 'the prize currency'} (events and series)"]
    return "\n".join(lines)


def odds(d: dict) -> str:
    lines = [f"{d['scenario']}  at {d['at']}: matches whose players are known", ""]
    if not d["matches"]:
        lines.append("(none: every match is decided or waits for an earlier one)")
    for m in d["matches"]:
        a, b = m["players"]
        lines.append(f"{m['event'][:12]:<13}{m['round']:<7}{a[:24]:<25}"
                     f"{100 * m['p_win'][0]:5.1f} %  {b[:24]:<25}{100 * m['p_win'][1]:5.1f} %"
                     f"   tiebreaks {100 * m['p_tiebreak']:4.1f} %")
    return "\n".join(lines)


swing = render_match_swing


def _path(r: dict) -> list[str]:
    """Every open match of the path, event by event (``says``), wrapped."""
    out = []
    for k, line in enumerate(r.get("says") or []):
        out += textwrap.wrap(line, 84, initial_indent="e.g. " if k == 0 else "     ",
                             subsequent_indent="       ")
    return out


def whocan(d: dict) -> str:
    return render_targets(
        d, [f"{d['scenario']}  at {d['at']}: {d['matches_left']} matches left; compared on "
            + ", ".join(d["criteria"]) + " (then head-to-head / lots = tiebreak)"],
        qualify_title=f"a qualifying place (top {d['qualifying_places']} not qualified "
                      "elsewhere)",
        level="head-to-head / lots decide", path_lines=_path)
