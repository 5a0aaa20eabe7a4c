"""Benchmark: positions per second of the search with restarts against the search before them,
side by side, for every game.

``python -m tools.bench_solver [--game GAME ...] [--deals N|FIRST-LAST] [--nodes N] [--json]``
``python -m tools.bench_solver --instructions [--before CHECKOUT] [--game GAME ...] [--nodes N] ...``

For each game (default: all) and deal (default 1-3), :func:`decks.solver.solve` runs twice with the
same node limit (default 10,000): with the restarts over two move orders (*now*) and as one run of
the new order (*before*: ``restarts=False``, the search of
:data:`decks.solver.versions.ONE_ORDER_VERSION`), one right after the other, so that both see the
same load.  Positions per second are positions expanded over CPU seconds
(``time.process_time``) summed over the game's deals; the ratio is now / before.  Which code runs
(compiled core or Python source) is whichever ``decks.solver`` imports.

``--instructions`` counts instead of timing, for a machine whose speed moves from one minute to the
next: valgrind (``apt-get install valgrind``) counts the instructions of the searches with the
restarts, every game and deal asked for in one process, less the same process searching 2
positions a deal (its imports and the games' tables), and says instructions a position.  With
``--before CHECKOUT`` the same searches are counted in another checkout too (its own build: a
compiled core must have been built there), side by side, and the positions are checked to be the
same.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from typing import Any

from decks import engine, solver
from emulator import IbmError
from ibm1013.cli import argtypes
from tools import callgrind
from tools.measure_games import parse_deals

COUNTED = """
import json, sys
from decks import engine, solver
games, deals, nodes = json.loads(sys.argv[1]), json.loads(sys.argv[2]), int(sys.argv[3])
print(solver.CORE, sum(solver.solve(engine.deal(g, d), nodes).nodes for g in games for d in deals))
"""
"""The counted process: every game and deal searched with the restarts, then its core and positions."""


def bench_game(game: str, deals: range, nodes: int) -> dict[str, Any]:
    """One game's row: positions and CPU seconds of each search over ``deals``, and the ratio."""
    row: dict[str, Any] = {"game": game}
    totals = {"now": [0, 0.0], "before": [0, 0.0]}
    for deal in deals:
        state = engine.deal(game, deal)
        for name, restarts in (("now", True), ("before", False)):
            start = time.process_time()
            result = solver.solve(state, nodes, restarts=restarts)
            totals[name][0] += result.nodes
            totals[name][1] += time.process_time() - start
    for name, (count, seconds) in totals.items():
        row[f"{name}_nodes"], row[f"{name}_seconds"] = count, round(seconds, 3)
        row[f"{name}_per_s"] = round(count / seconds) if seconds else 0
    row["ratio"] = round(row["now_per_s"] / row["before_per_s"], 2) if row["before_per_s"] else None
    return row


def instructions(games: list[str], deals: range, nodes: int, root: str = callgrind.ROOT) -> dict[str, Any]:
    """The instructions the searches take in checkout ``root`` (see the module docstring)."""
    args = json.dumps(games), json.dumps(list(deals))
    total, printed = callgrind.count(COUNTED, *args, str(nodes), root=root)
    idle, _ = callgrind.count(COUNTED, *args, "2", root=root)
    core, positions = printed.split()
    return {"tree": root, "core": core, "positions": int(positions), "instructions": total - idle,
            "per_position": round((total - idle) / int(positions))}


def _count_instructions(p: argparse.ArgumentParser, args: argparse.Namespace, deals: range) -> int:
    """``--instructions``: count, print, return the exit status."""
    if shutil.which("valgrind") is None:
        p.error("--instructions needs valgrind (apt-get install valgrind)")
    games = args.game or engine.game_names()
    rows = [instructions(games, deals, args.nodes)]
    if args.before:
        rows.append(instructions(games, deals, args.nodes, os.path.abspath(args.before)))
    if args.json:
        json.dump(rows, sys.stdout)
        print()
    else:
        for row in rows:
            print(f"{row['tree']} ({row['core']}): {row['instructions']:,} instructions, "
                  f"{row['positions']:,} positions, {row['per_position']:,} a position")
        if args.before:
            now, before = rows
            same = "the same positions" if now["positions"] == before["positions"] else "OTHER POSITIONS"
            print(f"now / before, instructions: {now['instructions'] / before['instructions']:.3f} ({same})")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.bench_solver", description=__doc__.split("\n\n")[0])
    p.add_argument("--game", action="append", choices=engine.game_names(),
                   help="game (repeatable; default all)")
    p.add_argument("--deals", default="1-3", help="N or FIRST-LAST (default 1-3)")
    p.add_argument("--nodes", type=argtypes.integer(1), default=10_000, help="node limit per search")
    p.add_argument("--json", action="store_true")
    p.add_argument("--instructions", action="store_true",
                   help="count instructions under valgrind instead of timing")
    p.add_argument("--before", metavar="CHECKOUT",
                   help="with --instructions: count the same searches in this checkout too")
    args = p.parse_args(argv)
    try:
        deals = parse_deals(args.deals)
    except IbmError as err:
        p.error(str(err))  # one line and status 2, before any search
    if args.before and not args.instructions:
        p.error("--before needs --instructions")
    if args.before and not os.path.isdir(os.path.join(args.before, "decks", "solver")):
        p.error(f"--before {args.before}: not a checkout of this project (no decks/solver in it)")
    if args.instructions:
        return _count_instructions(p, args, deals)
    rows = []
    if not args.json:
        print(f"{'game':22} {'before pos/s':>12} {'now pos/s':>10} {'ratio':>6}")
    for game in args.game or engine.game_names():
        row = bench_game(game, deals, args.nodes)
        rows.append(row)
        if not args.json:
            before, now = row["before_per_s"], row["now_per_s"]
            print(f"{game:22} {before:>12,} {now:>10,} {row['ratio']:>6}", flush=True)
    if args.json:
        json.dump(rows, sys.stdout)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
