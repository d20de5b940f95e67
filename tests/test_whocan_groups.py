"""group-series whocan (simcycle/formats/group_series/whocan.py) against a brute-force twin.

The twin enumerates every outcome at the level the MILP models them: each open group game
(1-0, draw, 0-1), each play-off result the rules allow for the players level for first, each
open knock-out match (2-0, 1.5-0.5, 1-1 by win + loss or two draws then either player wins
the tiebreak, 0.5-1.5, 0-2); it keeps its own arithmetic (it only borrows the checkpoint
standings as the base) and compares every row's status, via and at_worst.  Every returned
path is replayed, entry by entry, through ``standings`` of a scenario filled with it.

Facts: [RU] Russian Wikipedia, "Гран-при ФИДЕ 2022",
https://ru.wikipedia.org/wiki/Гран-при_ФИДЕ_2022 ; [ES] Spanish Wikipedia, "Gran Premio de la
FIDE 2022", https://es.wikipedia.org/wiki/Gran_Premio_de_la_FIDE_2022 ."""

import itertools
from dataclasses import replace

import numpy as np
import pytest
from conftest import SCENARIOS, write

from simcycle.enums import RESULT_CODES
from simcycle.formats.base import CompileOptions
from simcycle.formats.group_series import FORMAT, rules
from simcycle.formats.group_series import whocan as W
from simcycle.formats.group_series.scenario import Group, Match
from simcycle.formats.group_series.schema import KO_ROUNDS
from simcycle.whocan.core import LEVEL, OUTRIGHT, PASS, PASS_LEVEL
from simcycle.scenario import load_scenario

GP = SCENARIOS / "grand-prix-2022.toml"
MIRROR = {0: 2, 1: 1, 2: 0}
# columns of the brute force's criteria: points, events won, second places, classical points, wins
COL = {"events-won": 1, "second-places": 2, "classical-points": 3, "classical-wins": 4}


@pytest.fixture(scope="module")
def gp():
    return load_scenario(GP)[1]


# ---- brute force --------------------------------------------------------------------------
def _group_outcomes(gr, gp6, elim):
    """[(points by slot, score by slot, wins by slot, winner slot)] over open games and
    play-off results (points in sixths, scores in half points)."""
    slot = {p: s for s, p in enumerate(gr.players)}
    fixed = [(slot[w], slot[b], r) for _, w, b, r in gr.games if r >= 0]
    open_ = [(slot[w], slot[b]) for _, w, b, r in gr.games if r < 0]
    out = set()
    for rs in itertools.product((0, 1, 2), repeat=len(open_)):
        sc, wn = [0] * 4, [0] * 4
        for (w, b, r) in fixed + [(w, b, r) for (w, b), r in zip(open_, rs)]:
            sc[w] += (2, 1, 0)[r]
            sc[b] += (0, 1, 2)[r]
            wn[w] += r == 0
            wn[b] += r == 2
        top = max(sc)
        tied = [s for s in range(4) if sc[s] == top]
        rest = sorted([s for s in range(4) if s not in tied], key=lambda s: -sc[s])
        base = [None] * 4
        q = len(tied)
        i = 0
        while i < len(rest):       # places below the tie for first: shared by the level
            run = [s for s in rest if sc[s] == sc[rest[i]]]
            for s in run:
                base[s] = sum(gp6[q:q + len(run)]) // len(run)
            q += len(run)
            i += len(run)
        configs = []
        for w in tied:
            others = [s for s in tied if s != w]
            if len(tied) == 1:
                configs.append((w, {w: gp6[0]}))
            elif len(tied) == 2:
                configs.append((w, {w: gp6[0], others[0]: gp6[1]}))
            elif len(tied) == 3:
                share = (gp6[1] + gp6[2]) // 2
                configs.append((w, {w: gp6[0], others[0]: share, others[1]: share}))
                if elim:
                    configs.append((w, {w: gp6[0], others[0]: gp6[1], others[1]: gp6[2]}))
                    configs.append((w, {w: gp6[0], others[0]: gp6[2], others[1]: gp6[1]}))
            else:
                for s2 in others:
                    c = {w: gp6[0], s2: gp6[1]}
                    c.update({o: (gp6[2] + gp6[3]) // 2 for o in others if o != s2})
                    configs.append((w, c))
        for w, c in configs:
            pts = tuple(c.get(s, base[s]) for s in range(4))
            out.add((pts, tuple(sc), tuple(wn), w))
    return sorted(out)


# one side's knock-out outcomes: (classical half points, classical wins, won)
KO = [(4, 2, 1), (3, 1, 1), (2, 1, 1), (2, 0, 1), (2, 1, 0), (2, 0, 0), (1, 0, 0), (0, 0, 0)]
KO_MIR = [7, 6, 4, 5, 2, 3, 1, 0]


def brute(scn, at):
    """Final criteria of every combination: int64 [combos, players, 5] (points sixths, events
    won, second places, classical half points, classical wins)."""
    n = len(scn.players)
    st = rules.standings(scn, at)
    idx = {r["name"]: scn.index[r["name"].casefold()] for r in st["players"]}
    base = np.zeros((n, 5), np.int64)
    for r in st["players"]:
        base[idx[r["name"]]] = (round(6 * r["points"]), r["events_won"], r["second_places"],
                                round(2 * r["classical_points"]), r["classical_wins"])
    states = rules.state(scn, at)
    gp6 = [6 * x for x in scn.group_points]
    elim = scn.rules["playoff_places"] == "elimination"
    # list of (delta array [k, n, 5], winner ids [k] or None, event, group)
    choices = []
    for e, (ev, s) in enumerate(zip(scn.events, states)):
        groups = s.groups if s.groups_known else [
            Group(g.name, g.players, tuple((rd, w, b, -1) for rd, w, b, _ in g.games), None)
            for g in ev.groups]
        for gi, gr in enumerate(groups):
            done = all(r >= 0 for *_, r in gr.games) and rules.group_places(gr, gp6) is not None
            if done:
                continue
            outs = _group_outcomes(gr, gp6, elim)
            d = np.zeros((len(outs), n, 5), np.int64)
            wv = np.zeros(len(outs), np.int64)
            played_sc, played_w, _ = rules.group_scores(gr)
            for k, (pts, sc, wn, win) in enumerate(outs):
                for sl, p in enumerate(gr.players):
                    d[k, p, 0] = pts[sl]
                    d[k, p, 3] = sc[sl] - played_sc[sl]
                    d[k, p, 4] = wn[sl] - played_w[sl]
                wv[k] = gr.players[win]
            choices.append((d, wv, e, gi))
    # combine group choices
    D = np.zeros((1, n, 5), np.int64)
    W = {}
    for d, wv, e, gi in choices:
        D = (D[:, None] + d[None]).reshape(-1, n, 5)
        W = {key: np.repeat(v, len(d), axis=0) for key, v in W.items()}
        W[(e, gi)] = np.tile(wv, len(D) // len(wv))
    # knock-out
    for e, (ev, s) in enumerate(zip(scn.events, states)):
        if s.groups_known and all(rd in s.ko for rd in KO_ROUNDS):
            continue
        groups = s.groups if s.groups_known else ev.groups
        gw = []
        for gi, gr in enumerate(groups):
            if (e, gi) in W:
                gw.append(W[(e, gi)])
            else:
                pl = rules.group_places(gr, gp6)
                gw.append(np.full(len(D), gr.players[pl.index(gp6[0])]))
        fin = []
        for k, rd in enumerate(("sf1", "sf2")):
            mt = s.ko.get(rd) if s.groups_known else None
            if mt is not None:
                fin.append(np.full(len(D), mt.winner))
                continue
            a, b = gw[2 * k], gw[2 * k + 1]
            rows = []
            for o in range(8):
                dd = D.copy()
                r = np.arange(len(D))
                for pl, oo in ((a, o), (b, KO_MIR[o])):
                    hp, w, won = KO[oo]
                    dd[r, pl, 0] += 18 * won
                    dd[r, pl, 3] += hp
                    dd[r, pl, 4] += w
                rows.append((dd, np.where(KO[o][2] == 1, a, b)))
            D = np.concatenate([x[0] for x in rows])
            fin = [np.tile(f, 8) for f in fin] + [np.concatenate([x[1] for x in rows])]
            W = {key: np.tile(v, 8) for key, v in W.items()}
            gw = [np.tile(g, 8) for g in gw]
        a, b = fin
        rows = []
        for o in range(8):
            dd = D.copy()
            r = np.arange(len(D))
            for pl, oo in ((a, o), (b, KO_MIR[o])):
                hp, w, won = KO[oo]
                dd[r, pl, 0] += 18 * won
                dd[r, pl, 1] += won
                dd[r, pl, 2] += 1 - won
                dd[r, pl, 3] += hp
                dd[r, pl, 4] += w
            rows.append(dd)
        D = np.concatenate(rows)
        W = {key: np.tile(v, 8) for key, v in W.items()}
    return base[None] + D


def truth(scn, F, q):
    eligible = np.array([scn.substitutes_count or not p.substitute for p in scn.players])
    order = [0] + [COL[t] for t in scn.tiebreaks if t != "lots"]
    key = np.zeros(F.shape[:2], np.int64)
    for c in order:
        key = key * 1000 + F[:, :, c]
    out = {}
    for x in range(len(scn.players)):
        if not eligible[x]:
            continue
        riv = eligible.copy()
        riv[x] = False
        ge = (key[:, riv] >= key[:, [x]]).sum(1)
        gt = (key[:, riv] > key[:, [x]]).sum(1)
        out[scn.players[x].name] = {"outright": bool((ge < q).any()),
                                       "level": bool((gt < q).any()),
                                       "clinched": bool((ge < q).all()),
                                       "can_be_out": bool((gt >= q).any())}
    return out


# ---- replaying a path -----------------------------------------------------------------------
def replay(scn, at, path):
    """The scenario with the checkpoint's results plus the path's, as a complete file."""
    def ix(nm):
        return scn.index[nm.casefold()]

    states = rules.state(scn, at)
    games, pos, kos, draws = {}, {}, {}, {}
    for g in path:
        e = g["event"] - 1
        if g["stage"] == "draw":
            draws[e] = {name: tuple(ix(n) for n in pl) for name, pl in g["groups"].items()}
        elif "white" in g:
            games[e, ix(g["white"]), ix(g["black"])] = RESULT_CODES[g["result"]]
        elif "places" in g:
            pos[e, g["stage"].split()[1]] = tuple(
                tuple(ix(n) for n in (p if isinstance(p, list) else [p])) for p in g["places"])
        else:
            a, b = (ix(n) for n in g["players"])
            kos[e, g["stage"]] = Match(g["stage"], a, b,
                                         tuple(RESULT_CODES[c] for c in g["classical"]),
                                         ix(g["winner"]))
    events = []
    sched = rules.schedule(scn.rules["schedule"])
    for e, (ev, s) in enumerate(zip(scn.events, states)):
        groups = []
        base = ev.groups
        if e in draws:      # groups drawn by the path (schedule rounds and colours)
            assert not s.groups_known
            base = [Group(name, pl, tuple((rd, pl[w], pl[b], -1) for rd, w, b in sched), None)
                    for name, pl in draws.pop(e).items()]
        for gi, gr in enumerate(base):
            sg = s.groups[gi] if s.groups_known else None
            gm = []
            for j, (rd, w, b, _) in enumerate(gr.games):
                r = sg.games[j][3] if sg else -1
                gm.append((rd, w, b, r if r >= 0 else games.pop((e, w, b))))
            po = pos.pop((e, gr.name), sg.playoff if sg else None)
            groups.append(Group(gr.name, gr.players, tuple(gm), po))
        ko = {rd: (s.ko[rd] if s.groups_known and rd in s.ko else kos.pop((e, rd)))
              for rd in KO_ROUNDS}
        events.append(replace(ev, groups=tuple(groups), knockout=ko))
    assert not games and not kos and not draws, "path entries the scenario does not need"
    return replace(scn, events=tuple(events))


def check(scn, at):
    d = FORMAT.whocan(scn, at)
    F = brute(scn, at)
    qs = {"first": 1, "qualify": scn.qualifying_places}
    for target, rows in d["targets"].items():
        t = truth(scn, F, qs[target])
        for r in rows:
            if r["name"] not in t:
                assert r["status"] == "n/a"
                continue
            tt = t[r["name"]]
            if tt["clinched"]:
                assert r["status"] == "clinched", (target, r)
            elif not tt["level"]:
                assert r["status"] == "eliminated", (target, r)
            else:
                assert r["status"] == "alive", (target, r)
                assert r["via"] == ("outright" if tt["outright"] else "tiebreak"), (target, r)
                assert r["at_worst"] == ("out" if tt["can_be_out"] else "tiebreak"), (target, r)
                filled = replay(scn, at, r["path"])
                st = rules.standings(filled, None)
                el = [p for p in st["players"] if p["eligible"]]
                crit = ["points"] + [t.replace("-", "_") for t in scn.tiebreaks if t != "lots"]
                key = {p["name"]: tuple(p[c] for c in crit) for p in el}
                me = key[r["name"]]
                ge = sum(key[n] >= me for n in key if n != r["name"])
                gt = sum(key[n] > me for n in key if n != r["name"])
                assert (ge if r["via"] == "outright" else gt) < qs[target], (target, r)
    return d, F


# ---- the real scenario ------------------------------------------------------------------------
@pytest.mark.parametrize("at", ["event3-round6", "event3-groups", "event3-sf", "event3"])
def test_grand_prix_2022_against_brute_force(gp, at):
    check(gp, at)


def test_grand_prix_2022_turning_points(gp):
    # [ES] introduction, [RU] above its final table: after the third event's group stage the
    # top two were settled (Nakamura and Rapport); during his semi-final Nakamura passed
    # Rapport and won the series
    d = FORMAT.whocan(gp, "event3-groups")
    st = {r["name"]: r["status"] for r in d["targets"]["qualify"]}
    for name, s in st.items():
        assert s == ("clinched" if name in ("Hikaru Nakamura", "Richard Rapport") else "eliminated")
    d = FORMAT.whocan(gp, "event3-sf")
    st = {r["name"]: r["status"] for r in d["targets"]["first"]}
    assert st["Hikaru Nakamura"] == "clinched"
    assert all(s == "eliminated" for n, s in st.items() if n != "Hikaru Nakamura")
    # at the end everything is decided ([RU] final table: Nakamura 23, Rapport 20)
    d = FORMAT.whocan(gp, None)
    assert all(r["status"] in ("clinched", "eliminated") for rows in d["targets"].values()
               for r in rows)


@pytest.mark.parametrize("at", ["event1", "event2-round5", "event3-round3"])
def test_agrees_with_monte_carlo(gp, at):
    # simulations redraw undrawn groups by the baskets rule, the reading whocan uses
    from simcycle import driver
    from simcycle.model import load_model
    d = FORMAT.whocan(gp, at)
    res = driver.run(FORMAT.compile(gp, load_model(), CompileOptions(at=at)), 3000, 7,
                     progress=False)
    names = gp.names
    qual = dict(zip(names, res.tallies["qualify"]))
    first = dict(zip(names, res.tallies["place"][:, 0]))
    for tally, rows in ((qual, d["targets"]["qualify"]), (first, d["targets"]["first"])):
        for r in rows:
            if r["status"] == "eliminated":
                assert tally[r["name"]] == 0, r
            if r["status"] == "clinched":
                assert tally[r["name"]] == res.sims, r
    # informative: someone is eliminated and several are alive
    assert {r["status"] for r in d["targets"]["qualify"]} >= {"alive", "eliminated"}


# ---- synthetic variations -------------------------------------------------------------------
def _variant(scn, rng, open_games, playoff_places="elimination", q=2, subs=True, tbs=None):
    """Event 3 with random group results, ``open_games`` of them left unplayed, play-offs
    and knock-out removed; earlier events as played."""
    ev = scn.events[2]
    slots = [(gi, j) for gi in range(4) for j in range(12)]
    chosen = set(map(tuple, rng.permutation(slots)[:open_games]))
    groups = []
    for gi, gr in enumerate(ev.groups):
        games = tuple((rd, w, b, -1 if (gi, j) in chosen else int(rng.choice(3, p=[.3, .45, .25])))
                      for j, (rd, w, b, _) in enumerate(gr.games))
        groups.append(Group(gr.name, gr.players, games, None))
    events = scn.events[:2] + (replace(ev, groups=tuple(groups), knockout={}),)
    rules = dict(scn.rules, playoff_places=playoff_places)
    return replace(scn, events=events, rules=rules, qualifying_places=q, substitutes_count=subs,
                   tiebreaks=scn.tiebreaks if tbs is None else tbs)


@pytest.mark.parametrize("seed", range(6))
def test_random_event3_against_brute_force(gp, seed):
    rng = np.random.default_rng(seed)
    scn = _variant(gp, rng, open_games=[2, 3, 3, 4, 2, 3][seed],
                   playoff_places=["elimination", "first-only"][seed % 2],
                   q=[2, 1, 3, 2, 4, 2][seed], subs=seed != 3)
    check(scn, None)


@pytest.mark.parametrize("seed,tbs", [(10, ("lots",)), (11, ("lots",)),
                                      (12, ("events-won", "lots")),
                                      (13, ("classical-wins", "lots")), (14, ("lots",))])
def test_ties_on_fewer_criteria_against_brute_force(gp, seed, tbs):
    # with fewer series tiebreaks, players finish level on every criterion often enough to
    # exercise via = "tiebreak" and at_worst = "tiebreak"
    rng = np.random.default_rng(seed)
    scn = _variant(gp, rng, open_games=2 + seed % 2, q=1 + seed % 3, tbs=tbs,
                   playoff_places=["elimination", "first-only"][seed % 2])
    check(scn, None)


def _tied_groups(scn, rng, open_games, playoff_places, q, tbs):
    """Event 3 with group A all drawn (four level for first) and group B three level (they
    draw each other and beat the fourth), both play-offs pending; ``open_games`` random open
    games in groups C and D; the knock-out open."""
    scn = _variant(scn, rng, 0, playoff_places, q, True, tbs)
    ev = scn.events[2]
    a, b, c, d = ev.groups
    a = Group(a.name, a.players, tuple((rd, w, bb, 1) for rd, w, bb, _ in a.games), None)
    four = b.players[3]
    b = Group(b.name, b.players, tuple(
        (rd, w, bb, 1 if four not in (w, bb) else (0 if bb == four else 2))
        for rd, w, bb, _ in b.games), None)
    opened = set(map(tuple, rng.permutation([(g, j) for g in range(2)
                                             for j in range(12)])[:open_games]))
    cd = [Group(g.name, g.players, tuple((rd, w, bb, -1 if (k, j) in opened else r)
                                           for j, (rd, w, bb, r) in enumerate(g.games)), None)
          for k, g in enumerate((c, d))]
    return replace(scn, events=scn.events[:2] + (replace(ev, groups=(a, b, *cd)),))


@pytest.mark.parametrize("seed,mode,q,tbs", [
    (20, "elimination", 1, ("lots",)), (21, "elimination", 3, ("lots",)),
    (22, "first-only", 2, ("lots",)), (23, "elimination", 2, None)])
def test_three_and_four_level_for_first_against_brute_force(gp, seed, mode, q, tbs):
    rng = np.random.default_rng(seed)
    check(_tied_groups(gp, rng, 1, mode, q, tbs), None)


@pytest.mark.parametrize("mode", ["elimination", "first-only"])
def test_group_points_the_milp_allows_are_the_rules(gp, mode):
    # for groups with every game played and the play-off for first pending (four level, three
    # level, and event 3's random groups C and D), the group-point vectors the MILP admits are
    # exactly the brute force's: every brute vector is feasible, every other ordering of the
    # same points is not
    import itertools as it

    scn = _tied_groups(gp, np.random.default_rng(5), 0, mode, 2, None)
    model = W.SeriesMILP(scn, None)
    gp6 = [6 * x for x in scn.group_points]
    seen_sizes = set()
    for e, gi, gr, opts, table, _ in model.groups:
        allowed = {o[0] for o in _group_outcomes(gr, gp6, mode == "elimination")}
        seen_sizes.add(len(allowed))
        cands = {v for a in allowed for v in it.permutations(a)}
        for v in cands:
            rows = [({z: o[2] for z, o in zip(table[s], opts)}, v[s], v[s]) for s in range(4)]
            status, _ = model.m.solve(rows, [])
            assert status == ("feasible" if v in allowed else "infeasible"), (gr.name, v)
    # four level: 4 winners x 3 seconds; three level: 3 winners x (3 orders of the others
    # with elimination, 1 with first-only)
    assert 12 in seen_sizes and (9 if mode == "elimination" else 3) in seen_sizes


def test_written_scenario_with_open_games(tmp_path, gp):
    # the real file with two event-3 games unplayed and event 3's knock-out and play-offs
    # removed, loaded from disk
    text = GP.read_text(encoding="utf-8")
    head, ev3 = text.split("[[events]]\nname = \"Berlin 2")
    ev3 = ev3.split("[[events.knockout]]")[0]
    ev3 = "\n".join(line for line in ev3.splitlines() if not line.startswith("playoff = "))
    for g in ('[6, "Keymer", "Mamedyarov", ', '[6, "Oparin", "Nakamura", '):
        i = ev3.index(g)
        j = ev3.index("]", i)
        ev3 = ev3[:i] + g + '"*"' + ev3[j:]
    scn = load_scenario(write(tmp_path, "gp.toml", head + "[[events]]\nname = \"Berlin 2" + ev3))[1]
    d, _ = check(scn, None)
    assert d["games_left"] == 2 and d["matches_left"] == 3


def test_final_outcomes_the_milp_allows_are_the_rules(gp):
    # at event3-sf only the final (Nakamura v So, [RU]) is open: the MILP admits exactly
    # the (classical points, classical wins, series points, events won, second places) of the
    # two finalists that two classical games (then a tiebreak at 1-1) can give
    import itertools as it

    model = W.SeriesMILP(gp, "event3-sf")
    (_, _, yv), = model.matches
    a, = yv[0]
    b, = yv[1]
    allowed = set()
    for r1, r2 in it.product((0, 1, 2), repeat=2):       # from a's side: 0 win, 1 draw, 2 loss
        diff = sum((1, 0, -1)[r] for r in (r1, r2))
        for a_won in ((diff > 0,) if diff else (True, False)):
            allowed.add((sum((2, 1, 0)[r] for r in (r1, r2)), sum(r == 0 for r in (r1, r2)),
                         sum((0, 1, 2)[r] for r in (r1, r2)), sum(r == 2 for r in (r1, r2)),
                         int(a_won)))
    assert len(allowed) == 8
    c = model.crit
    for cpa, cwa, cwb, a_won in it.product(range(5), range(3), range(3), (0, 1)):
        v = (cpa, cwa, 4 - cpa, cwb, a_won)
        rows = []
        for p, cp_, cw_, won in ((a, cpa, cwa, a_won), (b, 4 - cpa, cwb, 1 - a_won)):
            # what the final adds (the rows hold the variable part of each expression)
            for expr, val in ((c["cp"][p], cp_), (c["cw"][p], cw_), (c["tf"][p], won),
                              (c["ts"][p], 1 - won), (c["points"][p], 18 * won)):
                rows.append((dict(expr.c), val, val))
        status, _ = model.m.solve(rows, [])
        assert status == ("feasible" if v in allowed else "infeasible"), v


def test_budget_leaves_unproved_rows_undetermined(gp):
    # with no time for HiGHS only the pooled greedy results and the key bounds answer: the
    # rest is "undetermined" (the text says why), and whatever is answered is right
    d = FORMAT.whocan(gp, "event3-round3", budget=0)
    sts = [r["status"] for rows in d["targets"].values() for r in rows]
    assert "undetermined" in sts and "alive" in sts
    assert "work budget" in FORMAT.render_whocan(d)
    full = FORMAT.whocan(gp, "event3-round3")
    assert "undetermined" not in [r["status"] for rows in full["targets"].values() for r in rows]
    for t in d["targets"]:
        for r, f in zip(d["targets"][t], full["targets"][t]):
            if r["status"] != "undetermined":
                assert (r["status"], r["via"], r["at_worst"]) == (f["status"], f["via"],
                                                                   f["at_worst"])


def test_event_without_groups(tmp_path):
    # an event with no groups in the file: every baskets draw is considered; the as-drawn
    # reading has nothing to read and is refused (exit 2 through the CLI's error path)
    from simcycle.errors import ScenarioError
    text = GP.read_text(encoding="utf-8")
    i = text.index('name = "Berlin 2')
    p = write(tmp_path, "gp.toml", text[:i] + text[i:].split("[[events.groups]]")[0])
    scn = load_scenario(p)[1]
    d = FORMAT.whocan(scn, "event2-sf")
    assert d["draws"] == "any baskets draw" and d["undrawn_events"] == [3]
    with pytest.raises(ScenarioError, match="groups"):
        FORMAT.whocan(scn, "event2-sf", draws="as-drawn")
    # the known facts hold whatever the draw: Rapport (20 after two events, [RU]) can
    # still be first; players whose two events are over and who trail by more than 13 cannot
    st = {r["name"]: r for r in d["targets"]["first"]}
    assert st["Richard Rapport"]["status"] == "alive"
    assert st["Alexei Shirov"]["status"] == "eliminated"
    for r in d["targets"]["first"] + d["targets"]["qualify"]:
        if r["status"] == "alive":
            assert r["path"][0]["stage"] == "draw"


def test_cli_json_shape():
    import json

    from click.testing import CliRunner

    from simcycle.cli import main
    r = CliRunner().invoke(main, ["whocan", str(GP), "--at", "event3-groups", "--json"])
    assert r.exit_code == 0
    d = json.loads(r.output)
    assert set(d) >= {"scenario", "file", "at", "qualifying_places", "points", "targets"}
    assert d["points"]["Hikaru Nakamura"] == 20       # [RU]: 13 + 7 after event 3's groups
    for rows in d["targets"].values():
        for row in rows:
            assert set(row) == {"name", "status", "via", "at_worst", "path", "says"}



@pytest.mark.parametrize("at", ["start", "event1-round4", "event2-round5", "event3-sf"])
def test_greedy_result_sets_are_their_results_filled_in(gp, at):
    # a greedy run builds each event once, after its games, play-offs and matches: the same
    # scenario as filling the model with the results it chose (``SeriesMILP.filled``)
    model = W.SeriesMILP(gp, at)
    rng = np.random.default_rng(3)
    n = 0
    for x in range(len(gp.players)):
        for best, spread, fav in ((True, True, ()), (True, W.LEAN, ()), (True, False, ()),
                                  (False, True, ()), (False, True, (x - 1, x - 2))):
            g = W.Greedy(model, x, best, spread, rng if x % 2 else None, fav=fav)
            got = g.run()
            assert got == model.filled(g.res, g.playoffs, g.kos, g.draws), (x, best, spread)
            n += bool(g.kos) + bool(g.playoffs)
    assert n > 0

# ---- free draws ------------------------------------------------------------------------------
def test_free_draw_model_held_to_the_file_draw_matches_the_drawn_model(gp):
    # the pair-based model of an undrawn event (event 3 at event2-groups), held to the file's
    # draw, answers every question as the slot-based model of the drawn groups (which the
    # brute force checks)
    a = W.SeriesMILP(gp, "event2-groups", "as-drawn")
    b = W.SeriesMILP(gp, "event2-groups", "rule", fix_draw=True)
    assert b.free and not a.free
    for name, qs in (("Nakamura", (1, 2)), ("Andreikin", (1,))):
        x = gp.index[name.casefold()]
        rivals = [j for j in range(len(gp.players)) if j != x and a.eligible[j]]
        for q in qs:
            for question in (OUTRIGHT, LEVEL, PASS_LEVEL, PASS):
                assert a.ask(x, rivals, q, question, None)[0] == \
                    b.ask(x, rivals, q, question, None)[0], (name, q, question)


@pytest.mark.parametrize("at", ["start", "event1-round2", "event2-round5"])
def test_free_draw_answers_contain_the_file_draw_answers(gp, at):
    # the file's draw is one of the draws the rule allows, so the free reading can only widen
    # what is possible; every free-draw path replays (draw included) to its claim
    free = FORMAT.whocan(gp, at)
    fixed = FORMAT.whocan(gp, at, draws="as-drawn")
    assert free["draws"] == "any baskets draw" and fixed["draws"] == "as-drawn"
    for t in free["targets"]:
        for r, f in zip(free["targets"][t], fixed["targets"][t]):
            assert r["name"] == f["name"]
            if r["status"] == "eliminated":
                assert f["status"] == "eliminated", (t, r["name"])
            if r["status"] == "clinched":
                assert f["status"] == "clinched", (t, r["name"])
            if f["status"] == "alive" and f["via"] == "outright":
                assert r["status"] == "alive" and r["via"] == "outright", (t, r["name"])
            if r["status"] == "alive":
                filled = replay(gp, at, r["path"])
                q = 1 if t == "first" else gp.qualifying_places
                crit = ["points"] + [c.replace("-", "_") for c in gp.tiebreaks if c != "lots"]
                el = [p for p in rules.standings(filled, None)["players"] if p["eligible"]]
                key = {p["name"]: tuple(p[c] for c in crit) for p in el}
                me = key[r["name"]]
                n = sum((key[o] >= me) if r["via"] == "outright" else (key[o] > me)
                        for o in key if o != r["name"])
                assert n < q, (t, r["name"])


def test_free_draw_model_reaches_the_real_outcome(gp):
    # at event2-round6 event 3 is undrawn: the free model held to the real draw, with every
    # pair's two games pinned to the real results ([RU]), reaches exactly [RU]'s final
    # table (points, TF, TS, GP, GW for everyone), and no table with one more classical win
    # for any event-3 player
    m = W.SeriesMILP(gp, "event2-round6", "rule", fix_draw=True)
    f = m.free[2]
    real = {(w, b): r for g in gp.events[2].groups for _, w, b, r in g.games}
    rows = []
    for p, q in f["pairs"]:
        if (p, q) not in real:
            continue
        r1, r2 = real[p, q], real[q, p]          # p White, q White
        got = ((2, 1, 0)[r1] + (0, 1, 2)[r2], (r1 == 0) + (r2 == 2),
               (0, 1, 2)[r1] + (2, 1, 0)[r2], (r1 == 2) + (r2 == 0))
        ks = [k for k, o in enumerate(W.PAIR_OUT) if o[:4] == got]
        assert len(ks) == 1, got
        rows.append(({f["o"][p, q][ks[0]]: 1}, 1, 1))
    final = {gp.index[r["name"].casefold()]: r for r in rules.standings(gp, None)["players"]}
    cols = {"points": "points", "tf": "events_won", "ts": "second_places", "cp": "classical_points",
            "cw": "classical_wins"}
    scale = {"points": 6, "tf": 1, "ts": 1, "cp": 2, "cw": 1}

    def fixed(extra_win=None):
        out = []
        for p, r in final.items():
            for c, col in cols.items():
                v = round(r[col] * scale[c]) + (c == "cw" and p == extra_win)
                e = m.crit[c][p]
                out.append((dict(e.c), v - e.k, v - e.k))
        return out

    assert m.m.solve(rows + fixed(), [])[0] == "feasible"
    for p in gp.events[2].roster[:6]:
        assert m.m.solve(rows + fixed(p), [])[0] == "infeasible"


def test_every_row_settled_where_one_event_is_all_a_substitute_plays(gp):
    # Wojtaszek plays event 1 only (a substitute, [RU]): at event1-round4 he can reach 13
    # points at most, so for him to be first outright both other events' winners must end on
    # exactly 13 with fewer classical points and nobody else reach 13.  The full program with
    # two free draws took over a minute to find it; the restricted program (his own results
    # won, one basket draw) settles it within the default budget, and the path replays.
    d = FORMAT.whocan(gp, "event1-round4")
    assert all(r["status"] != "undetermined" for rows in d["targets"].values() for r in rows)
    row = next(r for r in d["targets"]["first"] if r["name"] == "Radoslaw Wojtaszek")
    assert (row["status"], row["via"], row["at_worst"]) == ("alive", "outright", "out")
    filled = replay(gp, "event1-round4", row["path"])
    crit = ["points"] + [c.replace("-", "_") for c in gp.tiebreaks if c != "lots"]
    key = {p["name"]: tuple(p[c] for c in crit)
           for p in rules.standings(filled, None)["players"] if p["eligible"]}
    me = key["Radoslaw Wojtaszek"]
    assert all(k < me for n, k in key.items() if n != "Radoslaw Wojtaszek")
