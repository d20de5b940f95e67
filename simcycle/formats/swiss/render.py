"""Text of the Swiss reports: standings (every tie-break value), odds, whocan."""

from __future__ import annotations

import textwrap


def fmt_points(x: float) -> str:
    whole = int(x)
    return (str(whole) if whole or x == 0 else "") + ("½" if x - whole else "")


def _fmt(v: float) -> str:
    return f"{v:g}" if v == int(v) else f"{v:.2f}".rstrip("0")


def standings(d: dict) -> str:
    lines = [f"{d['scenario']}  at {d['at']}  (rounds played: {d['rounds_played']} of "
             f"{d['rounds']}{', final' if d['final'] else ''})", ""]
    cols = d["criteria_c07"]
    head = f"{'rank':>5}  {'player':<28}{'rating':>7}{'pts':>6}" + "".join(
        f"{c:>9}" for c in cols) + "  "
    lines += [head, "-" * len(head)]
    for p in d["players"]:
        rank = ("=" if p["shared"] else "") + str(p["rank"])
        name = (p["title"] + " " if p["title"] else "") + p["name"]
        mark = " Q" if p["in_qualifying_place"] else ("  (qualified)" if p["qualified_before"]
                                                       else "")
        line = (f"{rank:>5}  {name[:27]:<28}{p['rating']:7.0f}{fmt_points(p['points']):>6}"
                + "".join(f"{_fmt(p['tiebreaks'][c]):>9}" for c in d["criteria"]) + mark)
        if d["final"] and p.get("prize") is not None:
            line += f"  {p['prize']:,.0f} {d['currency']}"
        lines.append(line)
    lines += ["", "pts points; " + "; ".join(f"{k} {v}" for k, v in
                                             d["criteria_legend"].items()),
              "=k a rank level on points and every tie-break (lots would decide); "
              f"Q a qualifying place (top {d['qualifying_places']}"
              + (", a place whose holder is already qualified passing down)"
                 if d["pass_down"] else ")"),
              "tie-breaks in order: " + ", ".join(cols) + " (FIDE C.07; unplayed rounds by "
              "its Article 16)"]
    return "\n".join(lines)


def odds(d: dict) -> str:
    state = ("published pairings" if d["published"] else
             "predicted pairings" if d.get("predicted") else "not paired")
    lines = [f"{d['scenario']}  at {d['at']}: round {d['round']} "
             f"({state}; model {d['model']['name']} {d['model']['version']})", ""]
    if d.get("predicted"):
        import textwrap
        lines += textwrap.wrap(d["note"], 92) + [""]
    if d["games"]:
        head = (f"{'board':>5}  {'White':<26}{'Black':<26}{'1-0 %':>7}{'draw %':>8}"
                f"{'0-1 %':>7}")
        lines += [head, "-" * len(head)]
        for k, g in enumerate(d["games"], 1):
            lines.append(f"{k:>5}  {g['white'][:25]:<26}{g['black'][:25]:<26}"
                         f"{100 * g['p_white']:7.1f}{100 * g['p_draw']:8.1f}"
                         f"{100 * g['p_black']:7.1f}")
        if d.get("bye"):
            lines.append(f"{'bye':>5}  {d['bye']} (pairing-allocated bye)")
        lines += ["", "1-0 % / draw % / 0-1 %: the outcome model's probabilities of each "
                  "board's result"]
    else:
        lines.append(d["note"])
    return "\n".join(lines)


def whocan(d: dict) -> str:
    """Rows by status; alive rows with the rule that gets them there, in words."""
    from ...whocan.core import STATUSES
    pub = (f"round {d['published_round']} published" if d["published_round"]
           else "no round published")
    lines = [f"{d['scenario']}  at {d['at']}: {d['rounds_left']} round(s) left ({pub}); on "
             "points, for every pairing of the rounds not yet published", ""]
    for target, rows in d["targets"].items():
        title = ("first place" if target == "first" else
                 f"a qualifying place (top {d['qualifying_places']}"
                 + (", passing down)" if d["pass_down"] else ")"))
        lines.append(f"Who can still take {title}:")
        for r in sorted(rows, key=lambda r: STATUSES.index(r["status"])):
            pts = fmt_points(d["points"][r["name"]])
            head = f"  {r['status']:<12} {r['name'][:25]:<26}{pts:>5}"
            if r["status"] == "alive":
                head += ("  outright" if r["via"] == "outright" else
                         "  only level on points (tie-breaks decide)")
                head += {"tiebreak": "; cannot be passed, at worst level", "out": "",
                         None: "; can it still drop out? depends on the pairings"}[r["at_worst"]]
            elif r["status"] == "n/a":
                head += "  qualified already"
            lines.append(head)
            if r["status"] != "n/a":
                for k, s in enumerate(r.get("says") or []):
                    lines += textwrap.wrap(s, 96, initial_indent="               "
                                           + ("in words: " if k == 0 else "          "),
                                           subsequent_indent=" " * 25)
        lines.append("")
    lines += ["undetermined: whether it can still happen depends on pairings not yet made "
              "(never a guess).",
              f"Level on points: the tie-breaks decide, in order: {d['tiebreaks']}."]
    return "\n".join(lines)
