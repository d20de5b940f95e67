"""``simcycle serve``: a local what-if page backed by one resident engine.

:class:`Live` holds one :class:`~simcycle.api.Event` (the scenario loaded once, its plans
kept) and answers the page: the state (standings, odds with standard errors, the games and
matches still to play as what-ifs, the next round's swing, whocan in words, the history
chart's series, one colour per player, what each player needs from the next round with the
odds of each branch, and what score is enough with its chart) and the odds under the what-ifs
the reader clicked, simulated with the same seed (common random numbers), so a difference is
the what-if, not noise.  With a watched file (the broadcast's PGN or TRF) the scenario is read
again whenever the file changes, and the page follows.

The page (``static/``) is plain HTML, CSS and JavaScript shipped in the package: nothing is
fetched from elsewhere, and every name is put in the page as text (``textContent``), never as
markup.  The server is Starlette on uvicorn (the ``serve`` extra).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from ..errors import ScenarioError, SimcycleError

from ..report.words import PALETTE, after_text, colour_of  # noqa: F401 (the page's words)

STATIC = Path(__file__).resolve().parent / "static"

def error_line(e: SimcycleError) -> str:
    """The one line the command line prints for ``e``."""
    return f"simcycle: error: {' '.join(str(e).split())}"


class Live:
    """The page's engine: one scenario, re-read when the watched file changes."""

    def __init__(self, source: str, *, at: str | None = None, model: str | None = None,
                 sims: int = 20_000, seed: int = 1, history_sims: int = 2_000,
                 swing_sims: int = 2_000, watch: str | None = None):
        self.source, self.at_asked, self.model_file = source, at, model
        self.sims, self.seed = sims, seed
        self.history_sims, self.swing_sims = history_sims, swing_sims
        self.watch = None if watch is None else Path(watch)
        self.lock = threading.Lock()
        self.version = 0
        self.warning: str | None = None
        self._stamp = self._file_stamp()
        self._load()

    # ---- loading and watching ------------------------------------------------------------
    def _file_stamp(self):
        if self.watch is None:
            return None
        try:
            st = os.stat(self.watch)
            return (st.st_mtime_ns, st.st_size)
        except OSError:
            return None

    def _load(self) -> None:
        from ..api import Event

        ev = Event(self.source, self.model_file, results=self.watch)
        at = ev.at(self.at_asked) if self.at_asked else None
        self.event, self.at = ev, at
        self._state = self._build_state()
        self.version += 1

    def poll(self) -> bool:
        """Re-read the scenario if the watched file changed; True when the page must update.
        A file caught half-written keeps the last good state and says why (``warning``)."""
        stamp = self._file_stamp()
        if stamp == self._stamp:
            return False
        with self.lock:
            self._stamp = stamp
            try:
                self._load()
                self.warning = None
            except SimcycleError as e:
                self.warning = error_line(e)
                self.version += 1
        return True

    # ---- what the page shows ---------------------------------------------------------------
    def _build_state(self) -> dict:
        ev, at = self.event, self.at
        fmt, scn = ev.format, ev.scenario
        names = _names(scn)
        standings = fmt.standings(scn, at)
        odds = fmt.odds(scn, ev.model(), at)
        state = {
            "scenario": scn.name, "format": fmt.name, "at": at,
            "after": after_text(fmt, scn, at),
            "colours": colour_of(names),
            "standings": fmt.render_standings(standings),
            "choices": choices(odds),
            "sims": self.sims, "seed": self.seed,
            "base": self._odds({}),
            "swing": None, "whocan": None,
            "history": self._history(),
        }
        from ..commentary.branches import render as needs_text
        from ..commentary.scores import render as scores_text
        from ..report.html import commentary
        nd, sc = commentary(fmt, scn, ev.model(), at, {}, sims=self.swing_sims, seed=self.seed)
        state["needs"] = None if "none" in nd else needs_text(nd)
        state["scores"] = None if "none" in sc else scores_text(sc)
        self._scores = None if "none" in sc else sc
        from ..formats.base import SWING, WHOCAN
        if SWING in fmt.features and _next_round_swings(fmt, scn, ev.model(), at):
            try:
                state["swing"] = fmt.render_swing(ev.swing_json(at, sims=self.swing_sims,
                                                                seed=self.seed))
            except SimcycleError as e:
                state["swing"] = error_line(e)
        if WHOCAN in fmt.features:
            try:
                state["whocan"] = fmt.render_whocan(ev.whocan_json(at))
            except SimcycleError as e:
                state["whocan"] = error_line(e)
        return state

    def _odds(self, fixed: dict) -> dict:
        d = self.event.simulate_json(self.at, sims=self.sims, seed=self.seed, fixed=fixed)
        q = d["qualifying_places"]
        return {"qualifying_places": q, "points_label": d["points_label"],
                "assumed": d.get("assumed", []),
                "players": [{k: p[k] for k in ("name", "p_first", "se_p_first", "p_qualify",
                                               "se_p_qualify", "expected_points")}
                            for p in d["players"]]}

    def _history(self) -> dict | None:
        from ..report import history as hist

        try:
            d = hist.history(self.event.format, self.event.scenario, self.event.model(),
                             sims=self.history_sims, seed=self.seed, progress=False,
                             at_most=self.at)
        except (SimcycleError, ValueError):
            return None
        key = "p_qualify" if (d["qualifying_places"] or 1) > 1 else "p_first"
        return {"key": key, "checkpoints": d["checkpoints"],
                "series": hist.series(d, key)}

    def scores_svg(self) -> str | None:
        """The what-score-is-enough chart of the state shown (SVG text; None: none)."""
        from ..commentary.scores import contenders, figure
        from ..report.charts import svg_text

        with self.lock:
            sc = self._scores
        if sc is None or not contenders(sc):
            return None
        return svg_text(figure(sc))

    def state(self) -> dict:
        with self.lock:
            return dict(self._state, version=self.version, warning=self.warning)

    def odds(self, fixes: list[str]) -> dict:
        """The odds with the what-ifs ``fixes`` (the command line's words) assumed; a bad one
        raises the command line's one-line error."""
        if not isinstance(fixes, list) or not all(isinstance(f, str) for f in fixes):
            raise ScenarioError("fix must be a list of what-ifs", key="fix")
        with self.lock:
            fixed = self.event.fixed(fixes, self.at)
            return dict(self._odds(fixed), version=self.version)


def _names(scn) -> list[str]:
    from ..report.history import scn_names
    return list(scn_names(scn))


def _next_round_swings(fmt, scn, model, at) -> bool:
    """Whether the format's swing has games or matches to examine at ``at`` (a cycle: those of
    its part in progress, though its odds list no games to click)."""
    try:
        return bool(fmt.swing_items(scn, model, at).items)
    except SimcycleError:
        return False


def choices(odds: dict) -> list[dict]:
    """The games and matches still to play whose players are known, each with the what-ifs a
    reader can click (the command line's words) and their probabilities."""
    out = []
    for g in odds.get("games") or []:
        if not {"white", "black", "p_white", "p_draw", "p_black"} <= set(g):
            continue
        rnd, ev = g.get("round"), g.get("event")
        prefix = f"event{ev}: " if isinstance(ev, int) else (f"{ev}: " if ev else "")
        where = (f"event {ev}, " if isinstance(ev, int) else (f"{ev}, " if ev else ""))
        game = f"r{rnd} {g['white']} - {g['black']}"
        out.append({"label": f"{where}round {rnd}", "players": [g["white"], g["black"]],
                    "results": [{"text": t, "fix": f"{prefix}{game} {t}", "p": g[k]}
                                for t, k in (("1-0", "p_white"), ("1/2-1/2", "p_draw"),
                                             ("0-1", "p_black"))]})
    for m in odds.get("matches") or []:
        ps = m.get("players") or []
        if len(ps) != 2 or not all(isinstance(p, str) for p in ps) or "event" not in m:
            continue
        pw = m.get("p_win") or [None, None]
        out.append({"label": f"{m['event']} {m.get('round', '')}".strip(), "players": ps,
                    "results": [{"text": f"{a} wins on tiebreaks", "p": p,
                                 "fix": f"{m['event']}: {a} beats {b} on tiebreaks"}
                                for a, b, p in ((ps[0], ps[1], pw[0]), (ps[1], ps[0], pw[1]))]})
    return out


def make_app(live: Live):
    """The Starlette application of the page."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    headers = {"Cache-Control": "no-store"}

    def index(request: Request):
        return FileResponse(STATIC / "index.html", headers=headers)

    def state(request: Request):
        live.poll()
        since = request.query_params.get("since")
        if since is not None and since == str(live.version):
            return JSONResponse({"version": live.version}, headers=headers)
        return JSONResponse(live.state(), headers=headers)

    async def scores_svg(request: Request):
        from starlette.concurrency import run_in_threadpool
        from starlette.responses import Response

        svg = await run_in_threadpool(live.scores_svg)
        if svg is None:
            return Response("no chart at this checkpoint", status_code=404, headers=headers)
        return Response(svg, media_type="image/svg+xml", headers=headers)

    async def odds(request: Request):
        from starlette.concurrency import run_in_threadpool
        try:
            body = await request.json()
        except ValueError:
            body = None
        fixes = body.get("fix") if isinstance(body, dict) else None
        try:
            return JSONResponse(await run_in_threadpool(live.odds, fixes), headers=headers)
        except SimcycleError as e:
            return JSONResponse({"error": error_line(e)}, status_code=400, headers=headers)

    return Starlette(routes=[Route("/", index), Route("/api/state", state),
                             Route("/api/odds", odds, methods=["POST"]),
                             Route("/api/scores.svg", scores_svg),
                             Mount("/static", StaticFiles(directory=STATIC))])
