"""Benchmark: where a Dask worker's CPU time goes while it runs a sweep's batch, with Dask's default
worker settings and with those ``--dask local`` starts its workers with
(:data:`ibm1013.sweep.cluster.WORKER_CONFIG`).

    python -m tools.bench_dask_worker [--points 40] [--cards 100] [--repeat 4] [--json]

For each setting, a LocalCluster of one worker process runs the same batch (``--points`` points of
the bench_sweep grid, one seed each) ``--repeat`` times.  The task measures, inside the worker, the
CPU time of the thread running it and of the whole worker process; the difference is what the
worker's other threads used meanwhile (the stack profiler, the event loop's tick, the system
monitor).  CPU time, unlike wall time, barely depends on what else the machine runs, so the share
is meaningful on a loaded machine.  Not a test.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
import time
from typing import Any

from ibm1013.sweep.cluster import WORKER_CONFIG
from ibm1013.sweep.grid import Run, run_many, synthetic_deck
from tools.bench_sweep import sweep_points


def batch_cpu(deck: Any, runs: list[Run]) -> tuple[float, float]:
    """CPU seconds of this thread and of this whole process while ``runs`` are simulated."""
    thread, process = time.thread_time(), time.process_time()
    run_many(deck, runs)
    return time.thread_time() - thread, time.process_time() - process


def shares(config: dict[str, Any], deck: Any, runs: list[Run], repeat: int) -> list[float]:
    """The other threads' share of the worker's CPU time, one figure per round."""
    import dask
    from distributed import Client, LocalCluster

    with dask.config.set(config):
        cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.CRITICAL)
    try:
        with Client(cluster) as client:
            client.submit(batch_cpu, deck, runs[:1], pure=False).result()  # imports done
            out = []
            for _ in range(repeat):
                thread, process = client.submit(batch_cpu, deck, runs, pure=False).result()
                out.append((process - thread) / process)
            return out
    finally:
        cluster.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--points", type=int, default=40, help="points in the batch")
    parser.add_argument("--cards", type=int, default=100, help="cards in the deck")
    parser.add_argument("--repeat", type=int, default=4, help="rounds of each setting")
    parser.add_argument("--json", action="store_true", help="figures as JSON")
    args = parser.parse_args(argv)
    deck = synthetic_deck(args.cards)
    runs = [Run(p, 0) for p in sweep_points(False)[:args.points]]
    figures: dict[str, Any] = {"points": len(runs), "cards": args.cards,
                               "load_average": os.getloadavg()}
    for name, config in (("dask defaults", {}), ("--dask local", WORKER_CONFIG)):
        got = shares(config, deck, runs, max(1, args.repeat))
        figures[name] = {"median": round(statistics.median(got), 4),
                         "min": round(min(got), 4), "all": [round(x, 4) for x in got]}
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{figures['points']} points x {args.cards} cards a batch; load average "
          f"{figures['load_average'][0]:.1f}")
    for name in ("dask defaults", "--dask local"):
        f = figures[name]
        print(f"  {name:14s} other threads' share of the worker's CPU: median {100 * f['median']:.1f} %, "
              f"min {100 * f['min']:.1f} % (rounds: {', '.join(f'{100 * x:.1f}' for x in f['all'])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
