"""whocan against brute force: every outcome of the remaining games, on points."""

import itertools

import numpy as np
import pytest

from conftest import SCENARIOS, write
from simcycle.formats.roundrobin import FORMAT as RR
from simcycle.formats.roundrobin import rules
from simcycle.formats.shared.schedules import berger_rounds
from simcycle.scenario import load_scenario


def brute(n, pts, remaining, places):
    m = len(remaining)
    outs = np.array(list(itertools.product((0, 1, 2), repeat=m)), np.int64).reshape(-1, m)
    P = np.tile(np.array(pts, np.int64), (len(outs), 1))
    for k, (_, w, b) in enumerate(remaining):
        P[:, w] += 2 - outs[:, k]      # White: 2, 1, 0 half points
        P[:, b] += outs[:, k]
    res = {}
    for x in range(n):
        above = (P > P[:, [x]]).sum(1)            # rivals strictly ahead
        at_least = (P >= P[:, [x]]).sum(1) - 1    # rivals level or ahead
        res[x] = {
            "outright": bool((at_least < places).any()),
            "level": bool((above < places).any()),
            "clinched": bool((at_least < places).all()),
            "can_be_out": bool((above >= places).any()),
        }
    return res


def check(scn, at):
    n = len(scn.players)
    played, remaining = rules.split_games(scn, at)
    pts, _, _ = rules.tally(n, played)
    rem = [(g.round, g.white, g.black) for g in remaining]
    d = RR.whocan(scn, at)
    places_of = {"first": 1, "qualify": scn.qualifying_places}
    for target, rows in d["targets"].items():
        truth = brute(n, pts, rem, places_of[target])
        for x, r in enumerate(rows):
            t = truth[x]
            if t["clinched"]:
                assert r["status"] == "clinched", (target, r)
            elif not t["level"]:
                assert r["status"] == "eliminated", (target, r)
            else:
                assert r["status"] == "alive", (target, r)
                assert r["via"] == ("outright" if t["outright"] else "tiebreak"), (target, r)
                assert r["at_worst"] == ("out" if t["can_be_out"] else "tiebreak"), (target, r)
                # the path really gets him there
                final = list(pts)
                idx = {p.name: i for i, p in enumerate(scn.players)}
                assert len(r["path"]) == len(rem)
                for g in r["path"]:
                    w, b = idx[g["white"]], idx[g["black"]]
                    sw = {"1-0": 2, "1/2-1/2": 1, "0-1": 0}[g["result"]]
                    final[w] += sw
                    final[b] += 2 - sw
                ahead = sum(final[j] > final[x] for j in range(n) if j != x)
                ahead_eq = sum(final[j] >= final[x] for j in range(n) if j != x)
                k = places_of[target]
                assert (ahead_eq < k) if r["via"] == "outright" else (ahead < k)


@pytest.mark.parametrize("at", ["round11", "round12", "round13"])
def test_candidates_against_brute_force(at):
    check(load_scenario(SCENARIOS / "candidates-2022.toml")[1], at)


@pytest.mark.parametrize("seed", range(6))
def test_random_events_against_brute_force(tmp_path, seed):
    rng = np.random.default_rng(seed)
    n = 6
    sched = berger_rounds(n, 2)
    players = "".join(f'[[players]]\nname = "P{i}"\nrating = 2700\n\n' for i in range(n))
    rounds = ""
    for r in range(len(sched) - 2):   # last two rounds (6 games) open
        games = ", ".join(f'["P{w}", "P{b}", "{["1-0", "1/2-1/2", "0-1"][rng.integers(3)]}"]'
                          for w, b in sched[r])
        rounds += f"[[rounds]]\nround = {r + 1}\ngames = [{games}]\n\n"
    q = 1 + seed % 3
    text = (f'[scenario]\nname = "t"\nformat = "round-robin"\n[event]\ncycles = 2\n'
            f'qualifying_places = {q}\n\n' + players + rounds)
    scn = load_scenario(write(tmp_path, "t.toml", text))[1]
    check(scn, None)
