"""The HTML report (``simcycle report``): one self-contained page.

Inline CSS, the history chart as inline SVG, no script, no font, image or style sheet from
anywhere else (not even a namespace URL: the SVG's are dropped, HTML does not need them), so
the page opens offline and can be mailed as one file.  Every text that comes from a scenario
or a result is escaped.

Sections: the standings, the odds (simulated from ``--at``), the games or matches still to
play, the history chart (every checkpoint up to ``--at``, common random numbers), the next
round's swing (formats that offer it; others say so), who can still win or qualify with a
path in words (formats that offer it), and how it was made (model, simulations, seed, date).
"""

from __future__ import annotations

import datetime as _dt
import re
from html import escape

from ..formats.base import SWING, WHOCAN, CompileOptions

RESULT_WORDS = ("1-0", "1/2-1/2", "0-1")
# the chart (legend included) fits the page at about 100 %: text keeps its size
PAGE_INCHES = 11.2


def e(x) -> str:
    return escape("" if x is None else str(x), quote=True)


def num(v: float) -> str:
    """A number as a person writes it: 6.5, 4, 27.75, 98,000."""
    text = f"{v:,.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def pct(p, digits: int = 1) -> str:
    if p is None or p != p:
        return "–"
    if p == 0:
        return "0"
    if p == 1:
        return "100"
    if p < 0.0005:
        return "&lt;0.1"
    if p > 0.9995:
        return "&gt;99.9"
    return f"{100 * p:.{digits}f}"


# ---- gathering -----------------------------------------------------------------------------
def collect(fmt, scn, model, at, *, sims: int, seed: int, swing_sims: int,
            progress: bool | None = None, whocan_budget: int | None = None,
            fixed: dict | None = None) -> dict:
    """Everything the page shows, as JSON-able data.  ``fixed``: what-ifs (the format's
    ``parse_fix`` entries) assumed by the odds, the swing and who-can; the standings and the
    history stay those of the results played."""
    from . import history
    from .. import report
    from .. import driver
    from ..errors import ScenarioError

    ctx = {"scenario": scn.name, "file": scn.file, "at": at or "latest", "sims": sims,
           "seed": seed, "swing_sims": swing_sims, "format": fmt.name,
           "model": {"name": model.name, "version": model.version, "file": model.path},
           "generated": _dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")}
    from .. import __version__
    ctx["version"] = __version__
    ctx["standings"] = fmt.standings(scn, at)
    ctx["standings_text"] = fmt.render_standings(ctx["standings"])
    fixed = fixed or {}
    ctx["assumed"] = fmt.describe_fix(scn, fixed) if fixed else []
    extra = {"fixed": fixed} if fixed else {}
    opts = CompileOptions(at=at, fixed=fixed)
    plan = fmt.compile(scn, model, opts)
    res = driver.run(plan, sims, seed, progress=False)
    ctx["odds"] = report.simulation_json(scn, plan, res, at, model, opts)
    try:
        ctx["next"] = fmt.odds(scn, model, at)
    except ScenarioError as err:
        ctx["next"] = {"error": err.message}
    cps = history.checkpoints(fmt, scn)
    upto = at if at is not None else cps[-1]
    ctx["history"] = history.history(fmt, scn, model, sims=sims, seed=seed, progress=progress,
                                     at_most=upto)
    if SWING in fmt.features:
        try:
            ctx["swing"] = fmt.swing(scn, model, at, sims=swing_sims, seed=seed, **extra)
        except ScenarioError as err:
            ctx["swing"] = {"none": err.message}
    else:
        ctx["swing"] = {"none": f"the {fmt.name} format has no swing analysis"}
    if WHOCAN in fmt.features:
        try:
            ctx["whocan"] = fmt.whocan(scn, at, whocan_budget, **extra)
        except ScenarioError as err:
            ctx["whocan"] = {"none": err.message}
    else:
        ctx["whocan"] = {"none": f"the {fmt.name} format has no exact who-can analysis"}
    return ctx


# ---- the page ------------------------------------------------------------------------------
CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",Arial,sans-serif;
 margin:0;background:#f6f7f9;color:#1d2330;line-height:1.45}
main{max-width:1180px;margin:0 auto;padding:18px 22px 40px}
header{background:#1d2b44;color:#fff;padding:18px 22px}
header h1{margin:0;font-size:1.55em}
header p{margin:4px 0 0;color:#c9d3e6;font-size:.95em}
section{background:#fff;border:1px solid #e1e4ea;border-radius:8px;margin:18px 0;
 padding:14px 18px;overflow-x:auto}
h2{margin:0 0 10px;font-size:1.2em;color:#1d2b44}
h3{margin:14px 0 6px;font-size:1.02em}
table{border-collapse:collapse;font-size:.9em;margin:4px 0}
th,td{padding:4px 9px;border-bottom:1px solid #eceef2;text-align:right;white-space:nowrap;
 vertical-align:top}
table.swing th{white-space:normal;min-width:90px;max-width:150px;vertical-align:bottom}
th{background:#f0f2f6;font-weight:600}
td.l,th.l{text-align:left}
tr:hover td{background:#fafbfd}
.bar{display:inline-block;height:10px;background:#2e8b57;border-radius:2px;vertical-align:middle}
.barbox{display:inline-block;width:120px;background:#edf0f4;border-radius:2px;margin-left:6px}
.muted{color:#667085;font-size:.9em}
.se{color:#8a93a3;font-size:.85em}
.clinched{color:#1a7f37;font-weight:600}.alive{color:#9a6700;font-weight:600}
.eliminated{color:#8a93a3}
details{margin:2px 0 6px}summary{cursor:pointer;color:#1d4ed8}
pre{background:#f6f8fa;padding:10px;border-radius:6px;font-size:.85em;overflow-x:auto}
.chart svg{max-width:100%;height:auto}
.kv td{text-align:left}
"""


def page(ctx: dict) -> str:
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(ctx['scenario'])} at {e(ctx['at'])}: simcycle report</title>",
        f"<style>{CSS}</style></head><body>",
        f"<header><h1>{e(ctx['scenario'])}</h1><p>at {e(ctx['at'])} · "
        f"{ctx['sims']:,} simulations · model {e(ctx['model']['name'])} "
        f"{e(ctx['model']['version'])} · {e(ctx['generated'])}</p></header><main>",
        _assumed(ctx),
        _standings(ctx),
        _odds(ctx),
        _next(ctx),
        _history(ctx),
        _swing(ctx),
        _whocan(ctx),
        _about(ctx),
        "</main></body></html>",
    ]
    return "\n".join(parts) + "\n"


def _assumed(ctx) -> str:
    """The what-ifs the odds, swing and who-can assume (nothing when there are none)."""
    if not ctx.get("assumed"):
        return ""
    items = "".join(f"<li>{e(x)}</li>" for x in ctx["assumed"])
    return _section("assumed", "What-ifs assumed",
                    f"<p>The odds, the swing and who-can below assume these results; the "
                    f"standings and the history chart are those of the games played.</p>"
                    f"<ul>{items}</ul>")


def _section(id_: str, title: str, body: str) -> str:
    return f'<section id="{id_}"><h2>{e(title)}</h2>\n{body}\n</section>'


def _cell(key: str, v) -> str:
    if v is None:
        return "<td>–</td>"
    if isinstance(v, bool):
        return f"<td>{'yes' if v else 'no'}</td>"
    if isinstance(v, float):
        if key.startswith("p_") or key.startswith("se_p"):
            return f"<td>{pct(v)} %</td>"
        return f"<td>{num(v)}</td>"
    if isinstance(v, int):
        return f"<td>{v:,}</td>"
    if isinstance(v, list):
        return ("<td>" + " / ".join("–" if x is None else (pct(x) + " %" if key.startswith("p_")
                                    and isinstance(x, float) else e(x)) for x in v) + "</td>")
    if isinstance(v, dict):
        return "<td class=l>" + e(", ".join(f"{k}: {x}" for k, x in v.items())) + "</td>"
    return f"<td class=l>{e(v)}</td>"


def table(rows: list, columns: list | None = None, titles: dict | None = None) -> str:
    """A table of dicts: the given columns, or every key of the first row."""
    if not rows:
        return "<p class=muted>(none)</p>"
    cols = columns or [k for k in rows[0] if not isinstance(rows[0][k], dict)]
    titles = titles or {}
    left = {k for k in cols if any(isinstance(r.get(k), str) for r in rows)}
    head = "".join(f'<th class="{"l" if k in left else ""}">'
                   f"{e(titles.get(k, k.replace('_', ' ')))}</th>" for k in cols)
    body = "\n".join("<tr>" + "".join(_cell(k, r.get(k)) for k in cols) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table>"


def _standings(ctx) -> str:
    d = ctx["standings"]
    rows = d.get("players") if isinstance(d.get("players"), list) else None
    if rows and all(isinstance(r, dict) for r in rows):
        cols = [k for k in rows[0] if k not in ("shared",)]
        body = table(rows, cols, {"sb": "SB", "ahead_by": "ahead by"})
        if d.get("note"):
            body += f"<p class=muted>{e(d['note'])}</p>"
    else:
        body = f"<pre>{e(ctx['standings_text'])}</pre>"
    return _section("standings", f"Standings at {ctx['at']}", body)


def _odds(ctx) -> str:
    d = ctx["odds"]
    cur = d.get("currency") or ""
    q = d.get("qualifying_places")
    head = ("<tr><th class=l>player</th><th>E[points]</th><th>P(1st) %</th>"
            f"<th>P(qualify) % (top {q})</th><th class=l></th><th>E[prize] {e(cur)}</th></tr>")
    rows = []
    for p in d["players"]:
        w = max(0.0, min(1.0, p["p_qualify"])) * 120
        rows.append(
            f"<tr><td class=l>{e(p['name'])}</td>"
            f"<td>{p['expected_points']:.2f} "
            f"<span class=se>± {p['se_expected_points']:.3f}</span></td>"
            f"<td>{pct(p['p_first'])} <span class=se>± {100 * p['se_p_first']:.2f}</span></td>"
            f"<td>{pct(p['p_qualify'])} <span class=se>± {100 * p['se_p_qualify']:.2f}</span></td>"
            f"<td class=l><span class=barbox><span class=bar style=\"width:{w:.1f}px\"></span>"
            f"</span></td>"
            f"<td>{p['expected_prize']:,.0f}</td></tr>")
    body = (f"<table><thead>{head}</thead><tbody>\n" + "\n".join(rows) + "\n</tbody></table>"
            f"<p class=muted>{d['sims']:,} simulated completions from {e(d['at'])}, seed "
            f"{d['seed']}; ± are Monte Carlo standard errors (points of %).</p>")
    if d.get("events"):
        body += ("<p class=muted>" + " · ".join(f"{e(k)}: {pct(v['p'])} %"
                                                for k, v in d["events"].items()) + "</p>")
    return _section("odds", "Odds", body)


def _next(ctx) -> str:
    d = ctx["next"]
    if "error" in d:
        return _section("next", "Still to play", f"<p class=muted>{e(d['error'])}</p>")
    items = None
    for key in ("games", "matches", "events"):
        if d.get(key) and isinstance(d[key], list):   # the first that lists something
            items = (key, d[key])
            break
    if items is None or not items[1]:
        notes = "".join(f"<p class=muted>{e(n)}</p>" for n in d.get("notes") or [])
        return _section("next", "Still to play",
                        notes or "<p class=muted>nothing left to play</p>")
    key, rows = items
    title = "Still to play"
    if key == "games" and rows and "round" in rows[0]:
        first = rows[0]["round"]
        shown = [r for r in rows if r["round"] == first and r.get("event") == rows[0].get("event")]
        title = f"Next round ({first}): the games and their odds"
        cols = [c for c in ("event", "group", "round", "white", "black", "p_white", "p_draw",
                            "p_black") if c in rows[0]]
        body = table(shown, cols, {"p_white": "1-0 %", "p_draw": "draw %", "p_black": "0-1 %"})
        rest = len(rows) - len(shown)
    else:
        shown = rows[:16]
        body = table(shown)
        rest = len(rows) - len(shown)
    if rest > 0:
        body += f"<p class=muted>and {rest} more ({e('simcycle odds')} lists them all)</p>"
    return _section("next", title, body)


def _history(ctx) -> str:
    d = ctx["history"]
    if len(d["checkpoints"]) < 2:
        return _section("history", "History",
                        "<p class=muted>one checkpoint so far: no history to draw yet</p>")
    from . import charts
    svg = clean_svg(charts.svg_text(charts.history_figure(d, max_width=PAGE_INCHES)))
    note = (f"<p class=muted>{d['sims']:,} simulations per checkpoint, the same seed at every "
            "checkpoint (common random numbers), so a change between two checkpoints is the "
            "results played in between.</p>")
    return _section("history", "History: the odds after each checkpoint",
                    f'<div class="chart" role="img" aria-label="history chart">{svg}</div>{note}')


def clean_svg(svg: str) -> str:
    """Matplotlib's SVG for inline use: no metadata block, no namespace URLs (HTML needs
    none), no XML comments."""
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.S)
    svg = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", svg)
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.S)
    return svg


def _swing(ctx) -> str:
    d = ctx["swing"]
    if "none" in d:
        return _section("swing", "Next round's swing", f"<p class=muted>{e(d['none'])}</p>")
    items = []
    for g in d.get("games") or []:
        outs = [(r, g[k]) for r, k in zip(RESULT_WORDS, ("p_white", "p_draw", "p_black"))]
        title = f"{g['white']} – {g['black']}"
        if g.get("group"):
            title = f"group {g['group']}: " + title
        rows = [(p["name"], [p["p_first"][r] for r in RESULT_WORDS],
                 [p["p_qualify"][r] for r in RESULT_WORDS], p["swing_first"],
                 p["swing_qualify"]) for p in g["players"]]
        items.append((title, outs, rows))
    for m in d.get("matches") or []:
        outs = [(o["result"], o["p"]) for o in m["outcomes"]]
        title = f"{m.get('event', '')} {m.get('round', '')}: {' – '.join(m['players'])}"
        rows = [(p["name"], p["p_first"], p["p_qualify"], p["swing_first"], p["swing_qualify"])
                for p in m["swing"]]
        items.append((title, outs, rows))
    if not items:
        return _section("swing", "Next round's swing", "<p class=muted>nothing to swing</p>")
    q = d.get("qualifying_places") or 1
    key = 4 if q > 1 else 3
    label = "P(qualify)" if q > 1 else "P(1st)"
    which = f"round {e(d['round'])}" if d.get("round") is not None else "the next round"
    html = [f"<p class=muted>What each result of {which} would make of "
            f"every player's {label}: {d['sims']:,} simulations per result, common random "
            "numbers.  Players whose odds move less than half a point are left out.</p>"]
    for title, outs, rows in items:
        rows = [r for r in rows if r[key] >= 0.005]
        rows.sort(key=lambda r: -r[key])
        head = "".join(f"<th>if {e(o)}<br><span class=se>{pct(p, 0)} % likely</span></th>"
                       for o, p in outs)
        body = "".join(
            f"<tr><td class=l>{e(r[0])}</td>"
            + "".join(f"<td>{pct(x)} %</td>" for x in (r[2] if q > 1 else r[1]))
            + f"<td>{pct(r[key])}</td></tr>" for r in rows[:10])
        html.append(f"<h3>{e(title)}</h3><table class=swing><thead><tr><th class=l>{label}</th>"
                    f"{head}"
                    f"<th>swing</th></tr></thead><tbody>{body or ''}</tbody></table>"
                    + ("" if rows else "<p class=muted>no one's odds move</p>"))
    title = ("Next round's swing" + (f" (round {d['round']})" if d.get("round") is not None
                                     else ""))
    return _section("swing", title, "\n".join(html))


def step_words(s: dict) -> str:
    """One step of a whocan path in words."""
    where = " ".join(str(s[k]) for k in ("event", "stage", "group") if s.get(k) is not None)
    rnd = s.get("round")
    head = (f"{where}, round {rnd}" if where and rnd is not None else
            where or (f"round {rnd}" if rnd is not None else ""))
    if "white" in s and s.get("result") in RESULT_WORDS:
        w, b = s["white"], s["black"]
        what = {"1-0": f"{w} beats {b}", "0-1": f"{b} beats {w} (with Black)",
                "1/2-1/2": f"{w} and {b} draw"}[s["result"]]
    elif isinstance(s.get("result"), str):
        what = s["result"]
    elif s.get("stage") == "draw" and isinstance(s.get("groups"), dict):
        what = "groups drawn as " + "; ".join(f"{g}: {', '.join(v)}"
                                               for g, v in s["groups"].items())
        head = f"event {s.get('event')}"
    else:
        what = ", ".join(f"{k} {v}" for k, v in s.items() if k not in ("event", "round"))
    return f"{head}: {what}" if head else what


def path_words(name: str, path: list) -> str:
    """A whocan path as sentences: the player's own games first, then the rest."""
    if not path:
        return f"{name} needs nothing else: it can happen whatever the other results."
    mine = [s for s in path if name in (s.get("white"), s.get("black"))
            or name in (s.get("players") or [])]
    rest = [s for s in path if s not in mine]
    out = []
    if mine:
        out.append(f"<p><b>{e(name)}'s own:</b> " + "; ".join(e(step_words(s)) for s in mine)
                   + ".</p>")
    if rest:
        out.append(f"<p><b>{'and elsewhere' if mine else 'Elsewhere'}:</b> "
                   + "; ".join(e(step_words(s)) for s in rest) + ".</p>")
    return "".join(out)


def _whocan(ctx) -> str:
    d = ctx["whocan"]
    if "none" in d:
        return _section("whocan", "Who can still win or qualify",
                        f"<p class=muted>{e(d['none'])}</p>")
    html = []
    for target, rows in d["targets"].items():
        q = d.get("qualifying_places")
        html.append(f"<h3>{'First place' if target == 'first' else f'A qualifying place (top {q})'}"
                    "</h3><table><thead><tr><th class=l>status</th><th class=l>player</th>"
                    "<th>points</th><th class=l>how, with one way it can happen</th></tr>"
                    "</thead><tbody>")
        order = {"clinched": 0, "alive": 1, "undetermined": 2, "n/a": 3, "eliminated": 4}
        for r in sorted(rows, key=lambda r: order.get(r["status"], 5)):
            pts = (d.get("points") or {}).get(r["name"])
            shown = ("" if pts is None else
                     num(pts) if isinstance(pts, (int, float)) else e(pts))
            how = ""
            if r["status"] == "alive":
                how = ("can finish there outright" if r.get("via") == "outright" else
                       "only level on points (tiebreaks decide)")
                if r.get("at_worst") == "tiebreak":
                    how += "; cannot be passed, at worst level"
                path = r.get("path") or []
                words = "".join(f"<br>{e(line)}" for line in r.get("says") or [])
                opened = " open" if len(path) <= 24 else ""
                how = (f"{e(how)}{words}<details{opened}><summary>a path ({len(path)} result"
                       f"{'s' if len(path) != 1 else ''})</summary>{path_words(r['name'], path)}"
                       "</details>")
            elif r["status"] == "clinched":
                how = "whatever happens"
            elif r["status"] == "eliminated" and r.get("says"):
                how = e(r["says"][0])
            elif r["status"] == "n/a":
                how = "qualified elsewhere"
            html.append(f"<tr><td class=\"l {e(r['status']).replace('/', '')}\">{e(r['status'])}"
                        f"</td><td class=l>{e(r['name'])}</td><td>{shown}"
                        f"</td><td class=l style=\"white-space:normal\">{how}</td></tr>")
        html.append("</tbody></table>")
    left = d.get("games_left", d.get("matches_left"))
    if left == 0:
        html.insert(0, "<p class=muted>Nothing is left to play: the table is final.</p>")
    elif left is not None:
        html.insert(0, f"<p class=muted>Exact, over every result of the {left} game(s) or "
                       "match(es) still to play (not simulated).</p>")
    return _section("whocan", "Who can still win or qualify", "\n".join(html))


def _about(ctx) -> str:
    m = ctx["model"]
    rows = [("scenario file", ctx["file"]), ("format", ctx["format"]),
            ("checkpoint", ctx["at"]),
            ("model", f"{m['name']} {m['version']}" + (f" ({m['file']})" if m.get("file") else "")),
            ("simulations", f"{ctx['sims']:,} for the odds, {ctx['sims']:,} per checkpoint for "
                            f"the history, {ctx['swing_sims']:,} per result for the swing"),
            ("seed", ctx["seed"]), ("generated", ctx["generated"]),
            ("simcycle", ctx["version"])]
    body = ("<table class=kv><tbody>" + "".join(f"<tr><th class=l>{e(k)}</th><td>{e(v)}</td></tr>"
                                               for k, v in rows) + "</tbody></table>")
    return _section("about", "How this was made", body)
