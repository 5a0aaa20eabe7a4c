"""The solver: a bounded depth-first search for a win (:mod:`decks.solver.search`) over compact
positions (:mod:`decks.solver.position`), played by the game's rules compiled to tables
(:mod:`decks.solver.tables`), a judgement of safe foundation plays (:mod:`decks.solver.safety`) and
the moves (:mod:`decks.solver.moves`); each position known by its transposition key
(:mod:`decks.solver.keys`) and ordered by how far from a win it looks (:mod:`decks.solver.measures`),
and some proved lost at sight by their stuck cards (:mod:`decks.solver.stuck`).

Those modules (:data:`CORE_MODULES`) are plain, type-annotated Python, and ``pip install`` also
compiles them to C with mypyc (``setup.py``); compiled, the search expands three to four times as
many positions a second (``docs/games.md``).  Both forms run the same code, so they find the same
moves, node for node; :data:`CORE` says which one this process loaded:

* ``"compiled"`` — the modules mypyc built;
* ``"python"`` — the source: where nothing was compiled (no C compiler at install time, or
  ``IBM1013_PURE_PYTHON=1`` when installing), where ``IBM1013_PURE_PYTHON=1`` is set when running,
  or where a source file is newer than its compiled module (an edit not yet rebuilt: ``pip install
  -e .`` rebuilds; the source is loaded, with a warning, rather than code that no longer matches it).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import warnings
from importlib.machinery import EXTENSION_SUFFIXES, SourceFileLoader
from pathlib import Path

CORE_MODULES = ("position", "tables", "safety", "moves", "keys", "measures", "relaxed", "stuck", "tree",
                "best", "search")
"""The modules mypyc compiles, in the order they import each other."""


def _compiled_files() -> list[Path] | None:
    """The compiled modules next to their sources, if every one is there."""
    here = Path(__file__).parent
    found = []
    for name in CORE_MODULES:
        files = [here / f"{name}{suffix}" for suffix in EXTENSION_SUFFIXES]
        hit = next((f for f in files if f.exists()), None)
        if hit is None:
            return None
        found.append(hit)
    return found


def _edited(name: str, compiled: Path) -> bool:
    """In a source checkout (an editable install), whether ``<name>.py`` changed after it was
    compiled: after its module and after the group module holding the compiled code (a build that
    changed only the code rewrites only that one).  (An installed wheel's files are as built,
    whatever their times say.)"""
    source = compiled.with_name(f"{name}.py")
    checkout = (compiled.parents[2] / "setup.py").exists()
    built = max(f.stat().st_mtime for f in [compiled, *compiled.parent.glob("_core__mypyc.*")])
    return checkout and source.stat().st_mtime > built


def _load_source(name: str) -> None:
    """Import ``decks.solver.<name>`` from its ``.py`` file even where a compiled module exists."""
    full = f"{__name__}.{name}"
    path = Path(__file__).with_name(f"{name}.py")
    spec = importlib.util.spec_from_file_location(full, path, loader=SourceFileLoader(full, str(path)))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[full] = module
    spec.loader.exec_module(module)
    globals()[name] = module            # as an import of the submodule would


def _load_core() -> str:
    compiled = _compiled_files()
    if compiled and not os.environ.get("IBM1013_PURE_PYTHON"):
        stale = [f"{name}.py" for name, f in zip(CORE_MODULES, compiled, strict=True) if _edited(name, f)]
        if not stale:
            try:
                for name in CORE_MODULES:
                    importlib.import_module(f"{__name__}.{name}")
                return "compiled"
            except ImportError as e:       # a partial build: run the source
                warnings.warn(f"decks.solver: compiled core not loaded ({e}); running the Python source",
                              stacklevel=2)
        else:
            warnings.warn(f"decks.solver: {', '.join(stale)} edited since compiled; running the Python "
                          "source (pip install -e . compiles it again)", stacklevel=2)
    for name in CORE_MODULES:
        _load_source(name)
    return "python"


CORE = _load_core()

from decks.solver.search import (  # noqa: E402 - loaded by _load_core above
    DEFAULT_MAX_NODES,
    EXHAUSTED,
    HINT_SECONDS,
    LIMIT,
    NO_NODE_LIMIT,
    ORDERS,
    PROGRESS_EVERY,
    SOLVE_SECONDS,
    WON,
    Search,
    SolveResult,
    distance,
    hint,
    ordered_moves,
    safe_move,
    solve,
)
from decks.solver.versions import ONE_ORDER_VERSION, SEARCH_VERSION, same_search  # noqa: E402

__all__ = ["CORE", "DEFAULT_MAX_NODES", "EXHAUSTED", "HINT_SECONDS", "LIMIT", "NO_NODE_LIMIT",
           "ONE_ORDER_VERSION", "ORDERS",
           "PROGRESS_EVERY", "SEARCH_VERSION", "SOLVE_SECONDS", "WON", "Search", "SolveResult", "distance",
           "hint", "ordered_moves", "safe_move", "same_search", "solve"]
