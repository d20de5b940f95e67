"""Build ``data/games/games.csv`` from the raw inputs, reproducibly.

Run from anywhere:  python data/games/build.py [--check] [--clusters]

Inputs (all in this folder; provenance in README.md):
  raw/elite-classical-2015-2020.csv   upstream games.csv            (file "A")
  raw/elite-2018-2021.csv             upstream 2021/data/results.csv (file "B")
  players.csv                         one canonical name per player, with the spellings used
  events-named.csv                    kinds and controls of file B's named events
  events-identified.csv               events identified among file A's games (dates, players)
  raw/2021-2026/*.csv                 elite games June 2021 - June 2026 (README.md, "2021-2026")
  events-2021-2026.csv                kinds, sizes and Armageddon odds of those files' events
  ../../scenarios/candidates-2022.toml, grand-prix-2022.toml   games of the shipped scenarios

``--check`` rebuilds in memory and exits 1 if games.csv differs (the test suite runs it);
``--clusters`` prints the groups of file-A games that no table identifies.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import sys
import tomllib
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

from simcycle.kinds import GAME_CONTROLS, KINDS  # noqa: E402

RAW_A = HERE / "raw" / "elite-classical-2015-2020.csv"
RAW_B = HERE / "raw" / "elite-2018-2021.csv"
SRC_A = "forecasting-candidates/games.csv"
SRC_B = "forecasting-candidates/2021/data/results.csv"
OUT = HERE / "games.csv"
RAW_NEW = HERE / "raw" / "2021-2026"
COLUMNS = ["date", "event", "kind", "kind_from", "event_players", "control", "time_control",
           "round", "white", "black", "white_rating", "black_rating", "result", "source"]

CLUSTER_GAP_DAYS = 3        # games a player plays at most this many days apart: one event
DATE_SLACK_DAYS = 1         # the two files may date one game a day apart
SPEED_SHARE = 1 / 3         # an unidentified group with this share of same-day games is speed
MIN_ROUND_ROBIN = 6         # a complete round robin of at least this many players: "round-robin"


def day(s: str) -> dt.date:
    return dt.date.fromisoformat(s)


# -- names ------------------------------------------------------------------------------------
def read_players() -> tuple[dict[str, str], dict[str, str]]:
    """(spelling -> canonical name, FIDE id -> canonical name) from players.csv."""
    out: dict[str, str] = {}
    ids: dict[str, str] = {}
    with open(HERE / "players.csv", encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            name = row["name"].strip()
            for a in [name, *[x.strip() for x in row["aliases"].split(";") if x.strip()]]:
                if out.get(a.casefold(), name) != name:
                    sys.exit(f"players.csv: {a!r} names two players")
                out[a.casefold()] = name
            fid = (row.get("fide_id") or "").strip()
            if fid:
                if ids.get(fid, name) != name:
                    sys.exit(f"players.csv: FIDE id {fid} names two players")
                ids[fid] = name
    return out, ids


class Names:
    def __init__(self):
        self.by, self.ids = read_players()

    def __call__(self, raw: str, where: str) -> str:
        try:
            return self.by[raw.strip().casefold()]
        except KeyError:
            sys.exit(f"{where}: player {raw!r} is not in players.csv")


# -- raw files --------------------------------------------------------------------------------
def read_a(names: Names):
    """File A, with repeated records of one game dropped: same date, players, colours, result
    and ratings (the file repeats some games, sometimes with another ECO code)."""
    rows, seen, dropped = [], set(), 0
    with open(RAW_A, encoding="utf-8", newline="") as fh:
        for i, r in enumerate(csv.DictReader(fh), start=2):
            g = {"date": r["date"], "white": names(r["white"], f"{RAW_A.name}:{i}"),
                 "black": names(r["black"], f"{RAW_A.name}:{i}"), "result": r["result"],
                 "white_rating": int(r["white_elo"]), "black_rating": int(r["black_elo"]),
                 "source": SRC_A}
            key = (g["date"], g["white"], g["black"], g["result"], g["white_rating"],
                   g["black_rating"])
            if key in seen:
                dropped += 1
                continue
            seen.add(key)
            rows.append(g)
    return rows, dropped


def read_b(names: Names):
    """File B, but for games whose two players it names alike (two Sarics, two van Foreests:
    which is which cannot be told)."""
    rows, dropped = [], 0
    with open(RAW_B, encoding="utf-8", newline="") as fh:
        for i, r in enumerate(csv.DictReader(fh), start=2):
            if r["White"] == r["Black"]:
                dropped += 1
                continue
            rows.append({"date": r["Date"], "white": names(r["White"], f"{RAW_B.name}:{i}"),
                         "black": names(r["Black"], f"{RAW_B.name}:{i}"), "result": r["Result"],
                         "white_rating": int(r["WhiteElo"]), "black_rating": int(r["BlackElo"]),
                         "raw_event": r["Event"], "speed": r["SpeedChess"] == "1",
                         "source": SRC_B})
    return rows, dropped


def drop_overlap(a_rows, b_rows):
    """File-A games that file B also holds (same players, colours and result, dates at most a
    day apart; each B game matched once) are dropped: B names their event."""
    index = defaultdict(list)
    for j, g in enumerate(b_rows):
        index[(g["white"], g["black"], g["result"])].append(j)
    used, keep, dropped = set(), [], 0
    for g in a_rows:
        best = None
        for j in index.get((g["white"], g["black"], g["result"]), ()):
            gap = abs((day(b_rows[j]["date"]) - day(g["date"])).days)
            if j not in used and gap <= DATE_SLACK_DAYS and (best is None or gap < best[0]):
                best = (gap, j)
        if best is None:
            keep.append(g)
        else:
            used.add(best[1])
            dropped += 1
    return keep, dropped


def mark_same_day(a_rows, b_rows):
    """A file-A game is not surely classical when its two players meet again that day, or one
    of them plays three or more games that day (classical events play one game a day)."""
    pair, player = Counter(), Counter()
    for g in [*a_rows, *b_rows]:
        pair[(g["date"], frozenset((g["white"], g["black"])))] += 1
        player[(g["date"], g["white"])] += 1
        player[(g["date"], g["black"])] += 1
    for g in a_rows:
        g["same_day"] = (pair[(g["date"], frozenset((g["white"], g["black"])))] >= 2
                         or max(player[(g["date"], g["white"])], player[(g["date"], g["black"])]) >= 3)


# -- tables -----------------------------------------------------------------------------------
def read_table(name: str) -> list[dict]:
    with open(HERE / name, encoding="utf-8", newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if not r[next(iter(r))].startswith("#")]
    for i, r in enumerate(rows, start=2):
        if r["kind"] not in KINDS:
            sys.exit(f"{name}:{i}: unknown kind {r['kind']!r}")
        for col in ("classical_control", "speed_control", "control"):
            if r.get(col) and r[col] not in GAME_CONTROLS:
                sys.exit(f"{name}:{i}: unknown control {r[col]!r}")
    return rows


# Rules for file-B events that events-named.csv does not list (first match wins).
NAME_RULES = [
    (re.compile(r"Olym|Nations Cup|PRO League"), "online"),
    (re.compile(r"Teams|TCh-|Bundesliga|League|Club|ECC|Fans"), "team"),
    (re.compile(r"Open|Continental|ch-EUR|Gibraltar|Aeroflot|Masters 20\d\d$"), "open"),
    (re.compile(r"Match|match| m$"), "match"),
    (re.compile(r"\bKO\b|Grand Prix|World Cup"), "knockout"),
]


def speed_control_by_name(name: str) -> str:
    if "Blitz" in name:
        return "blitz"
    if "Rapid" in name:
        return "rapid"
    return "speed-unknown"


def label_b(b_rows, named):
    """Event name, kind and control of every file-B game."""
    table = {r["raw_event"]: r for r in named}
    unknown_names = set(table) - {g["raw_event"] for g in b_rows}
    if unknown_names:
        sys.exit(f"events-named.csv: not in file B: {sorted(unknown_names)}")
    for g in b_rows:
        t = table.get(g["raw_event"])
        if t is not None:
            g["event"], g["kind"], g["kind_from"] = t["event"], t["kind"], "table"
            g["event_players"] = t["players"]
            g["control"] = ((t["speed_control"] or speed_control_by_name(g["raw_event"]))
                            if g["speed"] else (t["classical_control"] or "classical"))
            continue
        kind = next((k for rx, k in NAME_RULES if rx.search(g["raw_event"])), "unknown")
        g["event"], g["kind"], g["kind_from"] = g["raw_event"], kind, "name"
        g["control"] = speed_control_by_name(g["raw_event"]) if g["speed"] else (
            "speed-unknown" if re.search(r"\bTB\b", g["raw_event"]) else "classical")


def attach_to_b_events(a_rows, b_rows):
    """File-A games inside a file-B event (dates within a day of it, a player of it) join
    that event.  Returns the games that joined none."""
    spans: dict[str, list] = {}
    for g in b_rows:
        s = spans.setdefault(g["event"], [day(g["date"]), day(g["date"]), set(), g, False])
        s[0], s[1] = min(s[0], day(g["date"])), max(s[1], day(g["date"]))
        s[2].update((g["white"], g["black"]))
        s[4] = s[4] or g["control"] == "classical"
    slack = dt.timedelta(days=DATE_SLACK_DAYS)
    rest = []
    for g in a_rows:
        d = day(g["date"])
        hit = [(e, s) for e, s in spans.items()
               if s[0] - slack <= d <= s[1] + slack and {g["white"], g["black"]} & s[2]]
        if not hit:
            rest.append(g)
            continue
        # a player is at one event at a time: prefer the event that has both players
        e, s = max(hit, key=lambda h: (len({g["white"], g["black"]} & h[1][2]), h[0]))
        g["event"], g["kind"], g["kind_from"] = e, s[3]["kind"], s[3]["kind_from"]
        g["event_players"] = s[3].get("event_players", "")
        g["control"] = "classical" if s[4] and not g["same_day"] else "speed-unknown"
    return rest


def clusters(rows) -> list[list[dict]]:
    """Games linked by a player who plays them at most CLUSTER_GAP_DAYS apart."""
    parent = list(range(len(rows)))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    by_player = defaultdict(list)
    for i, g in enumerate(rows):
        by_player[g["white"]].append(i)
        by_player[g["black"]].append(i)
    for idx in by_player.values():
        idx.sort(key=lambda i: rows[i]["date"])
        for x, y in zip(idx, idx[1:]):
            if (day(rows[y]["date"]) - day(rows[x]["date"])).days <= CLUSTER_GAP_DAYS:
                parent[find(x)] = find(y)
    groups = defaultdict(list)
    for i in range(len(rows)):
        groups[find(i)].append(rows[i])
    return sorted(groups.values(), key=lambda gs: (min(g["date"] for g in gs), len(gs)))


def identify(rows, identified):
    """Events of events-identified.csv: among the games inside the event's dates, the groups of
    games linked by a player (``clusters``) that hold one of the event's anchor players."""
    taken: set[int] = set()
    for t in identified:
        lo, hi = day(t["first_day"]), day(t["last_day"])
        anchors = {a.strip() for a in t["anchors"].split(";")}
        inside = [g for g in rows if lo <= day(g["date"]) <= hi and id(g) not in taken]
        found = False
        for c in clusters(inside):
            if not any(g["white"] in anchors or g["black"] in anchors for g in c):
                continue
            found = True
            for g in c:
                taken.add(id(g))
                g["event"], g["kind"], g["kind_from"] = t["event"], t["kind"], "table"
                g["event_players"] = t["players"]
                g["control"] = ("speed-unknown" if t["control"] == "classical" and g["same_day"]
                                else t["control"])
        if not found:
            sys.exit(f"events-identified.csv: no games found for {t['event']}")
    return [g for g in rows if id(g) not in taken]


def is_complete_round_robin(games) -> bool:
    players = {p for g in games for p in (g["white"], g["black"])}
    meets = Counter(frozenset((g["white"], g["black"])) for g in games)
    n = len(players)
    return (n >= MIN_ROUND_ROBIN and len(meets) == n * (n - 1) // 2
            and len(set(meets.values())) == 1)


def infer(rows):
    """Unidentified clusters: a complete round robin of six or more is "round-robin", any other
    group "unknown"; a group in which a third of the games share a day with another game of
    a player is speed, otherwise classical but for those games."""
    for k, c in enumerate(clusters(rows), start=1):
        first, last = min(g["date"] for g in c), max(g["date"] for g in c)
        speed = sum(g["same_day"] for g in c) >= SPEED_SHARE * len(c)
        kind = "round-robin" if is_complete_round_robin(c) and not speed else "unknown"
        for g in c:
            g["event"] = f"unidentified {first}/{last} #{k}"
            g["kind"], g["kind_from"] = kind, "rule"
            g["control"] = "speed-unknown" if speed or g["same_day"] else "classical"


# -- raw/2021-2026: the newer games -----------------------------------------------------------
# Hidden from the data on purpose (test material of the shipped scenarios): no game of a
# Candidates event, nor of rounds 9-11 of the Grand Swiss 2025 (its scenario's checkpoints).
HIDDEN_EVENT = re.compile(r"Candidates")
HIDDEN_ROUNDS = {"FIDE Grand Swiss 2025 Open": 9}
# The World Cup's tiebreaks (FIDE World Cup 2025 regulations): two 15+10 rapid games, then two
# 10+10, then two 5+3 blitz, then two 3+2, then Armageddon.  The k-th rapid (blitz) game of a
# match is at the control of its pair.
TIEBREAK_STEPS = {"rapid": ("rapid-15+10", "rapid-10+10"), "blitz": ("blitz-5+3", "blitz-3+2")}
STAGE = {"classical": 0, "rapid": 1, "blitz": 2, "armageddon": 3}
# Files whose World Cup game numbers count within the match (the others count within a control)
MATCH_NUMBERED = re.compile(r"round-[3-9]")
SPEED_DEFAULT = {"FIDE World Rapid Championship 2022": "rapid-15+10",
                 "2nd UzChess Cup Masters 2025 play-off": "blitz-3+2"}


def flip(spelling: str) -> str:
    """'Surname, Given' -> 'Given Surname' (spaces collapsed); other spellings as they are."""
    s = " ".join(spelling.split())
    if "," not in s:
        return s
    sur, given = (x.strip() for x in s.split(",", 1))
    return f"{given} {sur}".strip()


def resolve_new_names(rows, names: Names) -> dict:
    """Canonical name of every (spelling, FIDE id) of the newer files.  In order: the FIDE id in
    players.csv; the spelling, or its 'Given Surname' form, in players.csv; another spelling of
    the same FIDE id resolved so; else a new player named by the 'Given Surname' form (all
    spellings of one FIDE id take one name).  One FIDE id for two names, or two FIDE ids for
    one name, stop the build."""
    keys = {(g[c], g[c + "_fide_id"]) for g in rows for c in ("white", "black")}
    out: dict = {}
    id_name = dict(names.ids)
    for sp, fid in sorted(keys):
        name = names.ids.get(fid) if fid else None
        name = name or names.by.get(sp.strip().casefold()) or names.by.get(flip(sp).casefold())
        if name:
            out[(sp, fid)] = name
            if fid:
                if id_name.setdefault(fid, name) != name:
                    sys.exit(f"{RAW_NEW.name}: FIDE id {fid} is {id_name[fid]!r} and {name!r}")
    # the most common full spelling of an unknown FIDE id names the new player
    count = Counter(g[c] + "\0" + g[c + "_fide_id"] for g in rows for c in ("white", "black"))
    for sp, fid in sorted(keys, key=lambda k: (-count[k[0] + "\0" + k[1]], k)):
        if (sp, fid) in out:
            continue
        name = id_name.get(fid) if fid else None
        if name is None:
            name = names.by.get(flip(sp).casefold()) or flip(sp)
            if fid:
                id_name[fid] = name
        out[(sp, fid)] = name
    owner: dict = {}
    for fid, name in id_name.items():
        if owner.setdefault(name, fid) != fid:
            sys.exit(f"{RAW_NEW.name}: {name!r} has two FIDE ids, {owner[name]} and {fid}")
    return out


def match_game_number(g) -> int:
    r = g["raw_round"]
    return int(r.split(".", 1)[1]) if "." in r and r.split(".", 1)[1].isdigit() else 0


def label_tiebreaks(rows):
    """The World Cup's rapid and blitz games: their control by their place in the match
    (TIEBREAK_STEPS).  A match whose games, by number, do not run classical -> rapid -> blitz ->
    Armageddon (the source misfiled some) keeps only games 1-2 as classical; its other games
    become speed-unknown."""
    days = defaultdict(set)
    for g in rows:
        if g["kind"] == "knockout":
            days[g["event"]].add(g["date"])
    for g in rows:
        # games 1 and 2 on the round's first two days are its classical games (the source
        # files round 2's classical games, 4 and 5 November, as blitz)
        if (g["kind"] == "knockout" and g["date"] in sorted(days[g["event"]])[:2]
                and match_game_number(g) in (1, 2)):
            g["control"], g["time_control"] = "classical", "classical"
    matches = defaultdict(list)
    for g in rows:
        if g["kind"] == "knockout":
            matches[(g["event"], frozenset((g["white"], g["black"])))].append(g)
    for gs in matches.values():
        gs.sort(key=lambda g: (g["date"], match_game_number(g)))
        by_number = sorted(gs, key=match_game_number)
        if any(MATCH_NUMBERED.search(g["raw_source"]) for g in gs):
            stages = [STAGE.get(g["control"], 9) for g in by_number]
            ok = stages == sorted(stages) and all(
                g["control"] != "classical" or match_game_number(g) <= 2 for g in gs)
            if not ok:
                for g in gs:
                    if not (g["control"] == "classical" and match_game_number(g) <= 2):
                        g["control"], g["time_control"] = "speed-unknown", ""
                continue
        for ctl, steps in TIEBREAK_STEPS.items():
            own = [g for g in by_number if g["control"] == ctl]
            for k, g in enumerate(own):
                g["time_control"] = steps[k // 2] if k // 2 < len(steps) else ""


def read_new(names: Names):
    """The games of raw/2021-2026/*.csv, named, labelled by events-2021-2026.csv, the hidden
    events left out (there are none in the files; the rule keeps it so)."""
    table = {r["event"]: r for r in read_table("events-2021-2026.csv")}
    rows, hidden = [], 0
    for f in sorted(RAW_NEW.glob("*.csv")):
        with open(f, encoding="utf-8", newline="") as fh:
            for i, r in enumerate(csv.DictReader(fh), start=2):
                rn = r["round"].split(".")[0]
                if HIDDEN_EVENT.search(r["event"]) or (
                        r["event"] in HIDDEN_ROUNDS and int(rn) >= HIDDEN_ROUNDS[r["event"]]):
                    hidden += 1
                    continue
                t = table.get(r["event"])
                if t is None:
                    sys.exit(f"{f.name}:{i}: event {r['event']!r} is not in events-2021-2026.csv")
                if r["control"] not in GAME_CONTROLS:
                    sys.exit(f"{f.name}:{i}: unknown control {r['control']!r}")
                rows.append({**r, "raw_round": r["round"], "raw_source": r["source"],
                             "kind": t["kind"], "kind_from": "table",
                             "event_players": t["players"], "file": f.name,
                             "white_rating": int(r["white_rating"]),
                             "black_rating": int(r["black_rating"]),
                             "source": "2021-2026/" + f.name,
                             "armageddon": t["armageddon"]})
    canon = resolve_new_names(rows, names)
    for g in rows:
        g["white"] = canon[(g["white"], g["white_fide_id"])]
        g["black"] = canon[(g["black"], g["black_fide_id"])]
        if g["white"] == g["black"]:
            sys.exit(f"{g['file']}: {g['white']!r} plays himself on {g['date']}")
        c = g["control"]
        arm = f"armageddon-{g['armageddon']}" if g["armageddon"] else ""
        g["time_control"] = ("classical" if c == "classical" else arm if c == "armageddon"
                             else SPEED_DEFAULT.get(g["event"], ""))
        # the round: the event's round (Grand Swiss "5.12" is round 5, board 12; World Cup
        # "3.4" is round 3, game 4 of the match)
        g["round"] = g["raw_round"].split(".")[0]
    label_tiebreaks(rows)
    return rows, hidden


def drop_repeats(old, new):
    """A newer-file game that the older data already hold: same players, colours and result,
    dates at most a day apart.  (Within the newer files a pairing repeats on one day by the
    events' rules, an Armageddon after a drawn game, tiebreak games: the files were
    deduplicated at their source, README.md.)"""
    index = defaultdict(list)
    for g in old:
        index[(g["white"], g["black"], g["result"])].append(day(g["date"]))
    keep, dropped = [], 0
    for g in new:
        k = (g["white"], g["black"], g["result"])
        if any(abs((d - day(g["date"])).days) <= DATE_SLACK_DAYS for d in index[k]):
            dropped += 1
            continue
        keep.append(g)
    return keep, dropped


# -- shipped scenarios --------------------------------------------------------------------------
def scenario_games(names: Names) -> list[dict]:
    out = []
    cand = tomllib.loads((ROOT / "scenarios" / "candidates-2022.toml").read_text(encoding="utf-8"))
    rating = {names(p["name"], "candidates-2022.toml"): p["rating"] for p in cand["players"]}
    for r in cand["rounds"]:
        for w, b, res in r["games"]:
            w, b = names(w, "candidates-2022.toml"), names(b, "candidates-2022.toml")
            out.append({"date": r["date"], "event": "Candidates 2022", "kind": "candidates",
                        "kind_from": "table", "event_players": len(cand["players"]),
                        "control": "classical", "round": r["round"], "white": w, "black": b, "white_rating": rating[w],
                        "black_rating": rating[b], "result": res,
                        "source": "scenarios/candidates-2022.toml"})
    gp = tomllib.loads((ROOT / "scenarios" / "grand-prix-2022.toml").read_text(encoding="utf-8"))
    # The source gives no game dates: each leg's games carry its first day, as the scenario's
    # event names give it ("Berlin 1 (3-17 February 2022)", ...); "round" orders them.
    starts = {"Berlin 1": "2022-02-03", "Belgrade": "2022-02-28", "Berlin 2": "2022-03-21"}
    for ev in gp["events"]:
        leg = ev["name"].split(" (")[0]
        ratings = {names(k, "grand-prix-2022.toml"): v for k, v in ev["ratings"].items()}
        for grp in ev["groups"]:
            for rn, w, b, res in grp["games"]:
                w, b = names(w, "grand-prix-2022.toml"), names(b, "grand-prix-2022.toml")
                out.append({"date": starts[leg], "event": f"FIDE Grand Prix 2022 {leg} pools",
                            "kind": "group-stage", "kind_from": "table", "control": "classical",
                            "round": rn, "white": w, "black": b, "white_rating": ratings[w],
                            "black_rating": ratings[b], "result": res,
                            "source": "scenarios/grand-prix-2022.toml"})
    return out


# -- the whole build ------------------------------------------------------------------------------
def build(show_clusters: bool = False) -> tuple[str, dict]:
    names = Names()
    a_rows, a_repeats = read_a(names)
    b_rows, b_same_name = read_b(names)
    a_rows, a_in_b = drop_overlap(a_rows, b_rows)
    mark_same_day(a_rows, b_rows)
    label_b(b_rows, read_table("events-named.csv"))
    rest = attach_to_b_events(a_rows, b_rows)
    rest = identify(rest, read_table("events-identified.csv"))
    if show_clusters:
        for c in clusters(rest):
            ps = sorted({p for g in c for p in (g["white"], g["black"])})
            print(f"{min(g['date'] for g in c)}..{max(g['date'] for g in c)} games={len(c):3d} "
                  f"same_day={sum(g['same_day'] for g in c):3d} {'; '.join(ps)[:140]}")
    infer(rest)
    games = [*b_rows, *a_rows, *scenario_games(names)]
    new_rows, hidden = read_new(names)
    new_rows, new_repeats = drop_repeats(games, new_rows)
    for g in games:
        g.setdefault("round", "")
        g.setdefault("event_players", "")
        g["time_control"] = "classical" if g["control"] == "classical" else ""
    games += new_rows
    games.sort(key=lambda g: (g["date"], g["event"], str(g["round"]), g["white"], g["black"]))
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    w.writerows(games)
    stats = {"file A repeats dropped": a_repeats, "file A games also in file B": a_in_b,
             "file B games between two players of one name dropped": b_same_name,
             "newer games already in the data dropped": new_repeats,
             "newer games of hidden events dropped": hidden,
             "games": len(games),
             "by source": dict(Counter(g["source"] for g in games)),
             "by control": dict(Counter(g["control"] for g in games)),
             "by time control": dict(Counter(g["time_control"] for g in games)),
             "classical by kind": dict(Counter(g["kind"] for g in games
                                               if g["control"] == "classical"))}
    return buf.getvalue(), stats


def main(argv: list[str]) -> int:
    text, stats = build(show_clusters="--clusters" in argv)
    if "--check" in argv:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("games.csv is up to date" if same else "games.csv differs from a fresh build")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    for k, v in stats.items():
        print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
