"""setup.py reuses a build in place only when nothing it was made from changed.

A group's fingerprint covers its sources and every project module they import (what mypy reads to
compile them), setup.py, the mypy version and the Python ABI; the record beside the compiled
modules keeps the fingerprint and the files.  These tests change each input in a copy of the tree
and check the fingerprint moves with it (and only with it), and that a record is taken only when
its fingerprint matches and all its files are there.  (The minutes saved are measured with pip in
a scratch clone: docs/speed.md.)
"""

import importlib.util
import json
import os
import shutil
from pathlib import Path

import external
import pytest

external.module("mypy")  # the build requirement (pyproject.toml), in the test extra too

ROOT = Path(__file__).resolve().parent.parent


def load_setup(root: Path):
    """setup.py as a module (not run as ``__main__``, so it builds nothing), rooted at ``root``."""
    spec = importlib.util.spec_from_file_location("ibm1013_setup", root / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.ROOT = str(root)
    return module


@pytest.fixture
def tree(tmp_path):
    """A copy of the sources setup.py reads (the three packages and setup.py itself)."""
    for package in ("emulator", "ibm1013", "decks"):
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.build.json"))
    shutil.copy(ROOT / "setup.py", tmp_path / "setup.py")
    return tmp_path


def test_the_fingerprint_follows_the_sources_and_what_they_import(tree):
    setup = load_setup(tree)
    sim = setup.GROUPS["ibm1013._sim"]
    assert set(sim) <= set(setup.followed(sim))
    assert {"ibm1013/str/config.py", "emulator/errors.py"} <= set(setup.followed(sim))
    assert "decks/games/klondike.py" not in setup.followed(sim)
    before = {group: setup.fingerprint(sources) for group, sources in setup.GROUPS.items()}

    def after(path: str, text: str | None = None) -> dict[str, str]:
        file = tree / path
        old = file.read_bytes()
        file.write_bytes(old + text.encode() if text is not None else old)
        os.utime(file)  # a touch alone changes nothing
        now = {group: setup.fingerprint(sources) for group, sources in setup.GROUPS.items()}
        file.write_bytes(old)
        return now

    assert after("ibm1013/sim/books.py") == before  # touched, not changed
    assert after("decks/games/klondike.py", "# a comment\n") == before  # not compiled, not imported by them
    edited = after("ibm1013/sim/books.py", "# a comment\n")  # a compiled source
    assert edited["ibm1013._sim"] != before["ibm1013._sim"]
    assert edited["decks.solver._core"] == before["decks.solver._core"]  # the other group is reused
    imported = after("ibm1013/str/config.py", "# a comment\n")  # imported by a compiled source
    assert imported["ibm1013._sim"] != before["ibm1013._sim"]
    changed = after("setup.py", "# a comment\n")  # how it is built
    assert all(changed[group] != before[group] for group in before)


def test_a_record_is_taken_only_when_its_fingerprint_matches_and_its_files_are_there(tree):
    setup = load_setup(tree)
    group = "ibm1013._sim"
    build = setup.BuildExt.__new__(setup.BuildExt)  # its _reuse needs no distribution
    wanted = setup.fingerprint(setup.GROUPS[group])
    files = ["ibm1013/_sim__mypyc.so", "ibm1013/sim/books.so"]
    for path in files:
        (tree / path).write_bytes(b"compiled")
        os.utime(tree / path, (1, 1))
    assert not build._reuse(group, wanted)  # no record: never built here
    Path(setup.record_path(group)).write_text(json.dumps({"fingerprint": wanted, "files": files}))
    assert not build._reuse(group, "another fingerprint")
    assert (tree / files[0]).stat().st_mtime == 1  # refused: nothing touched
    assert build._reuse(group, wanted)
    assert all((tree / path).stat().st_mtime > (tree / "ibm1013/sim/books.py").stat().st_mtime - 1
               for path in files)  # touched: newer than their sources, as emulator.compiled asks
    (tree / files[1]).unlink()
    assert not build._reuse(group, wanted)  # a file gone
    Path(setup.record_path(group)).write_text("{not json")
    assert not build._reuse(group, wanted)


def test_a_source_edited_while_the_build_runs_is_compiled_again_next_time(tree, monkeypatch):
    """The record keeps the fingerprint of the sources as mypyc read them, taken before the build:
    a file edited while the compiler runs leaves a record that no longer matches it."""
    monkeypatch.delenv("IBM1013_PURE_PYTHON", raising=False)
    setup = load_setup(tree)
    before = {group: setup.fingerprint(sources) for group, sources in setup.GROUPS.items()}
    outputs = {group: [f"{group.replace('.', '/')}__mypyc.so"] for group in setup.GROUPS}
    for files in outputs.values():
        (tree / files[0]).write_bytes(b"compiled")

    def compiling(groups):  # what mypyc read is the sources of `before`; then the user saves an edit
        books = tree / "ibm1013/sim/books.py"
        books.write_bytes(books.read_bytes() + b"# edited during the build\n")
        return []

    monkeypatch.setattr(setup, "compiled", compiling)
    build = setup.BuildExt.__new__(setup.BuildExt)
    build.inplace, build.extensions = True, []
    build._outputs = outputs.get
    build.run()
    record = json.loads(Path(setup.record_path("ibm1013._sim")).read_text())
    assert record["fingerprint"] == before["ibm1013._sim"]
    assert not build._reuse("ibm1013._sim", setup.fingerprint(setup.GROUPS["ibm1013._sim"]))
    assert build._reuse("decks.solver._core", setup.fingerprint(setup.GROUPS["decks.solver._core"]))
