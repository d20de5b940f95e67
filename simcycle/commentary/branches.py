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


def needs(fmt, scn, model, at, *, fixed=None, sims: int = DEFAULT_SIMS, seed: int = 1,
          exact: bool | None = None) -> NeedsReport:
    """The branches of the next round for every player with a chance of first or of a
    qualifying place.  ``exact``: None = exact where the remainder is small."""
    from ..errors import ScenarioError

    fixed = dict(fixed or {})
    if fmt.name in CONDITIONED:      # branches filed by each replica's own result
        if exact:
            raise ScenarioError("exact branches need a round robin with at most "
                                f"{EXACT_GAMES} games left", file=scn.file, key="--exact",
                                value=fmt.name)
        from importlib import import_module
        own = import_module(f".{CONDITIONED[fmt.name]}", __package__).needs
        return own(fmt, scn, model, at, fixed=fixed, sims=sims, seed=seed)
    build = BUILDERS.get(fmt.name)
    if build is None:
        raise ScenarioError(f"needs is not offered for the {fmt.name} format yet",
                            file=scn.file, key="format", value=fmt.name)
    rnd: Round = build(fmt, scn, model, at, fixed)
    small = rnd.exact_ok and _games_left(scn, at, fixed) <= EXACT_GAMES
    if exact and not small:
        raise ScenarioError(f"exact branches need a round robin with at most {EXACT_GAMES} "
                            "games left", file=scn.file, key="--exact", value=at or "latest")
    use_exact = small if exact is None else exact
    ev = _Evaluator(fmt, scn, model, at, fixed, exact=use_exact, sims=sims, seed=seed)
    now_f, now_q, _, _ = ev([({}, 1.0)])
    short = short_names(list(dict.fromkeys(
        [*scn.names, *(x for it in rnd.items for x in it.players)])))
    single = {(it.label, r.code): ev(r.mix) for it in rnd.items for r in it.results}
    players = []
    for name in sorted(now_f, key=lambda n: (-now_f[n], -now_q[n])):
        if now_f[name] <= 0 and now_q[name] <= 0:
            continue
        players.append(_player(name, rnd, ev, single, now_f, now_q, short))
    labels = {}
    if fmt.name == "cycle":     # first = wins the final, qualify = takes a seat in it
        labels = {"first_label": "P(wins the final)", "qualify_label": "P(in the final)",
                  "final": scn.final.scn.name}
    return NeedsReport(
        scenario=scn.name, file=scn.file, at=at or "latest", round=rnd.title,
        exact=use_exact, sims=ev.sims, seed=seed,
        qualifying_places=len(scn.seats) if fmt.name == "cycle" else scn.qualifying_places,
        items=[ItemOdds(it.label, it.kind, list(it.players),
                        {r.code: r.p for r in it.results}) for it in rnd.items],
        players=players, **labels)


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
    branches = []
    for r in own_results:
        cells = _result_cells(name, own, other, r, ev, single)
        branches += [_branch(name, own, other, r, c, len(cells), short) for c in cells]
    merged = _merge_own(branches)
    if own is not None and len(merged) == 1 and other is None:
        merged[0].label = "any result"
    return PlayerNeeds(name, now_f[name], now_q[name], own.label if own else None,
                       other.label if other is not None else None, merged)


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
    return p <= 1e-12 or p >= 1.0 - 1e-12


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


def _merge_own(branches: list[Branch]) -> list[Branch]:
    """Adjacent own results with one branch each and equal odds ("wins or draws")."""
    out: list[Branch] = []
    for b in branches:
        prev = out[-1] if out else None
        if (prev is not None and " and " not in prev.label and " and " not in b.label
                and prev.label != "whatever happens"
                and _close(("", prev.p, prev.p_first, prev.p_qualify, prev.se_first,
                            prev.se_qualify),
                           ("", b.p, b.p_first, b.p_qualify, b.se_first, b.se_qualify))):
            p = prev.p + b.p
            w1, w2 = (prev.p / p, b.p / p) if p > 0 else (1.0, 0.0)
            out[-1] = Branch(f"{prev.label} or {b.label}", p,
                             w1 * prev.p_first + w2 * b.p_first,
                             w1 * prev.p_qualify + w2 * b.p_qualify,
                             math.hypot(w1 * prev.se_first, w2 * b.se_first),
                             math.hypot(w1 * prev.se_qualify, w2 * b.se_qualify),
                             prev.items, prev.cases + b.cases)
        else:
            out.append(b)
    return out


__all__ = ["GAME_CODES", "Branch", "NeedsReport", "PlayerNeeds", "needs"]


def render(d: dict) -> str:
    """Text of ``needs``: per player, each branch with its probability and the player's
    P(1st) and P(qualify) inside it."""
    how = ("exact: every outcome of the rest enumerated" if d["exact"] else
           f"{d['sims']:,} simulations per branch, common random numbers, ± standard error")
    if d.get("method") == "conditioned":
        how = (f"{d['sims']:,} simulated seasons filed by the event's result, "
               "± standard error")
    if d.get("method") == "conditioned-swiss":
        how = (f"{d['sims']:,} simulated events filed by the round's results, "
               "± standard error")
    fl, ql = d.get("first_label", "P(1st)"), d.get("qualify_label", "P(qualify)")
    final = f"; the final: {d['final']}" if d.get("final") else ""
    lines = [f"{d['scenario']}  at {d['at']}: what each player needs from {d['round']} ({how}"
             f"{final})", ""]
    width = max((len(it["label"]) for it in d["items"]), default=0) + 2
    for it in d["items"]:
        if it["kind"] == "own":       # a Swiss round not paired yet: in the branches
            continue
        if it["kind"] == "game":
            r = it["results"]
            lines.append(f"  {it['label']:<{width}}1-0 {100 * r['1-0']:4.1f} %  draw "
                         f"{100 * r['1/2-1/2']:4.1f} %  0-1 {100 * r['0-1']:4.1f} %")
        elif it["kind"] == "event":
            r = it["results"]
            top = sorted((n for n in it["players"] if r[n] >= 0.0005), key=lambda n: -r[n])
            lines.append(f"  {it['label']}: wins " + ", ".join(
                f"{n} {_pct(r[n])}" for n in top) + f"; first place shared {_pct(r['shared'])}")
        else:
            a, b = it["players"]
            lines.append(f"  {it['label']:<{width}}{a} wins {100 * it['results']['A']:4.1f} %"
                         f"  {b} wins {100 * it['results']['B']:4.1f} %")
    qual = d["qualifying_places"] > 1
    for p in d["players"]:
        lines += ["", f"{p['name']}: {fl} {_pct(p['p_first'])}"
                  + (f", {ql} {_pct(p['p_qualify'])}" if qual else "")]
        bw = max([len(b["label"]) for b in p["branches"]] + [40]) + 2
        cw = max(14, len(fl) + 2, len(ql) + 2)
        head = f"    {'branch':<{bw}}{'P(branch)':>10}{fl:>{cw}}"
        if qual:
            head += f"{ql:>{cw}}"
        lines.append(head)
        for b in p["branches"]:
            se_f = "" if d["exact"] or b["se_first"] == 0 else f"±{100 * b['se_first']:.1f}"
            row = f"    {b['label']:<{bw}}{_pct(b['p']):>10}{_pct(b['p_first']) + se_f:>{cw}}"
            if qual:
                se_q = ("" if d["exact"] or b["se_qualify"] == 0
                        else f"±{100 * b['se_qualify']:.1f}")
                row += f"{_pct(b['p_qualify']) + se_q:>{cw}}"
            lines.append(row)
    if d.get("method") == "conditioned-swiss":
        from .swiss import LEGEND
        lines += ["", LEGEND.format(fl=fl, ql=ql)]
        return "\n".join(lines)
    if d.get("method") == "conditioned":
        lines += ["", "P(branch): the share of simulated seasons with the branch's result in "
                  "the event; P(1st), P(qualify): the player's chance in the season (first; the "
                  "qualifying places) inside it, in %.  A player in the event: by their own "
                  "result, best first (a place, else the ACP points a run of places earns, "
                  "shared places counted at their split points); a player not in it: by who "
                  "wins it.  Runs merged where they leave the odds within 1 point at 50 % "
                  "(less towards 0 or 100 %) or within noise; 100 % and 0 % mean never seen "
                  "otherwise in the simulations."]
        return "\n".join(lines)
    lines += ["", f"P(branch): the probability of the branch's results; {fl}"
              + (f", {ql}" if qual else "") + ": the player's chance inside the branch, "
              "in %; the other game named is the one of the round that moves the player most, "
              "its results merged where they leave the odds within 1 point at 50 % (less "
              "towards 0 or 100 %) or within noise; 100 % and 0 % are certain (exact) or "
              "never seen (simulated)."]
    return "\n".join(lines)


def _pct(p: float) -> str:
    if p <= 1e-12:
        return "0 %"
    if p >= 1 - 1e-12:       # a sum of branch probabilities
        return "100 %"
    x = 100 * p
    return f"{x:.1f} %" if 0.05 <= x <= 99.95 else ("<0.1 %" if x < 0.05 else ">99.9 %")
