"""No import circles where the code is layered: a module that imports another (at the top, or
inside a function, where a circle usually hides) is never imported back by it, directly or through
others.  Imports under ``if TYPE_CHECKING:`` do not run and do not count."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imported(tree: ast.AST, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that ``tree`` imports anywhere (``from P import m`` counts as
    importing ``P.m`` when that is a module)."""
    found: set[str] = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        stack.extend(ast.iter_child_nodes(node))
    return found & modules


def import_graph(package: str) -> dict[str, set[str]]:
    """module -> the modules of ``package`` it imports (a package's ``__init__`` left out: it is
    the public face that re-exports everything, and no module of the package imports it)."""
    paths = {_module_name(p): p for p in (ROOT / package.replace(".", "/")).rglob("*.py")}
    modules = set(paths) - {package}
    return {name: _imported(ast.parse(paths[name].read_text()), modules) - {name} for name in modules}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import path that comes back to where it started (one per circle found)."""
    found, state = [], dict.fromkeys(graph, 0)  # 0 unseen, 1 on the path, 2 done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for other in sorted(graph[name]):
            if state[other] == 1:
                found.append(path[path.index(other):] + [name, other])
            elif state[other] == 0:
                visit(other, path + [name])
        state[name] = 2

    for name in sorted(graph):
        if state[name] == 0:
            visit(name, [])
    return found


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_engine_has_no_import_circle():
    graph = import_graph("decks.engine")
    assert graph["decks.engine.state"] == {"decks.engine.registry"}  # a game's pack, to read a state
    assert "decks.engine.registry" in graph["decks.engine.rules"]
    assert circles(graph) == []


def test_the_codes_and_formats_import_no_circle():
    """The two circles of the emulator broken before (card ↔ codes, deck ↔ formats.cbn)."""
    assert circles(import_graph("emulator")) == []
