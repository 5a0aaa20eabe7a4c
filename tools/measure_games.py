"""Win rates of the solitaire games over many deals, with best play.

::

    python -m tools.measure_games auld-lang-syne --deals 100000
    python -m tools.measure_games klondike-flip3 --deals 1-200 --max-nodes 20000
    python -m tools.measure_games klondike --option draw=3 --deals 1-200 --max-nodes 20000 --json
    python -m tools.measure_games lucas --deals 1-200 --results lucas.jsonl   # resumable
    python -m tools.measure_games lucas --deals 1-200 --dask local --results lucas.jsonl

Each deal is searched on its own and counted as *won* (a
winning move list was found), *lost* (the whole game tree was searched without a win — no play can
win it) or *unknown* (the solver's node limit was reached first).  The win rate is given with a
95 % Wilson interval; for a bounded search it is a lower bound on the true rate, since unknown deals
may be winnable.  With ``--results FILE`` each deal's record (game, options, node limit, solver
version :data:`decks.solver.SEARCH_VERSION`, outcome, nodes, seconds) is appended to FILE as it
finishes (flushed to disk, so a batch costs the same however long the file is), and a later run
with the same settings (game, options, node limit, and this search version or an earlier one that
searches the game the same way) takes the deals already there instead of searching them again: a long
measurement can be stopped (Ctrl-C, or killed outright: a record cut short is searched again) and
resumed.  At the end the file is written once in order: its lines of other settings, then this
setting's records by deal.  ``--seconds S`` adds a time budget a deal (as ``ibm1013 solve
--seconds``): the clock stops a search after S seconds, and its record says how many positions it
had searched (and ``timed_out``); a search of that many positions finds the same on any machine,
but where the clock stops depends on the machine and its load.

The deals run where ``ibm1013 sweep``'s runs do (:mod:`ibm1013.sweep.backends`): ``--workers N``
processes on this machine (default: every core; ``--workers 1`` searches in this process), or
``--dask local`` / ``--dask tcp://HOST:PORT`` on a Dask cluster (whose workers need this checkout
on their ``PYTHONPATH``: ``tools`` is not installed).  With a node limit, the records are the same
whichever runs them, but for ``seconds``.

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

The two-pack games, deals 1–200 each with the default limit (30 Nov 2026, ``--workers 2
--results``), are in ``docs/games.md`` ("Win rates"), and every deal's record is in
``docs/winrates-two-pack.jsonl``; a test checks the table against the records.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from decks import engine, solver
from decks.games.auld_lang_syne import best_play_wins, deal_ranks
from decks.session import parse_options
from decks.solver.shorten import shorten
from emulator import IbmError
from emulator.atomic import atomic_output
from ibm1013.cli import argtypes
from ibm1013.cli.sweep import add_backend_options, backend_of, backend_workers
from ibm1013.sweep.backends import InProcess, ProcessPool, in_batches

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


def measure_one(deal: int) -> dict[str, Any]:
    """One deal's record, with the job set up by :func:`_init`: deal, outcome, nodes (positions
    expanded), unique (positions in the last run's table), seconds (of the search), ``timed_out``
    when a time budget (``max_seconds``) stopped the search first, and for a win
    found by the solver the length of its line as found and stripped of detours (``found_moves``,
    ``moves``: :func:`decks.solver.shorten.shorten` with its default budget of positions and no
    clock guard, so the same length on any machine, however busy; not in ``seconds``)."""
    start = time.perf_counter()
    if _JOB["exact"]:
        won = best_play_wins(deal_ranks(deal), bool(_JOB["options"].get("deal_any_time", False)))
        return {"deal": deal, "outcome": "won" if won else "lost", "nodes": 0,
                "seconds": round(time.perf_counter() - start, 3)}
    state = engine.deal(_JOB["game"], deal, _JOB["options"])
    result = solver.solve(state, _JOB["max_nodes"], max_seconds=_JOB.get("max_seconds"))
    seconds = round(time.perf_counter() - start, 3)
    outcome = {solver.WON: "won", solver.EXHAUSTED: "lost"}.get(result.status, "unknown")
    record = {"deal": deal, "outcome": outcome, "nodes": result.nodes, "unique": result.unique,
              "seconds": seconds}
    if result.timed_out:  # the clock stopped it: a search of ``nodes`` positions finds the same
        record["timed_out"] = True
    if result.won:
        record["found_moves"] = len(result.moves)
        # its budget of positions alone: a clock guard would make the length depend on the load
        record["moves"] = len(shorten(state, result.moves, max_seconds=math.inf).moves)
    return record


# ---- the results file: one JSON object a line, a record per deal ----

_SETTINGS = ("game", "options", "max_nodes", "max_seconds")
"""What a record was searched with (``max_seconds``, a time budget a deal, only where one was set)."""
SHORTENED_SINCE = "2026-12-02"
"""The first search version whose records' ``moves`` come from today's shortening (within
``shorten``'s own budget of positions): an older record, even of the same search, was shortened
within a second of clock, so it is searched again."""


def same_settings(record: dict[str, Any], settings: dict[str, Any]) -> bool:
    """Whether ``record`` is what a search with ``settings`` gives today: the same game, options
    and node limit, and the same search — this version's, or an earlier one that found the same
    for this game (:func:`decks.solver.same_search`) and shortened as today."""
    if any(record.get(k) != settings.get(k) for k in _SETTINGS):
        return False
    version, now = record.get("search"), settings["search"]
    if version == now or "exact" in (version, now) or not isinstance(version, str):
        return version == now
    return version >= SHORTENED_SINCE and solver.same_search(version, settings["game"])


def load_results(path: str, settings: dict[str, Any]) -> tuple[dict[int, dict], list[str], int | None]:
    """The records of ``path`` made with ``settings`` (by deal), every other line of the file as it
    is (records of other settings are kept when the file is written again), and where the file's
    whole lines end if its last line was cut short (None if not).  A last line with no newline that
    is not a record is a write cut short (the run was killed as it appended it): it is dropped, its
    deal is searched again, and :class:`Appender` cuts the file back to its whole lines."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return {}, [], None
    except OSError as err:
        raise IbmError(f"{path}: cannot read ({err.strerror})") from None
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError as err:
        raise IbmError(f"{path} byte {err.start}: not UTF-8 text, so not a measure_games file") from None
    mine: dict[int, dict] = {}
    others: list[str] = []
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
            deal, outcome = int(record["deal"]), record["outcome"]
            int(record["nodes"]), float(record["seconds"])
        except (ValueError, KeyError, TypeError):
            if number == len(lines) and not data.endswith(b"\n"):
                return mine, others, data.rfind(b"\n") + 1
            raise IbmError(f"{path} line {number}: not a measure_games record") from None
        if outcome not in ("won", "lost", "unknown"):
            raise IbmError(f"{path} line {number}: outcome {outcome!r} is not won, lost or unknown")
        if same_settings(record, settings):
            mine[deal] = record
        else:
            others.append(line)
    return mine, others, None


def save_results(path: str, lines: list[str]) -> None:
    with atomic_output(path) as out:
        out.write("".join(line + "\n" for line in lines).encode())


class Appender:
    """Appends each finished deal's record to the results file at once (flushed and synced), so a
    run that is stopped keeps every deal it finished; the cost of a batch does not grow with the
    file.  First cuts a last line written short back off (at ``whole``, from :func:`load_results`),
    and ends a last record that has no newline with one."""

    def __init__(self, path: str, whole: int | None = None) -> None:
        self.path = path
        try:
            self.file = open(path, "a+b")
            if whole is not None:
                self.file.truncate(whole)
            if self.file.seek(0, os.SEEK_END):
                self.file.seek(-1, os.SEEK_END)
                if self.file.read(1) != b"\n":
                    self.file.write(b"\n")
        except OSError as err:
            raise IbmError(f"{path}: cannot write ({err.strerror})") from None

    def add(self, lines: Sequence[str]) -> None:
        try:
            self.file.write("".join(line + "\n" for line in lines).encode())
            self.file.flush()
            os.fsync(self.file.fileno())
        except OSError as err:
            raise IbmError(f"{self.path}: cannot write ({err.strerror})") from None

    def close(self) -> None:
        self.file.close()


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record, sort_keys=True)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Deal:
    """One deal to search, as the sweep's backends hand work out (``point`` names it in an error)."""

    number: int

    @property
    def point(self) -> dict[str, int]:
        return {"deal": self.number}


def measure_deals(job: dict[str, Any], deals: Sequence[Deal]) -> list[dict[str, Any]]:
    """The records of a batch of deals: the task the backends run, ``job`` sent once a worker."""
    _init(job)
    return [measure_one(deal.number) for deal in deals]


PRELOAD = ("decks.engine", "decks.solver", "decks.solver.shorten")
"""Imported once by the process pool's forkserver, so that its workers start with them."""


def run(game: str, deals: range, options: dict[str, Any], max_nodes: int, workers: int,
        exact: bool, quiet: bool = False, results: str | None = None, backend: Any = None,
        max_seconds: float | None = None) -> dict[str, Any]:
    """Measure ``deals`` on ``backend`` (one of :mod:`ibm1013.sweep.backends`, as ``ibm1013 sweep``
    runs; default: this process for one worker, else a pool of ``workers`` processes).  With
    ``results`` (a file path) every deal's record is appended there as its batch finishes, and deals
    already recorded there with the same settings are not searched again.  At the end the file is
    written once more: its lines of other settings as they were, then this setting's records in
    deal order, so it is the same whichever backend searched them, in whatever order they finished
    and however often the run was stopped and resumed (but for ``seconds``, and with ``max_seconds``
    for where the clock stopped a search: each record's ``nodes``)."""
    settings = {"game": game, "options": options, "max_nodes": 0 if exact else max_nodes,
                "search": "exact" if exact else solver.SEARCH_VERSION}
    if max_seconds is not None and not exact:
        settings["max_seconds"] = max_seconds
    kept, others, whole = load_results(results, settings) if results else ({}, [], None)
    done = {d: r for d, r in kept.items() if d in deals}
    todo = [d for d in deals if d not in done]
    job = {"game": game, "options": options, "max_nodes": max_nodes, "exact": exact,
           "max_seconds": settings.get("max_seconds")}
    backend = backend or (InProcess() if workers == 1 else ProcessPool(workers, preload=PRELOAD))
    appender = Appender(results, whole) if results and todo else None
    new: dict[int, dict[str, Any]] = {}
    start = time.perf_counter()
    try:
        with Progress(TextColumn(f"{game}"), BarColumn(), MofNCompleteColumn(),
                      TextColumn("won {task.fields[won]}"), TimeRemainingColumn(),
                      disable=quiet, transient=False, console=None) as progress:
            won = sum(r["outcome"] == "won" for r in done.values())
            task = progress.add_task("deals", total=len(deals), completed=len(done), won=won)
            batches = in_batches([[Deal(d)] for d in todo], backend.workers, backend.batches_per_worker)
            for records in backend.map(job, batches, measure_deals) if batches else ():
                records = [{**settings, **r} for r in records]
                if appender:
                    appender.add([_line(r) for r in records])
                for r in records:
                    done[r["deal"]] = new[r["deal"]] = r
                progress.update(task, advance=len(records),
                                won=sum(x["outcome"] == "won" for x in done.values()))
    finally:
        if appender:
            appender.close()
    if results and new:
        every = {**kept, **new}
        save_results(results, others + [_line(every[d]) for d in sorted(every)])
    return summary(game, deals, options, settings, done, backend, time.perf_counter() - start, len(todo))


def summary(game: str, deals: range, options: dict[str, Any], settings: dict[str, Any],
            done: dict[int, dict], backend: Any, elapsed: float, searched: int) -> dict[str, Any]:
    """The figures of the records ``done`` (one per deal of ``deals``)."""
    counts = Counter(r["outcome"] for r in done.values())
    total = len(deals)
    nodes = sum(r["nodes"] for r in done.values())
    search_seconds = sum(r["seconds"] for r in done.values())
    lo, hi = wilson(counts["won"], total)
    exact = settings["search"] == "exact"
    return {
        "game": game, "options": options, "deals": f"{deals.start}-{deals.stop - 1}", "count": total,
        "method": "exact search" if exact else f"solver, node limit {settings['max_nodes']}"
                  + (f", {settings['max_seconds']:g} s a deal" if "max_seconds" in settings else ""),
        "timed_out": sum(bool(r.get("timed_out")) for r in done.values()),
        "search": settings["search"],
        "won": counts["won"], "lost": counts["lost"], "unknown": counts["unknown"],
        "win_rate": counts["won"] / total, "win_rate_95": [lo, hi],
        "undecided_share": counts["unknown"] / total,
        "one_in": (total / counts["won"]) if counts["won"] else None,
        "nodes": nodes, "seconds": round(elapsed, 2), "searched_now": searched,
        "from_results_file": total - searched, "search_seconds": round(search_seconds, 2),
        "deals_per_second": round(searched / elapsed, 1) if elapsed > 0 else None,
        "nodes_per_second": round(nodes / search_seconds) if search_seconds > 0 else None,
        "workers": backend.workers, "backend": backend.description,
        "won_deals_first": sorted(d for d, r in done.items() if r["outcome"] == "won")[:20],
    }


def _searched(r: dict[str, Any]) -> str:
    """What the solver searched, or that no solver ran (an exact search decides each deal itself)."""
    if r["method"] == "exact search":
        return "each deal decided by the game's exact search, not the solver"
    rate = r["nodes_per_second"]
    per_second = f"{rate:,} per second of search" if rate is not None else "too fast to time"
    return f"{r['nodes']:,} solver nodes, {per_second}"


def report(r: dict[str, Any]) -> str:
    lo, hi = r["win_rate_95"]
    one_in = f" (1 in {r['one_in']:.0f})" if r["one_in"] else ""
    resumed = f", {r['from_results_file']} taken from the results file" if r["from_results_file"] else ""
    return (f"{r['game']} {r['options'] or ''} deals {r['deals']} ({r['method']}):\n"
            f"  won {r['won']}, lost {r['lost']}, unknown {r['unknown']} of {r['count']}"
            f"{f' ({timed} stopped by the clock)' if (timed := r['timed_out']) else ''}\n"
            f"  win rate {100 * r['win_rate']:.3f} %{one_in}, "
            f"95 % interval {100 * lo:.3f} – {100 * hi:.3f} %; undecided {100 * r['undecided_share']:.1f} %\n"
            f"  {r['searched_now']} deals searched in {r['seconds']} s on {r['backend']}"
            f"{resumed}; {_searched(r)}\n"
            f"  first won deals: {r['won_deals_first']}")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.measure_games", description=__doc__.split("\n\n")[0])
    p.add_argument("game", type=argtypes.game, help="the game (see 'ibm1013 games')")
    p.add_argument("--deals", default="1000", help="N (deals 1 … N) or FIRST-LAST")
    p.add_argument("--option", action="append", default=[], metavar="K=V", help="a rule option of the game")
    p.add_argument("--max-nodes", type=argtypes.integer(1), default=solver.DEFAULT_MAX_NODES,
                   help="the solver's node limit per deal")
    p.add_argument("--seconds", type=argtypes.number(0, 86_400, above=True), metavar="S",
                   help="and a time budget per deal: the clock stops a search after S seconds "
                        "(the record says where: its positions; a search of as many finds the same)")
    add_backend_options(p)  # --workers, --dask, --dask-timeout: as ibm1013 sweep has them
    p.add_argument("--generic", action="store_true", help="use the general solver even where an exact "
                                                          "search exists")
    p.add_argument("--results", type=argtypes.output_file, metavar="FILE",
                   help="keep each deal's result in FILE (JSON lines) as it finishes; deals already "
                        "there with the same settings are not searched again")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = p.parse_args(argv)
    backend: Any = None
    try:
        rules = engine.get_game(args.game)
        options = engine.resolve_options(rules, parse_options(args.option))
        exact = rules.name == "auld-lang-syne" and not args.generic
        deals = parse_deals(args.deals)
        if args.results == "-":
            raise IbmError("--results needs a file (it is read back to resume)")
        workers = backend_workers(args)
        backend = backend_of(args, workers, preload=PRELOAD) if args.dask or workers > 1 else InProcess()
        result = run(rules.name, deals, options, args.max_nodes, workers, exact, quiet=args.json,
                     results=args.results, backend=backend, max_seconds=args.seconds)
    except IbmError as err:
        print(f"measure_games: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        kept = f"the deals searched are kept in {args.results}; run the same command to go on" \
            if args.results else "nothing kept (no --results)"
        print(f"measure_games: interrupted: {kept}", file=sys.stderr)
        return 130
    finally:
        if backend is not None:
            backend.close()
    print(json.dumps(result) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
