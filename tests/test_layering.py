"""The product's layers, as docs/architecture.md draws them: data flows one way, so imports do too.

* ``emulator`` (generic unit-record hardware) imports nothing of ``ibm1013`` or ``decks`` and names
  none of their modules, even in a string;
* ``decks`` (playing cards) imports nothing of ``ibm1013``;
* ``ibm1013.str`` (the sans-I/O STR core) imports nothing else of ``ibm1013``, as h11 imports
  nothing of its callers;
* nothing imports ``tools`` (benchmarks run from a checkout; the product never needs them);
* no import circle between product files, counting every import: at the top, inside a function,
  and under ``if TYPE_CHECKING:`` (a circle of type hints is still a circle of ideas).

An import of ``a.b.c`` depends on the module ``a.b.c`` (not on the package ``__init__`` modules
Python runs on the way); ``from a.b import x`` depends on ``a.b.x`` where that is a module and on
``a.b`` (its ``__init__``) where ``x`` is a name defined there.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("emulator", "ibm1013", "decks")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def product_modules() -> dict[str, Path]:
    """Every module of the three packages, by dotted name."""
    return {_module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


def imported(tree: ast.AST, modules: set[str], package: str) -> set[str]:
    """Every module that ``tree`` (a module of ``package``) imports, anywhere in it: product modules
    by the rule above, anything else (``tools``, ``numpy``) by its top-level name."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:                              # relative: from .x import y
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([base] if base else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in modules else base)
    return found


def import_graph() -> dict[str, set[str]]:
    """Product module -> everything it imports (product modules by name, the rest by top name)."""
    paths = product_modules()
    names = set(paths)
    graph = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        graph[name] = imported(ast.parse(path.read_text()), names, package) - {name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import path that comes back to where it started (one per circle found)."""
    found: list[list[str]] = []
    state = dict.fromkeys(graph, 0)  # 0 unseen, 1 on the path, 2 done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for other in sorted(graph[name] & graph.keys()):
            if state[other] == 1:
                found.append(path[path.index(other):] + [name, other])
            elif state[other] == 0:
                visit(other, path + [name])
        state[name] = 2

    for name in sorted(graph):
        if state[name] == 0:
            visit(name, [])
    return found


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def breaches(graph: dict[str, set[str]]) -> list[str]:
    """Every import that goes the wrong way, as ``importer -> imported``."""
    rules = [("emulator", ("ibm1013", "decks")), ("decks", ("ibm1013",)),
             ("ibm1013.str", ("ibm1013",)), ("", ("tools",))]
    wrong = []
    for name, targets in sorted(graph.items()):
        for target in sorted(targets):
            for lower, higher in rules:
                if lower and not _within(name, lower):
                    continue
                if lower == "ibm1013.str" and (_within(target, "ibm1013.str") or target == "ibm1013"):
                    continue                # its own room, and the package it sits in (run by Python)
                if any(_within(target, h) for h in higher):
                    wrong.append(f"{name} -> {target}")
    return wrong


_NAMED = re.compile(r"\b(ibm1013|decks)\.[a-z_]+")


def named_above(path: Path) -> list[str]:
    """The strings of an ``emulator`` module (docstrings aside: a string standing alone) that name a module
    above it."""
    tree = ast.parse(path.read_text())
    docstrings = {id(node.value) for node in ast.walk(tree)          # a string standing alone: a
                  if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}  # docstring
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docstrings and _NAMED.search(node.value)]


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_rules_catch_an_import_the_wrong_way():
    graph = {"emulator.card": {"decks.packs"}, "decks.packs": {"ibm1013.cli"},
             "ibm1013.str.receiver": {"ibm1013.sim.terminal", "ibm1013.str.layout", "ibm1013"},
             "ibm1013.sim.terminal": {"tools.bench_simulate", "ibm1013.str.receiver"}}
    assert breaches(graph) == ["decks.packs -> ibm1013.cli", "emulator.card -> decks.packs",
                               "ibm1013.sim.terminal -> tools.bench_simulate",
                               "ibm1013.str.receiver -> ibm1013.sim.terminal"]


def test_imports_are_read_everywhere_in_a_module():
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from decks.packs import Pack\n"
                     "def f():\n    import ibm1013.cli.main\n    from . import card\n")
    found = imported(tree, {"decks.packs", "ibm1013.cli.main", "emulator.card"}, "emulator")
    assert {"decks.packs", "ibm1013.cli.main", "emulator.card"} <= found


def test_no_product_module_imports_the_wrong_way():
    assert breaches(import_graph()) == []


def test_no_import_circle_between_product_files():
    assert circles(import_graph()) == []


def test_the_emulator_names_no_module_above_it(tmp_path):
    found = {str(p.relative_to(ROOT)): named_above(p) for p in (ROOT / "emulator").rglob("*.py")}
    assert {path: names for path, names in found.items() if names} == {}
    sample = tmp_path / "sample.py"
    sample.write_text('"""Built on by ibm1013.sim."""\nX = "ibm1013.sim.terminal"\n')
    assert named_above(sample) == ["ibm1013.sim.terminal"]


def test_the_terminal_root_keeps_only_its_face_and_one_shared_module():
    root = sorted(p.name for p in (ROOT / "ibm1013").glob("*.py"))
    assert root == ["__init__.py", "__main__.py", "report.py"]
