"""Format ``tour``: a season of events of several systems scored by a points table, best N
results counting (the ACP Tour 2004-05 regulations, ACP, 2004).

Files: ``schema.py`` (the file layout), ``scenario.py`` (frozen scenario, cross-checks),
``rules.py`` (strength, level, ACP points, best N, tiebreaks, standings as pure functions),
``plan.py`` → ``nb.py`` (the kernel; the odds of each event still to play), ``render.py``
(text), ``whocan.py`` (who can still finish first or qualify: bounds and replayed result
sets), ``whatif.py`` (``--fix``: a member's place in an event still to play), ``swing.py``
(what each member's place in the next event swings).  --exact and --hot-elo are refused in
one line by the base class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..base import FIX, SWING, WHOCAN, CompileOptions, Format, render_from
from . import rules
from .scenario import DEFAULT_KIND, Tour, load

if TYPE_CHECKING:     # the kernels (numba) load only for the commands that simulate
    from . import plan


class TourFormat(Format):
    name = "tour"
    features = frozenset({WHOCAN, SWING, FIX})
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

    def swing(self, scn: Tour, model, at, *, sims, seed, offsets=False, round_no=None,
              fixed=None, target_se=None) -> dict:
        """What each member's place in the next event swings (``swing.py``): P(1st) and
        P(qualify) if he finishes 1st, in the upper half or below, on common random numbers.
        ``CompileOptions.fixed`` keys: (event, player) -> place bounds (``whatif.py``)."""
        from .swing import swing
        return swing(self, scn, model, at, sims=sims, seed=seed, offsets=offsets,
                     round_no=round_no, fixed=fixed, target_se=target_se)

    def parse_fix(self, scn: Tour, text: str, at, key: str, earlier=None) -> dict:
        """``[EVENT:] PLAYER PLACE`` -> {(event, player): place bounds} (``whatif.py``)."""
        from .whatif import parse
        return parse(scn, text, at, key, earlier or {})

    def describe_fix(self, scn: Tour, fixed: dict) -> list[str]:
        from .whatif import describe
        return describe(scn, fixed)

    render_standings = render_from("standings")
    render_odds = render_from("odds")
    render_swing = render_from("swing")
    render_whocan = render_from("whocan")


FORMAT = TourFormat()
