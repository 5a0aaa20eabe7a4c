"""Record winning lines of play for the stuck-card test (:mod:`decks.solver.stuck`).

``python -m tools.record_won_lines [--deals 1-60] [--nodes 50000] [--out FILE]`` (default
``tests/data/stuck-won-lines.json``)

For every game the dead-position test judges, it searches each deal with the restarts but without
the test (``solve(..., prune_stuck=False)``: the search the test must never have cut short) and
keeps the moves of every win found (in the engine's notation, separated by commas).
``tests/test_solver_stuck.py`` replays each line and asks the test at every position of it: a
position on a winning line is not dead, so the test must say so.
Lines found by the search *with* the test would never pass through a position it calls dead, and
could not catch an unsound rule; hence these come from the search without it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from decks import engine, solver
from emulator.atomic import atomic_output
from ibm1013.cli import argtypes

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "stuck-won-lines.json"
GAMES = ("klondike", "klondike-flip3", "klondike-online", "la-belle-lucie")
"""The games :class:`decks.solver.stuck.Stuck` applies to."""


def lines(game: str, deals: range, nodes: int) -> list[dict]:
    """The won deals of ``game`` among ``deals``, each with its winning line (moves in the
    engine's notation, separated by commas)."""
    out = []
    for deal in deals:
        result = solver.solve(engine.deal(game, deal), nodes, prune_stuck=False)
        if result.won:
            out.append({"game": game, "deal": deal, "moves": ", ".join(str(m) for m in result.moves)})
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.record_won_lines", description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", default="1-60", help="FIRST-LAST (default 1-60)")
    p.add_argument("--nodes", type=int, default=50_000, help="the node limit per deal (default 50,000)")
    p.add_argument("--out", type=argtypes.output_file, default=str(OUT), help="the file to write")
    args = p.parse_args(argv)
    first, last = (int(x) for x in args.deals.split("-"))
    found = [line for game in GAMES for line in lines(game, range(first, last + 1), args.nodes)]
    data = {"search": solver.SEARCH_VERSION, "core": solver.CORE, "deals": args.deals, "nodes": args.nodes,
            "prune_stuck": False, "lines": found}
    with atomic_output(args.out) as f:
        f.write(json.dumps(data, indent=0).encode() + b"\n")
    print(f"{len(found)} winning lines written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
