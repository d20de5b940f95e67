"""The swing scaffold every format uses: simulate the rest with one result assumed for a game
or match still to play, once per possible result, on common random numbers (same seed, same
replicas), and tabulate what each result does to every player's P(1st) and P(qualify)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..base import CompileOptions, Format

# one possible result of the game or match examined: a mixture of what-if result sets
# (format-specific ``CompileOptions.fixed`` mappings) with their weights
Outcome = Sequence[tuple[Mapping[Any, Any], float]]


def simulate(fmt: Format, scn, model, at, fixed: Mapping, sims: int, seed: int, offsets: bool):
    from ... import driver

    plan = fmt.compile(scn, model, CompileOptions(at=at, offsets=offsets, fixed=fixed))
    return driver.run(plan, sims, seed, progress=False)


def now(base) -> list[dict]:
    """Every player's P(1st) and P(qualify) before the game or match (the base run)."""
    return [{"name": name, "p_first": float(base.tallies["place"][i, 0] / base.sims),
             "p_qualify": float(base.tallies["qualify"][i] / base.sims)}
            for i, name in enumerate(base.names)]


def rows(fmt: Format, scn, model, at, outcomes: Sequence[Outcome], *, sims: int, seed: int,
         offsets: bool) -> list[dict]:
    """Per player: P(1st) and P(qualify) under each outcome (lists in outcome order) and the
    swings (largest minus smallest), the players most affected first."""
    runs = [[(simulate(fmt, scn, model, at, fixed, sims, seed, offsets), w) for fixed, w in mix]
            for mix in outcomes]
    names = runs[0][0][0].names
    out = []
    for i, name in enumerate(names):
        pf = [sum(w * r.tallies["place"][i, 0] / r.sims for r, w in mix) for mix in runs]
        pq = [sum(w * r.tallies["qualify"][i] / r.sims for r, w in mix) for mix in runs]
        out.append({"name": name, "p_first": pf, "p_qualify": pq,
                    "swing_first": max(pf) - min(pf), "swing_qualify": max(pq) - min(pq)})
    out.sort(key=lambda x: -(x["swing_first"] + x["swing_qualify"]))
    return out


def weight(rows_: list[dict]) -> float:
    """How much a game or match swings: its most affected player's two swings."""
    return rows_[0]["swing_first"] + rows_[0]["swing_qualify"]


def render_match_swing(d: dict) -> str:
    """Text of a swing report on knock-out matches (knock-out and group series): each result
    of each match with its probability, then P(1st) and P(qualify) under each result for every
    player one of them moves by half a percentage point or more."""
    lines = [f"{d['scenario']}  at {d['at']}: what the next matches swing "
             f"({d['sims']:,} simulations per result, common random numbers)", ""]
    for m in d["matches"]:
        lines.append(f"{m['event']} {m['round']}: {m['players'][0]} v {m['players'][1]}")
        for k, o in enumerate(m["outcomes"]):
            lines.append(f"  ({k + 1}) {o['result']:<52}{100 * o['p']:5.1f} %")
        k = len(m["outcomes"])
        cols = "/".join(f"({i + 1})" for i in range(k))
        lines.append(f"  {'player':<26}{'P(1st) % if ' + cols:>{8 * k + 8}}"
                     f"{'P(qualify) % if ' + cols:>{8 * k + 12}}")
        for p in m["swing"]:
            if p["swing_first"] < 0.005 and p["swing_qualify"] < 0.005:
                continue
            f = " / ".join(f"{100 * x:5.1f}" for x in p["p_first"])
            q = " / ".join(f"{100 * x:5.1f}" for x in p["p_qualify"])
            lines.append(f"  {p['name'][:25]:<26}{f:>{8 * k + 8}}{q:>{8 * k + 12}}")
        lines.append("")
    return "\n".join(lines).rstrip()
