"""Benchmark: the rules engine's move generator and the solver, against copying a game state.

``python -m tools.bench_decks [--game GAME ...] [--deals N] [--nodes N] [--json]``

For each game, N deals (1 … N) are played a few moves in by a fixed choice of legal moves, and on
every position reached the benchmark times, in the same run: the *baseline* — ``GameState.copy()``,
the cheapest thing the solver does per child — then :func:`decks.engine.legal_moves`,
:func:`decks.engine.apply_in_place` of a legal move on a copy, and :func:`decks.engine.state_key`.
Each is reported as operations per second and as a ratio to the baseline (how many state copies one
operation costs).  Then the solver runs on deal 1 with ``--nodes`` as its limit and the positions it
expands per second are reported with the same ratio.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from decks import engine, solver

DEFAULT_GAMES = ("klondike-flip3", "spiderette", "king-albert", "la-belle-lucie", "agnes")


def positions(game: str, deals: int, moves: int = 12) -> list[engine.GameState]:
    """A few positions per deal: the deal, then after each of ``moves`` fixed choices of move."""
    out = []
    for number in range(1, deals + 1):
        s = engine.deal(game, number)
        out.append(s)
        for i in range(moves):
            legal = engine.legal_moves(s)
            if not legal:
                break
            s = engine.apply(s, legal[(7 * i + number) % len(legal)])
            out.append(s)
    return out


def rate(op: Callable[[engine.GameState], Any], states: list[engine.GameState],
         seconds: float = 0.3) -> float:
    """Operations per second of ``op`` over ``states`` (repeated for at least ``seconds``)."""
    done, start = 0, time.perf_counter()
    while True:
        for s in states:
            op(s)
        done += len(states)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def _apply_one(s: engine.GameState) -> None:
    legal = engine.legal_moves(s)
    if legal:
        engine.apply_in_place(s.copy(), legal[0], record=False, checked=True)


def bench_game(game: str, deals: int, nodes: int) -> dict[str, Any]:
    states = positions(game, deals)
    base = max(rate(lambda s: s.copy(), states) for _ in range(2))     # the first run warms up
    ops = {"legal_moves": rate(engine.legal_moves, states),
           "copy+legal_moves+apply": rate(_apply_one, states),
           "state_key": rate(engine.state_key, states)}
    start = time.perf_counter()
    result = solver.solve(engine.deal(game, 1), nodes)
    node_rate = result.nodes / (time.perf_counter() - start)
    row = {"game": game, "positions": len(states), "copy_per_s": base,
           "ops": {k: {"per_s": v, "copies_each": base / v} for k, v in ops.items()},
           "solver": {"status": result.status, "nodes": result.nodes, "nodes_per_s": node_rate,
                      "copies_each": base / node_rate}}
    return row


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.bench_decks", description=__doc__.splitlines()[0])
    p.add_argument("--game", action="append", help="game to measure (repeatable)")
    p.add_argument("--deals", type=int, default=5)
    p.add_argument("--nodes", type=int, default=3000, help="solver node limit")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    rows = [bench_game(g, args.deals, args.nodes) for g in (args.game or DEFAULT_GAMES)]
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
        return 0
    for r in rows:
        print(f"{r['game']}: {r['positions']} positions; baseline state copy {r['copy_per_s']:,.0f}/s")
        for name, v in r["ops"].items():
            print(f"  {name:<24} {v['per_s']:>10,.0f}/s  = {v['copies_each']:6.1f} copies each")
        sv = r["solver"]
        print(f"  {'solver node':<24} {sv['nodes_per_s']:>10,.0f}/s  = {sv['copies_each']:6.1f} copies each"
              f"  ({sv['status']} after {sv['nodes']} nodes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
