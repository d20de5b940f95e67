"""Knock-out matches as data: steps (classical games, then tiebreak steps, each played only
while the match is level), replaying known games, and the exact probability of a match.
Plain Python; the kernel version is ``kernels.game_nb.match_nb``."""

from __future__ import annotations

from dataclasses import dataclass

from ...enums import STEP_ARMAGEDDON, STEP_GAMES, STEP_LOTS, STEP_SUDDEN_DEATH


@dataclass(frozen=True)
class Step:
    kind: int
    control: str
    games: int
    name: str


def step_boundaries(steps) -> list[int]:
    """Number of games played when each step ends."""
    out, g = [], 0
    for s in steps:
        g += s.games if s.kind == STEP_GAMES else (1 if s.kind == STEP_ARMAGEDDON else 0)
        out.append(g)
    return out


def replay(steps, codes):
    """Play known games (first player's side) through the steps; returns (winner 0/1 or None,
    deciding step, games used).  Armageddon entries are the first player's match result."""
    g = 0
    diff = 0
    for s, st in enumerate(steps):
        if s > 0 and diff != 0:
            return (0 if diff > 0 else 1), s - 1, g
        n = st.games if st.kind == STEP_GAMES else 1
        if st.kind == STEP_LOTS:
            return None, s, g
        for _ in range(n):
            if g >= len(codes):
                return None, s, g
            c = codes[g]
            g += 1
            if st.kind == STEP_GAMES:
                diff += {0: 2, 1: 0, 2: -2}[c]
            else:  # armageddon / sudden death: the entry is the match result
                if c == 1:
                    return None, s, g
                diff = 1 if c == 0 else -1
                break
    if diff != 0:
        return (0 if diff > 0 else 1), len(steps) - 1, g
    return None, len(steps), g


# a game's result code from the first player's side (0 win, 1 draw, 2 loss) -> his score
# difference
_DIFF = {0: 1, 1: 0, 2: -1}


def _game_probs(st, model, ra: dict, rb: dict, a_white: bool) -> dict:
    """{result code from the first player's side: probability} of one game of step ``st``."""
    if a_white:
        pw, pd, pb = model.wdl(st.control, model.rating(ra, st.control),
                               model.rating(rb, st.control))
        return {0: pw, 1: pd, 2: pb}
    pw, pd, pb = model.wdl(st.control, model.rating(rb, st.control),
                           model.rating(ra, st.control))
    return {0: pb, 1: pd, 2: pw}


def _games_dist(st, model, ra: dict, rb: dict, white: int, known) -> dict:
    """{first player's score difference: probability} after the games of step ``st`` (colours
    alternating from ``white``), its first games' result codes ``known``."""
    dist = {0: 1.0}
    for j in range(st.games):
        if j < len(known):
            probs = {c: 1.0 if known[j] == c else 0.0 for c in (0, 1, 2)}
        else:
            probs = _game_probs(st, model, ra, rb, (j % 2 == 0) == (white == 0))
        nd: dict = {}
        for d0, q in dist.items():
            for c, pc in probs.items():
                d1 = d0 + _DIFF[c]
                nd[d1] = nd.get(d1, 0.0) + q * pc
        dist = nd
    return dist


# A decisive tiebreak step: P(first player wins it) with him White + with him Black.
def _armageddon(st, model, ra: dict, rb: dict) -> float:
    """One game; a draw goes to Black when the control says so (``armageddon``), else counts
    half."""
    ctl = model.control(st.control)
    rA, rB = model.rating(ra, st.control), model.rating(rb, st.control)
    pw1, pd1, _ = model.wdl(st.control, rA, rB)        # a White
    pw2, pd2, _ = model.wdl(st.control, rB, rA)        # b White
    a_as_w = pw1 if ctl.armageddon else pw1 + pd1 / 2
    a_as_b = (1 - pw2) if ctl.armageddon else (1 - pw2 - pd2 / 2)
    return a_as_w + a_as_b


def _sudden_death(st, model, ra: dict, rb: dict) -> float:
    """Games with alternating colours until one is won."""
    rA, rB = model.rating(ra, st.control), model.rating(rb, st.control)
    pw1, pd1, pb1 = model.wdl(st.control, rA, rB)
    pw2, pd2, pb2 = model.wdl(st.control, rB, rA)
    # x: a wins starting with a White; y: starting with b White
    x = (pw1 + pd1 * pb2) / (1 - pd1 * pd2)
    y = (pb2 + pd2 * pw1) / (1 - pd1 * pd2)
    return x + y


def _lots(st, model, ra: dict, rb: dict) -> float:
    return 1.0


_DECISIVE = {STEP_ARMAGEDDON: _armageddon, STEP_SUDDEN_DEATH: _sudden_death}


def match_probability(steps, model, ra: dict, rb: dict, white: int | None = None, known=()) -> dict:
    """Exact P(first player wins the match) and P(tiebreaks needed) under the model.

    ``ra``/``rb`` rating dicts; ``white`` 0 if the first player has White in game 1, 1 if the
    second, None for the lot (average of both); ``known`` classical games from the first
    player's side.  Colours alternate in each games step, the step's first game going to the
    player who had White in classical game 1 (Reading "tiebreak-colours"); Armageddon colours by
    lot.
    """
    if white is None:
        p0 = match_probability(steps, model, ra, rb, 0, known)
        p1 = match_probability(steps, model, ra, rb, 1, known)
        return {k: 0.5 * (p0[k] + p1[k]) for k in p0}
    tie = 1.0         # probability the match is still level before the step
    win = 0.0
    p_tb = None
    for s, st in enumerate(steps):
        if st.kind == STEP_GAMES:
            dist = _games_dist(st, model, ra, rb, white, known if s == 0 else ())
            pos = sum(q for d0, q in dist.items() if d0 > 0)
            lev = dist.get(0, 0.0)
            win += tie * pos
            tie *= lev
        else:   # a decisive step: the sum of P(first player wins) over the two colours
            win += tie * 0.5 * _DECISIVE.get(st.kind, _lots)(st, model, ra, rb)
            tie = 0.0
        if s == 0:
            p_tb = tie
            p_cls = win
            cls_dist = (dist.get(2, 0.0), dist.get(1, 0.0), dist.get(-1, 0.0), dist.get(-2, 0.0))
    win += tie * 0.5   # cascade without a decisive last step: lots
    return {"p_first": win, "p_tiebreak": p_tb, "p_classical": p_cls,
            "p_2_0": cls_dist[0], "p_15_05": cls_dist[1], "p_05_15": cls_dist[2],
            "p_0_2": cls_dist[3]}
