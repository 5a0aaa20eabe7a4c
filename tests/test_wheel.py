"""The wheel is the product: it installs ``ibm1013``, ``emulator`` and ``decks`` with every data file
the code reads, and nothing else — no ``tools`` package to collide with another distribution's.

The wheel is built from a copy of the tracked files (so the checkout gets no ``build/`` or
``*.egg-info``), as plain Python (``IBM1013_PURE_PYTHON=1``: compiling the solver is checked by
``.ci/wheel-check``, which installs the compiled wheel into a fresh venv and runs the commands)."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import external
import pytest

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = {"ibm1013", "emulator", "decks"}


def tracked_files() -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        external.unavailable("not a git checkout (the wheel is built from the tracked files): "
                             "run the tests in a clone with git installed")
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=30)
    return [name for name in out.stdout.decode().split("\0") if name]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    tree = tmp_path_factory.mktemp("tree")
    for name in tracked_files():
        source, target = ROOT / name, tree / name
        if not source.exists() and not source.is_symlink():
            continue                     # deleted in the working tree, not yet committed
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            target.symlink_to(os.readlink(source))
        else:
            shutil.copy2(source, target)
    dist = tmp_path_factory.mktemp("dist")
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(dist)]
    proc = subprocess.run([*build, "."], cwd=tree, env={**os.environ, "IBM1013_PURE_PYTHON": "1"},
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (built,) = dist.glob("ibm1013-*.whl")
    return zipfile.ZipFile(built)


def test_the_wheel_holds_only_the_product(wheel):
    tops = {name.split("/")[0] for name in wheel.namelist()}
    dist_info = {top for top in tops if top.endswith(".dist-info")}
    assert len(dist_info) == 1 and tops - dist_info == PRODUCT, sorted(tops)


def test_the_console_script_and_python_m_are_the_packaged_command_line(wheel):
    (entry_points,) = [n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt")]
    assert "ibm1013 = ibm1013.cli.start:main" in wheel.read(entry_points).decode()
    assert {"ibm1013/__main__.py", "ibm1013/cli/start.py", "ibm1013/cli/prepared.py", "ibm1013/cli/main.py",
            "ibm1013/cli/argtypes.py"} <= set(wheel.namelist())


def test_every_data_file_the_code_reads_is_in_the_wheel(wheel):
    """The rule sections ``play``'s ``rules`` command shows are docs/games.md itself, not a link."""
    assert wheel.read("decks/data/games.md") == (ROOT / "docs" / "games.md").read_bytes()
    assert (ROOT / "decks" / "data" / "games.md").resolve() == (ROOT / "docs" / "games.md").resolve()


def test_every_package_is_marked_typed(wheel):
    """PEP 561: ``py.typed`` in each package tells a user's type checker to read its annotations."""
    assert {f"{top}/py.typed" for top in PRODUCT} <= set(wheel.namelist())


def test_every_package_directory_is_packaged(wheel):
    """A product directory with Python files but no ``__init__.py`` would be left out of the wheel."""
    names = set(wheel.namelist())
    for top in PRODUCT:
        for path in (ROOT / top).rglob("*.py"):
            relative = path.relative_to(ROOT).as_posix()
            assert relative in names, f"{relative} is not in the wheel"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("folder", ["emulator", "ibm1013", "decks", "examples"])
def test_nothing_outside_tools_imports_tools(folder):
    """``tools/`` runs from a checkout and is not installed: the product and its examples never import
    it (only the tests of the benchmarks and measurements do)."""
    offenders = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted((ROOT / folder).rglob("*.py"))
        for name in imported_modules(path) if name == "tools" or name.startswith("tools.")
    ]
    assert not offenders, offenders
