"""Text of the round-robin reports: standings, odds, swing, whocan."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...report.table import Column, Table, rank_text, swing_tables, to_text, words_lines
from ...report.table import whocan_tables as targets_tables
from .rules import CRITERION_TEXT as CRITERIA_TEXT
from .rules import fmt_points

if TYPE_CHECKING:   # the typed results (imported when a renderer runs)
    from ...api.results import Odds, Standings, Whocan

RESULTS = ("1-0", "1/2-1/2", "0-1")


def standings_tables(st: Standings) -> Table | list[Table]:
    """The standings through the table model: rank, points, Sonneborn-Berger, wins, games
    (and the prize once final), what separates a player from the next, the legend."""
    x = st.extra
    done, last = x.get("rounds_complete", x["rounds_played"]), x["rounds_played"]
    played = (f"rounds played: {done}" if done == last else
              f"rounds played: {done}, round {last} in progress")
    cols = [Column(key="rank", label="rank", align="right", width=5),
            Column(key="name", label="player", width=24),
            Column(key="pts", label="pts", align="right"),
            Column(key="sb", label="SB", kind="num"),
            Column(key="wins", label="wins", kind="int"),
            Column(key="games", label="games", kind="int")]
    if x["final"]:
        cols.append(Column(key="prize", label=f"prize {x['currency'] or ''}".strip(),
                           kind="money"))
    cols.append(Column(key="ahead_by", label=""))
    rows = [{"rank": rank_text(p), "name": p.name,
             "pts": fmt_points(p.points), "sb": p.extra["sb"], "wins": p.extra["wins"],
             "games": p.extra["games"], "prize": p.extra.get("prize"),
             "ahead_by": p.extra.get("ahead_by") or ""} for p in st.players]
    legend = ["pts points; SB Sonneborn-Berger (sum of the points of the opponents beaten plus "
              "half those drawn with); =k a rank shared on every criterion (=1 also: level "
              "where the rules leave first place to a play-off); order of criteria: "
              + ", ".join(CRITERIA_TEXT.get(c, c) for c in x["criteria"])]
    if x.get("prize_total") is not None:
        legend.append(f"prize money in all: {x['prize_total']:,.0f} {x['currency']}"
                      + ("; players level on points share their places' money"
                         if x.get("prize_split") == "points" else ""))
    if x.get("prize_warning"):
        legend.append("warning: " + x["prize_warning"])
    if st.note:
        legend.append("note: " + st.note)
    return (Table(title=f"{st.scenario}  at {st.at}  ({played}"
                               f"{', final' if x['final'] else ''})",
                         columns=cols, rows=rows, legend=legend))


def standings(d: dict) -> str:
    from ...api.results import Standings
    return to_text(standings_tables(Standings.from_json(d)))


def odds_tables(od: Odds) -> Table | list[Table]:
    m = od.extra["model"]
    cols = [Column(key="round", label="round", kind="int", width=5),
            Column(key="white", label="White", width=22),
            Column(key="black", label="Black", width=22),
            Column(key="p_white", label="1-0 %", kind="pct"),
            Column(key="p_draw", label="draw %", kind="pct"),
            Column(key="p_black", label="0-1 %", kind="pct")]
    rows = [g.to_json() for g in od.items]
    return (Table(
        title=f"{od.scenario}  at {od.at}: {len(rows)} games to play "
              f"({od.extra['control']}, model {m['name']} {m['version']})",
        columns=cols, rows=rows,
        legend=["1-0 %, draw %, 0-1 %: the chance of each result (the outcome model)"]))


def odds(d: dict) -> str:
    from ...api.results import Odds
    return to_text(odds_tables(Odds.from_json(d)))


def swing(d: dict) -> str:
    from ...api.results import Swing
    return to_text(swing_tables(Swing.from_json(d)))


def whocan_tables(w: Whocan) -> Table | list[Table]:

    def path(r):
        out = words_lines(r.says)
        if r.path and len(r.path) <= 12:
            out.append("e.g. " + "; ".join(s.words() for s in r.path))
        return out

    compared = w.compared if isinstance(w.compared, str) else "points"
    level = ("level on every compared criterion: a play-off or lots decide"
             if compared != "points" else "level on points, tiebreaks decide")
    return (targets_tables(
        w, [f"{w.scenario}  at {w.at}: {w.games_left} games left; compared: {compared}"],
        qualify_title=f"a qualifying place (top {w.qualifying_places})", level=level,
        path_lines=path, fmt_points=fmt_points))



def whocan(d: dict) -> str:
    from ...api.results import Whocan
    return to_text(whocan_tables(Whocan.from_json(d)))
