"""What score is enough: per player, P(1st) and P(qualify) by final score, first place split by
how it was decided (outright, tiebreak criteria, play-off, lots), and the lowest score at which
the player is more likely than not to finish first.

Exact, for round robins with at most ``EXACT_GAMES`` games left: the exact enumeration
(``formats/roundrobin/exact.py``) walks every outcome, and at each leaf the places it hands out
are read back by the winner's final score; how first was decided follows the enumeration's own
steps (a play-off's games or its lots from the play-off cascade).  Earlier (or with ``exact``
False): ``sims`` replicas of the round-robin stage itself (``scores_nb.py``: the simulation
kernel's draws, no rating offsets), each filed by every player's final score, with how first
was decided read off the stage's counters; each share carries its binomial standard error.
"""

from __future__ import annotations

import msgspec

from ..errors import ScenarioError

EXACT_GAMES = 10
HOW = ("outright", "tiebreak", "playoff", "lots")


class ScoreRow(msgspec.Struct):
    """One final score of a player: ``p`` P(finishing on it); ``p_first`` P(first and this
    score) = the sum of ``first`` (outright, tiebreak, playoff, lots); ``p_qualify`` P(a
    qualifying place and this score); ``first_given`` P(first | this score)."""

    points: float
    p: float
    p_first: float
    first: dict[str, float]
    p_qualify: float
    first_given: float
    # a Swiss (``commentary/swiss.py``): ``first``'s tiebreak share by the criterion that
    # decided it, and ``p_qualify`` split the same way (outright, tiebreak, lots) and by criterion
    first_by_criterion: dict[str, float] = {}
    qualify: dict[str, float] = {}
    qualify_by_criterion: dict[str, float] = {}


class PlayerScores(msgspec.Struct):
    name: str
    p_first: float
    p_qualify: float
    enough: float | None       # lowest score with P(first | score) > 1/2 (None: none)
    rows: list[ScoreRow]
    enough_qualify: float | None = None   # lowest score with P(qualify | score) > 1/2

    def __post_init__(self):
        if self.enough_qualify is None:
            self.enough_qualify = next((r.points for r in self.rows
                                        if r.p > 0 and r.p_qualify / r.p > 0.5), None)


class ScoreReport(msgspec.Struct):
    """``simcycle scores --json``; ``sims`` 0 when exact."""

    scenario: str
    file: str
    at: str
    games_left: int
    qualifying_places: int
    players: list[PlayerScores]
    exact: bool = True
    sims: int = 0
    seed: int = 0
    model: str = ""          # the model file's name and version
    series: bool = False     # a series format: rows by series points (games_left -1)
    points_label: str = "points"
    criteria: list[str] = []   # a Swiss: its tie-break criteria, in order (``first_by_criterion``)
    format: str = ""           # "swiss": the rows carry the splits by criterion


DEFAULT_SIMS = 65_536


SERIES = ("knockout-series", "group-series")


def _swiss(fmt, scn, model, at, fixed, *, sims, seed):
    from . import swiss
    return swiss.scores(fmt, scn, model, at, fixed, sims=sims, seed=seed)


def scores(fmt, scn, model, at, fixed=None, *, exact: bool | None = None,
           sims: int | None = None, seed: int = 1) -> ScoreReport:
    """``exact``: None = exact where at most ``EXACT_GAMES`` games are left, else simulated;
    ``sims`` None: ``DEFAULT_SIMS`` (a Swiss: ``swiss.DEFAULT_SIMS``, its replicas are costly)."""
    if sims is None:
        from .swiss import DEFAULT_SIMS as SWISS_SIMS
        sims = SWISS_SIMS if fmt.name == "swiss" else DEFAULT_SIMS
    simulated_only = {**dict.fromkeys(SERIES, series), "swiss": _swiss}.get(fmt.name)
    if fmt.name == "cycle":
        return _cycle(fmt, scn, model, at, fixed, exact=exact, sims=sims, seed=seed)
    if simulated_only is not None:
        if exact:
            raise ScenarioError("scores: exact for round robins only", file=scn.file,
                                key="--exact", value=fmt.name)
        d = simulated_only(fmt, scn, model, at, fixed, sims=sims, seed=seed)
    elif fmt.name == "round-robin":
        d = _round_robin(fmt, scn, model, at, fixed, exact=exact, sims=sims, seed=seed)
    else:
        raise ScenarioError("scores: round robins, the series formats and the Swiss only",
                            file=scn.file, key="format", value=fmt.name)
    d.model = model_label(model)
    return d


def _cycle(fmt, scn, model, at, fixed, *, exact, sims, seed) -> ScoreReport:
    """A cycle's table is its final's (a round robin: P(wins the final) by final score there),
    once every event feeding it is over and its field known: at a checkpoint of the final (the
    latest: the cycle's last checkpoint).  Before, who plays it is itself uncertain, and the
    cycle's replicas do not keep the final's scores: refused, naming the first checkpoint."""
    from ..formats.cycle import rules

    ev_at, fin_at = rules.part_at(scn, at or fmt.checkpoints(scn)[-1])
    final = scn.final
    if any(a is not None for a in ev_at):
        first = next((c for c in fmt.checkpoints(scn) if c.startswith(final.id + "-")),
                     "none yet")
        raise ScenarioError(f"scores for a cycle: from a checkpoint of its final on ({first}; "
                            "before, who plays it is not known)", file=scn.file, key="--at",
                            value=at or "latest")
    k = len(scn.events)
    mine = {pk: v for (i, pk), v in (fixed or {}).items() if i == k}
    d = scores(final.fmt, final.scn, model.for_kind(final.scn.kind), fin_at, mine,
               exact=exact, sims=sims, seed=seed)
    d.scenario, d.file, d.at = f"{scn.name}: {final.scn.name}", scn.file, at or "latest"
    return d


def _round_robin(fmt, scn, model, at, fixed, *, exact, sims, seed) -> ScoreReport:
    """A round robin's table: enumerated with at most ``EXACT_GAMES`` games left (``exact``
    None), else simulated."""
    from ..formats.roundrobin.rules import split_games

    played, remaining = split_games(scn, at, fixed)
    small = len(remaining) <= EXACT_GAMES
    if exact and not small:
        raise ScenarioError(f"scores: {len(remaining)} games left; exact up to {EXACT_GAMES}",
                            file=scn.file, key="--exact", value=at or "latest")
    if not (small if exact is None else exact):
        return simulated(fmt, scn, model, at, fixed, sims=sims, seed=seed,
                         games_left=len(remaining))
    return _enumerated(scn, model, at, played, remaining)


def _enumerated(scn, model, at, played, remaining) -> ScoreReport:
    """The exact table: every outcome of the remaining games walked, each leaf filed by every
    player's final points and by how first place was decided."""
    from ..formats.roundrobin.exact import _Enumeration, _order_group

    class Tally(_Enumeration):
        def __init__(self, *a):
            super().__init__(*a)
            self.by = [dict() for _ in range(self.n)]     # pts -> [p, first, qualify]
            self.how = [dict() for _ in range(self.n)]    # pts -> [outright, tb, po, lots]

        def leaf(self, prob):
            n, pts, nq = self.n, self.pts, max(self.nq, 1)
            before_f = [self.place[i][0] for i in range(n)]
            before_q = [sum(self.place[i][:nq]) for i in range(n)]
            super().leaf(prob)
            for i in range(n):
                row = self.by[i].setdefault(pts[i], [0.0, 0.0, 0.0])
                row[0] += prob
                row[1] += self.place[i][0] - before_f[i]
                row[2] += sum(self.place[i][:nq]) - before_q[i]
            self.decided(prob)

        def add(self, i, k, w):
            self.how[i].setdefault(self.pts[i], [0.0] * 4)[k] += w

        def decided(self, prob):
            """How first place was decided in this outcome (the steps of ``leaf``)."""
            n, pts = self.n, self.pts
            top = max(pts)
            level = [i for i in range(n) if pts[i] == top]
            if len(level) == 1:
                self.add(level[0], 0, prob)
                return
            subs, _ = _order_group(level, self.before, self.t)
            G = subs[0]
            if len(G) == 1:
                self.add(G[0], 1, prob)
                return
            if self.k_po is None:           # level on every criterion: lots share it
                for p in G:
                    self.add(p, 3, prob / len(G))
                return
            if self.forced in G:
                self.add(self.forced, 2, prob)
                return
            win, _, _ = self.po.cascade(tuple(G))
            for w, (pn, pl) in win.items():
                self.add(w, 2, prob * pn)
                self.add(w, 3, prob * pl)

    en = Tally(scn, model, played, remaining)
    en.walk(0, 1.0)
    players = []
    for i, pl in enumerate(scn.players):
        rows = []
        for s in sorted(en.by[i]):
            p, f, q = en.by[i][s]
            h = en.how[i].get(s, [0.0] * 4)
            rows.append(ScoreRow(points=s / 2, p=p, p_first=f, first=dict(zip(HOW, h)),
                                 p_qualify=q,
                                 first_given=min(f / p, 1.0) if p > 0 else 0.0))
        enough = next((r.points for r in rows if r.first_given > 0.5), None)
        players.append(PlayerScores(pl.name, sum(r.p_first for r in rows),
                                    sum(r.p_qualify for r in rows), enough, rows))
    players.sort(key=lambda x: -x.p_first)
    return ScoreReport(scenario=scn.name, file=scn.file, at=at or "latest",
                       games_left=len(remaining), qualifying_places=scn.qualifying_places,
                       players=players)


def model_label(model) -> str:
    return f"{model.name} v{model.version}"


def simulated(fmt, scn, model, at, fixed, *, sims: int, seed: int,
              games_left: int) -> ScoreReport:
    """The score table from ``sims`` replicas of the round-robin stage (module doc)."""
    import numpy as np

    from ..formats.base import CompileOptions
    from ..kernels.config import CHUNK
    from .scores_nb import scores_nb

    plan = fmt.compile(scn, model, CompileOptions(at=at, fixed=dict(fixed or {})))
    a = plan.args._replace(n_qual=1)
    n = len(scn.players)
    nrep = -(-sims // CHUNK) * CHUNK
    pts = np.zeros((nrep, n), np.int64)
    winner = np.zeros(nrep, np.int64)
    how = np.zeros(nrep, np.int64)
    qual = np.zeros((nrep, n), np.int64)
    scores_nb(np.uint64(seed), np.int64(0), np.int64(nrep), a, plan.args.qualified, pts,
              winner, how, qual)
    players = []
    for i, pl in enumerate(scn.players):
        rows = []
        first = winner == i
        for v in np.unique(pts[:, i]):
            at_v = pts[:, i] == v
            c = int(at_v.sum())
            fv = first & at_v
            split = {k: int((fv & (how == h)).sum()) / nrep for h, k in enumerate(HOW)}
            nf = int(fv.sum())
            rows.append(ScoreRow(points=int(v) / 2, p=c / nrep, p_first=nf / nrep, first=split,
                                 p_qualify=int((qual[:, i] == 1)[at_v].sum()) / nrep,
                                 first_given=nf / c))
        enough = next((r.points for r in rows if r.first_given > 0.5), None)
        players.append(PlayerScores(pl.name, int(first.sum()) / nrep,
                                    int((qual[:, i] == 1).sum()) / nrep, enough, rows))
    players.sort(key=lambda x: -x.p_first)
    return ScoreReport(scenario=scn.name, file=scn.file, at=at or "latest",
                       games_left=games_left, qualifying_places=scn.qualifying_places,
                       players=players, exact=False, sims=nrep, seed=seed)


def series(fmt, scn, model, at, fixed, *, sims: int, seed: int) -> ScoreReport:
    """The series formats: P(1st) and P(qualify) by final series points, from ``sims``
    replicas of the format's stage (``series_nb.py``); first is "outright" when alone on
    points, else "tiebreak" (the series criteria, or lots, decided it)."""
    import numpy as np

    from ..formats.base import CompileOptions
    from ..kernels.config import CHUNK
    from . import series_nb

    plan = fmt.compile(scn, model, CompileOptions(at=at, fixed=dict(fixed or {})))
    a = plan.args
    names = list(plan.info.names)
    n = len(names)
    nrep = -(-sims // CHUNK) * CHUNK
    pts = np.zeros((nrep, n), np.int64)
    top = np.zeros(nrep, np.int64)
    level = np.zeros(nrep, np.int64)
    qual = np.zeros((nrep, n), np.int64)
    if fmt.name == "knockout-series":
        series_nb.ko_series_nb(np.uint64(seed), np.int64(0), np.int64(nrep), a, pts, top,
                               level, qual)
    else:
        series_nb.gs_series_nb(np.uint64(seed), np.int64(0), np.int64(nrep), a,
                               np.int64(len(plan.info.counter_names)), pts, top, level, qual)
    scale = plan.info.points_scale
    players = []
    for i, name in enumerate(names):
        rows = []
        first = top == i
        for v in np.unique(pts[:, i]):
            at_v = pts[:, i] == v
            c = int(at_v.sum())
            fv = first & at_v
            nf = int(fv.sum())
            split = {"outright": int((fv & (level == 0)).sum()) / nrep,
                     "tiebreak": int((fv & (level == 1)).sum()) / nrep,
                     "playoff": 0.0, "lots": 0.0}
            rows.append(ScoreRow(points=float(v) / scale, p=c / nrep, p_first=nf / nrep,
                                 first=split,
                                 p_qualify=int((qual[:, i] == 1)[at_v].sum()) / nrep,
                                 first_given=nf / c))
        enough = next((r.points for r in rows if r.first_given > 0.5), None)
        players.append(PlayerScores(name, int(first.sum()) / nrep,
                                    int((qual[:, i] == 1).sum()) / nrep, enough, rows))
    players.sort(key=lambda x: (-x.p_first, -x.p_qualify))
    return ScoreReport(scenario=scn.name, file=scn.file, at=at or "latest",
                       games_left=-1, qualifying_places=scn.qualifying_places,
                       players=players, exact=False, sims=nrep, seed=seed, series=True,
                       points_label=plan.info.points_label or "points")


def render(d: dict) -> str:
    from ..formats.roundrobin.rules import fmt_points

    how = ("exact: every outcome enumerated" if d.get("exact", True) else
           f"{d['sims']:,} simulations, seed {d['seed']}, no rating offsets")
    if d.get("series"):
        return render_series(d)
    if d.get("format") == "swiss":
        return render_swiss(d)
    lines = [f"{d['scenario']}  at {d['at']}: what score is enough ({d['games_left']} games "
             f"left, {how})", ""]
    qual = d["qualifying_places"] > 1
    for p in d["players"]:
        if p["p_first"] <= 0 and p["p_qualify"] <= 0:
            continue
        enough = (f"more likely than not first from {fmt_points(p['enough'])} points"
                  if p["enough"] is not None else "at no final score more likely than not first")
        lines.append(f"{p['name']}: P(1st) {_pct(p['p_first'])}; {enough}")
        head = (f"    {'final':>6}{'P(score)':>10}{'P(1st|score)':>14}   P(1st and score) = "
                f"{'outright':>9}{'tiebreak':>9}{'play-off':>9}{'lots':>8}")
        if qual:
            head += f"{'P(qualify|score)':>18}"
        lines.append(head)
        for r in p["rows"]:
            f = r["first"]
            row = (f"    {fmt_points(r['points']):>6}{100 * r['p']:9.1f}%"
                   f"{100 * r['first_given']:13.1f}%"
                   f"   {100 * r['p_first']:15.2f} % = {100 * f['outright']:8.2f}"
                   f"{100 * f['tiebreak']:9.2f}{100 * f['playoff']:9.2f}{100 * f['lots']:8.2f}")
            if qual:
                row += f"{100 * r['p_qualify'] / r['p'] if r['p'] > 0 else 0.0:17.1f}%"
            lines.append(row)
        lines.append("")
    lines.append("final: the player's final score; P(score): the chance of finishing on it; "
                 "P(1st|score): of finishing first on it; P(1st and score), in %, split by how "
                 "first is decided: outright (alone on points), tiebreak (the criteria before "
                 "a play-off), play-off (its games), lots."
                 + ("" if d.get("exact", True) else
                    "  Simulated: a share p of n simulations has the standard error "
                    "sqrt(p(1-p)/n); P(1st|score) on a rare score is rough."))
    return "\n".join(lines)


def render_series(d: dict) -> str:
    """A series: per player, by final series points, P(points), P(1st | points) split alone /
    level on points, P(qualify | points)."""
    from ..formats.roundrobin.rules import fmt_points

    lab = d.get("points_label", "points")
    lines = [f"{d['scenario']}  at {d['at']}: what score is enough ({d['sims']:,} simulations,"
             f" seed {d['seed']}, no rating offsets; {lab})", ""]
    for p in d["players"]:
        if p["p_first"] <= 0 and p["p_qualify"] <= 0:
            continue
        eq = p.get("enough_qualify")
        words = (f"more likely than not to qualify from {fmt_points(eq)} {lab}" if eq is not None
                 else "at no final total more likely than not to qualify")
        lines.append(f"{p['name']}: P(1st) {100 * p['p_first']:.1f} %, P(qualify) "
                     f"{100 * p['p_qualify']:.1f} %; {words}")
        lines.append(f"    {'final':>6}{'P(final)':>10}{'P(qualify|final)':>18}"
                     f"{'P(1st|final)':>14}   P(1st and final) = {'alone':>7}{'level':>7}")
        for r in p["rows"]:
            if r["p"] < 0.0005 and r["p_qualify"] == 0 and r["p_first"] == 0:
                continue
            f = r["first"]
            lines.append(f"    {fmt_points(r['points']):>6}{100 * r['p']:9.1f}%"
                         f"{100 * r['p_qualify'] / r['p']:17.1f}%{100 * r['first_given']:13.1f}%"
                         f"   {100 * r['p_first']:15.2f} % = {100 * f['outright']:6.2f}"
                         f"{100 * f['tiebreak']:7.2f}")
        lines.append("")
    lines.append(f"final: the player's final {lab} (totals below 0.05 % that neither qualify "
                 "nor win are left out); P(final): the chance of ending on it; "
                 "P(qualify|final), P(1st|final): of a qualifying place, of first, on it; "
                 "P(1st and final), in %, split into alone on points and level on points "
                 "(the series tiebreaks or lots decided).  A simulated share p of n "
                 "simulations has the standard error sqrt(p(1-p)/n).")
    return "\n".join(lines)


def render_swiss(d: dict) -> str:
    """A Swiss: per player, by final score, P(score), P(qualify | score) and P(1st | score),
    and P(qualify and score) split outright / by each tie-break criterion / lots."""
    from ..formats.roundrobin.rules import fmt_points

    crit = d.get("criteria", [])
    lines = [f"{d['scenario']}  at {d['at']}: what score is enough ({d['sims']:,} simulations,"
             f" seed {d['seed']}, no rating offsets; {d['qualifying_places']} qualify)", ""]
    for p in d["players"]:
        if p["p_first"] <= 0 and p["p_qualify"] <= 0:
            continue
        eq = p.get("enough_qualify")
        words = (f"more likely than not to qualify from {fmt_points(eq)} points" if eq is not None
                 else "at no final score more likely than not to qualify")
        lines.append(f"{p['name']}: P(qualify) {_pct(p['p_qualify'])}, P(1st) "
                     f"{_pct(p['p_first'])}; {words}")
        head = (f"    {'final':>6}{'P(score)':>10}{'P(qual|score)':>15}{'P(1st|score)':>14}"
                f"   P(qualify and score) = {'outright':>9}"
                + "".join(f"{c:>{max(len(c) + 2, 9)}}" for c in crit) + f"{'lots':>7}")
        lines.append(head)
        for r in p["rows"]:
            if r["p"] < 0.0005 and r["p_qualify"] == 0 and r["p_first"] == 0:
                continue
            q = r["qualify"]
            row = (f"    {fmt_points(r['points']):>6}{100 * r['p']:9.1f}%"
                   f"{100 * r['p_qualify'] / r['p']:14.1f}%{100 * r['first_given']:13.1f}%"
                   f"   {100 * r['p_qualify']:19.2f} % = {100 * q['outright']:8.2f}"
                   + "".join(f"{100 * r['qualify_by_criterion'][c]:{max(len(c) + 2, 9)}.2f}"
                             for c in crit)
                   + f"{100 * q['lots']:7.2f}")
            lines.append(row)
        lines.append("")
    lines.append("final: the player's final score (scores below 0.05 % that neither qualify nor "
                 "win are left out); P(score): the chance of ending on it; P(qual|score), "
                 "P(1st|score): of a qualifying place (passing-down counted), of first place, on "
                 "it; P(qualify and score), in %, split by how the place was decided against the "
                 "best eligible player outside the places: outright (more points), the "
                 "tie-break criterion that separated them (in the event's order), lots.  A "
                 "simulated share p of n simulations has the standard error sqrt(p(1-p)/n); "
                 "--json also splits first place the same way.")
    return "\n".join(lines)


COLOURS = {"outright": "#1f77b4", "tiebreak": "#2ca02c", "playoff": "#ff7f0e", "lots": "#7f7f7f"}
WORDS = {"outright": "outright", "tiebreak": "on tiebreaks", "playoff": "after a play-off",
         "lots": "by lots"}


SERIES_WORDS = {WORDS["outright"]: "alone on points",
                WORDS["tiebreak"]: "level on points (series tiebreaks or lots)"}


def chart(d: dict, path, players: int = 4) -> str:
    """``scores --plot``: :func:`figure` written to ``path`` (PNG or SVG)."""
    from ..report.charts import save

    if not contenders(d, players):
        raise ScenarioError("scores --plot: nobody can still finish first or qualify",
                            key="--plot",
                            value=str(path))
    return save(figure(d, players), path)


def _pct(p: float) -> str:
    from .branches import _pct as pct
    return pct(p)


def by_qualify(d: dict) -> bool:
    """A table where qualifying is the question: a series or a Swiss (P(qualify | final) shown
    with the bars, contenders by P(qualify))."""
    return bool(d.get("series")) or d.get("format") == "swiss"


def contenders(d: dict, players: int = 4) -> list[dict]:
    """The players the chart shows: those who can still finish first (a series, a Swiss: or
    take a qualifying place, likeliest to qualify first), best first."""
    if by_qualify(d):
        return sorted((p for p in d["players"] if p["p_first"] > 0 or p["p_qualify"] > 0),
                      key=lambda p: (-p["p_qualify"], -p["p_first"]))[:players]
    return [p for p in d["players"] if p["p_first"] > 0][:players]


def shown_rows(d: dict, p: dict) -> list[dict]:
    """A player's rows a table or chart shows: every score with a chance; a series' totals
    below 0.05 % that neither qualify nor win left out (``render_series``; a Swiss's too)."""
    if by_qualify(d):
        return [r for r in p["rows"]
                if r["p"] > 0 and (r["p"] >= 0.0005 or r["p_qualify"] > 0 or r["p_first"] > 0)]
    return [r for r in p["rows"] if r["p"] > 0]


def _panel(ax, d: dict, p: dict, series: bool) -> None:
    """One contender's bars (P(1st | final) split by how first is decided) and, where
    qualifying is the question, P(qualify | final) as dots."""
    from ..formats.roundrobin.rules import fmt_points

    rows = shown_rows(d, p)
    x = list(range(len(rows)))
    bottom = [0.0] * len(rows)
    for k in HOW:
        h = [r["first"][k] / r["p"] for r in rows]
        ax.bar(x, h, bottom=bottom, color=COLOURS[k], label=WORDS[k], width=0.7)
        bottom = [b + v for b, v in zip(bottom, h)]
    if series:
        ax.plot(x, [r["p_qualify"] / r["p"] for r in rows], "o", color="black", ms=4,
                label="P(qualify | final)")
    ax.axhline(0.5, color="black", lw=0.8, ls="--")
    mid = (len(rows) - 1) / 2       # a bar no wider than in a panel of three
    ax.set_xlim(min(-0.6, mid - 1.6), max(len(rows) - 0.4, mid + 1.6))
    ax.set_xticks(x, [fmt_points(r["points"]) for r in rows],
                  fontsize=8 if len(rows) > 9 else 10, rotation=45 if len(rows) > 11 else 0)
    ax.set_title(f"{p['name']}\nP(1st) {_pct(p['p_first'])}"
                 + (f", P(qualify) {_pct(p['p_qualify'])}" if series else ""), fontsize=9)
    lab = d.get("points_label", "points")
    ax.set_xlabel(f"final {lab}" if series else "final score (points)")
    ax.set_ylim(0, 1.02)


def _legend_entries(ax, series: bool, swiss: bool):
    """The legend's handles and labels: a series has no play-off for first and counts lots
    with the tiebreaks (its own words); a Swiss no play-off."""
    handles, labels = ax.get_legend_handles_labels()
    if not series:
        return handles, labels
    drop = (WORDS["playoff"],) if swiss else (WORDS["playoff"], WORDS["lots"])
    keep = [i for i, k in enumerate(labels) if k not in drop]
    handles, labels = [handles[i] for i in keep], [labels[i] for i in keep]
    return handles, labels if swiss else [SERIES_WORDS.get(k, k) for k in labels]


def figure(d: dict, players: int = 4, max_width: float | None = None):
    """P(1st | final score) per contender (up to ``players``), each bar split by how first is
    decided; the dashed line is 50 % (the score that is enough).  ``max_width``: inches the
    figure may take at most (the HTML report's page)."""
    from matplotlib.figure import Figure

    shown = contenders(d, players)
    width = 3.2 * len(shown) + 1
    if max_width is not None:
        width = min(width, max_width)
    fig = Figure(figsize=(width, 3.9), layout="constrained")
    axes = fig.subplots(1, len(shown), sharey=True, squeeze=False)[0]
    series = by_qualify(d)
    for ax, p in zip(axes, shown):
        _panel(ax, d, p, series)
    axes[0].set_ylabel("P(1st | final): bars; P(qualify | final): dots" if series
                       else "P(1st | final score)")
    axes[0].yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f} %")
    handles, labels = _legend_entries(axes[0], series, d.get("format") == "swiss")
    fig.legend(handles, labels, loc="outside lower center", ncol=4, fontsize=8,
               title="first place decided" + (" (bars)" if series else ""),
               title_fontsize=8)
    how = "exact" if d.get("exact", True) else f"{d['sims']:,} simulations"
    model = f", model {d['model']}" if d.get("model") else ""
    fig.suptitle(f"{d['scenario']} at {d['at']}: what score is enough ({how}{model}; "
                 "dashed: 50 %)", fontsize=10)
    return fig
