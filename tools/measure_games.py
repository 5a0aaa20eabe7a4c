"""Win rates of the solitaire games over many deals, with best play.

::

    python -m tools.measure_games auld-lang-syne --deals 100000
    python -m tools.measure_games klondike-flip3 --deals 1-200 --max-nodes 20000
    python -m tools.measure_games klondike --option draw=3 --deals 1-200 --max-nodes 20000 --json

Each deal is searched on its own (``--workers`` processes, 2 by default) and counted as *won* (a
winning move list was found), *lost* (the whole game tree was searched without a win — no play can
win it) or *unknown* (the solver's node limit was reached first).  The win rate is given with a
95 % Wilson interval; for a bounded search it is a lower bound on the true rate, since unknown deals
may be winnable.

Auld Lang Syne is decided exactly by :func:`decks.games.auld_lang_syne.best_play_wins` (every
choice of foundation play searched, no node limit), which is fast enough for 100,000 deals;
``--generic`` uses the general solver instead.  Deal numbers follow :mod:`decks.deals` (Microsoft
FreeCell deals 1 … 2^31−1).

Measured on 2 cores (Nov 2026; the commands as written, rules as the engine plays them):

* ``auld-lang-syne --deals 100000`` (exact search): 87 won of 100,000 = 0.087 % (about 1 in 1,150;
  95 % interval 0.071–0.107 %), 40 s.  The seed's "about 1 in 100" is far too generous; "1 in
  300" too; "1 in 3,000" too harsh.
* ``klondike-flip3 --deals 1-200`` (default limit 50,000 nodes): 122 won, 20 proved lost, 58
  undecided: at least 61 % (95 % interval 54–67 %), 699 s.  Rules of seed 004: only the whole
  face-up part of a pile moves, so the published 82 % (partial moves) is not directly comparable.
* ``klondike-flip3 --deals 1-200 --max-nodes 20000``: 113 won, 18 lost, 69 undecided (56.5 %;
  an earlier solver version, 22:29).
* ``klondike --option draw=3 --deals 1-200 --max-nodes 20000`` (three at a time, no redeal): 3 won,
  187 lost, 10 undecided (1.5 %), 46 s.
* ``labyrinth --option last_resort=false --deals 1000``: 27 won, 973 lost, all decided (2.7 %);
  with the last-resort pick on (the default) every deal is won (300 of 300 checked).

The two-pack games (30 Nov 2026, the solver of issue 10 with the games' ``tidy_distance`` computed
natively; ``--workers 1``, default limit 50,000 nodes, quiet machine).  No deal was proved lost:

* ``lucas --deals 1-20``: 9 won, 11 undecided (9,162 nodes/s, 63 s).
* ``indian --deals 1-20``: 3 won, 17 undecided (10,065 nodes/s); ``limited --deals 1-20``: 0 won
  (9,143 nodes/s) — its recorded win (deal 4 in the tests) was found by a beam search.
* ``the-plot --deals 1-20``: 8 won, 12 undecided (4,224 nodes/s, 154 s).
* ``--deals 1-10``: ``british-constitution`` 9 won (1,033 nodes/s, the slowest), ``mount-olympus`` 6
  (1,940 nodes/s), ``queen-of-italy`` 0 (2,300 nodes/s), ``colorado`` 0 (2,866 nodes/s: its 20 waste
  piles give each dealt card twenty places; a greedy player wins deal 25).
* ``louis --deals 1-20`` before the native measure: 5 won (3,425 nodes/s); ``parallels`` did not
  finish 10 deals in 240 s.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from decks import engine, solver
from decks.games.auld_lang_syne import best_play_wins, deal_ranks
from emulator.errors import IbmError
from tools.cmd_games import parse_options

_JOB: dict[str, Any] = {}


def parse_deals(text: str) -> range:
    """``100000`` → deals 1 … 100000; ``1-200`` → deals 1 … 200."""
    first, sep, last = text.partition("-")
    try:
        if sep:
            lo, hi = int(first), int(last)
        else:
            lo, hi = 1, int(first)
    except ValueError:
        raise IbmError(f"--deals {text!r}: write N or FIRST-LAST") from None
    if lo < 1 or hi < lo:
        raise IbmError(f"--deals {text!r}: need 1 <= FIRST <= LAST")
    return range(lo, hi + 1)


def _init(job: dict[str, Any]) -> None:
    _JOB.update(job)


def measure_one(deal: int) -> tuple[int, str, int]:
    """(deal, outcome, nodes) for one deal, with the job set up by :func:`_init`."""
    if _JOB["exact"]:
        won = best_play_wins(deal_ranks(deal), bool(_JOB["options"].get("deal_any_time", False)))
        return deal, ("won" if won else "lost"), 0
    result = solver.solve(engine.deal(_JOB["game"], deal, _JOB["options"]), _JOB["max_nodes"])
    outcome = {solver.WON: "won", solver.EXHAUSTED: "lost"}.get(result.status, "unknown")
    return deal, outcome, result.nodes


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def run(game: str, deals: range, options: dict[str, Any], max_nodes: int, workers: int,
        exact: bool, quiet: bool = False) -> dict[str, Any]:
    job = {"game": game, "options": options, "max_nodes": max_nodes, "exact": exact}
    counts: Counter[str] = Counter()
    won_deals: list[int] = []
    nodes = 0
    start = time.perf_counter()
    chunk = max(1, min(500, len(deals) // (workers * 20) or 1))
    with Progress(TextColumn(f"{game}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("won {task.fields[won]}"), TimeRemainingColumn(),
                  disable=quiet, transient=False, console=None) as progress:
        task = progress.add_task("deals", total=len(deals), won=0)
        if workers > 1:
            ctx = multiprocessing.get_context("fork")
            with ctx.Pool(workers, initializer=_init, initargs=(job,)) as pool:
                for deal, outcome, n in pool.imap_unordered(measure_one, deals, chunksize=chunk):
                    counts[outcome] += 1
                    nodes += n
                    if outcome == "won":
                        won_deals.append(deal)
                    progress.update(task, advance=1, won=counts["won"])
        else:
            _init(job)
            for deal in deals:
                deal, outcome, n = measure_one(deal)
                counts[outcome] += 1
                nodes += n
                if outcome == "won":
                    won_deals.append(deal)
                progress.update(task, advance=1, won=counts["won"])
    elapsed = time.perf_counter() - start
    total = len(deals)
    lo, hi = wilson(counts["won"], total)
    return {
        "game": game, "options": options, "deals": f"{deals.start}-{deals.stop - 1}", "count": total,
        "method": "exact search" if exact else f"solver, node limit {max_nodes}",
        "won": counts["won"], "lost": counts["lost"], "unknown": counts["unknown"],
        "win_rate": counts["won"] / total, "win_rate_95": [lo, hi],
        "one_in": (total / counts["won"]) if counts["won"] else None,
        "nodes": nodes, "seconds": round(elapsed, 2), "deals_per_second": round(total / elapsed, 1),
        "nodes_per_second_per_worker": round(nodes / elapsed / max(1, min(workers, total))),
        "workers": workers, "won_deals_first": sorted(won_deals)[:20],
    }


def report(r: dict[str, Any]) -> str:
    lo, hi = r["win_rate_95"]
    one_in = f" (1 in {r['one_in']:.0f})" if r["one_in"] else ""
    return (f"{r['game']} {r['options'] or ''} deals {r['deals']} ({r['method']}):\n"
            f"  won {r['won']}, lost {r['lost']}, unknown {r['unknown']} of {r['count']}\n"
            f"  win rate {100 * r['win_rate']:.3f} %{one_in}, "
            f"95 % interval {100 * lo:.3f} – {100 * hi:.3f} %\n"
            f"  {r['seconds']} s on {r['workers']} worker(s), {r['deals_per_second']} deals/s, "
            f"{r['nodes']} solver nodes ({r['nodes_per_second_per_worker']} per second per worker)\n"
            f"  first won deals: {r['won_deals_first']}")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.measure_games", description=__doc__.split("\n\n")[0])
    p.add_argument("game")
    p.add_argument("--deals", default="1000", help="N (deals 1 … N) or FIRST-LAST")
    p.add_argument("--option", action="append", default=[], metavar="K=V")
    p.add_argument("--max-nodes", type=int, default=solver.DEFAULT_MAX_NODES)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--generic", action="store_true", help="use the general solver even where an exact "
                                                          "search exists")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    try:
        rules = engine.get_game(args.game)
        options = engine.resolve_options(rules, parse_options(args.option))
        exact = rules.name == "auld-lang-syne" and not args.generic
        result = run(rules.name, parse_deals(args.deals), options, args.max_nodes, max(1, args.workers),
                     exact, quiet=args.json)
    except IbmError as err:
        print(f"measure_games: {err}", file=sys.stderr)
        return 2
    print(json.dumps(result) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
