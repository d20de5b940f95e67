"""The HTML report (``simcycle report``): one self-contained page.

Inline CSS, the history chart as inline SVG, no script, no font, image or style sheet from
anywhere else (not even a namespace URL: the SVG's are dropped, HTML does not need them), so
the page opens offline and can be mailed as one file.  Every text that comes from a scenario
or a result is escaped.

Sections: the standings, the odds (simulated from ``--at``), the games or matches still to
play, what each player needs from the next round (branches with their odds, ``needs``), the
history chart (every checkpoint up to ``--at``, common random numbers), the next round's swing
(formats that offer it; others say so), what score is enough (``scores``: round robins near
their end, with its chart), who can still win or qualify with a path in words (formats that
offer it), and how it was made (model, simulations, seed, date).  A section a format or
checkpoint cannot fill says why.
"""

from __future__ import annotations

import datetime as _dt
import re
from html import escape

import msgspec

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


def pct(p) -> str:
    """A probability in %, written as the text writes it (``report.percent``: certain is 100
    and 0 in both), escaped; "–" when there is none or it is not defined."""
    from . import percent

    return "–" if p is None or p != p else e(percent(p))


# ---- gathering -----------------------------------------------------------------------------
def collect(fmt, scn, model, at, *, sims: int, seed: int, swing_sims: int,
            progress: bool | None = None, whocan_budget: int | None = None,
            fixed: dict | None = None) -> dict:
    """Everything the page shows: the results' JSON (read back as their declared types by the
    sections) and the run's facts, the model as a ``ModelInfo``.  ``fixed``: what-ifs (the format's
    ``parse_fix`` entries) assumed by the odds, the swing and who-can; the standings and the
    history stay those of the results played."""
    from ..api.results import ModelInfo
    from . import history
    from .. import report
    from .. import driver
    from ..errors import ScenarioError

    from .words import after_text, colour_of
    ctx = {"scenario": scn.name, "file": scn.file, "at": at or "latest", "sims": sims,
           "after": after_text(fmt, scn, at), "colours": colour_of(history.scn_names(scn)),
           "seed": seed, "swing_sims": swing_sims, "format": fmt.name,
           # the model file by its name: the installed path says nothing to a reader
           "model": ModelInfo(name=model.name, version=model.version,
                              file=_file_name(model.path)),
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
    ctx["needs"], ctx["scores"] = commentary(fmt, scn, model, upto, fixed, sims=swing_sims,
                                             seed=seed)   # the checkpoint named, not "latest"
    if WHOCAN in fmt.features:
        try:
            ctx["whocan"] = fmt.whocan(scn, at, whocan_budget, **extra)
        except ScenarioError as err:
            ctx["whocan"] = {"none": err.message}
    else:
        ctx["whocan"] = {"none": f"the {fmt.name} format has no exact who-can analysis"}
    return ctx


SERIES_SCORE_SIMS = 4096   # the series' score tables: at least this many replicas (a share of
                           # 50 % then has a standard error of 0.8 points)


def commentary(fmt, scn, model, at, fixed: dict, *, sims: int, seed: int) -> tuple[dict, dict]:
    """The next round's branches with their odds (``commentary/branches.py``: ``needs --json``)
    and what score is enough (``commentary/scores.py``: ``scores --json``), each as JSON or
    ``{"none": why not}``.  The branches are simulated ``sims`` times each where they are not
    exact (at least 2,048: four chunks, for a standard error); the score tables are exact for
    round robins and simulated ``sims`` times (at least ``SERIES_SCORE_SIMS``) for the series
    formats."""
    import msgspec

    from ..commentary.branches import needs
    from ..commentary.scores import SERIES, scores
    from ..errors import ScenarioError

    try:
        nd = msgspec.to_builtins(needs(fmt, scn, model, at, fixed=fixed, sims=max(sims, 2048),
                                       seed=seed))
    except ScenarioError as err:
        nd = {"none": err.message}
    try:
        if fmt.name in SERIES or fmt.name == "swiss":   # simulated: filed by final points
            sc = msgspec.to_builtins(scores(fmt, scn, model, at, fixed, exact=False,
                                            sims=max(sims, SERIES_SCORE_SIMS), seed=seed))
        else:
            sc = msgspec.to_builtins(scores(fmt, scn, model, at, fixed, exact=True))
        if sc["games_left"] == 0 or (sc["series"] and all(len(p["rows"]) == 1
                                                         for p in sc["players"])):
            sc = {"none": "nothing left to play: every final score is known"}
    except ScenarioError as err:
        sc = {"none": err.message}
    return nd, sc


def _file_name(path) -> str | None:
    from pathlib import Path
    return None if not path else Path(path).name


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
.noise{color:#b0b7c3}
.clinched{color:#1a7f37;font-weight:600}.alive{color:#9a6700;font-weight:600}
.eliminated{color:#8a93a3}
details{margin:2px 0 6px}summary{cursor:pointer;color:#1d4ed8}
pre{background:#f6f8fa;padding:10px;border-radius:6px;font-size:.85em;overflow-x:auto}
.chart svg{max-width:100%;height:auto}
.kv td{text-align:left}
.scroll{overflow-x:auto}
.wi input{position:absolute;opacity:0}
.wi label{display:inline-block;border:1px solid #99a;border-radius:4px;padding:3px 8px;
 margin:2px;cursor:pointer;background:#f6f7fb}
.wi input:checked+label{background:#e0a030;border-color:#b07010;font-weight:600}
.wi input:focus-visible+label{outline:2px solid #1d4ed8}
.wig{display:block;margin:8px 0 2px;font-weight:600}
.wip{margin-top:10px;border:2px solid #e0a030;border-radius:6px;padding:6px 10px}
.sw{display:inline-block;width:.75em;height:.75em;border-radius:2px;margin-right:.35em;
 vertical-align:-.05em}
@media (max-width:560px){main{padding:10px 8px 30px}section{padding:10px 8px}
 th,td{padding:3px 4px}.wide{display:none}td.l{white-space:normal}}
"""


def page(ctx: dict) -> str:
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(ctx['scenario'])} {e(ctx['after'])}: simcycle report</title>",
        f"<style>{CSS}</style></head><body>",
        f"<header><h1>{e(ctx['scenario'])}</h1><p>{e(ctx['after'])} · "
        f"{ctx['sims']:,} simulations · model {e(ctx['model'].name)} "
        f"{e(ctx['model'].version)} · {e(ctx['generated'])}</p></header><main>",
        _assumed(ctx),
        _standings(ctx),
        _odds(ctx),
        _next(ctx),
        _needs(ctx),
        _whatif(ctx),
        _history(ctx),
        _swing(ctx),
        _scores(ctx),
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


def _standings(ctx) -> str:
    from ..api.results import Standings
    from .table import standings_table, to_html

    st = Standings.from_json(ctx["standings"])
    if not st.players:
        return _section("standings", f"Standings {ctx['after']}",
                        f"<pre>{e(ctx['standings_text'])}</pre>")
    return to_html(standings_table(st, colours=ctx["colours"], after=ctx["after"]),
                   id_="standings")


def _odds(ctx) -> str:
    from ..api.results import Simulation
    from .table import simulation_table, to_html

    sim = Simulation.from_json(ctx["odds"])
    t = simulation_table(sim, title="Odds", places=0, colours=ctx["colours"])
    t.notes = [f"{sim.sims:,} simulated completions {ctx['after']}, seed {sim.seed}."]
    t.notes += [f"{k}: {pct(v.p)} %".replace("&lt;", "<").replace("&gt;", ">")
                for k, v in (sim.events or {}).items()]
    return to_html(t, id_="odds")


def _next(ctx) -> str:
    from ..api.results import Odds
    from .table import odds_table, to_html

    d = ctx["next"]
    if "error" in d:
        return _section("next", "Still to play", f"<p class=muted>{e(d['error'])}</p>")
    od = Odds.from_json(d)
    if not od.items:
        notes = "".join(f"<p class=muted>{e(n)}</p>" for n in od.notes or [])
        return _section("next", "Still to play",
                        notes or "<p class=muted>nothing left to play</p>")
    return to_html(odds_table(od, colours=ctx["colours"]), id_="next")


WHATIF_LIMIT = 60     # results embedded as clickable what-ifs at most (each is one panel)


def _typed_swing(ctx):
    """The swing of the page as a :class:`~simcycle.api.results.Swing` (None: none)."""
    from ..api.results import Swing
    d = ctx["swing"]
    return None if "none" in d else Swing.from_json(d)


def whatif_panels(ctx) -> list[tuple[str, str, list]]:
    """The next round's results as (game, result, rows of (player, P now, P if so)), read
    from the swing (each result simulated with common random numbers); [] when there is none
    or when there are more than WHATIF_LIMIT results to embed."""
    sw = _typed_swing(ctx)
    if sw is None:
        return []
    what = "qualify" if sw.qualifying_places > 1 else "first"
    now = {p.name: getattr(p, f"p_{what}") for p in sw.now}
    out = []
    for item in sw.items:
        for k, o in enumerate(item.outcomes):
            rows = [(p.name, now.get(p.name), p.p(what)[k]) for p in item.rows]
            out.append((item.title, o.result, rows))
    return out if len(out) <= WHATIF_LIMIT else []


def _whatif(ctx) -> str:
    """The next round's results as what-ifs to click: radio buttons and one panel per result,
    shown by CSS alone (the page has no script), each panel the odds if that result happens."""
    panels = whatif_panels(ctx)
    if not panels:
        return ""
    sw = _typed_swing(ctx)
    label = "P(qualify)" if sw.qualifying_places > 1 else "P(1st)"
    css, inputs, boxes = [], [], []
    inputs.append('<input type=radio name=wi id=wi-0 checked><label for=wi-0>as it stands'
                  '</label>')
    boxes.append('<div class=wip id=wip-0><p class=muted>Pick a result above: the table shows '
                 f'every player whose {label} it moves.</p></div>')
    css.append("#wi-0:checked~#wip-0")
    last = None
    for k, (game, result, rows) in enumerate(panels, 1):
        if game != last:
            inputs.append(f"<span class=wig>{e(game)}</span>")
            last = game
        inputs.append(f"<input type=radio name=wi id=wi-{k}><label for=wi-{k}>{e(result)}"
                      "</label>")
        rows = sorted(rows, key=lambda r: -(r[2] or 0))
        body = "".join(
            f"<tr><td class=l>{_swatch(ctx, n)}{e(n)}</td><td>{pct(a)} %</td>"
            f"<td><b>{pct(b)} %</b></td><td>{_delta(a, b)}</td></tr>" for n, a, b in rows)
        boxes.append(f"<div class=wip id=wip-{k}><p><b>Assumed:</b> {e(game)} {e(result)} "
                     f"(not played)</p><table><thead><tr><th class=l>player</th><th>{label} "
                     f"now</th><th>if so</th><th>change</th></tr></thead><tbody>{body}"
                     "</tbody></table></div>")
        css.append(f"#wi-{k}:checked~#wip-{k}")
    style = (f"<style>.wip{{display:none}}{','.join(css)}{{display:block}}</style>")
    sims = sw.sims
    note = (f"<p class=muted>Each result simulated {sims:,} times with the same random "
            "numbers as the others (common random numbers), so the change is the result's."
            "</p>" if sims else "")
    return _section("whatif", "What if… (the next round's results)",
                    style + "<div class=wi>" + "".join(inputs) + "".join(boxes) + "</div>"
                    + note)


def _swatch(ctx, name: str) -> str:
    c = ctx.get("colours", {}).get(name)
    return f'<span class=sw style="background:{e(c)}"></span>' if c else ""


def _delta(a, b) -> str:
    if a is None or b is None:
        return "–"
    x = 100 * (b - a)
    if abs(x) < 0.05:
        return "0"
    return f"{'+' if x > 0 else '−'}{abs(x):.1f}"


def _history(ctx) -> str:
    from ..api.results import History
    h = History.from_json(ctx["history"])
    if len(h.checkpoints) < 2:
        return _section("history", "History",
                        "<p class=muted>one checkpoint so far: no history to draw yet</p>")
    from . import charts
    svg = clean_svg(charts.svg_text(charts.history_figure(h.to_json(),
                                                          max_width=PAGE_INCHES)))
    note = (f"<p class=muted>{h.sims:,} simulations per checkpoint, the same seed at every "
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
    """The next round's swing through the table model (``table.swing_tables``)."""
    from .table import swing_tables, to_html

    sw = _typed_swing(ctx)
    if sw is None:
        return _section("swing", "Next round's swing",
                        f"<p class=muted>{e(ctx['swing']['none'])}</p>")
    if not sw.items:
        return _section("swing", "Next round's swing", "<p class=muted>nothing to swing</p>")
    label = "P(qualify)" if sw.qualifying_places > 1 else "P(1st)"
    which = f"round {sw.round}" if sw.round is not msgspec.UNSET else "the next round"
    title = "Next round's swing" + (f" (round {sw.round})" if sw.round is not msgspec.UNSET
                                    else "")
    intro = [f"What each result of {which} would make of every player's {label}: "
             f"{sw.sims:,} simulations per result, common random numbers.  Players whose odds "
             "move less than half a point are left out; ± the swing's standard error from the "
             "paired runs, greyed when within noise (less than two standard errors)."]
    return to_html(swing_tables(sw, title=title, intro=intro, limit=10), id_="swing")


def _set(v):
    return None if v is msgspec.UNSET else v


def _pm(p: float, se: float) -> str:
    """A probability in %, with its standard error when it has one (simulated)."""
    return f"{pct(p)} %" + (f" <span class=se>±{100 * se:.1f}</span>" if se > 0 else "")


def _needs_how(d: dict) -> str:
    """How the odds inside the branches were found."""
    if d.get("method") == "conditioned-swiss":      # commentary/swiss.py
        return (f"{d['sims']:,} simulated events filed by the round's results, ± one standard "
                "error; a round not paired yet: the player's own result, whoever the pairing "
                "gives them")
    return ("exact: every outcome of the rest enumerated" if d["exact"] else
            f"{d['sims']:,} simulations per branch on common random numbers, ± one standard "
            "error")


def _item_row(it: dict) -> str:
    """One game, match or event of the round with its results' odds ("" for a Swiss
    player's own round not paired yet: in the branches)."""
    r = it["results"]
    if it["kind"] == "own":
        return ""
    if it["kind"] == "game":
        cells = (f"<td>{pct(r['1-0'])} %</td><td>{pct(r['1/2-1/2'])} %</td>"
                 f"<td>{pct(r['0-1'])} %</td>")
    elif it["kind"] == "event":     # a tour's next event: who wins it
        top = sorted((n for n in it["players"] if r[n] >= 0.0005), key=lambda n: -r[n])
        cells = ("<td colspan=3 class=l>wins: " + ", ".join(
            f"{e(n)} {pct(r[n])} %" for n in top)
            + f"; first place shared {pct(r['shared'])} %</td>")
    else:
        a, b = it["players"]
        cells = (f"<td>{e(a)} {pct(r['A'])} %</td><td></td><td>{e(b)} {pct(r['B'])} %"
                 "</td>")
    return f"<tr><td class=l>{e(it['label'])}</td>{cells}</tr>"


def _player_needs(ctx, p: dict, q: bool) -> str:
    """A player's heading and table of branches (``q``: with P(qualify))."""
    head = (f"<h3>{_swatch(ctx, p['name'])}{e(p['name'])}: P(1st) {pct(p['p_first'])} %"
            + (f", P(qualify) {pct(p['p_qualify'])} %" if q else "") + "</h3>")
    body = "".join(
        f"<tr><td class=l>{e(b['label'])}</td><td>{pct(b['p'])} %</td>"
        f"<td>{_pm(b['p_first'], b['se_first'])}</td>"
        + (f"<td>{_pm(b['p_qualify'], b['se_qualify'])}</td>" if q else "") + "</tr>"
        for b in p["branches"])
    return (head + "<table class=needs><thead><tr><th class=l>branch</th>"
            "<th>P(branch)</th><th>P(1st) in it</th>"
            + ("<th>P(qualify) in it</th>" if q else "")
            + f"</tr></thead><tbody>{body}</tbody></table>")


def _needs(ctx) -> str:
    """Each player's branches of the next round with their odds (``needs``)."""
    d = ctx.get("needs") or {"none": "no branches were computed"}
    title = "What each player needs"
    if "none" in d:
        return _section("needs", title, f"<p class=muted>{e(d['none'])}</p>")
    q = d["qualifying_places"] > 1
    html = [f"<p class=muted>{e(d['round']).capitalize()}: each player's own result, split by "
            "the one other game or match of the round that moves them most (its results "
            "merged where they leave the odds within a point, or within noise).  P(branch) is "
            "the chance of the branch's results; the odds are the player's inside it "
            f"({_needs_how(d)}).</p>"]
    rows = "".join(_item_row(it) for it in d["items"])
    if rows:
        html.append("<table><thead><tr><th class=l>game or match</th><th>1-0 (or first "
                    "player)</th><th>draw</th><th>0-1 (or second player)</th></tr></thead>"
                    "<tbody>" + rows + "</tbody></table>")
    html += [_player_needs(ctx, p, q) for p in d["players"]]
    return _section("needs", f"{title} from {d['round']}", "\n".join(html))


def _scores(ctx) -> str:
    """What score is enough (``scores``): the chart, then per contender P(1st | final score)
    split by how first is decided."""
    from ..commentary.scores import HOW, WORDS, contenders, figure
    from ..formats.roundrobin.rules import fmt_points
    from . import charts

    d = ctx.get("scores") or {"none": "not computed"}
    title = "What score is enough"
    if "none" in d:
        return _section("scores", title, f"<p class=muted>{e(d['none'])}</p>")
    if d.get("series") or d.get("format") == "swiss":
        return _series_scores(ctx, d, title)
    shown = contenders(d)
    if not shown:
        return _section("scores", title, "<p class=muted>nobody can still finish first</p>")
    q = d["qualifying_places"] > 1
    svg = clean_svg(charts.svg_text(figure(d, max_width=PAGE_INCHES)))
    html = [f"<p class=muted>Exact, over every outcome of the {d['games_left']} games left: "
            "each player's chance of first place at each final score, split by how first is "
            "decided (alone on points, on the tiebreak criteria, after a play-off, by lots); "
            "the score that is enough is the lowest at which first is more likely than not."
            "</p>", f'<div class="chart" role="img" aria-label="what score is enough chart">'
            f"{svg}</div>"]
    for p in shown:
        enough = (f"more likely than not first from {fmt_points(p['enough'])} points"
                  if p["enough"] is not None else "at no final score more likely than not first")
        body = "".join(
            f"<tr><td>{fmt_points(r['points'])}</td><td>{pct(r['p'])} %</td>"
            f"<td><b>{pct(r['first_given'])} %</b></td>"
            + "".join(f"<td>{pct(r['first'][k] / r['p'])} %</td>" for k in HOW)
            + (f"<td>{pct(r['p_qualify'] / r['p'])} %</td>" if q else "") + "</tr>"
            for r in p["rows"] if r["p"] > 0)
        html.append(f"<h3>{_swatch(ctx, p['name'])}{e(p['name'])}: P(1st) "
                    f"{pct(p['p_first'])} %; {e(enough)}</h3><table class=scores><thead><tr>"
                    "<th>final score</th><th>P(score)</th><th>P(1st | score)</th>"
                    + "".join(f"<th>{e(WORDS[k])}</th>" for k in HOW)
                    + ("<th>P(qualify | score)</th>" if q else "")
                    + f"</tr></thead><tbody>{body}</tbody></table>")
    html.append("<p class=muted>P(score): the chance of finishing on that score; P(1st | "
                "score): of finishing first on it, = outright + on tiebreaks + after a "
                "play-off + by lots (each also given that score).</p>")
    return _section("scores", title, "\n".join(html))


def _series_scores(ctx, d: dict, title: str) -> str:
    """A series' score tables (``scores`` on a knock-out or group series): per player likely
    to qualify, P(qualify) and P(1st) by final series points, first split into alone and level
    on points, the totals from which each is more likely than not."""
    from ..commentary.scores import contenders, figure, shown_rows
    from ..formats.roundrobin.rules import fmt_points
    from . import charts

    shown = contenders(d)
    if not shown:
        return _section("scores", title,
                        "<p class=muted>nobody can still finish first or qualify</p>")
    lab = d.get("points_label", "points")
    svg = clean_svg(charts.svg_text(figure(d, max_width=PAGE_INCHES)))
    how = ("the series tiebreaks, or lots, decided it; a series has no play-off for first"
           if d.get("series") else "the tie-break criteria, or lots, decided it; "
           "scores --json splits both by criterion")
    html = [f"<p class=muted>Simulated, {d['sims']:,} runs of the rest of the "
            f"{'series' if d.get('series') else 'event'} (seed "
            f"{d['seed']}, no rating offsets): each player's chance of a qualifying place and "
            f"of first at each final total of {e(lab)}, first split into alone on points and "
            f"level on points ({how}).  A share p of n runs has the standard error "
            "&radic;(p(1&minus;p)/n).</p>",
            f'<div class="chart" role="img" aria-label="what score is enough chart">{svg}</div>']

    def enough(x, what):
        return (f"more likely than not {what} from {fmt_points(x)} {lab}" if x is not None
                else f"at no final total more likely than not {what}")

    for p in shown:
        body = "".join(
            f"<tr><td>{fmt_points(r['points'])}</td><td>{pct(r['p'])} %</td>"
            f"<td><b>{pct(r['p_qualify'] / r['p'])} %</b></td>"
            f"<td>{pct(r['first_given'])} %</td>"
            f"<td>{pct(r['first']['outright'] / r['p'])} %</td>"
            f"<td>{pct((r['first']['tiebreak'] + r['first']['lots']) / r['p'])} %</td></tr>"
            for r in shown_rows(d, p))
        html.append(f"<h3>{_swatch(ctx, p['name'])}{e(p['name'])}: P(qualify) "
                    f"{pct(p['p_qualify'])} %, P(1st) {pct(p['p_first'])} %; "
                    f"{e(enough(p.get('enough_qualify'), 'to qualify'))}; "
                    f"{e(enough(p['enough'], 'first'))}</h3><table class=scores><thead><tr>"
                    f"<th>final {e(lab)}</th><th>P(final)</th><th>P(qualify | final)</th>"
                    "<th>P(1st | final)</th><th>alone on points</th><th>level on points</th>"
                    f"</tr></thead><tbody>{body}</tbody></table>")
    html.append("<p class=muted>P(final): the chance of ending the series on that total; "
                "P(qualify | final), P(1st | final): of a qualifying place, of first, on it; "
                "P(1st | final) = alone on points + level on points (each also given that "
                "total).  Totals below 0.05 % that neither qualify nor win are left out.</p>")
    return _section("scores", title, "\n".join(html))


def step_words(s) -> str:
    """One step of a whocan path (a :class:`~simcycle.api.results.PathStep`) in words."""
    where = " ".join(str(v) for v in (_set(s.event), _set(s.stage)) if v is not None)
    rnd = _set(s.round)
    head = (f"{where}, round {rnd}" if where and rnd is not None else
            where or (f"round {rnd}" if rnd is not None else ""))
    if _set(s.white) is not None and s.result in RESULT_WORDS:
        w, b = s.white, s.black
        what = {"1-0": f"{w} beats {b}", "0-1": f"{b} beats {w} (with Black)",
                "1/2-1/2": f"{w} and {b} draw"}[s.result]
    elif isinstance(_set(s.result), str):
        what = s.result
    elif s.stage == "draw" and isinstance(_set(s.groups), dict):
        what = "groups drawn as " + "; ".join(f"{g}: {', '.join(v)}"
                                               for g, v in s.groups.items())
        head = f"event {s.event}"
    else:
        what = ", ".join(f"{k} {v}" for k, v in s.to_json().items()
                         if k not in ("event", "round"))
    return f"{head}: {what}" if head else what


def path_words(name: str, path: list) -> str:
    """A whocan path (PathSteps) as sentences: the player's own games first, then the rest."""
    if not path:
        return f"{name} needs nothing else: it can happen whatever the other results."
    mine = [s for s in path if name in (_set(s.white), _set(s.black))
            or name in (_set(s.players) or [])]
    rest = [s for s in path if s not in mine]
    out = []
    if mine:
        out.append(f"<p><b>{e(name)}'s own:</b> " + "; ".join(e(step_words(s)) for s in mine)
                   + ".</p>")
    if rest:
        out.append(f"<p><b>{'and elsewhere' if mine else 'Elsewhere'}:</b> "
                   + "; ".join(e(step_words(s)) for s in rest) + ".</p>")
    return "".join(out)


# statuses in the order a table shows them
_STATUS_ORDER = {"clinched": 0, "alive": 1, "undetermined": 2, "n/a": 3, "eliminated": 4}
# the "how" cell of a row whose status says it all
_STATUS_HOW = {"clinched": "whatever happens", "n/a": "qualified elsewhere"}


def _alive_how(r) -> str:
    """The "how" cell of an alive row: outright or on tiebreaks, its sentences, one path."""
    says = r.says or []
    how = ("can finish there outright" if r.via == "outright" else
           "only level on points (tiebreaks decide)")
    if r.at_worst == "tiebreak":
        how += "; cannot be passed, at worst level"
    path = r.path or []
    words = "".join(f"<br>{e(line)}" for line in says)
    opened = " open" if len(path) <= 24 and not says else ""   # words said
    return (f"{e(how)}{words}<details{opened}><summary>a path ({len(path)} result"
            f"{'s' if len(path) != 1 else ''})</summary>{path_words(r.name, path)}"
            "</details>")


def _whocan_row(r, points) -> str:
    if r.status == "alive":
        how = _alive_how(r)
    elif r.status == "eliminated" and r.says:
        how = e(r.says[0])
    else:
        how = _STATUS_HOW.get(r.status, "")
    pts = points.get(r.name)
    shown = ("" if pts is None else
             num(pts) if isinstance(pts, (int, float)) else e(pts))
    return (f"<tr><td class=\"l {e(r.status).replace('/', '')}\">{e(r.status)}"
            f"</td><td class=l>{e(r.name)}</td><td>{shown}"
            f"</td><td class=l style=\"white-space:normal\">{how}</td></tr>")


def _whocan(ctx) -> str:
    d = ctx["whocan"]
    if "none" in d:
        return _section("whocan", "Who can still win or qualify",
                        f"<p class=muted>{e(d['none'])}</p>")
    from ..api.results import Whocan
    w = Whocan.from_json(d)
    html = []
    for target, rows in w.targets.items():
        q = w.qualifying_places
        html.append(f"<h3>{'First place' if target == 'first' else f'A qualifying place (top {q})'}"
                    "</h3><table><thead><tr><th class=l>status</th><th class=l>player</th>"
                    "<th>points</th><th class=l>how, with one way it can happen</th></tr>"
                    "</thead><tbody>")
        for r in sorted(rows, key=lambda r: _STATUS_ORDER.get(r.status, 5)):
            html.append(_whocan_row(r, w.points))
        html.append("</tbody></table>")
    left = next((v for v in (w.games_left, w.matches_left, w.events_left)
                 if v is not msgspec.UNSET), None)
    if left == 0:
        html.insert(0, "<p class=muted>Nothing is left to play: the table is final.</p>")
    elif left is not None:
        html.insert(0, f"<p class=muted>Exact, over every result of the {left} game(s) or "
                       "match(es) still to play (not simulated).</p>")
    return _section("whocan", "Who can still win or qualify", "\n".join(html))


def _about(ctx) -> str:
    m = ctx["model"]
    rows = [("scenario file", _file_name(ctx["file"])), ("format", ctx["format"]),
            ("checkpoint", ctx["at"] if ctx["at"] != "latest" else ctx["after"]),
            ("model", f"{m.name} {m.version}" + (f" ({m.file})" if m.file else "")),
            ("simulations", f"{ctx['sims']:,} for the odds, {ctx['sims']:,} per checkpoint for "
                            f"the history, {ctx['swing_sims']:,} per result for the swing"),
            ("seed", ctx["seed"]), ("generated", ctx["generated"]),
            ("simcycle", ctx["version"])]
    body = ("<table class=kv><tbody>" + "".join(f"<tr><th class=l>{e(k)}</th><td>{e(v)}</td></tr>"
                                               for k, v in rows) + "</tbody></table>")
    return _section("about", "How this was made", body)
