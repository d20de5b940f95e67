"""Round-robin whocan against two independent truths: exact enumeration of the odds
(``formats/roundrobin/exact.py``: a status must match whether P is 0, between, or 1) and brute
force over every outcome with the standings code (``rules.place_ranges``, plain Python: the
twin of the numba enumerator), under the full rules (points, Sonneborn-Berger, wins,
head-to-head; a play-off or lots leave players level)."""

import itertools
import tomllib

import numpy as np
import pytest

from conftest import SCENARIOS, write
from simcycle.enums import RESULT_CODES
from simcycle.formats.roundrobin import FORMAT as RR
from simcycle.formats.roundrobin import rules
from simcycle.formats.roundrobin.exact import exact_round_robin
from simcycle.formats.shared.schedules import berger_rounds
from simcycle.model import load_model
from simcycle.scenario import load_scenario

CAND = SCENARIOS / "candidates-2022.toml"
SCORE = {"1-0": (2, 0), "1/2-1/2": (1, 1), "0-1": (0, 2)}
# the rules of the Candidates 2018 and 2020-21: head-to-head, wins, Sonneborn-Berger, and a
# play-off only for those still level (FIDE regulations for the Candidates 2018, 3.7)
CRITERIA_FIRST = '["head-to-head", "wins", "sonneborn-berger", "playoff", "lots"]'


def ranges_after(scn, at, results):
    """Place ranges after the remaining games end as ``results`` (a list of "1-0" /
    "1/2-1/2" / "0-1" in remaining order), through the standings code."""
    played, remaining = rules.split_games(scn, at)
    games = played + [rules.Game(g.round, g.white, g.black, RESULT_CODES[r])
                      for g, r in zip(remaining, results)]
    return rules.place_ranges(scn, rules.table(scn, games))


def path_results(scn, at, path):
    """The path (names, rounds) back to results in remaining-game order."""
    _, remaining = rules.split_games(scn, at)
    idx = {p.name: i for i, p in enumerate(scn.players)}
    by = {(g["round"], idx[g["white"]], idx[g["black"]]): g["result"] for g in path}
    assert len(by) == len(remaining)
    return [by[(g.round, g.white, g.black)] for g in remaining]


def check_rows(scn, at, d, truth=None):
    """Every alive row's path replays to what it claims; with ``truth`` (brute force),
    every status too."""
    places = {"first": 1, "qualify": scn.qualifying_places}
    for target, rows in d["targets"].items():
        q = places[target]
        for r in rows:
            x = next(i for i, p in enumerate(scn.players) if p.name == r["name"])
            if r["status"] == "alive":
                best, worst = ranges_after(scn, at, path_results(scn, at, r["path"]))[x]
                assert (worst < q) if r["via"] == "outright" else (best < q), (target, r)
            if truth is None:
                continue
            t = truth[(target, x)]
            want = ("clinched" if t["sure"] else "eliminated" if not t["can"] else "alive")
            assert r["status"] == want, (at, target, r["name"], r["status"], want)
            if want == "alive":
                assert r["via"] == ("outright" if t["outright"] else "tiebreak")
                assert r["at_worst"] == ("out" if t["passed"] else "tiebreak")


def brute(scn, at):
    """Every outcome of the remaining games through ``rules.place_ranges``."""
    _, remaining = rules.split_games(scn, at)
    n = len(scn.players)
    places = {"first": 1, "qualify": scn.qualifying_places}
    truth = {(t, x): {"can": False, "sure": True, "outright": False, "passed": False}
             for t in places for x in range(n)}
    for results in itertools.product(SCORE, repeat=len(remaining)):
        ranges = ranges_after(scn, at, list(results))
        for t, q in places.items():
            for x, (best, worst) in enumerate(ranges):
                d = truth[(t, x)]
                d["can"] |= best < q
                d["sure"] &= worst < q
                d["outright"] |= worst < q
                d["passed"] |= best >= q
    return truth


def check_against_exact(scn, at, model, max_games=10):
    """A status matches the exact odds: eliminated iff P = 0, clinched iff P = 1."""
    d = RR.whocan(scn, at)
    ex = {p["name"]: p for p in exact_round_robin(scn, model, at, max_games)["players"]}
    for target, rows in d["targets"].items():
        for r in rows:
            p = ex[r["name"]]["p_first" if target == "first" else "p_qualify"]
            if r["status"] == "eliminated":
                assert p == 0.0, (at, target, r["name"], p)
            elif r["status"] == "clinched":
                assert p == pytest.approx(1.0, abs=1e-12), (at, target, r["name"], p)
            else:
                assert r["status"] == "alive" and 0 < p < 1 - 1e-12, (at, target, r, p)
    return d


@pytest.fixture(scope="module")
def model():
    return load_model()


def variant(tmp_path, edits, name):
    text = CAND.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    return load_scenario(write(tmp_path, name, text))[1]


CRITERIA_DECIDED = [('order = ["sonneborn-berger", "wins", "head-to-head", "lots"]',
                     f"order = {CRITERIA_FIRST}"),
                    ("playoff_places = 1", "playoff_places = 0")]
TWO_PLACES = [("qualifying_places = 1 ", "qualifying_places = 2 ")]


@pytest.mark.parametrize("at", ["round12", "round13", "round14"])
@pytest.mark.parametrize("rules_", ["as-played", "criteria-decided", "two-places"])
def test_last_checkpoints_against_exact_and_brute_force(tmp_path, model, at, rules_):
    # every checkpoint of the shipped Candidates with at most 10 games left, as played and
    # in a variant where criteria decide first before any play-off (2018 rules), and with
    # two qualifying places
    edits = {"as-played": [], "criteria-decided": CRITERIA_DECIDED, "two-places": TWO_PLACES}
    scn = variant(tmp_path, edits[rules_], f"{rules_}.toml")
    d = check_against_exact(scn, at, model)
    check_rows(scn, at, d, brute(scn, at))


def test_round11_with_twelve_games_left_against_exact(model):
    scn = load_scenario(CAND)[1]
    d = check_against_exact(scn, "round11", model, max_games=12)
    check_rows(scn, "round11", d)


def test_criteria_change_answers_points_alone_would_give(tmp_path, model):
    # At round 13 of the criteria-decided variant Nepomniachtchi (9) leads Ding (7½) by
    # 1½ points with one game left: clinched on points either way.  The interesting rows are
    # players level on points whom the criteria separate: no row may be "alive, only level"
    # when exact odds give them nothing (checked in the parametrised test), and the text
    # names what is compared.
    scn = variant(tmp_path, CRITERIA_DECIDED, "c.toml")
    d = RR.whocan(scn, "round12")
    text = RR.render_whocan(d)
    assert "compared: points, then head-to-head, wins, Sonneborn-Berger, play-off" in text
    assert "in words:" in text


def test_in_plain_words_at_round12():
    # Candidates 2022 after round 12: Nepomniachtchi 8½, Ding and Nakamura 6½ with two
    # rounds left (scenarios/candidates-2022.toml); by hand: half a point makes him
    # uncatchable (9 > 6½ + 2), and Ding reaches 8½ only with two wins while Nepomniachtchi
    # loses both, which leaves them level (a play-off).
    d = RR.whocan(load_scenario(CAND)[1], "round12")
    says = {r["name"]: r["says"] for r in d["targets"]["first"]}
    assert says["Ian Nepomniachtchi"] == [
        "clinches first place with ½ point or more from their last games (round 13 v Richárd "
        "Rapport, round 14 v Jan-Krzysztof Duda)"]
    assert says["Ding Liren"] == [
        "needs 2 points from their last games (round 13 v Alireza Firouzja, round 14 v Hikaru "
        "Nakamura)",
        "and Richárd Rapport to beat Ian Nepomniachtchi (round 13) and Jan-Krzysztof Duda to "
        "beat Ian Nepomniachtchi (round 14)",
        "even then only level: a play-off or lots decide"]
    assert says["Fabiano Caruana"] == [
        "can no longer reach first place: 8 points at most, and Ian Nepomniachtchi already has "
        "8½ points"]


@pytest.mark.parametrize("seed", range(6))
def test_random_events_against_brute_force(tmp_path, seed):
    # made-up double round robins of six with two rounds (six games) open, random results so
    # far and one of three tiebreak orders; q = 1, 2 or 3 places
    rng = np.random.default_rng(seed)
    n = 6
    sched = berger_rounds(n, 2)
    players = "".join(f'[[players]]\nname = "P{i}"\nrating = 2700\n\n' for i in range(n))
    rounds = ""
    for r in range(len(sched) - 2):
        games = ", ".join(f'["P{w}", "P{b}", "{["1-0", "1/2-1/2", "0-1"][rng.integers(3)]}"]'
                          for w, b in sched[r])
        rounds += f"[[rounds]]\nround = {r + 1}\ngames = [{games}]\n\n"
    q = 1 + seed % 3
    order = [CRITERIA_FIRST, '["playoff", "sonneborn-berger", "wins", "head-to-head"]',
             '["wins", "head-to-head", "lots"]'][seed % 3]
    text = (f'[scenario]\nname = "t"\nformat = "round-robin"\n[event]\ncycles = 2\n'
            f'qualifying_places = {q}\n[tiebreak]\norder = {order}\n'
            'playoff = [[{ tied = [2, 6], kind = "lots" }]]\n\n' + players + rounds)
    assert tomllib.loads(text)
    scn = load_scenario(write(tmp_path, "t.toml", text))[1]
    d = RR.whocan(scn, None)
    check_rows(scn, None, d, brute(scn, None))


def test_more_games_left_compares_points(tmp_path):
    # beyond the enumeration (here 16 games left) the answer is on points (a flow argument)
    d = RR.whocan(load_scenario(CAND)[1], "round10")
    assert d["compared"] == "points" and d["games_left"] == 16
    statuses = {r["name"]: r["status"] for r in d["targets"]["first"]}
    assert statuses["Ian Nepomniachtchi"] == "alive"


def points_brute(n, pts, remaining, q):
    """On points alone: every outcome of ``remaining`` games (list of (white, black))."""
    outs = np.array(list(itertools.product((0, 1, 2), repeat=len(remaining))), np.int64)
    P = np.tile(np.array(pts, np.int64), (len(outs), 1))
    for k, (w, b) in enumerate(remaining):
        P[:, w] += 2 - outs[:, k]
        P[:, b] += outs[:, k]
    out = {}
    for x in range(n):
        above = (P > P[:, [x]]).sum(1)
        at_least = (P >= P[:, [x]]).sum(1) - 1
        out[x] = {"can": bool((above < q).any()), "sure": bool((at_least < q).all()),
                  "outright": bool((at_least < q).any()), "passed": bool((above >= q).any())}
    return out


@pytest.mark.parametrize("seed", range(4))
def test_flow_backend_on_points_against_brute_force(tmp_path, seed):
    # the backend used beyond the enumeration, forced on small made-up events: statuses on
    # points equal brute force, and every path replays on points
    from simcycle.formats.roundrobin.whocan import FlowBackend
    from simcycle.whocan.core import analyse

    rng = np.random.default_rng(100 + seed)
    n = 6
    sched = berger_rounds(n, 2)
    pts = [int(x) for x in rng.integers(0, 12, n)]
    remaining = [rules.Game(9 + r, w, b, -1) for r in range(2) for w, b in sched[8 + r]]
    q = 1 + seed % 3
    names = [f"P{i}" for i in range(n)]
    everyone = {x: [j for j in range(n) if j != x] for x in range(n)}
    rows = analyse(FlowBackend(n, pts, remaining, names), names, list(range(n)),
                   {"t": (q, everyone)}, None)["t"]
    truth = points_brute(n, pts, [(g.white, g.black) for g in remaining], q)
    for x, r in enumerate(rows):
        t = truth[x]
        want = "clinched" if t["sure"] else "eliminated" if not t["can"] else "alive"
        assert r["status"] == want, (x, r, t)
        if want == "alive":
            assert r["via"] == ("outright" if t["outright"] else "tiebreak")
            assert r["at_worst"] == ("out" if t["passed"] else "tiebreak")
            final = list(pts)
            for g in r["path"]:
                w, b = int(g["white"][1:]), int(g["black"][1:])
                sw, sb = SCORE[g["result"]]
                final[w] += sw
                final[b] += sb
            ahead = sum(final[j] > final[x] for j in range(n) if j != x)
            ahead_eq = sum(final[j] >= final[x] for j in range(n) if j != x)
            assert (ahead_eq < q) if r["via"] == "outright" else (ahead < q)
