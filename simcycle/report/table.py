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
from functools import partial
from html import escape
from typing import Any, Literal

import msgspec

from . import ordinal

Kind = Literal["text", "pct", "num", "int", "money"]


class Column(msgspec.Struct, frozen=True, kw_only=True):
    key: str                     # the row's key (and the CSV / JSON column name)
    label: str                   # what a reader sees
    kind: Kind = "text"
    se: str | None = None        # the key of this column's standard error, shown as "±"
    wide: bool = False           # may be left out where space is short (the HTML at phone width)
    align: Literal["left", "right"] | None = None   # None: text left, numbers right
    width: int = 0               # the text column's least width (characters)
    flag: str | None = None      # the key of a row's "within noise" flag: "~" after, greyed


BELOW = "_below"     # a row's key: lines shown under it (a whocan path in words)


class Table(msgspec.Struct, kw_only=True):
    """A title, lines that introduce the table (``intro``), the columns and rows, a legend and
    notes.  A table without columns is only its title, intro, legend and notes (the head or
    the foot of a report made of several tables)."""

    title: str
    columns: list[Column] = []
    rows: list[dict[str, Any]] = []
    intro: list[str] = []
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


_FORMATS = {"pct": _pct, "num": "{:.2f}".format, "int": "{:,}".format,
            "money": "{:,.0f}".format}     # a column kind's value as text (text: str / {:g})


def _plain(x) -> str:
    return "-" if x is None else str(x)


def cell_text(c: Column, v) -> str:
    if v is None:
        return "-"
    if isinstance(v, list):     # a text column's items as they are, others each by its kind
        each = _plain if c.kind == "text" else partial(cell_text, c)
        return " / ".join(map(each, v))
    fmt = _FORMATS.get(c.kind, str)
    return f"{v:g}" if fmt is str and isinstance(v, float) else fmt(v)


def _se_text(c: Column, row: dict) -> str:
    se = row.get(c.se)
    if se is None:
        return ""
    return f"{100 * se:.2f}" if c.kind == "pct" else f"{se:.3f}"


def _left(c: Column) -> bool:
    return c.align == "left" if c.align else c.kind == "text"


def to_text(t: Table | list[Table]) -> str:
    """A fixed-width table with its title, intro, legend and notes (a terminal's); a list of
    tables one after another, a blank line between."""
    if isinstance(t, list):
        return "\n\n".join(map(to_text, t))
    out = [t.title] if t.title else []
    out += t.intro
    cols = t.shown()
    if cols and t.rows:
        if out:
            out.append("")
        out += _text_grid(t, cols)
    for extra in (t.legend, t.notes):
        if extra:
            out += ["", *extra] if out else extra
    return "\n".join(out)


def _text_grid(t: Table, cols: list[Column]) -> list[str]:
    """The text table's lines: the head, a rule, each row (and its lines below) with every
    column as wide as its widest cell."""
    cells = [[_text_cell(c, r) for c in cols] for r in t.rows]
    width = [max([len(c.label), c.width] + [len(row[i]) for row in cells])
             for i, c in enumerate(cols)]
    left = [_left(c) for c in cols]

    def line(vals):
        return "  ".join(v.ljust(w) if lf else v.rjust(w)
                         for v, w, lf in zip(vals, width, left)).rstrip()

    head = line([c.label for c in cols])
    out = [head, "-" * len(head)]
    indent = " " * (width[0] + 2) if len(cols) > 1 else "  "
    for r, row in zip(t.rows, cells):
        out.append(line(row))
        out += [indent + x for x in r.get(BELOW) or []]
    return out


def _text_cell(c: Column, r: dict) -> str:
    """A cell of the text table: the value, " ±SE" if the column has one, and with a flag
    "~" (within noise) or a blank."""
    se = f" ±{_se_text(c, r)}" if c.se else ""
    return cell_text(c, r.get(c.key)) + se + (_NOISE[bool(r.get(c.flag))] if c.flag else "")


_NOISE = {True: "~", False: " "}


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


def to_html(t: Table | list[Table], *, id_: str | None = None, heading: str = "h2") -> str:
    """A ``<section>``: the title, the intro, the table (names escaped, standard errors as
    "±", within-noise cells greyed, wide columns marked for narrow screens), the legend and
    the notes; a list of tables in one section, the first one's title its heading and the
    others' ``h3``."""
    if isinstance(t, list):
        first, rest = t[0], t[1:]
        inner = [_html_body(first)] + [_html_body(x, "h3") for x in rest]
        ident = f' id="{escape(id_)}"' if id_ else ""
        return (f"<section{ident}><{heading}>{escape(first.title)}</{heading}>\n"
                + "\n".join(inner) + "\n</section>")
    ident = f' id="{escape(id_)}"' if id_ else ""
    return (f"<section{ident}><{heading}>{escape(t.title)}</{heading}>\n{_html_body(t)}\n"
            "</section>")


def _html_body(t: Table, heading: str | None = None) -> str:
    cols = t.shown()
    html = [f"<{heading}>{escape(t.title)}</{heading}>"] if heading and t.title else []
    if t.intro:       # the lines that introduce the table, as one paragraph
        html.append("<p>" + "<br>".join(escape(x) for x in t.intro) + "</p>")
    if cols and t.rows:
        head = "".join(f'<th class="{_cls(c)}">{escape(c.label)}</th>' for c in cols)
        body = [line for r in t.rows for line in _html_rows(t, cols, r)]
        html += [f"<div class=scroll><table><thead><tr>{head}</tr></thead><tbody>",
                 "\n".join(body), "</tbody></table></div>"]
    html += [f"<p class=muted>{escape(x)}</p>" for x in t.legend + t.notes]
    return "\n".join(html)


def _html_rows(t: Table, cols: list[Column], r: dict) -> list[str]:
    """A row's ``<tr>``, and the row of its lines below (a path in words) if it has them."""
    out = ["<tr>" + "".join(_html_cell(t, c, r) for c in cols) + "</tr>"]
    if r.get(BELOW):
        out.append(f'<tr class=below><td></td><td class=l colspan={len(cols) - 1} '
                   'style="white-space:normal">'
                   + "<br>".join(escape(x) for x in r[BELOW]) + "</td></tr>")
    return out


def _html_cell(t: Table, c: Column, r: dict) -> str:
    """A ``<td>``: the value (" %" after a single probability), "± SE" if there is one, a
    player's colour swatch before a name, greyed with a tip when within noise."""
    v = r.get(c.key)
    pct = c.kind == "pct" and not isinstance(v, (list, type(None)))
    text = escape(cell_text(c, v)) + (" %" if pct else "")
    if c.se and r.get(c.se) is not None:
        text += f' <span class=se>± {escape(_se_text(c, r))}</span>'
    colour = t.colours.get(v) if c.kind == "text" and isinstance(v, str) else None
    if colour is not None:
        text = f'<span class=sw style="background:{escape(colour)}"></span>' + text
    noise = bool(c.flag and r.get(c.flag))
    return f'<td class="{(_cls(c) + _NOISE_CLASS[noise]).strip()}"{_NOISE_TIP[noise]}>{text}</td>'


_NOISE_CLASS = {True: " noise", False: ""}
_NOISE_TIP = {True: ' title="within noise"', False: ""}


def _cls(c: Column) -> str:
    return ("l" if _left(c) else "") + (" wide" if c.wide else "")


# ---- the tables of the results ------------------------------------------------------------
def simulation_csv_table(d: dict) -> Table:
    """``simulate --csv``'s table (every column, every place) from its JSON."""
    nplace = len(d["players"][0]["p_place"]) if d["players"] else 0
    keys = ["name", "expected_points", "se_expected_points", "p_first", "se_p_first",
            "p_qualify", "se_p_qualify", "expected_prize", "se_expected_prize"]
    cols = [Column(key=k, label=k, kind="text" if k == "name" else "num") for k in keys]
    cols += [Column(key=f"p_place_{k + 1}", label=ordinal(k + 1), kind="pct")
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
                     colours: dict | None = None, points: str | None = None) -> Table:
    """``simulate``'s table from a :class:`~simcycle.api.results.Simulation`: expected points,
    P(1st), P(qualify) (only when more than one place qualifies), expected prize (when there
    is prize money) and the first ``places`` places, each probability with its error."""
    label = sim.points_label or "points"
    prize = any(p.expected_prize for p in sim.players)
    exact = sim.sims is None
    cols = _sim_columns(sim, points or f"exp. {label}", prize, places)
    se_cols = [Column(key=c.se, label=f"SE {c.label}", kind=c.kind)
               for c in cols if c.se]
    rows = [{**{k: getattr(p, k) for k in _SIM_KEYS},
             **{f"p_place_{k + 1}": x for k, x in enumerate(p.p_place)}} for p in sim.players]
    how = ("exact: every outcome enumerated" if exact else
           f"{sim.sims:,} simulations, seed {sim.seed}")
    notes = [f"assuming {x}" for x in (sim.assumed or [])]
    return Table(title=title or f"{sim.scenario} {sim.at}: odds ({how})",
                 columns=cols + se_cols, rows=rows, legend=_sim_legend(sim, label, prize),
                 notes=notes, colours=colours or {})


def _sim_legend(sim, label: str, prize: bool) -> list[str]:
    """``simulation_table``'s legend: the columns (points called ``label``), and the errors'
    unit unless the probabilities are exact."""
    q = sim.qualifying_places
    legend = [f"exp. {label}: expected final {label}; 1st %: chance of first place"
              + _QUALIFY_LEGEND.get(q, f"; qualify %: chance of a qualifying place (top {q})")
              + ("; exp. prize: expected prize money" if prize else "")]
    if sim.sims is not None:
        legend.append("±: one Monte Carlo standard error (for probabilities in points of %)")
    return legend


def _sim_columns(sim, points: str, prize: bool, places: int) -> list[Column]:
    """``simulation_table``'s columns: player, expected points (labelled ``points``), P(1st),
    P(qualify) with more than one qualifying place, the expected prize if any, the first
    ``places`` places; standard errors unless the probabilities are exact."""
    q = sim.qualifying_places
    nplace = len(sim.players[0].p_place) if sim.players else 0
    cols = [Column(key="name", label="player"),
            Column(key="expected_points", label=points, kind="num", se="se_expected_points",
                   wide=True),
            Column(key="p_first", label="1st %", kind="pct", se="se_p_first")]
    if q > 1:
        cols.append(Column(key="p_qualify", label=f"qualify % (top {q})", kind="pct",
                           se="se_p_qualify"))
    if prize:
        cols.append(Column(key="expected_prize", label=f"exp. prize {sim.currency or ''}".strip(),
                           kind="money", wide=True))
    cols += [Column(key=f"p_place_{k + 1}", label=ordinal(k + 1), kind="pct", wide=True)
             for k in range(min(places, nplace))]
    if sim.sims is None:       # exact probabilities: no standard errors
        cols = [msgspec.structs.replace(c, se=None) for c in cols]
    return cols


_SIM_KEYS = ("name", "expected_points", "se_expected_points", "p_first", "se_p_first",
             "p_qualify", "se_p_qualify", "expected_prize")    # a player's row, then places
_QUALIFY_LEGEND = {0: "", 1: "; one place qualifies, so first place is the qualifying place"}


NAMES = {"sb": "SB", "ahead_by": "ahead by", "p_white": "1-0 %", "p_draw": "draw %",
         "p_black": "0-1 %", "p_win": "P(win) %", "p_tiebreak": "P(tiebreaks) %",
         "expected_points": "exp. points", "classical_points": "classical points",
         "events_won": "events won", "second_places": "second places"}


# a column's kind by the types of its values (the first that fits all of them), else text
_KIND_BY_TYPES = ((bool, "text"), (int, "int"), ((int, float), "num"))


def _kind_of(key: str, values: list) -> Kind:
    vals = [v for v in values if v is not None]
    if key.startswith("p_") and all(isinstance(v, (float, int)) for v in vals):
        return "pct"
    if not vals:
        return "text"
    kind = next((k for types, k in _KIND_BY_TYPES if all(isinstance(v, types) for v in vals)),
                "text")
    return "money" if kind == "num" and key == "prize" else kind


# at phone width a row keeps its name, rank and points (and the probabilities of a game)
NARROW_KEYS = {"name", "rank", "points", "total", "round", "white", "black", "players",
               "p_white", "p_draw", "p_black", "p_win"}


def _row_value(key: str, v):
    """A row's value as ``rows_table`` shows it: a list of probabilities as one text cell
    ("12.3 %, 45.6 %")."""
    if isinstance(v, list) and key.startswith("p_"):
        return ", ".join(_pct(x) + " %" for x in v)
    return v


def rows_table(title: str, rows: list[dict], *, skip: tuple = (), legend: list | None = None,
               notes: list | None = None, colours: dict | None = None) -> Table:
    """A table of one format's rows (standings, games still to play): a column per key of
    the rows (lists of probabilities kept as one column), labelled in words."""
    keys = list(dict.fromkeys(k for r in rows for k, v in r.items()
                              if k not in skip and not _nested(v)))
    kinds = {k: _kind_of(k, [r.get(k) for r in rows]) for k in keys}
    cols = [Column(key=k, label=NAMES.get(k, k.replace("_", " ")), kind=kinds[k],
                   wide=k not in NARROW_KEYS) for k in keys]
    clean = [{k: _row_value(k, v) for k, v in r.items() if k in keys} for r in rows]
    return Table(title=title, columns=cols, rows=clean, legend=legend or [], notes=notes or [],
                 colours=colours or {})


def _nested(v) -> bool:
    """A dict, or a list of dicts or lists: no column of its own."""
    return isinstance(v, dict) or (isinstance(v, list) and bool(v)
                                   and isinstance(v[0], (dict, list)))


def rank_text(p) -> str:
    """A standings row's rank, "=" before it when shared (``p.extra["shared"]``)."""
    return ("=" if p.extra["shared"] else "") + str(p.rank)


def standings_table(st, *, colours: dict | None = None, after: str | None = None) -> Table:
    """The standings of a :class:`~simcycle.api.results.Standings` (any format)."""
    rows = [r.to_json() for r in st.players]
    return rows_table(f"Standings {after or 'at ' + st.at}", rows, skip=("shared",),
                      notes=[st.note] if isinstance(st.note, str) and st.note else [],
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
    notes += list(od.notes or [])
    return rows_table(title, items, notes=notes, colours=colours)


# ---- swing ----------------------------------------------------------------------------------
SWING_LEGEND = ("swing: largest minus smallest probability over the results, ± its standard "
                "error from the paired (common-random-number) runs, in percentage points; "
                "~ within noise (less than two standard errors from zero)")
SHOWN_SWING = 0.005      # a player a swing table lists moves by half a percentage point or more


def swing_head(sw) -> str:
    """The first line of a swing report: what is examined and how precisely."""
    inside = [sw.part] if sw.part is not msgspec.UNSET else []     # a cycle's part
    if sw.games:
        what = f"what round {sw.round} swings"
        if sw.event is not msgspec.UNSET:
            inside.append(f"event {sw.event}, group round")
    elif sw.places:
        what = f"what each member's place in {sw.next_event} swings"
    else:
        what = "what the next matches swing"
    scenario = sw.scenario + (f" ({': '.join(inside)})" if inside else "")
    tgt = (f", stopped at a swing SE below {100 * sw.target_se:.2g} points"
           if sw.target_se else "")
    return (f"{scenario}  at {sw.at}: {what} ({sw.sims:,} simulations per result at most, "
            f"common random numbers{tgt})")


def swing_tables(sw, *, title: str | None = None, intro: list[str] | None = None,
                 limit: int | None = None) -> list[Table]:
    """A :class:`~simcycle.api.results.Swing` as tables: a head (``title``, default
    :func:`swing_head`), one table per game or match (the players one of its results moves
    by half a point or more: the headline probability under each result, the swing ± its
    paired SE, within noise marked; with more than one qualifying place also P(1st) under
    each result and its swing), and the legend.  ``limit``: at most so many players a table."""
    q = sw.qualifying_places
    what, short, one = _SWING_WORDS[q > 1]
    label = f"qualify % (top {q})" if q > 1 else short
    out = [Table(title=title or swing_head(sw), intro=intro or [])]
    out += [_swing_table(item, q, limit) for item in sw.items]
    out.append(Table(title="", legend=[f"{label} if R: the chance under each result R" + one,
                                       SWING_LEGEND]))
    return out


def _swing_table(item, q: int, limit: int | None) -> Table:
    """One game's or match's swing table (see :func:`swing_tables`)."""
    from ..api.results import SwingGame
    what, short, _ = _SWING_WORDS[q > 1]
    outs = item.outcomes
    game = isinstance(item, SwingGame)
    names = (["1-0", "draw", "0-1"] if game else [f"({k + 1})" for k in range(len(outs))])
    cols = _swing_columns(names, what, short, q)
    # in the swing's order: the players most affected (both swings) first
    rows = [_swing_row(p, what) for p in item.rows
            if max(p.swing_first, p.swing_qualify) >= SHOWN_SWING][:limit]
    if game:
        head = (f"{item.title}   " + "  ".join(
            f"{n} {100 * o.p:.0f} %" for n, o in zip(names, outs)))
        lines = []
    else:
        head = item.title
        lines = [f"({k + 1}) {o.result}: {100 * o.p:.1f} %" for k, o in enumerate(outs)]
    se = [Column(key=k, label=k, kind="pct") for k in _SWING_SES[q > 1]]
    return Table(title=head, intro=lines, columns=cols + se, rows=rows,
                 notes=[] if rows else ["(no one's odds move by half a point or more)"])


def _swing_columns(names: list[str], what: str, short: str, q: int) -> list[Column]:
    """A swing table's columns: the player, the ``what`` probability if each result
    (``names``), its swing; with more than one qualifying place P(1st)'s too."""
    cols = [Column(key="name", label="player", width=24)]
    cols += [Column(key=f"o{k}", label=f"{short if k == 0 else ''} if {n}".strip(),
                    kind="pct") for k, n in enumerate(names)]
    cols.append(Column(key="swing", label=f"swing {_SWING_SHORT[what]}",
                       kind="pct", se="se_swing", flag="noise"))
    if q > 1:
        cols += [Column(key="first", label="1st % if " + " / ".join(names), kind="pct",
                        wide=True),
                 Column(key="swing_first", label="swing 1st", kind="pct",
                        se="se_swing_first", flag="noise_first", wide=True)]
    return cols


_SWING_SHORT = {"qualify": "qual", "first": "1st"}
# more than one qualifying place or not: the headline probability, its column's words, the
# legend's remark; and the standard-error columns
_SWING_WORDS = {True: ("qualify", "qualify %", ""),
                False: ("first", "1st %",
                        " (one place qualifies: first place is the qualifying place)")}
_SWING_SES = {True: ("se_swing", "se_swing_first"), False: ("se_swing",)}


def _swing_row(p, what: str) -> dict:
    """A swing table's row of a player: the ``what`` ("first" or "qualify") probability under
    each result (``o0``...) and its swing, and P(1st)'s."""
    return {"name": p.name, "swing": getattr(p, f"swing_{what}"),
            "se_swing": getattr(p, f"se_swing_{what}"), "noise": getattr(p, f"noise_{what}"),
            "first": p.p("first"), "swing_first": p.swing_first,
            "se_swing_first": p.se_swing_first, "noise_first": p.noise_first,
            **{f"o{k}": x for k, x in enumerate(p.p(what))}}


# ---- whocan ---------------------------------------------------------------------------------
STATUS_ORDER = ("clinched", "alive", "undetermined", "n/a", "eliminated")
_STATUS_RANK = {s: k for k, s in enumerate(STATUS_ORDER)}
_IN_WORDS = {True: "in words: ", False: "          "}      # the reason's first line, the rest


def words_lines(says) -> list[str]:
    """A reason or path in sentences (``says``, may be None), one a line: "in words: " before
    the first, the others aligned under it."""
    return [_IN_WORDS[k == 0] + x for k, x in enumerate(says or [])]


def wrapped_words(says) -> list[str]:
    """:func:`words_lines` indented 15 and wrapped to 96 characters (the plain-text whocan
    reports), a sentence's later lines hanging at 25."""
    import textwrap
    return [w for k, x in enumerate(says or []) for w in textwrap.wrap(
        x, 96, initial_indent=" " * 15 + _IN_WORDS[k == 0], subsequent_indent=" " * 25)]


def _whocan_row(w, r, level: str, path_lines, fmt_points) -> dict:
    """One player's row for a target: status, name, points, how (alive: outright or only
    level, and whether he can be passed; a path under it), a clinched or eliminated player's
    reason under it."""
    pts = w.points.get(r.name)
    tr = {"status": r.status, "name": r.name,
          "points": None if pts is None else fmt_points(pts), "how": ""}
    if r.status == "alive":
        tr["how"] = ("outright" if r.via == "outright" else f"only level ({level})") + (
            f"; cannot be passed, at worst level ({level})" if r.at_worst == "tiebreak" else "")
        tr[BELOW] = list(path_lines(r))
    elif r.status in ("clinched", "eliminated") and r.says:
        tr[BELOW] = words_lines(r.says)
    elif r.status == "n/a":
        tr["how"] = "qualified elsewhere"
    elif r.status == "undetermined":
        tr["how"] = (f"(work budget of {w.budget_nodes} "
                     f"{w.budget_unit or 'solver nodes'} reached)")
    return tr


def whocan_tables(w, head: list[str], *, qualify_title: str, level: str, path_lines,
                  fmt_points=None, notes: list[str] | None = None) -> list[Table]:
    """A :class:`~simcycle.api.results.Whocan` as tables: the ``head`` lines, then per target
    (first place, a qualifying place) one row per player (status, points, how), a live
    player's path under the row (``path_lines(row)``: lines), a clinched or eliminated
    player's reason in words; ``level`` says what decides between players level on every
    compared criterion."""
    fmt_points = fmt_points or (lambda v: f"{v:g}")
    out = [Table(title=head[0], intro=head[1:])]
    for target, rows in w.targets.items():
        title = "first place" if target == "first" else qualify_title
        trs = [_whocan_row(w, r, level, path_lines, fmt_points)
               for r in sorted(rows, key=lambda r: _STATUS_RANK.get(r.status, 9))]
        out.append(Table(title=f"Who can still take {title}:", rows=trs, columns=[
            Column(key="status", label="status", width=12),
            Column(key="name", label="player", width=24),
            Column(key="points", label="points", align="right"),
            Column(key="how", label="how")]))
    if notes:
        out.append(Table(title="", notes=notes))
    return out
