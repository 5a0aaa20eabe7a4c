"""The process pool's fixed costs (issue 52): the deck handed to the workers in shared memory, and
workers that do not run the program's main module again unless the work was defined there."""

import multiprocessing
import os
import pickle
import subprocess
import sys

import numpy as np

from ibm1013.sweep.backends import _in_shared_memory
from ibm1013.sweep.grid import synthetic_deck

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_what_the_batches_share_goes_to_the_workers_as_pickled_bytes_in_shared_memory():
    """The deck is pickled once, into memory the workers map, not into each worker's pipe (the
    sweeps of tests/test_sweep.py check that the workers read it back whole)."""
    deck = synthetic_deck(1000)
    data = pickle.dumps(deck, protocol=pickle.HIGHEST_PROTOCOL)
    block = _in_shared_memory(multiprocessing.get_context("forkserver"), data)
    assert np.array_equal(pickle.loads(memoryview(block)), deck)
    assert len(block) > 160_000  # the whole deck, 2 bytes a column
    assert type(block).__module__ == "multiprocessing.sharedctypes"


SCRIPT = """
import os
with open(os.environ["MARK"], "a") as f:  # each time this module runs: in the sweep, in a worker
    f.write(__name__ + "\\n")
from ibm1013.sweep import grid, run_sweep
from ibm1013.sweep.backends import ProcessPool
from ibm1013.sweep.grid import run_many, synthetic_deck

def task_here(deck, runs):
    return run_many(deck, runs)

if __name__ == "__main__":
    task = task_here if os.environ["TASK"] == "here" else run_many
    result = run_sweep(synthetic_deck(4), grid({"bit_rate": [1200, 2400]}), 2,
                       backend=ProcessPool(2), task=task, outputs=[os.environ["OUT"]])
    print(len(result.rows))
"""


def _swept_by_script(tmp_path, task: str) -> tuple[list[str], bytes]:
    """Run :data:`SCRIPT` as a program: who ran its main module, and the rows it wrote."""
    script, mark, out = tmp_path / "sweep_script.py", tmp_path / "mark", tmp_path / f"{task}.csv"
    script.write_text(SCRIPT)
    env = {**os.environ, "PYTHONPATH": ROOT, "MARK": str(mark), "TASK": task, "OUT": str(out)}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                          env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["4"]
    return mark.read_text().split(), out.read_bytes()


def test_the_workers_do_not_run_the_main_module_when_the_work_was_not_defined_there(tmp_path):
    """Every process multiprocessing starts runs the program's main module again, to unpickle what
    was defined there; a sweep's task, batches and deck come from modules, so its workers skip it
    (it was 3-8 ms of a worker's start, and whatever the program imports)."""
    ran, rows = _swept_by_script(tmp_path, "module")
    assert ran == ["__main__"]  # the sweep's own process only; no worker's __mp_main__
    assert rows.count(b"\n") == 5


def test_a_task_defined_in_the_main_module_still_runs_in_the_workers(tmp_path):
    """A task defined in the program itself names ``__main__`` when pickled: then the workers run
    the main module again, as multiprocessing always does, and the rows are the same."""
    (tmp_path / "here").mkdir()
    (tmp_path / "module").mkdir()
    ran, rows = _swept_by_script(tmp_path / "here", "here")
    assert ran[0] == "__main__" and set(ran[1:]) == {"__mp_main__"} and len(ran) >= 2
    assert rows == _swept_by_script(tmp_path / "module", "module")[1]
