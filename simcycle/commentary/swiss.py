"""``needs`` and ``scores`` for a Swiss event (the Grand Swiss): replicas filed by what happened
in them.

A Swiss pairs each round from the results before it, so a round not yet published has no
games to force; and forcing a published board on a 116-player field costs a whole run per
result.  Both commands therefore condition instead: one run of ``sims`` replicas of the rest
of the event (``swiss_nb.replicas_nb``: the Swiss kernel's own stage, replica r the same as
``simcycle simulate``'s replica r at the same seed) records for every replica each player's
result in the next round, their final points, who is first, who qualifies (passing-down
counted), and how first place and each qualifying place were decided.

``needs``: a player's branches are their own next-round result -- on the published board
("wins", "draws", "loses"), or whoever the pairing gives them when the round is not yet
published ("wins its round-9 game") -- split, where the round is published, by the other board
of the round that moves them most (the largest change of P(1st) or P(qualify) between that
board's results, at least ``SPLIT_MIN`` and ``SPLIT_Z`` standard errors: ``_split_swing``).
A branch's probability is the share of replicas in it; the player's odds inside it the share
of those replicas in which they finish first / qualify, with the binomial standard error; the branch
shares sum to 1 and, mixed with them, the odds give the run's P(1st) / P(qualify) exactly.
Adjacent results merge where they leave the odds equal (``tour._close``: within 1 point at
50 %, less towards 0 or 100 %, or within noise, a small branch's noise floored).

``scores``: every replica filed by each player's final points; first place and each qualifying
place split into outright (more points than the player just behind: the runner-up, or the best
eligible player outside the places), by the tie-break criterion that separated them (the
event's list, in order), or by lots.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import ScenarioError
from ..kernels.config import CHUNK
from .branches import SPLIT_MIN, Branch, ItemOdds, NeedsReport, PlayerNeeds
from .tour import _close, _combine, _merge

DEFAULT_SIMS = 16_384      # needs and scores on a Swiss: ~0.7 ms a replica (docs/commentary.md)
NEXT_WORDS = {2: "wins", 1: "draws", 0: "loses", 3: "has no game"}   # swiss_nb.NEXT_*
NEXT_CODES = {2: "win", 1: "draw", 0: "loss", 3: "no game"}
GAME_CODES = {2: "1-0", 1: "1/2-1/2", 0: "0-1"}     # a board's result by White's half points


class Run:
    """One conditioning run: the plan, its names and criteria, and the replicas' arrays."""

    def __init__(self, scn, model, at, fixed, *, sims: int, seed: int):
        from ..formats.base import CompileOptions
        from ..formats.swiss.plan import SwissPlan
        from ..kernels.criteria_nb import BY_CODE
        from .swiss_nb import replicas_nb

        self.plan = SwissPlan(scn, model, CompileOptions(at=at, fixed=dict(fixed or {})))
        a = self.plan.args
        if a.start >= scn.n_rounds:
            raise ScenarioError("nothing left to play at this checkpoint", file=scn.file,
                                key="--at", value=at or "latest")
        self.start = int(a.start)
        self.criteria = [BY_CODE[int(c)].name for c in a.criteria]
        n = len(scn.players)
        self.n = -(-sims // CHUNK) * CHUNK
        self.nxt = np.zeros((self.n, n), np.int8)
        self.pts = np.zeros((self.n, n), np.int16)
        self.winner = np.zeros(self.n, np.int64)
        self.how_first = np.zeros(self.n, np.int8)
        self.how_qual = np.zeros((self.n, n), np.int8)
        replicas_nb(np.uint64(seed), np.int64(0), np.int64(self.n), a, self.nxt, self.pts,
                    self.winner, self.how_first, self.how_qual)
        self.first = self.winner[:, None] == np.arange(n)[None, :]
        self.qual = self.how_qual >= 0


def _se(p: float, c: int) -> float:
    return math.sqrt(p * (1 - p) / c) if c else 0.0


def _odds(mask, first, qual):
    c = int(mask.sum())
    return [float(first[mask].mean()) if c else 0.0, float(qual[mask].mean()) if c else 0.0, c]


def needs(fmt, scn, model, at, *, fixed=None, sims: int = DEFAULT_SIMS,
          seed: int = 1) -> NeedsReport:
    """The branches of the next round for every player with a chance of first or of a
    qualifying place (module doc)."""
    run = Run(scn, model, at, fixed, sims=sims, seed=seed)
    rn = run.start + 1
    names = scn.names
    boards = [g for g in scn.games if g.round == rn and not g.forfeit]
    published = bool(boards) or any(b.round == rn for b in scn.byes)
    board_res = {}     # label -> int8 [N]: White's half points in the replica
    items = []
    for g in boards:
        label = f"{names[g.white]} - {names[g.black]}"
        res = run.nxt[:, g.white]
        board_res[label] = (g, res)
        items.append(ItemOdds(label, "game", [names[g.white], names[g.black]],
                              {GAME_CODES[k]: float((res == k).mean()) for k in (2, 1, 0)}))
    now_f = run.first.mean(axis=0)
    now_q = run.qual.mean(axis=0)
    players = []
    for i in sorted(range(len(names)), key=lambda i: (-now_f[i], -now_q[i])):
        if now_f[i] <= 0 and now_q[i] <= 0:
            continue
        if published:
            players.append(_published(run, i, names, boards, board_res, now_f, now_q))
        else:
            own = f"{names[i]}: round {rn}"
            res = run.nxt[:, i]
            items.append(ItemOdds(own, "own", [names[i]],
                                  {NEXT_CODES[k]: float((res == k).mean()) for k in (2, 1, 0, 3)}))
            players.append(_unpublished(run, i, names, own, rn, now_f, now_q))
    used = {lab for p in players for b in p.branches for lab in b.items}
    items = [it for it in items if it.label in used]     # the boards some branch is about
    title = f"round {rn}" + ("" if published else " (not paired yet)")
    return NeedsReport(
        scenario=scn.name, file=scn.file, at=at or "latest", round=title, exact=False,
        sims=run.n, seed=seed, qualifying_places=scn.qualifying_places, items=items,
        players=players, method="conditioned-swiss")


def _run_cells(keys, res, first, qual, n):
    """[(codes, share, f, q, count)] for each result key of ``res`` in ``keys``."""
    return [[[k], c / n, f, q, c] for k in keys for f, q, c in [_odds(res == k, first, qual)]]


SPLIT_Z = 4.0    # a board splits a player's branches only this many SEs clear of noise


def _split_swing(cells) -> float:
    """How much a board moves a player, from its results' cells (P(1st), P(qualify), count):
    the largest difference between two results, counted only where it is at least
    ``SPLIT_MIN`` and ``SPLIT_Z`` standard errors (each share's SE floored as in
    ``tour._close``: 0 of 5 replicas is no certainty).  Four, not two: the largest of some
    fifty boards' differences is examined, and two SEs would split on noise (Bonferroni over
    2 x 58 boards at 5 % two-sided asks 3.9)."""
    best = 0.0
    for a in range(len(cells)):
        for b in range(a + 1, len(cells)):
            for k in (0, 1):
                x, y = cells[a], cells[b]
                d = abs(x[k] - y[k])
                se = math.hypot(*(math.sqrt((z[k] * (1 - z[k]) + 1 / z[2]) / z[2])
                                  for z in (x, y)))
                if d >= SPLIT_MIN and d > SPLIT_Z * se:
                    best = max(best, d)
    return best


def _unpublished(run, i, names, own, rn, now_f, now_q) -> PlayerNeeds:
    """Branches by the player's own next-round result, whoever the opponent is."""
    res = run.nxt[:, i]
    first, qual = run.first[:, i], run.qual[:, i]
    keys = [k for k in (2, 1, 0, 3) if (res == k).any()]
    merged = _merge(_run_cells(keys, res, first, qual, run.n))
    branches = []
    for codes, p, f, q, c in merged:
        words = [NEXT_WORDS[k] for k in codes]
        label = (" or ".join(words) + (f" its round-{rn} game" if codes != [3] else
                                       f" in round {rn} (a bye)"))
        if len(merged) == 1:
            label = "any result"
        branches.append(Branch(label, p, f, q, _se(f, c), _se(q, c), [own],
                               [[NEXT_CODES[k]] for k in codes]))
    return PlayerNeeds(names[i], float(now_f[i]), float(now_q[i]), own, None, branches)


def _best_other(run, i, board_res, own_label) -> str | None:
    """The other board of the round that moves player ``i`` most (``_split_swing``), or None."""
    first, qual = run.first[:, i], run.qual[:, i]
    best, best_swing = None, 0.0
    for lab, (_, res) in board_res.items():
        if lab == own_label:
            continue
        cells = [x for x in (_odds(res == k, first, qual) for k in (2, 1, 0)) if x[2]]
        sw = _split_swing(cells)
        if sw > best_swing:
            best, best_swing = lab, sw
    return best


def _split_cells(run, i, mine, ores) -> list:
    """The cells [codes, share, P(1st), P(qualify), count] of one own result (replicas
    ``mine``), split by the other board's results ``ores`` (None: not split), the player's
    best first, adjacent equal odds merged."""
    first, qual = run.first[:, i], run.qual[:, i]
    if ores is None:
        f, q, c = _odds(mine, first, qual)
        return [[[], c / run.n, f, q, c]]
    cells = [[[GAME_CODES[k]], c / run.n, f, q, c] for k in (2, 1, 0)
             for f, q, c in [_odds(mine & (ores == k), first, qual)] if c]
    return _merge(sorted(cells, key=lambda x: (-x[2], -x[3])))


def _cases(oks, codes, split: bool, other) -> list[list[str]]:
    """The result combinations a branch covers: own result (none: not playing) and, where
    there is another board, its results in the branch (all three when not split)."""
    cases = []
    for x in oks:
        own_c = [] if x is None else [GAME_CODES[x]]
        if other is None:
            cases.append(own_c)
        else:
            cases += [own_c + [cc] for cc in (codes if split else GAME_CODES.values())]
    return cases


def _published(run, i, names, boards, board_res, now_f, now_q) -> PlayerNeeds:
    """Branches by the player's own board, split by the other board that moves them most."""
    from .branches import merge_runs, other_words, own_words, short_names
    from .items import Item

    short = short_names(list(names))
    own = next((lab for lab, (g, _) in board_res.items() if i in (g.white, g.black)), None)
    best = _best_other(run, i, board_res, own)
    item = {lab: Item(lab, "game", (names[g.white], names[g.black]), ())
            for lab, (g, _) in board_res.items() if lab in (own, best)}
    other = item.get(best)
    ores = None if other is None else board_res[best][1]
    own_keys = [None]
    if own is not None:     # the player's best result first
        own_keys = [2, 1, 0] if board_res[own][0].white == i else [0, 1, 2]
    runs = []
    for ok in own_keys:
        mine = np.ones(run.n, bool) if ok is None else board_res[own][1] == ok
        if mine.any():
            runs.append((ok, _split_cells(run, i, mine, ores)))
    labels = [lab for lab in (own, best) if lab is not None]

    def words(oks, codes, split):
        mine = [] if own is None else [" or ".join(
            own_words(item[own], names[i], GAME_CODES[x], short) for x in oks)]
        theirs = [other_words(other, codes, short)] if split else []
        return " and ".join(mine + theirs) or "whatever happens"
    branches = [Branch(words(oks, codes, k > 1), p, f, q, _se(f, c), _se(q, c), list(labels),
                       _cases(oks, codes, k > 1, other))
                for oks, (codes, p, f, q, c), k in merge_runs(runs, _close, _combine)]
    if own is not None and len(branches) == 1 and other is None:
        branches[0].label = "any result"
    return PlayerNeeds(names[i], float(now_f[i]), float(now_q[i]), own, best, branches)


def scores(fmt, scn, model, at, fixed=None, *, sims: int = DEFAULT_SIMS, seed: int = 1):
    """The score table of a Swiss (module doc): per player and final score, P(score),
    P(1st and score) and P(qualify and score), each split by how it was decided."""
    from .scores import ScoreReport, PlayerScores, ScoreRow

    run = Run(scn, model, at, fixed, sims=sims, seed=seed)
    crit = run.criteria
    lots = 1 + len(crit)
    n = run.n
    players = []
    for i, name in enumerate(scn.names):
        first, qual = run.first[:, i], run.qual[:, i]
        hq = run.how_qual[:, i]
        rows = []
        for v in np.unique(run.pts[:, i]):
            at_v = run.pts[:, i] == v
            c = int(at_v.sum())
            fv = first & at_v
            qv = qual & at_v
            by_f = {name_: int((fv & (run.how_first == 1 + j)).sum()) / n
                    for j, name_ in enumerate(crit)}
            by_q = {name_: int((qv & (hq == 1 + j)).sum()) / n for j, name_ in enumerate(crit)}
            split_f = {"outright": int((fv & (run.how_first == 0)).sum()) / n,
                       "tiebreak": sum(by_f.values()), "playoff": 0.0,
                       "lots": int((fv & (run.how_first == lots)).sum()) / n}
            split_q = {"outright": int((qv & (hq == 0)).sum()) / n,
                       "tiebreak": sum(by_q.values()),
                       "lots": int((qv & (hq == lots)).sum()) / n}
            nf = int(fv.sum())
            rows.append(ScoreRow(points=int(v) / 2, p=c / n, p_first=nf / n, first=split_f,
                                 p_qualify=int(qv.sum()) / n, first_given=nf / c,
                                 first_by_criterion=by_f, qualify=split_q,
                                 qualify_by_criterion=by_q))
        enough = next((r.points for r in rows if r.first_given > 0.5), None)
        players.append(PlayerScores(name, float(first.mean()), float(qual.mean()), enough,
                                    rows))
    players.sort(key=lambda x: (-x.p_qualify, -x.p_first))
    return ScoreReport(scenario=scn.name, file=scn.file, at=at or "latest",
                       games_left=_games_left(scn, run.start),
                       qualifying_places=scn.qualifying_places, players=players, exact=False,
                       sims=n, seed=seed, criteria=crit, format="swiss")


def _games_left(scn, start: int) -> int:
    """Games still to play: every round from ``start`` on, half the field a round."""
    return (scn.n_rounds - start) * (len(scn.players) // 2)


LEGEND = ("P(branch): the share of simulated events with the branch's results (a round not "
          "paired yet: the player's own result, whoever the pairing gives them); {fl}, {ql}: "
          "the player's chance inside the branch, in %, ± its standard error; the other board "
          "named is the one of the round that moves the player most, its results merged where "
          "they leave the odds within 1 point at 50 % (less towards 0 or 100 %) or within "
          "noise; 100 % and 0 % mean never seen otherwise in the simulations.")
