"""Text of the group-series reports: standings, odds, swing (group games or knock-out
matches), whocan."""

from __future__ import annotations

import textwrap

from ...whocan.render import render_targets
from ..shared.entries import LEGEND, cell
from ..shared.swing import render_match_swing
from ..roundrobin import render as rr_render


def standings(d: dict) -> str:
    names = [ev["name"][:9] for ev in d["events"]]
    head = (f"{'rank':>5}  {'player':<24}" + "".join(f"{x:>10}" for x in names)
            + f"{'total':>7}{'TF':>4}{'TS':>4}{'GP':>6}{'GW':>4}"
            + f"{'prize ' + (d['currency'] or ''):>14}")
    lines = [f"{d['scenario']}  at {d['at']}", "", head, "-" * len(head)]
    for r in d["players"]:
        rk = "" if r["rank"] is None else (("=" if r["shared"] else "") + str(r["rank"]))
        evs = "".join(f"{cell(v, x):>10}" for v, x in zip(r["events"], r["entries"]))
        lines.append(f"{rk:>5}  {r['name'][:24]:<24}{evs}{r['points']:>7}{r['events_won']:>4}"
                     f"{r['second_places']:>4}{r['classical_points']:>6}{r['classical_wins']:>4}"
                     f"{r['prize']:>14,.0f}")
    lines += ["", f"top {d['qualifying_places']} qualify; prize money paid so far: "
              f"{d['prize_total']:,.0f}",
              "event columns: series points; " + LEGEND,
              "total series points; TF events won; TS second places; GP classical game points; "
              "GW classical games won; '=' level on every criterion but lots"]
    for e, ev in enumerate(d["events"]):
        for g in ev["groups"]:
            if g["playoff_pending"]:
                lines.append(f"{ev['name']} group {g['name']}: play-off for first not "
                             "entered yet")
    return "\n".join(lines)


def odds(d: dict) -> str:
    lines = [f"{d['scenario']}  at {d['at']}  ({d['control']} games still to play)", ""]
    if d["games"]:
        lines.append(f"{'ev':>3} {'grp':>4} {'rd':>3}  {'White':<24}{'Black':<24}{'1-0':>7}"
                     f"{'draw':>7}{'0-1':>7}")
        for g in d["games"]:
            lines.append(f"{g['event']:>3} {g['group']:>4} {g['round']:>3}  "
                         f"{g['white'][:23]:<24}{g['black'][:23]:<24}{100 * g['p_white']:6.1f}%"
                         f"{100 * g['p_draw']:6.1f}%{100 * g['p_black']:6.1f}%")
    elif not d.get("matches"):
        lines.append("no group games left to play with known pairings")
    if d.get("matches"):
        lines += ["", "knock-out matches whose players are known:"]
        for m in d["matches"]:
            a, b = m["players"]
            short = m["event"].split(" (")[0]       # "Berlin 1 (3-17 February 2022)"
            lines.append(f"  {short[:14]:<15}{m['round']:<14}{a[:24]:<25}"
                         f"{100 * m['p_win'][0]:5.1f} %  {b[:24]:<25}"
                         f"{100 * m['p_win'][1]:5.1f} %   tiebreaks {100 * m['p_tiebreak']:4.1f} %")
        lines.append("  % = chance to win the match (classical games, then rapid, blitz and "
                     "Armageddon while level); tiebreaks = chance the classical games are level")
    lines += d["notes"]
    return "\n".join(lines)


def swing(d: dict) -> str:
    if "matches" in d:
        return render_match_swing(d)
    return rr_render.swing(dict(d, scenario=f"{d['scenario']} (event {d['event']}, group round)"))


def whocan(d: dict) -> str:
    header = [(f"{d['scenario']}  at {d['at']}: {d['games_left']} group games and "
               f"{d['matches_left']} knock-out matches left")]
    if d.get("draws"):
        ev = ", ".join(map(str, d["undrawn_events"]))
        header.append(f"groups of event(s) {ev} not drawn yet: "
                      + ("taken as drawn in the file" if d["draws"] == "as-drawn" else
                         "the snake groups" if d["draws"] == "snake" else
                         f"{d['draws']} considered"))

    def path(r):
        lines = r.get("says") or []
        out = []
        for k, line in enumerate(lines):
            out += textwrap.wrap(line, 84, initial_indent="e.g. " if k == 0 else "     ",
                                 subsequent_indent="       ")
        if lines:
            out.append(f"     (every game of this path: {len(r['path'])} results in --json)")
        return out

    text = render_targets(d, header,
                          qualify_title=f"a qualifying place (top {d['qualifying_places']})",
                          level="lots decide", path_lines=path)
    if any(r["status"] == "undetermined" for rows in d["targets"].values() for r in rows):
        text += ("\n\nundetermined: the exact search used its work budget "
                 f"({d['budget_nodes']} solver nodes) before settling these rows")
    return text
