"""``simcycle results`` for a Swiss: what a TRF-16 or broadcast PGN file of the event adds to
the scenario's ``[[rounds]]``, every refusal one line naming the file and the line and column
(TRF) or the game and its line (PGN).

Players are matched by FIDE id, else by name or alias (``io.results.Roster``).  The rounds the
scenario already has must agree with the file: the same pairings, colours, byes and results
(a result the scenario has as ``*`` is new).  A round the scenario does not have yet is new
as a whole (its pairings and what is played of it).
"""

from __future__ import annotations

from ...enums import RESULT_TEXT, ROUND_KIND_TRF, UNPLAYED
from ...errors import ScenarioError
from ...io.results import Roster

BYE_TEXT = {v: k for k, v in ROUND_KIND_TRF.items()}


def _game_text(g) -> str:
    if g.forfeit:
        return "+-" if RESULT_TEXT[g.result] == "1-0" else "-+"
    return RESULT_TEXT.get(g.result, "*")


def read_results(scenario_file: str, kind: str, path: str) -> dict:
    """The new results of the file, read and checked (``--write``: ``live.write_new_rounds``)."""
    from ...files import read_toml
    from . import rules
    from .scenario import load

    scn = load(read_toml(scenario_file, "scenario file"), scenario_file)
    boards = _trf_boards(scn, path) if kind == "trf" else _pgn_boards(scn, path)
    known = {(g.round, g.white, g.black): g for g in scn.games}
    pair_of = {}
    for g in scn.games:
        pair_of[(g.round, g.white)] = pair_of[(g.round, g.black)] = g
    byes = {(b.round, b.player): b for b in scn.byes}
    names = scn.names
    new, same, unfinished, new_rounds = [], 0, [], set()
    for r, w, b, res, where, err in boards:
        row = {"round": r, "white": names[w], "black": names[b] if b is not None else None,
               "result": res, "from": where}
        if r > scn.paired_rounds:
            new_rounds.add(r)
            (unfinished if res == "*" else new).append(row)
            continue
        if b is None:
            have = byes.get((r, w))
            if have is None or BYE_TEXT[have.kind] != res:
                theirs = (f"a {BYE_TEXT[have.kind]} bye" if have is not None else
                          f"{names[w]} playing" if (r, w) in pair_of else "nothing")
                raise err(f"round {r}: the file gives {names[w]} a bye ({res}); the "
                          f"scenario has {theirs}")
            same += 1
            continue
        g = known.get((r, w, b))
        if g is None:
            other = pair_of.get((r, w))
            theirs = ("nothing" if other is None else
                      f"{names[other.white]} - {names[other.black]}")
            raise err(f"round {r}: the file pairs {names[w]} (White) with {names[b]}; the "
                      f"scenario has {theirs}")
        if res == "*":
            same += g.result == UNPLAYED
            continue
        if g.result == UNPLAYED:
            new.append(row)
        elif _game_text(g) != res:
            raise err(f"round {r}: result {res} contradicts the scenario, which has "
                      f"{_game_text(g)} for {names[w]} - {names[b]}")
        else:
            same += 1
    return {"scenario": scn.name, "file": scn.file, "source": str(path), "kind": kind,
            "games_in_file": sum(1 for x in boards if x[2] is not None and x[1] is not None),
            "new": new, "already_known": same, "unfinished": unfinished,
            "new_rounds": sorted(new_rounds),
            "latest_checkpoint": rules.checkpoints(scn)[-1], "written": False}


def _trf_boards(scn, path):
    from ...io.trf import check_swiss_rounds, read_trf_swiss
    f = str(path)
    players = read_trf_swiss(path)
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
        ids = []
        for name, fid, colour in ((row.white, row.white_id, "White"),
                                  (row.black, row.black_id, "Black")):
            why = roster.conflict(name, fid)
            if why:
                raise row.error(why)
            i = roster.find(name, fid)
            if i is None:
                raise row.error(f"unknown player {name!r} ({colour}): not a name, alias or "
                                "FIDE id of the scenario's [[players]]")
            ids.append(i)
        w, b = ids
        if w == b:
            raise row.error(f"{scn.names[w]} cannot play himself")
        for i in ids:
            if (row.round, i) in busy:
                raise row.error(f"{scn.names[i]} is paired twice in round {row.round} "
                                f"(also {busy[(row.round, i)]})")
            busy[(row.round, i)] = row.where
        out.append((row.round, w, b, row.result, row.where, row.error))
    return out


def render_results(d: dict) -> str:
    lines = [f"{d['scenario']}: {d['games_in_file']} game(s) in {d['source']}",
             f"  new results: {len(d['new'])}; already in the scenario: {d['already_known']}; "
             f"unfinished: {len(d['unfinished'])}", ""]
    for r in d["new"]:
        black = r["black"] if r["black"] is not None else "(bye)"
        lines.append(f"  round {r['round']:<4}{r['white'][:25]:<26}{r['result']:^9}"
                     f"{black[:25]:<26}{r['from']}")
    if d["new"]:
        lines.append("")
    if d["new_rounds"]:
        lines.append("rounds the scenario does not have yet: "
                     + ", ".join(str(r) for r in d["new_rounds"])
                     + " (add them to [[rounds]] to count them)")
    lines.append(f"latest checkpoint of the scenario: {d['latest_checkpoint']}")
    return "\n".join(lines)
