"""Format ``knockout-series``: a series of knock-out events with a points race (the FIDE Grand
Prix 2019).

Files: ``schema.py`` (the file layout), ``scenario.py`` (frozen scenario, cross-checks),
``rules.py`` (checkpoints, brackets, GP points, the series table, prizes as pure functions),
``plan.py`` → ``nb.py`` (the kernel), ``whocan.py`` (backend), ``render.py`` (text).  The
keys, rules and Readings are documented in docs/format-knockout-series.md.
"""

from __future__ import annotations

from ...enums import SERIES_CRITERIA, UNKNOWN_TB_STEP
from ...errors import ScenarioError
from ..base import FIX, SWING, WHOCAN, CompileOptions, Format, render_from
from ..shared.brackets import round_name
from ..shared.matches import match_probability
from ..shared.whatif import halves_text
from . import rules
from .scenario import DEFAULT_KIND, KnockoutSeries, Match, load

WHOCAN_BUDGET = 20000  # work units (solver nodes) per whocan call; rows not settled within it
                       # are "undetermined"


class KnockoutSeriesFormat(Format):
    name = "knockout-series"
    default_kind = DEFAULT_KIND
    features = frozenset({SWING, WHOCAN, FIX})

    def load(self, raw: dict, file: str) -> KnockoutSeries:
        return load(raw, file)

    def checkpoints(self, scn: KnockoutSeries) -> list[str]:
        return rules.checkpoints(scn)

    def standings(self, scn: KnockoutSeries, at) -> dict:
        return rules.standings(scn, at)

    def odds(self, scn: KnockoutSeries, model, at) -> dict:
        """Every match whose two players are known and which is not decided: exact P(each
        goes through) and P(tiebreaks), with the ratings in force at its event."""
        out = []
        for e, r, j, up, lo, m in rules.walk(scn, rules.counted_matches(scn, at)):
            ev = scn.events[e]
            white = None
            if m is not None and m.white is not None:
                white = 0 if m.white == up else 1
            kn = tuple(m.games) if m is not None else ()
            pr = match_probability(scn.steps, model, ev.ratings[up], ev.ratings[lo], white, kn)
            out.append({"event": ev.name, "round": round_name(r, rules.n_rounds(ev.size)),
                        "players": [scn.players[up].name, scn.players[lo].name],
                        "p_win": [pr["p_first"], 1 - pr["p_first"]],
                        "p_tiebreak": pr["p_tiebreak"]})
        return {"scenario": scn.name, "file": scn.file, "at": at or "latest", "matches": out}

    def compile(self, scn: KnockoutSeries, model, opts: CompileOptions):
        from .plan import KnockoutSeriesPlan   # imports numba: only the commands that simulate
        self.check_options(scn, opts)
        return KnockoutSeriesPlan(scn, model, opts)

    def swing_items(self, scn: KnockoutSeries, model, at, round_no=None, fixed=None):
        """What ``swing`` examines: the next matches whose players are known, each under its
        six results (either player winning 2-0 or 1.5-0.5 in the classical games, or on
        tiebreaks after 1-1); keys (event, round, slot) -> a complete ``Match``."""
        from ..shared.swing import Examined, Item

        if round_no is not None:
            raise ScenarioError("--round is for round robins; knock-out series swing the next "
                                "matches", key="--round", value=round_no)
        todo = rules.open_matches(scn, at, dict(fixed or {}))
        if not todo:
            raise ScenarioError("no match left to play at this checkpoint", file=scn.file,
                                key="--at", value=at or "latest")
        items = []
        for e, r, j, up, lo in todo:
            outcomes = _six_results(scn, model, e, r, j, up, lo)
            ev = scn.events[e]
            items.append(Item({"event": ev.name, "round": round_name(r, rules.n_rounds(ev.size)),
                               "players": [scn.players[up].name, scn.players[lo].name],
                               "outcomes": [{"result": o[0], "p": o[1]} for o in outcomes]},
                              [[({(e, r, j): o[2]}, 1.0)] for o in outcomes]))
        return Examined({}, items, scn.qualifying_places)

    def whocan(self, scn: KnockoutSeries, at, budget=None, heuristics: bool = True,
               fixed=None) -> dict:
        """Exact clinched / alive / eliminated for first place and the qualifying places
        (``whocan.py``); rows follow the standings order.  ``heuristics`` off: no candidate
        result sets tried before a MILP (same answers, slower: used by the tests)."""
        from ...whocan.core import NA, analyse
        from .whocan import SeriesBackend

        budget = WHOCAN_BUDGET if budget is None else budget
        st = rules.standings(scn, at, fixed)
        idx = {p.name: i for i, p in enumerate(scn.players)}
        order = [idx[r["name"]] for r in st["players"]]
        backend = SeriesBackend(scn, at, heuristics, fixed)
        targets = _targets(scn, order)
        rows = analyse(backend, scn.names, order, targets, budget)
        for r in rows["qualify"]:
            if r["status"] == NA:
                r["qualified_elsewhere"] = True
        crit = [k for k, v in SERIES_CRITERIA.items() if v in rules.det_criteria(scn)]
        _explain(rows, targets, order, backend, scn.names, crit)
        return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
                "matches_left": len(rules.remaining_slots(scn, backend.known)),
                "qualifying_places": scn.qualifying_places,
                "criteria": ["points", *crit],
                "points": {r["name"]: r["points"] for r in st["players"]},
                "budget_nodes": budget, "targets": rows}

    def parse_fix(self, scn: KnockoutSeries, text: str, at, key: str, earlier=None) -> dict:
        """``[EVENT] A beats B SCORE`` -> {(event, round, slot): Match}: a match whose two
        players are known at ``at`` and which has no game yet; SCORE is the classical score
        ("2-0", "1.5-0.5") or "on tiebreaks" (classical level)."""
        m = _parse_match(scn, text, at, key, earlier or {})
        return {} if m is None else {(m.event, m.round, m.slot): m}

    def describe_fix(self, scn: KnockoutSeries, fixed: dict) -> list[str]:
        out = []
        for _key, m in sorted(fixed.items()):
            e, r = m.event, m.round
            ev = scn.events[e]
            w = m.winner
            lo = m.lower if w == m.upper else m.upper
            cw, cl = ((m.cls_upper, m.cls_lower) if w == m.upper else
                      (m.cls_lower, m.cls_upper))
            how = ("on tiebreaks" if m.step != 0 else
                   f"{halves_text(cw)}-{halves_text(cl)} in the classical games")
            out.append(f"{ev.name} {round_name(r, rules.n_rounds(ev.size))}: "
                       f"{scn.players[w].name} beats {scn.players[lo].name} {how}")
        return out

    render_standings = render_from("standings")
    render_odds = render_from("odds")
    render_swing = render_from("swing")
    render_whocan = render_from("whocan")


def _six_results(scn: KnockoutSeries, model, e, r, j, up, lo) -> list[tuple]:
    """(label, probability, what-if Match) of the six results of an open match, with the
    ratings in force at its event."""
    ev = scn.events[e]
    pu, pl = scn.players[up].name, scn.players[lo].name
    mp = match_probability(scn.steps, model, ev.ratings[up], ev.ratings[lo])
    p_up_tb = mp["p_first"] - mp["p_classical"]
    res = [  # (label, probability, winner, step, upper's and lower's classical halves)
        (f"{pu} wins 2-0", mp["p_2_0"], up, 0, 4, 0),
        (f"{pu} wins 1.5-0.5", mp["p_15_05"], up, 0, 3, 1),
        (f"{pu} wins on tiebreaks (1-1)", p_up_tb, up, UNKNOWN_TB_STEP, 2, 2),
        (f"{pl} wins on tiebreaks (1-1)", mp["p_tiebreak"] - p_up_tb, lo, UNKNOWN_TB_STEP, 2, 2),
        (f"{pl} wins 1.5-0.5", mp["p_05_15"], lo, 0, 1, 3),
        (f"{pl} wins 2-0", mp["p_0_2"], lo, 0, 0, 4),
    ]
    return [(label, p, Match(event=e, round=r, slot=j, upper=up, lower=lo, white=None, games=(),
                             winner=w, step=step, cls_upper=cu, cls_lower=cl, source="what-if"))
            for label, p, w, step, cu, cl in res]


def _parse_match(scn: KnockoutSeries, text: str, at, key: str, earlier: dict):
    """One what-if match (``KnockoutSeriesFormat.parse_fix``); None when it was played with
    that very result."""
    from ..shared.whatif import find_events, parse_match_fix

    aliases = {p.name.casefold(): i for i, p in enumerate(scn.players)}
    f = parse_match_fix(text, scn.names, aliases, scn.steps[0].games, key, scn.file)
    a, b = f.winner, f.loser
    events = range(len(scn.events))
    if f.event:
        events = find_events([ev.name for ev in scn.events], f.event, key, scn.file)
    step, ca, cb = (UNKNOWN_TB_STEP if f.tiebreak else 0), f.won, f.lost
    known = rules.counted_matches(scn, at, earlier)
    for e, r, j, up, lo, entry in rules.walk(scn, known):
        if e in events and {up, lo} == {a, b}:
            if entry is not None and entry.games:
                raise ScenarioError("this match is in progress: enter its games in the "
                                    "scenario instead", file=scn.file, key=key, value=text)
            cu, cl = _oriented(a, up, ca, cb)
            return Match(event=e, round=r, slot=j, upper=up, lower=lo, white=None, games=(),
                         winner=a, step=step, cls_upper=cu, cls_lower=cl, source="what-if")
    if f.event:   # a match already decided, in the event named
        for mt in known.values():
            if (mt.event in events and {mt.upper, mt.lower} == {a, b}
                    and mt.winner is not None):
                _check_played(scn, mt, a, step, _oriented(a, mt.upper, ca, cb), key, text)
                return None
    raise ScenarioError("these two do not meet in a match whose players are known at this "
                        "checkpoint (after the what-ifs before this one)"
                        + ("" if f.event else "; name the event if they met earlier"),
                        file=scn.file, key=key, value=text)


def _targets(scn: KnockoutSeries, order) -> dict:
    """{target: (places, {player: his rivals for it, None when he cannot take it})}: first
    place among the counting players, the qualifying places among those not qualified
    elsewhere."""
    counting = scn.counting
    eligible = [j for j in counting if not scn.players[j].qualified_elsewhere]
    return {"first": (1, {x: [j for j in counting if j != x] for x in order}),
            "qualify": (scn.qualifying_places,
                        {x: (None if scn.players[x].qualified_elsewhere
                             else [j for j in eligible if j != x]) for x in order})}


def _oriented(a, upper, ca, cb):
    """(upper's, lower's) of a pair given as (a's, the other's)."""
    return (ca, cb) if a == upper else (cb, ca)


def _check_played(scn: KnockoutSeries, mt, a, step, cls, key: str, text: str) -> None:
    """A what-if for the decided match ``mt`` must repeat its result: winner ``a``, a
    tiebreak or not (``step``), and when not, the classical halves ``cls`` (upper's,
    lower's); otherwise refused as already played."""
    same = mt.winner == a and (mt.step == 0) == (step == 0)
    if same and (step != 0 or (mt.cls_upper, mt.cls_lower) == cls):
        return
    said = FORMAT.describe_fix(scn, {0: mt})[0]
    raise ScenarioError("already played: " + said.split(": ", 1)[1],
                        file=scn.file, key=key, value=text)


def _explain(rows: dict, targets: dict, order, backend, names, crit) -> None:
    """Give each clinched or eliminated row of ``rows`` its sentence (``says``): GP points,
    then the deterministic criteria ``crit``, over the backend's best and worst totals."""
    from ...whocan.words import bound_words, points_words

    words = "GP points" + (f" and then {', '.join(c.replace('-', ' ') for c in crit)}"
                           if crit else "")

    def best(j):
        return backend.extremes(j)[0]

    def worst(j):
        return backend.extremes(j)[1]

    def left(j):
        return best(j) != worst(j)

    for tname, (q, rivals) in targets.items():
        for x, r in zip(order, rows[tname]):
            if r["status"] in ("clinched", "eliminated"):
                r["says"] = bound_words(r["status"], tname, q, x, rivals[x], best, worst,
                                        names, points_words, left, words)


FORMAT = KnockoutSeriesFormat()
