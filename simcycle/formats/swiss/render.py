"""Text of the Swiss reports: standings (every tie-break value), odds, whocan, swing (the round
robin's table: a board swings the same way as a game)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...report.table import Column, Table, rank_text, to_text, wrapped_words

if TYPE_CHECKING:   # the typed results (imported when a renderer runs)
    from ...api.results import Odds, Standings


def fmt_points(x: float) -> str:
    whole = int(x)
    return (str(whole) if whole or x == 0 else "") + ("½" if x - whole else "")


def _fmt(v: float) -> str:
    return f"{v:g}" if v == int(v) else f"{v:.2f}".rstrip("0")


def standings_tables(st: Standings) -> Table | list[Table]:
    """The Swiss table through the table model: every tie-break value in the scenario's order,
    the qualifying marks, the prize once final."""
    x = st.extra
    cols = [Column(key="rank", label="rank", align="right", width=5),
            Column(key="name", label="player", width=27),
            Column(key="rating", label="rating", align="right"),
            Column(key="pts", label="pts", align="right")]
    cols += [Column(key=f"c{k}", label=c, align="right")
             for k, c in enumerate(x["criteria_c07"])]
    cols.append(Column(key="mark", label=""))
    rows = []
    for p in st.players:
        mark = ("Q" if p.extra["in_qualifying_place"] else
                "(qualified)" if p.extra["qualified_before"] else "")
        if x["final"] and p.extra.get("prize") is not None:
            mark += f"  {p.extra['prize']:,.0f} {x['currency']}"
        r = {"rank": rank_text(p),
             "name": (p.extra["title"] + " " if p.extra["title"] else "") + p.name,
             "rating": f"{p.extra['rating']:.0f}", "pts": fmt_points(p.points), "mark": mark}
        r.update({f"c{k}": _fmt(p.extra["tiebreaks"][c]) for k, c in enumerate(x["criteria"])})
        rows.append(r)
    legend = ["pts points; " + "; ".join(f"{k} {v}" for k, v in x["criteria_legend"].items()),
              "=k a rank level on points and every tie-break (lots would decide); "
              f"Q a qualifying place (top {x['qualifying_places']}"
              + (", a place whose holder is already qualified passing down)"
                 if x["pass_down"] else ")"),
              "tie-breaks in order: " + ", ".join(x["criteria_c07"]) + " (FIDE C.07; unplayed "
              "rounds by its Article 16)"]
    return (Table(title=f"{st.scenario}  at {st.at}  (rounds played: "
                               f"{x['rounds_played']} of {x['rounds']}"
                               f"{', final' if x['final'] else ''})",
                         columns=cols, rows=rows, legend=legend))


def standings(d: dict) -> str:
    from ...api.results import Standings
    return to_text(standings_tables(Standings.from_json(d)))


def odds_tables(od: Odds) -> Table | list[Table]:
    """The next round's boards: published, or (not yet published) predicted by the Dutch
    pairing kernel from the results so far, with the note that says so."""
    x = od.extra
    predicted = bool(x.get("predicted"))
    state = ("published pairings" if x["published"] else
             "predicted pairings" if predicted else "not paired yet")
    title = (f"{od.scenario}  at {od.at}: round {x['round']} "
             f"({state}; model {x['model']['name']} {x['model']['version']})")
    if not (x["published"] or predicted):
        return Table(title=title, notes=[x["note"]])
    notes = ([f"bye: {x['bye']} (pairing-allocated bye)"] if x.get("bye") else []) + (
        [x["note"]] if predicted else [])
    return (Table(title=title, columns=[
        Column(key="board", label="board", kind="int", width=5),
        Column(key="white", label="White", width=24), Column(key="black", label="Black",
                                                             width=24),
        Column(key="p_white", label="1-0 %", kind="pct"),
        Column(key="p_draw", label="draw %", kind="pct"),
        Column(key="p_black", label="0-1 %", kind="pct")],
        rows=[{"board": k, **g.to_json()} for k, g in enumerate(od.items, 1)],
        legend=["1-0 %, draw %, 0-1 %: the chance of each result (the outcome model)"],
        notes=notes))


def odds(d: dict) -> str:
    from ...api.results import Odds
    return to_text(odds_tables(Odds.from_json(d)))


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
                lines += wrapped_words(r.get("says"))
        lines.append("")
    lines += ["undetermined: whether it can still happen depends on pairings not yet made "
              "(never a guess).",
              f"Level on points: the tie-breaks decide, in order: {d['tiebreaks']}."]
    return "\n".join(lines)


def swing_tables(sw):
    """The next round's boards, each with the players it moves (the round robin's table)."""
    from ..roundrobin.render import swing_tables as rr_swing_tables
    return rr_swing_tables(sw)


def swing(d: dict) -> str:
    from ..roundrobin.render import swing as rr_swing
    return rr_swing(d)
