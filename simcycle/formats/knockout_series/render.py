"""Text of the knock-out-series reports: standings, odds, swing, whocan."""

from __future__ import annotations

from ...whocan.render import render_targets


def standings(d: dict) -> str:
    evs = d["events"]
    lines = [f"{d['scenario']}  at {d['at']}" + ("" if d["complete"] else
                                                  "  (series not complete)"), ""]
    head = (f"{'#':>3} {'player':<26}" + "".join(f"{e[:9]:>10}" for e in evs)
            + f"{'GP':>5}{'TB1':>5}{'TB2':>5}{'TB3':>6}{'prize':>12}  status")
    lines += [head, "-" * len(head)]
    for p in d["players"]:
        cells = "".join(f"{'-' if x is None else x:>10}" for x in p["events"])
        cp = p["classical_points"]
        cps = f"{int(cp)}½" if cp % 1 else f"{int(cp)}"
        lines.append(f"{p['rank']:>3} {p['name'][:25]:<26}{cells}{p['points']:>5}"
                     f"{p['events_won']:>5}{p['second_places']:>5}{cps:>6}{p['prize']:>12,.2f}"
                     f"  {p['status'] or ''}")
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


def swing(d: dict) -> str:
    """Also the group series' knock-out matches (``group_series.render_swing``)."""
    lines = [f"{d['scenario']}  at {d['at']}: what the next matches swing "
             f"({d['sims']:,} simulations per result, common random numbers)", ""]
    for m in d["matches"]:
        lines.append(f"{m['event']} {m['round']}: {m['players'][0]} v {m['players'][1]}")
        for k, o in enumerate(m["outcomes"]):
            lines.append(f"  ({k + 1}) {o['result']:<52}{100 * o['p']:5.1f} %")
        k = len(m["outcomes"])
        cols = "/".join(f"({i + 1})" for i in range(k))
        lines.append(f"  {'player':<26}{'P(1st) % if ' + cols:>{8 * k + 8}}"
                     f"{'P(qualify) % if ' + cols:>{8 * k + 12}}")
        for p in m["swing"]:
            if p["swing_first"] < 0.005 and p["swing_qualify"] < 0.005:
                continue
            f = " / ".join(f"{100 * x:5.1f}" for x in p["p_first"])
            q = " / ".join(f"{100 * x:5.1f}" for x in p["p_qualify"])
            lines.append(f"  {p['name'][:25]:<26}{f:>{8 * k + 8}}{q:>{8 * k + 12}}")
        lines.append("")
    return "\n".join(lines).rstrip()


def _path(r: dict) -> list[str]:
    if not r["path"]:
        return []
    if len(r["path"]) <= 8:
        return ["e.g. " + "; ".join(f"{g['event']} {g['round']}: {g['result']}"
                                    for g in r["path"])]
    own = [g for g in r["path"] if r["name"] in g["players"]]
    mine = "; ".join(f"{g['event']} {g['round']}: {g['result']}" for g in own)
    return [f"e.g. (all {len(r['path'])} matches in --json)"
            + (f" his own: {mine}" if own else " he has no match left")]


def whocan(d: dict) -> str:
    return render_targets(
        d, [f"{d['scenario']}  at {d['at']}: {d['matches_left']} matches left; compared on "
            + ", ".join(d["criteria"]) + " (then head-to-head / lots = tiebreak)"],
        qualify_title=f"a qualifying place (top {d['qualifying_places']} not qualified "
                      "elsewhere)",
        level="head-to-head / lots decide", path_lines=_path)
