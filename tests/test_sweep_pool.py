"""The process pool's fixed costs (issue 52): what its workers import before their first batch,
and the results written once a row."""

import sys
import types

import pytest

from ibm1013.sweep import ResultsFile, grid
from ibm1013.sweep.backends import with_main
from ibm1013.sweep.grid import Run, run_many, synthetic_deck


def _main_as(monkeypatch: pytest.MonkeyPatch, name: str | None) -> None:
    main = types.ModuleType("__main__")
    main.__spec__ = None if name is None else types.SimpleNamespace(name=name)  # type: ignore[assignment]
    monkeypatch.setitem(sys.modules, "__main__", main)


def test_a_program_started_as_a_module_is_imported_once_in_the_forkserver(monkeypatch):
    _main_as(monkeypatch, "tools.bench_sweep")
    assert with_main(["ibm1013.sweep.grid"]) == ["ibm1013.sweep.grid", "tools.bench_sweep"]
    assert with_main(["tools.bench_sweep"]) == ["tools.bench_sweep"]


@pytest.mark.parametrize("name", [None, "__main__", "ibm1013.__main__"])
def test_a_script_or_a_packages_main_is_not_preloaded(monkeypatch, name):
    """multiprocessing runs a package's ``__main__`` in no worker; a script by path cannot be
    named to the forkserver."""
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
