"""What-ifs typed on the command line (``--fix "r14 Nepomniachtchi-Ding 1-0"``, ``--fix
"Jerusalem: Nepomniachtchi beats Wei 1.5-0.5"``): the pieces every format's ``parse_fix``
shares — results, player names, the round, the event, a knock-out match's result."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...enums import BLACK_WINS, DRAW, WHITE_WINS
from ...errors import ScenarioError

RESULT_WORDS = {"1-0": WHITE_WINS, "0-1": BLACK_WINS, "1/2-1/2": DRAW, "½-½": DRAW,
                "0.5-0.5": DRAW, "=": DRAW, "draw": DRAW}
_ROUND = re.compile(r"^\s*(?:r|round\s*)(\d+)\s+", re.I)
_SEP = re.compile(r"\s*-\s*|\s+(?:v|vs|v\.|vs\.)\s+", re.I)


def alias_index(players) -> dict[str, int]:
    """Every name and alias of ``players`` (each with ``name`` and ``aliases``), case-folded,
    to the player's index: the table :func:`find_player` and :func:`parse_game` look names up in."""
    return {a.strip().casefold(): i for i, p in enumerate(players) for a in (p.name, *p.aliases)}


def find_player(names: list[str], aliases: dict[str, int], text: str) -> int | None:
    """A player by name or alias (case-insensitive), else by a part of the name that only one
    player's name contains (a surname)."""
    t = text.strip().casefold()
    if not t:
        return None
    if t in aliases:
        return aliases[t]
    hits = [i for i, n in enumerate(names) if t in n.casefold()]
    return hits[0] if len(hits) == 1 else None


def parse_game(text: str, names: list[str], aliases: dict[str, int], key: str, file: str):
    """(round or None, first player, second player, result code from the first's side as
    White) of ``[rN] A - B RESULT``."""
    s = text.strip()
    rnd = None
    m = _ROUND.match(s)
    if m:
        rnd = int(m.group(1))
        s = s[m.end():]
    parts = s.rsplit(None, 1)
    if len(parts) != 2 or parts[1].casefold() not in RESULT_WORDS:
        raise ScenarioError('a what-if is "[rN] White - Black RESULT" with RESULT 1-0, 0-1 or '
                            "1/2-1/2", file=file, key=key, value=text)
    body, res = parts[0], RESULT_WORDS[parts[1].casefold()]
    found = []
    for sep in _SEP.finditer(body):
        a = find_player(names, aliases, body[:sep.start()])
        b = find_player(names, aliases, body[sep.end():])
        if a is not None and b is not None and a != b:
            found.append((a, b))
    found = list(dict.fromkeys(found))
    if len(found) != 1:
        why = ("no two players of the scenario" if not found else "more than one reading of "
               "the names")
        raise ScenarioError(f"{why} in this what-if (names or parts of them, separated by - or "
                            "v)", file=file, key=key, value=text)
    return rnd, found[0][0], found[0][1], res


def pick_game(hits: list[tuple], w: int, b: int, rnd: int | None, res: int,
              names: list[str], where: str, say: str, file: str, key: str, text: str):
    """The key of the one game a what-if ``[rN] w - b res`` names, or None when that game was
    played with that very result; otherwise refused, naming why.

    hits   the games between w and b (in round ``rnd`` if given), each (round, White, Black,
           result code at the checkpoint or -1 still to play, key)
    where  what the games were looked for in ("" or " in a group known at this checkpoint")
    say    how to name one game of several ("the round (r12 ...)")
    """
    from ...enums import RESULT_TEXT

    if not hits:
        raise ScenarioError(f"{names[w]} and {names[b]} do not meet{where}"
                            + (f" in round {rnd}" if rnd else ""), file=file, key=key,
                            value=text)
    same = [h for h in hits if h[1] == w]
    if not same:
        rd, gw, gb = hits[0][:3]
        raise ScenarioError(f"{names[gw]} has White against {names[gb]} in round {rd}",
                            file=file, key=key, value=text)
    open_ = [h for h in same if h[3] < 0]
    if not open_:
        rd, r = same[0][0], same[0][3]
        if r != res:
            raise ScenarioError(f"already played: {RESULT_TEXT[r]} in round {rd}", file=file,
                                key=key, value=text)
        return None
    if len(open_) > 1:
        raise ScenarioError(f"they meet more than once with these colours: say {say}",
                            file=file, key=key, value=text)
    return open_[0][4]


def find_events(names: list[str], text: str, key: str, file: str) -> list[int]:
    """The event a what-if names: its name, the start of its name ("Belgrade" for "Belgrade
    (28 February - 14 March 2022)"), or event1, event2, ...; refused when none or several."""
    want = text.strip().casefold()
    exact = [e for e, n in enumerate(names)
             if n.casefold() == want or f"event{e + 1}" == want.replace(" ", "")]
    hits = exact or [e for e, n in enumerate(names) if n.casefold().startswith(want)]
    if len(hits) != 1:
        raise ScenarioError("no such event (its name, or event1, event2, ...)" if not hits else
                            "more than one event starts so: say more of its name",
                            file=file, key=key, value=text)
    return hits


_HALVES = r"(?:\d+(?:\.5|½)?|½)"
_BEATS = re.compile(r"^(?:(?P<event>.+?):\s*)?(?P<a>.+?)\s+beats\s+(?P<b>.+?)\s+"
                    rf"(?P<how>on\s+tiebreaks?|tiebreaks?|{_HALVES}\s*-\s*{_HALVES})\s*$",
                    re.I)


def is_match_fix(text: str) -> bool:
    """Does the what-if name a knock-out match ("A beats B ...") rather than a game?"""
    return " beats " in f" {text.casefold()} "


@dataclass(frozen=True)
class MatchFix:
    """A knock-out what-if as typed: ``[EVENT:] A beats B SCORE``.

    event      the event's name as typed (None: not said)
    winner     player index of A;  loser: of B
    tiebreak   True: classical games level, the tiebreak decided ("on tiebreaks")
    won, lost  the winner's and the loser's classical half points (level when ``tiebreak``)
    """

    event: str | None
    winner: int
    loser: int
    tiebreak: bool
    won: int
    lost: int


def halves_text(h: int) -> str:
    """Half points as a chess score: 3 -> "1½", 1 -> "½", 0 -> "0"."""
    return f"{h // 2}" + ("½" if h % 2 else "") if h > 1 else ("½" if h == 1 else "0")


def parse_match_fix(text: str, names: list[str], aliases: dict[str, int], games: int,
                    key: str, file: str) -> MatchFix:
    """``[EVENT:] A beats B SCORE`` with SCORE the classical score ("2-0", "1.5-0.5", of
    ``games`` games) or "on tiebreaks"."""
    m = _BEATS.match(text.strip())
    if not m:
        raise ScenarioError('a knock-out what-if is "[EVENT:] A beats B 2-0" (the classical '
                            'score, or "on tiebreaks")', file=file, key=key, value=text)
    who = [find_player(names, aliases, m.group(g)) for g in ("a", "b")]
    if None in who or who[0] == who[1]:
        raise ScenarioError("no two players of the scenario in this what-if (names or parts "
                            "of them)", file=file, key=key, value=text)
    how = m.group("how").casefold().replace("½", ".5").replace(" ", "")
    if how.startswith("on") or how.startswith("tie"):
        return MatchFix(m.group("event"), who[0], who[1], True, games, games)
    x, y = (float(v) for v in how.split("-"))
    if x <= y or x + y != games:
        raise ScenarioError(f"the winner's classical score: more than half of the {games} "
                            "games, the two adding up to the games played (or 'on "
                            "tiebreaks')", file=file, key=key, value=text)
    return MatchFix(m.group("event"), who[0], who[1], False, int(2 * x), int(2 * y))
