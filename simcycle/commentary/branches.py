"""What each player needs from the next round, as branches with their odds.

For every player still in the race, the round's outcomes that matter to them are grouped into
readable branches: their own game or match ("wins", "draws", "loses"), split further by the one
other game or match of the round that moves them most ("draws and Fabiano Caruana does not
win"), the results of that other game merged where they leave the player's odds equal (within 1
percentage point at 50 %, less towards 0 or 100 %, or within noise; a certain 0 or 100 %
merges only with another).  Each
branch carries its probability (the product of the model's result probabilities: games of a
round are independent without rating offsets) and the player's P(1st) and P(qualify) inside
it.

Inside a branch the odds are exact for round robins with at most ``EXACT_GAMES`` games left
(every outcome of the rest enumerated, ``formats/roundrobin/exact.py``) and otherwise from
simulations on common random numbers (``formats/shared/swing.Runner``: the same replicas in
every branch, a round robin's games forced while their numbers are still drawn), with
standard errors.
"""

from __future__ import annotations

import itertools
import math

import msgspec

from .items import GAME_CODES, BUILDERS, Item, Result, Round

EXACT_GAMES = 8          # round robins: enumerate every outcome when this few games are left
MERGE = 0.01             # results of the other game merge when the odds move less than this
                         # at 50 % (less near 0 or 100 %; neither certain alone)
SPLIT_MIN = 0.005        # an other game moving a player less than this splits nothing
DEFAULT_SIMS = 16_384
CONDITIONED = {"tour": "tour", "swiss": "swiss"}   # format -> its module here: needs by
                                                  # conditioning one run, not by forcing


class Branch(msgspec.Struct):
    """One branch of a player's next round.

    label      in words ("wins", "draws and Caruana does not win")
    p          its probability
    p_first, p_qualify        the player's probabilities inside it
    se_first, se_qualify      their standard errors (0 when exact)
    items      the games or matches it is about (labels of ``NeedsReport.items``)
    cases      the result combinations it covers, one code per item ("1-0", "1/2-1/2", "0-1"
               for a game, White first; "A" / "B" for a match: its first / second player wins)
    """

    label: str
    p: float
    p_first: float
    p_qualify: float
    se_first: float
    se_qualify: float
    items: list[str]
    cases: list[list[str]]


class PlayerNeeds(msgspec.Struct):
    """A player's branches; ``own`` the game or match they play (None: none this round),
    ``other`` the other one that splits their branches (None: none moves them)."""

    name: str
    p_first: float
    p_qualify: float
    own: str | None
    other: str | None
    branches: list[Branch]


class ItemOdds(msgspec.Struct):
    label: str
    kind: str
    players: list[str]
    results: dict[str, float]


class NeedsReport(msgspec.Struct):
    """``simcycle needs --json``."""

    scenario: str
    file: str
    at: str
    round: str
    exact: bool
    sims: int
    seed: int
    qualifying_places: int
    items: list[ItemOdds]
    players: list[PlayerNeeds]
    assumed: list[str] = []
    method: str = "forced"    # "forced": what-ifs on common random numbers (or exact);
                              # "conditioned": replicas filed by the result (the tour)
    first_label: str = "P(1st)"          # what p_first is (a cycle: winning its final)
    qualify_label: str = "P(qualify)"    # what p_qualify is (a cycle: a seat in its final)
    final: str = ""                      # a cycle: its final's name


def short_names(names: list[str]) -> dict[str, str]:
    """The names the branches use: in full (a last word is not a surname everywhere: Ding
    Liren's is Ding)."""
    return {n: n for n in names}


def own_words(item: Item, who: str, code: str, short: dict) -> str:
    if item.kind == "match":
        other = item.players[1] if item.players[0] == who else item.players[0]
        wins = (code == "A") == (item.players[0] == who)
        return f"beats {short[other]}" if wins else f"loses to {short[other]}"
    if code == "1/2-1/2":
        return "draws"
    return "wins" if (code == "1-0") == (item.players[0] == who) else "loses"


def other_words(item: Item, codes: list[str], short: dict) -> str:
    a, b = (short[x] for x in item.players)
    if item.kind == "match":
        (c,) = codes
        return f"{a} beats {b}" if c == "A" else f"{b} beats {a}"
    s = set(codes)
    if s == {"1-0"}:
        return f"{a} beats {b}"
    if s == {"0-1"}:
        return f"{b} beats {a}"
    if s == {"1/2-1/2"}:
        return f"{a} and {b} draw"
    if s == {"1-0", "1/2-1/2"}:
        return f"{b} does not win"
    if s == {"0-1", "1/2-1/2"}:
        return f"{a} does not win"
    return f"{a} - {b} is decisive"


class _Evaluator:
    """P(1st), P(qualify) of every player (and their SEs) under a mixture of what-ifs."""

    def __init__(self, fmt, scn, model, at, fixed, *, exact: bool, sims: int, seed: int):
        self.exact = exact
        self.fmt, self.scn, self.model, self.at, self.fixed = fmt, scn, model, at, dict(fixed)
        self._memo: dict[str, tuple] = {}
        if not exact:
            from ..formats.shared import swing

            compile_ = None
            if fmt.name == "round-robin":
                from ..formats.roundrobin import aligned_compile
                compile_ = aligned_compile(fmt, scn, model, at, False, fixed)
            self.runner = swing.Runner(fmt, scn, model, at, offsets=False, fixed=fixed,
                                       sims=sims, seed=seed, compile_=compile_)

    @property
    def sims(self) -> int:
        return 0 if self.exact else self.runner.sims

    def names(self) -> list[str]:
        return list(self.scn.names) if self.exact else self.runner.names

    def __call__(self, mix) -> tuple[dict, dict, dict, dict]:
        if self.exact:
            pf: dict = {}
            pq: dict = {}
            for fx, w in mix:
                key = repr(sorted(fx.items(), key=repr))
                if key not in self._memo:
                    self._memo[key] = self.fmt.exact(self.scn, self.model, self.at,
                                                     fixed={**self.fixed, **fx})["players"]
                for p in self._memo[key]:
                    pf[p["name"]] = pf.get(p["name"], 0.0) + w * p["p_first"]
                    pq[p["name"]] = pq.get(p["name"], 0.0) + w * p["p_qualify"]
            zero = {n: 0.0 for n in pf}
            return pf, pq, zero, dict(zero)
        bf, bq = self.runner._mix(mix, self.runner.cap)
        rt = math.sqrt(bf.shape[0])
        names = self.runner.names
        return ({n: float(bf[:, i].mean()) for i, n in enumerate(names)},
                {n: float(bq[:, i].mean()) for i, n in enumerate(names)},
                {n: float(bf[:, i].std(ddof=1) / rt) for i, n in enumerate(names)},
                {n: float(bq[:, i].std(ddof=1) / rt) for i, n in enumerate(names)})


def _joint(*results: Result):
    """The mixture of what-ifs assuming every one of ``results`` (their mixtures crossed)."""
    out = []
    for parts in itertools.product(*(r.mix for r in results)):
        fx: dict = {}
        w = 1.0
        for f, x in parts:
            fx.update(f)
            w *= x
        out.append((fx, w))
    return out


def _conditioned(fmt, scn, model, at, fixed, *, sims, seed, exact):
    """A tour's or a Swiss's branches: filed by each replica's own result (never exact)."""
    from importlib import import_module

    from ..errors import ScenarioError

    if exact:
        raise ScenarioError(f"exact branches need a round robin with at most {EXACT_GAMES} "
                            "games left", file=scn.file, key="--exact", value=fmt.name)
    own = import_module(f".{CONDITIONED[fmt.name]}", __package__).needs
    return own(fmt, scn, model, at, fixed=fixed, sims=sims, seed=seed)


def _next_round(fmt, scn, model, at, fixed, exact: bool | None) -> tuple[Round, bool]:
    """The round's items, and whether the odds inside the branches are exact."""
    from ..errors import ScenarioError

    build = BUILDERS.get(fmt.name)
    if build is None:
        raise ScenarioError(f"needs is not offered for the {fmt.name} format yet",
                            file=scn.file, key="format", value=fmt.name)
    rnd: Round = build(fmt, scn, model, at, fixed)
    small = rnd.exact_ok and _games_left(scn, at, fixed) <= EXACT_GAMES
    if exact and not small:
        raise ScenarioError(f"exact branches need a round robin with at most {EXACT_GAMES} "
                            "games left", file=scn.file, key="--exact", value=at or "latest")
    return rnd, small if exact is None else exact


def _labels(fmt, scn) -> dict:
    """What p_first / p_qualify are, and how many places qualify (a cycle: winning its final /
    a seat in it)."""
    if fmt.name != "cycle":
        return {"qualifying_places": scn.qualifying_places}
    return {"first_label": "P(wins the final)", "qualify_label": "P(in the final)",
            "final": scn.final.scn.name, "qualifying_places": len(scn.seats)}


def needs(fmt, scn, model, at, *, fixed=None, sims: int = DEFAULT_SIMS, seed: int = 1,
          exact: bool | None = None) -> NeedsReport:
    """The branches of the next round for every player with a chance of first or of a
    qualifying place.  ``exact``: None = exact where the remainder is small."""
    fixed = dict(fixed or {})
    if fmt.name in CONDITIONED:
        return _conditioned(fmt, scn, model, at, fixed, sims=sims, seed=seed, exact=exact)
    rnd, use_exact = _next_round(fmt, scn, model, at, fixed, exact)
    ev = _Evaluator(fmt, scn, model, at, fixed, exact=use_exact, sims=sims, seed=seed)
    now_f, now_q, _, _ = ev([({}, 1.0)])
    short = short_names(list(dict.fromkeys(
        [*scn.names, *(x for it in rnd.items for x in it.players)])))
    single = {(it.label, r.code): ev(r.mix) for it in rnd.items for r in it.results}
    players = [_player(name, rnd, ev, single, now_f, now_q, short)
               for name in sorted(now_f, key=lambda n: (-now_f[n], -now_q[n]))
               if now_f[name] > 0 or now_q[name] > 0]
    return NeedsReport(
        scenario=scn.name, file=scn.file, at=at or "latest", round=rnd.title,
        exact=use_exact, sims=ev.sims, seed=seed,
        items=[ItemOdds(it.label, it.kind, list(it.players),
                        {r.code: r.p for r in it.results}) for it in rnd.items],
        players=players, **_labels(fmt, scn))


def _games_left(scn, at, fixed) -> int:
    from ..formats.roundrobin import rules
    return len(rules.split_games(scn, at, fixed)[1])


def _swing_on(name, item: Item, single) -> float:
    fs = [single[(item.label, r.code)][0][name] for r in item.results]
    qs = [single[(item.label, r.code)][1][name] for r in item.results]
    return max(max(fs) - min(fs), max(qs) - min(qs))


def _items_of(name, rnd: Round, single):
    """The player's own item of the round (None: he does not play) and the other item that
    moves his odds most (None: none moves them by SPLIT_MIN)."""
    own = next((it for it in rnd.items if name in it.players), None)
    others = [it for it in rnd.items if it is not own]
    other = max(others, key=lambda it: _swing_on(name, it, single), default=None)
    if other is not None and _swing_on(name, other, single) < SPLIT_MIN:
        other = None
    return own, other


def _result_cells(name, own, other, r, ev, single) -> list:
    """One own result's cells [(codes of the other item, p, pf, pq, sf, sq)], merged."""
    if other is None:
        f, q, sf, sq = single[(own.label, r.code)] if r else ev([({}, 1.0)])
        return [([], r.p if r else 1.0, f[name], q[name], sf[name], sq[name])]
    cells = []
    for s in other.results:
        f, q, sf, sq = ev(_joint(*([r] if r else []), s))
        cells.append(([s.code], (r.p if r else 1.0) * s.p, f[name], q[name], sf[name],
                      sq[name]))
    return _merge(cells)


def _branch(name, own, other, r, cell, n_cells, short) -> Branch:
    """The branch of one cell of one own result: its words, odds and cases."""
    codes, p, f, q, sf, sq = cell
    words = [own_words(own, name, r.code, short)] if r else []
    if other is not None and n_cells > 1:
        words.append(other_words(other, codes, short))
    items = ([own.label] if own else []) + ([other.label] if other is not None else [])
    cases = [([r.code] if r else []) + ([c] if other is not None else [])
             for c in (codes or [None])]
    if other is not None and n_cells == 1:
        cases = [([r.code] if r else []) + [s.code] for s in other.results]
    return Branch(" and ".join(words) or "whatever happens", p, f, q, sf, sq,
                  items, [list(c) for c in cases])


def _player(name, rnd: Round, ev, single, now_f, now_q, short) -> PlayerNeeds:
    own, other = _items_of(name, rnd, single)
    own_results: list[Result | None] = [None]
    if own is not None:     # the player's best result first
        own_results = list(own.results if own.players[0] == name else own.results[::-1])
    runs = []               # per own result: its branches (one per cell of the other item)
    for r in own_results:
        cells = _result_cells(name, own, other, r, ev, single)
        runs.append((r, [_branch(name, own, other, r, c, len(cells), short) for c in cells]))
    merged = _merge_own(runs)
    if own is not None and len(merged) == 1 and other is None:
        merged[0].label = "any result"
    return PlayerNeeds(name, now_f[name], now_q[name], own.label if own else None,
                       other.label if other is not None else None, merged)


def merge_runs(runs, close, combine) -> list[tuple[list, object, int]]:
    """Adjacent own results whose run is one cell each and whose odds are equal merge ("wins
    or draws"); a run split by the other item stays as it is.  ``runs``: [(own result, its
    cells)]; ``close(a, b)``, ``combine(a, b)``: the cells' rule.  Returns [(own results, cell,
    number of cells of its run)].  Shared by the forced branches here and the Swiss's."""
    out: list = []
    for key, cells in runs:
        for cell in cells:
            if out and len(cells) == 1 and out[-1][2] == 1 and close(out[-1][1], cell):
                keys, prev, _ = out[-1]
                out[-1] = (keys + [key], combine(prev, cell), 1)
            else:
                out.append(([key], cell, len(cells)))
    return out


def _close(a, b) -> bool:
    """Two cells' odds equal for commentary: within MERGE at 50 % (less towards 0 or 100 %:
    4 MERGE p (1 - p)), or within two SE of each other, and certain (0 or 1) in both or in
    neither: "clinched" never merges with "99.3 %"."""
    for k, se in ((2, 4), (3, 5)):
        m = (a[k] + b[k]) / 2       # near 0 or 1 a smaller move matters: 1 point at 50 %
        tol = max(MERGE * 4 * m * (1 - m), 2 * math.hypot(a[se], b[se]))
        if _certain(a[k]) or _certain(b[k]):
            if not (_certain(a[k]) and _certain(b[k]) and round(a[k]) == round(b[k])):
                return False
        elif abs(a[k] - b[k]) > tol:
            return False
    return True


def _certain(p: float) -> bool:
    """0 or 1 as the text shows them ("0 %", "100 %"): a mixture of certain cells is 1 only up
    to rounding (0.1 x 1.0 + 0.3 x 1.0 over 0.4 is 0.9999999999999999), so a merged cell must
    still merge with a third certain one (Ding Liren's two "draws and ..." cells of cycle-2022
    at candidates-round12, both 0 % and 100 %, were left apart)."""
    from ..report import CERTAIN

    return p <= CERTAIN or p >= 1.0 - CERTAIN


def _merge(cells):
    """Cells (codes, p, pf, pq, se_f, se_q) of one own result: results of the other item in
    the order the player prefers them, adjacent ones with equal odds merged."""
    cells = sorted(cells, key=lambda c: (-c[2], -c[3]))
    out = [cells[0]]
    for c in cells[1:]:
        if _close(out[-1], c):
            out[-1] = _combine(out[-1], c)
        else:
            out.append(c)
    return out


def _combine(a, b):
    p = a[1] + b[1]
    if p <= 0:
        return (a[0] + b[0], 0.0, a[2], a[3], a[4], a[5])
    wa, wb = a[1] / p, b[1] / p
    return (a[0] + b[0], p, wa * a[2] + wb * b[2], wa * a[3] + wb * b[3],
            math.hypot(wa * a[4], wb * b[4]), math.hypot(wa * a[5], wb * b[5]))


def _odds_cell(b: Branch):
    return ("", b.p, b.p_first, b.p_qualify, b.se_first, b.se_qualify)


def _merge_two(a: Branch, b: Branch) -> Branch:
    """Two own results' branches as one ("wins or draws"), their odds mixed by probability."""
    p = a.p + b.p
    w1, w2 = (a.p / p, b.p / p) if p > 0 else (1.0, 0.0)
    return Branch(f"{a.label} or {b.label}", p, w1 * a.p_first + w2 * b.p_first,
                  w1 * a.p_qualify + w2 * b.p_qualify,
                  math.hypot(w1 * a.se_first, w2 * b.se_first),
                  math.hypot(w1 * a.se_qualify, w2 * b.se_qualify), a.items, a.cases + b.cases)


def _merge_own(runs: list[tuple[object, list[Branch]]]) -> list[Branch]:
    """Adjacent own results with one branch each and equal odds ("wins or draws"); which
    results are split by the other item is read from the runs, not from the labels' words (a
    name may hold " and ")."""
    return [b for _, b, _ in merge_runs(
        runs, lambda a, b: _close(_odds_cell(a), _odds_cell(b)), _merge_two)]


__all__ = ["GAME_CODES", "Branch", "NeedsReport", "PlayerNeeds", "needs"]


HOW = {     # method -> how the odds inside a branch were found (``render``'s first line)
    "conditioned": "{sims:,} simulated seasons filed by the event's result, ± standard error",
    "conditioned-swiss": "{sims:,} simulated events filed by the round's results, "
                         "± standard error"}
TOUR_LEGEND = (
    "P(branch): the share of simulated seasons with the branch's result in "
    "the event; P(1st), P(qualify): the player's chance in the season (first; the "
    "qualifying places) inside it, in %.  A player in the event: by their own "
    "result, best first (a place, else the ACP points a run of places earns, "
    "shared places counted at their split points); a player not in it: by who "
    "wins it.  Runs merged where they leave the odds within 1 point at 50 % "
    "(less towards 0 or 100 %) or within noise; 100 % and 0 % mean never seen "
    "otherwise in the simulations.")


def _how(d: dict) -> str:
    if d.get("method") in HOW:
        return HOW[d["method"]].format(sims=d["sims"])
    return ("exact: every outcome of the rest enumerated" if d["exact"] else
            f"{d['sims']:,} simulations per branch, common random numbers, ± standard error")


def _item_line(it: dict, width: int) -> str | None:
    """The odds of one game, match or event of the round (None: a Swiss player's own round
    not paired yet, said in their branches)."""
    r = it["results"]
    if it["kind"] == "own":
        return None
    if it["kind"] == "game":
        return (f"  {it['label']:<{width}}1-0 {100 * r['1-0']:4.1f} %  draw "
                f"{100 * r['1/2-1/2']:4.1f} %  0-1 {100 * r['0-1']:4.1f} %")
    if it["kind"] == "event":
        top = sorted((n for n in it["players"] if r[n] >= 0.0005), key=lambda n: -r[n])
        return (f"  {it['label']}: wins " + ", ".join(f"{n} {_pct(r[n])}" for n in top)
                + f"; first place shared {_pct(r['shared'])}")
    a, b = it["players"]
    return f"  {it['label']:<{width}}{a} wins {100 * r['A']:4.1f} %  {b} wins {100 * r['B']:4.1f} %"


def _odds_text(p: float, se: float, exact: bool) -> str:
    return _pct(p) + ("" if exact or se == 0 else f"±{100 * se:.1f}")


def _player_lines(d: dict, p: dict, fl: str, ql: str, qual: bool) -> list[str]:
    """A player's heading and table of branches."""
    lines = ["", f"{p['name']}: {fl} {_pct(p['p_first'])}"
             + (f", {ql} {_pct(p['p_qualify'])}" if qual else "")]
    bw = max([len(b["label"]) for b in p["branches"]] + [40]) + 2
    cw = max(14, len(fl) + 2, len(ql) + 2)
    lines.append(f"    {'branch':<{bw}}{'P(branch)':>10}{fl:>{cw}}"
                 + (f"{ql:>{cw}}" if qual else ""))
    for b in p["branches"]:
        row = (f"    {b['label']:<{bw}}{_pct(b['p']):>10}"
               f"{_odds_text(b['p_first'], b['se_first'], d['exact']):>{cw}}")
        if qual:
            row += f"{_odds_text(b['p_qualify'], b['se_qualify'], d['exact']):>{cw}}"
        lines.append(row)
    return lines


def _legend(d: dict, fl: str, ql: str, qual: bool) -> str:
    if d.get("method") == "conditioned-swiss":
        from .swiss import LEGEND
        return LEGEND.format(fl=fl, ql=ql)
    if d.get("method") == "conditioned":
        return TOUR_LEGEND
    return (f"P(branch): the probability of the branch's results; {fl}"
            + (f", {ql}" if qual else "") + ": the player's chance inside the branch, "
            "in %; the other game named is the one of the round that moves the player most, "
            "its results merged where they leave the odds within 1 point at 50 % (less "
            "towards 0 or 100 %) or within noise; 100 % and 0 % are certain (exact) or "
            "never seen (simulated).")


def render(d: dict) -> str:
    """Text of ``needs``: per player, each branch with its probability and the player's
    P(1st) and P(qualify) inside it."""
    fl, ql = d.get("first_label", "P(1st)"), d.get("qualify_label", "P(qualify)")
    final = f"; the final: {d['final']}" if d.get("final") else ""
    lines = [f"{d['scenario']}  at {d['at']}: what each player needs from {d['round']} "
             f"({_how(d)}{final})", ""]
    width = max((len(it["label"]) for it in d["items"]), default=0) + 2
    lines += [x for x in (_item_line(it, width) for it in d["items"]) if x is not None]
    qual = d["qualifying_places"] > 1
    for p in d["players"]:
        lines += _player_lines(d, p, fl, ql, qual)
    return "\n".join(lines + ["", _legend(d, fl, ql, qual)])


def _pct(p: float) -> str:
    """A probability as the tables and the page write it (``report.percent``), with " %"."""
    from ..report import percent

    return f"{percent(p)} %"
