"""Commentary for the series formats, against computations made here on another path.

- Each branch of ``needs`` replays: fixing the branch's results (every case it covers, each
  result's what-ifs mixed with their weights) and simulating with ``driver.run`` on the same
  seed gives the branch's P(1st) and P(qualify) to rounding; the branch's probability is the
  product of its results' probabilities summed over its cases.  (The round robin's branches
  are replayed by exact enumeration in ``test_needs.py``.)
- The noise flags of a group-series swing match a paired-difference standard error computed
  here from the chunk tallies of plans compiled here (``test_swing_noise.py`` does the round
  robin and the knock-out series replica by replica with the plain-Python twins).

Few simulations (8 or 16 chunks of 512), no new kernel specialisation: the series' kernels are
the ones every other series test compiles.
"""

import itertools
import math

import numpy as np

from conftest import SCENARIOS
from simcycle import driver
from simcycle.commentary.branches import needs
from simcycle.commentary.items import BUILDERS
from simcycle.formats.base import CompileOptions
from simcycle.formats.shared import swing
from simcycle.kernels.config import CHUNK
from simcycle.model import load_model
from simcycle.scenario import load_scenario

GP19 = SCENARIOS / "grand-prix-2019.toml"
GP22 = SCENARIOS / "grand-prix-2022.toml"


def _odds(fmt, scn, model, at, fixed, sims, seed, memo):
    """P(1st), P(qualify) of every player with ``fixed`` assumed: driver.run on a plan
    compiled here (not the commentary's runner)."""
    key = repr(sorted(fixed.items(), key=repr))
    if key not in memo:
        plan = fmt.compile(scn, model, CompileOptions(at=at, fixed=dict(fixed)))
        res = driver.run(plan, sims, seed, progress=False)
        memo[key] = {p["name"]: (p["p_first"], p["p_qualify"]) for p in res.players()}
    return memo[key]


def _replay(path, at, sims, seed, players=None):
    fmt, scn = load_scenario(path)
    model = load_model()
    d = needs(fmt, scn, model, at, sims=sims, seed=seed)
    assert not d.exact and d.sims == sims
    rnd = BUILDERS[fmt.name](fmt, scn, model, at, {})
    res = {it.label: {r.code: r for r in it.results} for it in rnd.items}
    memo: dict = {}
    checked = 0
    for p in d.players[:players]:
        assert abs(sum(b.p for b in p.branches) - 1) < 1e-9, p.name
        for b in p.branches:
            p_b = f = q = 0.0
            for case in b.cases:
                parts = [res[it][c] for it, c in zip(b.items, case)]
                for combo in itertools.product(*(r.mix for r in parts)):
                    fx: dict = {}
                    w = 1.0
                    for what, x in combo:
                        fx.update(what)
                        w *= x
                    w *= math.prod(r.p for r in parts)
                    pf, pq = _odds(fmt, scn, model, at, fx, sims, seed, memo)[p.name]
                    p_b, f, q = p_b + w, f + w * pf, q + w * pq
            assert abs(p_b - b.p) < 1e-12, (p.name, b.label)
            assert abs(f / p_b - b.p_first) < 1e-9, (p.name, b.label, f / p_b, b.p_first)
            assert abs(q / p_b - b.p_qualify) < 1e-9, (p.name, b.label, q / p_b, b.p_qualify)
            checked += 1
    return d, checked


def test_knockout_series_branches_replay():
    # Grand Prix 2019 after the Hamburg quarter-finals: the two semi-finals are the next
    # matches; each branch is one or both of them
    d, checked = _replay(GP19, "event3-qf", 4096, 3)
    assert checked >= 6 and any(" and " in b.label for p in d.players for b in p.branches)


def test_group_series_branches_replay():
    # Grand Prix 2022 before Berlin 2's last group round: the branches of its three leaders
    d, checked = _replay(GP22, "event3-round5", 4096, 2, players=3)
    assert checked >= 3


def test_group_series_noise_flags_match_a_paired_se_computed_here():
    fmt, scn = load_scenario(GP22)
    model = load_model()
    at, seed, sims = "event3-round5", 7, 16 * CHUNK
    rnd = BUILDERS[fmt.name](fmt, scn, model, at, {})
    item = next(it for it in rnd.items if "Hikaru Nakamura" in it.players)
    outcomes = [r.mix for r in item.results]
    run = swing.Runner(fmt, scn, model, at, offsets=False, fixed={}, sims=sims, seed=seed)
    rows = {p["name"]: p for p in run.rows(outcomes)}

    def chunks(fixed):
        plan = fmt.compile(scn, model, CompileOptions(at=at, fixed=fixed))
        t = plan.run_chunks(seed, 0, sims).out
        return plan.info.names, t.place[:, :, 0] / CHUNK, t.qualify / CHUNK

    names, base_f, base_q = chunks({})
    runs = [chunks(dict(mix[0][0])) for mix in outcomes]
    assert all(len(m) == 1 and m[0][1] == 1.0 for m in outcomes)      # a game: one what-if
    flags = 0
    for i, name in enumerate(names):
        row = rows[name]
        for what, base, k in (("first", base_f, 1), ("qualify", base_q, 2)):
            for o, r in enumerate(runs):
                diff = r[k][:, i] - base[:, i]
                d = diff.mean()
                se = diff.std(ddof=1) / math.sqrt(diff.shape[0]) if np.any(diff) else 0.0
                assert abs(row[f"d_{what}"][o] - d) < 1e-12, (name, what, o)
                assert abs(row[f"se_d_{what}"][o] - se) < 1e-12, (name, what, o)
                assert row[f"noise_d_{what}"][o] == (abs(d) <= 2 * se), (name, what, o)
                flags += row[f"noise_d_{what}"][o]
            ps = [r[k][:, i] for r in runs]
            hi = int(np.argmax([x.mean() for x in ps]))
            lo = int(np.argmin([x.mean() for x in ps]))
            sw = ps[hi].mean() - ps[lo].mean()
            se = (ps[hi] - ps[lo]).std(ddof=1) / math.sqrt(sims // CHUNK) if hi != lo else 0.0
            assert abs(row[f"swing_{what}"] - sw) < 1e-12 and \
                abs(row[f"se_swing_{what}"] - se) < 1e-12, (name, what)
            assert row[f"noise_{what}"] == (abs(sw) <= 2 * se), (name, what)
    # Nakamura's own game moves him beyond noise, and leaves some far-off player within it
    assert 0 < flags < 2 * 3 * len(names)
    naka = rows["Hikaru Nakamura"]
    assert not naka["noise_first"] or not naka["noise_qualify"]


def test_knockout_series_branches_mix_back_to_the_direct_run():
    # Grand Prix 2019 after the Hamburg quarter-finals: every player's branches, mixed back
    # with their probabilities (sum of P(branch) x P(qualify | branch)), give the direct run's
    # P(1st) and P(qualify) within three paired standard errors (batch means over the chunks
    # of replicas both runs share; a forced match draws no numbers, so the rest of a replica
    # is not the same in the two: the pairing only makes the SE honest, not small).  A branch
    # weight off by 5 points from the kernel's match outcomes would move Vachier-Lagrave's
    # mixture by 3 points (his P(1st) is 81 % or 18 % by his semi-final), about 4 SE here.
    fmt, scn = load_scenario(GP19)
    model = load_model().for_kind(scn.kind)
    at, seed, sims = "event3-qf", 3, 8 * CHUNK
    d = needs(fmt, scn, model, at, sims=sims, seed=seed)
    rnd = BUILDERS[fmt.name](fmt, scn, model, at, {})
    res = {it.label: {r.code: r for r in it.results} for it in rnd.items}
    memo: dict = {}

    def chunks(fixed):
        key = repr(sorted(fixed.items(), key=repr))
        if key not in memo:
            plan = fmt.compile(scn, model, CompileOptions(at=at, fixed=dict(fixed)))
            t = plan.run_chunks(seed, 0, sims).out
            memo[key] = (list(plan.info.names), t.place[:, :, 0] / CHUNK, t.qualify / CHUNK)
        return memo[key]

    names, base_f, base_q = chunks({})
    compared = 0
    for p in d.players:
        i = names.index(p.name)
        mix_f = np.zeros(base_f.shape[0])
        mix_q = np.zeros(base_q.shape[0])
        for b in p.branches:
            for case in b.cases:
                parts = [res[it][c] for it, c in zip(b.items, case)]
                for combo in itertools.product(*(r.mix for r in parts)):
                    fx: dict = {}
                    w = math.prod(r.p for r in parts)
                    for what, x in combo:
                        fx.update(what)
                        w *= x
                    _, f, q = chunks(fx)
                    mix_f += w * f[:, i]
                    mix_q += w * q[:, i]
        # the report's own figures are these runs' means
        assert abs(mix_q.mean() - sum(b.p * b.p_qualify for b in p.branches)) < 1e-9, p.name
        assert abs(base_q[:, i].mean() - p.p_qualify) < 1e-12, p.name
        for mix, base in ((mix_f, base_f[:, i]), (mix_q, base_q[:, i])):
            diff = mix - base
            se = float(swing.paired_se(mix, base))
            assert abs(diff.mean()) <= 3 * se + 1e-12, (p.name, diff.mean(), se)
            compared += se > 0
    assert compared >= 4


def test_cycle_branches_of_the_series_feeding_it():
    # the 2020 cycle after the Jerusalem semi-finals (its Grand Prix's last match, the final):
    # each player's branches by that match, with P(in the Candidates) and P(win it) inside
    # them; every branch replays (the mixture of its cases' runs on plans compiled here, the
    # same seed), the branches sum to 1 and mix back to the direct run within 3 paired SE
    from simcycle.commentary.branches import render
    import msgspec

    fmt, scn = load_scenario(SCENARIOS / "cycle-2020.toml")
    model = load_model(scn.model_file).for_kind(scn.kind)
    at, seed, sims = "gp-event4-sf", 1, 16 * CHUNK   # 16 chunks: a batch-means SE to trust
    d = needs(fmt, scn, model, at, sims=sims, seed=seed)
    assert len(d.items) == 1 and d.items[0].kind == "match"
    assert "Jerusalem final" in d.items[0].label and "Grand Prix 2019" in d.round
    assert d.qualifying_places == len(scn.seats) and d.final == scn.final.scn.name
    text = render(msgspec.to_builtins(d))
    assert "P(in the final)" in text and "P(wins the final)" in text
    rnd = BUILDERS[fmt.name](fmt, scn, model, at, {})
    (item,) = rnd.items
    assert abs(sum(r.p for r in item.results) - 1) < 1e-12
    assert all(k[0] == 0 for r in item.results for fx, _ in r.mix for k in fx)   # the GP
    res = {r.code: r for r in item.results}
    memo: dict = {}

    def chunks(fixed):
        key = repr(sorted(fixed.items(), key=repr))
        if key not in memo:
            plan = fmt.compile(scn, model, CompileOptions(at=at, fixed=dict(fixed)))
            t = plan.run_chunks(seed, 0, sims).out
            memo[key] = (list(plan.info.names), t.place[:, :, 0] / CHUNK, t.qualify / CHUNK)
        return memo[key]

    names, base_f, base_q = chunks({})
    moved = 0
    for p in d.players:
        i = names.index(p.name)
        assert abs(sum(b.p for b in p.branches) - 1) < 1e-12, p.name
        mix_f = np.zeros(base_f.shape[0])
        mix_q = np.zeros(base_q.shape[0])
        for b in p.branches:
            f = np.zeros(base_f.shape[0])
            q = np.zeros(base_q.shape[0])
            for case in b.cases:
                if not case:        # about no match (none moves the player): the run now
                    f, q = f + base_f[:, i], q + base_q[:, i]
                    continue
                (code,) = case
                for fx, w in res[code].mix:
                    _, cf, cq = chunks(fx)
                    f += res[code].p * w * cf[:, i]
                    q += res[code].p * w * cq[:, i]
            assert abs(f.mean() / b.p - b.p_first) < 1e-9, (p.name, b.label)
            assert abs(q.mean() / b.p - b.p_qualify) < 1e-9, (p.name, b.label)
            mix_f, mix_q = mix_f + f, mix_q + q
        assert abs(base_q[:, i].mean() - p.p_qualify) < 1e-12, p.name
        for mix, base in ((mix_f, base_f[:, i]), (mix_q, base_q[:, i])):
            se = float(swing.paired_se(mix, base))
            assert abs(mix.mean() - base.mean()) <= 3 * se + 1e-12, (p.name, se)
        moved += len(p.branches) > 1
    assert moved >= 2          # the final moves the finalists' seats at least
