"""Commentary for the Swiss (``commentary/swiss.py``): ``needs`` and ``scores`` on the Grand
Swiss 2025, against computations made here on another path.

- The conditioning run is the Swiss kernel's own stage: every player's P(1st) and P(qualify)
  from it equal ``driver.run`` on the format's plan at the same seed and number of simulations
  (the same replicas), to rounding.
- ``needs``: per player the branch probabilities sum to 1 and the branches' odds, mixed with
  them, give the player's odds; each branch's probability is the share of its cases (board
  results as the published board's shares, or the player's own result); the published board's
  shares agree with the outcome model's probabilities within four standard errors; the next
  round's results are a consistent round (as many wins as losses, points in range).
- ``scores``: every row's splits add up to its P(1st and score) and P(qualify and score), the
  rows to the player's P(1st) and P(qualify), the players' to 1 and to the qualifying places.
- How a tie was decided (``swiss_nb.decided_nb``) equals the first criterion on which the
  standings' own values (``rules.ranked``) differ, for every pair level on points after round 8.
- The sentences quoted in ``docs/commentary.md`` are the output's.

Few simulations (4 chunks of 512 replicas).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from simcycle import driver
from simcycle.commentary import scores as scores_mod
from simcycle.commentary.branches import needs, render
from simcycle.commentary.swiss import Run
from simcycle.errors import ScenarioError
from simcycle.formats.base import CompileOptions
from simcycle.model import load_model
from simcycle.scenario import load_scenario

SIMS, SEED = 2048, 1


@pytest.fixture(scope="module")
def gs():
    fmt, scn = load_scenario("grand-swiss-2025")
    return fmt, scn, load_model(scn.model_file).for_kind(scn.kind)


@pytest.fixture(scope="module")
def direct(gs):
    """driver.run's P(1st), P(qualify) at round7 and round8 (the format's own plan)."""
    fmt, scn, model = gs
    out = {}
    for at in ("round7", "round8"):
        plan = fmt.compile(scn, model, CompileOptions(at=at))
        res = driver.run(plan, SIMS, SEED, progress=False)
        out[at] = {p["name"]: (p["p_first"], p["p_qualify"]) for p in res.players()}
    return out


def _check_players(d, direct_at):
    assert d.players, "somebody can still qualify"
    for p in d.players:
        assert abs(sum(b.p for b in p.branches) - 1) < 1e-9, p.name
        f = sum(b.p * b.p_first for b in p.branches)
        q = sum(b.p * b.p_qualify for b in p.branches)
        assert abs(f - p.p_first) < 1e-9 and abs(q - p.p_qualify) < 1e-9, p.name
        # the same replicas as simulate: the same odds
        df, dq = direct_at[p.name]
        assert abs(p.p_first - df) < 1e-9 and abs(p.p_qualify - dq) < 1e-9, p.name
        for b in p.branches:     # binomial SEs of the shares inside the branch
            c = round(b.p * d.sims)
            assert b.se_first == pytest.approx(math.sqrt(b.p_first * (1 - b.p_first) / c))


def test_needs_round_not_paired_yet(gs, direct):
    fmt, scn, model = gs
    d = needs(fmt, scn, model, "round8", sims=SIMS, seed=SEED)
    assert d.round == "round 9 (not paired yet)" and d.sims == SIMS and not d.exact
    _check_players(d, direct["round8"])
    items = {it.label: it for it in d.items}
    for p in d.players:
        it = items[p.own]
        assert it.kind == "own" and it.players == [p.name]
        assert abs(sum(it.results.values()) - 1) < 1e-9
        for b in p.branches:     # a branch's probability: its own results' shares
            assert b.items == [p.own]
            assert b.p == pytest.approx(sum(it.results[c] for (c,) in b.cases))
            if b.label != "any result":
                assert "round-9 game" in b.label or "bye" in b.label
    top = d.players[0]
    assert [b.label for b in top.branches][0] == "wins its round-9 game"
    assert top.branches[0].p_qualify > top.p_qualify > top.branches[-1].p_qualify
    assert "wins its round-9 game" in render(__import__("msgspec").to_builtins(d))


def test_next_round_is_a_consistent_round(gs):
    """The kernel's record of round 9: one loser per winner, each player on one board (or a
    bye), and final points within what rounds 9-11 can add."""
    fmt, scn, model = gs
    run = Run(scn, model, "round8", {}, sims=512, seed=SEED)
    from simcycle.formats.swiss import rules
    before = rules.crosstable(scn, 8).pts
    wins = (run.nxt == 2).sum(axis=1)
    assert (wins == (run.nxt == 0).sum(axis=1)).all()
    assert ((run.nxt == 1).sum(axis=1) % 2 == 0).all()
    assert ((run.nxt == 3).sum(axis=1) <= 1).all()          # 116 players: no bye expected
    gained = run.pts - before[None, :]
    assert (gained >= 0).all() and (gained <= 6).all()
    own = np.where(run.nxt == 3, 0, run.nxt)                  # round 9's half points
    assert (gained >= own).all() and (gained - own <= 4).all()
    assert (run.qual.sum(axis=1) == scn.qualifying_places).all()


def test_needs_published_round(gs, direct):
    fmt, scn, model = gs
    d = needs(fmt, scn, model, "round7", sims=SIMS, seed=SEED)
    assert d.round == "round 8"
    _check_players(d, direct["round7"])
    items = {it.label: it for it in d.items}
    boards = {f"{scn.names[g.white]} - {scn.names[g.black]}": g
              for g in scn.games if g.round == 8}
    for label, it in items.items():         # the board's shares and the model's odds
        g = boards[label]
        pw, pd, pb = model.wdl(scn.control, scn.players[g.white].rating,
                               scn.players[g.black].rating)
        for code, p in (("1-0", pw), ("1/2-1/2", pd), ("0-1", pb)):
            assert abs(it.results[code] - p) < 4 * math.sqrt(p * (1 - p) / SIMS) + 1e-9
    split = 0
    for p in d.players:
        assert p.own in items and p.name in items[p.own].players
        assert p.branches[0].label.startswith("wins") or p.branches[0].label == "any result"
        if p.other is not None:
            split += 1
            assert all(b.items == [p.own, p.other] for b in p.branches)
        for b in p.branches:     # each case once per own result; the branch's share covers it
            assert len(b.cases) == len({tuple(c) for c in b.cases})
        cases = [tuple(c) for b in p.branches for c in b.cases]
        assert len(cases) == len(set(cases))
        assert len(cases) == (9 if p.other is not None else 3)
    assert split >= 1


def test_scores_rows_add_up(gs, direct):
    fmt, scn, model = gs
    d = scores_mod.scores(fmt, scn, model, "round8", sims=SIMS, seed=SEED)
    assert d.format == "swiss" and d.criteria == ["aro-cut1", "buchholz-cut1", "buchholz",
                                                  "direct-encounter"]
    assert sum(p.p_first for p in d.players) == pytest.approx(1)
    assert sum(p.p_qualify for p in d.players) == pytest.approx(scn.qualifying_places)
    decided_by = dict.fromkeys(d.criteria, 0.0)
    for p in d.players:
        df, dq = direct["round8"][p.name]
        assert abs(p.p_first - df) < 1e-9 and abs(p.p_qualify - dq) < 1e-9
        assert sum(r.p for r in p.rows) == pytest.approx(1)
        assert sum(r.p_first for r in p.rows) == pytest.approx(p.p_first, abs=1e-12)
        assert sum(r.p_qualify for r in p.rows) == pytest.approx(p.p_qualify, abs=1e-12)
        for r in p.rows:
            assert sum(r.first.values()) == pytest.approx(r.p_first, abs=1e-12)
            assert sum(r.qualify.values()) == pytest.approx(r.p_qualify, abs=1e-12)
            assert sum(r.first_by_criterion.values()) == pytest.approx(r.first["tiebreak"],
                                                                       abs=1e-12)
            assert sum(r.qualify_by_criterion.values()) == pytest.approx(
                r.qualify["tiebreak"], abs=1e-12)
            assert r.p_first <= r.p + 1e-12 and r.p_qualify <= r.p + 1e-12
            for c, v in r.qualify_by_criterion.items():
                decided_by[c] += v
    # ARO-C1, the first criterion, decides nearly every tie on the last qualifying place
    assert decided_by["aro-cut1"] > 0.9 * sum(decided_by.values()) > 0
    text = scores_mod.render(__import__("msgspec").to_builtins(d))
    assert "P(qualify and score)" in text and "aro-cut1" in text
    with pytest.raises(ScenarioError, match="exact for round robins only"):
        scores_mod.scores(fmt, scn, model, "round8", exact=True)
    with pytest.raises(ScenarioError, match="exact branches"):
        needs(fmt, scn, model, "round8", exact=True)


def test_decided_is_the_first_criterion_that_differs(gs):
    from simcycle.commentary.swiss_nb import decided_nb
    from simcycle.formats.swiss import rules
    from simcycle.formats.swiss.plan import SwissPlan
    fmt, scn, model = gs
    crit = SwissPlan(scn, model, CompileOptions(at="round8")).args.criteria
    t = rules.crosstable(scn, 8)
    _, _, vals = rules.ranked(scn, t, 8)
    n = len(scn.players)
    ws = [np.zeros(n, np.int64) for _ in range(4)]
    seen = set()
    for x in range(n):
        for y in range(n):
            if x == y or t.pts[x] != t.pts[y]:
                continue
            diff = [c for c in range(len(crit)) if vals[x, c] != vals[y, c]]
            want = 1 + (diff[0] if diff else len(crit))
            assert decided_nb(t, 8, crit, x, y, *ws) == want, (x, y)
            seen.add(want)
        y = next(i for i in range(n) if t.pts[i] != t.pts[x])
        assert decided_nb(t, 8, crit, x, y, *ws) == 0
    assert 1 in seen and len(seen) >= 2      # ARO-C1 and a later criterion both decide some


def test_docs_quote_the_output(gs):
    """docs/commentary.md's Grand Swiss sentences ("> " lines) are lines of the output."""
    import msgspec
    fmt, scn, model = gs
    text = Path(__file__).parents[1].joinpath("docs", "commentary.md").read_text()
    part = text.split("## Grand Swiss 2025")[1].split("\n## ")[0]
    blocks = part.split("```")[1::2]
    outs = [render(msgspec.to_builtins(needs(fmt, scn, model, "round8", sims=16_384, seed=1))),
            scores_mod.render(msgspec.to_builtins(scores_mod.scores(fmt, scn, model, "round8",
                                                                    seed=1)))]
    assert len(blocks) == 2
    for block, out in zip(blocks, outs):
        quoted = [ln for ln in block.splitlines() if ln.strip() and ln.strip() != "..."
                  and not ln.startswith("$ ")]
        assert len(quoted) >= 5
        lines = out.splitlines()
        for ln in quoted:
            assert ln in lines, ln
    # the hand check: Bluebaum's branches mixed back ("0.064·61.8 + ... = 21.6 %")
    assert "= 21.1 % P(1st)" in part and "= 39.5 % P(qualify)" in part
    assert "Bluebaum, Matthias: P(1st) 21.1 %, P(qualify) 39.5 %" in outs[0]


def test_report_sections(gs):
    """The HTML report's two sections on a Swiss (``report.html.commentary``): the branches
    without a games table when the round is not paired, the score table by final points with
    P(qualify | final), each number the commentary's."""
    from simcycle.report import html
    fmt, scn, model = gs
    nd, sc = html.commentary(fmt, scn, model, "round8", {}, sims=SIMS, seed=SEED)
    assert nd["method"] == "conditioned-swiss" and sc["format"] == "swiss"
    assert sc["sims"] == html.SERIES_SCORE_SIMS
    page = html._needs({"needs": nd})
    assert "<th class=l>game or match</th>" not in page and "simulated events filed" in page
    top = nd["players"][0]
    assert html.e(top["branches"][0]["label"]) in page
    page = html._scores({"scores": sc})
    p = max(sc["players"], key=lambda x: x["p_qualify"])
    assert f"P(qualify) {html.pct(p['p_qualify'])} %" in page and "rest of the event" in page
    assert "<svg" in page
