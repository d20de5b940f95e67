"""Format ``swiss``: a Swiss-system event paired by the FIDE Dutch system (the Grand Swiss).

Files: ``schema.py`` (the file layout), ``scenario.py`` (frozen scenario, cross-checks),
``rules.py`` (crosstable, standings with every FIDE C.07 tie-break, qualifying places with
passing-down, prizes), ``whocan.py`` (who can still qualify, on points, for every pairing),
``results.py`` (TRF / PGN files against the rounds), ``plan.py`` → ``nb.py`` (the kernel;
the Dutch pairing is ``kernels/dutch_nb.py``, the tie-breaks ``kernels/criteria_nb.py``),
``render.py`` (text).
A variant of the round robin that overrides what differs (the schedule: pairing; the
criteria list) and shares the game model, the tallies and the report machinery.
"""

from __future__ import annotations

from ..base import RESULTS, WHOCAN, CompileOptions, Format
from . import render, rules
from .scenario import DEFAULT_KIND, Swiss, load


class SwissFormat(Format):
    name = "swiss"
    features = frozenset({WHOCAN, RESULTS})
    default_kind = DEFAULT_KIND

    def load(self, raw: dict, file: str) -> Swiss:
        return load(raw, file)

    def checkpoints(self, scn: Swiss) -> list[str]:
        return rules.checkpoints(scn)

    def standings(self, scn: Swiss, at) -> dict:
        return rules.standings(scn, at)

    def odds(self, scn: Swiss, model, at) -> dict:
        """The next round's boards with P(1-0, draw, 0-1) when its pairings are published."""
        start = rules.last_round(scn, at)
        rn = start + 1
        games = [g for g in scn.games if g.round == rn and not g.forfeit]
        d = {"scenario": scn.name, "file": scn.file, "at": at or "latest", "round": rn,
             "model": {"name": model.name, "version": model.version},
             "published": bool(games), "games": []}
        for g in games:
            pw, pd, pb = model.wdl(scn.control, scn.players[g.white].rating,
                                   scn.players[g.black].rating)
            d["games"].append({"white": scn.players[g.white].name,
                               "black": scn.players[g.black].name, "p_white": pw,
                               "p_draw": pd, "p_black": pb})
        d["predicted"] = False
        if not games and rn <= scn.n_rounds:
            # not published: the pairing is a function of the results so far, so the kernel's
            # Dutch pairing of them is the likeliest one (docs/format-swiss.md: its fidelity)
            d["predicted"] = True
            for w, b in rules.kernel_pairing(scn, start):
                if b < 0:
                    d["bye"] = scn.players[w].name
                    continue
                pw, pd, pb = model.wdl(scn.control, scn.players[w].rating,
                                       scn.players[b].rating)
                d["games"].append({"white": scn.players[w].name,
                                   "black": scn.players[b].name, "p_white": pw,
                                   "p_draw": pd, "p_black": pb})
            d["note"] = (f"round {rn} is not published yet: the boards below are the pairing "
                         "simcycle's Dutch kernel makes from the results so far (its agreement "
                         "with a full FIDE Dutch engine: docs/format-swiss.md); the real boards "
                         "may differ")
            d["notes"] = [d["note"]]     # the report's table shows them under the boards
        elif not games:
            d["note"] = "the event is over"
        return d

    def compile(self, scn: Swiss, model, opts: CompileOptions):
        from .plan import SwissPlan
        self.check_options(scn, opts)
        return SwissPlan(scn, model, opts)

    def whocan(self, scn: Swiss, at, budget=None, fixed=None) -> dict:
        """Who can still finish first or qualify, on points, for every pairing of the rounds
        not yet published (``whocan.py``); no work budget is needed."""
        from .whocan import whocan
        return whocan(scn, at, budget, fixed)

    def read_results(self, scenario_file: str, kind: str, path: str, *, write: bool = False):
        """What a TRF-16 or PGN file adds to the scenario's rounds (``simcycle results``)."""
        from .results import read_results
        return read_results(scenario_file, kind, path, write=write)

    def render_results(self, d: dict) -> str:
        from .results import render_results
        return render_results(d)

    render_standings = staticmethod(render.standings)
    render_odds = staticmethod(render.odds)
    render_whocan = staticmethod(render.whocan)


FORMAT = SwissFormat()
