"""Format-design experiments: run variants of a scenario and compare how fair they are.

An experiment file (TOML, layout in docs/experiments.md) names a base scenario and variants;
each variant sets keys of the base scenario (paths into its TOML, ``"event.cycles"`` or
``"events[2].players"``) or drops keys and tables, and ``[sweep]`` crosses every variant with
a grid of values.  Every variant is validated like a scenario before anything runs.  Each run
is a pure function of (frozen scenario, model, checkpoint, sims, seed), so runs go to a Dask
cluster as easily as to the local machine.  A run carries its scenario and model by value (read
and checked here, files such as a scenario's PGN already merged in), so a worker needs simcycle
installed and nothing else: no shared file system, no copy of a custom model or experiment.
What finished is kept if the cluster fails (scheduler or last worker lost, within
:data:`WORKER_WAIT` seconds) or the user presses Ctrl-C.
"""

from __future__ import annotations

import copy
import itertools
import math
import re
import sys
import threading
from pathlib import Path
from typing import Any

from .errors import ClusterError, ScenarioError
from .files import read_toml
from .schema import Name, Table, Text, convert, whole_between


class Head(Table):
    base: Name
    name: Text = ""
    at: Name | None = None
    sims: whole_between(1, 10**9) = 100_000
    seed: whole_between(0, 2**63 - 1) = 1
    model: Name | None = None
    description: Text = ""
    notes: Text = ""


class Variant(Table):
    name: Name
    set: dict[Name, Any] = {}
    drop: list[Name] = []


class ExperimentFile(Table):
    experiment: Head
    variant: list[Variant] = []
    sweep: dict[Name, list[Any]] = {}


# ---- paths into a scenario document ----------------------------------------------------------
_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def parse_path(path: str, file: str, key: str) -> list:
    """``"events[2].ratings"`` -> ["events", 2, "ratings"]; a malformed path is refused."""
    parts, pos = [], 0
    for m in _PART.finditer(path):
        if m.start() != pos and path[pos:m.start()] != ".":
            break
        parts.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        pos = m.end()
    if not parts or pos != len(path) or not isinstance(parts[0], str):
        raise ScenarioError("not a path like table.key or events[2].key", file=file, key=key,
                            value=path)
    return parts


def _walk(doc, parts, file, key, path):
    cur = doc
    for p in parts:
        ok = (isinstance(p, str) and isinstance(cur, dict) and p in cur) or (
            isinstance(p, int) and isinstance(cur, list) and p < len(cur))
        if not ok:
            raise ScenarioError("no such table, key or list entry in the base scenario",
                                file=file, key=key, value=path)
        cur = cur[p]
    return cur


def set_path(doc: dict, path: str, value, file: str, key: str) -> None:
    """Set the key or list entry at ``path``; an index one past the end appends (a new
    event, player or round)."""
    parts = parse_path(path, file, key)
    parent = _walk(doc, parts[:-1], file, key, path)
    last = parts[-1]
    if isinstance(last, str) and isinstance(parent, dict):
        parent[last] = copy.deepcopy(value)
    elif isinstance(last, int) and isinstance(parent, list) and last < len(parent):
        parent[last] = copy.deepcopy(value)
    elif isinstance(last, int) and isinstance(parent, list) and last == len(parent):
        parent.append(copy.deepcopy(value))
    else:
        raise ScenarioError("no such table, key or list entry in the base scenario", file=file,
                            key=key, value=path)


def drop_path(doc: dict, path: str, file: str, key: str) -> None:
    parts = parse_path(path, file, key)
    parent = _walk(doc, parts[:-1], file, key, path)
    last = parts[-1]
    if isinstance(parent, dict) and last in parent:
        del parent[last]
    elif isinstance(parent, list) and isinstance(last, int) and last < len(parent):
        del parent[last]
    else:
        raise ScenarioError("nothing to drop at this path in the base scenario", file=file,
                            key=key, value=path)


# ---- loading -----------------------------------------------------------------------------------
def load_experiment(path: str | Path, model_file: str | None = None) -> dict:
    """Read and validate an experiment file, every variant's scenario and the models they use
    (``model_file``, i.e. ``--model``, replaces the experiment's and the scenarios' models).
    Everything a run needs is read here: the runs carry it by value."""
    from .scenario import load_data

    from .scenario import resolve

    p = resolve(path)
    f = str(p)
    doc = convert(read_toml(p, "experiment file"), ExperimentFile, f)
    head = doc.experiment
    base_path = (p.parent / head.base).resolve()
    base = read_toml(base_path, "base scenario")
    variants = doc.variant or [Variant(name="as in the base scenario")]
    grid_keys = list(doc.sweep)
    for k, vals in doc.sweep.items():
        if not vals:
            raise ScenarioError("a sweep needs at least one value", file=f, key=f"sweep.{k}")
    runs = []
    for i, v in enumerate(variants):
        for point in itertools.product(*doc.sweep.values()) if grid_keys else [()]:
            data, label = _variant_data(base, v, f"variant[{i}]", dict(zip(grid_keys, point)), f)
            try:
                fmt, scn = load_data(data, str(base_path))
                fmt.check_at(scn, head.at)
            except ScenarioError as e:
                where = f"variant[{i}]"
                raise ScenarioError(f"{e.message} (the scenario of variant {label!r})", file=f,
                                    key=f"{where}: {e.key}" if e.key else where, value=e.value,
                                    has_value=e.has_value) from None
            runs.append({"name": label, "data": data, "format": data["scenario"]["format"],
                         "scenario": scn})
    model = None if head.model is None else str((p.parent / head.model).resolve())
    exp = {"name": head.name or p.stem, "file": f, "base": str(base_path), "at": head.at,
           "sims": head.sims, "seed": head.seed, "model": model, "runs": runs}
    return prepared(exp, model_file)


def _variant_data(base: dict, v, where: str, point: dict, f: str) -> tuple[dict, str]:
    """(the base scenario's data with the variant's drops and sets and the sweep's ``point``
    {key: value} applied, the run's label: the variant's name and the point)."""
    data = copy.deepcopy(base)
    for key in v.drop:
        drop_path(data, key, f, f"{where}.drop")
    for key, val in v.set.items():
        set_path(data, key, val, f, f"{where}.set")
    label = v.name
    for key, val in point.items():
        set_path(data, key, val, f, f"sweep.{key}")
        label += f" [{key}={val}]"
    return data, label


def prepared(exp: dict, model_file: str | None = None) -> dict:
    """``exp`` with every run carrying what it needs by value: its format's name, its frozen
    scenario (from the run's ``data``, read against ``exp["base"]``) and its model
    (``model_file``, else ``exp["model"]``, else the scenario's, else the default).  Runs that
    already carry them are left as they are."""
    from .scenario import load_data

    for r in exp["runs"]:
        if "scenario" not in r:
            r["scenario"] = load_data(r["data"], exp["base"])[1]
            r["format"] = r["data"]["scenario"]["format"]
    todo = [r for r in exp["runs"] if "model" not in r]
    for r, m in zip(todo, _models(todo, model_file or exp["model"])):
        r["model"] = m
    return exp


# ---- one variant -------------------------------------------------------------------------------
def run_one(name: str, format_name: str, scn, model, at, sims: int, seed: int) -> dict:
    """Simulate one variant and measure it.  Pure: safe to ship to a Dask worker.

    ``scn`` is the variant's frozen scenario and ``model`` the outcome model already chosen
    for its event kind (both by value: nothing is read from files here); ``format_name`` is
    the scenario's ``[scenario] format``.  On a Dask worker the kernel runs on the worker's
    threads (:func:`_worker_threads`)."""
    from .formats.base import CompileOptions
    from .scenario import get_format

    plan = get_format(format_name).compile(scn, model, CompileOptions(at=at))
    return measure(name, plan.info, _run(plan, sims, seed))


# one variant's kernel at a time in a worker process: it runs on all the worker's threads (the
# worker's other task threads wait here), so a worker never runs more numba threads than it
# was given, and numba's threading layer is never entered from two threads at once
_WORKER_KERNEL = threading.Lock()


def _run(plan, sims: int, seed: int):
    """``driver.run`` of one variant; on a Dask worker, on the worker's threads."""
    from . import driver

    threads = _worker_threads()
    if threads is None:
        return driver.run(plan, sims, seed, progress=False)
    import numba
    with _WORKER_KERNEL:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
        return driver.run(plan, sims, seed, progress=False)


def _worker_threads() -> int | None:
    """The thread count of the Dask worker this runs on (None outside a worker)."""
    if "distributed" not in sys.modules:
        return None
    from distributed import get_worker
    try:
        worker = get_worker()
    except ValueError:      # not in a worker's task
        return None
    return max(1, int(worker.state.nthreads))


def _models(runs: list[dict], model_file: str | None) -> list:
    """The outcome model of each run for its event kind, each file read once: ``model_file``,
    else the scenario's, else the default."""
    from .model import load_model

    files: dict = {}
    kinds: dict = {}
    out = []
    for r in runs:
        scn = r["scenario"]
        f = model_file or scn.model_file
        if f not in files:
            files[f] = load_model(f)
        if (f, scn.kind) not in kinds:
            kinds[(f, scn.kind)] = files[f].for_kind(scn.kind)
        out.append(kinds[(f, scn.kind)])
    return out


def measure(name: str, info, res) -> dict:
    """Fairness measures of one run (value, standard error or None) and every player's P(1st)
    and P(qualify)."""
    import numpy as np

    n = res.sims
    place = res.tallies["place"] / n
    qual = res.tallies["qualify"] / n
    rating = np.asarray(info.ratings, float)
    active = np.array(info.active or [True] * len(rating), bool)
    # the favourite and the rating ranks among those who take part (a player who plays no
    # event of a series cannot be the best player of its field)
    order = np.argsort(-np.where(active, rating, -np.inf), kind="stable")
    rrank = np.empty(len(rating), int)
    rrank[order] = np.arange(len(rating))
    who = np.flatnonzero(active)
    fav = int(order[0])

    def prob(p):
        return (float(p), math.sqrt(max(p * (1 - p), 0.0) / n))

    win = place[:, 0]
    k = place.shape[1]
    disp = sum(place[i, q] * abs(q - rrank[i]) for i in who for q in range(k))
    nz = win[win > 0]
    measures = {
        "p_favourite_first": prob(win[fav]),
        "p_favourite_qualifies": prob(qual[fav]),
        "winner_rating_rank": (float((win * (rrank + 1)).sum()), None),
        "mean_displacement": (float(disp / len(who)), None),
        "winner_entropy_bits": (float(-(nz * np.log2(nz)).sum()), None),
    }
    if info.field_measures:
        measures.update(field_measures(info, res, rating, rrank, who))
    for key, v in res.counters().items():
        measures[key] = (v["p"], v["se"])
    return {"name": name, "sims": n, "favourite": info.names[fav],
            "qualifying_places": info.qualifying_places,
            "players": [{"name": nm, "rating": float(rating[i]), "p_first": prob(win[i]),
                         "p_qualify": prob(qual[i])} for i, nm in enumerate(info.names)
                        if active[i]],
            "measures": measures}


def field_measures(info, res, rating, rrank, who) -> dict:
    """The field the qualifying places make (a cycle's final): its mean rating, and the share
    of the top ``q`` players by rating (among those who take part) in it, q = the places.
    Both are means over replicas of a per-replica sum of per-player terms, so each is that
    sum over players of P(qualify) times the term: exact from the tallies, no per-replica
    record needed (their standard errors would need one, so none is given)."""
    import numpy as np

    n = res.sims
    q = info.qualifying_places
    qual = res.tallies["qualify"] / n
    top = np.zeros(len(rating), bool)
    top[[i for i in who if rrank[i] < q]] = True
    return {"field_mean_rating": (float((qual * rating).sum() / q), None),
            "field_top_share": (float(qual[top].sum() / q), None)}


# ---- running all variants ----------------------------------------------------------------------
def run_experiment(exp: dict, *, sims=None, seed=None, dask=None, progress=True) -> dict:
    """Every run of ``exp``; on Ctrl-C or a cluster failure, what finished is kept in the
    result (``incomplete``) and the CLI reports it before its one-line error."""
    sims = sims or exp["sims"]
    seed = exp["seed"] if seed is None else seed
    prepared(exp)
    args = [(r["name"], r["format"], r["scenario"], r["model"], exp["at"], sims, seed)
            for r in exp["runs"]]
    out = {"experiment": exp["name"], "file": exp["file"], "at": exp["at"] or "latest",
           "sims": sims, "seed": seed, "variants": [], "incomplete": None}
    try:
        if dask:
            out["incomplete"] = _on_dask(args, dask, out["variants"], progress)
        else:
            from tqdm import tqdm
            for a in tqdm(args, desc="variants", disable=None if progress else True,
                          leave=False, file=sys.stderr):
                out["variants"].append(run_one(*a))
    except KeyboardInterrupt:
        out["incomplete"] = f"interrupted after {len(out['variants'])} of {len(args)} variants"
        out["interrupted"] = True
        return out
    out["warnings"] = warnings(out["variants"])
    return out


WORKER_WAIT = 30.0   # seconds without a worker (or the scheduler) before giving up
POLL = 0.5           # seconds between looks at the cluster while variants run


def _quiet_distributed() -> None:
    """Silence ``distributed``'s own logging (lost connections, retries, tracebacks): what
    failed is reported once, in one line, at the end."""
    import logging
    quiet = ("distributed", "tornado", "asyncio", "bokeh")
    names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] in quiet]
    for name in (*quiet, *names):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _on_dask(args, address: str, keep: list, progress: bool = True) -> str | None:
    """Run on a Dask cluster.  ``keep`` receives the finished variants in input order (also
    when Ctrl-C stops the run); returns a one-line failure note, or None.

    The client watches the cluster while it waits: with no connection to the scheduler, or no
    worker, for :data:`WORKER_WAIT` seconds it stops, keeps what finished and says what was
    lost."""
    try:
        import distributed
    except ImportError:
        raise ScenarioError("--dask needs the dask extra: pip install 'simcycle[dask]'",
                            key="--dask") from None
    import time

    from tqdm import tqdm

    _quiet_distributed()
    client, cluster = _connect(distributed, address)
    _quiet_distributed()    # loggers the connection created
    results: list = [None] * len(args)
    failed: list[str] = []
    lost = None
    bar = tqdm(total=len(args), desc="variants", disable=None if progress else True,
               leave=False, file=sys.stderr)
    try:
        try:
            client.wait_for_workers(1, timeout=WORKER_WAIT)
        except Exception:
            raise ClusterError(f"--dask {address}: the cluster has no workers (none joined "
                               f"within {WORKER_WAIT:g} s)") from None
        futures = {client.submit(run_one, *a, pure=False): i for i, a in enumerate(args)}
        pending = set(futures)
        seen = time.monotonic()       # the last time the scheduler and a worker were there
        while pending and not lost:
            try:
                done, pending = distributed.wait(pending, timeout=POLL,
                                                 return_when="FIRST_COMPLETED")
            except (TimeoutError, distributed.TimeoutError):
                done = set()
            except distributed.client.FuturesCancelledError:   # the scheduler went away
                lost = "the connection to the scheduler"
                break
            lost = _take_done(done, futures, results, failed, args, bar)
            keep[:] = [r for r in results if r is not None]
            if pending and not lost:
                seen, lost = _watch(client, seen, time.monotonic())
        return _failure_note(address, results, failed, lost)
    finally:
        bar.close()
        keep[:] = [r for r in results if r is not None]
        _close(client, cluster)


def _connect(distributed, address: str) -> tuple:
    """(client, the local cluster or None) for ``--dask ADDRESS``; a bad address or an
    unreachable scheduler is one line."""
    try:
        if address == "local":
            # one in-process worker with one thread: the cluster code path (shipping runs to
            # a worker and back) without a cluster; variants run one after another
            cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1,
                                               processes=False, dashboard_address=None)
            return distributed.Client(cluster), cluster
        return distributed.Client(address, timeout="10s"), None
    except Exception as e:   # bad address, unreachable scheduler: one line
        raise ClusterError(f"--dask {address}: cannot connect to the scheduler "
                           f"({type(e).__name__}: {_one_line(e)})") from None


def _take_done(done, futures: dict, results: list, failed: list, args, bar) -> str | None:
    """Each finished future's result into ``results`` (at its variant's index), a failure's
    line into ``failed``; returns what was lost ("the connection to the scheduler": only a
    lost scheduler cancels futures here), or None."""
    lost = None
    for fut in done:
        i = futures[fut]
        if fut.status == "cancelled":
            lost = "the connection to the scheduler"
            continue
        try:
            results[i] = fut.result()
        except Exception as e:
            failed.append(f"{args[i][0]!r}: {type(e).__name__}: {_one_line(e)}")
        bar.update(1)
    return lost


def _watch(client, seen: float, now: float) -> tuple[float, str | None]:
    """(the last time the scheduler and a worker were there, what was lost for
    :data:`WORKER_WAIT` seconds or None)."""
    up = client.status == "running"
    if up and client.scheduler_info().get("workers"):
        return now, None
    if now - seen > WORKER_WAIT:
        return seen, (f"the connection to the scheduler for {WORKER_WAIT:g} s" if not up
                      else f"every worker for {WORKER_WAIT:g} s")
    return seen, None


def _failure_note(address: str, results: list, failed: list, lost: str | None) -> str | None:
    """The run's one-line failure note: what was lost and how many variants finished, else
    how many failed, else None."""
    if lost:
        done_n = sum(r is not None for r in results)
        return (f"--dask {address}: lost {lost}; {done_n} of {len(results)} variants "
                "finished")
    if failed:
        return (f"{len(failed)} of {len(results)} variants failed on the cluster (e.g. "
                f"{failed[0]})")
    return None


def _close(client, cluster) -> None:
    """Close the client (and a local cluster) without waiting on a lost scheduler."""
    try:
        client.close(timeout=2)
    except Exception:   # the scheduler is gone: nothing to close there
        pass
    if cluster is not None:
        cluster.close()


def _one_line(e: Exception) -> str:
    text = " ".join(str(e).split())
    return text[:200] if text else type(e).__name__


SIZE_DEPENDENT = ("winner_rating_rank", "mean_displacement", "winner_entropy_bits")


def warnings(results: list[dict]) -> list[str]:
    """Measures that cannot be compared between variants with fields of different sizes."""
    sizes = {len(r["players"]) for r in results}
    if len(sizes) > 1:
        listed = ", ".join(map(str, sorted(sizes)))
        return [f"the variants have fields of different sizes ({listed} "
                f"players): {', '.join(SIZE_DEPENDENT)} are not comparable between them"]
    return []


# ---- text ---------------------------------------------------------------------------------------
MEASURE_TEXT = {
    "p_favourite_first": "favourite (highest rated) wins, %",
    "p_favourite_qualifies": "favourite qualifies, %",
    "winner_rating_rank": "rating rank of the winner (1 = favourite)",
    "mean_displacement": "mean |final place - rating rank|",
    "winner_entropy_bits": "winner's entropy, bits (0 = certain)",
    "field_mean_rating": "mean rating of the final's field",
    "field_top_share": "share of the top N by rating in it (N = seats)",
}


def render(d: dict) -> str:
    vs = d["variants"]
    lines = [f"{d['experiment']}  at {d['at']}  ({d['sims']:,} simulations per variant, "
             f"seed {d['seed']})", ""]
    if d.get("incomplete"):   # the header says what is missing (interrupted, or a cluster)
        lines.insert(1, f"INCOMPLETE: {d['incomplete']}; every variant shown ran all "
                        f"{d['sims']:,} simulations")
    for k, v in enumerate(vs):
        lines.append(f"  V{k + 1}  {v['name']}")
    if not vs:
        lines.append("  (no variant finished)")
        return "\n".join(lines)
    lines.append("")
    one = all(v.get("qualifying_places") == 1 for v in vs)
    vcols = "".join(f"{'V' + str(k + 1):>14}" for k in range(len(vs)))
    lines += _measure_lines(vs, vcols, one)
    lines += ["", ("P(first) % by player (one place qualifies; ± one standard error where "
                   "shown):") if one else
              "P(qualify) % by player (± one standard error where shown):"]
    lines += _player_lines(vs, f"{'player':<26}" + vcols)
    lines += ["", "percentages with one standard error; 0 = never in the runs; <0.1 = below "
              "0.05 %; '-' = not in that variant (or plays no part in it)"]
    for wmsg in d.get("warnings") or []:
        lines.append("warning: " + wmsg)
    return "\n".join(lines)


def _measure_lines(vs: list[dict], vcols: str, one: bool) -> list[str]:
    """The measures' table: a row per measure named in any variant, a column per variant
    (``vcols`` their heads); with ``one`` qualifying place "qualifies" is "wins", said once."""
    label = {m: MEASURE_TEXT.get(m, m + ", %") for v in vs for m in v["measures"]
             if not (one and m == "p_favourite_qualifies")}
    w = max(map(len, label.values())) + 2
    head = f"{'measure':<{w}}" + vcols
    return [head, "-" * len(head)] + [
        f"{text:<{w}}" + "".join(_measure_cell(v["measures"].get(m)) for v in vs)
        for m, text in label.items()]


def _player_lines(vs: list[dict], head: str) -> list[str]:
    """The players' P(qualify) by variant under ``head``, the likeliest (in V1, then V2...)
    first; '-' where a player is not in a variant."""
    by = [{p["name"]: p["p_qualify"] for p in v["players"]} for v in vs]
    names = sorted(dict.fromkeys(n for b in by for n in b),
                   key=lambda n: tuple(-b.get(n, (0,))[0] for b in by))
    return [head, "-" * len(head)] + [
        f"{nm[:25]:<26}" + "".join(f"{_pct(*b[nm]):>14}" if nm in b else f"{'-':>14}"
                                   for b in by) for nm in names]


def _measure_cell(m: list | None) -> str:
    """A measure's (value, SE) of a variant, 14 wide: a percentage with its error, a number
    without one, '-' if the variant has no such measure."""
    if m is None:
        return f"{'-':>14}"
    x, se = m
    return f"{_pct(x, se):>14}" if se is not None else f"{x:14.2f}"


def _pct(p: float, se: float | None) -> str:
    """A probability in percent with its standard error; 0 = never in the runs, "<0.1" below
    0.05 %."""
    if p == 0.0:
        return "0"
    if p < 0.0005:
        return "<0.1"
    if se is None or se == 0:
        return f"{100 * p:.1f}"
    return f"{100 * p:.1f} ±{100 * se:.1f}"
