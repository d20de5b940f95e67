"""A round-robin scenario: the frozen record the rest of the format reads, and its loader.

The schema (``schema.py``) has checked every key, type and range; :func:`load` adds what a
schema cannot see: player names, rounds, pairings against the schedule, rating lists.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...enums import RR_CRITERIA, UNPLAYED
from ...errors import ScenarioError
from ...schema import convert
from ..shared.scenario import FromSource, Source, head_of, index_players, result_code
from ..shared.schedules import berger_rounds
from .schema import RoundRobinFile

DEFAULT_KIND = "round-robin"   # the event kind of a round robin that does not say
PLAYOFF = "playoff"   # the step of a tiebreak order where a play-off settles first place


@dataclass(frozen=True)
class Player:
    name: str
    federation: str
    ratings: dict
    aliases: tuple
    fide_id: int | None = None


@dataclass(frozen=True)
class Game:
    round: int
    white: int
    black: int
    result: int  # enums: WHITE_WINS, DRAW, BLACK_WINS, or UNPLAYED


@dataclass(frozen=True)
class Stage:
    """One stage of the play-off: options (min tied, max tied, kind name, control)."""

    options: tuple


@dataclass(frozen=True)
class RoundRobin(FromSource):
    source: Source
    players: tuple
    cycles: int
    control: str
    schedule: str
    qualifying_places: int
    games: tuple            # every scheduled game, in round order
    n_rounds: int
    stages: tuple           # Stage per play-off stage
    order: tuple            # criterion names; PLAYOFF where the play-off for first comes
    prize_places: tuple
    per_half_point: float
    fund: float | None
    currency: str
    prize_split: str        # "tiebreak": place money by the final order; "points": shared
    playoff_winner: int | None
    rating_lists: tuple     # ((from_round, ratings per player (dicts)), ...), from round 1


    def ratings_at(self, rnd: int) -> list[dict]:
        """The ratings in force in round ``rnd`` (the play-off: after the last round)."""
        current = self.rating_lists[0][1]
        for start, lst in self.rating_lists:
            if start <= rnd:
                current = lst
        return list(current)

    def segment_of(self, rnd: int) -> int:
        """Index of the rating list in force in round ``rnd``."""
        s = 0
        for k, (start, _) in enumerate(self.rating_lists):
            if start <= rnd:
                s = k
        return s


MAX_PLAYERS = 100    # an all-play-all event: 4,950 games a cycle (the Candidates have 8 players)


def load(raw: dict, file: str) -> RoundRobin:
    f = file
    doc = convert(raw, RoundRobinFile, f)
    src = head_of(doc.scenario, f, DEFAULT_KIND)
    if len(doc.players) < 2:
        raise ScenarioError("need a [[players]] list of at least two players", file=f,
                            key="players", value=len(doc.players))
    if len(doc.players) > MAX_PLAYERS:
        raise ScenarioError(f"too many players for an all-play-all event (the limit is "
                            f"{MAX_PLAYERS}; {len(doc.players)} players would play "
                            f"{len(doc.players) * (len(doc.players) - 1) // 2:,} games a cycle)",
                            file=f, key="players")
    idx = index_players(doc.players, f)
    players = tuple(Player(p.name, p.federation, p.ratings(), tuple(p.aliases), p.fide_id)
                    for p in doc.players)
    n = len(players)
    ev = doc.event
    if ev.qualifying_places > n:
        raise ScenarioError(f"more qualifying places than players ({n})", file=f,
                            key="event.qualifying_places", value=ev.qualifying_places)
    stages = _stages(doc.tiebreak.playoff, ev.control, f)
    order = _order(doc, stages, f)
    pw = doc.tiebreak.playoff_winner
    playoff_winner = None if pw is None else idx.find(pw, "tiebreak.playoff_winner")
    pr = doc.prizes
    if len(pr.places) > n:
        raise ScenarioError(f"more place prizes than players ({n})", file=f, key="prizes.places",
                            value=len(pr.places))
    n_rounds = (n - 1 + n % 2) * ev.cycles
    games = _games(doc, idx, players, n_rounds, f)
    if ev.results_pgn or ev.results_trf:     # [event] results_pgn / results_trf
        from .live import merge_file_results
        games = merge_file_results(ev, games, players, f)
    return RoundRobin(
        source=src, players=players, cycles=ev.cycles, control=ev.control,
        schedule=ev.schedule, qualifying_places=ev.qualifying_places, games=games,
        n_rounds=n_rounds, stages=stages, order=order,
        prize_places=tuple(float(x) for x in pr.places), per_half_point=float(pr.per_half_point),
        fund=pr.fund, currency=pr.currency, prize_split=pr.split,
        playoff_winner=playoff_winner, rating_lists=_rating_lists(doc, idx, players, n_rounds, f))


def _stages(playoff, control: str, f: str) -> tuple:
    stages = []
    for s, stage in enumerate(playoff):
        opts = []
        for o, opt in enumerate(stage if isinstance(stage, list) else [stage]):
            key = f"tiebreak.playoff[{s}][{o}]"
            lo, hi = opt.tied
            if lo > hi:
                raise ScenarioError("tied must be [min, max] with 2 <= min <= max", file=f,
                                    key=f"{key}.tied", value=list(opt.tied))
            if opt.kind in ("match", "armageddon") and hi > 2:
                raise ScenarioError(f"a {opt.kind} is for two players: use tied = [2, 2]",
                                    file=f, key=f"{key}.tied", value=list(opt.tied))
            opts.append((lo, hi, opt.kind, opt.control or control))
        if not opts:
            raise ScenarioError("a stage needs at least one option", file=f,
                                key=f"tiebreak.playoff[{s}]")
        stages.append(Stage(tuple(opts)))
    return tuple(stages)


def _order(doc, stages, f: str) -> tuple:
    tb = doc.tiebreak
    order = list(tb.order)
    if len(set(order)) != len(order):
        raise ScenarioError("a criterion is listed twice", file=f, key="tiebreak.order",
                            value=order)
    if PLAYOFF in order and tb.playoff_places:
        raise ScenarioError('say it once: "playoff" in the order, or playoff_places = 1 '
                            "(the play-off before every criterion)", file=f,
                            key="tiebreak.playoff_places", value=tb.playoff_places)
    if tb.playoff_places:
        order.insert(0, PLAYOFF)
    if PLAYOFF in order and not stages:
        raise ScenarioError("a play-off step needs its stages ([tiebreak] playoff)", file=f,
                            key="tiebreak.playoff")
    if "lots" in order and order[-1] != "lots":
        raise ScenarioError('"lots" must come last', file=f, key="tiebreak.order", value=order)
    assert all(c in RR_CRITERIA or c == PLAYOFF for c in order)
    return tuple(order)


def _games(doc, idx, players, n_rounds: int, f: str) -> tuple:
    entered = _entered(doc, idx, players, n_rounds, f)
    if doc.event.schedule == "explicit":
        return _explicit_games(entered, doc.event, players, n_rounds, f)
    return _berger_games(entered, doc.event, players, f)


def _entered(doc, idx, players, n_rounds: int, f: str) -> dict[int, list]:
    """The games entered, by round: (white, black, result code, key) each; a round past the
    last, a round entered twice, a player against himself or twice in a round refused."""
    n = len(players)
    ev = doc.event
    entered: dict[int, list] = {}
    for i, r in enumerate(doc.rounds):
        where = f"rounds[{i}]"
        if r.round > n_rounds:
            raise ScenarioError(f"no such round: {n} players over {ev.cycles} cycle(s) play "
                                f"{n_rounds} rounds", file=f, key=f"{where}.round", value=r.round)
        if r.round in entered:
            raise ScenarioError("round entered twice", file=f, key=f"{where}.round",
                                value=r.round)
        seen: set[int] = set()
        games = []
        for j, (wn, bn, rs) in enumerate(r.games):
            key = f"{where}.games[{j}]"
            w = idx.find(wn, f"{key} (White)")
            b = idx.find(bn, f"{key} (Black)")
            if w == b:
                raise ScenarioError("a player cannot play himself", file=f, key=key, value=wn)
            res = result_code(rs, f, f"{key} (result)")
            for p in (w, b):
                if p in seen:
                    raise ScenarioError(f"{players[p].name} plays twice in round {r.round}",
                                        file=f, key=key, value=[wn, bn, rs])
                seen.add(p)
            games.append((w, b, res, key))
        entered[r.round] = games
    return entered


def _explicit_games(entered: dict, ev, players, n_rounds: int, f: str) -> tuple:
    """An explicit schedule's games: every round entered, with n // 2 games, no pair meeting
    more often than the cycles."""
    n = len(players)
    for rn in range(1, n_rounds + 1):
        if rn not in entered:
            raise ScenarioError(f"explicit schedule: round {rn} is missing (a round robin "
                                f"of {n} players over {ev.cycles} cycle(s) has {n_rounds} "
                                "rounds)", file=f, key="rounds")
        if len(entered[rn]) != n // 2:
            raise ScenarioError(f"round {rn} must list {n // 2} games", file=f, key="rounds",
                                value=len(entered[rn]))
    meets: dict[tuple, int] = {}
    for gl in entered.values():
        for w, b, _, key in gl:
            pair = (min(w, b), max(w, b))
            meets[pair] = meets.get(pair, 0) + 1
            if meets[pair] > ev.cycles:
                raise ScenarioError(f"{players[w].name} and {players[b].name} meet more "
                                    f"than {ev.cycles} time(s)", file=f, key=key)
    return tuple(Game(rn, w, b, res) for rn in sorted(entered) for w, b, res, _ in entered[rn])


def _berger_games(entered: dict, ev, players, f: str) -> tuple:
    """The Berger schedule's games with the results entered (a game entered must be the
    schedule's, colours included)."""
    n = len(players)
    sched = berger_rounds(n, ev.cycles, ev.schedule)
    res_of = {}
    for rn, gl in entered.items():
        scheduled = set(sched[rn - 1])
        for w, b, res, key in gl:
            if (w, b) not in scheduled:
                other = [(x, y) for x, y in scheduled if {x, y} == {w, b}]
                hint = (f"; in round {rn} {players[other[0][0]].name} has White" if other
                        else f"; they do not meet in round {rn}")
                raise ScenarioError("game not in the Berger schedule" + hint, file=f, key=key,
                                    value=f"{players[w].name} - {players[b].name}")
            res_of[(rn, w, b)] = res
    return tuple(Game(rn + 1, w, b, res_of.get((rn + 1, w, b), UNPLAYED))
                 for rn, r in enumerate(sched) for w, b in r)


def _rating_lists(doc, idx, players, n_rounds: int, f: str) -> tuple:
    """(from round, per-player rating dicts); the players' own ratings from round 1."""
    base = [dict(p.ratings) for p in players]
    lists = [(1, tuple(base))]
    last = 1
    for k, rl in enumerate(doc.ratings):
        where = f"ratings[{k}]"
        if rl.from_round <= last or rl.from_round > n_rounds:
            raise ScenarioError(f"rating lists must start in increasing rounds after round 1 "
                                f"and at most {n_rounds}", file=f, key=f"{where}.from_round",
                                value=rl.from_round)
        last = rl.from_round
        cur = [dict(r) for r in lists[-1][1]]
        for cls, table in (("classical", rl.ratings), ("rapid", rl.rapid), ("blitz", rl.blitz)):
            for name, value in table.items():
                cur[idx.find(name, f"{where}.{'ratings' if cls == 'classical' else cls}")][cls] \
                    = float(value)
        lists.append((rl.from_round, tuple(cur)))
    return tuple(lists)
