"""Text of the knock-out-series reports: standings, odds, swing, whocan."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from ...report.table import Column, Table, swing_tables, to_text
from ...report.table import whocan_tables as targets_tables
from ..shared.entries import LEGEND, cell

if TYPE_CHECKING:   # the typed results (imported when a renderer runs)
    from ...api.results import Odds, Standings, Whocan


def standings_tables(st: Standings) -> Table | list[Table]:
    """The series table through the table model: a column per event (points so far, the
    marks of ``shared/entries.py``), the series points and tiebreaks, prize and status."""
    x = st.extra
    evs = x["events"]
    cols = [Column(key="rank", label="#", kind="int", width=3),
            Column(key="name", label="player", width=24)]
    cols += [Column(key=f"e{k}", label=e[:9], align="right") for k, e in enumerate(evs)]
    cols += [Column(key="points", label="GP", kind="int"),
             Column(key="events_won", label="TB1", kind="int"),
             Column(key="second_places", label="TB2", kind="int"),
             Column(key="cp", label="TB3", align="right"),
             Column(key="prize", label="prize", kind="money"),
             Column(key="status", label="status")]
    rows = []
    for p in st.players:
        cp = p.extra["classical_points"]
        r = {"rank": p.rank, "name": p.name, "points": p.points,
             "events_won": p.extra["events_won"], "second_places": p.extra["second_places"],
             "cp": f"{int(cp)}½" if cp % 1 else f"{int(cp)}", "prize": p.extra["prize"],
             "status": p.extra["status"] or ""}
        r.update({f"e{k}": cell(v, s) for k, (v, s) in
                  enumerate(zip(p.extra["events"], p.extra["entries"]))})
        rows.append(r)
    return (Table(
        title=f"{st.scenario}  at {st.at}" + ("" if x["complete"] else "  (series not complete)"),
        columns=cols, rows=rows,
        legend=["event columns: Grand Prix points (still playing: points secured so far); "
                + LEGEND,
                "GP Grand Prix points; TB1 events won; TB2 second places; TB3 classical game "
                f"points; prize in {x['currency'] or 'the prize currency'} (events and "
                "series)"]))


def standings(d: dict) -> str:
    from ...api.results import Standings
    return to_text(standings_tables(Standings.from_json(d)))


def match_odds_table(od, title: str, *, short=lambda e: e) -> Table:
    """The matches whose players are known: each player's chance to win the match, and the
    chance the classical games are level (tiebreaks)."""
    rows = []
    for m in od.matches or []:
        a, b = m.extra["players"]
        rows.append({"event": short(m.extra["event"]), "round": m.round, "a": a,
                     "p_a": m.extra["p_win"][0], "b": b, "p_b": m.extra["p_win"][1],
                     "p_tiebreak": m.extra["p_tiebreak"]})
    return Table(title=title, columns=[
        Column(key="event", label="event", width=13), Column(key="round", label="round",
                                                             width=12),
        Column(key="a", label="player", width=22), Column(key="p_a", label="wins %", kind="pct"),
        Column(key="b", label="player", width=22), Column(key="p_b", label="wins %", kind="pct"),
        Column(key="p_tiebreak", label="tiebreaks %", kind="pct")], rows=rows,
        legend=["wins % = chance to win the match (classical games, then rapid, blitz and "
                "Armageddon while level); tiebreaks = chance the classical games are level"]
        if rows else [],
        notes=[] if rows else ["(none: every match is decided or waits for an earlier one)"])


def odds_tables(od: Odds) -> Table | list[Table]:
    return (match_odds_table(
        od, f"{od.scenario}  at {od.at}: matches whose players are known"))


def odds(d: dict) -> str:
    from ...api.results import Odds
    return to_text(odds_tables(Odds.from_json(d)))


def swing(d: dict) -> str:
    from ...api.results import Swing
    return to_text(swing_tables(Swing.from_json(d)))


def says_lines(r) -> list[str]:
    """A live player's path in sentences (``says``), wrapped: "e.g. " the first."""
    out = []
    for k, line in enumerate(r.says or []):
        out += textwrap.wrap(line, 84, initial_indent="e.g. " if k == 0 else "     ",
                             subsequent_indent="       ")
    return out


def whocan_tables(w: Whocan) -> Table | list[Table]:
    return (targets_tables(
        w, [f"{w.scenario}  at {w.at}: {w.matches_left} matches left; compared on "
            + ", ".join(w.criteria or []) + " (then head-to-head / lots = tiebreak)"],
        qualify_title=f"a qualifying place (top {w.qualifying_places} not qualified "
                      "elsewhere)",
        level="head-to-head / lots decide", path_lines=says_lines))



def whocan(d: dict) -> str:
    from ...api.results import Whocan
    return to_text(whocan_tables(Whocan.from_json(d)))
