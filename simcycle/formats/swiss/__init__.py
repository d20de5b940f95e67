"""Format ``swiss``: a Swiss-system event paired by the FIDE Dutch system (the Grand Swiss).

Files: ``schema.py`` (the file layout), ``scenario.py`` (frozen scenario, cross-checks),
``rules.py`` (crosstable, standings with every FIDE C.07 tie-break, qualifying places with
passing-down, prizes), ``plan.py`` → ``nb.py`` (the kernel; the Dutch pairing is
``kernels/dutch_nb.py``, the tie-breaks ``kernels/criteria_nb.py``), ``render.py`` (text).
A variant of the round robin that overrides what differs (the schedule: pairing; the
criteria list) and shares the game model, the tallies and the report machinery.
"""

from __future__ import annotations

from ..base import CompileOptions, Format, render_from
from . import rules
from .scenario import DEFAULT_KIND, Swiss, load


class SwissFormat(Format):
    name = "swiss"
    features = frozenset()
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
        if not games:
            d["note"] = (f"round {rn} is not paired yet: the pairings depend on this round's "
                         "results; simulate gives each player's odds" if rn <= scn.n_rounds
                         else "the event is over")
        return d

    def compile(self, scn: Swiss, model, opts: CompileOptions):
        from .plan import SwissPlan
        self.check_options(scn, opts)
        return SwissPlan(scn, model, opts)

    render_standings = render_from("standings")
    render_odds = render_from("odds")


FORMAT = SwissFormat()
