"""Text of the round-robin reports: standings, odds, swing, whocan."""

from __future__ import annotations

from ...whocan.render import render_targets
from .rules import CRITERION_TEXT as CRITERIA_TEXT
from .rules import fmt_points

RESULTS = ("1-0", "1/2-1/2", "0-1")


def standings(d: dict) -> str:
    done, last = d.get("rounds_complete", d["rounds_played"]), d["rounds_played"]
    played = (f"rounds played: {done}" if done == last else
              f"rounds played: {done}, round {last} in progress")
    lines = [f"{d['scenario']}  at {d['at']}  ({played}{', final' if d['final'] else ''})", ""]
    head = f"{'rank':>5}  {'player':<26}{'pts':>6}{'SB':>8}{'wins':>6}{'games':>7}"
    if d["final"]:
        head += f"{'prize ' + (d['currency'] or ''):>14}"
    lines += [head, "-" * len(head)]
    for p in d["players"]:
        rank = ("=" if p["shared"] else "") + str(p["rank"])
        line = (f"{rank:>5}  {p['name'][:25]:<26}{fmt_points(p['points']):>6}{p['sb']:8.2f}"
                f"{p['wins']:6d}{p['games']:7d}")
        if d["final"]:
            line += f"{p['prize']:14,.0f}"
        if p.get("ahead_by"):
            line += f"  {p['ahead_by']}"
        lines.append(line)
    lines += ["", "pts points; SB Sonneborn-Berger (sum of the points of the opponents beaten plus "
              "half those drawn with); =k a rank shared on every criterion (=1 also: level where "
              "the rules leave first place to a play-off); order of criteria: "
              + ", ".join(CRITERIA_TEXT.get(c, c) for c in d["criteria"])]
    if d.get("prize_total") is not None:
        lines.append(f"prize money in all: {d['prize_total']:,.0f} {d['currency']}"
                     + ("; players level on points share their places' money"
                        if d.get("prize_split") == "points" else ""))
    if d.get("prize_warning"):
        lines.append("warning: " + d["prize_warning"])
    if d.get("note"):
        lines.append("note: " + d["note"])
    return "\n".join(lines)


def odds(d: dict) -> str:
    lines = [f"{d['scenario']}  at {d['at']}: {len(d['games'])} games to play "
             f"({d['control']}, model {d['model']['name']} {d['model']['version']})", ""]
    head = f"{'round':>5}  {'White':<24}{'Black':<24}{'1-0 %':>7}{'draw %':>8}{'0-1 %':>7}"
    lines += [head, "-" * len(head)]
    for g in d["games"]:
        lines.append(f"{g['round']:>5}  {g['white'][:23]:<24}{g['black'][:23]:<24}"
                     f"{100 * g['p_white']:7.1f}{100 * g['p_draw']:8.1f}{100 * g['p_black']:7.1f}")
    return "\n".join(lines)


def swing(d: dict) -> str:
    from ..shared.swing import NOISE_LEGEND, header, shown, swing_text

    qual = d.get("qualifying_places", 1) > 1      # else P(qualify) is P(1st)
    lines = [header(d, f"what round {d['round']} swings"), ""]
    for g in d["games"]:
        lines.append(f"{g['white']} - {g['black']}   1-0 {100 * g['p_white']:.0f} %  "
                     f"draw {100 * g['p_draw']:.0f} %  0-1 {100 * g['p_black']:.0f} %")
        head = f"  {'player':<24}{'P(1st) % if 1-0 / = / 0-1':>27}"
        if qual:
            head += f"{'P(qualify) % if 1-0 / = / 0-1':>31}"
        lines.append(head + f"{'swing 1st':>13}" + (f"{'swing qual':>13}" if qual else ""))
        rows = [p for p in g["players"] if shown(p)]
        for p in rows:
            f = " / ".join(f"{100 * p['p_first'][k]:5.1f}" for k in RESULTS)
            line = f"  {p['name'][:23]:<24}{f:>27}"
            if qual:
                q = " / ".join(f"{100 * p['p_qualify'][k]:5.1f}" for k in RESULTS)
                line += f"{q:>31}"
            line += f"{swing_text(p, 'first'):>13}"
            if qual:
                line += f"{swing_text(p, 'qualify'):>13}"
            lines.append(line)
        if not rows:
            lines.append("  (no one's odds move by half a point or more)")
        lines.append("")
    lines.append(NOISE_LEGEND)
    return "\n".join(lines).rstrip()


def whocan(d: dict) -> str:
    def path(r):
        out = [("in words: " if k == 0 else "          ") + line
               for k, line in enumerate(r.get("says") or [])]
        if r["path"] and len(r["path"]) <= 12:
            out.append("e.g. " + "; ".join(f"r{g['round']} {g['white']} {g['result']} "
                                           f"{g['black']}" for g in r["path"]))
        return out

    level = ("level on every compared criterion: a play-off or lots decide"
             if d.get("compared", "points") != "points" else "level on points, tiebreaks decide")
    return render_targets(d, [f"{d['scenario']}  at {d['at']}: {d['games_left']} games left; "
                              f"compared: {d.get('compared', 'points')}"],
                          qualify_title=f"a qualifying place (top {d['qualifying_places']})",
                          level=level, path_lines=path, fmt_points=fmt_points)
