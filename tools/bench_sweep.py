"""Benchmark: the sweep machinery — two workers against one, Dask against the process pool, and the
cost per point of the machinery against a bare ``simulate`` call, side by side in one run.

    python -m tools.bench_sweep [--quick] [--cards N] [--repeat 2] [--json]

The sweep: 4 bit rates x 5 widths x 10 bit error rates = 200 points, one seed each, a deck of 100
synthetic cards (``--cards``; ``--quick``: 40 points, 40 cards).  Compiled, a point of 1000 cards takes
about 1.3 ms (many points give up early at the high error rates), so the whole sweep is a quarter of a
second and the pool's start-up (some 50 ms) weighs on the two-worker ratio; with ``--cards 10000`` a
point takes about 10 ms and the start-up is a few per cent of the sweep.
Timed, each ``--repeat`` times in turn (a shared machine's speed drifts, so the best of each is compared):

* ``bare``: ``simulate(deck, config)`` of every point in this process, one after another;
* ``in-process``: :func:`ibm1013.sweep.grid.run_many` of every point here (rows built, no pool);
* ``pool 1`` / ``pool 2``: :func:`ibm1013.sweep.run_sweep` on a process pool of one / two workers,
  writing a CSV (pool start-up included: it is part of what a user waits for);
* ``dask 2``: the same on a Dask LocalCluster of two worker processes (cluster start-up timed apart).

Each round also times ``run_many`` of every point in one process, then in each of two processes at
once (started and warmed first, released together): what the machine itself gives two workers
against one, with no pool, which on a virtual machine's two cores can be less than 2x.

Printed: seconds, and the ratios the issue asks for — pool 2 against pool 1 (ideal: the number of
free cores, at most what the machine itself gives), Dask against the pool, and the machinery's cost
per point against a bare call — and the CPU time this process spends per point (for the pools:
handing out batches and writing rows), which a busy machine changes far less than wall time.  Not a
test: figures depend on the machine and on what else runs on it.

``--instructions [--before CHECKOUT]`` counts instead of timing, for a machine whose speed moves from
one minute to the next (valgrind, ``apt-get install valgrind``; the count does not move with the
load), in this checkout and, with ``--before``, in another one side by side:

* ``sweep``: the sweep's own process, per point — :func:`ibm1013.sweep.run_sweep` of the 200 points
  writing a CSV and a JSON Lines file, given by a backend that hands back rows made beforehand, in
  the batches two pool workers get (the checkout's own ``BATCHES_PER_WORKER`` a worker: planning,
  writing, ordering, rewriting, the summary: what the coordinating process does besides the pool's
  own hand-outs); three sweeps counted less none;
* ``worker``: what a worker adds to each run — ``run_many`` of the 200 points (100 cards) less the
  bare ``simulate`` loop of the same configurations.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

from ibm1013.sim.transfer import simulate
from ibm1013.sweep import grid, run_sweep
from ibm1013.sweep.backends import ProcessPool, default_workers
from ibm1013.sweep.cluster import DaskCluster
from ibm1013.sweep.grid import Run, config_of, run_many, synthetic_deck


def sweep_points(quick: bool) -> list[dict[str, Any]]:
    bers = [0.0, 1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 2e-3, 3e-3, 5e-3, 1e-2]
    if quick:
        return grid({"bit_rate": [1200, 2400], "columns": ["80", "20"], "ber": bers})
    return grid({"bit_rate": [600, 1200, 2000, 2400], "columns": ["80", "60", "40", "20", "10"],
                 "ber": bers})


def _runs_at_once(deck: Any, runs: list[Run], ready: Any, go: Any, spans: Any) -> None:
    """In a process of :func:`at_once`: warm up, wait for the start, run every run, say when."""
    run_many(deck, runs[:10])
    ready.put(None)
    go.wait()
    start = time.monotonic()
    run_many(deck, runs)
    spans.put((start, time.monotonic()))


def at_once(processes: int, deck: Any, runs: list[Run]) -> float:
    """Seconds from the common start to the last end of ``processes`` processes each running
    ``run_many`` of every run at once (started and warmed first, then released together): with
    one and two, what this machine itself gives two workers against one, with no pool, no
    hand-outs and no start-up (two cores of a virtual machine may do less than twice the work)."""
    import multiprocessing

    context = multiprocessing.get_context("forkserver")
    ready, go, spans = context.Queue(), context.Event(), context.Queue()
    procs = [context.Process(target=_runs_at_once, args=(deck, runs, ready, go, spans))
             for _ in range(processes)]
    for proc in procs:
        proc.start()
    try:
        for _ in procs:
            ready.get(timeout=300)
        go.set()
        ends = [spans.get(timeout=600) for _ in procs]
    finally:
        for proc in procs:
            proc.join(timeout=60)
    return max(end for _, end in ends) - min(start for start, _ in ends)


def timed(work: Callable[[], Any]) -> tuple[float, float]:
    """Wall seconds, and CPU seconds of this process (for a pool: the coordinator's own work)."""
    start, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - start, time.process_time() - cpu


_COUNTED = r"""
import sys, tempfile
from ibm1013.sim.transfer import simulate
from ibm1013.sweep import grid, run_sweep
from ibm1013.sweep.backends import BATCHES_PER_WORKER
from ibm1013.sweep.grid import Run, config_of, run_many, synthetic_deck
points = grid({"bit_rate": [600, 1200, 2000, 2400], "columns": ["80", "60", "40", "20", "10"],
               "ber": [0.0, 1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 2e-3, 3e-3, 5e-3, 1e-2]})
deck = synthetic_deck(100)
runs = [Run(p, 0) for p in points]
what, times = sys.argv[1], int(sys.argv[2])
if what == "sweep":
    made = dict(zip([r.key for r in runs], run_many(deck, runs)))
    class Made:
        workers, batches_per_worker = 2, BATCHES_PER_WORKER
        def map(self, deck, batches, task):
            return ([dict(made[run.key]) for run in batch] for batch in batches)
    tmp = tempfile.mkdtemp()
    for i in range(times):
        run_sweep(deck, points, 1, backend=Made(), outputs=[f"{tmp}/{i}.csv", f"{tmp}/{i}.jsonl"])
elif times:
    run_many(deck, runs)
else:
    configs = [config_of(p, r.seed) for p, r in zip(points, runs)]
    [simulate(deck, c) for c in configs]
"""


def instructions(root: str) -> dict[str, Any]:
    """Instructions a point of the sweep's own process and of a worker's machinery take in checkout
    ``root`` (see the module docstring)."""
    from tools import callgrind

    sweep = [callgrind.count(_COUNTED, "sweep", str(n), root=root)[0] for n in (0, 3)]
    worker = [callgrind.count(_COUNTED, "worker", str(n), root=root)[0] for n in (0, 1)]
    return {"tree": root, "sweep_per_point": round((sweep[1] - sweep[0]) / 3 / 200),
            "worker_per_point": round((worker[1] - worker[0]) / 200)}


def count_instructions(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``--instructions``: count, print, return the exit status."""
    from tools import callgrind

    if shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind (apt-get install valgrind)")
    rows = [instructions(callgrind.ROOT)]
    if args.before:
        rows.append(instructions(os.path.abspath(args.before)))
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    for row in rows:
        print(f"{row['tree']}: the sweep's process {row['sweep_per_point']:,} instructions a point, "
              f"a worker's machinery {row['worker_per_point']:,} a run")
    if args.before:
        now, before = rows
        print(f"now / before: the sweep's process {now['sweep_per_point'] / before['sweep_per_point']:.3f}, "
              f"a worker's machinery {now['worker_per_point'] / before['worker_per_point']:.3f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="40 points of 40 cards")
    parser.add_argument("--cards", type=int, default=100, help="cards in the deck of every point")
    parser.add_argument("--repeat", type=int, default=2, help="rounds (the best of each is shown)")
    parser.add_argument("--no-dask", action="store_true", help="leave Dask out")
    parser.add_argument("--json", action="store_true", help="figures as JSON")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions under valgrind instead of timing")
    parser.add_argument("--before", metavar="CHECKOUT",
                        help="with --instructions: count in this checkout too")
    args = parser.parse_args(argv)
    if args.before and not args.instructions:
        parser.error("--before needs --instructions")
    if args.before and not os.path.isfile(os.path.join(args.before, "ibm1013", "sweep", "runner.py")):
        parser.error(f"--before {args.before}: not a checkout of this project (no ibm1013/sweep in it)")
    if args.instructions:
        return count_instructions(parser, args)

    points = sweep_points(args.quick)
    if args.cards < 1:
        parser.error("--cards must be at least 1")
    deck = synthetic_deck(40 if args.quick else args.cards)
    runs = [Run(p, 0) for p in points]
    configs = [config_of(p, r.seed) for p, r in zip(points, runs, strict=True)]
    dask = None
    dask_start = 0.0
    if not args.no_dask:
        started = time.perf_counter()
        dask = DaskCluster("local", 2, timeout=60)
        dask_start = time.perf_counter() - started
    times: dict[str, list[float]] = {}
    machine: dict[int, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        made = iter(range(10**6))

        def swept(backend: Any) -> Callable[[], Any]:
            path = os.path.join(tmp, f"{next(made)}.csv")
            return lambda: run_sweep(deck, points, 1, backend=backend, outputs=[path])

        try:
            for _ in range(max(1, args.repeat)):
                rounds = {
                    "bare": lambda: [simulate(deck, c) for c in configs],
                    "in-process": lambda: run_many(deck, runs),
                    "pool 1": swept(ProcessPool(1)),
                    "pool 2": swept(ProcessPool(2)),
                }
                if dask is not None:
                    rounds["dask 2"] = swept(dask)
                for name, work in rounds.items():
                    wall, used = timed(work)
                    times.setdefault(name, []).append(wall)
                    cpu.setdefault(name, []).append(used)
                for processes in (1, 2):
                    machine.setdefault(processes, []).append(at_once(processes, deck, runs))
        finally:
            if dask is not None:
                dask.close()
    best = {name: min(t) for name, t in times.items()}
    n = len(points)
    figures: dict[str, Any] = {
        "points": n, "cards": len(deck), "cores_seen": default_workers(), "load_average": os.getloadavg(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "seconds_best": {k: round(v, 3) for k, v in best.items()},
        "seconds_all": {k: [round(x, 3) for x in v] for k, v in times.items()},
        "speedup_pool2_over_pool1": round(best["pool 1"] / best["pool 2"], 3),
        "machine_seconds_all": {f"{n} at once": [round(x, 3) for x in v] for n, v in machine.items()},
        "machine_two_over_one": round(2 * min(machine[1]) / min(machine[2]), 3),
        "overhead_in_process_ms_per_point": round(1000 * (best["in-process"] - best["bare"]) / n, 3),
        "overhead_pool1_ms_per_point": round(1000 * (best["pool 1"] - best["bare"]) / n, 3),
        "pool1_over_bare": round(best["pool 1"] / best["bare"], 3),
        "cpu_ms_per_point": {k: round(1000 * min(v) / n, 3) for k, v in cpu.items()},
    }
    if dask is not None:
        figures["dask_cluster_start_seconds"] = round(dask_start, 3)
        figures["dask2_over_pool2"] = round(best["dask 2"] / best["pool 2"], 3)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{n} points x 1 seed, {len(deck)} cards each; {figures['python']}; "
          f"{figures['cores_seen']} cores seen, load average {figures['load_average'][0]:.1f} "
          f"(other work on the machine slows the pools most)")
    for name, seconds in best.items():
        rest = ", ".join(f"{x:.2f}" for x in times[name])
        print(f"  {name:11s} {seconds:7.2f} s  ({1000 * seconds / n:6.2f} ms/point; rounds: {rest})")
    print(f"two workers against one:        {figures['speedup_pool2_over_pool1']:.2f}x faster")
    print(f"the machine itself, two processes of run_many at once against one: "
          f"{figures['machine_two_over_one']:.2f}x the work in the time "
          f"(the most a pool could give, as loaded now)")
    if dask is not None:
        print(f"Dask LocalCluster against pool: {figures['dask2_over_pool2']:.2f}x the time "
              f"(cluster start-up {dask_start:.1f} s, not counted)")
    print(f"machinery per point: in-process {figures['overhead_in_process_ms_per_point']:+.2f} ms, "
          f"pool of one {figures['overhead_pool1_ms_per_point']:+.2f} ms "
          f"({figures['pool1_over_bare']:.2f}x a bare simulate loop)")
    used = figures["cpu_ms_per_point"]
    print(f"CPU of this process per point: bare {used['bare']:.2f} ms, in-process {used['in-process']:.2f} "
          f"ms; coordinating pool 1 {used['pool 1']:.2f} ms, pool 2 {used['pool 2']:.2f} ms"
          + (f", dask {used['dask 2']:.2f} ms" if "dask 2" in used else "")
          + " (CPU time barely depends on the load)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
