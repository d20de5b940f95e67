"""Experiments on a real Dask cluster: a scheduler and a worker in processes of their own, the
worker started in another folder.

Each case runs in a process of its own (as ``test_dask_cluster_without_workers_is_one_line`` in
test_experiment.py does): a Dask client, scheduler and worker per case, nothing left behind in
the test process.  The experiment, its base scenario and a custom model are written to a
folder that is deleted before the variants go to the cluster, so the worker can only have
received them by value.
"""

import json
import subprocess
import sys

import pytest

from conftest import ROOT

pytest.importorskip("distributed")

CASE = r'''
import json, os, shutil, signal, subprocess, sys, tempfile, time
from pathlib import Path

from click.testing import CliRunner
from simcycle import experiment as ex
from simcycle.cli import main
from simcycle.cli.options import emit_json

mode, root = sys.argv[1], Path(sys.argv[2])
tmp = Path(tempfile.mkdtemp())
work, elsewhere = tmp / "experiment", tmp / "elsewhere"
work.mkdir(); elsewhere.mkdir()
# a custom model: the shipped v2 with another reference rating (so another draw rate)
model = (root / "models" / "davidson-elo-v2.toml").read_text()
assert "reference_rating = 2750" in model
(work / "custom.toml").write_text(model.replace("reference_rating = 2750",
                                                "reference_rating = 2650"))
shutil.copy(root / "scenarios" / "candidates-2022.toml", work / "base.toml")
(work / "exp.toml").write_text("""
[experiment]
name = "cluster check"
base = "base.toml"
model = "custom.toml"
at = "round7"
sims = %d
seed = 7
[[variant]]
name = "as played"
[[variant]]
name = "Sonneborn-Berger decides first"
set = { "tiebreak.playoff_places" = 0 }
[[variant]]
name = "no play-off, wins first"
set = { "tiebreak.playoff_places" = 0, "tiebreak.order" = ["wins", "sonneborn-berger"] }
""" % (3000 if mode == "match" else 1_500_000))
os.chdir(work)

def cli(*args):
    r = CliRunner().invoke(main, ["experiment", "exp.toml", "--no-progress", *args])
    return r.exit_code, r.output

out = {}
if mode == "match":
    out["local"] = cli("--json")
    out["default_model"] = cli("--json", "--model", str(root / "models" / "davidson-elo-v2.toml"))

# the cluster: a scheduler and a worker (no nanny, one thread) started in another folder;
# both are ended whatever happens here
sched_file = tmp / "scheduler.json"
py = sys.executable
procs = {}


def stop_all():
    for p in procs.values():
        if p.poll() is None:
            p.kill()
            p.wait(60)


import atexit
atexit.register(stop_all)
procs["scheduler"] = subprocess.Popen(
    [py, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
     "--no-dashboard", "--scheduler-file", str(sched_file)], cwd=elsewhere,
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
for _ in range(1200):
    if sched_file.exists() and sched_file.read_text().strip():
        break
    time.sleep(0.1)
address = json.loads(sched_file.read_text())["address"]
procs["worker"] = subprocess.Popen(
    [py, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1", "--no-nanny",
     "--no-dashboard"], cwd=elsewhere, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

exp = ex.load_experiment("exp.toml")
os.chdir(elsewhere)
shutil.rmtree(work)            # nothing of the experiment is on disk any more
ex.WORKER_WAIT = 5.0
if mode != "match":            # kill one process once the first variant is back
    real = ex._on_dask
    victim = procs["scheduler" if mode == "scheduler-lost" else "worker"]

    def watched(args, addr, keep, progress=True):
        class Kept(list):
            def __setitem__(self, i, v):
                super().__setitem__(i, v)
                keep[:] = list(self)
                if len(self) >= 1 and victim.poll() is None:
                    victim.send_signal(signal.SIGKILL)
                    victim.wait()
        return real(args, addr, Kept(), progress)
    ex._on_dask = watched
try:
    d = ex.run_experiment(exp, dask=address, progress=False)
finally:
    stop_all()
if mode == "match":
    import contextlib, io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        emit_json(d)           # what `simcycle experiment --json` prints
    out["cluster"] = (0, buf.getvalue())
else:
    out["cluster"] = (d["incomplete"], ex.render(d), len(d["variants"]))
print(json.dumps(out))
'''


def run_case(mode: str) -> dict:
    p = subprocess.run([sys.executable, "-c", CASE, mode, str(ROOT)], capture_output=True,
                       text=True, timeout=600, cwd=ROOT)
    assert p.returncode == 0, p.stderr[-3000:]
    # distributed's own logging stays quiet: nothing on the real stderr
    assert "Traceback" not in p.stderr and "distributed" not in p.stderr, p.stderr[-3000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


def test_worker_elsewhere_with_a_custom_model_matches_the_local_run_byte_for_byte():
    r = run_case("match")
    code, local = r["local"]
    assert code == 0, local
    assert r["cluster"][1] == local                      # the same JSON, byte for byte
    d = json.loads(local)
    assert len(d["variants"]) == 3 and not d["incomplete"]
    # the custom model was used: the shipped model gives other numbers
    assert r["default_model"][0] == 0
    other = json.loads(r["default_model"][1])
    assert other["variants"][0]["players"] != d["variants"][0]["players"]


@pytest.mark.parametrize("mode, lost", [("worker-lost", "lost every worker for 5 s"),
                                        ("scheduler-lost", "lost the connection to the scheduler")])
def test_losing_the_cluster_ends_with_one_line_and_keeps_what_finished(mode, lost):
    note, text, finished = run_case(mode)["cluster"]
    assert note is not None and lost in note, note
    assert "\n" not in note
    assert 1 <= finished < 3 and f"{finished} of 3 variants finished" in note
    assert "V1  as played" in text                       # the finished variant is reported
