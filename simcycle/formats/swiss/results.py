"""``simcycle results`` for a Swiss: what a TRF-16 or broadcast PGN file of the event adds to
the scenario's ``[[rounds]]``, every refusal one line naming the file and the line and column
(TRF) or the game and its line (PGN); ``--write`` appends the rounds the scenario lacks.

Players are matched by FIDE id, else by name or alias (``io.results.Roster``).  A TRF's
``XXR`` must be the event's number of rounds and its ``XXC`` the scenario's initial colour.
The rounds the scenario already has must agree with the file: the same pairings, colours,
byes (H F U Z) and results, forfeits included (a result the scenario has as ``*`` is new).  A
round the scenario does not have yet is new as a whole (its pairings, byes and what is played
of it); ``--write`` appends such rounds as ``[[rounds]]`` tables, only if the file then still
loads.
"""

from __future__ import annotations

from pathlib import Path

from ...enums import COL_WHITE, RESULT_TEXT, ROUND_KIND_TRF, UNPLAYED
from ...errors import ScenarioError
from ...io.results import Roster, game_players
from .scenario import Swiss

BYE_TEXT = {v: k for k, v in ROUND_KIND_TRF.items()}


def _game_text(g) -> str:
    if g.forfeit:
        return "+-" if RESULT_TEXT[g.result] == "1-0" else "-+"
    return RESULT_TEXT.get(g.result, "*")


def read_results(scenario_file: str, kind: str, path: str, *, write: bool = False) -> dict:
    """The new results of the file (``kind`` "trf" or "pgn"), read and checked; ``write``:
    the rounds the scenario lacks appended to the scenario file (:func:`write_new_rounds`)."""
    from ...files import read_toml
    from .scenario import load

    scn = load(read_toml(scenario_file, "scenario file"), scenario_file)
    d = file_results(scn, kind, path)
    if write and d["new_rounds"]:
        inside = sorted({x["round"] for x in d["new"] if x["round"] <= scn.paired_rounds})
        if inside:
            raise ScenarioError(f"--write appends whole new rounds only; the file has new "
                                f"results for games of round {inside[0]} that the scenario has "
                                "as * (enter them by hand, then --write again)",
                                file=str(path), key=f"round {inside[0]}")
        write_new_rounds(scenario_file, d)
        d["written"] = True
        from . import rules
        d["latest_checkpoint"] = rules.checkpoints(
            load(read_toml(scenario_file, "scenario file"), scenario_file))[-1]
    return d


def file_results(scn: Swiss, kind: str, path: str) -> dict:
    """What the TRF (``kind`` "trf") or broadcast PGN ("pgn") file adds to ``scn``: the JSON
    shape of ``results --json`` for a Swiss (docs/cli.md)."""
    from . import rules

    boards = _trf_boards(scn, path) if kind == "trf" else _pgn_boards(scn, path)
    known = _Known(scn)
    names = scn.names
    new, same, unfinished, new_rounds = [], 0, [], {}
    for r, w, b, res, where, err in boards:
        row = {"round": r, "white": names[w], "black": names[b] if b is not None else None,
               "result": res, "from": where}
        if r > scn.paired_rounds:
            rd = new_rounds.setdefault(r, {"round": r, "games": [], "byes": []})
            if b is None:
                rd["byes"].append((w, res))
            else:
                rd["games"].append((w, b, res))
            (unfinished if res == "*" else new).append(row)
            continue
        verdict = known.bye(r, w, res, err) if b is None else known.game(r, w, b, res, err)
        if verdict == NEW:
            new.append(row)
        same += verdict == SAME
    rounds = [{"round": rd["round"],
               "games": [[names[w], names[b], t] for w, b, t in sorted(rd["games"])],
               "byes": [[names[p], x] for p, x in sorted(rd["byes"])]}
              for _, rd in sorted(new_rounds.items())]
    return {"scenario": scn.name, "file": scn.file, "source": str(path), "kind": kind,
            "games_in_file": sum(1 for x in boards if x[2] is not None and x[1] is not None),
            "rounds_in_file": sorted({x[0] for x in boards}),
            "paired_rounds": scn.paired_rounds,
            "new": new, "already_known": same, "unfinished": unfinished,
            "new_rounds": rounds,
            "latest_checkpoint": rules.checkpoints(scn)[-1], "written": False}


NEW, SAME, SKIP = "new", "same", "skip"     # a file row against the scenario's round


class _Known:
    """The scenario's games and byes, to check a file's row of a round the scenario has."""

    def __init__(self, scn: Swiss):
        self.names = scn.names
        self.games = {(g.round, g.white, g.black): g for g in scn.games}
        self.pair_of = {}
        for g in scn.games:
            self.pair_of[(g.round, g.white)] = self.pair_of[(g.round, g.black)] = g
        self.byes = {(b.round, b.player): b for b in scn.byes}

    def bye(self, r: int, w: int, res: str, err) -> str:
        """SAME, or refused: the scenario has another bye, a game or nothing."""
        have = self.byes.get((r, w))
        if have is None or BYE_TEXT[have.kind] != res:
            theirs = (f"a {BYE_TEXT[have.kind]} bye" if have is not None else
                      f"{self.names[w]} playing" if (r, w) in self.pair_of else "nothing")
            raise err(f"round {r}: the file gives {self.names[w]} a bye ({res}); the "
                      f"scenario has {theirs}")
        return SAME

    def game(self, r: int, w: int, b: int, res: str, err) -> str:
        """NEW (a result the scenario has as ``*``), SAME, SKIP (``*`` in the file, a result
        in the scenario), or refused: another pairing or another result."""
        names = self.names
        g = self.games.get((r, w, b))
        if g is None:
            other = self.pair_of.get((r, w))
            theirs = ("nothing" if other is None else
                      f"{names[other.white]} - {names[other.black]}")
            raise err(f"round {r}: the file pairs {names[w]} (White) with {names[b]}; the "
                      f"scenario has {theirs}")
        if res == "*":
            return SAME if g.result == UNPLAYED else SKIP
        if g.result == UNPLAYED:
            return NEW
        if _game_text(g) != res:
            raise err(f"round {r}: result {res} contradicts the scenario, which has "
                      f"{_game_text(g)} for {names[w]} - {names[b]}")
        return SAME


def write_new_rounds(scenario_file: str, d: dict) -> None:
    """Append ``d["new_rounds"]`` to the scenario file as ``[[rounds]]`` tables, after
    checking that the file with them still loads (a round missing a bye, say, is refused and
    nothing is written); the rest of the file is kept byte for byte."""
    import json
    import tomllib

    from ...io.write import atomic_write
    from ...scenario import load_data
    raw = Path(scenario_file).read_bytes()
    text = raw.decode("utf-8")
    add = []
    for rd in d["new_rounds"]:
        rows = "".join(f"  [{json.dumps(w)}, {json.dumps(b)}, {json.dumps(t)}],\n"
                       for w, b, t in rd["games"])
        block = (f"\n[[rounds]]   # from {Path(d['source']).name}\nround = {rd['round']}\n"
                 f"games = [\n{rows}]\n")
        if rd["byes"]:
            byes = ", ".join(f"[{json.dumps(p)}, {json.dumps(x)}]" for p, x in rd["byes"])
            block += f"byes = [{byes}]\n"
        add.append(block)
    new = text + ("" if text.endswith("\n") else "\n") + "".join(add)
    try:
        load_data(tomllib.loads(new), scenario_file)
    except ScenarioError as e:
        raise ScenarioError(f"not written: with the new rounds of {Path(d['source']).name} "
                            f"the scenario would not load: {e.message}", file=e.file,
                            key=e.key, value=e.value, has_value=e.has_value) from None
    atomic_write(scenario_file, new, what="scenario file", expect=raw)


def _check_header(scn: Swiss, trf, f: str) -> None:
    """``XXR`` the event's number of rounds, ``XXC`` the scenario's initial colour."""
    if trf.rounds is not None and trf.rounds != scn.n_rounds:
        raise ScenarioError(f"XXR says {trf.rounds} rounds; the scenario has {scn.n_rounds}",
                            file=f, key=f"line {trf.rounds_line}, column 5", value=trf.rounds)
    if trf.initial is not None and (trf.initial == "white1") != (
            scn.initial_colour == COL_WHITE):
        raise ScenarioError("XXC gives another initial colour than the scenario's "
                            "event.initial_colour", file=f,
                            key=f"line {trf.initial_line}, column 5", value=trf.initial)


def _trf_boards(scn, path):
    from ...io.trf import check_swiss_rounds, read_trf_swiss
    f = str(path)
    trf = read_trf_swiss(path)
    _check_header(scn, trf, f)
    players = trf.players
    rounds = check_swiss_rounds(players, f)
    roster = Roster(scn.players)
    idx = {}
    for rank, p in players.items():
        i = roster.find(p.name, p.fide_id)
        if i is None:
            raise ScenarioError(f"{p.name} (FIDE id {p.fide_id or 'none'}) is no player of "
                                "the scenario's [[players]]", file=f,
                                key=f"line {p.line}, column 15", value=p.name)
        why = roster.conflict(p.name, p.fide_id)
        if why:
            raise ScenarioError(why, file=f, key=f"line {p.line}, column 58", value=p.fide_id)
        idx[rank] = i
    out = []
    for r, bs in sorted(rounds.items()):
        if r > scn.n_rounds:
            c = bs[0][3]
            raise ScenarioError(f"round {r}: the event has {scn.n_rounds} rounds", file=f,
                                key=f"line {c.line}, column {c.col}", value=r)
        for w, b, res, c in bs:
            def err(msg, c=c):
                return ScenarioError(msg, file=f, key=f"line {c.line}, column {c.col}")
            out.append((r, idx[w], idx[b] if b is not None else None, res,
                        f"line {c.line}", err))
    return out


def _pgn_boards(scn, path):
    from ...io.pgn import read_pgn
    rows = read_pgn(path)
    roster = Roster(scn.players)
    busy: dict[tuple[int, int], str] = {}
    out = []
    for row in rows:
        if row.round is None:
            raise row.error("no round ([Round] tag): a Swiss's games are placed by round")
        if row.round > scn.n_rounds:
            raise row.error(f"round {row.round}: the event has {scn.n_rounds} rounds")
        w, b = game_players(roster, row)
        for i in (w, b):
            if (row.round, i) in busy:
                raise row.error(f"{scn.names[i]} is paired twice in round {row.round} "
                                f"(also {busy[(row.round, i)]})")
            busy[(row.round, i)] = row.where
        out.append((row.round, w, b, row.result, row.where, row.error))
    return out


def render_results(d: dict) -> str:
    """The text of ``results`` for a Swiss: counts, the new results, the new rounds."""
    lines = [f"{d['scenario']}: {d['games_in_file']} game(s) in {d['source']} (rounds "
             f"{_span(d['rounds_in_file'])}; the scenario has {d['paired_rounds']} paired)",
             f"  new results: {len(d['new'])}; already in the scenario: {d['already_known']}; "
             f"unfinished: {len(d['unfinished'])}", ""]
    for r in d["new"]:
        black = r["black"] if r["black"] is not None else "(bye)"
        lines.append(f"  round {r['round']:<4}{r['white'][:25]:<26}{r['result']:^9}"
                     f"{black[:25]:<26}{r['from']}")
    if d["new"]:
        lines.append("")
    for rd in d["new_rounds"]:
        byes = ", ".join(f"{p} ({x})" for p, x in rd["byes"])
        lines.append(f"round {rd['round']} is not in the scenario yet: {len(rd['games'])} "
                     f"board(s)" + (f", byes: {byes}" if byes else ""))
    if d["written"]:
        lines.append("written: the new round(s) were appended to the scenario file's "
                     "[[rounds]]")
    elif d["new_rounds"]:
        lines.append("(--write appends them to the scenario file's [[rounds]])")
    lines.append(f"latest checkpoint of the scenario: {d['latest_checkpoint']}")
    return "\n".join(lines)


def _span(rounds: list) -> str:
    if not rounds:
        return "none"
    return f"{rounds[0]}-{rounds[-1]}" if rounds == list(range(rounds[0], rounds[-1] + 1)) \
        else ", ".join(map(str, rounds))
