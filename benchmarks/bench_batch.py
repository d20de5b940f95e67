"""CPU per answered ``simulate`` when the process stays: ``simcycle batch`` against one
``simcycle simulate`` process per question, and the Python API's resident ``Event``.

Every variant answers the same questions (Candidates 2022 from round 9, --sims SIMS, seeds
1..N, --json) and the answers are checked equal before any figure is printed.  CPU time
(user + system, the processes' own accounting) because the machine is shared.

    .venv/bin/python benchmarks/bench_batch.py --sims 100000 --n 21
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SC = str(Path(sys.executable).with_name("simcycle"))


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd: list[str], stdin: str | None = None) -> tuple[str, float]:
    before = child_cpu()
    out = subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=True).stdout
    return out, child_cpu() - before


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sims", type=int, default=100_000)
    ap.add_argument("--n", type=int, default=21, help="questions per batch")
    ap.add_argument("--at", default="round9")
    a = ap.parse_args()
    line = f"simulate candidates-2022 --at {a.at} --sims {a.sims} --json --no-progress --seed"
    run([SC, *line.split(), "1"])       # warm numba's cache

    # one process per question
    one_cpu, answers = 0.0, []
    for s in range(1, a.n + 1):
        out, cpu = run([SC, *line.split(), str(s)])
        one_cpu += cpu
        answers.append(json.loads(out))

    # one batch of n questions, and a batch of one (what the batch's own start-up costs)
    text = "".join(f"{line} {s}\n" for s in range(1, a.n + 1))
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "questions.txt")
        Path(f).write_text(text)
        out, batch_cpu = run([SC, "batch", "--jsonl", f])
        _, first_cpu = run([SC, "batch", "--jsonl", "-"], stdin=f"{line} 1\n")
    got = [json.loads(json.loads(x)["output"]) for x in out.splitlines()]
    assert got == answers, "batch answers differ from one process per question"

    # the resident engine in this process (the serve page's path)
    import simcycle
    ev = simcycle.load("candidates-2022")
    ev.simulate_json(a.at, sims=a.sims, seed=1)
    t0 = time.process_time()
    for s in range(1, a.n + 1):
        d = ev.simulate_json(a.at, sims=a.sims, seed=s)
        assert d == answers[s - 1]
    api_cpu = (time.process_time() - t0) / a.n

    per_batch = (batch_cpu - first_cpu) / (a.n - 1)
    print(f"Candidates 2022 from {a.at}, --sims {a.sims:,}, {a.n} questions, "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print(f"one process per question : {one_cpu / a.n:.3f} CPU-s per answer")
    print(f"simcycle batch           : {batch_cpu / a.n:.3f} CPU-s per answer over the batch, "
          f"{per_batch:.3f} per further answer (a batch of one: {first_cpu:.3f})")
    print(f"resident Event (API)     : {api_cpu:.3f} CPU-s per answer")


if __name__ == "__main__":
    main()
