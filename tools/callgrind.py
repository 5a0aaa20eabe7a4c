"""Counting the instructions a Python script takes, for the benchmarks' ``--instructions`` modes.

valgrind's callgrind (``apt-get install valgrind``) counts every instruction the process executes
in user space, so the count does not move with the machine's load as a timing does.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""The checkout: the counted script imports ``tools``, ``emulator``, ``ibm1013`` from it."""

ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
"""NumPy's BLAS starts worker threads that spin while idle, and callgrind counts their spinning, which
depends on the scheduling: one thread keeps the count exact."""


def count(script: str, *args: str, root: str = ROOT) -> tuple[int, str]:
    """Instructions ``python -c script args…`` takes under valgrind (hash seed fixed), and what it
    printed; the script imports from the checkout ``root`` (run there: ``-c`` puts the working
    directory first on the path)."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": root, **ONE_THREAD}
    return run([sys.executable, "-c", script, *args], cwd=root, env=env)


def run(command: list[str], *, cwd: str, env: dict[str, str]) -> tuple[int, str]:
    """Instructions ``command`` takes under valgrind, and what it printed."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                         cwd=cwd, capture_output=True, text=True, env=env, timeout=1800, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"valgrind printed no count: {done.stderr[-300:]}")
    return int(found.group(1)), done.stdout
