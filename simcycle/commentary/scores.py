"""What score is enough: per player, P(1st) and P(qualify) by final score, first place split by
how it was decided (outright, tiebreak criteria, play-off, lots), and the lowest score at which
the player is more likely than not to finish first.

Exact, for round robins with at most ``EXACT_GAMES`` games left: the exact enumeration
(``formats/roundrobin/exact.py``) walks every outcome, and at each leaf the places it hands out
are read back by the winner's final score; how first was decided follows the enumeration's own
steps (a play-off's games or its lots from the play-off cascade).  Earlier checkpoints need a
tally in the simulation kernel (not built yet).
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


class PlayerScores(msgspec.Struct):
    name: str
    p_first: float
    p_qualify: float
    enough: float | None       # lowest score with P(first | score) > 1/2 (None: none)
    rows: list[ScoreRow]


class ScoreReport(msgspec.Struct):
    """``simcycle scores --json``."""

    scenario: str
    file: str
    at: str
    games_left: int
    qualifying_places: int
    players: list[PlayerScores]


def scores(fmt, scn, model, at, fixed=None) -> ScoreReport:
    if fmt.name != "round-robin":
        raise ScenarioError("scores: round robins only for now", file=scn.file, key="format",
                            value=fmt.name)
    from ..formats.roundrobin.exact import _Enumeration, _order_group
    from ..formats.roundrobin.rules import split_games

    played, remaining = split_games(scn, at, fixed)
    if len(remaining) > EXACT_GAMES:
        raise ScenarioError(f"scores: {len(remaining)} games left; exact up to {EXACT_GAMES}",
                            file=scn.file, key="--at", value=at or "latest")

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
            sb = [sum(self.res[i][j] * pts[j] for j in range(n)) for i in range(n)]
            subs, _ = _order_group(level, self.before, pts, self.wins, self.res, sb)
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


def render(d: dict) -> str:
    from ..formats.roundrobin.rules import fmt_points

    lines = [f"{d['scenario']}  at {d['at']}: what score is enough ({d['games_left']} games "
             "left, exact: every outcome enumerated)", ""]
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
                 "a play-off), play-off (its games), lots.")
    return "\n".join(lines)


COLOURS = {"outright": "#1f77b4", "tiebreak": "#2ca02c", "playoff": "#ff7f0e", "lots": "#7f7f7f"}
WORDS = {"outright": "outright", "tiebreak": "on tiebreaks", "playoff": "after a play-off",
         "lots": "by lots"}


def chart(d: dict, path, players: int = 4) -> str:
    """``scores --plot``: :func:`figure` written to ``path`` (PNG or SVG)."""
    from ..report.charts import save

    if not contenders(d, players):
        raise ScenarioError("scores --plot: nobody can still finish first", key="--plot",
                            value=str(path))
    return save(figure(d, players), path)


def _pct(p: float) -> str:
    from .branches import _pct as pct
    return pct(p)


def contenders(d: dict, players: int = 4) -> list[dict]:
    """The players the chart shows: those who can still finish first, best first."""
    return [p for p in d["players"] if p["p_first"] > 0][:players]


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
    for ax, p in zip(axes, shown):
        rows = [r for r in p["rows"] if r["p"] > 0]
        x = list(range(len(rows)))
        bottom = [0.0] * len(rows)
        for k in HOW:
            h = [r["first"][k] / r["p"] for r in rows]
            ax.bar(x, h, bottom=bottom, color=COLOURS[k], label=WORDS[k], width=0.7)
            bottom = [b + v for b, v in zip(bottom, h)]
        ax.axhline(0.5, color="black", lw=0.8, ls="--")
        from ..formats.roundrobin.rules import fmt_points
        ax.set_xticks(x, [fmt_points(r["points"]) for r in rows])
        ax.set_title(f"{p['name']}\nP(1st) {_pct(p['p_first'])}", fontsize=9)
        ax.set_xlabel("final score (points)")
        ax.set_ylim(0, 1.02)
    axes[0].set_ylabel("P(1st | final score)")
    axes[0].yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f} %")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=4, fontsize=8,
               title="first place decided", title_fontsize=8)
    fig.suptitle(f"{d['scenario']} at {d['at']}: what score is enough (exact; dashed: 50 %)",
                 fontsize=10)
    return fig
