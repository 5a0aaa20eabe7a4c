"""The solver: a bounded depth-first search for a win (:mod:`decks.solver.search`) over compact
positions (:mod:`decks.solver.position`), played by the game's rules compiled to tables
(:mod:`decks.solver.tables`), a judgement of safe foundation plays (:mod:`decks.solver.safety`) and
the moves (:mod:`decks.solver.moves`); each position known by its transposition key
(:mod:`decks.solver.keys`) and ordered by how far from a win it looks (:mod:`decks.solver.measures`),
and some proved lost at sight by their stuck cards (:mod:`decks.solver.stuck`).

Those modules (:data:`CORE_MODULES`) are plain, type-annotated Python, and ``pip install`` also
compiles them to C with mypyc (``setup.py``); compiled, the search expands about ten times as
many positions a second (``docs/games.md``).  Both forms run the same code, so they find the same
moves, node for node; :data:`CORE` says which one this process loaded:

* ``"compiled"`` — the modules mypyc built;
* ``"python"`` — the source: where nothing was compiled (no C compiler at install time, or
  ``IBM1013_PURE_PYTHON=1`` when installing), where ``IBM1013_PURE_PYTHON=1`` is set when running,
  or where a source file is newer than its compiled module (an edit not yet rebuilt: ``pip install
  -e .`` rebuilds; the source is loaded, with a warning, rather than code that no longer matches it).
"""

from __future__ import annotations

from emulator import compiled

CORE_MODULES = ("position", "tables", "safety", "moves", "keys", "measures", "relaxed", "blockers", "stuck",
                "tree", "best", "search")
"""The modules mypyc compiles (``setup.py``'s group ``decks.solver._core``), in the order they import
each other."""

CORE = compiled.choose(tuple(f"{__name__}.{name}" for name in CORE_MODULES), f"{__name__}._core")
"""``"compiled"`` or ``"python"``: the build of :data:`CORE_MODULES` this process runs (chosen here,
before any of them loads; :mod:`emulator.compiled`)."""

from decks.solver.search import (  # noqa: E402 - after the build is chosen
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
