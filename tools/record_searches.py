"""Record what the solver does on fixed deals and budgets, to check that a change to its code (a
move made natively instead of by the engine, say) leaves the search exactly as it was.

``python -m tools.record_searches [--out FILE]`` (default ``tests/data/solver-searches.json``)

For every case of :data:`CASES` (a game, options, deals, a node limit, with or without the restarts)
it runs :func:`decks.solver.solve` and writes the verdict, positions expanded, runs, the last run's
table size and its positions proved lost, the most cards home and the moves: the win's, or those to
the best position reached.  ``tests/test_solver_searches.py`` searches every case again and must
find the same, move for move.  Make the file again (with the code *before* a change) only when the
search is meant to change, and bump :data:`decks.solver.SEARCH_VERSION` then.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from decks import engine, solver
from emulator.atomic import atomic_output
from ibm1013.cli import argtypes

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "solver-searches.json"
SPIDERS = ("spiderette", "will-o-the-wisp")
CASES: list[dict[str, Any]] = [
    *[{"game": g, "options": {}, "deals": [1, 2, 3, 4, 5], "nodes": 6_000, "restarts": True}
      for g in SPIDERS],
    *[{"game": g, "options": {}, "deals": [1, 2, 3], "nodes": 3_000, "restarts": False}
      for g in SPIDERS],
    {"game": "spiderette", "options": {"auto_discard": False}, "deals": [2], "nodes": 6_000,
     "restarts": True},
    {"game": "colorado", "options": {}, "deals": [1, 2, 3], "nodes": 3_000, "restarts": True},
    *[{"game": g, "options": {}, "deals": [1], "nodes": 2_000, "restarts": True}
      for g in engine.game_names() if g not in (*SPIDERS, "colorado")],
]
"""The Spider games (the discard, the deal and the useless moves), Colorado's measure, and deal 1 of
every other game."""


def record(game: str, options: dict, deal: int, nodes: int, restarts: bool) -> dict[str, Any]:
    """One search's outcome, as the test compares it."""
    result = solver.solve(engine.deal(game, deal, options), nodes, restarts=restarts)
    return {"game": game, "options": options, "deal": deal, "nodes": nodes, "restarts": restarts,
            "status": result.status, "expanded": result.nodes, "runs": result.runs, "unique": result.unique,
            "dead": result.dead, "best_home": result.best_home,
            "moves": [str(m) for m in (result.moves if result.won else result.best_moves)]}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.record_searches",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=argtypes.output_file, default=str(OUT),
                   help=f"the file to write (default {OUT.name} in tests/data)")
    args = p.parse_args(argv)
    rows = []
    for case in CASES:
        for deal in case["deals"]:
            rows.append(record(case["game"], case["options"], deal, case["nodes"], case["restarts"]))
            row = rows[-1]
            print(f"{case['game']} {deal}: {row['status']}, {row['expanded']:,} positions", file=sys.stderr)
    text = json.dumps({"search": solver.SEARCH_VERSION, "core": solver.CORE, "searches": rows},
                      indent=1)
    with atomic_output(args.out) as out:
        out.write(text.encode() + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
