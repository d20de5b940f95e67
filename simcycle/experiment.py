"""Format-design experiments: run variants of a scenario and compare how fair they are.

An experiment file (TOML) names a base scenario and a list of variants; each variant sets
keys of the base scenario (dotted paths into its TOML) or drops tables, e.g.

    [experiment]
    name = "Candidates: how should first place be settled?"
    base = "../candidates-2022.toml"      # relative to the experiment file
    at = "start"
    sims = 200000
    [[variant]]
    name = "play-off (as in 2022)"
    [[variant]]
    name = "Sonneborn-Berger decides"
    set = { "tiebreak.playoff_places" = 0 }
    [[variant]]
    name = "single round robin"
    set = { "event.cycles" = 1, "event.schedule" = "berger" }
    drop = ["rounds"]

and ``[sweep]`` crosses every variant with a grid of values (``"event.qualifying_places" = [1, 2]``).
Each run is a pure function of (scenario data, model file, at, sims, seed), so runs can go to a
Dask cluster (``--dask ADDRESS`` or ``--dask local``) as easily as to the local machine.
"""

from __future__ import annotations

import copy
import itertools
import math
from pathlib import Path

from .errors import ScenarioError
from .scenario import read_toml


def _set(raw: dict, dotted: str, value, file: str):
    keys = dotted.split(".")
    t = raw
    for k in keys[:-1]:
        if not isinstance(t.get(k), dict):
            raise ScenarioError("no such table in the base scenario", file=file, key=dotted)
        t = t[k]
    t[keys[-1]] = value


def load_experiment(path: str | Path) -> dict:
    p = Path(path)
    f = str(p)
    raw = read_toml(p)
    head = raw.get("experiment")
    if not isinstance(head, dict):
        raise ScenarioError("missing [experiment] table", file=f, key="experiment")
    for k in head:
        if k not in {"name", "base", "at", "sims", "seed", "model", "notes"}:
            raise ScenarioError("unknown key", file=f, key=f"experiment.{k}")
    if not isinstance(head.get("base"), str):
        raise ScenarioError("must name the base scenario file", file=f, key="experiment.base")
    base_path = (p.parent / head["base"]).resolve()
    base = read_toml(base_path)
    variants = raw.get("variant", [{"name": "base"}])
    if not isinstance(variants, list) or not variants:
        raise ScenarioError("must be a list of [[variant]] tables", file=f, key="variant")
    sweep = raw.get("sweep", {})
    if not isinstance(sweep, dict) or not all(isinstance(v, list) and v for v in sweep.values()):
        raise ScenarioError("each sweep key takes a non-empty list of values", file=f, key="sweep")
    runs = []
    grid = list(itertools.product(*sweep.values())) if sweep else [()]
    for i, v in enumerate(variants):
        where = f"variant[{i}]"
        if not isinstance(v, dict) or not isinstance(v.get("name"), str):
            raise ScenarioError("a variant needs a name", file=f, key=f"{where}.name")
        for k in v:
            if k not in {"name", "set", "drop"}:
                raise ScenarioError("unknown key (name, set, drop)", file=f, key=f"{where}.{k}")
        for point in grid:
            data = copy.deepcopy(base)
            for key in v.get("drop", []):
                data.pop(key, None)
            for key, val in v.get("set", {}).items():
                _set(data, key, val, f)
            label = v["name"]
            for key, val in zip(sweep.keys(), point):
                _set(data, key, val, f)
                label += f" [{key}={val}]"
            runs.append({"name": label, "data": data})
    model = head.get("model")
    if model is not None:
        model = str((p.parent / model).resolve())
    return {"name": head.get("name", p.stem), "file": f, "base": str(base_path),
            "at": head.get("at"), "sims": int(head.get("sims", 100_000)),
            "seed": int(head.get("seed", 1)), "model": model, "runs": runs}


def run_one(name: str, data: dict, base_file: str, model_file, at, sims: int, seed: int) -> dict:
    """Simulate one variant and measure it.  Pure: safe to ship to a Dask worker."""
    from pathlib import Path

    import numpy as np

    from . import driver
    from .model import load_model
    from .scenario import check_at, format_module

    mod = format_module(data, base_file)
    try:
        scn = mod.load(Path(base_file), data)
        at = check_at(mod, scn, at, base_file)
    except ScenarioError as e:
        raise ScenarioError(f"variant {name!r}: {e.message}", file=e.file, key=e.key,
                            value=e.value, has_value=e.has_value) from None
    model = load_model(model_file or getattr(scn, "model_file", None)).for_kind(
        getattr(scn, "kind", None))
    plan = mod.compile(scn, model, at)
    res = driver.run(plan, sims, seed, progress=False)
    n = res.sims
    place = res.tallies["place"] / n
    out = {"name": name, "sims": n, "players": len(plan.names)}
    rt = getattr(plan, "rt", None)
    if rt is not None:
        ratings = np.asarray(rt)[:, 0]
        order = np.argsort(-ratings, kind="stable")
        rrank = np.empty(len(ratings), int)
        rrank[order] = np.arange(len(ratings))
        fav = int(order[0])
        pf = float(place[fav, 0])
        pq = float(res.tallies["qualify"][fav] / n)
        out["p_favourite_first"] = (pf, math.sqrt(pf * (1 - pf) / n))
        out["p_favourite_qualifies"] = (pq, math.sqrt(pq * (1 - pq) / n))
        win = place[:, 0]
        out["winner_rating_rank"] = (float((win * (rrank + 1)).sum()), None)
        k = place.shape[1]
        disp = sum(place[i, p] * abs(p - rrank[i]) for i in range(len(ratings)) for p in range(k))
        out["mean_displacement"] = (float(disp / len(ratings)), None)
    win = place[:, 0]
    nz = win[win > 0]
    out["winner_entropy_bits"] = (float(-(nz * np.log2(nz)).sum()), None)
    for k, v in res.counters().items():
        out[k] = (v["p"], v["se"])
    return out


def run_experiment(exp: dict, *, sims=None, seed=None, dask=None, progress=True) -> dict:
    sims = sims or exp["sims"]
    seed = exp["seed"] if seed is None else seed
    args = [(r["name"], r["data"], exp["base"], exp["model"], exp["at"], sims, seed)
            for r in exp["runs"]]
    if dask:
        from distributed import Client, LocalCluster
        if dask == "local":
            cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                   dashboard_address=None)
            client = Client(cluster)
        else:
            cluster, client = None, Client(dask)
        try:
            futures = [client.submit(run_one, *a, pure=False) for a in args]
            results = client.gather(futures)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    else:
        from tqdm import tqdm
        results = [run_one(*a) for a in tqdm(args, desc="variants", disable=None if progress else True,
                                             leave=False)]
    return {"experiment": exp["name"], "file": exp["file"], "at": exp["at"] or "latest",
            "sims": sims, "seed": seed, "variants": results}


def render(d: dict) -> str:
    lines = [f"{d['experiment']}  at {d['at']}  ({d['sims']:,} simulations per variant, seed {d['seed']})", ""]
    metrics = [k for k in d["variants"][0] if k not in ("name", "sims", "players")]
    for v in d["variants"]:
        lines.append(v["name"])
        for m in metrics:
            if m not in v:
                continue
            val, se = v[m]
            lines.append(f"  {m:<40}{val:10.4f}" + (f"  ± {se:.4f}" if se is not None else ""))
        lines.append("")
    return "\n".join(lines).rstrip()
