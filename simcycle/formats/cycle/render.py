"""Text of the cycle's reports: the seats and their chains (standings), the parts (odds),
what the part in progress swings (the shared swing tables), whocan."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...report.table import Column, Table, swing_tables, to_text, wrapped_words

if TYPE_CHECKING:   # the typed results (imported when a renderer runs)
    from ...api.results import Odds, Standings


def standings_tables(st: Standings) -> Table | list[Table]:
    """The seats and their chains, the parts in playing order, through the table model."""
    x = st.extra
    seats = Table(title=f"{st.scenario}  at {st.at}", columns=[
        Column(key="id", label="seat", width=20), Column(key="path", label="path", width=26),
        Column(key="chain", label="chain (first that yields a player not seated)")],
        rows=[{"id": s["id"], "path": s["path"], "chain": " -> ".join(s["chain"])}
              for s in x["seats"]])
    parts = Table(title="parts, in playing order (checkpoint each is at):", columns=[
        Column(key="id", label="part"), Column(key="name", label="event"),
        Column(key="format", label="format"), Column(key="at", label="at")],
        rows=[dict(p) for p in x["parts"]])
    notes = []
    if x["withdrawn"]:
        notes.append("withdrawn (their seats pass down): " + ", ".join(x["withdrawn"]))
    for nm in x["nominees"]:
        notes.append(f"nominee rule {nm['id']}: reading {nm['reading']}"
                     + (f", pick {nm['pick']}" if nm["pick"] else "")
                     + (f", best of {nm['event']}" if nm["event"] else "")
                     + (f"; picks: {nm['picker']}" if nm["picker"] else ""))
    foot = Table(title="", notes=notes + [
        "A player qualifying twice takes the first seat they reach (seats in priority "
        "order); the other seat passes down its chain."])
    return [seats, parts, foot]


def standings(d: dict) -> str:
    from ...api.results import Standings
    return to_text(standings_tables(Standings.from_json(d)))


def odds_tables(od: Odds) -> Table | list[Table]:
    return (Table(
        title=f"{od.scenario}  at {od.at}: the parts still to play",
        columns=[Column(key="id", label="part"), Column(key="name", label="event"),
                 Column(key="at", label="at"), Column(key="still", label="still to play")],
        rows=[e.to_json() for e in od.items],
        notes=["simcycle odds on each part's own scenario file lists its games and matches."]))



def odds(d: dict) -> str:
    from ...api.results import Odds
    return to_text(odds_tables(Odds.from_json(d)))


def swing(d: dict) -> str:
    """The shared swing tables; "qualify" is a seat in the final, "1st" winning it."""
    from ...api.results import Swing
    sw = Swing.from_json(d)
    return to_text(swing_tables(sw, intro=[
        f"qualify: taking one of the final's {sw.qualifying_places} seats; 1st: winning the "
        f"final.  The games or matches are those of the part in progress ({sw.part}), named "
        "as in its own file."]))


def whocan(d: dict) -> str:
    """One line per player: status, then why or how in words."""
    from ...whocan.core import STATUSES
    lines = [f"{d['scenario']}  at {d['at']}: who can still take one of the {d['seats']} seats "
             "of the final", ""]
    for r in sorted(d["targets"]["qualify"], key=lambda r: STATUSES.index(r["status"])):
        lines.append(f"  {r['status']:<12} {r['name']}")
        lines += wrapped_words(r.get("says"))
    lines += ["", "undetermined: not settled by the seat rules and the events' exact whocan "
              f"within the work budget ({d['budget_nodes']} {d['budget_unit']}); never a guess"]
    return "\n".join(lines)
