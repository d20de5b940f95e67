"""One table model for every result, rendered to text, JSON, CSV and HTML by one renderer each.

A :class:`Table` (the shape of statsmodels' ``Summary``: a title, columns, rows, a legend and
notes) is built once per result from its declared type (``simcycle.api.results``) and handed
to :func:`to_text`, :func:`to_json`, :func:`to_csv` or :func:`to_html`.  A column says how its
values read (``kind``: text, a probability, a number, a whole number, money) and may carry its
standard error in another column (``se``): text and HTML show it as "±", CSV and JSON keep it
as its own column.  The report page (``report/html.py``) builds its odds, standings and
still-to-play tables this way.
"""

from __future__ import annotations

import csv
import io
from html import escape
from typing import Any, Literal

import msgspec

Kind = Literal["text", "pct", "num", "int", "money"]


class Column(msgspec.Struct, frozen=True, kw_only=True):
    key: str                     # the row's key (and the CSV / JSON column name)
    label: str                   # what a reader sees
    kind: Kind = "text"
    se: str | None = None        # the key of this column's standard error, shown as "±"
    wide: bool = False           # may be left out where space is short (the HTML at phone width)


class Table(msgspec.Struct, kw_only=True):
    title: str
    columns: list[Column]
    rows: list[dict[str, Any]]
    legend: list[str] = []
    notes: list[str] = []
    colours: dict[str, str] = {}     # a player's colour, by name (the HTML swatches)

    def shown(self) -> list[Column]:
        """The columns a reader sees (standard-error columns go with their column)."""
        ses = {c.se for c in self.columns if c.se}
        return [c for c in self.columns if c.key not in ses]


# ---- the four renderers ------------------------------------------------------------------
def _pct(p) -> str:
    from . import percent
    return percent(float(p))


def cell_text(c: Column, v) -> str:
    if v is None:
        return "-"
    if c.kind == "pct":
        return _pct(v)
    if c.kind == "num":
        return f"{v:.2f}"
    if c.kind == "int":
        return f"{v:,}"
    if c.kind == "money":
        return f"{v:,.0f}"
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, list):
        return " / ".join("-" if x is None else str(x) for x in v)
    return str(v)


def _se_text(c: Column, row: dict) -> str:
    se = row.get(c.se)
    if se is None:
        return ""
    return f"{100 * se:.2f}" if c.kind == "pct" else f"{se:.3f}"


def to_text(t: Table) -> str:
    """A fixed-width table with its title, legend and notes (a terminal's)."""
    cols = t.shown()
    cells = [[cell_text(c, r.get(c.key)) + (f" ±{_se_text(c, r)}" if c.se else "")
              for c in cols] for r in t.rows]
    width = [max([len(c.label)] + [len(row[i]) for row in cells]) for i, c in enumerate(cols)]
    left = [c.kind == "text" for c in cols]

    def line(vals):
        return "  ".join(v.ljust(w) if lf else v.rjust(w)
                         for v, w, lf in zip(vals, width, left)).rstrip()

    head = line([c.label for c in cols])
    out = [t.title, "", head, "-" * len(head), *(line(row) for row in cells)]
    if t.legend:
        out += ["", *t.legend]
    if t.notes:
        out += ["", *t.notes]
    return "\n".join(out)


def to_json(t: Table) -> dict:
    """The table as data: title, columns (key, label, kind, se), rows, legend, notes."""
    return msgspec.to_builtins(t)


def to_csv(t: Table) -> str:
    """One CSV row per table row, every column (standard errors included) by its key."""
    buf = io.StringIO()
    w = csv.writer(buf)
    keys = csv_keys(t)
    w.writerow(keys)
    for r in t.rows:
        w.writerow(csv_row([_csv_value(r.get(k)) for k in keys]))    # names neutralised
    return buf.getvalue()


def csv_keys(t: Table) -> list[str]:
    """Every column's key, a standard error right after its column unless declared."""
    declared = {c.key for c in t.columns}
    out = []
    for c in t.columns:
        out.append(c.key)
        if c.se and c.se not in declared:
            out.append(c.se)
    return out


def _csv_value(v):
    if isinstance(v, list):
        return " / ".join("" if x is None else str(x) for x in v)
    return "" if v is None else v


def csv_row(values) -> list:
    from ..text import csv_row as neutral
    return neutral(values)


def to_html(t: Table, *, id_: str | None = None, heading: str = "h2") -> str:
    """A ``<section>``: the title, the table (names escaped, standard errors as "±", wide
    columns marked for narrow screens), the legend and the notes."""
    cols = t.shown()
    ident = f' id="{escape(id_)}"' if id_ else ""
    head = "".join(f'<th class="{_cls(c)}">{escape(c.label)}</th>' for c in cols)
    body = []
    for r in t.rows:
        tds = []
        for c in cols:
            v = r.get(c.key)
            text = escape(cell_text(c, v)) + (" %" if c.kind == "pct" and v is not None else "")
            if c.se and r.get(c.se) is not None:
                text += f' <span class=se>± {escape(_se_text(c, r))}</span>'
            if c.kind == "text" and isinstance(v, str) and v in t.colours:
                text = (f'<span class=sw style="background:{escape(t.colours[v])}"></span>'
                        + text)
            tds.append(f'<td class="{_cls(c)}">{text}</td>')
        body.append("<tr>" + "".join(tds) + "</tr>")
    html = [f"<section{ident}><{heading}>{escape(t.title)}</{heading}>",
            f"<div class=scroll><table><thead><tr>{head}</tr></thead><tbody>",
            "\n".join(body), "</tbody></table></div>"]
    html += [f"<p class=muted>{escape(x)}</p>" for x in t.legend + t.notes]
    html.append("</section>")
    return "\n".join(html)


def _cls(c: Column) -> str:
    return ("l" if c.kind == "text" else "") + (" wide" if c.wide else "")


# ---- the tables of the results ------------------------------------------------------------
def simulation_csv_table(d: dict) -> Table:
    """``simulate --csv``'s table (every column, every place) from its JSON."""
    nplace = len(d["players"][0]["p_place"]) if d["players"] else 0
    keys = ["name", "expected_points", "se_expected_points", "p_first", "se_p_first",
            "p_qualify", "se_p_qualify", "expected_prize", "se_expected_prize"]
    cols = [Column(key=k, label=k, kind="text" if k == "name" else "num") for k in keys]
    cols += [Column(key=f"p_place_{k + 1}", label=_ordinal(k + 1), kind="pct")
             for k in range(nplace)]
    rows = [{**{k: p[k] for k in keys}, **{f"p_place_{k + 1}": x
                                           for k, x in enumerate(p["p_place"])}}
            for p in d["players"]]
    return Table(title=f"{d['scenario']} {d['at']}: odds", columns=cols, rows=rows)


def history_table(d: dict) -> Table:
    """``history``'s rows (a checkpoint and a player each) from its JSON."""
    from .history import FIELDS
    cols = [Column(key="checkpoint", label="checkpoint"), Column(key="player", label="player")]
    cols += [Column(key=k, label=NAMES.get(k, k), kind="pct" if "p_" in k else "num")
             for k in FIELDS]
    return Table(title=f"{d['scenario']}: the odds at every checkpoint", columns=cols,
                 rows=[dict(r) for r in d["rows"]])


def simulation_table(sim, *, title: str | None = None, places: int = 8,
                     colours: dict | None = None) -> Table:
    """``simulate``'s table from a :class:`~simcycle.api.results.Simulation`: expected points,
    P(1st), P(qualify) (only when more than one place qualifies), expected prize (when there
    is prize money) and the first ``places`` places, each probability with its error."""
    q = sim.qualifying_places
    label = sim.points_label or "points"
    prize = any(p.expected_prize for p in sim.players)
    exact = sim.sims is None
    nplace = len(sim.players[0].p_place) if sim.players else 0
    cols = [Column(key="name", label="player"),
            Column(key="expected_points", label=f"exp. {label}", kind="num",
                   se=None if exact else "se_expected_points", wide=True),
            Column(key="p_first", label="1st %", kind="pct", se=None if exact else "se_p_first")]
    if q > 1:
        cols.append(Column(key="p_qualify", label=f"qualify % (top {q})", kind="pct",
                           se=None if exact else "se_p_qualify"))
    if prize:
        cols.append(Column(key="expected_prize", label=f"exp. prize {sim.currency or ''}".strip(),
                           kind="money", wide=True))
    for k in range(min(places, nplace)):
        cols.append(Column(key=f"p_place_{k + 1}", label=_ordinal(k + 1), kind="pct",
                           wide=True))
    se_cols = [Column(key=c.se, label=f"SE {c.label}", kind="pct" if c.kind == "pct"
                      else "num") for c in cols if c.se]
    rows = []
    for p in sim.players:
        r = {"name": p.name, "expected_points": p.expected_points,
             "se_expected_points": p.se_expected_points, "p_first": p.p_first,
             "se_p_first": p.se_p_first, "p_qualify": p.p_qualify,
             "se_p_qualify": p.se_p_qualify, "expected_prize": p.expected_prize}
        r.update({f"p_place_{k + 1}": x for k, x in enumerate(p.p_place)})
        rows.append(r)
    how = ("exact: every outcome enumerated" if exact else
           f"{sim.sims:,} simulations, seed {sim.seed}")
    legend = [f"exp. {label}: expected final {label}; 1st %: chance of first place"
              + (f"; qualify %: chance of a qualifying place (top {q})" if q > 1 else
                 ("; one place qualifies, so first place is the qualifying place"
                  if q == 1 else ""))
              + ("; exp. prize: expected prize money" if prize else "")]
    if not exact:
        legend.append("±: one Monte Carlo standard error (for probabilities in points of %)")
    notes = [f"assuming {x}" for x in (sim.assumed or [])]
    return Table(title=title or f"{sim.scenario} {sim.at}: odds ({how})",
                 columns=cols + se_cols, rows=rows, legend=legend, notes=notes,
                 colours=colours or {})


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


NAMES = {"sb": "SB", "ahead_by": "ahead by", "p_white": "1-0 %", "p_draw": "draw %",
         "p_black": "0-1 %", "p_win": "P(win) %", "p_tiebreak": "P(tiebreaks) %",
         "expected_points": "exp. points", "classical_points": "classical points",
         "events_won": "events won", "second_places": "second places"}


def _kind_of(key: str, values: list) -> Kind:
    vals = [v for v in values if v is not None]
    if key.startswith("p_") and all(isinstance(v, float) or isinstance(v, int) for v in vals):
        return "pct"
    if vals and all(isinstance(v, bool) for v in vals):
        return "text"
    if vals and all(isinstance(v, int) for v in vals):
        return "int"
    if vals and all(isinstance(v, (int, float)) for v in vals):
        return "num" if key != "prize" else "money"
    return "text"


def rows_table(title: str, rows: list[dict], *, skip: tuple = (), legend: list | None = None,
               notes: list | None = None, colours: dict | None = None) -> Table:
    """A table of one format's rows (standings, games still to play): a column per key of
    the rows (lists of probabilities kept as one column), labelled in words."""
    keys: list[str] = []
    for r in rows:
        for k, v in r.items():
            nested = isinstance(v, dict) or (isinstance(v, list) and v and
                                             isinstance(v[0], (dict, list)))
            if k not in keys and k not in skip and not nested:
                keys.append(k)
    kinds = {k: _kind_of(k, [r.get(k) for r in rows]) for k in keys}
    # at phone width a row keeps its name, rank and points (and the probabilities of a game)
    keep = {"name", "rank", "points", "total", "round", "white", "black", "players", "p_white",
            "p_draw", "p_black", "p_win"}
    cols = [Column(key=k, label=NAMES.get(k, k.replace("_", " ")), kind=kinds[k],
                   wide=k not in keep) for k in keys]
    clean = [{k: (", ".join(_pct(x) + " %" for x in v) if isinstance(v, list) and
                  k.startswith("p_") else v) for k, v in r.items() if k in keys} for r in rows]
    return Table(title=title, columns=cols, rows=clean, legend=legend or [], notes=notes or [],
                 colours=colours or {})


def standings_table(st, *, colours: dict | None = None, after: str | None = None) -> Table:
    """The standings of a :class:`~simcycle.api.results.Standings` (any format)."""
    rows = [r.to_json() for r in st.players]
    return rows_table(f"Standings {after or 'at ' + st.at}", rows, skip=("shared",),
                      notes=[st.extra["note"]] if st.extra.get("note") else [],
                      colours=colours)


def odds_table(od, *, colours: dict | None = None, first_round_only: bool = True) -> Table:
    """The games, matches or events still to play of an :class:`~simcycle.api.results.Odds`
    (the next round's games only, for a round robin's page)."""
    items = [r.to_json() for r in od.items]
    title = "Still to play"
    rest = 0
    if items and first_round_only and "round" in items[0] and "white" in items[0]:
        first = items[0]
        shown = [r for r in items if r["round"] == first["round"]
                 and r.get("event") == first.get("event")]
        rest = len(items) - len(shown)
        items = shown
        title = f"Next round ({first['round']}): the games and their odds"
    notes = [f"and {rest} more (simcycle odds lists them all)"] if rest > 0 else []
    notes += list(od.extra.get("notes") or [])
    return rows_table(title, items, notes=notes, colours=colours)
