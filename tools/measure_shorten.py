"""Short solutions: how long each win is as the search found it and after
:func:`decks.solver.shorten.shorten`, per game and deal.

``python -m tools.measure_shorten [--game GAME ...] [--deals N|FIRST-LAST] [--max-nodes N]
[--positions N] [--json]``

Each deal (default: deals 1-5 of every game) is searched with a node limit (default the solver's
own, :data:`decks.solver.DEFAULT_MAX_NODES`), so the win found is the same on any machine; a win is
shortened with a budget of positions listed (default that of ``ibm1013 solve``:
:data:`decks.solver.shorten.PER_MOVE` per move found, at most
:data:`decks.solver.shorten.SHORTEN_POSITIONS`) and replayed through the engine, which must end in a won game.
Printed per deal: the verdict, the moves as found and after shortening, and the CPU seconds the
shortening took (``time.process_time``); then the total per game.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from decks import engine, solver
from decks.solver.shorten import shorten
from emulator import IbmError
from ibm1013.cli import argtypes
from tools.measure_games import parse_deals


def measure(game: str, deal: int, max_nodes: int, positions: int | None) -> dict[str, Any]:
    """One deal's row: verdict, and for a win the moves as found and short and the CPU seconds."""
    state = engine.deal(game, deal)
    result = solver.solve(state, max_nodes)
    row: dict[str, Any] = {"game": game, "deal": deal, "verdict": result.status, "nodes": result.nodes}
    if result.won:
        start = time.process_time()
        short = shorten(state, result.moves, max_seconds=600, max_positions=positions)
        row["cpu"] = round(time.process_time() - start, 2)
        if not engine.is_won(engine.replay(game, deal, state.options, short.moves)):
            raise AssertionError(f"{game} deal {deal}: the short line does not win")
        row["found_moves"], row["moves"] = short.found, len(short.moves)
    return row


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.measure_shorten", description=__doc__.split("\n\n")[0])
    p.add_argument("--game", action="append", choices=engine.game_names(),
                   help="game (repeatable; default all)")
    p.add_argument("--deals", default="1-5", help="N or FIRST-LAST (default 1-5)")
    p.add_argument("--max-nodes", type=argtypes.integer(1), default=solver.DEFAULT_MAX_NODES,
                   help="the search's node limit per deal")
    p.add_argument("--positions", type=argtypes.integer(1),
                   help="the shortening's budget of positions listed (default that of solve)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    try:
        deals = parse_deals(args.deals)
    except IbmError as err:
        p.error(str(err))  # one line and status 2, before any search
    rows = []
    for game in args.game or engine.game_names():
        for deal in deals:
            row = measure(game, deal, args.max_nodes, args.positions)
            rows.append(row)
            if not args.json:
                moves = (f"{row['moves']} moves, shortened from {row['found_moves']} ({row['cpu']} s CPU)"
                         if "moves" in row else "")
                print(f"{game:22} deal {deal:<5} {row['verdict']:28} {moves}", flush=True)
    if args.json:
        json.dump(rows, sys.stdout)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
