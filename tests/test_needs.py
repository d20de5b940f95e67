"""``needs``: each player's branches of the next round.  Their probabilities sum to 1, mix back
to the player's odds now, and inside each branch equal an independent recomputation: the
round robin's exact enumeration of the branch's result combinations (``cases``), and for the
last match of a series the standings with that match's result (nothing is left to chance)."""

import json
import math

import numpy as np

from click.testing import CliRunner

from conftest import SCENARIOS
from simcycle.cli import main
from simcycle.commentary.branches import needs
from simcycle.commentary.items import BUILDERS
from simcycle.enums import BLACK_WINS, WHITE_WINS
from simcycle.model import load_model
from simcycle.scenario import load_scenario

CAND = SCENARIOS / "candidates-2022.toml"


def _results(fmt, scn, model, at, fixed):
    rnd = BUILDERS[fmt.name](fmt, scn, model, at, fixed)
    return {it.label: {r.code: r for r in it.results} for it in rnd.items}


def _close_race(scn):
    """What-ifs for rounds 11 and 12 of the Candidates 2022 that make the last two rounds a
    race: Nepomniachtchi loses both, the players in his pursuit win theirs."""
    idx = {n: i for i, n in enumerate(scn.names)}
    nepo = idx["Ian Nepomniachtchi"]
    fixed = {}
    for g in scn.games:
        if g.round in (11, 12):
            if nepo in (g.white, g.black):
                fixed[(g.round, g.white, g.black)] = BLACK_WINS if g.white == nepo else WHITE_WINS
            else:
                fixed[(g.round, g.white, g.black)] = 1
    return fixed


def test_round_robin_branches_are_exact_and_sum_to_one():
    fmt, scn = load_scenario(CAND)
    model = load_model()
    fixed = _close_race(scn)
    d = needs(fmt, scn, model, "round10", fixed=fixed)
    assert d.exact and d.round == "round 13"
    ex = {p["name"]: p for p in fmt.exact(scn, model, "round10", fixed=fixed)["players"]}
    res = _results(fmt, scn, model, "round10", fixed)
    split = 0
    for p in d.players:
        assert abs(sum(b.p for b in p.branches) - 1) < 1e-12, p.name
        assert abs(sum(b.p * b.p_first for b in p.branches) - ex[p.name]["p_first"]) < 1e-9
        assert abs(p.p_first - ex[p.name]["p_first"]) < 1e-12
        split += any(" and " in b.label for b in p.branches)
        for b in p.branches:
            p_b, p_f = 0.0, 0.0
            for case in b.cases:
                parts = [res[it][c] for it, c in zip(b.items, case)]
                fx = dict(fixed)
                w = 1.0
                for r in parts:
                    ((what, _),) = r.mix
                    fx.update(what)
                    w *= r.p
                p_b += w
                p_f += w * next(x["p_first"] for x in
                                fmt.exact(scn, model, "round10", fixed=fx)["players"]
                                if x["name"] == p.name)
            assert abs(p_b - b.p) < 1e-12, (p.name, b.label)
            assert abs(p_f / p_b - b.p_first) < 1e-9, (p.name, b.label)
    assert split >= 1           # some branch is split by another game


def _check_mc(d, tol_sims):
    for p in d.players:
        assert abs(sum(b.p for b in p.branches) - 1) < 1e-9, p.name
        mix = sum(b.p * b.p_first for b in p.branches)
        se = math.sqrt(max(p.p_first * (1 - p.p_first), 1 / tol_sims) / tol_sims)
        assert abs(mix - p.p_first) < 6 * se, (p.name, mix, p.p_first)


def test_group_series_branches_sum_to_one_and_mix_back():
    fmt, scn = load_scenario(SCENARIOS / "grand-prix-2022.toml")
    d = needs(fmt, scn, load_model(), "event3-round5", sims=8192, seed=2)
    assert not d.exact and d.sims == 8192
    _check_mc(d, d.sims)
    naka = next(p for p in d.players if p.name == "Hikaru Nakamura")
    assert naka.own is not None and naka.branches[0].label.startswith("wins")


def _last_match_check(fmt, scn, at, names_first):
    model = load_model()
    d = needs(fmt, scn, model, at, sims=4096, seed=1)
    res = _results(fmt, scn, model, at, {})
    for p in d.players:
        assert abs(sum(b.p for b in p.branches) - 1) < 1e-12
        for b in p.branches:
            if len(b.cases) != 1 or not b.cases[0]:
                continue            # a merged branch, or one about no match
            (case,) = b.cases
            r = res[b.items[0]][case[0]]
            want = 0.0
            for what, w in r.mix:
                want += w * (names_first(fmt, scn, at, what) == p.name)
            assert b.se_first == 0 and abs(b.p_first - want) < 1e-12, (p.name, b.label)
    return d


def _ko_leader(fmt, scn, at, fixed):
    from simcycle.formats.knockout_series import rules
    rows = rules.standings(scn, at, fixed)["players"]
    assert sum(r["rank"] == 1 for r in rows) == 1
    return rows[0]["name"]


def _gs_leader(fmt, scn, at, fixed):
    from simcycle.formats.group_series import rules
    rows = rules.standings(scn, at, fixed)["players"]
    assert sum(r["rank"] == 1 for r in rows) == 1
    return next(r["name"] for r in rows if r["rank"] == 1)


def test_knockout_series_last_match_branches_equal_the_standings():
    fmt, scn = load_scenario(SCENARIOS / "grand-prix-2019.toml")
    d = _last_match_check(fmt, scn, "event4-sf", _ko_leader)
    assert len(d.items) == 1 and d.items[0].kind == "match"


def test_group_series_last_match_branches_equal_the_standings():
    fmt, scn = load_scenario(SCENARIOS / "grand-prix-2022.toml")
    d = _last_match_check(fmt, scn, "event3-sf", _gs_leader)
    assert len(d.items) == 1


def test_needs_cli_text_json_and_refusals():
    r = CliRunner().invoke(main, ["needs", str(CAND), "--at", "round12", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["exact"] and d["players"][0]["name"] == "Ian Nepomniachtchi"
    r = CliRunner().invoke(main, ["needs", str(CAND), "--at", "round12"])
    assert "P(branch)" in r.output and "Ian Nepomniachtchi: P(1st)" in r.output
    r = CliRunner().invoke(main, ["needs", str(CAND), "--at", "round5", "--exact"])
    assert r.exit_code == 2 and "--exact" in r.output
    r = CliRunner().invoke(main, ["needs", str(SCENARIOS / "acp-tour-2004-05.toml"),
                                  "--sims", "2048"])
    assert r.exit_code == 0 and "simulated seasons filed by the event's result" in r.output
    r = CliRunner().invoke(main, ["needs", str(SCENARIOS / "acp-tour-2004-05.toml"),
                                  "--exact"])
    assert r.exit_code == 2 and "--exact" in r.output


# -- the tour: branches from conditioning on the next event's result ------------------------------
TOUR = SCENARIOS / "acp-tour-2004-05.toml"


def test_tour_places_kernel_equals_twin():
    """``needs_nb.season_places_nb``'s per-replica places = the plain-Python twin's, replica by
    replica (the same streams), and its replicas are the tour kernel's: P(1st) tallies equal."""
    from simcycle.commentary.tour import simulate
    from simcycle.reference import tour as twin

    fmt, scn = load_scenario(TOUR)
    model = load_model()
    plan, ev, lo, hi, final = simulate(scn, model, None, 512, 7)
    for r in range(0, 512, 16):                      # 32 replicas through the twin
        events = []
        order, _, _ = twin.replica(plan.args, 7, r, events=events)
        assert [(int(a), int(b)) for a, b in zip(lo[r], hi[r])] == \
            [(x[0], x[1]) for x in events[0]], r
        assert [int(m) for m in final[r].argsort()] == list(order), r
    tallies = plan.run_batch(7, 0, 512)
    assert (tallies["place"][:, 0] == (final == 0).sum(axis=0)).all()
    assert (tallies["qualify"] == (final < plan.args.n_qual).sum(axis=0)).all()


def test_tour_branches_recount_from_the_replicas():
    """Each branch's probability and odds = the share of the replicas its cases name (recounted
    here from the kernel's arrays), the branches of a player partition the replicas."""
    from simcycle.commentary.tour import SHARED, simulate

    fmt, scn = load_scenario(TOUR)
    model = load_model()
    d = needs(fmt, scn, model, None, sims=1024, seed=3)
    plan, ev, lo, hi, final = simulate(scn, model, None, 1024, 3)
    assert d.sims == 1024 and d.round == ev.name and d.method == "conditioned"
    field = [scn.players[p].name for p in ev.field]
    alone = (lo == 1) & (hi == 1)
    names = list(plan.info.names)
    code = {}
    for i, f in enumerate(field):
        code[f] = [str(a) if a == b else f"{a}-{b}" for a, b in zip(lo[:, i], hi[:, i])]
    win = [field[row.argmax()] if row.any() else SHARED for row in alone]
    in_event = 0
    for p in d.players:
        j = names.index(p.name)
        assert abs(sum(b.p for b in p.branches) - 1) < 1e-12
        assert p.p_first == (final[:, j] == 0).mean()
        seen = np.zeros(1024, bool)
        for b in p.branches:
            mine = code[p.name] if p.name in field else win
            mask = np.isin(np.array(mine), [c[0] for c in b.cases])
            assert not (mask & seen).any()
            seen |= mask
            assert b.p == mask.mean(), (p.name, b.label)
            assert abs(b.p_first - (final[mask, j] == 0).mean()) < 1e-12, (p.name, b.label)
            q = (final[mask, j] < plan.args.n_qual).mean()
            assert abs(b.p_qualify - q) < 1e-12
        assert seen.all(), p.name
        in_event += p.name in field
        if p.name in field and len(p.branches) > 1:
            assert ["1"] in p.branches[0].cases            # the best result first
    assert in_event >= 3
    assert abs(sum(d.items[0].results.values()) - 1) < 1e-12


def test_tour_winner_words_cover_the_same_outcomes():
    from simcycle.commentary.tour import SHARED, winner_label

    seen = ["A", "B", "C", "D", "E", SHARED]
    assert winner_label(["A", "B", "C", "D", SHARED], seen) == "E does not win alone"
    assert winner_label(["A", "B", "C", "D"], seen) == "a player other than E wins alone"
    assert winner_label(["A", SHARED], seen) == "A wins, or first place is shared"
    assert winner_label(["A", "B"], seen) == "A or B wins"
    assert winner_label([SHARED], seen) == "first place is shared"


def test_certain_cells_merge_after_a_mixture_rounds():
    # cells (codes, p, P(1st), P(qualify), se_first, se_qualify) as _result_cells makes them;
    # mixing two cells with P(qualify) 1.0 and weights 0.1, 0.3 gives 0.9999999999999999
    # (floating point), which must still count as certain and merge with a third 1.0 cell:
    # cycle-2022 at candidates-round12 left Ding Liren's "draws and Rapport does not win"
    # and "draws and Rapport beats Nepomniachtchi" apart, both 0 % and 100 %
    from simcycle.commentary.branches import _combine, _merge

    assert _combine((["1-0"], 0.1, 0.0, 1.0, 0.0, 0.0),
                    (["1/2-1/2"], 0.3, 0.0, 1.0, 0.0, 0.0))[3] != 1.0
    cells = [(["1-0"], 0.1, 0.0, 1.0, 0.0, 0.0), (["1/2-1/2"], 0.3, 0.0, 1.0, 0.0, 0.0),
             (["0-1"], 0.2, 0.0, 1.0, 0.0, 0.0)]
    (merged,) = _merge(cells)
    assert merged[0] == ["1-0", "1/2-1/2", "0-1"] and math.isclose(merged[1], 0.6)
    # a certain cell still never merges with an uncertain one
    assert len(_merge([(["1-0"], 0.5, 0.0, 1.0, 0.0, 0.0),
                       (["0-1"], 0.5, 0.0, 0.993, 0.0, 0.0)])) == 2


def test_own_results_merge_by_structure_not_by_the_words_of_their_labels():
    # _merge_own merges adjacent own results whose run is one branch each and whose odds are
    # equal; it used to decide "one branch" by looking for " and " in the labels, so a player
    # whose opponent's name holds " and " ("beats Smith and Jones", a team or a pair) never had
    # "beats ... or loses to ..." merged, and a split run is told by its number of cells
    from simcycle.commentary.branches import Branch, _merge_own

    def br(label, p, f):
        return Branch(label, p, f, 1.0, 0.0, 0.0, ["m"], [[label]])

    one = [("A", [br("beats Smith and Jones", 0.6, 0.40)]),
           ("B", [br("loses to Smith and Jones", 0.4, 0.40)])]
    (merged,) = _merge_own(one)
    assert merged.label == "beats Smith and Jones or loses to Smith and Jones"
    assert math.isclose(merged.p, 1.0) and merged.cases == [["beats Smith and Jones"],
                                                            ["loses to Smith and Jones"]]
    # the cells of a run split by the other item never merge with a neighbouring run, even
    # with equal odds and labels without " and "
    split = [("A", [br("x", 0.3, 0.40), br("y", 0.3, 0.20)]), ("B", [br("z", 0.4, 0.20)])]
    assert [b.label for b in _merge_own(split)] == ["x", "y", "z"]
    # unequal odds never merge
    far = [("A", [br("wins", 0.5, 0.9)]), ("B", [br("loses", 0.5, 0.1)])]
    assert len(_merge_own(far)) == 2
