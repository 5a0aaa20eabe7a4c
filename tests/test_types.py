"""The packages are typed strictly (issue 51): ``mypy --strict`` finds nothing in each package that has
been made clean, no public signature says ``Any``, and each package carries its PEP 561 ``py.typed``
marker (the wheel ships it: tests/test_wheel.py).

This is the CI type check: ``.ci/run`` runs the test suite, so a type error fails CI.  Packages are
added to :data:`STRICT` one at a time as they became clean (all three are), and to :data:`NO_ANY` once no
public signature says ``Any``.  The settings are ``[tool.mypy]`` in pyproject.toml; the version is the one
setup.py's mypyc uses.  No module has an error code turned off
(:func:`test_no_module_has_an_error_code_turned_off`): the mypyc-compiled cores, the last to be made
clean, are checked as strictly as the rest."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import external
import pytest

ROOT = Path(__file__).resolve().parents[1]
STRICT = ["emulator", "decks", "ibm1013"]
"""The packages ``mypy --strict`` must pass without an error."""
NO_ANY = ["emulator", "decks", "ibm1013"]
"""The packages whose public signatures must not say ``Any`` (``decks``' games' option values are
``decks.engine.OptionValue``; ``ibm1013``'s reports, sweep rows and datascope counts are
``ibm1013.report.Row``, dicts of ``JsonValue``)."""

PRODUCT = ["emulator", "decks", "ibm1013"]

@pytest.mark.timeout(900)
@pytest.mark.parametrize("package", STRICT)
def test_mypy_strict_finds_no_error(package: str) -> None:
    external.module("mypy")  # in the [test] extra, with the stubs of the libraries that lack types
    # one cache per package, so that two test workers never write the same cache at once
    cache = ROOT / ".mypy_cache" / f"test_types-{package}"
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), package],
        cwd=ROOT, capture_output=True, text=True, timeout=840,
    )
    assert proc.returncode == 0 and "Success: no issues found" in proc.stdout, proc.stdout + proc.stderr


def _overrides() -> dict[str, list[str]]:
    """pyproject.toml's ``disable_error_code`` of each module."""
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {module: block["disable_error_code"] for block in settings["tool"]["mypy"].get("overrides", [])
            if "disable_error_code" in block for module in block["module"]}


def test_no_module_has_an_error_code_turned_off() -> None:
    """``mypy --strict`` passing means every module is strict: no ``[[tool.mypy.overrides]]`` block
    lets an error code through (as one once did, for the compiled cores' bare ``list`` annotations)."""
    assert _overrides() == {}


def _public_modules(package: str) -> Iterator[Path]:
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if not any(part.startswith("_") and part != "__init__" for part in parts):
            yield path


def _says_any(annotation: ast.expr | None) -> bool:
    if annotation is None:
        return False
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return _says_any(ast.parse(annotation.value, mode="eval").body)
    return any(
        (isinstance(node, ast.Name) and node.id == "Any")
        or (isinstance(node, ast.Attribute) and node.attr == "Any")
        for node in ast.walk(annotation)
    )


def _public(name: str) -> bool:
    return not name.startswith("_") or name in ("__init__", "__call__")


def _any_in_signature(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    args = function.args
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    said = [param.arg for param in params if param is not None and _says_any(param.annotation)]
    return said + (["return"] if _says_any(function.returns) else [])


def _any_in_public_signatures(source: str, where: str) -> list[str]:
    """``where:line name(parameter)`` for every public function, method or class field of the module
    ``source`` whose annotation names ``Any``."""
    found: list[str] = []

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _public(node.name):
                found.extend(f"{where}:{node.lineno} {prefix}{node.name}({param})"
                             for param in _any_in_signature(node))
            elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                visit(node.body, f"{prefix}{node.name}.")
            elif (isinstance(node, ast.AnnAssign) and prefix and isinstance(node.target, ast.Name)
                  and not node.target.id.startswith("_") and _says_any(node.annotation)):
                found.append(f"{where}:{node.lineno} {prefix}{node.target.id}")

    visit(ast.parse(source).body, "")
    return found


@pytest.mark.parametrize("package", NO_ANY)
def test_no_public_signature_says_any(package: str) -> None:
    """A user's type checker learns nothing from ``Any``: public functions, methods and class fields
    of the modules a user imports (not ``_private`` ones) name real types."""
    found = [hit for path in _public_modules(package) for hit in _any_in_public_signatures(
        path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())]
    assert not found, "\n".join(found)


def test_the_checker_sees_any() -> None:
    """The check above can fail: it finds ``Any`` in a parameter, a return, ``**options`` and a field,
    and not in a private function."""
    source = (
        "from typing import Any\nimport typing\n"
        "def f(x: Any) -> int: ...\n"
        "def g(**options: 'Any') -> None: ...\n"
        "def h() -> list[typing.Any]: ...\n"
        "def _private(x: Any) -> Any: ...\n"
        "class C:\n    field: dict[str, Any]\n    def m(self, *, y: int) -> Any: ...\n"
    )
    found = [hit.split(" ", 1)[1] for hit in _any_in_public_signatures(source, "probe.py")]
    assert found == ["f(x)", "g(options)", "h(return)", "C.field", "C.m(return)"]


@pytest.mark.parametrize("package", PRODUCT)
def test_each_package_is_marked_typed(package: str) -> None:
    """PEP 561: without ``py.typed`` a user's mypy ignores the package's annotations."""
    assert (ROOT / package / "py.typed").is_file()
