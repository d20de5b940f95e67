"""Format ``cycle``: events chained as stages into a final (the Candidates).

Files: ``schema.py`` (the file layout), ``scenario.py`` (the parts read from their own files,
the seats' chains resolved, cross-checks), ``rules.py`` (checkpoints, the seat allocation in
plain Python), ``whocan.py`` (can X still reach the final), swing through the part in
progress's own ``swing_items``,
``plan.py`` -> ``nb.py`` (the events' and the final's per-replica stages, the
allocation), ``render.py`` (text).  docs/format-cycle.md documents the keys.
"""

from __future__ import annotations

from ...errors import ScenarioError
from ..base import FIX, HOT_ELO, SWING, WHOCAN, CompileOptions, Format
from . import render, rules
from .scenario import Cycle, load


class CycleFormat(Format):
    name = "cycle"
    features = frozenset({HOT_ELO, FIX, SWING, WHOCAN})
    default_kind = "round-robin"

    def load(self, raw: dict, file: str) -> Cycle:
        return load(raw, file)

    def checkpoints(self, scn: Cycle) -> list[str]:
        return rules.checkpoints(scn)

    def _parts(self, scn: Cycle, at) -> list[dict]:
        ev_at, fin_at = rules.part_at(scn, at)
        out = []
        for part, a in zip((*scn.events, scn.final), (*ev_at, fin_at)):
            cps = part.fmt.checkpoints(part.scn)
            shown = a if a is not None else cps[-1]   # every result = its last checkpoint
            still = "nothing" if shown == cps[-1] else "some"
            out.append({"id": part.id, "name": part.scn.name, "format": part.fmt.name,
                        "file": part.file, "at": shown, "still": still})
        return out

    def standings(self, scn: Cycle, at) -> dict:
        gone = rules.withdrawn(scn, at)
        return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
                "parts": self._parts(scn, at),
                "seats": [{"id": s.id, "path": s.path, "chain": [lk.text for lk in s.links]}
                          for s in scn.seats],
                "withdrawn": [scn.players[i].name for i in sorted(gone)],
                "nominees": list(scn.nominees)}

    def odds(self, scn: Cycle, model, at) -> dict:
        return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
                "events": self._parts(scn, at)}

    def whocan(self, scn: Cycle, at, budget=None, fixed=None) -> dict:
        """Can each player still reach the final (``whocan.py``): the seat allocation with
        each unfinished event's exact whocan; no kernel is compiled."""
        from .whocan import whocan
        return whocan(scn, self.check_at(scn, at), budget, fixed)

    def swing_items(self, scn: Cycle, model, at, round_no=None, fixed=None):
        """What ``swing`` examines: the next round's games or matches of the part in progress
        (a Grand Prix event's group games or knock-out matches, the final's games), from that
        part's own ``swing_items`` (its format's words, its model), each what-if keyed (part
        index, its key) as ``parse_fix`` keys them; ``where`` starts with the part's id.  The
        swing's "qualify" is a seat in the final, its "first" winning the final (the cycle's
        own tallies).  The part in progress is the one ``at`` names, or the next part when
        that one is over (at "latest": the first part with something left to play)."""
        from ..shared.swing import Examined

        at = self.check_at(scn, at)
        parts = (*scn.events, scn.final)
        ev_at, fin_at = rules.part_at(scn, at)
        ats = (*ev_at, fin_at)
        fixed = dict(fixed or {})
        for k, (part, a) in enumerate(zip(parts, ats)):
            part.fmt.require(SWING, part.scn)
            mine = {pk: v for (i, pk), v in fixed.items() if i == k}
            over = a is None or a == part.fmt.checkpoints(part.scn)[-1]
            try:
                ex = part.fmt.swing_items(part.scn, model.for_kind(part.scn.kind), a,
                                          round_no, mine)
            except ScenarioError:
                if over:                # nothing left in it: the next part
                    continue
                raise
            ex = ex.keyed(lambda pk, k=k: (k, pk))
            return Examined({"part": part.id, **ex.where}, ex.items, len(scn.seats),
                            ex.results)
        raise ScenarioError("nothing left to play in any part at this checkpoint",
                            file=scn.file, key="--at", value=at or "latest")

    def compile(self, scn: Cycle, model, opts: CompileOptions):
        from .plan import CyclePlan
        self.check_options(scn, opts)
        return CyclePlan(scn, model, opts)

    def parse_fix(self, scn: Cycle, text: str, at, key: str, earlier=None) -> dict:
        """``PART: what-if`` (``gp: Berlin 1: Nakamura beats Rapport 1.5-0.5``,
        ``candidates: r14 Nepomniachtchi-Ding 1-0``): the part's own what-if, in its format's
        words, as {(part index, its key): value}; only parts still to play at ``at``."""
        parts = (*scn.events, scn.final)
        head, sep, rest = text.partition(":")
        ids = [p.id for p in parts]
        if not sep or head.strip() not in ids:
            raise ScenarioError("a cycle's what-if starts with the part it is about ("
                                + ", ".join(f"'{i}: ...'" for i in ids) + ")", file=scn.file,
                                key=key, value=text)
        k = ids.index(head.strip())
        ev_at, fin_at = rules.part_at(scn, at)
        part_at = (*ev_at, fin_at)[k]
        part = parts[k]
        part.fmt.require(FIX, part.scn)
        mine = {pk: v for (i, pk), v in (earlier or {}).items() if i == k}
        got = part.fmt.parse_fix(part.scn, rest.strip(), part_at, key, mine)
        return {(k, pk): v for pk, v in got.items()}

    def describe_fix(self, scn: Cycle, fixed: dict) -> list[str]:
        parts = (*scn.events, scn.final)
        out = []
        for k, part in enumerate(parts):
            mine = {pk: v for (i, pk), v in fixed.items() if i == k}
            if mine:
                out += [f"{part.id}: {t}" for t in part.fmt.describe_fix(part.scn, mine)]
        return out

    def render_standings(self, d: dict) -> str:
        return render.standings(d)

    def render_odds(self, d: dict) -> str:
        return render.odds(d)

    def render_whocan(self, d: dict) -> str:
        return render.whocan(d)

    def render_swing(self, d: dict) -> str:
        return render.swing(d)


FORMAT = CycleFormat()
