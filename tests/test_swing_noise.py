"""swing's standard errors and "within noise" flags against a paired-difference SE computed
here, replica by replica, with the plain-Python twins (``simcycle/reference/``).

The swing estimates each SE from batch means over the kernel's chunks (512 replicas each); the
test recomputes every difference from the individual replicas of the same random streams (so
the differences must agree to rounding) and the SE of each as sd(per-replica difference) /
sqrt(n).  A batch-means SE from k = 16 chunks is within a factor [0.45, 1.8] of the true one
with probability above 0.998 (sqrt of chi-square(15)/15 quantiles); a flag is compared where
both SEs put the difference on the same side of two SEs (otherwise the flag is a coin toss
of the SE estimate, not a property of the code)."""

import math

import numpy as np
import pytest

from conftest import SCENARIOS
from simcycle.enums import BLACK_WINS, DRAW, WHITE_WINS
from simcycle.formats.base import CompileOptions
from simcycle.formats.roundrobin import FORMAT as RR
from simcycle.formats.shared.swing import NOISE_SE
from simcycle.model import load_model
from simcycle.reference import knockout as ko_twin
from simcycle.reference import roundrobin as rr_twin
from simcycle.scenario import load_scenario

SIMS = 8192          # 16 chunks
FORCE = {WHITE_WINS: (2.0, 2.0), DRAW: (-1.0, 2.0), BLACK_WINS: (-1.0, -1.0)}


def _independent(xs_a: np.ndarray, xs_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Difference of means and its paired SE from per-replica indicators [replicas, players]."""
    d = xs_a - xs_b
    return d.mean(0), d.std(0, ddof=1) / math.sqrt(d.shape[0])


def _check(d_swing, se_swing, flag_swing, d_ind, se_ind, what):
    assert abs(d_swing - d_ind) < 1e-9, what
    if se_ind == 0:
        assert se_swing == 0 and flag_swing == (d_ind == 0), what
        return
    assert 0.45 < se_swing / se_ind < 1.8, (what, se_swing, se_ind)
    lo, hi = sorted((se_swing, se_ind))
    if abs(d_ind) <= NOISE_SE * lo or abs(d_ind) > NOISE_SE * hi:
        assert flag_swing == (abs(d_ind) <= NOISE_SE * se_ind), what


def _rr_first(args, seed, n, k):
    out = np.zeros((n, k))
    for r in range(n):
        out[r, rr_twin.one_replica(args, seed, r)[0][0]] = 1.0
    return out


def test_round_robin_noise_flags_match_a_paired_se_computed_replica_by_replica():
    cand = load_scenario(SCENARIOS / "candidates-2022.toml")[1]
    model = load_model()
    d = RR.swing(cand, model, "round12", sims=SIMS, seed=11)
    assert d["sims"] == SIMS
    base = RR.compile(cand, model, CompileOptions(at="round12"))
    a, names = base.args, list(base.info.names)
    k = len(names)
    x0 = _rr_first(a, 11, SIMS, k)
    flags = 0
    for g in d["games"][:2]:      # the two games that swing most
        w, b = names.index(g["white"]), names.index(g["black"])
        seg = int(a.gseg[next(q for q in range(len(a.gw)) if a.gw[q] == w and a.gb[q] == b)])
        xs = []
        for res in (WHITE_WINS, DRAW, BLACK_WINS):
            thr = a.thr.copy()          # the twin reads the table: force the pair's entry
            thr[seg, a.game_ci, w, b] = FORCE[res]
            xs.append(_rr_first(a._replace(thr=thr), 11, SIMS, k))
        for p in g["players"]:
            i = names.index(p["name"])
            for j in range(3):
                dd, se = _independent(xs[j][:, i:i + 1], x0[:, i:i + 1])
                _check(p["d_first"][j], p["se_d_first"][j], p["noise_d_first"][j], dd[0], se[0],
                       (g["white"], p["name"], j))
            pf = [float(x[:, i].mean()) for x in xs]
            hi, lo = int(np.argmax(pf)), int(np.argmin(pf))
            dd, se = _independent(xs[hi][:, i:i + 1], xs[lo][:, i:i + 1])
            _check(p["swing_first"], p["se_swing_first"], p["noise_first"], dd[0], se[0],
                   (g["white"], p["name"], "swing"))
            flags += p["noise_first"]
    assert 0 < flags      # some swings are within noise, so both branches of the flag ran


def test_knockout_series_noise_flags_match_a_paired_se_computed_replica_by_replica():
    fmt, scn = load_scenario(SCENARIOS / "grand-prix-2019.toml")
    model = load_model()
    d = fmt.swing(scn, model, "event4-sf", sims=SIMS, seed=5)
    (m,) = d["matches"]                                  # the last final
    base = fmt.compile(scn, model, CompileOptions(at="event4-sf"))
    names = list(base.info.names)

    def indicators(plan):
        out = np.zeros((SIMS, 2, len(names)))
        for r in range(SIMS):
            rep = ko_twin.simulate_replica(plan.args, 5, r)
            out[r, 0, rep["order"][0]] = 1.0
            out[r, 1] = rep["qualify"]
        return out

    x0 = indicators(base)
    from simcycle.formats.knockout_series import _six_results
    from simcycle.formats.knockout_series.rules import open_matches
    (e, r, j, up, lo), = open_matches(scn, "event4-sf", {})
    xs = [indicators(fmt.compile(scn, model, CompileOptions(at="event4-sf",
                                                             fixed={(e, r, j): o[2]})))
          for o in _six_results(scn, model, e, r, j, up, lo)]
    for p in m["swing"]:
        i = names.index(p["name"])
        for t, what in enumerate(("first", "qualify")):
            for q in range(6):
                dd, se = _independent(xs[q][:, t, i:i + 1], x0[:, t, i:i + 1])
                _check(p[f"d_{what}"][q], p[f"se_d_{what}"][q], p[f"noise_d_{what}"][q],
                       dd[0], se[0], (p["name"], what, q))


def test_target_se_stops_early_and_is_a_function_of_the_input():
    cand = load_scenario(SCENARIOS / "candidates-2022.toml")[1]
    model = load_model()
    d = RR.swing(cand, model, "round9", sims=200_000, seed=3, target_se=0.004)
    assert d["sims"] < 200_000
    for g in d["games"]:
        for p in g["players"]:
            assert max(p["se_swing_first"], p["se_swing_qualify"]) < 0.004
    again = RR.swing(cand, model, "round9", sims=200_000, seed=3, target_se=0.004)
    assert again == d


@pytest.mark.parametrize("res", [WHITE_WINS, DRAW, BLACK_WINS])
def test_a_forced_game_gives_the_odds_of_the_fixed_game(res):
    """The round robin's common random numbers force a game's result while still drawing its
    number; that must simulate the same event as the what-if (independent streams, 5 SE)."""
    cand = load_scenario(SCENARIOS / "candidates-2022.toml")[1]
    model = load_model()
    base = RR.compile(cand, model, CompileOptions(at="round9"))
    g = base.remaining[0]
    key = (g.round, g.white, g.black)
    n = 40960
    forced = base.forcing(key, res).run_batch(2, 0, n)
    fixed = RR.compile(cand, model, CompileOptions(at="round9", fixed={key: res}))
    assert len(fixed.remaining) == len(base.remaining) - 1
    plain = fixed.run_batch(2, 0, n)
    for i in range(len(base.info.names)):
        p, q = forced["place"][i, 0] / n, plain["place"][i, 0] / n
        se = math.sqrt((p * (1 - p) + q * (1 - q)) / n)
        assert abs(p - q) <= 5 * se + 1 / n, (i, p, q)
