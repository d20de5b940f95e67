"""Format ``group-series``: a series of events, each groups of four (double round robin)
feeding semi-finals and a final, with a points race over the series (FIDE Grand Prix 2022).

Files: ``schema.py`` (the file layout), ``scenario.py`` (frozen scenario, cross-checks),
``rules.py`` (schedule, checkpoints, group places, standings as pure functions), ``plan.py``
→ ``nb.py`` (the kernel), ``whocan.py`` (backend), ``render.py`` (text).  Rules and the
named readings are documented in ``docs/format-group-series.md``.
"""

from __future__ import annotations

from ...errors import ScenarioError
from ..base import FIX, SWING, WHOCAN, CompileOptions, Format, render_from
from ..shared.matches import match_probability
from ..shared.whatif import halves_text
from . import rules
from .scenario import DEFAULT_KIND, GroupSeries, Match, load
from .schema import KO_ROUNDS

RESULTS = ("1-0", "1/2-1/2", "0-1")


class GroupSeriesFormat(Format):
    name = "group-series"
    default_kind = DEFAULT_KIND
    features = frozenset({SWING, WHOCAN, FIX})

    def load(self, raw: dict, file: str) -> GroupSeries:
        return load(raw, file)

    def checkpoints(self, scn: GroupSeries) -> list[str]:
        return rules.checkpoints(scn)

    def standings(self, scn: GroupSeries, at) -> dict:
        return rules.standings(scn, at)

    def odds(self, scn: GroupSeries, model, at) -> dict:
        """The group games still to play (W/D/L) and the knock-out matches whose players are
        known and which are not played (P(each goes through), P(tiebreaks)), with the
        ratings in force at their event."""
        cname = scn.controls["classical"]
        games, matches, notes = [], [], []
        gp6 = [rules.POINT * x for x in scn.group_points]
        for e, (ev, st) in enumerate(zip(scn.events, rules.state(scn, at))):
            if not st.groups_known:
                notes.append(f"event {e + 1} ({ev.name}): groups not drawn at this checkpoint "
                             f"(draw rule: {scn.rules['draw_rule']})")
                continue
            ratings = rules.event_ratings(scn, e)
            for gr in st.groups:
                score, _, complete = rules.group_scores(gr)
                if complete and rules.group_places(gr, gp6) is None:
                    tied = [scn.players[p].name for s, p in enumerate(gr.players)
                            if score[s] == max(score)]
                    notes.append(f"event {e + 1} ({ev.name}) group {gr.name}: the play-off for "
                                 f"first is still to play ({', '.join(tied)})")
            for rd, lead, other in rules.knockout_pairs(st, gp6):
                if rd not in st.ko:
                    mp = match_probability(rules.knockout_steps(scn), model, ratings[lead],
                                           ratings[other], rules.knockout_white(scn))
                    matches.append({"event": ev.name, "round": rules.KO_ROUND_TEXT[rd],
                                    "players": [scn.players[lead].name,
                                                scn.players[other].name],
                                    "p_win": [mp["p_first"], 1 - mp["p_first"]],
                                    "p_tiebreak": mp["p_tiebreak"]})
            for gr in st.groups:
                for rd, w, b, r in gr.games:
                    if r >= 0:
                        continue
                    pw, pd, pb = model.wdl(cname, model.rating(ratings[w], cname),
                                           model.rating(ratings[b], cname))
                    games.append({"event": e + 1, "group": gr.name, "round": rd,
                                  "white": scn.players[w].name, "black": scn.players[b].name,
                                  "p_white": pw, "p_draw": pd, "p_black": pb})
        return {"scenario": scn.name, "at": at or "latest", "control": cname, "games": games,
                "matches": matches, "notes": notes}

    def compile(self, scn: GroupSeries, model, opts: CompileOptions):
        from .plan import GroupSeriesPlan   # numba only when something is simulated
        self.check_options(scn, opts)
        return GroupSeriesPlan(scn, model, opts)

    # ---- swing ----------------------------------------------------------------------------
    def swing_items(self, scn: GroupSeries, model, at, round_no=None, fixed=None):
        """What ``swing`` examines: the group games of the next round (or of group round
        ``round_no``), each under 1-0, 1/2-1/2 and 0-1 (keys (event, group, game index) ->
        result code); after the group stage the next knock-out matches
        (``_knockout_items``)."""
        from ..shared.swing import Examined, Item

        fixed = dict(fixed or {})
        target = _next_group_round(scn, at, round_no, fixed)
        if target is None and round_no is None:
            return self._knockout_items(scn, model, at, fixed)
        if target is None or not target[1]:
            raise ScenarioError("no group game of that round is left to play at this "
                                "checkpoint", file=scn.file, key="--round", value=round_no)
        e, games, rn = target
        cname = scn.controls["classical"]
        ratings = rules.event_ratings(scn, e)
        groups = rules.state(scn, at)[e].groups
        items = []
        for g, j, rd, w, b in games:
            probs = model.wdl(cname, model.rating(ratings[w], cname),
                              model.rating(ratings[b], cname))
            items.append(Item({"event": e + 1, "group": groups[g].name, "round": rd,
                               "white": scn.players[w].name, "black": scn.players[b].name,
                               "p_white": probs[0], "p_draw": probs[1], "p_black": probs[2]},
                              [[({(e, g, j): code}, 1.0)] for code in range(3)], RESULTS))
        return Examined({"event": e + 1, "round": rn}, items, scn.qualifying_places)

    def _knockout_items(self, scn, model, at, fixed):
        """The next knock-out matches whose players are known (once the what-ifs ``fixed``
        are assumed), each under its six results (either player winning 2-0 or 1.5-0.5 in
        the classical games, or on tiebreaks after 1-1)."""
        from ..shared.swing import Examined, Item

        todo = _next_matches(scn, at, fixed)
        if todo is None:
            raise ScenarioError("no group game or knock-out match with known players is left "
                                "to play at this checkpoint" + (" once the what-ifs are "
                                                                "assumed" if fixed else ""),
                                file=scn.file, key="--at", value=at or "latest")
        e, matches = todo
        ratings = rules.event_ratings(scn, e)
        items = []
        for m_i, lead, other in matches:
            outcomes = _match_outcomes(scn, model, e, m_i, ratings[lead], ratings[other],
                                       scn.players[lead].name, scn.players[other].name)
            items.append(Item({"event": scn.events[e].name, "round": KO_ROUNDS[m_i],
                               "players": [scn.players[lead].name, scn.players[other].name],
                               "outcomes": [{"result": o[0], "p": o[1]} for o in outcomes]},
                              [list(mix) for _, _, mix in outcomes]))
        return Examined({}, items, scn.qualifying_places)

    # ---- whocan ---------------------------------------------------------------------------
    def whocan(self, scn: GroupSeries, at, budget=None, draws: str = "rule",
               fixed=None) -> dict:
        """Exact "who can still finish first / qualify" (``whocan.py``).  ``draws``: "rule"
        (undrawn groups: every draw ``draw_rule`` allows) or "as-drawn" (the groups in the
        file, hindsight); ``fixed``: what-ifs (group games, knock-out matches; ``parse_fix``)
        counted as played."""
        if scn.win_points:
            raise ScenarioError("whocan does not model points for classical wins yet "
                                "([points] classical_win)", file=scn.file,
                                key="points.classical_win", value=scn.win_points)
        from .whocan import whocan as whocan_rows
        return whocan_rows(scn, self.check_at(scn, at), budget, draws, fixed=fixed)

    def parse_fix(self, scn: GroupSeries, text: str, at, key: str, earlier=None) -> dict:
        """``[EVENT:] [rN] White - Black RESULT`` -> {(event, group, game index): result}: a
        group game of a group known at ``at`` and not played by then; ``[EVENT:] A beats B
        SCORE`` -> {(event, "sf1" | "sf2" | "final"): Match}: a knock-out match whose players
        are known at ``at`` once the what-ifs before it (``earlier``) are assumed."""
        from ..shared.whatif import find_events, is_match_fix, parse_game, pick_game

        if is_match_fix(text):
            return _parse_match(scn, text, at, key, earlier or {})
        head, sep, rest = text.partition(":")
        events = range(len(scn.events))
        if sep and not head.strip().lower().startswith("r"):
            events = find_events([ev.name for ev in scn.events], head, key, scn.file)
            text_ = rest
        else:
            text_ = text
        rnd, w, b, res = parse_game(text_, scn.names, scn.index, key, scn.file)
        hits = [(rd, gw, gb, r, (e, g, j))
                for e, st in enumerate(rules.state(scn, at)) if e in events
                for g, gr in enumerate(st.groups)
                for j, (rd, gw, gb, r) in enumerate(gr.games)
                if {gw, gb} == {w, b} and (rnd is None or rd == rnd)]
        k = pick_game(hits, w, b, rnd, res, scn.names, " in a group known at this checkpoint",
                      'the event and the round ("Belgrade: r3 ...")', scn.file, key, text)
        return {} if k is None else {k: res}

    def describe_fix(self, scn: GroupSeries, fixed: dict) -> list[str]:
        from ...enums import RESULT_TEXT
        out = []
        for k, v in sorted(fixed.items(), key=lambda kv: _playing_order(kv[0])):
            if len(k) == 2:
                out.append(f"{scn.events[k[0]].name} {rules.KO_ROUND_TEXT[k[1]]}: "
                           + _match_words(scn, v))
                continue
            e, g, j = k
            gr = scn.events[e].groups[g]
            rd, w, b, _ = gr.games[j]
            out.append(f"{scn.events[e].name} group {gr.name} round {rd}: {scn.names[w]} - "
                       f"{scn.names[b]} {RESULT_TEXT[v]}")
        return out

    render_standings = render_from("standings")
    render_odds = render_from("odds")
    render_swing = render_from("swing")
    render_whocan = render_from("whocan")


def _next_group_round(scn: GroupSeries, at, round_no, fixed=None):
    """(event, [(group, game index, round, White, Black)], round) of the first event with
    group games still to play (and not assumed in ``fixed``), or None."""
    fixed = fixed or {}
    for e, st in enumerate(rules.state(scn, at)):
        if not st.groups_known:
            continue
        open_games = [(g, j, rd, w, b) for g, gr in enumerate(st.groups)
                      for j, (rd, w, b, r) in enumerate(gr.games)
                      if r < 0 and (e, g, j) not in fixed]
        if open_games:
            rn = round_no if round_no is not None else min(x[2] for x in open_games)
            return e, [x for x in open_games if x[2] == rn], rn
    return None


def _playing_order(key: tuple) -> tuple:
    """Sort key of a what-if: event by event, its group games (group, game) before its
    knock-out matches (semi-finals, final)."""
    if len(key) == 2:                        # (event, "sf1" | "sf2" | "final")
        return key[0], 1, KO_ROUNDS.index(key[1]), 0
    return key[0], 0, key[1], key[2]         # (event, group, game index)


WHATIF_TB = "what-if: decided on tiebreaks"   # the tiebreak note of an assumed match


def _winner_halves(m: Match) -> tuple[int, int]:
    """(winner's, loser's) classical half points of a knock-out Match."""
    a_halves = sum(rules.HALF[c][0] for c in m.classical)
    total = 2 * len(m.classical)
    return (a_halves, total - a_halves) if m.winner == m.a else (total - a_halves, a_halves)


def _match_words(scn: GroupSeries, m: Match) -> str:
    loser = m.b if m.winner == m.a else m.a
    won, lost = _winner_halves(m)
    how = (f"{halves_text(won)}-{halves_text(lost)} in the classical games" if won != lost else
           "on tiebreaks" + (" (two classical draws assumed)" if m.tiebreak == WHATIF_TB
                             else ""))
    return f"{scn.names[m.winner]} beats {scn.names[loser]} {how}"


def _parse_match(scn: GroupSeries, text: str, at, key: str, earlier: dict) -> dict:
    """One knock-out what-if (``GroupSeriesFormat.parse_fix``); {} when the match was played
    with that very result."""
    from ..shared.whatif import find_events, parse_match_fix

    f = parse_match_fix(text, scn.names, scn.index, rules.KO_GAMES, key, scn.file)
    events = range(len(scn.events))
    if f.event:
        events = find_events([ev.name for ev in scn.events], f.event, key, scn.file)
    gp6 = [rules.POINT * x for x in scn.group_points]
    for e, st in enumerate(rules.state(scn, at, earlier)):
        if e not in events or not st.groups_known:
            continue
        for rd, lead, other in rules.knockout_pairs(st, gp6):
            if {lead, other} != {f.winner, f.loser}:
                continue
            m = st.ko.get(rd)
            if m is not None:       # played by then (or assumed before this one)
                if m.winner == f.winner and _winner_halves(m) == (f.won, f.lost):
                    return {}
                raise ScenarioError("already played: " + _match_words(scn, m), file=scn.file,
                                    key=key, value=text)
            # codes from the winner's side (0 won, 1 drawn); "on tiebreaks": two draws
            codes = (1, 1) if f.tiebreak else (0, 0) if f.lost == 0 else (0, 1)
            return {(e, rd): Match(rd, f.winner, f.loser, codes, f.winner,
                                   WHATIF_TB if f.tiebreak else "")}
    raise ScenarioError("these two do not meet in a knock-out match whose players are known at "
                        "this checkpoint (after the what-ifs before this one)", file=scn.file,
                        key=key, value=text)


def _next_matches(scn: GroupSeries, at, fixed):
    """(event, [(match index, leading player, other)]) of the next knock-out matches whose
    players are known once the what-ifs ``fixed`` are assumed, in the first event whose groups
    are all settled and which has such a match open; or None."""
    gp6 = [rules.POINT * x for x in scn.group_points]
    for e, st in enumerate(rules.state(scn, at, fixed)):
        if not st.groups_known or any(rules.group_places(gr, gp6) is None for gr in st.groups):
            continue
        todo = [(KO_ROUNDS.index(rd), lead, other)
                for rd, lead, other in rules.knockout_pairs(st, gp6) if rd not in st.ko]
        if todo:
            return e, todo
    return None


def _match_outcomes(scn, model, e, m_i, r_lead, r_other, ln, on):
    """[(label, probability, mixture of what-ifs)] of a knock-out match's six results."""
    ctl = scn.controls
    mp = match_probability(rules.knockout_steps(scn), model, r_lead, r_other,
                           rules.knockout_white(scn))
    p_ltb = mp["p_first"] - mp["p_classical"]
    # a 1-1 is two draws or a win each (the latter counts in the classical-wins criterion):
    # a tiebreak column mixes both, weighted by their probabilities
    c = ctl["classical"]
    rl, ro = model.rating(r_lead, c), model.rating(r_other, c)
    w1, d1, b1 = model.wdl(c, rl, ro)
    w2, d2, b2 = model.wdl(c, ro, rl)
    q_draws = d1 * d2 / (d1 * d2 + w1 * w2 + b1 * b2)

    def fx(mix, lw):
        return [({(e, m_i): (codes, lw)}, wt) for codes, wt in mix]

    tb = [((1, 1), q_draws), ((0, 2), 1.0 - q_draws)]
    return [(f"{ln} wins 2-0", mp["p_2_0"], fx([((0, 0), 1.0)], True)),
            (f"{ln} wins 1.5-0.5", mp["p_15_05"], fx([((0, 1), 1.0)], True)),
            (f"{ln} wins on tiebreaks (1-1)", p_ltb, fx(tb, True)),
            (f"{on} wins on tiebreaks (1-1)", mp["p_tiebreak"] - p_ltb, fx(tb, False)),
            (f"{on} wins 1.5-0.5", mp["p_05_15"], fx([((2, 1), 1.0)], False)),
            (f"{on} wins 2-0", mp["p_0_2"], fx([((2, 2), 1.0)], False))]


FORMAT = GroupSeriesFormat()
