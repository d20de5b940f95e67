"""Round-robin events (the Candidates Tournament): scenario loading, standings, odds, and the
compiled Plan that the ``kernels.roundrobin_nb`` kernel simulates.  Plain Python."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..enums import PLAYOFF_KINDS, RR_CRITERIA, TB_HEAD_TO_HEAD, TB_LOTS, TB_SONNEBORN_BERGER, TB_WINS
from ..errors import ScenarioError
from ..kinds import KINDS
from .common import Checker, PlayerIndex, read_player, result_code

FORMAT_FEATURES = frozenset({"hot-elo"})

COUNTER_NAMES = ["play-off for first needed", "play-off reached its second stage",
                 "play-off reached its third stage", "lots decided a place"]


@dataclass(frozen=True)
class Player:
    name: str
    federation: str
    ratings: dict
    aliases: tuple


@dataclass(frozen=True)
class Game:
    round: int
    white: int
    black: int
    result: int  # 0 white won, 1 draw, 2 black won, -1 not played


@dataclass(frozen=True)
class RoundRobin:
    name: str
    file: str
    source: str
    model_file: str | None
    players: tuple
    cycles: int
    control: str
    schedule: str
    qualifying_places: int
    games: tuple            # every scheduled game, in round order
    n_rounds: int
    playoff_places: int
    stages: tuple           # ((min, max, kind name, control), ...) per stage
    order: tuple            # criteria names
    prize_places: tuple
    per_half_point: float
    fund: float | None
    currency: str
    playoff_winner: int | None
    kind: str = "round-robin"   # event kind (simcycle.kinds): the model's draw term


# -- schedules ---------------------------------------------------------------------------------
def berger_rounds(n: int, cycles: int = 1):
    """FIDE Berger tables: list of rounds, each a list of (white, black) player indices.

    Odd n gets a bye (pairings against the dummy are dropped).  In a double round robin the
    last two rounds of the first cycle are swapped and the second cycle repeats the first
    with colours reversed (FIDE Handbook C.05 Annex 1, digested in FORMATS.md §1).
    """
    m = n + (n % 2)
    last = m - 1
    single = []
    for k in range(m - 1):
        pairs = []
        # the fixed (last) player meets the one with 2a = k (mod m-1); Black in odd rounds
        a = next(x for x in range(m - 1) if (2 * x) % (m - 1) == k)
        pairs.append((a, last) if k % 2 == 0 else (last, a))
        for x in range(m - 1):
            y = (k - x) % (m - 1)
            if x < y and x != a:
                # White is the one whose difference to the other is even (mod m-1)
                pairs.append((x, y) if (x - y) % (m - 1) % 2 == 0 else (y, x))
        single.append([(w, b) for w, b in pairs if w < n and b < n])
    rounds = []
    for c in range(cycles):
        cyc = [list(r) for r in single]
        if cycles > 1 and c == 0 and len(cyc) >= 2:
            cyc[-1], cyc[-2] = cyc[-2], cyc[-1]
        if c % 2 == 1:
            cyc = [[(b, w) for w, b in r] for r in rounds[: len(single)]]
        rounds.extend(cyc)
    return rounds


# -- loading -----------------------------------------------------------------------------------
def load(path: Path, raw: dict) -> RoundRobin:
    f = str(path)
    ck = Checker(f)
    ck.unknown_keys(raw, {"scenario", "event", "tiebreak", "prizes", "players", "rounds"}, "")
    head = ck.table(raw, "scenario")
    ck.unknown_keys(head, {"name", "format", "source", "model", "notes", "kind"}, "scenario")
    name = ck.get(head, "name", "scenario", str)
    event_kind = ck.get(head, "kind", "scenario", str, default="round-robin", choices=tuple(KINDS))
    model_file = ck.get(head, "model", "scenario", str, default=None)
    if model_file is not None and not Path(model_file).is_absolute():
        model_file = str((path.parent / model_file).resolve()) if not Path(model_file).exists() else model_file

    plist = raw.get("players")
    if not isinstance(plist, list) or len(plist) < 2:
        ck.fail("need a [[players]] list of at least two players", "players")
    idx = PlayerIndex(ck)
    players = []
    for i, p in enumerate(plist):
        name_i, ratings, aliases, fed = read_player(ck, idx, p, f"players[{i}]")
        players.append(Player(name_i, fed, ratings, aliases))
    n = len(players)

    ev = ck.table(raw, "event")
    ck.unknown_keys(ev, {"cycles", "control", "schedule", "qualifying_places"}, "event")
    cycles = ck.get(ev, "cycles", "event", int, default=1, lo=1, hi=8)
    control = ck.get(ev, "control", "event", str, default="classical")
    schedule = ck.get(ev, "schedule", "event", str, default="berger", choices=("explicit", "berger"))
    nq = ck.get(ev, "qualifying_places", "event", int, default=1, lo=0, hi=n)

    tb = ck.table(raw, "tiebreak", required=False)
    ck.unknown_keys(tb, {"playoff_places", "playoff", "order", "playoff_winner"}, "tiebreak")
    playoff_places = ck.get(tb, "playoff_places", "tiebreak", int, default=0, lo=0, hi=1)
    stages = []
    for s, stage in enumerate(ck.get(tb, "playoff", "tiebreak", list, default=[])):
        key = f"tiebreak.playoff[{s}]"
        if isinstance(stage, dict):
            stage = [stage]
        if not isinstance(stage, list) or not stage:
            ck.fail("a stage is a list of options {tied = [min, max], kind, control}", key, stage)
        opts = []
        for o, opt in enumerate(stage):
            k2 = f"{key}[{o}]"
            if not isinstance(opt, dict):
                ck.fail("must be an inline table {tied = [min, max], kind, control}", k2, opt)
            ck.unknown_keys(opt, {"tied", "kind", "control"}, k2)
            tied = ck.get(opt, "tied", k2, list)
            if (len(tied) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in tied)
                    or not 2 <= tied[0] <= tied[1]):
                ck.fail("tied must be [min, max] with 2 <= min <= max", f"{k2}.tied", tied)
            kind = ck.get(opt, "kind", k2, str, choices=tuple(k for k in PLAYOFF_KINDS if k != "paired-knockout"))
            if kind in ("match", "armageddon") and tied[1] > 2:
                ck.fail(f"a {kind} is for two players: use tied = [2, 2]", f"{k2}.tied", tied)
            ctl = ck.get(opt, "control", k2, str, default=control)
            opts.append((tied[0], tied[1], kind, ctl))
        stages.append(tuple(opts))
    order = ck.get(tb, "order", "tiebreak", list, default=["sonneborn-berger", "wins", "head-to-head", "lots"])
    for j, c in enumerate(order):
        if c not in RR_CRITERIA:
            ck.fail("unknown criterion; known: " + ", ".join(RR_CRITERIA), f"tiebreak.order[{j}]", c)
    if len(set(order)) != len(order):
        ck.fail("a criterion is listed twice", "tiebreak.order", order)
    pw = tb.get("playoff_winner")
    playoff_winner = None if pw is None else idx.find(pw, "tiebreak.playoff_winner")

    pr = ck.table(raw, "prizes", required=False)
    ck.unknown_keys(pr, {"currency", "places", "per_half_point", "fund"}, "prizes")
    places = ck.get(pr, "places", "prizes", list, default=[])
    for j, x in enumerate(places):
        if isinstance(x, bool) or not isinstance(x, (int, float)) or x < 0:
            ck.fail("prize must be a number >= 0", f"prizes.places[{j}]", x)
    if len(places) > n:
        ck.fail(f"more place prizes than players ({n})", "prizes.places", len(places))
    per_half = ck.get(pr, "per_half_point", "prizes", float, default=0.0, lo=0)
    fund = ck.get(pr, "fund", "prizes", float, default=None, lo=0)
    currency = ck.get(pr, "currency", "prizes", str, default="")

    # schedule and results
    n_rounds = (n - 1 + n % 2) * cycles
    rlist = raw.get("rounds", [])
    if not isinstance(rlist, list):
        ck.fail("must be a list of [[rounds]] tables", "rounds")
    entered: dict[int, list] = {}
    for i, r in enumerate(rlist):
        where = f"rounds[{i}]"
        if not isinstance(r, dict):
            ck.fail("must be a table", where)
        ck.unknown_keys(r, {"round", "date", "games"}, where)
        rn = ck.get(r, "round", where, int)
        if not 1 <= rn <= n_rounds:
            ck.fail(f"no such round: {n} players over {cycles} cycle(s) play {n_rounds} rounds",
                    f"{where}.round", rn)
        if rn in entered:
            ck.fail("round entered twice", f"{where}.round", rn)
        glist = ck.get(r, "games", where, list, default=[])
        games = []
        seen = set()
        for j, g in enumerate(glist):
            key = f"{where}.games[{j}]"
            if not isinstance(g, list) or len(g) != 3:
                ck.fail('a game is ["White", "Black", "result"]', key, g)
            w = idx.find(g[0], f"{key} (White)")
            b = idx.find(g[1], f"{key} (Black)")
            if w == b:
                ck.fail("a player cannot play himself", key, g[0])
            res = result_code(g[2], ck, f"{key} (result)")
            for p in (w, b):
                if p in seen:
                    ck.fail(f"{players[p].name} plays twice in round {rn}", key, g)
                seen.add(p)
            games.append((w, b, res, key))
        entered[rn] = games

    if schedule == "explicit":
        for rn in range(1, n_rounds + 1):
            if rn not in entered:
                ck.fail(f"explicit schedule: round {rn} is missing (a round robin of {n} players "
                        f"over {cycles} cycle(s) has {n_rounds} rounds)", "rounds")
            if len(entered[rn]) != n // 2:
                ck.fail(f"round {rn} must list {n // 2} games", "rounds", len(entered[rn]))
        meets: dict[tuple, int] = {}
        for rn, gl in entered.items():
            for w, b, _, key in gl:
                pair = (min(w, b), max(w, b))
                meets[pair] = meets.get(pair, 0) + 1
                if meets[pair] > cycles:
                    ck.fail(f"{players[w].name} and {players[b].name} meet more than {cycles} "
                            "time(s)", key)
        all_games = tuple(Game(rn, w, b, res) for rn in sorted(entered) for w, b, res, _ in entered[rn])
    else:
        sched = berger_rounds(n, cycles)
        res_of = {}
        for rn, gl in entered.items():
            scheduled = set(sched[rn - 1])
            for w, b, res, key in gl:
                if (w, b) not in scheduled:
                    other = [(x, y) for x, y in scheduled if {x, y} == {w, b}]
                    hint = (f"; in round {rn} {players[other[0][0]].name} has White" if other
                            else f"; they do not meet in round {rn}")
                    ck.fail("game not in the Berger schedule" + hint, key,
                            f"{players[w].name} - {players[b].name}")
                res_of[(rn, w, b)] = res
        all_games = tuple(Game(rn + 1, w, b, res_of.get((rn + 1, w, b), -1))
                          for rn, r in enumerate(sched) for w, b in r)

    return RoundRobin(name=name, file=f, source=head.get("source", ""), model_file=model_file,
                      players=tuple(players), cycles=cycles, control=control, schedule=schedule,
                      qualifying_places=nq, games=all_games, n_rounds=n_rounds,
                      playoff_places=playoff_places, stages=tuple(stages), order=tuple(order),
                      prize_places=tuple(float(x) for x in places), per_half_point=per_half,
                      fund=fund, currency=currency, playoff_winner=playoff_winner, kind=event_kind)


# -- checkpoints ---------------------------------------------------------------------------------
def checkpoints(scn: RoundRobin) -> list[str]:
    out = ["start"]
    for rn in range(1, scn.n_rounds + 1):
        if all(g.result >= 0 for g in scn.games if g.round == rn):
            out.append(f"round{rn}")
        else:
            break
    return out


def _last_round(scn, at) -> int:
    if at is None:
        return scn.n_rounds
    return 0 if at == "start" else int(at[len("round"):])


def split_games(scn: RoundRobin, at, fixed=None):
    """(played, remaining) at checkpoint ``at`` (None: every result in the file).

    ``fixed`` maps (round, white, black) to a result code assumed for a game still to play
    (what-if analysis: ``swing``)."""
    last = _last_round(scn, at)
    played, remaining = [], []
    for g in scn.games:
        if g.result >= 0 and g.round <= last:
            played.append(g)
        elif fixed and (g.round, g.white, g.black) in fixed:
            played.append(Game(g.round, g.white, g.black, fixed[(g.round, g.white, g.black)]))
        else:
            remaining.append(g)
    return played, remaining


def tally(n: int, played):
    """Half points, wins, and the n x n table of half points scored by i against j."""
    pts = [0] * n
    wins = [0] * n
    res = [[0] * n for _ in range(n)]
    for g in played:
        sw, sb = {0: (2, 0), 1: (1, 1), 2: (0, 2)}[g.result]
        pts[g.white] += sw
        pts[g.black] += sb
        res[g.white][g.black] += sw
        res[g.black][g.white] += sb
        wins[g.white] += g.result == 0
        wins[g.black] += g.result == 2
    return pts, wins, res


def sonneborn_berger(pts, res):
    """Quarter points: sum over opponents of (half points scored against j) x (j's half points)."""
    n = len(pts)
    return [sum(res[i][j] * pts[j] for j in range(n)) for i in range(n)]


def rank_groups(scn: RoundRobin, pts, wins, res, sb, first=None):
    """Players in order, grouped where every criterion but lots leaves them level."""
    groups = [sorted(range(len(pts)), key=lambda i: -pts[i])]
    groups = _split(groups, lambda i, g: pts[i])
    if first is not None and first in groups[0] and len(groups[0]) > 1:
        groups = [[first], [p for p in groups[0] if p != first]] + groups[1:]
    for crit in scn.order:
        code = RR_CRITERIA[crit]
        if code == TB_LOTS:
            continue
        if code == TB_SONNEBORN_BERGER:
            groups = _split(groups, lambda i, g: sb[i])
        elif code == TB_WINS:
            groups = _split(groups, lambda i, g: wins[i])
        elif code == TB_HEAD_TO_HEAD:
            groups = _split(groups, lambda i, g: sum(res[i][j] for j in g))
    return groups


def _split(groups, value):
    out = []
    for g in groups:
        if len(g) == 1:
            out.append(g)
            continue
        ordered = sorted(g, key=lambda i: -value(i, g))
        cur = [ordered[0]]
        for i in ordered[1:]:
            if value(i, g) == value(cur[-1], g):
                cur.append(i)
            else:
                out.append(cur)
                cur = [i]
        out.append(cur)
    return out


# -- standings ------------------------------------------------------------------------------------
def standings(scn: RoundRobin, at) -> dict:
    n = len(scn.players)
    played, remaining = split_games(scn, at)
    pts, wins, res = tally(n, played)
    sb = sonneborn_berger(pts, res)
    final = not remaining
    groups = rank_groups(scn, pts, wins, res, sb, scn.playoff_winner if final else None)
    games = [0] * n
    for g in played:
        games[g.white] += 1
        games[g.black] += 1
    prize_of = {}
    if final:
        pos = 0
        for grp in groups:
            share = sum(scn.prize_places[pos + k] if pos + k < len(scn.prize_places) else 0.0
                        for k in range(len(grp))) / len(grp)
            for p in grp:
                prize_of[p] = share + scn.per_half_point * pts[p]
            pos += len(grp)
    rows = []
    pos = 0
    for grp in groups:
        for p in grp:
            rows.append({
                "name": scn.players[p].name,
                "rank": pos + 1,
                "shared": len(grp) > 1,
                "points": pts[p] / 2,
                "sb": sb[p] / 4,
                "wins": wins[p],
                "games": games[p],
                "prize": prize_of.get(p),
            })
        pos += len(grp)
    d = {"scenario": scn.name, "file": scn.file, "at": at or "latest",
         "rounds_played": max((g.round for g in played), default=0), "final": final,
         "currency": scn.currency, "players": rows}
    if final:
        total = sum(prize_of.values())
        d["prize_total"] = total
        if scn.fund is not None and abs(total - scn.fund) > 0.5:
            d["prize_warning"] = f"prizes sum to {total:,.0f}, the fund is {scn.fund:,.0f}"
    if groups and len(groups[0]) > 1:
        d["note"] = ("level for first on every criterion: a play-off decides" if final
                     else None)
    return d


def _fmt_pts(x: float) -> str:
    whole = int(x)
    return (str(whole) if whole or x == 0 else "") + ("½" if x - whole else "")


def render_standings(d: dict) -> str:
    lines = [f"{d['scenario']}  at {d['at']}  (rounds played: {d['rounds_played']}"
             f"{', final' if d['final'] else ''})", ""]
    head = f"{'rank':>5}  {'player':<26}{'pts':>6}{'SB':>8}{'wins':>6}{'games':>7}"
    if d["final"]:
        head += f"{'prize ' + (d['currency'] or ''):>14}"
    lines += [head, "-" * len(head)]
    for p in d["players"]:
        rank = ("=" if p["shared"] else "") + str(p["rank"])
        line = (f"{rank:>5}  {p['name'][:25]:<26}{_fmt_pts(p['points']):>6}{p['sb']:8.2f}"
                f"{p['wins']:6d}{p['games']:7d}")
        if d["final"]:
            line += f"{p['prize']:14,.0f}"
        lines.append(line)
    if d.get("prize_total") is not None:
        lines.append(f"\nprize money in all: {d['prize_total']:,.0f} {d['currency']}")
    if d.get("prize_warning"):
        lines.append("warning: " + d["prize_warning"])
    if d.get("note"):
        lines.append("note: " + d["note"])
    return "\n".join(lines)


# -- odds -----------------------------------------------------------------------------------------
def game_probabilities(scn: RoundRobin, model, games):
    ci_name = scn.control
    model.index(ci_name, file=scn.file, key="event.control")
    out = []
    for g in games:
        rw = model.rating(scn.players[g.white].ratings, ci_name)
        rb = model.rating(scn.players[g.black].ratings, ci_name)
        out.append(model.wdl(ci_name, rw, rb))
    return out


def odds(scn: RoundRobin, model, at) -> dict:
    _, remaining = split_games(scn, at)
    probs = game_probabilities(scn, model, remaining)
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest", "control": scn.control,
            "model": {"name": model.name, "version": model.version},
            "games": [{"round": g.round, "white": scn.players[g.white].name,
                       "black": scn.players[g.black].name, "p_white": pw, "p_draw": pd,
                       "p_black": pb} for g, (pw, pd, pb) in zip(remaining, probs)]}


def render_odds(d: dict) -> str:
    lines = [f"{d['scenario']}  at {d['at']}: {len(d['games'])} games to play "
             f"({d['control']}, model {d['model']['name']} {d['model']['version']})", ""]
    head = f"{'round':>5}  {'White':<24}{'Black':<24}{'1-0 %':>7}{'draw %':>8}{'0-1 %':>7}"
    lines += [head, "-" * len(head)]
    for g in d["games"]:
        lines.append(f"{g['round']:>5}  {g['white'][:23]:<24}{g['black'][:23]:<24}"
                     f"{100 * g['p_white']:7.1f}{100 * g['p_draw']:8.1f}{100 * g['p_black']:7.1f}")
    return "\n".join(lines)


# -- compile --------------------------------------------------------------------------------------
class RoundRobinPlan:
    """Flat arrays for ``kernels.roundrobin_nb.simulate_round_robin_nb``."""

    counter_names = COUNTER_NAMES

    def __init__(self, scn: RoundRobin, model, at, offsets: bool = False, fixed=None,
                 hot: bool = False):
        import numpy as np

        n = len(scn.players)
        self.names = [p.name for p in scn.players]
        self.n_places = n
        self.points_scale = 2.0
        self.qualifying_places = scn.qualifying_places
        self.currency = scn.currency
        self.offsets = bool(offsets)
        played, remaining = split_games(scn, at, fixed)
        pts, wins, res = tally(n, played)
        self.base_pts = np.array(pts, np.int64)
        self.base_wins = np.array(wins, np.int64)
        self.base_res = np.array(res, np.int64)
        self.gw = np.array([g.white for g in remaining], np.int64)
        self.gb = np.array([g.black for g in remaining], np.int64)
        probs = game_probabilities(scn, model, remaining)
        self.thr_w = np.array([p[0] for p in probs], np.float64)
        self.thr_d = np.array([p[0] + p[1] for p in probs], np.float64)
        self.game_ci = model.index(scn.control)
        self.params = model.params
        self.rt = model.rating_table([p.ratings for p in scn.players])
        self.offset_sd = np.array([model.offset_sd[c] for c in ("classical", "rapid", "blitz")])
        if hot and offsets:
            raise ScenarioError("choose strength offsets or hot Elo, not both", key="--hot-elo")
        self.hot_k = np.array([model.hot_k[c] if hot else 0.0
                               for c in ("classical", "rapid", "blitz")])
        self.criteria = np.array([RR_CRITERIA[c] for c in scn.order] +
                                 ([] if "lots" in scn.order else [TB_LOTS]), np.int64)
        # a run always ends in a strict order: lots close every cascade
        n_opt = max((len(s) for s in scn.stages), default=1)
        self.stages = np.zeros((len(scn.stages), n_opt, 4), np.int64)
        for s, stage in enumerate(scn.stages):
            for o, (lo, hi, kind, ctl) in enumerate(stage):
                self.stages[s, o] = (lo, hi, PLAYOFF_KINDS[kind],
                                     model.index(ctl, file=scn.file, key=f"tiebreak.playoff[{s}][{o}].control"))
        self.playoff_first = scn.playoff_places >= 1
        # a play-off already played after the last round decides first place
        self.forced_first = (scn.playoff_winner if scn.playoff_winner is not None and not remaining
                             else -1)
        self.place_prize = np.zeros(n)
        self.place_prize[: len(scn.prize_places)] = scn.prize_places
        self.per_half = float(scn.per_half_point)

    def run_batch(self, seed: int, first: int, n: int) -> dict:
        import numpy as np

        from ..driver import ChunkTallies
        from ..kernels.roundrobin_nb import N_COUNTERS, simulate_round_robin_nb

        t = ChunkTallies(n, len(self.names), self.n_places, N_COUNTERS)
        simulate_round_robin_nb(
            np.uint64(seed), np.int64(first), np.int64(n), self.base_pts, self.base_wins,
            self.base_res, self.gw, self.gb, self.thr_w, self.thr_d, np.int64(self.game_ci),
            self.params, self.rt, self.offsets, self.offset_sd, bool(self.hot_k.any()),
            self.hot_k, self.criteria,
            self.playoff_first, np.int64(self.forced_first), self.stages,
            np.int64(self.qualifying_places), self.place_prize, self.per_half,
            t.place, t.qualify, t.points, t.points_sq, t.prize, t.prize_sq, t.counters)
        return t.summed()


def compile(scn: RoundRobin, model, at, offsets: bool = False, fixed=None,
            hot: bool = False) -> RoundRobinPlan:
    return RoundRobinPlan(scn, model, at, offsets, fixed, hot)


# -- swing -----------------------------------------------------------------------------------------
def swing(scn: RoundRobin, model, at, *, sims: int, seed: int, offsets: bool = False,
          round_no: int | None = None) -> dict:
    """What each game of the next round (or of ``round_no``) swings.

    For every game and each of its three results, the rest of the event is simulated with
    that result assumed, on common random numbers (same seed, same replicas), so that the
    differences between the three columns carry little Monte Carlo noise.
    """
    from .. import driver

    _, remaining = split_games(scn, at)
    if not remaining:
        raise ScenarioError("nothing left to play at this checkpoint", file=scn.file, key="--at",
                            value=at or "latest")
    rn = round_no if round_no is not None else min(g.round for g in remaining)
    games = [g for g in remaining if g.round == rn]
    if not games:
        raise ScenarioError("no game of that round is still to play", file=scn.file,
                            key="--round", value=rn)
    names = [p.name for p in scn.players]
    base = driver.run(compile(scn, model, at, offsets), sims, seed, progress=False)
    out_games = []
    for g, (pw, pd, pb) in zip(games, game_probabilities(scn, model, games)):
        cols = []
        for code, label, p in ((0, "1-0", pw), (1, "1/2-1/2", pd), (2, "0-1", pb)):
            res = driver.run(compile(scn, model, at, offsets, {(g.round, g.white, g.black): code}),
                             sims, seed, progress=False)
            cols.append((label, p, res))
        players = []
        for i in range(len(names)):
            pf = [c[2].tallies["place"][i, 0] / c[2].sims for c in cols]
            pq = [c[2].tallies["qualify"][i] / c[2].sims for c in cols]
            players.append({"name": names[i], "p_first": dict(zip(("1-0", "1/2-1/2", "0-1"), pf)),
                            "p_qualify": dict(zip(("1-0", "1/2-1/2", "0-1"), pq)),
                            "swing_first": max(pf) - min(pf), "swing_qualify": max(pq) - min(pq)})
        players.sort(key=lambda x: -(x["swing_first"] + x["swing_qualify"]))
        out_games.append({"round": g.round, "white": names[g.white], "black": names[g.black],
                          "p_white": pw, "p_draw": pd, "p_black": pb,
                          "players": players})
    out_games.sort(key=lambda x: -(x["players"][0]["swing_first"] + x["players"][0]["swing_qualify"]))
    bq = base.tallies["qualify"] / base.sims
    bf = base.tallies["place"][:, 0] / base.sims
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest", "round": rn,
            "sims": sims, "seed": seed, "qualifying_places": scn.qualifying_places,
            "now": [{"name": names[i], "p_first": float(bf[i]), "p_qualify": float(bq[i])}
                    for i in range(len(names))],
            "games": out_games}


def render_swing(d: dict) -> str:
    lines = [f"{d['scenario']}  at {d['at']}: what round {d['round']} swings "
             f"({d['sims']:,} simulations per result, common random numbers)", ""]
    for g in d["games"]:
        lines.append(f"{g['white']} - {g['black']}   1-0 {100 * g['p_white']:.0f} %  "
                     f"draw {100 * g['p_draw']:.0f} %  0-1 {100 * g['p_black']:.0f} %")
        lines.append(f"  {'player':<24}{'P(1st) if 1-0 / = / 0-1':>30}"
                     f"{'P(qualify) if 1-0 / = / 0-1':>34}")
        for p in g["players"]:
            if p["swing_first"] < 0.005 and p["swing_qualify"] < 0.005:
                continue
            f = " / ".join(f"{100 * p['p_first'][k]:5.1f}" for k in ("1-0", "1/2-1/2", "0-1"))
            q = " / ".join(f"{100 * p['p_qualify'][k]:5.1f}" for k in ("1-0", "1/2-1/2", "0-1"))
            lines.append(f"  {p['name'][:23]:<24}{f:>30}{q:>34}")
        lines.append("")
    return "\n".join(lines).rstrip()


def exact(scn: RoundRobin, model, at) -> dict:
    from ..exact import exact_round_robin
    return exact_round_robin(scn, model, at)


# -- who can still ----------------------------------------------------------------------------------
def whocan(scn: RoundRobin, at) -> dict:
    from ..whocan import analyse

    n = len(scn.players)
    played, remaining = split_games(scn, at)
    pts, _, _ = tally(n, played)
    names = [p.name for p in scn.players]
    rem = [(g.round, g.white, g.black) for g in remaining]
    first = analyse(names, pts, rem, 1)
    targets = {"first": first}
    if scn.qualifying_places > 1:
        targets["qualify"] = analyse(names, pts, rem, scn.qualifying_places)
    return {"scenario": scn.name, "file": scn.file, "at": at or "latest",
            "games_left": len(remaining), "qualifying_places": scn.qualifying_places,
            "points": {names[i]: pts[i] / 2 for i in range(n)}, "targets": targets}


def render_whocan(d: dict) -> str:
    from ..whocan import render_targets

    def path(r):
        if not r["path"] or len(r["path"]) > 12:
            return []
        return ["e.g. " + "; ".join(f"r{g['round']} {g['white']} {g['result']} {g['black']}"
                                    for g in r["path"])]

    return render_targets(d, [f"{d['scenario']}  at {d['at']}: {d['games_left']} games left"],
                          qualify_title=f"a qualifying place (top {d['qualifying_places']})",
                          level="level on points, tiebreaks decide", path_lines=path,
                          fmt_points=_fmt_pts)
