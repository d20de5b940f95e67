"""Results to JSON, CSV and text tables.  The JSON layout is documented in docs/cli.md."""

from __future__ import annotations




def rule_order(p: dict) -> tuple:
    """Players by chance of first, of qualifying, expected points, then expected place (so
    players level on all of those keep the order the scenario's tiebreak rules give them,
    e.g. at the end of an event), the name last."""
    place = sum(k * x for k, x in enumerate(p["p_place"]))
    return (-p["p_first"], -p["p_qualify"], -p["expected_points"], round(place, 9), p["name"])


def simulation_json(scn, plan, res, at, model, opts) -> dict:
    players = res.players()
    for p, extra in zip(players, plan.info.player_extra):
        p.update(extra)
    players.sort(key=rule_order)
    d = {
        "scenario": scn.name,
        "file": scn.file,
        "at": at or "latest",
        "sims": res.sims,
        "seed": res.seed,
        "model": {"name": model.name, "version": model.version, "file": model.path,
                  "kind": model.kind, "offsets": bool(opts.offsets), "hot_elo": bool(opts.hot),
                  "param_draw": bool(opts.param_draw)},
        "qualifying_places": plan.info.qualifying_places,
        "points_label": plan.info.points_label,
        "currency": plan.info.currency or None,
        "interrupted": res.interrupted,
        "players": players,
    }
    if res.interrupted:   # the header says so: sims is what finished, of sims_requested
        d["sims_requested"] = res.requested
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
    players.sort(key=rule_order)
    return {"scenario": scn.name, "file": scn.file, "at": ex["at"], "method": "exact",
            "sims": None, "seed": None, "outcomes": ex["leaves"],
            "model": {"name": model.name, "version": model.version, "file": model.path,
                      "kind": model.kind, "offsets": False},
            "qualifying_places": scn.qualifying_places, "points_label": "points",
            "currency": scn.currency,
            "interrupted": False, "players": players,
            "events": {k: {"p": v, "se": 0.0} for k, v in ex["counters"].items()}}


CERTAIN = 1e-12     # within this of 0 or 1 a probability is certain: an exact sum of
                    # branches (0.1 x 1.0 + 0.3 x 1.0 over 0.4 is 0.9999999999999999) is 1;
                    # a simulated share k/n with n below 10^12 only when it is 0 or 1


def ordinal(k: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st."""
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def percent(p: float) -> str:
    """A probability in a table, in per cent: 0 and 100 only when it happened in no / every
    run (or, exact, is impossible / certain, up to ``CERTAIN``); below 0.05 % "<0.1", above
    99.95 % ">99.9"; "-" for a probability that is not defined (NaN).  The text, the page
    and the commentary all write probabilities with it."""
    if p != p:
        return "-"
    if p <= CERTAIN:
        return "0"
    if p >= 1.0 - CERTAIN:
        return "100"
    if p < 0.0005:
        return "<0.1"
    if p > 0.9995:
        return ">99.9"
    return f"{100 * p:.1f}"


ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}
SHOWN_PLACES = 8


# The run's model options shown in simulate's title: (key of the JSON's "model", words).
MODEL_TAGS = (("offsets", ", rating offsets"), ("hot_elo", ", hot Elo"),
              ("param_draw", ", parameters drawn per simulation"))


def simulation_text(d: dict) -> str:
    """``simulate``'s text: the table model's ``simulation_table`` (``report/table.py``)
    with the run in its title and every column in the legend."""
    from ..api.results import Simulation
    from .table import simulation_table, to_text

    sim = Simulation.from_json(d)
    exact = d.get("method") == "exact"
    t = simulation_table(sim, title=_run_title(d, exact), places=SHOWN_PLACES,
                         points="exp. pts")
    t.legend = _columns_legend(sim)
    if exact:
        t.legend.append("exact probabilities: 0 = impossible, 100 = certain; <0.1 = below "
                        "0.05 %")
    else:
        t.legend.append(f"±: one Monte Carlo standard error, in points of %; 0 = never in "
                        f"{d['sims']:,} runs (possible, but rarer than about 1 in "
                        f"{d['sims']:,}), 100 = in every run; <0.1 = below 0.05 %")
    t.notes = [f"{k}: {percent(v.p)} %" + ("" if exact else f" (± {100 * v.se:.2f})")
               for k, v in (sim.events or {}).items()]
    return to_text(t)


def _run_title(d: dict, exact: bool) -> str:
    """The title: scenario, checkpoint, how it was computed (simulations or outcomes) and the
    model with its :data:`MODEL_TAGS`."""
    how = (f"exact: every one of {d['outcomes']:,} outcomes" if exact
           else f"{d['sims']:,} simulations, seed {d['seed']}")
    if d.get("interrupted"):
        how = (f"INTERRUPTED: {d['sims']:,} of {d['sims_requested']:,} simulations finished, "
               f"seed {d['seed']}")
    m = d["model"]
    kind = f", {m['kind']} event" if m.get("kind") else ""
    tags = "".join(words for key, words in MODEL_TAGS if m.get(key))
    return f"{d['scenario']}  at {d['at']}  ({how}; model {m['name']} {m['version']}{kind}{tags})"


def _columns_legend(sim) -> list[str]:
    """The legend's lines for the columns: points, first and qualifying, places, prize."""
    q = sim.qualifying_places
    nplace = len(sim.players[0].p_place) if sim.players else 0
    shown = min(nplace, SHOWN_PLACES)
    prize = any(p.expected_prize for p in sim.players)
    label = sim.points_label or "points"
    return [
        f"exp. pts: expected final {label}; 1st %: chance of first place"
        + (f"; qualify %: chance of a qualifying place (top {q})" if q > 1 else
           ("; one place qualifies, so qualify % = 1st %" if q == 1 else "")),
        "1st, 2nd, ...: chance of each final place"
        + (f" (places {shown + 1}-{nplace} in --json and --csv)" if nplace > shown else "")
        + ("; exp. prize: expected prize money" if prize else "")]


def simulation_csv(d: dict) -> str:
    """``simulate --csv``: the table model's CSV (report/table.py), every place."""
    from .table import simulation_csv_table, to_csv

    head = (f"# interrupted: {d['sims']} of {d['sims_requested']} simulations finished\n"
            if d.get("interrupted") else "")
    return head + to_csv(simulation_csv_table(d))
