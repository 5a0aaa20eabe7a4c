"""Benchmark: the solver against the solver it replaced, side by side on the same deals.

``python -m tools.bench_decks [--game GAME ...] [--deals N] [--nodes N] [--solver both|new|baseline]
[--json]``

For each game (default: Klondike flip-3, King Albert, La Belle Lucie), deals 1 … N are solved by
:func:`decks.solver.solve` (*new*) and by the solver as it was before issue 10, frozen in
:mod:`tools._solver_baseline` (*baseline*), each with the same node limit (default the solver's
own, :data:`decks.solver.DEFAULT_MAX_NODES`).  Reported per game and solver:

* **nodes/s** — positions expanded per second of CPU time (``time.process_time``, so that other
  work on a shared machine does not count; wall-clock seconds are in the JSON too);
* **decided** — deals won, proved lost ("no solution exists") and undecided (limit reached);
* **agreement** — on the deals both solvers decide, whether their verdicts agree (a win found by
  one and a proof of loss by the other would be a bug in one of them), and every win replays to a
  won game through the engine.

Then the ratios new / baseline.  ``--json`` prints the same as one JSON document.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from decks import engine, solver
from emulator.errors import IbmError
from tools import _solver_baseline as baseline

DEFAULT_GAMES = ("klondike-flip3", "king-albert", "la-belle-lucie")
SOLVERS: dict[str, Callable[[engine.GameState, int], Any]] = {"baseline": baseline.solve, "new": solver.solve}
VERDICT = {solver.WON: "won", solver.EXHAUSTED: "lost", solver.LIMIT: "undecided"}


def run_one(name: str, game: str, number: int, nodes: int) -> dict[str, Any]:
    """Solve one deal with one solver; the verdict, nodes, CPU and wall seconds, and whether a win
    replays to a won game."""
    state = engine.deal(game, number)
    cpu, wall = time.process_time(), time.perf_counter()
    result = SOLVERS[name](state, nodes)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    replays = None
    if result.won:
        replays = engine.is_won(engine.replay(game, number, state.options, result.moves))
    return {"deal": number, "verdict": VERDICT[result.status], "nodes": result.nodes, "cpu_s": cpu,
            "wall_s": wall, "replays": replays}


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    nodes = sum(r["nodes"] for r in rows)
    cpu = sum(r["cpu_s"] for r in rows)
    count = {v: sum(1 for r in rows if r["verdict"] == v) for v in ("won", "lost", "undecided")}
    return {"nodes": nodes, "cpu_s": cpu, "wall_s": sum(r["wall_s"] for r in rows),
            "nodes_per_s": nodes / cpu if cpu > 0 else 0.0, **count, "decided": count["won"] + count["lost"],
            "bad_replays": [r["deal"] for r in rows if r["replays"] is False]}


def compare(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> dict[str, Any]:
    """Agreement of two solvers on the deals both decide."""
    both = [(x, y) for x, y in zip(a, b, strict=True) if "undecided" not in (x["verdict"], y["verdict"])]
    return {"both_decided": len(both), "agree": sum(1 for x, y in both if x["verdict"] == y["verdict"]),
            "disagree": [x["deal"] for x, y in both if x["verdict"] != y["verdict"]]}


def bench(games: list[str], deals: int, nodes: int, names: list[str],
          tick: Callable[[str, dict[str, Any]], None] = lambda what, row: None) -> list[dict[str, Any]]:
    out = []
    for game in games:
        per = {}
        for name in names:
            rows = []
            for number in range(1, deals + 1):
                rows.append(run_one(name, game, number, nodes))
                tick(f"{game} {name} deal {number}", rows[-1])
            per[name] = {"summary": summary(rows), "deals": rows}
        entry: dict[str, Any] = {"game": game, "deals": deals, "node_limit": nodes, "solvers": per}
        if len(names) == 2:
            old, new = per["baseline"]["summary"], per["new"]["summary"]
            entry["agreement"] = compare(per["baseline"]["deals"], per["new"]["deals"])
            entry["ratio"] = {k: new[k] / old[k] if old[k] else None for k in ("nodes_per_s", "decided")}
        out.append(entry)
    return out


def show(rows: list[dict[str, Any]]) -> None:
    for r in rows:
        print(f"{r['game']}: deals 1-{r['deals']}, node limit {r['node_limit']:,}")
        print(f"  {'solver':<9} {'nodes/s (CPU)':>14} {'won':>5} {'lost':>5} {'undecided':>10} "
              f"{'decided':>8}")
        for name, v in r["solvers"].items():
            s = v["summary"]
            bad = f"  WINS THAT DO NOT REPLAY: {s['bad_replays']}" if s["bad_replays"] else ""
            print(f"  {name:<9} {s['nodes_per_s']:>14,.0f} {s['won']:>5} {s['lost']:>5} {s['undecided']:>10} "
                  f"{s['decided']:>8}{bad}")
        if "ratio" in r:
            ratio, agree = r["ratio"], r["agreement"]
            fmt = lambda x: "n/a" if x is None else f"{x:.1f}x"  # noqa: E731
            print(f"  new/baseline: nodes/s {fmt(ratio['nodes_per_s'])}, "
                  f"deals decided {fmt(ratio['decided'])}; "
                  f"same verdict on {agree['agree']} of {agree['both_decided']} deals both decide"
                  + (f", DIFFERENT on deals {agree['disagree']}" if agree["disagree"] else ""))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.bench_decks", description=__doc__.splitlines()[0])
    p.add_argument("--game", action="append", help="game to measure (repeatable; default: "
                   + ", ".join(DEFAULT_GAMES) + ")")
    p.add_argument("--deals", type=int, default=10, help="deals 1 … N of each game (default 10)")
    p.add_argument("--nodes", type=int, default=solver.DEFAULT_MAX_NODES, help="node limit per deal")
    p.add_argument("--solver", choices=("both", "new", "baseline"), default="both")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.deals < 1 or args.nodes < 1:
        p.error("--deals and --nodes must be at least 1")
    games = args.game or list(DEFAULT_GAMES)
    for g in games:
        try:
            engine.get_game(g)      # an unknown game fails here, before any work
        except IbmError as err:
            p.error(str(err))
    names = ["baseline", "new"] if args.solver == "both" else [args.solver]
    if args.json or not sys.stderr.isatty():          # one line per deal on stderr instead of a bar
        rows = bench(games, args.deals, args.nodes, names,
                     lambda what, row: print(f"{what}: {row['verdict']}, {row['nodes']} nodes, "
                                             f"{row['cpu_s']:.2f} s CPU", file=sys.stderr, flush=True))
    else:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(),
                      console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("solving", total=len(games) * len(names) * args.deals)
            rows = bench(games, args.deals, args.nodes, names,
                         lambda what, row: bar.update(task, advance=1, description=what))
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
    else:
        show(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
