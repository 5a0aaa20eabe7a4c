"""Benchmark: the solver against the solver it replaced, side by side on the same deals.

``python -m tools.bench_decks [--game GAME ...] [--deals N|FIRST-LAST] [--nodes N]
[--solver both|all|new|python|baseline] [--workers N] [--results FILE] [--json]``

For each game (default: Klondike flip-3, King Albert, La Belle Lucie), deals 1 … N are solved by
:func:`decks.solver.solve` as installed (*new*: compiled by mypyc where ``pip install`` could),
by the solver as it was before issue 10, frozen in :mod:`tools._solver_baseline` (*baseline*),
and with ``--solver all`` also by the new search run from its Python source (*python*, in a
process of its own with ``IBM1013_PURE_PYTHON=1``), each with the same node limit (default the
solver's own, :data:`decks.solver.DEFAULT_MAX_NODES`).  Reported per game and solver:

* **nodes/s** — positions expanded per second of CPU time (``time.process_time``, so that other
  work on a shared machine does not count; wall-clock seconds are in the JSON too);
* **decided** — deals won, proved lost ("no solution exists") and undecided (limit reached);
* **agreement** — on the deals both decide, whether a solver's verdicts agree with the
  baseline's (a win found by one and a proof of loss by the other would be a bug in one of them),
  and every win replays to a won game through the engine.

Then the ratios of each solver to the baseline.  ``--json`` prints the same as one JSON document.

Each deal is solved by the solvers one after the other, so that all run under the same
conditions.  ``--workers N`` solves N deals at once in separate processes (each deal's CPU time is
its own process's, so the figures change little, only the wall-clock time).  With ``--results
FILE`` every deal's record is kept in FILE (JSON lines) as it finishes, and a deal already recorded
there by the same solver (the baseline, or the new solver's :data:`decks.solver.SEARCH_VERSION`,
compiled or not) with the same node limit is not solved again: a long run can be stopped and
resumed (deals 1-100 of the three games took 22 minutes of CPU time for the old solver, 6 for the
Python source and 1.5 compiled: ``docs/games.md``).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from decks import engine, solver
from emulator import IbmError
from ibm1013.cli import argtypes
from tools import _solver_baseline as baseline
from tools.measure_games import parse_deals, save_results

DEFAULT_GAMES = ("klondike-flip3", "king-albert", "la-belle-lucie")
SOLVERS: dict[str, Callable[[engine.GameState, int], Any]] = {"baseline": baseline.solve, "new": solver.solve}
VERDICT = {solver.WON: "won", solver.EXHAUSTED: "lost", solver.LIMIT: "undecided"}


SOLVER_SETS = {"both": ["baseline", "new"], "all": ["baseline", "python", "new"], "new": ["new"],
               "baseline": ["baseline"], "python": ["python"]}
"""``--solver``'s choices: *new* is :func:`decks.solver.solve` as installed (compiled where
``pip install`` could compile it), *python* the same search run from its Python source."""


def version(name: str) -> str:
    """What a record of solver ``name`` was made with: the baseline never changes; the new solver's
    records name its search and, where it ran compiled, say so (:data:`decks.solver.CORE`: the same
    search, faster)."""
    if name == "baseline":
        return "baseline"
    compiled = name == "new" and solver.CORE == "compiled"
    return solver.SEARCH_VERSION + (" compiled" if compiled else "")


_FROM_SOURCE = ("import json, sys\nfrom tools import bench_decks\n"
                "print(json.dumps(bench_decks.run_one(*sys.argv[1:])))")


def run_one(name: str, game: str, number: int | str, nodes: int | str) -> dict[str, Any]:
    """Solve one deal with one solver; the verdict, nodes, CPU and wall seconds, and whether a win
    replays to a won game.  Solver *python* is the new one in a process of its own that runs the
    Python source (``IBM1013_PURE_PYTHON=1``; its CPU time is measured there, around the search)."""
    number, nodes = int(number), int(nodes)
    if name == "python":
        env = {**os.environ, "IBM1013_PURE_PYTHON": "1"}
        child = subprocess.run([sys.executable, "-c", _FROM_SOURCE, "new", game, str(number), str(nodes)],
                               env=env, capture_output=True, text=True, check=True, timeout=3600)
        return json.loads(child.stdout)
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


# ---- the results file: one record a line ----

def _key(record: dict[str, Any]) -> tuple:
    return record["game"], record["solver"], record["version"], record["node_limit"], record["deal"]


def load_results(path: str) -> list[dict[str, Any]]:
    """Every record of a results file (none if it does not exist yet)."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return []
    except OSError as err:
        raise IbmError(f"{path}: cannot read ({err.strerror})") from None
    records = []
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
            _key(record)
            if record["verdict"] not in VERDICT.values():
                raise ValueError
            int(record["nodes"]), float(record["cpu_s"])
        except (ValueError, KeyError, TypeError):
            raise IbmError(f"{path} line {number}: not a bench_decks record") from None
        records.append(record)
    return records


def _solve_job(job: tuple[str, str, int, int]) -> dict[str, Any]:
    name, game, number, nodes = job
    return {"game": game, "solver": name, "version": version(name), "node_limit": nodes,
            **run_one(name, game, number, nodes)}


def _ignore_interrupt() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def bench(games: list[str], deals: range, nodes: int, names: list[str],
          tick: Callable[[str, dict[str, Any]], None] = lambda what, row: None,
          workers: int = 1, results: str | None = None) -> list[dict[str, Any]]:
    """Solve ``deals`` of each game with each solver (``workers`` at once), keeping every record in
    ``results`` if given and taking those already there; the figures per game."""
    records = load_results(results) if results else []
    done = {_key(r): r for r in records}
    jobs = [(name, game, number, nodes) for game in games for number in deals for name in names
            if (game, name, version(name), nodes, number) not in done]     # each deal by both, side by side

    def record(r: dict[str, Any]) -> None:
        done[_key(r)] = r
        records.append(r)
        if results:
            save_results(results, [json.dumps(r, sort_keys=True) for r in records])
        tick(f"{r['game']} {r['solver']} deal {r['deal']}", r)

    if workers > 1 and len(jobs) > 1:      # Ctrl-C reaches this process only: it ends the pool
        with multiprocessing.get_context("fork").Pool(workers, initializer=_ignore_interrupt) as pool:
            for r in pool.imap_unordered(_solve_job, jobs):
                record(r)
    else:
        for job in jobs:
            record(_solve_job(job))
    out = []
    for game in games:
        per = {}
        for name in names:
            rows = [done[(game, name, version(name), nodes, number)] for number in deals]
            per[name] = {"summary": summary(rows), "deals": rows}
        entry: dict[str, Any] = {"game": game, "deals": f"{deals.start}-{deals.stop - 1}",
                                 "node_limit": nodes, "solvers": per}
        if "baseline" in per:       # each other solver against the baseline
            old = per["baseline"]["summary"]
            entry["versus_baseline"] = {
                name: {**{k: v["summary"][k] / old[k] if old[k] else None
                          for k in ("nodes_per_s", "decided")},
                       "agreement": compare(per["baseline"]["deals"], v["deals"])}
                for name, v in per.items() if name != "baseline"}
        out.append(entry)
    return out


def show(rows: list[dict[str, Any]]) -> None:
    for r in rows:
        print(f"{r['game']}: deals {r['deals']}, node limit {r['node_limit']:,}")
        print(f"  {'solver':<9} {'nodes/s (CPU)':>14} {'won':>5} {'lost':>5} {'undecided':>10} "
              f"{'decided':>8}")
        for name, v in r["solvers"].items():
            s = v["summary"]
            bad = f"  WINS THAT DO NOT REPLAY: {s['bad_replays']}" if s["bad_replays"] else ""
            print(f"  {name:<9} {s['nodes_per_s']:>14,.0f} {s['won']:>5} {s['lost']:>5} {s['undecided']:>10} "
                  f"{s['decided']:>8}{bad}")
        fmt = lambda x: "n/a" if x is None else f"{x:.1f}x"  # noqa: E731
        for name, ratio in r.get("versus_baseline", {}).items():
            agree = ratio["agreement"]
            print(f"  {name}/baseline: nodes/s {fmt(ratio['nodes_per_s'])}, "
                  f"deals decided {fmt(ratio['decided'])}; "
                  f"same verdict on {agree['agree']} of {agree['both_decided']} deals both decide"
                  + (f", DIFFERENT on deals {agree['disagree']}" if agree["disagree"] else ""))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.bench_decks", description=__doc__.split("\n\n")[0])
    p.add_argument("--game", action="append", help="game to measure (repeatable; default: "
                   + ", ".join(DEFAULT_GAMES) + ")")
    p.add_argument("--deals", default="10", help="N (deals 1 … N of each game) or FIRST-LAST (default 10)")
    p.add_argument("--nodes", type=argtypes.integer(1), default=solver.DEFAULT_MAX_NODES,
                   help="node limit per deal")
    p.add_argument("--solver", choices=tuple(SOLVER_SETS), default="both",
                   help="both: baseline and new; all: baseline, python (the new search run from its "
                        "Python source) and new (as installed: compiled where it could be)")
    p.add_argument("--workers", type=argtypes.integer(1, 256), default=1, help="deals solved at once")
    p.add_argument("--results", type=argtypes.output_file, metavar="FILE",
                   help="keep each deal's record in FILE (JSON lines); deals already there are not "
                        "solved again")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    games = args.game or list(DEFAULT_GAMES)
    try:
        deals = parse_deals(args.deals)
        for g in games:
            engine.get_game(g)      # an unknown game fails here, before any work
        if args.results == "-":
            raise IbmError("--results needs a file (it is read back to resume)")
        kept = {_key(r) for r in load_results(args.results)} if args.results else set()
    except IbmError as err:         # a damaged results file fails here too, before any work
        p.error(str(err))
    names = SOLVER_SETS[args.solver]
    try:
        rows = _run(args, games, deals, names, kept)
    except KeyboardInterrupt:
        kept_now = f"; every deal finished is kept in {args.results}" if args.results else ""
        print(f"bench_decks: interrupted{kept_now}", file=sys.stderr)
        return 130
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
    else:
        show(rows)
    return 0


def _run(args: argparse.Namespace, games: list[str], deals: range, names: list[str],
         kept: set) -> list[dict[str, Any]]:
    """The bench of ``main``, with one line a deal on stderr, or a progress bar on a terminal."""
    if args.json or not sys.stderr.isatty():          # one line per deal on stderr instead of a bar
        rows = bench(games, deals, args.nodes, names,
                     lambda what, row: print(f"{what}: {row['verdict']}, {row['nodes']} nodes, "
                                             f"{row['cpu_s']:.2f} s CPU", file=sys.stderr, flush=True),
                     args.workers, args.results)
    else:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(),
                      console=Console(stderr=True), transient=True) as bar:
            total = [(g, n, version(n), args.nodes, d) for g in games for n in names for d in deals]
            task = bar.add_task("solving", total=len(total), completed=len(kept.intersection(total)))
            rows = bench(games, deals, args.nodes, names,
                         lambda what, row: bar.update(task, advance=1, description=what),
                         args.workers, args.results)
    return rows


if __name__ == "__main__":
    sys.exit(main())
