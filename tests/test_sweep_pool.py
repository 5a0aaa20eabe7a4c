"""The process pool's fixed costs (issue 52): what its workers import before their first batch,
and the results written once a row."""

import json
import os
import subprocess
import sys
import types

import pytest

from ibm1013.sweep import ResultsFile, grid
from ibm1013.sweep.backends import with_main
from ibm1013.sweep.grid import Run, run_many, synthetic_deck

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _main_as(monkeypatch: pytest.MonkeyPatch, name: str | None, file: str | None = None) -> None:
    main = types.ModuleType("__main__")
    main.__spec__ = None if name is None else types.SimpleNamespace(name=name)  # type: ignore[assignment]
    if file is not None:
        main.__file__ = file
    main.json, main.with_main, main.ROOT = json, with_main, "a string"  # type: ignore[attr-defined]
    main.__loader__ = types.SimpleNamespace  # a dunder: not one of its imports
    monkeypatch.setitem(sys.modules, "__main__", main)


@pytest.mark.parametrize(("name", "file"), [("tools.bench_sweep", None), (None, "/usr/bin/ibm1013")])
def test_what_the_program_imported_is_imported_once_in_the_forkserver(monkeypatch, name, file):
    """Its modules, and those of the functions and classes it imported; never itself."""
    _main_as(monkeypatch, name, file)
    assert with_main(["ibm1013.sweep.grid"]) == ["ibm1013.sweep.grid", "ibm1013.sweep.backends", "json"]
    assert with_main(["json"]) == ["json", "ibm1013.sweep.backends"]


@pytest.mark.parametrize("name", ["__main__", "ibm1013.__main__"])
def test_a_packages_main_is_run_in_no_worker_so_nothing_is_added(monkeypatch, name):
    _main_as(monkeypatch, name)
    assert with_main(("ibm1013.sweep.grid",)) == ["ibm1013.sweep.grid"]


@pytest.mark.parametrize("ext", ["csv", "jsonl"])
def test_the_rewrite_at_the_end_writes_each_appended_row_as_appended_encoding_it_once(
        tmp_path, monkeypatch, ext):
    deck = synthetic_deck(4)
    rows = run_many(deck, [Run(p, i) for p in grid({"ber": [0.0, 1e-3]}) for i in range(3)])
    old = dict(rows[0], seed_index=99)  # read back from the file, not appended: encoded at the end
    plain = ResultsFile(str(tmp_path / f"plain.{ext}"))
    plain.rewrite([old, *rows])
    encoded = []
    monkeypatch.setattr(ResultsFile, "_line", lambda self, row, line=ResultsFile._line: (
        encoded.append(row["seed_index"]), line(self, row))[1])
    f = ResultsFile(str(tmp_path / f"swept.{ext}"))
    f.open_append(fresh=True)
    f.append(rows[3:])
    f.append(rows[:3])
    f.close()
    f.rewrite([old, *rows])
    assert sorted(encoded) == sorted([r["seed_index"] for r in rows] + [99])
    assert (tmp_path / f"swept.{ext}").read_bytes() == (tmp_path / f"plain.{ext}").read_bytes()


def test_a_workers_copy_of_the_program_finds_its_imports_done(tmp_path):
    """Each worker runs the program's module again before its first batch; what that module
    imports was imported once, in the forkserver, not again in every worker."""
    out = tmp_path / "started"
    done = subprocess.run([sys.executable, "-m", "tests.sweep_started", str(out)], cwd=ROOT,
                          check=True, timeout=120, env={**os.environ, "PYTHONPATH": ROOT},
                          capture_output=True, text=True)
    assert done.stderr == ""  # no worker warned
    found = [p.read_text() for p in tmp_path.glob("started.*")]
    assert found and set(found) == {"before"}


def test_what_the_batches_share_goes_to_the_workers_as_pickled_bytes_in_shared_memory():
    """The deck is pickled once, into memory the workers map, not into each worker's pipe (the
    sweeps of tests/test_sweep.py check that the workers read it back whole)."""
    import multiprocessing
    import pickle

    import numpy as np

    from ibm1013.sweep.backends import _in_shared_memory

    deck = synthetic_deck(1000)
    block = _in_shared_memory(multiprocessing.get_context("forkserver"), deck)
    assert np.array_equal(pickle.loads(memoryview(block)), deck)
    assert len(block) > 160_000  # the whole deck, 2 bytes a column
    assert type(block).__module__ == "multiprocessing.sharedctypes"
