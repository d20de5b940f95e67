"""Format ``round-robin``: the Candidates Tournament and every all-play-all event.

Files: ``schema.py`` (the file layout), ``scenario.py`` (frozen scenario, cross-checks),
``rules.py`` (standings, tiebreaks, prizes as pure functions), ``plan.py`` → ``nb.py`` (the
kernel), ``exact.py`` (exact enumeration), ``whocan.py`` (backend), ``render.py`` (text).
"""

from __future__ import annotations

from ...errors import ScenarioError
from ..base import (EXACT, FIX, HOT_ELO, PARAM_DRAW, RESULTS, SWING, WHOCAN, CompileOptions,
                    Format, render_from)
from . import rules
from .scenario import DEFAULT_KIND, RoundRobin, load

RESULT_LABELS = ("1-0", "1/2-1/2", "0-1")


class RoundRobinFormat(Format):
    name = "round-robin"
    features = frozenset({SWING, WHOCAN, EXACT, HOT_ELO, FIX, RESULTS, PARAM_DRAW})
    default_kind = DEFAULT_KIND

    def load(self, raw: dict, file: str) -> RoundRobin:
        return load(raw, file)

    def checkpoints(self, scn: RoundRobin) -> list[str]:
        return rules.checkpoints(scn)

    def standings(self, scn: RoundRobin, at) -> dict:
        return rules.standings(scn, at)

    def odds(self, scn: RoundRobin, model, at) -> dict:
        from .exact import game_probabilities
        _, remaining = rules.split_games(scn, at)
        probs = game_probabilities(scn, model, remaining)
        return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
                "control": scn.control,
                "model": {"name": model.name, "version": model.version},
                "games": [{"round": g.round, "white": scn.players[g.white].name,
                           "black": scn.players[g.black].name, "p_white": pw, "p_draw": pd,
                           "p_black": pb} for g, (pw, pd, pb) in zip(remaining, probs)]}

    def compile(self, scn: RoundRobin, model, opts: CompileOptions):
        from .plan import RoundRobinPlan
        self.check_options(scn, opts)
        return RoundRobinPlan(scn, model, opts)

    def describe_fix(self, scn: RoundRobin, fixed: dict) -> list[str]:
        from ...enums import RESULT_TEXT
        return [f"round {r}: {scn.players[w].name} - {scn.players[b].name} {RESULT_TEXT[res]}"
                for (r, w, b), res in sorted(fixed.items())]

    def parse_fix(self, scn: RoundRobin, text: str, at, key: str, earlier=None) -> dict:
        """``[rN] White - Black RESULT`` -> {(round, white, black): result}: a game of the
        schedule, not played at ``at`` or played with that very result."""
        from ..shared.whatif import alias_index, parse_game, pick_game

        idx = alias_index(scn.players)
        rnd, w, b, res = parse_game(text, scn.names, idx, key, scn.file)
        last = rules.last_round(scn, at)
        hits = [(g.round, g.white, g.black, g.result if 0 <= g.result and g.round <= last else -1,
                 (g.round, g.white, g.black))
                for g in scn.games if {g.white, g.black} == {w, b}
                and (rnd is None or g.round == rnd)]
        k = pick_game(hits, w, b, rnd, res, scn.names, "", "the round (r12 ...)", scn.file, key,
                      text)
        return {} if k is None else {k: res}

    def exact(self, scn: RoundRobin, model, at, fixed=None) -> dict:
        from .exact import exact_round_robin
        return exact_round_robin(scn, model, self.check_at(scn, at), fixed=fixed)

    def swing_items(self, scn: RoundRobin, model, at, round_no=None, fixed=None):
        """What ``swing`` examines: the games of the next round (or of ``round_no``) still to
        play, each under 1-0, 1/2-1/2 and 0-1 (keys (round, White, Black) -> result code)."""
        from ..shared.swing import Examined, Item
        from .exact import game_probabilities

        _, remaining = rules.split_games(scn, at, dict(fixed or {}))
        if not remaining:
            raise ScenarioError("nothing left to play at this checkpoint", file=scn.file,
                                key="--at", value=at or "latest")
        rn = round_no if round_no is not None else min(g.round for g in remaining)
        games = [g for g in remaining if g.round == rn]
        if not games:
            raise ScenarioError("no game of that round is still to play", file=scn.file,
                                key="--round", value=rn)
        items = [Item({"round": g.round, "white": scn.players[g.white].name,
                       "black": scn.players[g.black].name, "p_white": pw, "p_draw": pd,
                       "p_black": pb},
                      [[({(g.round, g.white, g.black): code}, 1.0)] for code in range(3)],
                      RESULT_LABELS)
                 for g, (pw, pd, pb) in zip(games, game_probabilities(scn, model, games))]
        return Examined({"round": rn}, items, scn.qualifying_places, RESULT_LABELS)

    def swing_compile(self, scn: RoundRobin, model, at, offsets, fixed):
        """The game's result forced while its random number is still drawn
        (``aligned_compile``), so every other game sees the same numbers in every run."""
        return aligned_compile(self, scn, model, at, offsets, dict(fixed))

    def whocan(self, scn: RoundRobin, at, budget=None, fixed=None) -> dict:
        """Who can still finish first or qualify.  With at most ``ENUMERATE_GAMES`` games
        left, exact under the full rules (every outcome enumerated); with more, on points
        (a maximum-flow argument; players level on points are "level")."""
        from ...whocan.core import analyse
        from .whocan import ENUMERATE_GAMES, EnumerationBackend, FlowBackend, flow_says, says

        n = len(scn.players)
        played, remaining = rules.split_games(scn, at, fixed)
        pts, _, _ = rules.tally(n, played)
        names = scn.names
        exact = len(remaining) <= ENUMERATE_GAMES
        backend = (EnumerationBackend(scn, at, fixed) if exact
                   else FlowBackend(n, pts, remaining, names))
        everyone = {x: [j for j in range(n) if j != x] for x in range(n)}
        targets = {"first": (1, everyone)}
        if scn.qualifying_places > 1:
            targets["qualify"] = (scn.qualifying_places, everyone)
        order = sorted(range(n), key=lambda i: -pts[i])
        rows = analyse(backend, names, order, targets, budget)
        titles = {"first": "first place", "qualify": "a qualifying place"}
        tiebreaks = ", then ".join(rules.CRITERION_TEXT[c] for c in scn.order if c != "lots")
        for tname, (q, _) in targets.items():
            for x, row in zip(order, rows[tname]):
                row["says"] = (says(backend, x, q, titles[tname]) if exact else
                               flow_says(backend, x, q, titles[tname], row, tiebreaks))
        return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
                "games_left": len(remaining), "qualifying_places": scn.qualifying_places,
                "compared": ("points, then " + ", ".join(rules.CRITERION_TEXT[c] for c in
                                                         scn.order if c != "lots")
                             if exact else "points"),
                "points": {names[i]: pts[i] / 2 for i in range(n)}, "targets": rows}

    def read_results(self, scenario_file: str, kind: str, path: str, *, write: bool = False):
        """What a PGN or TRF file adds to the scenario (``simcycle results``; live.py)."""
        from .live import file_results
        return file_results(scenario_file, kind, path, write=write)

    def render_results(self, d: dict) -> str:
        from .live import render_results
        return render_results(d)

    render_standings = render_from("standings")
    render_odds = render_from("odds")
    render_swing = render_from("swing")
    render_whocan = render_from("whocan")


def aligned_compile(fmt: RoundRobinFormat, scn: RoundRobin, model, at, offsets: bool,
                    fixed: dict):
    """fixed -> Plan for ``swing_.Runner``: on the fast path (no offsets, no hot Elo) a what-if
    beyond ``fixed`` becomes a forced result of the base plan's game (its random number still
    drawn: ``RoundRobinPlan.forcing``), so the runs share every other game's numbers; otherwise
    an ordinary compile."""
    base_plan = {}

    def compile_(fx):
        extra = {k: v for k, v in fx.items() if k not in fixed}
        if offsets:
            return fmt.compile(scn, model, CompileOptions(at=at, offsets=True, fixed=fx))
        if "plan" not in base_plan:
            base_plan["plan"] = fmt.compile(scn, model, CompileOptions(at=at, fixed=fixed))
        plan = base_plan["plan"]
        for key, res in extra.items():
            plan = plan.forcing(key, res)
        return plan
    return compile_


FORMAT = RoundRobinFormat()
