"""A program that runs a sweep on two worker processes, started as ``python -m tests.sweep_started
OUT``: each worker writes to ``OUT.<pid>`` the process that imported this program's imports (the
forkserver, once, or the worker itself) - see tests/test_sweep_pool.py."""

import os
import sys

from ibm1013.sweep import grid, run_sweep
from ibm1013.sweep.backends import ProcessPool
from ibm1013.sweep.grid import Run, run_many, synthetic_deck
from tests import imported_where


def task(deck: object, runs: list[Run]) -> list[dict[str, object]]:
    with open(f"{os.environ['SWEEP_STARTED_OUT']}.{os.getpid()}", "w") as f:
        f.write("worker" if imported_where.PID == os.getpid() else "before")
    return run_many(deck, runs)  # type: ignore[arg-type]


if __name__ == "__main__":
    os.environ["SWEEP_STARTED_OUT"] = sys.argv[1]
    run_sweep(synthetic_deck(4), grid({"ber": [0.0, 1e-3, 2e-3, 3e-3]}), 2, backend=ProcessPool(2),
              task=task)
