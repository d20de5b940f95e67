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

from ...errors import ScenarioError
from ..base import FIX, RESULTS, SWING, WHOCAN, CompileOptions, Format, render_from
from . import rules
from .scenario import DEFAULT_KIND, Swiss, load

SWING_BOARDS = 10     # swing examines the next round's top boards (each: three runs)


class SwissFormat(Format):
    name = "swiss"
    features = frozenset({FIX, RESULTS, SWING, WHOCAN})
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

    def parse_fix(self, scn: Swiss, text: str, at, key: str, earlier=None) -> dict:
        """``[rN] White - Black RESULT`` -> {(round, white, black): result}: a board of the
        round after ``at`` (the only one paired before it is played: later rounds' pairings
        depend on its results), a game over the board, with these colours."""
        from ..shared.whatif import alias_index, parse_game

        idx = alias_index(scn.players)
        rnd, w, b, res = parse_game(text, scn.names, idx, key, scn.file)
        nxt = rules.last_round(scn, at) + 1
        names = scn.names
        if rnd is not None and rnd != nxt:
            raise ScenarioError(f"only round {nxt}'s boards can be fixed from this checkpoint "
                                "(a Swiss pairs each round from the results before it)",
                                file=scn.file, key=key, value=text)
        boards = [g for g in scn.games if g.round == nxt]
        if not boards:
            raise ScenarioError(f"round {nxt} is not paired yet" if nxt <= scn.n_rounds
                                else "the event is over", file=scn.file, key=key, value=text)
        games = [g for g in boards if {g.white, g.black} == {w, b}]
        if not games:
            raise ScenarioError(f"{names[w]} and {names[b]} are not paired in round {nxt}",
                                file=scn.file, key=key, value=text)
        g = games[0]
        if g.white != w:
            raise ScenarioError(f"{names[g.white]} has White against {names[g.black]} in "
                                f"round {nxt}", file=scn.file, key=key, value=text)
        if g.forfeit:
            raise ScenarioError(f"round {nxt}: {names[w]} - {names[b]} is a forfeit, not a "
                                "game", file=scn.file, key=key, value=text)
        return {(g.round, g.white, g.black): res}

    def describe_fix(self, scn: Swiss, fixed: dict) -> list[str]:
        from ...enums import RESULT_TEXT
        return [f"round {r}: {scn.players[w].name} - {scn.players[b].name} {RESULT_TEXT[res]}"
                for (r, w, b), res in sorted(fixed.items())]

    def read_results(self, scenario_file: str, kind: str, path: str, *, write: bool = False):
        """What a TRF-16 or broadcast PGN file adds to the scenario's rounds (``simcycle
        results``), every cell checked with its line and column; ``--write`` appends the
        rounds the scenario lacks (``results.py``)."""
        from .results import read_results
        return read_results(scenario_file, kind, path, write=write)

    def render_results(self, d: dict) -> str:
        from .results import render_results
        return render_results(d)

    def swing_items(self, scn: Swiss, model, at, round_no=None, fixed=None):
        """What ``swing`` examines: the top ``SWING_BOARDS`` boards of the next round
        (published pairings only), each under 1-0, 1/2-1/2 and 0-1 (keys (round, White, Black)
        -> result code; a board's number is drawn whatever its result)."""
        from ..shared.swing import Examined, Item
        fixed = dict(fixed or {})
        nxt = rules.last_round(scn, at) + 1
        if round_no is not None and round_no != nxt:
            raise ScenarioError(f"only round {nxt}'s boards are paired at this checkpoint",
                                file=scn.file, key="--round", value=str(round_no))
        boards = [g for g in scn.games if g.round == nxt and not g.forfeit
                  and (g.round, g.white, g.black) not in fixed][:SWING_BOARDS]
        if not boards:
            raise ScenarioError(f"round {nxt} is not paired yet" if nxt <= scn.n_rounds
                                else "the event is over", file=scn.file, key="--at",
                                value=at or "latest")
        labels = ("1-0", "1/2-1/2", "0-1")
        items = []
        for g in boards:
            pw, pd, pb = model.wdl(scn.control, scn.players[g.white].rating,
                                   scn.players[g.black].rating)
            items.append(Item({"round": g.round, "white": scn.players[g.white].name,
                               "black": scn.players[g.black].name, "p_white": pw,
                               "p_draw": pd, "p_black": pb},
                              [[({(g.round, g.white, g.black): c}, 1.0)] for c in range(3)],
                              labels))
        return Examined({"round": nxt}, items, scn.qualifying_places, labels)

    render_swing = render_from("swing")
    render_standings = render_from("standings")
    render_odds = render_from("odds")
    render_whocan = render_from("whocan")


FORMAT = SwissFormat()
