"""Following a live round robin: results from the event's PGN or TRF file.

* ``[event] results_pgn = "games.pgn"`` / ``results_trf = "event.trf"`` (relative to the
  scenario file): :func:`merge_file_results` fills the file's finished games into the
  scenario's games when it is loaded, so following an event is "save the broadcast's PGN,
  rerun".  A result in both places must agree.
* ``simcycle results SCENARIO --pgn FILE [--write]``: :func:`file_results` shows what the file
  adds to the scenario's own ``[[rounds]]``; with ``write`` the results go into the file
  (:mod:`simcycle.io.write`, comments kept).

Matching, schedule and contradiction checks: :func:`simcycle.io.results.match`.
"""

from __future__ import annotations

from pathlib import Path

from ...enums import UNPLAYED
from ...errors import ScenarioError
from .scenario import Game

KINDS = {"pgn": "results_pgn", "trf": "results_trf"}


def _reader(kind: str):
    if kind == "pgn":
        from ...io.pgn import read_pgn
        return read_pgn
    from ...io.trf import read_trf
    return read_trf


def _resolve(rel: str, scenario_file: str) -> Path:
    p = Path(rel)
    return p if p.is_absolute() else Path(scenario_file).parent / p


def merge_file_results(ev, games, players, file: str) -> tuple:
    """``games`` with the finished games of the files ``ev`` names."""
    from ...io.results import match, merged

    rows = []
    for kind, key in KINDS.items():
        rel = getattr(ev, key)
        if rel:
            rows += _reader(kind)(_resolve(rel, file))
    if not rows:
        return games
    matched = match(rows, players, games)
    return merged(games, matched, lambda g, code: Game(g.round, g.white, g.black, code))


def file_results(scenario_file: str, kind: str, path: str, *, write: bool = False) -> dict:
    """What the file at ``path`` adds to the scenario's own ``[[rounds]]`` (its
    ``results_pgn`` / ``results_trf`` left out), and with ``write`` the scenario updated."""
    from ...files import read_toml
    from ...io.results import match
    from . import rules
    from .scenario import load

    raw = read_toml(scenario_file, "scenario file")
    load(raw, scenario_file)          # every check, the event's own files included
    ev = dict(raw.get("event") or {})
    for key in KINDS.values():
        ev.pop(key, None)
    scn = load({**raw, "event": ev}, scenario_file)
    rows = _reader(kind)(path)
    matched = match(rows, scn.players, scn.games)
    new, same, unfinished = _sorted_rows(scn, matched)
    after = load({**raw, "event": {**ev, KINDS[kind]: str(Path(path).resolve())}},
                 scenario_file)
    d = {"scenario": scn.name, "file": scn.file, "source": str(path), "kind": kind,
         "games_in_file": len(rows), "new": new, "already_known": same,
         "unfinished": unfinished,
         "latest_checkpoint_before": rules.checkpoints(scn)[-1],
         "latest_checkpoint_after": rules.checkpoints(after)[-1],
         "written": False}
    if any(KINDS[k] in (raw.get("event") or {}) for k in KINDS):
        d["note"] = ("the scenario also reads " + ", ".join(
            f"{k} = {raw['event'][k]!r}" for k in KINDS.values() if k in raw["event"])
            + "; those results are counted when it is loaded")
    if write and new:
        _write_new(scenario_file, scn, new)
        d["written"] = True
    return d


def _sorted_rows(scn, matched) -> tuple[list, int, list]:
    """(rows of the games the file adds, how many it has that the scenario knows already (or
    that it repeats), rows of the games it has unfinished and the scenario has not)."""
    known = {(g.round, g.white, g.black): g.result for g in scn.games}
    new, same, unfinished, seen = [], 0, {}, set()
    for m in matched:
        row = {"round": m.round, "board": m.row.board, "white": scn.names[m.white],
               "black": scn.names[m.black], "result": m.result, "from": m.row.where}
        key = (m.round, m.white, m.black)
        if m.code == UNPLAYED:
            if known[key] == UNPLAYED:
                unfinished.setdefault(key, row)
        elif known[key] != UNPLAYED or key in seen:
            same += 1
        else:
            seen.add(key)
            new.append(row)
    return new, same, [r for k, r in unfinished.items() if k not in seen]


def _write_new(scenario_file: str, scn, new: list) -> None:
    """Write the rows ``new`` into the scenario's ``[[rounds]]`` (atomic) and check that it
    still loads."""
    from ...files import read_toml
    from ...io.write import write_results
    from .scenario import load

    idx = {n: i for i, n in enumerate(scn.names)}
    write_results(scenario_file, scn.players,
                  [(r["round"], idx[r["white"]], idx[r["black"]], r["result"],
                    f"round {r['round']} {r['white']} - {r['black']}") for r in new])
    try:
        load(read_toml(scenario_file, "scenario file"), scenario_file)
    except ScenarioError as e:     # never expected: the written file must load
        raise ScenarioError(f"the scenario was written but no longer loads: {e}",
                            file=scenario_file) from None


def render_results(d: dict) -> str:
    lines = [f"{d['scenario']}: {d['games_in_file']} game(s) in {d['source']}",
             f"  new results: {len(d['new'])}; already in the scenario: {d['already_known']}; "
             f"unfinished: {len(d['unfinished'])}", ""]
    for r in d["new"]:
        rnd = f"{r['round']}" + (f".{r['board']}" if r["board"] else "")
        lines.append(f"  round {rnd:<6}{r['white'][:25]:<26}{r['result']:^9}"
                     f"{r['black'][:25]:<26}{r['from']}")
    for r in d["unfinished"]:
        rnd = f"{r['round']}" + (f".{r['board']}" if r["board"] else "")
        lines.append(f"  round {rnd:<6}{r['white'][:25]:<26}{'*':^9}{r['black'][:25]:<26}"
                     "(not finished)")
    if d["new"] or d["unfinished"]:
        lines.append("")
    lines.append(f"latest checkpoint: {d['latest_checkpoint_before']}"
                 + (f" -> {d['latest_checkpoint_after']}"
                    if d["latest_checkpoint_after"] != d["latest_checkpoint_before"] else ""))
    if d.get("note"):
        lines.append("note: " + d["note"])
    if d["written"]:
        lines.append(f"written into {d['file']} ({len(d['new'])} result(s); comments kept)")
    elif d["new"]:
        lines.append("(--write puts these results into the scenario file)")
    return "\n".join(lines)
