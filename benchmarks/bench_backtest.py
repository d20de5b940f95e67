"""`simcycle backtest` on all the shipped games (time-ordered, events included): CPU seconds of
the per-game part (monthly refits, baselines) and of the event part (complete round robins x
checkpoints x models x 20,000 simulations), in process, after one warm-up run (numba's cache
filled).  Run: python benchmarks/bench_backtest.py"""

import time

from simcycle.model import backtest as B
from simcycle.model.gamedata import read_games


def main() -> None:
    g = read_games()
    B.run_backtest(g, [], events=True, sims=20_000, seed=1)          # warm-up
    t0 = time.process_time()
    d = B.run_backtest(g, [], events=False, sims=20_000, seed=1)
    t1 = time.process_time()
    e = B.run_backtest(g, [], events=True, sims=20_000, seed=1)
    t2 = time.process_time()
    n_ev = len(e["per_event"]["events"])
    print(f"per game: {d['events_scored']} events scored, "
          f"{sum(d['games'].values()):,} games: {t1 - t0:.2f} CPU-s")
    print(f"whole run with {n_ev} events: {t2 - t1:.2f} CPU-s")


if __name__ == "__main__":
    main()
