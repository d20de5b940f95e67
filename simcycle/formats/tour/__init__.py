"""Format ``tour``: a season of events of several systems scored by a points table, best N
results counting (the ACP Tour 2004-05 regulations, ACP, 2004).

Files: ``schema.py`` (the file layout), ``scenario.py`` (frozen scenario, cross-checks),
``rules.py`` (strength, level, ACP points, best N, tiebreaks, standings as pure functions),
``plan.py`` → ``nb.py`` (the kernel; the odds of each event still to play), ``render.py``
(text), ``whocan.py`` (who can still finish first or qualify: bounds and replayed result
sets).  The tour offers no other optional command (swing, --exact, --hot-elo): the base class
refuses them in one line.
"""

from __future__ import annotations

from ..base import WHOCAN, CompileOptions, Format, render_from
from . import rules
from .scenario import DEFAULT_KIND, Tour, load


class TourFormat(Format):
    name = "tour"
    features = frozenset({WHOCAN})
    default_kind = DEFAULT_KIND

    def load(self, raw: dict, file: str) -> Tour:
        return load(raw, file)

    def checkpoints(self, scn: Tour) -> list[str]:
        return rules.checkpoints(scn)

    def standings(self, scn: Tour, at) -> dict:
        return rules.standings(scn, at)

    def odds(self, scn: Tour, model, at) -> dict:
        from . import plan       # the kernels (numba): only for the commands that simulate
        return plan.odds(scn, model, at)

    def compile(self, scn: Tour, model, opts: CompileOptions) -> plan.TourPlan:
        from . import plan
        self.check_options(scn, opts)
        return plan.TourPlan(scn, model, opts)

    def whocan(self, scn: Tour, at, budget=None, fixed=None) -> dict:
        """Who can still finish first or qualify (``whocan.py``): clinched / eliminated from
        key bounds, alive from a replayed result set, undetermined where neither settles."""
        from .whocan import whocan
        return whocan(scn, at, budget)

    render_standings = render_from("standings")
    render_odds = render_from("odds")
    render_whocan = render_from("whocan")


FORMAT = TourFormat()
