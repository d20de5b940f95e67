"""Results of a Swiss event from a TRF-16 file (``simcycle results SCENARIO --trf FILE``).

TRF-16 (FIDE Handbook C.04, "TRF16") fixed columns, 1-based: a ``001`` line holds the
starting rank (5-8), the name (15-47), the rating (49-52), the FIDE id (58-68) and, per round
r, ten columns from c = 92 + 10 (r - 1): opponent's rank (c..c+3, ``0000`` none), colour (c+5:
``w`` / ``b`` / ``-``), result (c+7).  Results: ``1`` ``=`` ``0`` a game (``W`` ``D`` ``L``
the same, unrated); ``+`` / ``-`` a forfeit win / loss (with an opponent); ``H`` half-point
bye, ``F`` full-point bye, ``U`` pairing-allocated bye, ``Z`` zero-point bye (opponent
``0000``); blank: not played yet.  ``XXR`` the number of rounds, ``XXC`` the initial colour
(``white1`` / ``black1``).

Players are matched to the scenario by FIDE id, else by name.  Every round in the file must
agree with the scenario's where the scenario has it (the same boards, colours, results and
byes); later rounds are reported as new.  A bad line is refused in one line naming the file,
the line and the column.
"""

from __future__ import annotations

from pathlib import Path

from ...enums import COL_BLACK, COL_WHITE
from ...errors import ScenarioError
from ...io.pgn import read_text_lenient
from . import rules
from .scenario import Swiss

FIRST = 92
WIDTH = 10
GAME = {"1": 2, "=": 1, "0": 0, "W": 2, "D": 1, "L": 0}
BYE_LETTERS = "HFUZ"
TEXT = {2: "1-0", 1: "1/2-1/2", 0: "0-1"}


def _bad(f: str, ln: int, col: int, why: str, value: str) -> ScenarioError:
    return ScenarioError(why, file=f, key=f"line {ln}, column {col}", value=value)


def read_swiss_trf(path: str) -> dict:
    """{"rounds": XXR or None, "initial": COL_* or None, "players": {rank: {...}},
    "boards": {round: [(white rank, black rank, "1-0" ...)]}, "byes": {round: [(rank, L)]}}."""
    f = str(path)
    text = read_text_lenient(path, "TRF file")
    out = {"rounds": None, "initial": None, "players": {}, "boards": {}, "byes": {}}
    cells = {}
    for ln, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if line.startswith("XXR"):
            v = line[3:].strip()
            if not v.isdigit() or not 1 <= int(v) <= 40:
                raise _bad(f, ln, 5, "XXR needs the number of rounds (1-40)", v)
            out["rounds"] = int(v)
        elif line.startswith("XXC"):
            v = line[3:].strip().split()
            if not v or v[0] not in ("white1", "black1"):
                raise _bad(f, ln, 5, "XXC needs white1 or black1", line[3:].strip())
            out["initial"] = COL_WHITE if v[0] == "white1" else COL_BLACK
        elif line.startswith("001"):
            rank_s = line[4:8].strip()
            if not rank_s.isdigit():
                raise _bad(f, ln, 5, "a 001 line needs its starting rank in columns 5-8", rank_s)
            rank = int(rank_s)
            if rank in out["players"]:
                raise _bad(f, ln, 5, f"starting rank {rank} is also on line "
                           f"{out['players'][rank]['line']}", rank_s)
            rating = line[48:52].strip()
            if not rating.isdigit() or int(rating) == 0:
                raise _bad(f, ln, 49, "the rating (columns 49-52) is missing", rating)
            fid = line[57:68].strip()
            out["players"][rank] = {"name": " ".join(line[14:47].split()), "line": ln,
                                    "fide_id": int(fid) if fid.isdigit() and int(fid) else None}
            r = 1
            while len(line) >= FIRST + WIDTH * (r - 1):
                c = FIRST + WIDTH * (r - 1)
                cell = (line[c - 1:c + 3].strip(), line[c + 4:c + 5].strip(),
                        line[c + 6:c + 7].strip(), ln, c)
                if cell[0] or cell[2]:
                    cells[(rank, r)] = cell
                r += 1
    players = out["players"]
    for (rank, r), (opp, colour, res, ln, c) in sorted(cells.items()):
        if res in BYE_LETTERS or (res and opp in ("", "0000")):
            if res not in BYE_LETTERS or opp not in ("", "0000"):
                raise _bad(f, ln, c + 7, "a bye (no opponent) is H, F, U or Z", res)
            out["byes"].setdefault(r, []).append((rank, res))
            continue
        if not opp.isdigit() or int(opp) not in players or int(opp) == rank:
            raise _bad(f, ln, c, f"round {r}: no other player has this starting rank", opp)
        if res not in GAME and res not in ("+", "-", ""):
            raise _bad(f, ln, c + 7, f"round {r}: the result is none of 1 = 0 W D L + - H F U "
                       "Z", res)
        if colour not in ("w", "b"):
            raise _bad(f, ln, c + 5, f"round {r}: the colour is not w or b", colour)
        o = int(opp)
        other = cells.get((o, r))
        if other is None or not other[0].isdigit() or int(other[0]) != rank:
            raise _bad(f, ln, c, f"round {r}: line {players[o]['line']} does not have this "
                       "game (a player paired twice, or one side missing)", opp)
        _, o_colour, o_res, _, _ = other
        if o_colour == colour:
            raise _bad(f, ln, c + 5, f"round {r}: both lines give the same colour", colour)
        if res in ("+", "-") or o_res in ("+", "-"):
            ok = {res, o_res} == {"+", "-"}
        elif res == "" or o_res == "":
            ok = res == o_res
        else:
            ok = o_res in GAME and GAME[res] + GAME[o_res] == 2
        if not ok:
            raise _bad(f, ln, c + 7, f"round {r}: the two lines disagree on the result "
                       f"({res or 'blank'} and {o_res or 'blank'} on line "
                       f"{players[o]['line']})", res)
        if colour != "w":
            continue
        if res in ("+", "-"):
            t = "+-" if res == "+" else "-+"
        else:
            t = "*" if res == "" else TEXT[GAME[res]]
        out["boards"].setdefault(r, []).append((rank, o, t))
    return out


def pgn_boards(scn: Swiss, path: str) -> dict:
    """{round: [(white, black, result)]} (scenario indices) of a broadcast PGN: players by
    the FideId tags, else by name or alias; each game needs its round."""
    from ...io.pgn import read_pgn
    by_id = {p.fide_id: i for i, p in enumerate(scn.players) if p.fide_id}
    by_name = {a.casefold(): i for i, p in enumerate(scn.players) for a in (p.name, *p.aliases)}
    boards: dict = {}
    seen: dict = {}
    for row in read_pgn(path):
        if row.round is None:
            raise row.error("the game's Round tag is missing")
        ij = []
        for name, fid in ((row.white, row.white_id), (row.black, row.black_id)):
            i = by_id.get(fid) if fid else None
            if i is None:
                i = by_name.get(name.casefold())
            if i is None:
                raise row.error(f"{name} is no player of the scenario (FIDE id or name)")
            if (row.round, i) in seen:
                raise row.error(f"{name} is paired twice in round {row.round} (also "
                                f"{seen[(row.round, i)]})")
            seen[(row.round, i)] = row.where
            ij.append(i)
        boards.setdefault(row.round, []).append((ij[0], ij[1], row.result))
    return boards


def file_results(scn: Swiss, path: str, kind: str = "trf") -> dict:
    """What the TRF (or PGN: games only, no byes) adds to the scenario, checked against it."""
    f = str(path)
    if kind == "pgn":
        return _compare(scn, f, pgn_boards(scn, path), None)
    d = read_swiss_trf(path)
    if d["rounds"] is not None and d["rounds"] != scn.n_rounds:
        raise ScenarioError(f"XXR says {d['rounds']} rounds; the scenario has "
                            f"{scn.n_rounds}", file=f, key="XXR", value=str(d["rounds"]))
    if d["initial"] is not None and d["initial"] != scn.initial_colour:
        raise ScenarioError("XXC gives another initial colour than the scenario's "
                            "event.initial_colour", file=f, key="XXC")
    by_id = {p.fide_id: i for i, p in enumerate(scn.players) if p.fide_id}
    by_name = {p.name.casefold(): i for i, p in enumerate(scn.players)}
    idx = {}
    for rank, p in d["players"].items():
        i = by_id.get(p["fide_id"]) if p["fide_id"] else None
        if i is None:
            i = by_name.get(p["name"].casefold())
        if i is None:
            raise _bad(f, p["line"], 15, "no player of the scenario has this FIDE id or name",
                       p["name"])
        idx[rank] = i
    boards = {r: [(idx[w], idx[b], t) for w, b, t in v] for r, v in d["boards"].items()}
    byes = {r: [(idx[p], x) for p, x in v] for r, v in d["byes"].items()}
    return _compare(scn, f, boards, byes)


def _compare(scn: Swiss, f: str, all_boards: dict, all_byes: dict | None) -> dict:
    """Each round of the file against the scenario's; ``all_byes`` None: the file has none
    (PGN), so byes are not compared."""
    names = scn.names
    known = rules.last_round(scn, None)
    new = []
    for r in sorted(set(all_boards) | set(all_byes or {})):
        if r > scn.n_rounds:
            raise ScenarioError(f"round {r} is beyond the event's {scn.n_rounds}", file=f,
                                key=f"round {r}")
        boards = set(all_boards.get(r, []))
        mine = {(g.white, g.black, _text(g)) for g in scn.games if g.round == r
                and not (g.forfeit and all_byes is None)}   # a broadcast has no forfeits
        mine_byes = {(b.player, _letter(b.kind)) for b in scn.byes if b.round == r}
        byes = mine_byes if all_byes is None else set(all_byes.get(r, []))
        if mine or mine_byes:
            if boards != mine or byes != mine_byes:
                diff = sorted(boards ^ mine)[:1] or sorted(byes ^ mine_byes)[:1]
                raise ScenarioError(f"round {r} contradicts the scenario (first difference: "
                                    f"{_say(names, diff[0])})", file=f, key=f"round {r}")
            if r <= known:
                continue
        new.append({"round": r, "games": [[names[w], names[b], t] for w, b, t in sorted(boards)],
                    "byes": [[names[p], letter] for p, letter in sorted(byes)]})
    return {"scenario": scn.name, "file": f, "rounds_in_file": sorted(set(all_boards)),
            "known": known, "new": new}


def write_new_rounds(scenario_file: str, d: dict) -> None:
    """Append the new rounds of ``d`` to the scenario file as ``[[rounds]]`` tables, after
    checking that the file with them still loads (a round missing a bye, say, is refused and
    nothing is written)."""
    import json
    import tomllib

    from ...io.write import atomic_write
    from ...scenario import load_data
    raw = Path(scenario_file).read_bytes()
    text = raw.decode("utf-8")
    add = []
    for rd in d["new"]:
        rows = "".join(f"  [{json.dumps(w)}, {json.dumps(b)}, {json.dumps(t)}],\n"
                       for w, b, t in rd["games"])
        block = (f"\n[[rounds]]   # from {Path(d['file']).name}\nround = {rd['round']}\n"
                 f"games = [\n{rows}]\n")
        if rd["byes"]:
            byes = ", ".join(f"[{json.dumps(p)}, {json.dumps(x)}]" for p, x in rd["byes"])
            block += f"byes = [{byes}]\n"
        add.append(block)
    new = text + ("" if text.endswith("\n") else "\n") + "".join(add)
    load_data(tomllib.loads(new), scenario_file)
    atomic_write(scenario_file, new, what="scenario file", expect=raw)


def _text(g) -> str:
    from ...enums import UNPLAYED
    if g.forfeit:
        return "+-" if g.result == 0 else "-+"
    return "*" if g.result == UNPLAYED else {0: "1-0", 1: "1/2-1/2", 2: "0-1"}[g.result]


def _letter(kind) -> str:
    from ...enums import ROUND_KIND_TRF
    return {v: k for k, v in ROUND_KIND_TRF.items()}[kind]


def _say(names, item) -> str:
    if len(item) == 3:
        return f"{names[item[0]]} - {names[item[1]]} {item[2]}"
    return f"{names[item[0]]} bye {item[1]}"


def render_results(d: dict) -> str:
    lines = [f"{d['scenario']}: {d['file']}; the scenario has rounds 1-{d['known']}"]
    if d.get("written"):
        lines.append("written: the new rounds were added to the scenario file")
    if not d["new"]:
        lines.append("nothing new: every round in the file is already in the scenario")
    for rd in d["new"]:
        lines.append(f"round {rd['round']} (new): {len(rd['games'])} boards"
                     + (f", byes: {', '.join(f'{p} ({x})' for p, x in rd['byes'])}"
                        if rd["byes"] else ""))
        for w, b, t in rd["games"]:
            lines.append(f"  {w} - {b} {t}")
    return "\n".join(lines)
