"""The rules of a group series as pure functions: the schedule of a group, checkpoints, what is
known at one, group places (ties shared, the play-off for first), series keys and the
standings table.  Plain Python; the kernel (``nb.py``), its twin
(``simcycle/reference/groups.py``) and whocan follow these.

Units: group and series points in sixths of a point (shares of two or three places stay
integers), classical game points in half points, money in the scenario's currency.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ...enums import BLACK_WINS, RESULT_TEXT, STEP_ARMAGEDDON, STEP_GAMES, UNPLAYED, WHITE_WINS
from ..shared.entries import ENTRY_DONE, ENTRY_IN, ENTRY_TO_PLAY
from ..shared.matches import Step
from .schema import KO_ROUNDS, ROUNDS

if TYPE_CHECKING:   # pragma: no cover
    from .scenario import Group, GroupSeries

POINT = 6                                      # sixths
HALF = {WHITE_WINS: (2, 0), 1: (1, 1), BLACK_WINS: (0, 2)}   # half points (White, Black)
# the standings' names of the series criteria (schema.CRITERIA)
CRITERION_FIELD = {"events-won": "events_won", "second-places": "second_places",
                   "classical-points": "classical_points", "classical-wins": "classical_wins"}

# FIDE Handbook C.05 Annex 1, Berger table for 4 players (numbers 1-4): round -> (White, Black)
_BERGER4 = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


def schedule(kind: str) -> list[tuple[int, int, int]]:
    """(round, white slot, black slot) of a double round robin of four, slots 0-3.

    "berger": the Berger table, second cycle with colours reversed; "berger-swapped": the
    same with the last two rounds of the first cycle swapped (FIDE's recommendation for double
    round robins, so that no player has three games in a row with one colour)."""
    c1 = list(_BERGER4)
    if kind == "berger-swapped":
        c1 = [c1[0], c1[2], c1[1]]
    rounds = c1 + [[(b, a) for a, b in r] for r in c1]
    return [(k + 1, w - 1, b - 1) for k, r in enumerate(rounds) for w, b in r]


# ---- one group ------------------------------------------------------------------------------
def group_scores(group: "Group", upto_round: int = ROUNDS):
    """(score half points by slot, wins by slot, complete?) counting rounds <= upto_round."""
    slot = group.players.index
    score = [0] * 4
    wins = [0] * 4
    complete = True
    for rd, w, b, r in group.games:
        if r < 0 or rd > upto_round:
            complete = False
            continue
        sw, sb = HALF[r]
        i, j = slot(w), slot(b)
        score[i] += sw
        score[j] += sb
        if r == WHITE_WINS:
            wins[i] += 1
        elif r == BLACK_WINS:
            wins[j] += 1
    return score, wins, complete


def rest_places(score, gp6, out, first_place) -> None:
    """Places first_place.. for the slots still without points (out[s] < 0), by score, ties
    sharing the places they cover (integer sixths)."""
    rest = sorted([s for s in range(4) if out[s] < 0], key=lambda s: -score[s])
    q = first_place
    i = 0
    while i < len(rest):
        run = [s for s in rest[i:] if score[s] == score[rest[i]]]
        v = sum(gp6[q:q + len(run)]) // len(run)
        for s in run:
            out[s] = v
        q += len(run)
        i += len(run)


def group_places(group: "Group", gp6, with_playoff: bool = True):
    """Points (sixths) by slot of a finished group, or None when a play-off is needed and
    not known (or the games are not all played).  gp6: points of places 1-4 in sixths."""
    score, _, complete = group_scores(group)
    if not complete:
        return None
    top = max(score)
    tied = [s for s in range(4) if score[s] == top]
    out = [-1] * 4
    if len(tied) == 1:
        out[tied[0]] = gp6[0]
        rest_places(score, gp6, out, 1)
        return out
    if group.playoff is None or not with_playoff:
        return None
    q = 0
    slot = {p: s for s, p in enumerate(group.players)}
    for place in group.playoff:
        v = sum(gp6[q:q + len(place)]) // len(place)
        for p in place:
            out[slot[p]] = v
        q += len(place)
    rest_places(score, gp6, out, q)
    return out


def group_winner(group: "Group", gp6) -> int:
    """The winner of a group whose places are known."""
    return group.players[group_places(group, gp6).index(gp6[0])]


# ---- checkpoints and what is known at one ---------------------------------------------------
def checkpoints(scn: "GroupSeries") -> list[str]:
    out = ["start"]
    for n in range(1, len(scn.events) + 1):
        out += [f"event{n}-round{k}" for k in range(1, ROUNDS + 1)]
        out += [f"event{n}-groups", f"event{n}-sf", f"event{n}"]
    return out


def checkpoint_index(e: int, what) -> int:
    """Index of a checkpoint of event e: what = round number 1-6, 'groups', 'sf' or 'final'."""
    base = 1 + e * (ROUNDS + 3)
    if isinstance(what, int):
        return base + what - 1
    return base + {"groups": ROUNDS, "sf": ROUNDS + 1, "final": ROUNDS + 2}[what]


def limit(scn: "GroupSeries", at: str | None) -> int:
    cps = checkpoints(scn)
    return len(cps) if at is None else cps.index(at)


@dataclass
class EventState:
    groups_known: bool
    groups: list            # Group views restricted to the checkpoint (results after it = -1)
    playoff_known: list     # per group
    ko: dict                # round -> Match counted


def groups_known(scn: "GroupSeries", e: int, lim: int) -> bool:
    """Are event e's groups known at checkpoint index ``lim``?"""
    return bool(scn.events[e].groups) and (scn.rules["future_groups"] == "as-drawn" or e == 0
                                           or lim >= checkpoint_index(e - 1, "final"))


def state(scn: "GroupSeries", at: str | None, fixed=None) -> list[EventState]:
    """What is known at checkpoint ``at`` (None: everything in the file), event by event.
    What-ifs in ``fixed`` count as played: {(event, group, game index): result code} for
    group games, {(event, "sf1" | "sf2" | "final"): Match} for knock-out matches (other keys,
    such as swing's, are the plan's)."""
    lim = limit(scn, at)
    fixed = fixed or {}
    out = []
    for e, ev in enumerate(scn.events):
        known = groups_known(scn, e, lim)
        groups = [_group_state(gr, e, g, lim, fixed) for g, gr in
                  enumerate(ev.groups if known else ())]
        out.append(EventState(known, groups, [gr.playoff is not None for gr in groups],
                              _knockout_state(ev, e, known, lim, fixed)))
    return out


def _group_state(gr, e: int, g: int, lim: int, fixed: dict):
    """Group ``g`` of event ``e`` at checkpoint index ``lim``: its games played by then (or
    fixed by a what-if), the others UNPLAYED; its play-off once the groups are over."""
    if not fixed and checkpoint_index(e, "groups") <= lim:
        return gr       # every game and the play-off known by then, none fixed: as it is
    games = tuple((rd, w, b, fixed.get((e, g, j), r if checkpoint_index(e, rd) <= lim
                                       else UNPLAYED))
                  for j, (rd, w, b, r) in enumerate(gr.games))
    po = gr.playoff if checkpoint_index(e, "groups") <= lim else None
    return replace(gr, games=games, playoff=po)


def _knockout_state(ev, e: int, known: bool, lim: int, fixed: dict) -> dict:
    """Event ``e``'s knock-out matches known at checkpoint index ``lim`` (a what-if fills a
    round not played yet); none while its groups are not known."""
    if not known:
        return {}
    ko = {rd: m for rd, m in ev.knockout.items()
          if checkpoint_index(e, "sf" if rd != "final" else "final") <= lim}
    for rd in KO_ROUNDS:
        if rd not in ko and (e, rd) in fixed:
            ko[rd] = fixed[(e, rd)]
    return ko


KO_ROUND_TEXT = {"sf1": "semi-final 1", "sf2": "semi-final 2", "final": "final"}
KO_GAMES = 2    # classical games of a knock-out match ([RU]: two, then the tiebreak)


def knockout_steps(scn: "GroupSeries") -> list[Step]:
    """A knock-out match's steps ([RU]): two classical games, two rapid, two blitz, then
    Armageddon, each played only while the match is level; ``[1:]`` is the two-player
    tiebreak procedure of a group play-off.  Step names are the ``[controls]`` keys."""
    ctl = scn.controls
    return [Step(STEP_GAMES, ctl["classical"], KO_GAMES, "classical"),
            Step(STEP_GAMES, ctl["rapid"], 2, "rapid"),
            Step(STEP_GAMES, ctl["blitz"], 2, "blitz"),
            Step(STEP_ARMAGEDDON, ctl["armageddon"], 1, "armageddon")]


def knockout_white(scn: "GroupSeries"):
    """Who has White in game 1 for ``match_probability``: None (by lot) or 0 (the leading
    player, ``knockout_colours = "first-listed"``)."""
    return None if scn.rules["knockout_colours"] == "lots" else 0


def knockout_pairs(st: EventState, gp6) -> list[tuple[str, int, int]]:
    """(round, leading player, other) of an event's knock-out matches whose players are known
    in ``st``: semi-final 1 the winners of groups A and B, semi-final 2 of C and D, the final
    the semi-finals' winners (the leading player: group A's, C's, semi-final 1's)."""
    win = [None] * 4
    for g, gr in enumerate(st.groups):
        pl = group_places(gr, gp6)
        if pl is not None:
            win[g] = gr.players[pl.index(gp6[0])]
    out = [(rd, win[i], win[i + 1]) for rd, i in (("sf1", 0), ("sf2", 2))
           if len(st.groups) == 4 and None not in (win[i], win[i + 1])]
    if "sf1" in st.ko and "sf2" in st.ko:
        out.append(("final", st.ko["sf1"].winner, st.ko["sf2"].winner))
    return out


def event_ratings(scn: "GroupSeries", e: int) -> list[dict]:
    """Every player's rating dict at event e (the event's classical list, else his own)."""
    ev = scn.events[e]
    return [{"classical": ev.ratings.get(p, info.rating), "rapid": info.rapid,
             "blitz": info.blitz} for p, info in enumerate(scn.players)]


def draw_order(scn: "GroupSeries", e: int) -> list[int]:
    """Event e's roster by classical rating at the event (then player order): the baskets of
    a draw are its runs of four, the snake deals it out."""
    ev = scn.events[e]
    rating = {p: ev.ratings.get(p, scn.players[p].rating) for p in ev.roster}
    return sorted(ev.roster, key=lambda p: (-rating[p], p))


def snake(order: list[int]) -> list[list[int]]:
    """Four groups dealt from ``order`` 1-2-3-4-4-3-2-1-..."""
    groups: list[list[int]] = [[], [], [], []]
    for i, p in enumerate(order):
        q, r = divmod(i, 4)
        groups[r if q % 2 == 0 else 3 - r].append(p)
    return groups


def eligible(scn: "GroupSeries") -> list[bool]:
    """Players in the series table (substitutes only when they count)."""
    return [scn.substitutes_count or not p.substitute for p in scn.players]


def criteria(scn: "GroupSeries") -> list[str]:
    """The deterministic series criteria after points, in order (lots left out)."""
    return [t for t in scn.tiebreaks if t != "lots"]


# ---- the standings table --------------------------------------------------------------------
def num(sixths):
    v = sixths / POINT
    return int(v) if v == int(v) else round(v, 4)


@dataclass
class Tally:
    """Series totals per player while the standings are counted."""

    pts: list
    evp: list        # per player, per event: points (sixths) or None
    entry: list      # per player, per event: ``shared.entries`` code or None (not entered)
    tf: list         # events won
    ts: list         # second places
    cp: list         # classical half points
    cw: list         # classical wins
    prize: list

    @classmethod
    def empty(cls, n: int, n_events: int) -> "Tally":
        return cls([0] * n, [[None] * n_events for _ in range(n)],
                   [[None] * n_events for _ in range(n)], [0] * n, [0] * n, [0] * n, [0] * n,
                   [0.0] * n)

    def value(self, crit: str, p: int):
        return {"events-won": self.tf, "second-places": self.ts, "classical-points": self.cp,
                "classical-wins": self.cw}[crit][p]


def _win_points(scn, t: Tally, e: int, p: int, wins: int) -> None:
    """The series points of ``wins`` classical games won (``[points] classical_win``)."""
    if scn.win_points and wins:
        x = POINT * scn.win_points * int(wins)
        t.pts[p] += x
        t.evp[p][e] = (t.evp[p][e] or 0) + x


def _count_group(scn, t: Tally, e: int, gr, gp6, pl, tables: bool = True) -> dict | None:
    """Count one group (``pl``: its places, ``group_places``) into the totals; its table
    (None without ``tables``)."""
    score, wins, complete = group_scores(gr)
    for s, p in enumerate(gr.players):
        t.cp[p] += score[s]
        t.cw[p] += wins[s]
        _win_points(scn, t, e, p, wins[s])
        if pl is not None:
            t.pts[p] += pl[s]
            t.evp[p][e] = (t.evp[p][e] or 0) + pl[s]
            t.prize[p] += scn.prizes["per_group_point"] * pl[s] / POINT
    if not tables:
        return None
    rows = []
    for s, p in enumerate(gr.players):
        rows.append({"name": scn.players[p].name, "score": score[s] / 2, "wins": wins[s],
                     "points": None if pl is None else num(pl[s])})
    order = sorted(range(4), key=lambda s: (-(pl[s] if pl else 0), -score[s], s))
    return {"name": gr.name, "players": [rows[s] for s in order], "complete": complete,
            "playoff": None if not gr.playoff else
            {"places": [[scn.players[p].name for p in place] for place in gr.playoff],
             "score": gr.playoff_note},
            "playoff_pending": complete and pl is None}


def _count_match(scn, t: Tally, e: int, rd: str, m, tables: bool = True) -> dict | None:
    ko6 = POINT * scn.ko_points
    for c in m.classical:
        sa, sb = HALF[c]
        t.cp[m.a] += sa
        t.cp[m.b] += sb
        t.cw[m.a] += c == WHITE_WINS
        t.cw[m.b] += c == BLACK_WINS
        _win_points(scn, t, e, m.a, c == WHITE_WINS)
        _win_points(scn, t, e, m.b, c == BLACK_WINS)
    t.pts[m.winner] += ko6
    t.evp[m.winner][e] = (t.evp[m.winner][e] or 0) + ko6
    t.prize[m.winner] += scn.prizes["per_knockout_point"] * scn.ko_points
    if rd == "final":
        t.tf[m.winner] += 1
        t.ts[m.a if m.winner == m.b else m.b] += 1
    if not tables:
        return None
    names = scn.players
    return {"round": rd, "players": [names[m.a].name, names[m.b].name],
            "classical": [RESULT_TEXT[c] for c in m.classical],
            "winner": names[m.winner].name, "tiebreak": m.tiebreak or None}


def _entry(p: int, st: EventState, gp6, places) -> str:
    """Player p's part in an event he is entered in (``shared.entries``): to play before his
    first game, done once out (a group he does not win, a lost knock-out match) or the winner.
    ``places``: each group's places (``group_places``)."""
    gi = next((g for g, gr in enumerate(st.groups) if p in gr.players), None)
    if gi is None:
        return ENTRY_TO_PLAY
    gr = st.groups[gi]
    if all(r < 0 for rd, w, b, r in gr.games if p in (w, b)):
        return ENTRY_TO_PLAY
    pl = places[gi]
    if pl is None:
        return ENTRY_IN
    if pl[gr.players.index(p)] != gp6[0] or sum(v == gp6[0] for v in pl) > 1:
        return ENTRY_DONE       # not the group's only winner: no semi-final
    return ENTRY_DONE if _out_of_knockout(p, st) else ENTRY_IN


def _out_of_knockout(p: int, st: EventState) -> bool:
    """Has p lost a knock-out match, or played the final?"""
    return any(m is not None and p in (m.a, m.b) and (m.winner != p or rd == "final")
               for rd, m in ((rd, st.ko.get(rd)) for rd in KO_ROUNDS))


def _count_event(scn, t: Tally, e: int, ev, st: EventState, gp6,
                 tables: bool = True) -> dict | None:
    """Count event ``e`` into the totals; its tables, and each player's part in it
    (``t.entry``), only with ``tables``."""
    started = st.groups_known and any(r >= 0 for g in st.groups for *_, r in g.games)
    if started:
        for p in ev.roster:
            t.prize[p] += scn.prizes["per_player"]
    places = [group_places(gr, gp6) for gr in st.groups]    # None: not all known
    gout = [_count_group(scn, t, e, gr, gp6, pl, tables) for gr, pl in zip(st.groups, places)]
    kout = [_count_match(scn, t, e, rd, st.ko[rd], tables) for rd in KO_ROUNDS if rd in st.ko]
    if not tables:
        return None
    for p in ev.roster:
        t.entry[p][e] = _entry(p, st, gp6, places)
    return {"name": ev.name, "groups_known": st.groups_known, "groups": gout, "knockout": kout}


def tally(scn: "GroupSeries", at: str | None, fixed=None,
          tables: bool = True) -> tuple[Tally, list[dict] | None]:
    """Series totals from the results known at ``at`` (and the what-ifs ``fixed``, as in
    ``state``), and the events' tables.  Without ``tables`` (the totals alone: whocan's
    replays read only the keys) no table and no ``t.entry`` is built, and None is returned
    for the tables."""
    gp6 = [POINT * x for x in scn.group_points]
    t = Tally.empty(len(scn.players), len(scn.events))
    ev_out = [_count_event(scn, t, e, ev, st, gp6, tables)
              for e, (ev, st) in enumerate(zip(scn.events, state(scn, at, fixed)))]
    return t, ev_out if tables else None


def keys(scn: "GroupSeries", t: Tally) -> dict[int, tuple]:
    """{player: (points, criteria...)} for the players in the table (lots left out)."""
    crit = criteria(scn)
    el = eligible(scn)
    return {p: (t.pts[p], *[t.value(c, p) for c in crit]) for p in range(len(scn.players))
            if el[p]}


def _ranks(key: dict[int, tuple]) -> dict[int, tuple[int, bool]]:
    """{player: (rank, shared)}: players level on every deterministic criterion share."""
    out = {}
    for p, k in key.items():
        better = sum(1 for q in key.values() if q > k)
        same = sum(1 for q in key.values() if q == k)
        out[p] = (better + 1, same > 1)
    return out


def standings(scn: "GroupSeries", at: str | None, fixed=None) -> dict:
    t, ev_out = tally(scn, at, fixed)
    el = eligible(scn)
    ranks = _ranks(keys(scn, t))
    rows = []
    for p, info in enumerate(scn.players):
        rank, shared = ranks.get(p, (None, False))
        rows.append({
            "name": info.name, "rank": rank, "shared": shared, "eligible": el[p],
            "points": num(t.pts[p]),
            "events": [None if v is None else num(v) for v in t.evp[p]],
            "entries": t.entry[p],
            "events_won": t.tf[p], "second_places": t.ts[p],
            "classical_points": t.cp[p] / 2, "classical_wins": t.cw[p],
            "prize": t.prize[p],
        })
    rows.sort(key=lambda r: (r["rank"] is None, r["rank"] or 0,
                             scn.index[r["name"].casefold()]))
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
            "qualifying_places": scn.qualifying_places, "currency": scn.currency,
            "criteria": ["points", *scn.tiebreaks],
            "players": rows, "prize_total": sum(t.prize), "events": ev_out}
