"""The process pool's fixed costs (issue 52): what its workers import before their first batch,
and the results written once a row."""

import sys
import types

import pytest

from ibm1013.sweep.backends import with_main


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
