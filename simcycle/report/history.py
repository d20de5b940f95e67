"""The odds at every checkpoint of a scenario: how P(first), P(qualify) and the expected prize
moved as the event or series went on (``simcycle history``, the report's chart).

Any format: only :class:`~simcycle.formats.base.Format` (``checkpoints``, ``standings``,
``compile``) and the plan's ``info`` are used.  Every checkpoint is simulated with the same
seed, so replica *r* draws the same random numbers at every checkpoint (common random
numbers): a change from one checkpoint to the next is the results played in between, not
noise from fresh draws.  When the file holds results past its last complete checkpoint (a
round half played), a last point ``latest`` counts them too.
"""

from __future__ import annotations

import sys

from ..formats.base import CompileOptions

LATEST = "latest"
FIELDS = ("p_first", "se_p_first", "p_qualify", "se_p_qualify", "expected_prize",
          "se_expected_prize", "expected_points", "se_expected_points")


def checkpoints(fmt, scn) -> list[str]:
    """The checkpoints to simulate: the format's, plus ``latest`` when the file holds more
    results than its last checkpoint counts."""
    cps = list(fmt.checkpoints(scn))
    last = fmt.standings(scn, cps[-1])
    now = fmt.standings(scn, None)
    strip = lambda d: {k: v for k, v in d.items() if k != "at"}  # noqa: E731
    if strip(last) != strip(now):
        cps.append(LATEST)
    return cps


def history(fmt, scn, model, *, sims: int, seed: int, offsets: bool = False,
            progress: bool | None = None, at_most: str | None = None) -> dict:
    """Simulate from every checkpoint (up to ``at_most``); rows per (checkpoint, player)."""
    from tqdm import tqdm

    from .. import driver

    cps = checkpoints(fmt, scn)
    if at_most is not None:
        cps = cps[: cps.index(at_most) + 1]
    rows, done, interrupted = [], [], False
    info = None
    bar = tqdm(cps, desc="checkpoints", unit="checkpoint", file=sys.stderr, leave=False,
               disable=(not progress) if progress is not None else None)
    try:
        for c in bar:
            plan = fmt.compile(scn, model, CompileOptions(at=None if c == LATEST else c,
                                                          offsets=offsets))
            info = info or plan.info
            res = driver.run(plan, sims, seed, progress=False)
            if res.interrupted:
                interrupted = True
                break
            for p in res.players():
                rows.append({"checkpoint": c, "player": p["name"],
                             **{k: p[k] for k in FIELDS}})
            done.append(c)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    return {"scenario": scn.name, "file": scn.file, "sims": sims, "seed": seed,
            "model": {"name": model.name, "version": model.version, "file": model.path,
                      "offsets": bool(offsets)},
            "common_random_numbers": True, **_plan_fields(info),
            "checkpoints": done, "players": _names_by_last(info, scn, rows, done),
            "interrupted": interrupted, "checkpoints_requested": len(cps), "rows": rows}


def _plan_fields(info) -> dict:
    """What the plans say of the event: qualifying places, currency, points' label (the
    defaults when no checkpoint ran)."""
    if info is None:
        return {"qualifying_places": None, "currency": None, "points_label": "points"}
    return {"qualifying_places": info.qualifying_places, "currency": info.currency or None,
            "points_label": info.points_label}


def _names_by_last(info, scn, rows: list[dict], done: list[str]) -> list[str]:
    """The players, best first at the last checkpoint that ran (P(first), P(qualify),
    expected points; players without a row last, in the scenario's order)."""
    names = list(info.names) if info is not None else list(scn_names(scn))
    last = done[-1] if done else None
    final = {r["player"]: (r["p_first"], r["p_qualify"], r["expected_points"])
             for r in rows if r["checkpoint"] == last}
    names.sort(key=lambda n: tuple(-x for x in final.get(n, (0, 0, 0))))
    return names


def scn_names(scn):
    return getattr(scn, "names", None) or [p.name for p in getattr(scn, "players", ())]


def series(d: dict, key: str) -> dict[str, list[float]]:
    """``key`` of every player along the checkpoints: {player: [value per checkpoint]}."""
    pos = {c: k for k, c in enumerate(d["checkpoints"])}
    out = {p: [float("nan")] * len(pos) for p in d["players"]}
    for r in d["rows"]:
        if r["checkpoint"] in pos:
            out[r["player"]][pos[r["checkpoint"]]] = r[key]
    return out


def history_csv(d: dict) -> str:
    """``history --csv``: the table model's CSV (report/table.py), a row per checkpoint and
    player."""
    from .table import history_table, to_csv

    head = (f"# interrupted: {len(d['checkpoints'])} of {d['checkpoints_requested']} "
            f"checkpoints finished, {d['sims']} simulations each\n" if d.get("interrupted")
            else "")
    return head + to_csv(history_table(d))


def _short(name: str, width: int = 12) -> str:
    """The name as it is when it has at most ``width`` characters, else its last word (never
    cut: "Nepomniachtchi", not "Nepomniacht")."""
    return name if len(name) <= width else name.split()[-1]


def history_text(d: dict, shown: int = 8) -> str:
    """Checkpoints down, the players with the most at stake across: P(qualify) in %, through
    the one table model (``report/table.py``)."""
    from .table import Column, Table, to_text

    q = series(d, "p_qualify")
    title = "P(qualify) %" if (d["qualifying_places"] or 1) > 1 else "P(first) = P(qualify) %"
    most = set(sorted(d["players"], key=lambda p: -max(q[p], default=0))[:shown])
    top = [p for p in d["players"] if p in most]          # in the order of the last checkpoint
    where = ("at every checkpoint" if not d.get("interrupted") else
             f"INTERRUPTED: {len(d['checkpoints'])} of {d['checkpoints_requested']} checkpoints "
             "finished")
    cols = [Column(key="checkpoint", label="checkpoint", width=14)]
    cols += [Column(key=f"p{k}", label=_short(p), kind="pct", width=6)
             for k, p in enumerate(top)]
    rows = [{"checkpoint": c, **{f"p{k}": q[p][i] for k, p in enumerate(top)}}
            for i, c in enumerate(d["checkpoints"])]
    note = (f"({len(d['players']) - len(top)} more players; --json or --csv gives every "
            "player, P(first), expected prize and standard errors)"
            if len(d["players"]) > len(top) else
            "(--json or --csv adds P(first), expected prize and standard errors)")
    return to_text(Table(
        title=f"{d['scenario']}: {title} {where} ({d['sims']:,} simulations per checkpoint, "
              f"seed {d['seed']}, common random numbers; model {d['model']['name']} "
              f"{d['model']['version']})", columns=cols, rows=rows, notes=[note]))
