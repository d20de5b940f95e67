"""The next round's games or matches of each format as ``Item``s: who plays, each result's
probability and the what-ifs (``CompileOptions.fixed`` entries, a weighted mixture) that
assume it.  A knock-out match counts here by its winner (its six results mixed with their
probabilities); ``swing`` keeps the six."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from ..errors import ScenarioError

Mix = Sequence[tuple[Mapping[Any, Any], float]]


@dataclass(frozen=True)
class Result:
    """One result of an item: ``code`` "1-0", "1/2-1/2", "0-1" for a game (White's view),
    "A" / "B" for a match (its first or second player wins)."""

    code: str
    p: float
    mix: Mix


@dataclass(frozen=True)
class Item:
    """A game (players White, Black) or a knock-out match (players in the match's order)."""

    label: str
    kind: str                 # "game" or "match"
    players: tuple[str, str]
    results: tuple[Result, ...]


@dataclass(frozen=True)
class Round:
    """The next round: its name, its items, and the what-ifs every run assumes."""

    title: str
    items: tuple[Item, ...]
    fixed: Mapping[Any, Any]
    exact_ok: bool            # round robin: the remainder may be enumerated exactly


GAME_CODES = ("1-0", "1/2-1/2", "0-1")


def _game(label, white, black, probs, key) -> Item:
    return Item(label, "game", (white, black),
                tuple(Result(c, float(p), [({key: code}, 1.0)])
                      for code, (c, p) in enumerate(zip(GAME_CODES, probs))))


def _match(label, a, b, six) -> Item:
    """Six (label, probability, mixture) results, the first player's three first."""
    out = []
    for code, part in (("A", six[:3]), ("B", six[3:])):
        p = sum(x[1] for x in part)
        mix = [(fx, w * x[1] / p) for x in part for fx, w in x[2]] if p > 0 else []
        out.append(Result(code, float(p), mix))
    return Item(label, "match", (a, b), tuple(out))


def round_robin(fmt, scn, model, at, fixed) -> Round:
    from ..formats.roundrobin import rules
    from ..formats.roundrobin.exact import game_probabilities

    _, remaining = rules.split_games(scn, at, fixed)
    if not remaining:
        raise ScenarioError("nothing left to play at this checkpoint", file=scn.file,
                            key="--at", value=at or "latest")
    rn = min(g.round for g in remaining)
    games = [g for g in remaining if g.round == rn]
    names = scn.names
    items = tuple(_game(f"{names[g.white]} - {names[g.black]}", names[g.white], names[g.black],
                        p, (g.round, g.white, g.black))
                  for g, p in zip(games, game_probabilities(scn, model, games)))
    return Round(f"round {rn}", items, dict(fixed), True)


def knockout_series(fmt, scn, model, at, fixed) -> Round:
    from ..formats.knockout_series import _six_results, rules
    from ..formats.shared.brackets import round_name

    todo = rules.open_matches(scn, at, fixed)
    if not todo:
        raise ScenarioError("no match left to play at this checkpoint", file=scn.file,
                            key="--at", value=at or "latest")
    items = []
    for e, r, j, up, lo in todo:
        ev = scn.events[e]
        six = [(o[0], o[1], [({(e, r, j): o[2]}, 1.0)])
               for o in _six_results(scn, model, e, r, j, up, lo)]
        a, b = scn.players[up].name, scn.players[lo].name
        items.append(_match(f"{ev.name} {round_name(r, rules.n_rounds(ev.size))}: {a} v {b}",
                            a, b, six))
    return Round("the next matches", tuple(items), dict(fixed), False)


def group_series(fmt, scn, model, at, fixed) -> Round:
    from ..formats.group_series import (KO_ROUNDS, _match_outcomes, _next_group_round,
                                        _next_matches, rules)

    target = _next_group_round(scn, at, None, fixed)
    names = scn.names
    if target is not None and target[1]:
        e, games, rn = target
        cname = scn.controls["classical"]
        ratings = rules.event_ratings(scn, e)
        groups = rules.state(scn, at)[e].groups
        items = []
        for g, j, _rd, w, b in games:
            probs = model.wdl(cname, model.rating(ratings[w], cname),
                              model.rating(ratings[b], cname))
            items.append(_game(f"group {groups[g].name}: {names[w]} - {names[b]}", names[w],
                               names[b], probs, (e, g, j)))
        return Round(f"{scn.events[e].name}, group round {rn}", tuple(items), dict(fixed),
                     False)
    todo = _next_matches(scn, at, fixed)
    if todo is None:
        raise ScenarioError("no group game or knock-out match with known players is left "
                            "to play at this checkpoint", file=scn.file, key="--at",
                            value=at or "latest")
    e, matches = todo
    ratings = rules.event_ratings(scn, e)
    items = []
    for m_i, lead, other in matches:
        six = _match_outcomes(scn, model, e, m_i, ratings[lead], ratings[other], names[lead],
                              names[other])
        items.append(_match(f"{KO_ROUNDS[m_i]}: {names[lead]} v {names[other]}", names[lead],
                            names[other], six))
    return Round(f"{scn.events[e].name}, the next knock-out matches", tuple(items),
                 dict(fixed), False)


def cycle(fmt, scn, model, at, fixed) -> Round:
    """A cycle's next round is the next round of its first part still to play (the series
    feeding the Candidates, or the Candidates itself), its what-ifs keyed by the part as the
    cycle's ``parse_fix`` keys them: {(part index, the part's key): value}."""
    from ..formats.cycle import rules

    parts = (*scn.events, scn.final)
    ev_at, fin_at = rules.part_at(scn, at)
    for k, (part, a) in enumerate(zip(parts, (*ev_at, fin_at))):
        build = BUILDERS.get(part.fmt.name)
        mine = {pk: v for (i, pk), v in fixed.items() if i == k}
        if build is None or build is cycle:
            raise ScenarioError(f"needs is not offered for a cycle whose next part is a "
                                f"{part.fmt.name} yet", file=scn.file, key="--at",
                                value=at or "latest")
        try:
            rnd = build(part.fmt, part.scn, model.for_kind(part.scn.kind), a, mine)
        except ScenarioError:       # this part is over at ``at``: the next one
            continue
        items = tuple(Item(it.label, it.kind, it.players,
                           tuple(Result(r.code, r.p, [({(k, key): v for key, v in fx.items()}, w)
                                                      for fx, w in r.mix])
                                 for r in it.results))
                      for it in rnd.items)
        return Round(f"{part.scn.name}: {rnd.title}", items, dict(fixed), False)
    raise ScenarioError("nothing left to play at this checkpoint", file=scn.file, key="--at",
                        value=at or "latest")


BUILDERS: dict[str, Callable[..., Round]] = {
    "round-robin": round_robin, "knockout-series": knockout_series,
    "group-series": group_series, "cycle": cycle}
