"""Text of the tour reports: standings, odds and whocan."""

from __future__ import annotations

import textwrap

from ...whocan.render import render_targets

QUALIFIED_MARK = {True: "q", False: "", None: "?"}   # "Q" once the season is final


def _event_line(e: dict) -> str:
    return (f"  E{e['number']:<3}{e['start']}  {e['name'][:34]:<35}{e['system']:<5}"
            f"{e['kind']:<11}R {e['strength']:7.1f}  level {e['level'] or '-':<3}"
            f"{'' if e['joined'] else ' (organisers declined)'}")


def _player_line(p: dict, final: bool) -> str:
    rank = ("=" if p["shared"] else "") + str(p["rank"])
    ww = p["without_worst"] + [None, None]
    q = "Q" if p["qualified"] is True and final else QUALIFIED_MARK[p["qualified"]]
    return (f"{rank:>5}  {p['name'][:25]:<26}{p['total']:8.2f}{p['counted']:4d}"
            + "".join(f"{x:9.2f}" if x is not None else f"{'':9}" for x in ww[:2])
            + f"  {q:<3}" + "".join(f"{x:8.2f}" if x is not None else f"{'.':>8}"
                                    for x in p["events"]))


def standings(d: dict) -> str:
    lines = [f"{d['scenario']}  at {d['at']}  (events played: {d['events_played']} of "
             f"{d['events_total']}{', final' if d['final'] else ''})",
             f"points tables: {d['points_tables']}",
             f"best {d['best_n']} results count; top {d['qualifying_places']} qualify "
             "(ties: fewer counted events, then without the worst result, ..., then lots)", ""]
    if d["events"]:
        lines += ["events:", *(_event_line(e) for e in d["events"]), ""]
    ev_cols = "".join(f"{'E' + str(e['number']):>8}" for e in d["events"])
    head = (f"{'rank':>5}  {'player':<26}{'total':>8}{'cnt':>4}{'-1 worst':>9}{'-2 worst':>9}"
            f"  {'Q':<3}" + ev_cols)
    lines += [head, "-" * len(head), *(_player_line(p, d["final"]) for p in d["players"]), ""]
    lines.append("Q qualified, q in a qualifying place now, ? level with the last qualifier "
                 "(lots); '.' did not play")
    if d.get("note"):
        lines.append("note: " + d["note"])
    return "\n".join(lines)


def _odds_event(e: dict) -> list[str]:
    lines = [f"E{e['number']} {e['start']}  {e['name']}  {e['system']} {e['kind']}, "
             f"R {e['strength']:.1f} ({e['strength_from']}), level {e['level'] or '-'}"
             f"{'' if e['joined'] else ', organisers declined'}; "
             f"{e['places_paying']} places pay"]
    shown = min(e["places_paying"], 8)
    head = f"  {'player':<26}{'exp. ACP':>9}  " + " ".join(f"{'P' + str(k + 1):>5}"
                                                         for k in range(shown))
    lines += [head, "  " + "-" * (len(head) - 2)]
    for p in e["players"]:
        tag = "" if p["member"] else " (not ACP)"
        lines.append(f"  {(p['name'] + tag)[:25]:<26}{p['expected_points']:9.2f}  "
                     + " ".join(f"{100 * x:5.1f}" for x in p["p_place"][:shown]))
    return lines + [""]


def odds(d: dict) -> str:
    lines = [f"{d['scenario']}  at {d['at']}: {len(d['events'])} events to play "
             f"(model {d['model']['name']} {d['model']['version']}; {d['sims_per_event']:,} "
             f"runs of each event, seed {d['seed']})",
             f"points tables: {d['points_tables']}", ""]
    for e in d["events"]:
        lines += _odds_event(e)
    return "\n".join(lines)


def whocan(d: dict) -> str:
    def path(r):
        out = []
        for k, line in enumerate(r.get("says") or []):
            out += textwrap.wrap(line, 84, initial_indent="e.g. " if k == 0 else "     ",
                                 subsequent_indent="       ")
        return out

    text = render_targets(
        d, [f"{d['scenario']}  at {d['at']}: {d['events_left']} events left; best "
            f"{d['best_n']} results count; compared on the total, then fewer counted events, "
            "then the total without the worst result, ... (then lots)"],
        qualify_title=f"a qualifying place (top {d['qualifying_places']})",
        level="lots decide", path_lines=path, fmt_points=lambda v: f"{v:.2f}")
    if any(r["status"] == "undetermined" for rows in d["targets"].values() for r in rows):
        text += ("\n\nundetermined: neither the key bounds (cannot) nor a result set found "
                 f"within the work budget ({d['budget_nodes']} result sets; can) settle these "
                 "rows")
    return text
