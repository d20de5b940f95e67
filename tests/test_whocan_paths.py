"""Every whocan path is complete and replays to its claim, and its words say the same results
(issues 17 and 19), for every format: the Candidates 2022 and the Grand Prix 2019 at every
checkpoint, the Grand Prix 2022 at the checkpoints below (a run of all 28 is
``tests/test_whocan_work.py``), the ACP tour at every checkpoint.

A path is replayed on top of the checkpoint's results through each format's standings code
(the replay helpers of the format's own whocan tests, which refuse a path with a result
missing or one too many); the claim ("outright": at most q-1 rivals level or ahead on every
compared criterion; "tiebreak": at most q-1 ahead) is checked on the replayed table.  The
words are checked against the same replay: each knock-out result they name is a match of the
path, each group score they give is the group's score after the replay, each tour place is the
place of the path.
"""

import itertools
import re
from dataclasses import replace

import pytest
from conftest import SCENARIOS
from test_whocan import check_rows
from test_whocan_groups import brute as brute_groups
from test_whocan_groups import replay as replay_groups
from test_whocan_knockout import event_outcomes, final_rows, replay_path, twin_key

from simcycle.formats.group_series import FORMAT as GS
from simcycle.formats.group_series import rules as gs_rules
from simcycle.formats.knockout_series import FORMAT as KS
from simcycle.formats.knockout_series.rules import counted_matches
from simcycle.formats.roundrobin import FORMAT as RR
from simcycle.formats.tour import FORMAT as TOUR
from simcycle.formats.tour import rules as tour_rules
from simcycle.scenario import load_scenario

GP2022_AT = ["start", "event1-round4", "event2", "event2-round5", "event3-round3", "event3-sf"]


def load(name):
    return load_scenario(SCENARIOS / f"{name}.toml")[1]


def settled_say_why(d):
    """Every clinched / eliminated row says why, in words."""
    for rows in d["targets"].values():
        for r in rows:
            if r["status"] in ("clinched", "eliminated"):
                (text,) = r["says"]
                assert text.startswith("has clinched" if r["status"] == "clinched"
                                       else "can no longer reach"), text


def alive(d):
    for target, rows in d["targets"].items():
        for r in rows:
            if r["status"] == "alive":
                yield target, r


# ---- round robin ------------------------------------------------------------------------------
@pytest.mark.parametrize("at", RR.checkpoints(load("candidates-2022")))
def test_candidates_2022_paths_replay(at):
    scn = load("candidates-2022")
    d = RR.whocan(scn, at)
    check_rows(scn, at, d)
    for target, rows in d["targets"].items():
        for r in rows:
            assert r["says"], (at, target, r["name"])
            text = " ".join(r["says"])
            assert not re.search(r"\b(his|him|he)\b", text), text
            if d["games_left"] > 12 and r["status"] == "alive":
                # what is exact is said as such: the points, and the top score they can reach
                assert text.startswith("exact on points: can reach "), text


# ---- clinched / eliminated in words (the series formats) ---------------------------------------
NUM = r"(\d+(?:\.\d+)?½?|½)"


def _num(t: str) -> float:
    return (float(t[:-1] or 0) + 0.5) if t.endswith("½") else float(t)


def check_bound_words(d, idx, best, worst, rivals_of):
    """Each clinched / eliminated sentence's numbers are the extremes ``best`` / ``worst``
    (most / fewest series points over every result set, enumerated by the test) and prove the
    status: q rivals sure of more than the player's most, or fewer than q able to reach the
    player's fewest; otherwise the sentence says a program proved it."""
    n = 0
    for target, rows in d["targets"].items():
        q = 1 if target == "first" else d["qualifying_places"]
        for r in rows:
            if r["status"] not in ("clinched", "eliminated"):
                continue
            (text,) = r["says"]
            x = idx[r["name"]]
            rivals = [j for j in rivals_of(target) if j != x]
            if text.endswith("fewer rivals than places"):
                assert r["status"] == "clinched" and len(rivals) < q
                continue
            m = re.match(rf"(can no longer reach|has clinched) (first place|a qualifying place|"
                         rf"the qualifying place): {NUM} points? at (most|least) \(([^)]*)\)",
                         text)
            assert m, text
            assert (m.group(1) == "has clinched") == (r["status"] == "clinched")
            v = _num(m.group(3))
            assert v == (best[x] if m.group(4) == "most" else worst[x]), (text, best[x])
            assert (m.group(5) == "nothing left to play") == (best[x] == worst[x])
            n += 1
            if "mixed-integer program" in text:
                continue
            if r["status"] == "eliminated":
                sure = re.findall(rf"(?:, and |, )([^,]+?) is sure of {NUM}", text)
                assert len(sure) == q, text
                for name, pts in sure:
                    assert _num(pts) == worst[idx[name]] > v, (text, name)
            elif text.endswith("no rival can reach that many"):
                assert all(best[j] < v for j in rivals), text
            else:
                named = dict(re.findall(rf"([^:,]+?) \({NUM} at most\)", text.split(": ", 2)[2]))
                named = {k.removeprefix("and ").strip(): _num(b) for k, b in named.items()}
                assert {idx[k] for k in named} == {j for j in rivals if best[j] >= v}, text
                assert len(named) < q and all(best[idx[k]] == b for k, b in named.items())
    return n


@pytest.mark.parametrize("at", ["event4-qf", "event4-sf"])
def test_grand_prix_2019_bound_words_against_every_result(at):
    scn = load("grand-prix-2019")
    d = KS.whocan(scn, at)
    known = counted_matches(scn, at)
    per_event = [event_outcomes(scn, known, e) for e in range(len(scn.events))]
    n = len(scn.players)
    best, worst = [-1e9] * n, [1e9] * n
    for combo in itertools.product(*per_event):
        oc = {}
        for part in combo:
            oc.update(part)
        rows = final_rows(scn, known, oc)
        for p in range(n):
            best[p] = max(best[p], rows[p]["points"])
            worst[p] = min(worst[p], rows[p]["points"])
    idx = {p.name: i for i, p in enumerate(scn.players)}
    elig = [p for p in scn.counting if not scn.players[p].qualified_elsewhere]
    got = check_bound_words(d, idx, best, worst,
                            lambda t: scn.counting if t == "first" else elig)
    assert got >= 20


def test_grand_prix_2022_bound_words_against_every_result():
    scn = load("grand-prix-2022")
    d = GS.whocan(scn, "event3-sf")
    F = brute_groups(scn, "event3-sf")
    best = [x / 6 for x in F[:, :, 0].max(0)]
    worst = [x / 6 for x in F[:, :, 0].min(0)]
    el = [i for i, p in enumerate(scn.players) if scn.substitutes_count or not p.substitute]
    got = check_bound_words(d, {p.name: i for i, p in enumerate(scn.players)}, best, worst,
                            lambda t: el)
    assert got >= 20


# ---- knock-out series --------------------------------------------------------------------------
@pytest.mark.parametrize("at", KS.checkpoints(load("grand-prix-2019")))
def test_grand_prix_2019_paths_replay(at):
    scn = load("grand-prix-2019")
    d = KS.whocan(scn, at)
    settled_say_why(d)
    idx = {p.name: i for i, p in enumerate(scn.players)}
    elig = [p for p in scn.counting if not scn.players[p].qualified_elsewhere]
    for target, r in alive(d):
        q = 1 if target == "first" else scn.qualifying_places
        known, oc = replay_path(scn, at, r["path"])        # complete, legal
        rows = final_rows(scn, known, oc)
        x = idx[r["name"]]
        kx = twin_key(scn, rows[x])
        pool = scn.counting if target == "first" else elig
        ge = sum(twin_key(scn, rows[j]) >= kx for j in pool if j != x)
        gt = sum(twin_key(scn, rows[j]) > kx for j in pool if j != x)
        assert (ge if r["via"] == "outright" else gt) <= q - 1, (at, target, r["name"])
        # the words name every match of the path, with its result, event by event
        words = " ".join(r["says"])
        for g in r["path"]:
            assert g["result"] in words, (g, words)
        assert len(r["says"]) == len({g["event"] for g in r["path"]})


# ---- group series ------------------------------------------------------------------------------
def _half(h):
    whole, half = divmod(h, 2)
    return (str(whole) if whole or not half else "") + ("½" if half else "")


@pytest.mark.parametrize("at", GP2022_AT)
def test_grand_prix_2022_paths_replay(at):
    scn = load("grand-prix-2022")
    d = GS.whocan(scn, at)
    settled_say_why(d)
    for target, r in alive(d):
        q = 1 if target == "first" else scn.qualifying_places
        filled = replay_groups(scn, at, r["path"])          # complete, legal
        st = gs_rules.standings(filled, None)
        crit = ["points"] + [t.replace("-", "_") for t in scn.tiebreaks if t != "lots"]
        key = {p["name"]: tuple(p[c] for c in crit) for p in st["players"] if p["eligible"]}
        me = key[r["name"]]
        ge = sum(key[n] >= me for n in key if n != r["name"])
        gt = sum(key[n] > me for n in key if n != r["name"])
        assert (ge if r["via"] == "outright" else gt) < q, (at, target, r["name"])
        # the words: one sentence per event with open results; each group score they give
        # is the replayed group's score
        words = " ".join(r["says"])
        for e, ev in enumerate(filled.events):
            for g in ev.groups:
                m = re.search(rf"group {g.name} (?:drawn as )?([^;]*)",
                              next((s for s in r["says"] if s.startswith(ev.name)), ""))
                if not m:
                    continue
                sc, _, _ = gs_rules.group_scores(g)
                for s, p in enumerate(g.players):
                    assert f"{scn.names[p]} {_half(sc[s])}" in m.group(1), (g.name, words)
        for g in r["path"]:
            if "winner" in g:
                assert f"{g['winner']} beats" in words


def test_wesley_so_path_after_event2_is_complete():
    # issue 17: after event 2 of 2022 So (4 points, [RU]) can still qualify only by
    # winning Berlin 2 with every group game won; his path names the group results too
    scn = load("grand-prix-2022")
    d = GS.whocan(scn, "event2")
    row = next(r for r in d["targets"]["qualify"] if r["name"] == "Wesley So")
    assert row["status"] == "alive"
    stages = {g["stage"] for g in row["path"]}
    assert {"group A", "group B", "group C", "group D", "sf1", "sf2", "final"} <= stages
    assert "Wesley So 6" in row["says"][0]
    text = GS.render_whocan(d)
    assert "every game of this path" in text


# ---- tour ---------------------------------------------------------------------------------------
def replay_tour(scn, at, path):
    """The tour with every event still to play given the path's places (each listed player
    exactly once; an event not in the path or a player missing fails)."""
    done = tour_rules.played(scn, at)
    idx = {p.name: i for i, p in enumerate(scn.players)}
    by_event: dict = {}
    for g in path:
        lo, _, hi = g["place"].partition("-")
        by_event.setdefault(g["event"], {})[idx[g["player"]]] = (int(lo), int(hi or lo))
    events = []
    for k, ev in enumerate(scn.events):
        if done[k]:
            events.append(ev)
            continue
        got = by_event.pop(ev.name)
        assert sorted(got) == sorted(ev.field)
        events.append(replace(ev, results=tuple((p, *got[p]) for p in ev.field)))
    assert not by_event
    return replace(scn, events=tuple(events))


@pytest.mark.parametrize("at", TOUR.checkpoints(load("acp-tour-2004-05")))
def test_acp_tour_paths_replay(at):
    scn = load("acp-tour-2004-05")
    d = TOUR.whocan(scn, at)
    for target, r in alive(d):
        q = 1 if target == "first" else scn.qualifying_places
        st = tour_rules.standings(replay_tour(scn, at, r["path"]), None)
        row = next(p for p in st["players"] if p["name"] == r["name"])
        # rank = the first place of the player's group of players level before lots
        size = sum(1 for p in st["players"] if p["rank"] == row["rank"])
        if r["via"] == "outright":
            assert row["rank"] + size - 1 <= q, (at, target, r["name"], row)
        else:
            assert row["rank"] <= q, (at, target, r["name"], row)
        # the words give each scoring place of the path
        words = " ".join(r["says"])
        for g in r["path"]:
            if g["points"] > 0:
                assert f"{g['player']} {g['place']}" in words, (g, words)


def test_acp_tour_statuses_from_bounds_hold():
    # eliminated comes from key bounds, hand-countable at event3 (6 events left, best 5
    # count; the scenario's illustrative tables): Willow has 13.20 and of the events left
    # plays only the Warsaw-system event (level C: 72.30 for first), so 85.50 at most;
    # Cedar has 140.00 and a total that never falls: eliminated for first
    scn = load("acp-tour-2004-05")
    d = TOUR.whocan(scn, "event3")
    first = {r["name"]: r for r in d["targets"]["first"]}
    assert d["points"]["Willow"] == 13.2 and d["points"]["Cedar"] == 140.0
    assert first["Willow"]["status"] == "eliminated"
    assert first["Cedar"]["status"] == "alive"


# ---- the sentences quoted in docs/whocan.md ----------------------------------------------------
QUOTED = [
    ("candidates-2022", "round12", "first", "Ian Nepomniachtchi",
     "clinches first place with ½ point or more from their last games (round 13 v Richárd "
     "Rapport, round 14 v Jan-Krzysztof Duda)"),
    ("candidates-2022", "round12", "first", "Ding Liren",
     "and Richárd Rapport to beat Ian Nepomniachtchi (round 13) and Jan-Krzysztof Duda to beat "
     "Ian Nepomniachtchi (round 14)"),
    ("candidates-2022", "round13", "first", "Ian Nepomniachtchi",
     "has clinched first place: 9 points already, and no rival can reach more than 8½ points"),
    ("candidates-2022", "round13", "first", "Hikaru Nakamura",
     "can no longer reach first place: 8½ points at most, and Ian Nepomniachtchi already has 9 "
     "points"),
    ("grand-prix-2019", "event4-qf", "first", "Maxime Vachier-Lagrave",
     "Jerusalem: sf Maxime Vachier-Lagrave beats Ian Nepomniachtchi 2-0 in classical, David "
     "Navara beats Wei Yi 2-0 in classical; final Maxime Vachier-Lagrave beats David Navara 2-0 "
     "in classical"),
    ("grand-prix-2022", "event2", "qualify", "Wesley So",
     "Berlin 2 (21 March - 4 April 2022): group A Grigoriy Oparin 6, Andrey Esipenko 4, Levon "
     "Aronian 2, Hikaru Nakamura 0; group B Vincent Keymer 6, Shakhriyar Mamedyarov 4, Daniil "
     "Dubov 2, Leinier Dominguez 0; group C Wesley So 6, Alexandr Predke 4, Sam Shankland 2, "
     "Maxime Vachier-Lagrave 0; group D Yu Yangyi 6, Nikita Vitiugov 4, Amin Tabatabaei 2, Anish "
     "Giri 0; semi-finals: Grigoriy Oparin beats Vincent Keymer on tiebreaks after 1-1, Wesley "
     "So beats Yu Yangyi 2-0; final: Wesley So beats Grigoriy Oparin 2-0"),
    ("grand-prix-2019", "event4-qf", "first", "Ian Nepomniachtchi",
     "can no longer reach first place: 19 points at most (winning everything left), and "
     "Alexander Grischuk is sure of 20"),
    ("grand-prix-2019", "event4-qf", "qualify", "Alexander Grischuk",
     "has clinched a qualifying place: 20 points at least (nothing left to play), and only 1 "
     "rival can reach that many: Maxime Vachier-Lagrave (23 at most)"),
    ("grand-prix-2022", "event2", "first", "Wesley So",
     "can no longer reach first place: 17 points at most (winning everything left), and "
     "Richard Rapport is sure of 20"),
    ("acp-tour-2004-05", "event3", "first", "Willow",
     "can no longer reach first place: 85.50 at most (first in every event left), and Cedar is "
     "sure of 177.50"),
    ("acp-tour-2004-05", "event3", "qualify", "Pine",
     "Illustrative Warsaw-system event: Pine 1; no points for Yew, Vine, Upas, Teak, Willow, "
     "Spruce, Quince, Oak"),
]


@pytest.mark.parametrize("name, at, target, who, sentence", QUOTED)
def test_quoted_sentences_are_said(name, at, target, who, sentence):
    from simcycle.scenario import load_scenario as load_any

    fmt, scn = load_any(SCENARIOS / f"{name}.toml")
    row = next(r for r in fmt.whocan(scn, at)["targets"][target] if r["name"] == who)
    assert sentence in row["says"]
    doc = (SCENARIOS.parent / "docs" / "whocan.md").read_text(encoding="utf-8")
    assert sentence in doc
