"""Text of the group-series reports: standings, odds, swing (group games or knock-out
matches), whocan."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...report.table import Column, Table, rank_text, swing_tables, to_text
from ...report.table import whocan_tables as targets_tables
from ..shared.entries import LEGEND, cell
from ..knockout_series.render import match_odds_table, says_lines

if TYPE_CHECKING:   # the typed results (imported when a renderer runs)
    from ...api.results import Odds, Standings, Whocan


def standings_tables(st: Standings) -> Table | list[Table]:
    """The series table through the table model: a column per event, the series points and
    tiebreaks, the prize; group play-offs still to enter as notes."""
    x = st.extra
    cols = [Column(key="rank", label="rank", align="right", width=5),
            Column(key="name", label="player", width=24)]
    cols += [Column(key=f"e{k}", label=ev["name"][:9].strip(), align="right")
             for k, ev in enumerate(x["events"])]
    cols += [Column(key="points", label="total", kind="int"),
             Column(key="events_won", label="TF", kind="int"),
             Column(key="second_places", label="TS", kind="int"),
             Column(key="classical_points", label="GP", align="right"),
             Column(key="classical_wins", label="GW", kind="int"),
             Column(key="prize", label=f"prize {x['currency'] or ''}".strip(), kind="money")]
    rows = []
    for p in st.players:
        r = {"rank": "" if p.rank is None else rank_text(p),
             "name": p.name, "points": p.points,
             **{k: p.extra[k] for k in ("events_won", "second_places", "classical_wins",
                                        "prize")},
             "classical_points": f"{p.extra['classical_points']:g}"}
        r.update({f"e{k}": cell(v, s) for k, (v, s) in
                  enumerate(zip(p.extra["events"], p.extra["entries"]))})
        rows.append(r)
    notes = [f"{ev['name']} group {g['name']}: play-off for first not entered yet"
             for ev in x["events"] for g in ev["groups"] if g["playoff_pending"]]
    return (Table(
        title=f"{st.scenario}  at {st.at}", columns=cols, rows=rows, notes=notes,
        legend=[f"top {x['qualifying_places']} qualify; prize money paid so far: "
                f"{x['prize_total']:,.0f}",
                "event columns: series points; " + LEGEND,
                "total series points; TF events won; TS second places; GP classical game "
                "points; GW classical games won; '=' level on every criterion but lots"]))


def standings(d: dict) -> str:
    from ...api.results import Standings
    return to_text(standings_tables(Standings.from_json(d)))


def odds_tables(od: Odds) -> Table | list[Table]:
    title = f"{od.scenario}  at {od.at}  ({od.extra['control']} games still to play)"
    games = od.games or []
    out = []
    if games:
        out.append(Table(title=title, columns=[
            Column(key="event", label="ev", kind="int"), Column(key="group", label="grp",
                                                                align="right"),
            Column(key="round", label="rd", kind="int"),
            Column(key="white", label="White", width=22),
            Column(key="black", label="Black", width=22),
            Column(key="p_white", label="1-0 %", kind="pct"),
            Column(key="p_draw", label="draw %", kind="pct"),
            Column(key="p_black", label="0-1 %", kind="pct")],
            rows=[{"round": g.round, **g.extra} for g in games],
            legend=["1-0 %, draw %, 0-1 %: the chance of each result (the outcome model)"]))
    elif not od.matches:
        out.append(Table(title=title, notes=["no group games left to play with known "
                                             "pairings"]))
    else:
        out.append(Table(title=title))
    if od.matches:
        out.append(match_odds_table(od, "knock-out matches whose players are known:",
                                    short=lambda e: e.split(" (")[0]))
    if od.notes:
        out.append(Table(title="", notes=list(od.notes)))
    return out


def odds(d: dict) -> str:
    from ...api.results import Odds
    return to_text(odds_tables(Odds.from_json(d)))


def swing(d: dict) -> str:
    from ...api.results import Swing
    return to_text(swing_tables(Swing.from_json(d)))


def whocan_tables(w: Whocan) -> Table | list[Table]:
    header = [(f"{w.scenario}  at {w.at}: {w.games_left} group games and "
               f"{w.matches_left} knock-out matches left")]
    if w.draws:
        ev = ", ".join(map(str, w.undrawn_events or []))
        header.append(f"groups of event(s) {ev} not drawn yet: "
                      + ("taken as drawn in the file" if w.draws == "as-drawn" else
                         "the snake groups" if w.draws == "snake" else
                         f"{w.draws} considered"))

    def path(r):
        out = says_lines(r)
        if r.says:
            out.append(f"     (every game of this path: {len(r.path or [])} results in --json)")
        return out

    notes = []
    if any(r.status == "undetermined" for rows in w.targets.values() for r in rows):
        notes.append("undetermined: the exact search used its work budget "
                     f"({w.budget_nodes} solver nodes) before settling these rows")
    return (targets_tables(
        w, header, qualify_title=f"a qualifying place (top {w.qualifying_places})",
        level="lots decide", path_lines=path, notes=notes))



def whocan(d: dict) -> str:
    from ...api.results import Whocan
    return to_text(whocan_tables(Whocan.from_json(d)))
