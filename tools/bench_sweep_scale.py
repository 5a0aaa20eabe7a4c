"""Benchmark: does a sweep's cost per point stay flat as the sweep grows?  A sweep of 200 points and
one of 10,000, side by side in one run, and their cost per point compared.

    python -m tools.bench_sweep_scale [--small 200] [--large 10000] [--repeat 3] [--pool] [--json]

Timed, in turns, ``--repeat`` times each (the best of each is compared, as a shared machine's speed
drifts):

* ``machinery``: :func:`ibm1013.sweep.run_sweep` in this process with a task that builds each run's
  row from one simulated beforehand (the point's settings and seed put in), on a backend that works
  each batch here.  What is left is the sweep's own work: planning the batches, writing each row to
  a CSV and a JSON Lines file as it comes back, putting the rows in order, rewriting both files and
  summarizing — everything that might grow with the number of points.  Its CPU time is printed too.
  The summary is then printed as ``ibm1013 sweep`` prints it, as a table and as JSON.
* ``command line``: what ``ibm1013 sweep --cards 1 --ber LIST`` does before the first run — parse the
  arguments (the list's values each checked), build the grid, and check every point's settings.
* ``pool`` (with ``--pool``): the real thing, :func:`run_sweep` on a process pool of one worker
  simulating a one-card deck at every point (start-up of the pool included).

The points vary the bit error rate (every point a distinct value), one seed each.  Printed: seconds
and milliseconds per point of each size, and the large sweep's cost per point over the small one's
(the target: at most 1.05).  Not a test: figures depend on the machine and what else runs on it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from ibm1013.cli.main import build_parser
from ibm1013.cli.sweep import _table, sweep_values
from ibm1013.sweep import grid, run_sweep
from ibm1013.sweep.backends import ProcessPool
from ibm1013.sweep.grid import Run, config_of, run_many, run_one, synthetic_deck
from tools.bench_sweep import timed


def bers(n: int) -> list[float]:
    """``n`` distinct bit error rates."""
    return [round(1e-7 * i, 12) for i in range(n)]


def points(n: int) -> list[dict[str, Any]]:
    """``n`` points, each a distinct bit error rate."""
    return grid({"ber": bers(n)})


def command_line(n: int) -> Callable[[], Any]:
    """``ibm1013 sweep --cards 1 --ber LIST``'s work before the first run, for ``n`` values."""
    argv = ["sweep", "--cards", "1", "--ber", ",".join(map(repr, bers(n)))]
    parser = build_parser()

    def go() -> None:
        for point in grid(sweep_values(parser.parse_args(argv))):
            config_of(point, 0).validate()

    return go


class HereBackend:
    """Works each batch in this process, one after another (the sweep's machinery alone)."""

    workers = 1
    description = "this process"

    def map(self, deck: np.ndarray, batches: Sequence[Sequence[Run]],
            task: Callable[..., Any]) -> Iterator[list[dict[str, Any]]]:
        for batch in batches:
            yield task(deck, batch)

    def close(self) -> None:
        pass


def template_task(deck: np.ndarray) -> Callable[[np.ndarray, Sequence[Run]], list[dict[str, Any]]]:
    """A task that gives every run the row of one run simulated now, with the run's own settings,
    seed index and seed (so rows differ as real ones do, at almost no cost)."""
    template = run_one(deck, Run(points(1)[0], 0))

    def task(_deck: np.ndarray, runs: Sequence[Run]) -> list[dict[str, Any]]:
        return [{**template, **run.point, "seed_index": run.seed_index, "seed": run.seed}
                for run in runs]

    return task


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=200, help="points of the small sweep")
    parser.add_argument("--large", type=int, default=10_000, help="points of the large sweep")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (the best of each is shown)")
    parser.add_argument("--pool", action="store_true", help="also time a real pool of one worker")
    parser.add_argument("--json", action="store_true", help="figures as JSON")
    args = parser.parse_args(argv)
    if not 1 <= args.small <= args.large:
        parser.error("need 1 <= --small <= --large")
    deck = synthetic_deck(1)
    task = template_task(deck)
    sizes = {"small": points(args.small), "large": points(args.large)}
    times: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        made = iter(range(10**6))

        def sweep(pts: list[dict[str, Any]], backend: Any, work: Any) -> Callable[[], Any]:
            def go() -> None:
                n = next(made)
                outputs = [os.path.join(tmp, f"{n}.csv"), os.path.join(tmp, f"{n}.jsonl")]
                result = run_sweep(deck, pts, 1, backend=backend, outputs=outputs, task=work)
                _table(result.summary)
                json.dumps({"points": result.summary}, indent=2)
            return go

        for _ in range(max(1, args.repeat)):
            rounds = {f"machinery {k}": sweep(p, HereBackend(), task) for k, p in sizes.items()}
            rounds.update({f"command line {k}": command_line(len(p)) for k, p in sizes.items()})
            if args.pool:
                rounds.update({f"pool {k}": sweep(p, ProcessPool(1), run_many)
                               for k, p in sizes.items()})
            for name, work in rounds.items():
                wall, used = timed(work)
                times.setdefault(name, []).append(wall)
                cpu.setdefault(name, []).append(used)
    n = {"small": args.small, "large": args.large}
    per_point = {name: 1000 * min(t) / n[name.split()[-1]] for name, t in times.items()}
    cpu_per_point = {name: 1000 * min(t) / n[name.split()[-1]] for name, t in cpu.items()}
    kinds = ["machinery", "command line"] + (["pool"] if args.pool else [])
    figures: dict[str, Any] = {
        "points": n, "load_average": os.getloadavg(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "ms_per_point_best": {k: round(v, 4) for k, v in per_point.items()},
        "cpu_ms_per_point_best": {k: round(v, 4) for k, v in cpu_per_point.items()},
        "seconds_all": {k: [round(x, 3) for x in v] for k, v in times.items()},
        "large_over_small_per_point": {
            k: round(per_point[f"{k} large"] / per_point[f"{k} small"], 3) for k in kinds},
        "large_over_small_cpu_per_point": {
            k: round(cpu_per_point[f"{k} large"] / cpu_per_point[f"{k} small"], 3) for k in kinds},
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{args.small} and {args.large} points x 1 seed; {figures['python']}; load average "
          f"{figures['load_average'][0]:.1f}")
    for name, t in times.items():
        rounds = ", ".join(f"{x:.2f}" for x in t)
        print(f"  {name:18s} {min(t):7.2f} s  {per_point[name]:7.3f} ms/point "
              f"(CPU {cpu_per_point[name]:.3f}; rounds: {rounds})")
    for k in kinds:
        print(f"{k}: {args.large} points cost {figures['large_over_small_per_point'][k]:.3f}x "
              f"per point what {args.small} do (CPU {figures['large_over_small_cpu_per_point'][k]:.3f}x;"
              f" target <= 1.05)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
