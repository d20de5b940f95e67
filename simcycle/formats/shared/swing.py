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
