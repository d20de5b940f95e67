"""Charts with matplotlib (Agg backend, no display): imported only by the commands that plot.

* :func:`history_chart`: a line per player over the checkpoints (``history --plot``, the
  report);
* :func:`place_chart`: each player's place distribution as one stacked bar (``simulate --plot``);
* :func:`reliability_chart`: predicted against observed frequencies (``backtest --plot``).

PNG or SVG by the file's extension (anything else is refused in one line).  Every chart is
drawn on its own :class:`~matplotlib.figure.Figure` (no pyplot state), and SVG output is
reproducible (fixed hash salt, no date).
"""

from __future__ import annotations

import io
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import PercentFormatter  # noqa: E402

from ..errors import ScenarioError  # noqa: E402
from . import CERTAIN, ordinal, percent  # noqa: E402

matplotlib.rcParams["svg.hashsalt"] = "simcycle"
matplotlib.rcParams["svg.fonttype"] = "none"     # text stays text (searchable, crisp)

EXTENSIONS = (".png", ".svg")
CONTENDERS = 6       # history: lines coloured and named; the others are drawn thin and grey
MIN_SHOWN = 0.01      # history: a player whose line never reaches 1 % is listed, not drawn
# ten distinct colours (matplotlib's tab10), solid; then the same ten dashed, then dotted
TAB10 = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
         "#17becf", "#bcbd22", "#7f7f7f"]
STYLES = ["-", "--", ":"]


def check_path(path) -> str:
    ext = Path(str(path)).suffix.lower()
    if ext not in EXTENSIONS:
        raise ScenarioError("a chart is written as PNG or SVG: name the file *.png or *.svg",
                            key="--plot", value=str(path))
    return ext[1:]


def save(fig: Figure, path) -> str:
    """Write ``fig`` to ``path`` (PNG or SVG by extension); returns the path."""
    from ..io.write import atomic_write

    kind = check_path(path)
    buf = io.BytesIO()      # drawn in memory, then written atomically (io.write)
    fig.savefig(buf, format=kind, dpi=110 if kind == "png" else None,
                metadata={"Date": None} if kind == "svg" else None, bbox_inches="tight")
    atomic_write(path, buf.getvalue(), what="chart")
    return str(path)


def svg_text(fig: Figure) -> str:
    """``fig`` as an SVG document (for the HTML report, inline)."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None}, bbox_inches="tight")
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _wrap(text: str, inches: float, points: float = 13) -> str:
    """``text`` broken into lines that fit ``inches`` at ``points`` (a title)."""
    import textwrap
    return textwrap.fill(text, max(30, int(inches * 120 / points)))


def _subtitle(d: dict) -> str:
    m = d.get("model") or {}
    bits = []
    if m:
        bits.append(f"model {m.get('name')} {m.get('version')}"
                    + (", rating offsets" if m.get("offsets") else ""))
    if d.get("sims"):
        bits.append(f"{d['sims']:,} simulations" + (" per checkpoint" if "checkpoints" in d
                                                     else "") + f", seed {d.get('seed')}")
    return "; ".join(bits)


# ---- history -------------------------------------------------------------------------------
def history_figure(d: dict, max_width: float = 22.0) -> Figure:
    """One panel per quantity (P(first), and P(qualify) when more than one qualifies), a line
    per player, labelled at its right end; checkpoints on the x axis.  ``max_width`` (inches)
    caps the figure (the HTML report keeps it to its page width, so text is not shrunk)."""
    from .history import series

    cps = d["checkpoints"]
    q = d.get("qualifying_places") or 1
    panels = [("p_first", "P(first)")]
    if q > 1:
        panels.append(("p_qualify", f"P(qualify), top {q}"))
    n = len(cps)
    width = min(max(9.0, 3.5 + 0.42 * n), max_width)
    fig = Figure(figsize=(width, 4.6 * len(panels) + 1.2), layout="constrained")
    axes = fig.subplots(len(panels), 1, sharex=True, squeeze=False)[:, 0]
    xs = list(range(n))
    vals = {key: series(d, key) for key, _ in panels}
    peak = {key: {p: _peak(vals[key][p]) for p in d["players"]} for key, _ in panels}
    # one colour per player, whatever the checkpoint (report.words.colour_of); the
    # contenders (the CONTENDERS best at any point, at MIN_SHOWN or more) stand out, coloured,
    # thick and named at their line's end; the rest recede as thin grey lines
    from .words import colour_of
    colour = colour_of(d["players"])
    best = {p: max(peak[key][p] for key, _ in panels) for p in d["players"]}
    ranked = sorted(d["players"], key=lambda p: -best[p])
    front = [p for p in ranked[:CONTENDERS] if best[p] >= MIN_SHOWN]
    for ax, (key, label) in zip(axes, panels):
        _history_panel(ax, label, xs, vals[key], peak[key], front, colour)
    _checkpoint_axis(axes[-1], cps, d)
    # left-aligned and wrapped to the width left of the legend, so the two never overlap
    fig.suptitle(_wrap(f"{d['scenario']}: the odds after each checkpoint", width - 0.5),
                 fontsize=13, fontweight="bold", x=0.01, ha="left")
    return fig


def _peak(values: list) -> float:
    """The highest of a line's values (NaN, a checkpoint without a row, left out; 0 if
    none)."""
    return max((v for v in values if v == v), default=0.0)


def _checkpoint_axis(ax, cps: list, d: dict) -> None:
    """The bottom panel's x axis: the checkpoints, turned when there are many, and the run
    under them."""
    n = len(cps)
    ax.set_xticks(list(range(n)))
    rot = 0 if n <= 8 else (45 if n <= 20 else 60)
    ax.set_xticklabels(cps, rotation=rot, ha="right" if rot else "center",
                       fontsize=10 if n <= 16 else 8.5)
    ax.set_xlabel(f"checkpoint (results counted up to)\n{_subtitle(d)}", fontsize=10)


def _history_panel(ax, label: str, xs: list, vals: dict, peak: dict, front: list,
                   colour: dict):
    """One quantity's panel: the players of ``front`` coloured, thick and named at their
    line's end (their latest value), the others thin grey lines; the y axis to the data."""
    n = len(xs)
    ends = []
    for p in vals:
        if p not in front:
            ax.plot(xs, vals[p], "-", color="#c4c7cc", lw=0.9, zorder=1)
    for p in front:
        ax.plot(xs, vals[p], "-", color=colour[p], lw=2.2, marker="o", ms=3.5, zorder=3)
        ends.append([next((v for v in reversed(vals[p]) if v == v), 0.0), p, colour[p]])
    ymax = min(1.0, math.ceil(max([*peak.values(), 0.05]) * 10 + 1e-9) / 10)   # to the data
    ax.set_ylim(-0.01 * ymax, ymax * 1.03)
    _end_labels(ax, ends, n)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylabel(label, fontsize=11)
    ax.grid(True, color="#dddddd", lw=0.8)
    ax.set_xlim(-0.3, n - 1 + max(2.2, 0.24 * n))
    ax.spines[["top", "right"]].set_visible(False)
    rest = len(vals) - len(front)
    note = label + (f"   (grey: the other {rest} player{'s' if rest > 1 else ''})"
                    if rest else "")
    ax.set_title(note, loc="left", fontsize=9.5, color="#333333")


def _end_labels(ax, ends, n):
    """Name each line at its right end, spread apart vertically so no two labels overlap
    (a thin leader joins a moved label to its line)."""
    if not ends:
        return
    lo, hi = ax.get_ylim()
    gap = 0.045 * (hi - lo)
    ends.sort(key=lambda e: e[0])
    ys = [e[0] for e in ends]
    placed = []
    for y in ys:                                        # push up
        y = max(y, placed[-1] + gap) if placed else y
        placed.append(y)
    over = placed[-1] - hi
    if over > 0:                                        # then shift down from the top
        placed = [y - over for y in placed]
        for i in range(len(placed) - 2, -1, -1):
            placed[i] = min(placed[i], placed[i + 1] - gap)
    x0 = n - 1
    x1 = x0 + max(0.35, 0.04 * n)
    for (y, name, colour), ly in zip(ends, placed):
        ax.plot([x0, x1], [y, ly], color=colour, lw=0.7, alpha=0.7)
        ax.text(x1 + 0.05, ly, f"{name} {_pct_label(y)}", color=colour, fontsize=9,
                va="center", ha="left", fontweight="bold")


def _pct_label(p: float) -> str:
    """A line's end label: whole per cents from 10 % to 99 %, one decimal elsewhere, and the
    tables' certainty rule (``report.percent``): "0%" and "100%" only for a certain 0 or 1,
    so 99.6 % reads "99.6%", never "100%"."""
    if p != p:
        return "-"
    if p <= CERTAIN or p >= 1.0 - CERTAIN or p < 0.1 or p >= 0.995:
        return percent(p) + "%"
    return f"{100 * p:.0f}%"


def history_chart(d: dict, path) -> str:
    check_path(path)
    return save(history_figure(d), path)


# ---- place distribution --------------------------------------------------------------------
def _place_colours(n_places: int, q: int):
    """Qualifying places in greens (darkest = 1st), the rest from light to dark grey-blue."""
    from matplotlib import colormaps

    greens, blues = colormaps["Greens"], colormaps["Blues"]
    out = []
    for k in range(n_places):
        if k < q:
            t = 0.85 - 0.45 * (k / max(q - 1, 1)) if q > 1 else 0.75
            out.append(greens(t))
        else:
            rest = n_places - q
            t = 0.15 + 0.6 * ((k - q) / max(rest - 1, 1))
            out.append(blues(t))
    return out


def place_figure(d: dict) -> Figure:
    """One horizontal stacked bar per player (best expected place on top): the probability of
    each place, qualifying places in green."""
    players = [p for p in d["players"] if p.get("p_place")]
    n_places = len(players[0]["p_place"]) if players else 0
    q = d.get("qualifying_places") or 0
    exp_place = {p["name"]: sum((k + 1) * x for k, x in enumerate(p["p_place"]))
                 for p in players}
    players.sort(key=lambda p: exp_place[p["name"]])
    n = len(players)
    fig = Figure(figsize=(11.5, 1.6 + 0.38 * n + (0.5 if n_places > 12 else 0)),
                 layout="constrained")
    ax = fig.subplots()
    colours = _place_colours(n_places, q)
    ys = list(range(n))[::-1]
    for k in range(n_places):
        _place_bars(ax, ys, [p["p_place"] for p in players], k, colours[k],
                    dark=k < q or (k - q) > (n_places - q) * 0.45)
    ax.set_yticks(ys)
    ax.set_yticklabels([f"{p['name']}  (expected place {exp_place[p['name']]:.1f})"
                        for p in players], fontsize=9.5 if n <= 14 else 8.5)
    ax.set_xlim(0, 1)
    ax.set_ylim(-0.6, n - 0.4)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel(f"probability of each final place (left: 1st)\n{_subtitle(d)}", fontsize=10)
    ax.spines[["top", "right"]].set_visible(False)
    _place_key(fig, ax, colours, n, q)
    fig.suptitle(_wrap(_place_title(d, q), 11.5, 12), fontsize=12, fontweight="bold")
    return fig


def _place_bars(ax, ys: list, p_place: list, k: int, colour, dark: bool) -> None:
    """Place ``k``'s bar segment for each player (row ``ys[i]``, places' probabilities
    ``p_place[i]``), labelled where it is at least 7 % wide (white text on a ``dark`` bar)."""
    widths = [pp[k] for pp in p_place]
    lefts = [sum(pp[:k]) for pp in p_place]
    ax.barh(ys, widths, left=lefts, color=colour, edgecolor="white", lw=0.5,
            height=0.78, label=ordinal(k + 1))
    size = 7.5 if len(ys) > 14 else 8.5
    for y, w, left in zip(ys, widths, lefts):
        if w >= 0.07:
            ax.text(left + w / 2, y, f"{ordinal(k + 1)}\n{100 * w:.0f}%", ha="center",
                    va="center", fontsize=size, color="white" if dark else "#1a1a1a")


def _place_title(d: dict, q: int) -> str:
    """The place chart's title: scenario, checkpoint and, with ``q``, the qualifying places'
    colour."""
    title = f"{d['scenario']} at {d.get('at', 'latest')}: final place of each player"
    if q:
        title += f" (green: the {q} qualifying place{'s' if q > 1 else ''})"
    return title


def _place_key(fig, ax, colours: list, n: int, q: int) -> None:
    """The places' key: a legend over the chart for up to 12 places, else a colour bar."""
    if len(colours) <= 12:
        ax.legend(ncols=min(len(colours), 12), loc="lower center", bbox_to_anchor=(0.5, 1.0),
                  fontsize=8.5, frameon=False, title="place", title_fontsize=9)
    else:
        _place_colourbar(fig, ax, colours, n, q)


def _place_colourbar(fig, ax, colours: list, n: int, q: int):
    """The places' key as a colour bar over the chart (more than 12 places), ticked at 1st
    and every 5th; ``n`` players, ``q`` qualifying places."""
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import BoundaryNorm, ListedColormap

    n_places = len(colours)
    norm = BoundaryNorm([k + 0.5 for k in range(n_places + 1)], n_places)
    cb = fig.colorbar(ScalarMappable(norm=norm, cmap=ListedColormap(colours)), ax=ax,
                      orientation="horizontal", location="top",
                      fraction=0.05 if n > 14 else 0.08, pad=0.01, aspect=60)
    cb.set_ticks([1, *range(5, n_places + 1, 5)])
    cb.set_label("place (green: qualifying)" if q else "place", fontsize=9)
    cb.ax.tick_params(labelsize=8)


def place_chart(d: dict, path) -> str:
    check_path(path)
    return save(place_figure(d), path)


# ---- reliability diagram -------------------------------------------------------------------
def reliability_figure(rows, title: str = "Reliability of the predicted probabilities") -> Figure:
    """``rows``: bins as dicts with ``predicted`` (mean predicted probability), ``observed``
    (frequency observed) and ``n`` (predictions in the bin).  Points on the diagonal are
    calibrated; bars show the spread the observed frequency would have if the prediction were
    right (± 1.96 binomial standard errors); the lower panel counts the predictions per bin."""
    rows = [r for r in rows if r.get("n", 0) > 0]
    fig = Figure(figsize=(7.0, 8.4), layout="constrained")
    ax, axn = fig.subplots(2, 1, gridspec_kw={"height_ratios": [3.2, 1]}, sharex=True)
    ax.plot([0, 1], [0, 1], "--", color="#888888", lw=1.2, label="perfectly calibrated")
    if rows:
        px = [r["predicted"] for r in rows]
        py = [r["observed"] for r in rows]
        ns = [r["n"] for r in rows]
        err = [1.96 * math.sqrt(max(p * (1 - p), 1e-12) / n) for p, n in zip(px, ns)]
        ax.errorbar(px, py, yerr=err, fmt="none", ecolor="#1f77b4", alpha=0.5, lw=1.4,
                    capsize=3, label="± 1.96 standard errors (binomial, n of the bin)")
        big = max(ns)
        ax.scatter(px, py, s=[30 + 220 * (n / big) ** 0.5 for n in ns], color="#1f77b4",
                   edgecolor="white", zorder=3, label="bins (area: number of predictions)")
        ax.plot(px, py, "-", color="#1f77b4", lw=1, alpha=0.6)
        width = min(0.08, 0.8 / max(len(rows), 1))
        axn.bar(px, ns, width=width, color="#1f77b4", alpha=0.8)
        total = sum(ns)
        ax.text(0.02, 0.97, f"{total:,} predictions in {len(rows)} bins", transform=ax.transAxes,
                va="top", fontsize=9, color="#444444")
    else:
        ax.text(0.5, 0.5, "no predictions", ha="center", va="center", fontsize=14)
    for a in (ax, axn):
        a.set_xlim(-0.02, 1.02)
        a.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        a.grid(True, color="#e0e0e0", lw=0.8)
        a.spines[["top", "right"]].set_visible(False)
    ax.set_ylim(-0.02, 1.02)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylabel("observed frequency", fontsize=11)
    ax.legend(loc="lower right", fontsize=9, frameon=False)
    axn.set_ylabel("predictions", fontsize=10)
    axn.set_xlabel("predicted probability", fontsize=11)
    fig.suptitle(title, fontsize=12, fontweight="bold")
    return fig


def reliability_chart(rows, path, title: str = "Reliability of the predicted probabilities"):
    """Draw the reliability diagram of ``rows`` (see :func:`reliability_figure`) to ``path``."""
    check_path(path)
    return save(reliability_figure(rows, title), path)
