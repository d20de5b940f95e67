"""Who can still finish first, or in the qualifying places, of a Swiss event, on points.

Only the next round's pairings can be known (when published); later rounds are paired from
results not yet played.  So every claim here is about points and holds for *every* pairing of
the rounds not yet published (rematches included: a superset of what the Dutch system can
produce, so nothing proved here depends on how the pairing engine decides).  Tie-breaks
(Buchholz, average rating of opponents, ...) depend on those pairings: when a claim is only
"level on points", the tie-breaks decide and the answer says so instead of guessing.

Half points throughout.  ``r`` rounds are left; ``c_j`` is player j's score now; the published
round (if any) is played by its listed games and byes.  Assumed: every player plays every
round left (no withdrawal, no requested bye; with an odd field one pairing-allocated bye per
round, worth ``pab_points``).

For player x, rivals R (for a qualifying place with passing-down: the players not already
qualified; for first place: everybody else) and q places:

  eliminated   (even level) for every pairing and result at least q rivals end with more
               points than x can reach: x's maximum is every game left won; a rival's minimum
               is every game left lost; in the published round the least any rivals who play
               each other can share is taken game by game, for each result of x's own game.
               ``via``-less; "outright" is also refused when q rivals are sure of at least x's
               maximum.
  clinched     for every pairing and result fewer than q rivals reach x's minimum (x loses
               every game left; a rival's maximum is every game won; published games are
               shared game by game as well as possible for the rivals).
  alive        proved for every pairing by a rule (a strategy) that fixes each game's result
               once its pairing is known: x wins every game; up to q-1 "free" rivals (those
               with most points) may do anything; every other rival that could still reach
               x's total ("threats") draws when paired with another threat and loses every
               other game.  A threat then gains at most ½ point a round, whatever the
               pairing; the rule works when each threat stays below x's total (``via``
               "outright") or at most level with it ("tiebreak": then the tie-breaks decide).
               In the published round the games are played out one by one (two threats
               paired together share the points so that both stay below if they can).
  undetermined none of the above proves or refutes it: whether x can still get there depends
               on pairings not yet made (e.g. many rivals who could all pass x unless they
               meet each other).  Never a guess.

``at_worst`` (for alive rows): "out" when a rule proves x can still drop out whatever the
pairing (x loses every game; the q rivals with most points win their other games and draw
among themselves, gaining at least ½ point a round); "tiebreak" when no q rivals can pass x
(bounds), only catch him level; None when neither is proved.  No solver runs: the work is a
few passes over the field per question (far below a CPU-second for 116 players).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...enums import UNPLAYED
from .rules import SCORE, bye_points, last_round
from .scenario import Swiss

OPTIONS = ((2, 0), (1, 1), (0, 2))     # half points to (White, Black)
RESULT = {(2, 0): "1-0", (1, 1): "1/2-1/2", (0, 2): "0-1"}


def half(v: int) -> str:
    """Half points as text: 13 -> "6½"."""
    w = v // 2
    return (str(w) if w or v % 2 == 0 else "") + ("½" if v % 2 else "")


@dataclass
class State:
    """The points at a checkpoint and what is left: ``c`` half points per player, ``left``
    rounds, ``pub`` the published round's games [(white, black, result or None)], ``pub_bye``
    {player: half points}, ``later`` rounds after it, ``up`` / ``down`` the most and least a
    player can be sure to gain in a round of the rule (a draw, or the pairing-allocated
    bye), ``board`` where each player of the published round plays."""

    scn: Swiss
    start: int
    c: list
    left: int
    pub: list
    pub_bye: dict
    pub_round: int | None
    later: int
    up: int
    down: int
    board: dict          # player -> index of his game in ``pub``


def state(scn: Swiss, at, fixed=None) -> State:
    start = last_round(scn, at)
    n = len(scn.players)
    c = [0] * n
    for g in scn.games:
        if g.round <= start:
            sw, sb = SCORE[g.result]
            c[g.white] += sw
            c[g.black] += sb
    for b in scn.byes:
        if b.round <= start:
            c[b.player] += bye_points(scn, b.kind)
    left = scn.n_rounds - start
    nxt = start + 1
    pub, pub_bye = [], {}
    if left and any(g.round == nxt for g in scn.games):
        for g in scn.games:
            if g.round == nxt:
                res = (fixed or {}).get((g.round, g.white, g.black))
                if res is None and at is None and g.result != UNPLAYED:
                    res = g.result
                pub.append((g.white, g.black, None if res is None else SCORE[res]))
        pub_bye = {b.player: bye_points(scn, b.kind) for b in scn.byes if b.round == nxt}
    odd = n % 2 == 1
    return State(scn, start, c, left, pub, pub_bye, nxt if pub else None,
                 left - (1 if pub else 0), max(1, scn.pab_points) if odd else 1,
                 min(1, scn.pab_points) if odd else 1,
                 {p: k for k, (w, b, _) in enumerate(pub) for p in (w, b)})


def _options(res):
    return OPTIONS if res is None else (res,)


def _own(s: State, x):
    """x's possible gains in the published round with its game (index or None)."""
    k = s.board.get(x)
    if k is None:
        return [(None, None)]
    return [(k, o) for o in _options(s.pub[k][2])]


def _pub_gain_of(s: State, x, own):
    k, o = own
    if k is None:
        return s.pub_bye.get(x, 0)
    w, b, _ = s.pub[k]
    return o[0] if x == w else o[1]


def _count_pub(s: State, own, rivals, value, better, pick):
    """Over the published games other than x's (``own``), the ``pick`` (min or max) number
    of rivals j with better(c_j + gain_j + value(j)) -- game by game, as the games are
    independent.  value(j): what later rounds add in the bound."""
    rs = set(rivals)
    total = 0
    seen = set()
    k0, o0 = own
    if s.pub_round is not None:
        for k, (w, b, res) in enumerate(s.pub):
            pair = [p for p in (w, b) if p in rs]
            seen.update((w, b))
            if not pair:
                continue
            opts = [o0] if k == k0 else _options(res)
            counts = [sum(better(s.c[p] + (o[0] if p == w else o[1]) + value(p))
                          for p in pair) for o in opts]
            total += pick(counts)
    for j in rs - seen:
        total += better(s.c[j] + s.pub_bye.get(j, 0) + value(j))
    return total


def _max_x(s, x, own):
    return s.c[x] + _pub_gain_of(s, x, own) + 2 * s.later


def _min_x(s, x, own):
    return s.c[x] + _pub_gain_of(s, x, own)


def cannot(s: State, x, rivals, q, strict: bool) -> bool:
    """Proved for every pairing: x cannot finish with fewer than q rivals at (``strict``:
    level with or above; else above) its points."""
    for own in _own(s, x):
        m = _max_x(s, x, own)
        better = (lambda v: v >= m) if strict else (lambda v: v > m)
        if _count_pub(s, own, rivals, lambda j: 0, better, min) < q:
            return False
    return True


def uncatchable(s: State, x, rivals, q, level: bool) -> bool:
    """Proved for every pairing: fewer than q rivals reach (``level``: at least; else more
    than) x's points."""
    for own in _own(s, x):
        m = _min_x(s, x, own)
        better = (lambda v: v >= m) if level else (lambda v: v > m)
        if _count_pub(s, own, rivals, lambda j: 2 * s.later, better, max) >= q:
            return False
    return True


@dataclass
class Rule:
    """A strategy: ``x`` ends on ``total``; ``pub`` the published round's results (index ->
    (White, Black) half points); in later rounds x wins, ``free`` do anything, ``threats``
    draw among themselves and lose every other game (``keep`` True) -- or, for a catch rule,
    x loses, ``threats`` (the catchers) draw among themselves and win the rest."""

    x: int
    total: int
    pub: dict
    free: tuple
    threats: tuple
    catch: bool = False


def reach(s: State, x, rivals, q, strict: bool):
    """A rule that gets x into the top q (``strict``: ahead of all but q-1 rivals; else at
    worst level) whatever the pairings, or None."""
    for own in sorted(_own(s, x), key=lambda o: -_pub_gain_of(s, x, o)):
        total = _max_x(s, x, own)

        def over(v):
            return v >= total if strict else v > total

        ranked = sorted(rivals, key=lambda j: (-s.c[j], j))
        free = set(ranked[:q - 1])
        threats = {j for j in rivals if j not in free and over(_hi(s, j))}
        gain = {j: s.pub_bye.get(j, 0) for j in threats}
        pub = {}
        k0, o0 = own
        for k, (w, b, res) in enumerate(s.pub):
            if k == k0:
                pub[k] = o0
                continue
            opts = _options(res)
            tw, tb = w in threats, b in threats
            if res is not None:
                o = res
            elif w in free or b in free:
                o = (2, 0) if w in free and b not in free else (
                    (0, 2) if b in free and w not in free else (1, 1))
            elif tw and tb:
                def bad(o):
                    return (over(s.c[w] + o[0] + s.up * s.later)
                            + over(s.c[b] + o[1] + s.up * s.later))
                o = min(opts, key=lambda o: (bad(o), o != (1, 1)))
            elif tw:
                o = (0, 2)
            elif tb:
                o = (2, 0)
            else:
                o = (1, 1)
            pub[k] = o
        for k, (w, b, _) in enumerate(s.pub):
            for p, g in ((w, pub[k][0]), (b, pub[k][1])):
                if p in gain:
                    gain[p] += g
        if all(not over(s.c[j] + gain[j] + s.up * s.later) for j in threats):
            return Rule(x, total, pub, tuple(sorted(free)), tuple(sorted(threats)))
    return None


def _pub_range(s: State, j):
    """The least and most j gains in the published round (0, 0 when none)."""
    if j in s.pub_bye:
        return s.pub_bye[j], s.pub_bye[j]
    k = s.board.get(j)
    if k is None:
        return 0, 0
    w, b, res = s.pub[k]
    g = [o[0] if j == w else o[1] for o in _options(res)]
    return min(g), max(g)


def _hi(s: State, j):
    """The most j can end with: every game left won."""
    return s.c[j] + _pub_range(s, j)[1] + 2 * s.later


def _lo(s: State, j):
    return s.c[j] + _pub_range(s, j)[0]


def caught(s: State, x, rivals, q, level: bool):
    """A rule that makes at least q rivals end with (``level``: at least; else more than) x's
    points whatever the pairings, or None."""
    for own in sorted(_own(s, x), key=lambda o: _pub_gain_of(s, x, o)):
        m = _min_x(s, x, own)

        def ok(v):
            return v >= m if level else v > m

        ranked = sorted(rivals, key=lambda j: (-(s.c[j] + s.pub_bye.get(j, 0)), j))
        catchers = set(ranked[:q])
        gain = {j: s.pub_bye.get(j, 0) for j in catchers}
        pub = {}
        k0, o0 = own
        for k, (w, b, res) in enumerate(s.pub):
            if k == k0:
                pub[k] = o0
            elif res is not None:
                pub[k] = res
            elif w in catchers and b in catchers:
                pub[k] = max(OPTIONS, key=lambda o: (ok(s.c[w] + o[0] + s.down * s.later)
                                                     + ok(s.c[b] + o[1] + s.down * s.later),
                                                     o == (1, 1)))
            elif w in catchers:
                pub[k] = (2, 0)
            elif b in catchers:
                pub[k] = (0, 2)
            else:
                pub[k] = (1, 1)
        for k, (w, b, _) in enumerate(s.pub):
            for p, g in ((w, pub[k][0]), (b, pub[k][1])):
                if p in gain:
                    gain[p] += g
        if all(ok(s.c[j] + gain[j] + s.down * s.later) for j in catchers):
            return Rule(x, m, pub, (), tuple(sorted(catchers)), catch=True)
    return None


# ---- rows -------------------------------------------------------------------------------------
def _names(s, js):
    """Every name, in pairing order ("; " between: the names have commas)."""
    return "; ".join(s.scn.players[j].name for j in sorted(js))


def _pub_words(s: State, rule: Rule, who) -> str:
    nm = [p.name for p in s.scn.players]
    parts = []
    for k, (w, b, res) in enumerate(s.pub):
        if res is None and (w in who or b in who):
            o = rule.pub[k]
            parts.append(f"{nm[w]} beats {nm[b]}" if o == (2, 0) else
                         f"{nm[b]} beats {nm[w]}" if o == (0, 2) else
                         f"{nm[w]} draws with {nm[b]}")
    return (f"round {s.pub_round} (published): " + "; ".join(parts)) if parts else ""


def rule_words(s: State, rule: Rule, what: str, strict: bool) -> list[str]:
    nm = [p.name for p in s.scn.players]
    x = rule.x
    own = s.left
    pub = _pub_words(s, rule, {x, *rule.threats, *rule.free})
    later = s.later
    lines = []
    if rule.catch:
        lines.append(f"{nm[x]} can still miss {what} whatever the pairings: {nm[x]} loses every "
                     f"game left ({half(rule.total)} points), and {_names(s, rule.threats)} "
                     "win every other game and draw when they meet, ending with "
                     f"{'at least' if strict else 'more than'} {half(rule.total)}")
        if pub:
            lines.append(pub)
        return lines
    head = (f"has {half(rule.total)} points (nothing left to play)" if own == 0 else
            f"wins the {own} games left ({half(rule.total)} points)" if
            rule.total == s.c[x] + 2 * own else f"ends on {half(rule.total)} points")
    reach = "reach" if strict else "pass"
    lines.append(f"{nm[x]} {head}; whatever the pairings, "
                 + (f"{_names(s, rule.free)} may finish anywhere, and " if rule.free else "")
                 + (f"every other player still able to {reach} {half(rule.total)} "
                    f"({_names(s, rule.threats)}) draws the games they play against one "
                    "another and loses the rest" if rule.threats else
                    f"no other rival can {reach} {half(rule.total)}"))
    if pub:
        lines.append(pub + (f"; then {later} round(s) by the rule above" if later else ""))
    lines.append(f"then {nm[x]} is in {what}, "
                 + ("ahead on points" if strict else
                    f"at best level on points ({half(rule.total)}): then the tie-breaks decide "
                    f"({tiebreak_text(s.scn)})"))
    return lines


def tiebreak_text(scn: Swiss) -> str:
    from ...criteria import BY_CODE
    return "; ".join(BY_CODE[c].label for c in scn.criteria)


def _best_others(s, x, rivals, k, key):
    return sorted(rivals, key=lambda j: (-key(j), j))[:k]


def _eliminated_says(s: State, nm, rivals, q, what: str, hi) -> list[str]:
    """Why x can no longer reach the target: x's most and the best rivals' points now."""
    ahead = _best_others(s, None, rivals, q, lambda j: s.c[j])
    return [f"can no longer reach {what}, even level on points: {half(hi)} at most (winning "
            f"every game left), and " + "; ".join(f"{nm[j]} has {half(s.c[j])}"
                                                  for j in ahead)
            + ("" if all(s.c[j] > hi for j in ahead) else
               f" (the published round {s.pub_round} cannot leave {q} of them at {half(hi)} "
               "or less)")]


def _undetermined_says(s: State, rivals, q, hi, out_refused: bool) -> list[str]:
    """Why neither a rule nor a bound settles x: how many rivals can reach x's most."""
    can = [j for j in rivals if _hi(s, j) >= hi]
    hard = [j for j in can if s.c[j] + s.up * s.left >= hi]
    return [f"depends on pairings not yet made: {half(hi)} at most (winning every game left); "
            f"{len(can)} rivals can also reach {half(hi)}, and {len(hard)} of them would even "
            f"drawing every game left, where {f'at most {q - 1}' if q > 1 else 'none'} may: "
            "only pairings that make "
            "enough of them lose would let it happen"
            + ("; never ahead outright (rivals are already sure of as much)"
               if out_refused else "")]


def _rule_path(s: State, nm, x, rule, via: str) -> list[dict]:
    """The rule's path: the published round's games that matter, then the later rounds."""
    path = []
    if s.pub_round is not None:
        need = {x, *rule.threats, *rule.free}     # every other game: any result
        path = [{"round": s.pub_round, "white": nm[w], "black": nm[b],
                 "result": RESULT[rule.pub[k]]} for k, (w, b, res) in enumerate(s.pub)
                if res is None and (w in need or b in need)]
    if s.later:      # the rounds not yet paired: the rule, one step
        first = s.scn.n_rounds - s.later + 1
        path.append({"round": str(first) if s.later == 1 else f"{first}-{s.scn.n_rounds}",
                     "rule": True, "result": (
                         f"{nm[x]} wins every game"
                         + (f"; every other player still able to "
                            f"{'reach' if via == 'outright' else 'pass'} {half(rule.total)} "
                            f"({_names(s, rule.threats)}) draws when paired with another of "
                            "them and loses every other game" if rule.threats else "")
                         + "; any other result")})
    return path


def _alive_fields(s: State, nm, x, rivals, q, what: str, rule, via: str, out_refused: bool,
                  lo) -> dict:
    """An alive row's fields: the rule's words, the worst case, the path and the rule."""
    says = rule_words(s, rule, what, via == "outright")
    if via == "tiebreak" and not out_refused:
        says.append("(ahead on points outright depends on pairings not yet made)")
    if uncatchable(s, x, rivals, q, level=False):
        at_worst = "tiebreak"
        says.append(f"cannot be passed on points: at worst level ({half(lo)} at least), "
                    "then the tie-breaks decide")
    else:
        c = caught(s, x, rivals, q, level=False)
        at_worst = "out" if c is not None else None
        if c is None:
            says.append("whether they can still drop out depends on pairings not yet made")
    return dict(status="alive", via=via, at_worst=at_worst, says=says,
                path=_rule_path(s, nm, x, rule, via),
                rule={"wins": nm[x], "total": rule.total / 2,
                      "free": [nm[j] for j in rule.free],
                      "threats": [nm[j] for j in rule.threats],
                      "later_rounds": s.later})


def row_for(s: State, x, rivals, q, what: str) -> dict:
    nm = [p.name for p in s.scn.players]
    row = {"name": nm[x], "status": None, "via": None, "at_worst": None, "path": None,
           "says": None}
    if rivals is None:
        row["status"] = "n/a"
        return row
    if len(rivals) < q:
        row.update(status="clinched", via="outright",
                   says=[f"fewer than {q} rivals are left: {nm[x]} is in {what}"])
        return row
    hi = max(_max_x(s, x, o) for o in _own(s, x))
    lo = min(_min_x(s, x, o) for o in _own(s, x))
    if cannot(s, x, rivals, q, strict=False):
        row.update(status="eliminated", says=_eliminated_says(s, nm, rivals, q, what, hi))
        return row
    if uncatchable(s, x, rivals, q, level=True):
        can = [j for j in rivals if _hi(s, j) >= lo]
        row.update(status="clinched", via="outright", says=[
            f"has clinched {what} on points: {half(lo)} at least (losing every game left), "
            f"and only {len(can)} rival(s) can reach that" + (f" ({_names(s, can)})" if can
                                                                 else "")])
        return row
    rule = reach(s, x, rivals, q, strict=True)
    via = "outright"
    out_refused = cannot(s, x, rivals, q, strict=True)
    if rule is None:
        rule = reach(s, x, rivals, q, strict=False)
        via = "tiebreak"
    if rule is None:
        row.update(status="undetermined", says=_undetermined_says(s, rivals, q, hi,
                                                                  out_refused))
        return row
    row.update(_alive_fields(s, nm, x, rivals, q, what, rule, via, out_refused, lo))
    return row


def whocan(scn: Swiss, at, budget=None, fixed=None) -> dict:
    """Rows for targets "first" (everyone) and "qualify" (the players not already qualified,
    passing-down), in standings order by points (then pairing number)."""
    s = state(scn, at, fixed)
    n = len(scn.players)
    order = sorted(range(n), key=lambda j: (-s.c[j], j))
    everyone = {x: [j for j in range(n) if j != x] for x in range(n)}
    q = scn.qualifying_places
    targets = {"first": (1, everyone, "first place")}
    if q:
        if scn.pass_down:
            open_ = [j for j in range(n) if not scn.players[j].qualified]
            rivals = {x: (None if scn.players[x].qualified else
                          [j for j in open_ if j != x]) for x in range(n)}
        else:
            rivals = everyone
        targets["qualify"] = (q, rivals, f"the top {q}" + (" not already qualified"
                                                           if scn.pass_down else ""))
    rows = {t: [row_for(s, x, rv[x], qq, what) for x in order]
            for t, (qq, rv, what) in targets.items()}
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
            "rounds_left": s.left, "published_round": s.pub_round,
            "qualifying_places": q, "pass_down": scn.pass_down,
            "tiebreaks": tiebreak_text(scn),
            "points": {scn.players[j].name: s.c[j] / 2 for j in order},
            "budget_nodes": None, "budget_unit": "none (closed-form bounds and rules)",
            "targets": rows}
