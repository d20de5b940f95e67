"""Text of the tour reports: standings, odds, swing and whocan."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...report.table import Column, Table, rank_text, swing_tables, to_text
from ...report.table import whocan_tables as targets_tables
from ..knockout_series.render import says_lines

if TYPE_CHECKING:   # the typed results (imported when a renderer runs)
    from ...api.results import Odds, Standings, Whocan

QUALIFIED_MARK = {True: "q", False: "", None: "?"}   # "Q" once the season is final


def _events_table(events: list[dict]) -> Table:
    return Table(title="events:", columns=[
        Column(key="number", label="E", kind="int"), Column(key="start", label="start"),
        Column(key="name", label="event", width=30), Column(key="system", label="system"),
        Column(key="kind", label="kind"), Column(key="strength", label="R", kind="num"),
        Column(key="level", label="level"), Column(key="declined", label="")],
        rows=[{**e, "level": e["level"] or "-",
               "declined": "" if e["joined"] else "(organisers declined)"} for e in events])


def standings_tables(st: Standings) -> Table | list[Table]:
    """The tour table through the table model: total, counted events, the totals without the
    worst results (the tiebreaks), the qualification mark and every event's points."""
    x = st.extra
    final = x["final"]
    head = Table(title=f"{st.scenario}  at {st.at}  (events played: {x['events_played']} of "
                       f"{x['events_total']}{', final' if final else ''})",
                 intro=[f"points tables: {x['points_tables']}",
                        f"best {x['best_n']} results count; top {x['qualifying_places']} "
                        "qualify (ties: fewer counted events, then without the worst result, "
                        "..., then lots)"])
    cols = [Column(key="rank", label="rank", align="right", width=5),
            Column(key="name", label="player", width=24),
            Column(key="total", label="total", kind="num"),
            Column(key="counted", label="cnt", kind="int"),
            Column(key="w1", label="-1 worst", kind="num"),
            Column(key="w2", label="-2 worst", kind="num"),
            Column(key="q", label="Q")]
    cols += [Column(key=f"e{k}", label=f"E{e['number']}", kind="num")
             for k, e in enumerate(x["events"])]
    rows = []
    for p in st.players:
        ww = p.extra["without_worst"] + [None, None]
        q = ("Q" if p.extra["qualified"] is True and final
             else QUALIFIED_MARK[p.extra["qualified"]])
        r = {"rank": rank_text(p), "name": p.name,
             "total": p.extra["total"], "counted": p.extra["counted"], "w1": ww[0],
             "w2": ww[1], "q": q}
        r.update({f"e{k}": v for k, v in enumerate(p.extra["events"])})
        rows.append(r)
    legend = ["Q qualified, q in a qualifying place now, ? level with the last qualifier "
              "(lots); '-' did not play"]
    if st.note:
        legend.append("note: " + st.note)
    out = [head]
    if x["events"]:
        out.append(_events_table(x["events"]))
    out.append(Table(title="players:", columns=cols, rows=rows, legend=legend))
    return out


def standings(d: dict) -> str:
    from ...api.results import Standings
    return to_text(standings_tables(Standings.from_json(d)))


def odds_tables(od: Odds) -> Table | list[Table]:
    m = od.extra["model"]
    out = [Table(title=f"{od.scenario}  at {od.at}: {len(od.items)} events to play "
                       f"(model {m['name']} {m['version']}; {od.extra['sims_per_event']:,} "
                       f"runs of each event, seed {od.extra['seed']})",
                 intro=[f"points tables: {od.extra['points_tables']}"])]
    for ev in od.items:
        e = ev.to_json()
        shown = min(e["places_paying"], 8)
        cols = [Column(key="name", label="player", width=24),
                Column(key="expected_points", label="exp. ACP", kind="num")]
        cols += [Column(key=f"p{k}", label=f"P{k + 1}", kind="pct") for k in range(shown)]
        rows = [{"name": p["name"] + ("" if p["member"] else " (not ACP)"),
                 "expected_points": p["expected_points"],
                 **{f"p{k}": x for k, x in enumerate(p["p_place"][:shown])}}
                for p in e["players"]]
        out.append(Table(
            title=f"E{e['number']} {e['start']}  {e['name']}  {e['system']} {e['kind']}, "
                  f"R {e['strength']:.1f} ({e['strength_from']}), level {e['level'] or '-'}"
                  f"{'' if e['joined'] else ', organisers declined'}; "
                  f"{e['places_paying']} places pay", columns=cols, rows=rows))
    out.append(Table(title="", legend=["exp. ACP: expected ACP points from the event; Pk: "
                                       "chance of place k, in %"]))
    return out


def odds(d: dict) -> str:
    from ...api.results import Odds
    return to_text(odds_tables(Odds.from_json(d)))


def whocan_tables(w: Whocan) -> Table | list[Table]:
    notes = []
    if any(r.status == "undetermined" for rows in w.targets.values() for r in rows):
        notes.append("undetermined: neither the key bounds (cannot) nor a result set found "
                     f"within the work budget ({w.budget_nodes} result sets; can) settle these "
                     "rows")
    return (targets_tables(
        w, [f"{w.scenario}  at {w.at}: {w.events_left} events left; best "
            f"{w.best_n} results count; compared on the total, then fewer counted events, "
            "then the total without the worst result, ... (then lots)"],
        qualify_title=f"a qualifying place (top {w.qualifying_places})",
        level="lots decide", path_lines=says_lines, fmt_points=lambda v: f"{v:.2f}",
        notes=notes))



def whocan(d: dict) -> str:
    from ...api.results import Whocan
    return to_text(whocan_tables(Whocan.from_json(d)))


def swing(d: dict) -> str:
    """Each member's place in the next event: its branches with their shares, and every
    member's odds under each (the shared swing tables)."""
    from ...api.results import Swing
    return to_text(swing_tables(Swing.from_json(d)))
