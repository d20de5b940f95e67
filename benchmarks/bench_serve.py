"""CPU and wall time per what-if answered by the ``serve`` page's engine (POST /api/odds),
Candidates 2022 from round 9, each of round 10's twelve results in turn.

    .venv/bin/python benchmarks/bench_serve.py --sims 20000
"""

from __future__ import annotations

import argparse
import os
import statistics
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sims", type=int, default=20_000)
    a = ap.parse_args()
    from starlette.testclient import TestClient

    from simcycle.serve import Live, make_app

    live = Live("candidates-2022", at="round9", sims=a.sims, history_sims=500, swing_sims=1000)
    client = TestClient(make_app(live))
    state = client.get("/api/state").json()
    fixes = [r["fix"] for g in state["choices"][:4] for r in g["results"]]
    client.post("/api/odds", json={"fix": fixes[:1]})          # warm
    cpu, wall = [], []
    for f in fixes:
        c0, w0 = time.process_time(), time.perf_counter()
        r = client.post("/api/odds", json={"fix": [f]})
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
        assert r.status_code == 200 and r.json()["assumed"]
    print(f"Candidates 2022 from round9, {a.sims:,} simulations per answer, {len(fixes)} "
          f"what-ifs, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print(f"CPU per answer : median {statistics.median(cpu):.3f} s, max {max(cpu):.3f} s")
    print(f"wall per answer: median {statistics.median(wall):.3f} s, max {max(wall):.3f} s")


if __name__ == "__main__":
    main()
