"""Format ``round-robin``: the Candidates Tournament and every all-play-all event.

Files: ``schema.py`` (the file layout), ``scenario.py`` (frozen scenario, cross-checks),
``rules.py`` (standings, tiebreaks, prizes as pure functions), ``plan.py`` → ``nb.py`` (the
kernel), ``exact.py`` (exact enumeration), ``whocan.py`` (backend), ``render.py`` (text).
"""

from __future__ import annotations

from ...errors import ScenarioError
from ..base import EXACT, HOT_ELO, SWING, WHOCAN, CompileOptions, Format
from ..shared import swing as swing_
from . import render, rules
from .scenario import RoundRobin, load

RESULTS = ("1-0", "1/2-1/2", "0-1")


class RoundRobinFormat(Format):
    name = "round-robin"
    features = frozenset({SWING, WHOCAN, EXACT, HOT_ELO})
    default_kind = "round-robin"

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

    def exact(self, scn: RoundRobin, model, at) -> dict:
        from .exact import exact_round_robin
        return exact_round_robin(scn, model, self.check_at(scn, at))

    def swing(self, scn: RoundRobin, model, at, *, sims, seed, offsets=False,
              round_no=None) -> dict:
        """What each game of the next round (or of ``round_no``) swings: every player's
        P(1st) and P(qualify) if it ends 1-0, 1/2-1/2 or 0-1, on common random numbers."""
        from ... import driver
        from .exact import game_probabilities

        _, remaining = rules.split_games(scn, at)
        if not remaining:
            raise ScenarioError("nothing left to play at this checkpoint", file=scn.file,
                                key="--at", value=at or "latest")
        rn = round_no if round_no is not None else min(g.round for g in remaining)
        games = [g for g in remaining if g.round == rn]
        if not games:
            raise ScenarioError("no game of that round is still to play", file=scn.file,
                                key="--round", value=rn)
        base = driver.run(self.compile(scn, model, CompileOptions(at=at, offsets=offsets)),
                          sims, seed, progress=False)
        out_games = []
        for g, (pw, pd, pb) in zip(games, game_probabilities(scn, model, games)):
            outcomes = [[({(g.round, g.white, g.black): code}, 1.0)] for code in range(3)]
            players = swing_.rows(self, scn, model, at, outcomes, sims=sims, seed=seed,
                                  offsets=offsets)
            for p in players:
                p["p_first"] = dict(zip(RESULTS, p["p_first"]))
                p["p_qualify"] = dict(zip(RESULTS, p["p_qualify"]))
            out_games.append({"round": g.round, "white": scn.players[g.white].name,
                              "black": scn.players[g.black].name, "p_white": pw, "p_draw": pd,
                              "p_black": pb, "players": players})
        out_games.sort(key=lambda x: -swing_.weight(x["players"]))
        return {"scenario": scn.name, "file": scn.file, "at": at or "latest", "round": rn,
                "sims": sims, "seed": seed, "qualifying_places": scn.qualifying_places,
                "now": swing_.now(base), "games": out_games}

    def whocan(self, scn: RoundRobin, at, budget=None) -> dict:
        from ...whocan.core import analyse
        from .whocan import FlowBackend

        n = len(scn.players)
        played, remaining = rules.split_games(scn, at)
        pts, _, _ = rules.tally(n, played)
        names = scn.names
        backend = FlowBackend(n, pts, remaining, names)
        everyone = {x: [j for j in range(n) if j != x] for x in range(n)}
        targets = {"first": (1, everyone)}
        if scn.qualifying_places > 1:
            targets["qualify"] = (scn.qualifying_places, everyone)
        rows = analyse(backend, names, list(range(n)), targets, budget)
        return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
                "games_left": len(remaining), "qualifying_places": scn.qualifying_places,
                "points": {names[i]: pts[i] / 2 for i in range(n)}, "targets": rows}

    def read_results(self, scenario_file: str, kind: str, path: str, *, write: bool = False):
        """What a PGN or TRF file adds to the scenario (``simcycle results``; live.py)."""
        from .live import file_results
        return file_results(scenario_file, kind, path, write=write)

    def render_results(self, d: dict) -> str:
        from .live import render_results
        return render_results(d)

    render_standings = staticmethod(render.standings)
    render_odds = staticmethod(render.odds)
    render_swing = staticmethod(render.swing)
    render_whocan = staticmethod(render.whocan)


FORMAT = RoundRobinFormat()
