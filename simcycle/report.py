"""Results to JSON, CSV and text tables.  The JSON layout is documented in docs/cli.md."""

from __future__ import annotations

import csv
import io


def simulation_json(scn, plan, res, at, model, opts) -> dict:
    players = res.players()
    for p, extra in zip(players, plan.info.player_extra):
        p.update(extra)
    players.sort(key=lambda p: (-p["p_first"], -p["p_qualify"], -p["expected_points"], p["name"]))
    d = {
        "scenario": scn.name,
        "file": scn.file,
        "at": at or "latest",
        "sims": res.sims,
        "seed": res.seed,
        "model": {"name": model.name, "version": model.version, "file": model.path,
                  "kind": model.kind, "offsets": bool(opts.offsets), "hot_elo": bool(opts.hot)},
        "qualifying_places": plan.info.qualifying_places,
        "currency": plan.info.currency or None,
        "interrupted": res.interrupted,
        "players": players,
    }
    counters = res.counters()
    if counters:
        d["events"] = counters
    return d


def exact_json(scn, ex: dict, model) -> dict:
    """The layout of simulation_json for exact enumeration (standard errors are 0)."""
    def clean(x):  # float sums of certain events: show 1 and 0 as such
        return 1.0 if abs(x - 1.0) < 1e-12 else (0.0 if abs(x) < 1e-15 else x)

    ex = dict(ex, players=[dict(p, p_first=clean(p["p_first"]), p_qualify=clean(p["p_qualify"]),
                                p_place=[clean(x) for x in p["p_place"]]) for p in ex["players"]])
    players = []
    for p in ex["players"]:
        players.append({"name": p["name"], "p_first": p["p_first"], "se_p_first": 0.0,
                        "p_qualify": p["p_qualify"], "se_p_qualify": 0.0,
                        "expected_points": p["expected_points"], "se_expected_points": 0.0,
                        "expected_prize": p["expected_prize"], "se_expected_prize": 0.0,
                        "p_place": list(p["p_place"]), "p_playoff": p["p_playoff"]})
    players.sort(key=lambda p: (-p["p_first"], -p["p_qualify"], -p["expected_points"], p["name"]))
    return {"scenario": scn.name, "file": scn.file, "at": ex["at"], "method": "exact",
            "sims": None, "seed": None, "outcomes": ex["leaves"],
            "model": {"name": model.name, "version": model.version, "file": model.path,
                      "offsets": False},
            "qualifying_places": scn.qualifying_places, "currency": scn.currency,
            "interrupted": False, "players": players,
            "events": {k: {"p": v, "se": 0.0} for k, v in ex["counters"].items()}}


def _pct(p: float) -> str:
    """Percent for tables: exact 0 and 100 only when certain in every simulation."""
    if p == 0.0:
        return "0"
    if p == 1.0:
        return "100"
    if p < 0.0005:
        return "<0.1"
    if p > 0.9995:
        return ">99.9"
    return f"{100 * p:.1f}"


def simulation_text(d: dict) -> str:
    q = d["qualifying_places"]
    cur = d.get("currency") or ""
    how = (f"exact, {d['outcomes']:,} outcomes" if d.get("method") == "exact"
           else f"{d['sims']:,} simulations, seed {d['seed']}")
    lines = [f"{d['scenario']}  at {d['at']}  ({how}, "
             f"model {d['model']['name']} {d['model']['version']}"
             f"{', offsets' if d['model']['offsets'] else ''}"
             f"{', hot Elo' if d['model'].get('hot_elo') else ''})", ""]
    nplace = len(d["players"][0]["p_place"]) if d["players"] else 0
    shown = min(nplace, 8)
    head = (f"{'player':<26}{'E[pts]':>8}{'1st %':>8}{'±':>6}{'qual %':>8}{'±':>6}"
            f"{'E[prize] ' + cur:>16}  " + " ".join(f"{'P' + str(k + 1):>5}" for k in range(shown)))
    lines.append(head)
    lines.append("-" * len(head))
    for p in d["players"]:
        lines.append(
            f"{p['name'][:25]:<26}{p['expected_points']:8.2f}{_pct(p['p_first']):>8}"
            f"{100 * p['se_p_first']:6.2f}{_pct(p['p_qualify']):>8}{100 * p['se_p_qualify']:6.2f}"
            f"{p['expected_prize']:16,.0f}  " + " ".join(f"{_pct(x):>5}" for x in p["p_place"][:shown]))
    lines.append("")
    lines.append(f"qualifying places: {q};  ± columns are Monte Carlo standard errors in points of %")
    for k, v in d.get("events", {}).items():
        lines.append(f"{k}: {_pct(v['p'])} % (± {100 * v['se']:.2f})")
    return "\n".join(lines)


def simulation_csv(d: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    nplace = len(d["players"][0]["p_place"]) if d["players"] else 0
    w.writerow(["name", "expected_points", "se_expected_points", "p_first", "se_p_first",
                "p_qualify", "se_p_qualify", "expected_prize", "se_expected_prize"]
               + [f"p_place_{k + 1}" for k in range(nplace)])
    for p in d["players"]:
        w.writerow([p["name"], p["expected_points"], p["se_expected_points"], p["p_first"],
                    p["se_p_first"], p["p_qualify"], p["se_p_qualify"], p["expected_prize"],
                    p["se_expected_prize"]] + p["p_place"])
    return buf.getvalue()
