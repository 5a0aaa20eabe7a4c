"""``ibm1013 sweep`` and ``ibm1013 plot``: throughput over a grid of line settings, and its pictures.

::

    ibm1013 sweep --cards 100 --bit-rate 600,1200,2400 --columns 80,40,20,10 --seeds 5 -o runs.csv
    ibm1013 sweep deck.cbn --ber 0,1e-5,1e-4,1e-3 --duplex full,half --plot ber.png --json
    ibm1013 sweep --cards 200 --bit-rate 1200,2400 --dask tcp://10.0.0.5:8786 -o runs.csv --resume
    ibm1013 plot runs.csv -o runs.png

Every option of ``simulate`` that shapes the line takes a comma list; the sweep runs the cross
product, each point with ``--seeds`` seeds.  The work itself is :mod:`ibm1013.sweep`; this module
checks the arguments (all of them, before any work), shows progress and prints the summary.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from emulator.errors import ExitStatus, IbmError
from ibm1013.cli import argtypes, options

if TYPE_CHECKING:
    from types import TracebackType

    import numpy as np

    from ibm1013.report import JsonValue
    from ibm1013.sweep import SweepResult
    from ibm1013.sweep.backends import ProcessPool
    from ibm1013.sweep.cluster import DaskCluster


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "sweep", help="simulate transfers over a grid of line settings (cards/min with 95 %% CI)",
        description="Simulate sending a deck between two IBM 1013s at every combination of the "
                    "settings given (each option takes a comma list), several seeds each; write one "
                    "row per run as it finishes and print a summary per point.",
    )
    options.add_deck(p, nargs="?", help="deck file to send (default: --cards)")
    p.add_argument("--cards", default=None, metavar="N", type=argtypes.integer(1, 10_000_000),
                   help="send N synthetic cards, every column punched (default 100 if no DECK)")
    options.DECK_FORMAT.add(p, default="auto")
    options.CODE.add(p, default="029")
    options.BIT_RATE.add_list(p, "1200")
    options.DUPLEX.add_list(p, "full")
    options.TURNAROUND.add_list(p, "0.2")
    options.COLUMNS.add_list(p, "80", item=argtypes.column_layouts, action=options.Accumulate,
                             how="a comma list of N and auto, or one mask; give --columns again for more")
    options.COLUMN_BINARY.add_list(p, "off", item=argtypes.ListOf(argtypes.one_of("off", "on")),
                                   how="off, on or off,on")
    options.MECHANICS.add_list(p, "none")
    options.BER.add_list(p, "0")
    options.BURST.add_list(p, None, item=argtypes.burst, action="append", metavar=options.BURST.metavar,
                           how="give --burst once per setting")
    options.CUT_AT.add_list(p, "none")
    options.ON_GIVE_UP.add_list(p, options.DEFAULT_ON_GIVE_UP)
    p.add_argument("--seeds", default=5, metavar="N", type=argtypes.integer(1, 100_000),
                   help="seeds per point (default %(default)s)")
    add_backend_options(p)
    p.add_argument("-o", "--output", action="append", default=[], metavar="FILE.csv|FILE.jsonl",
                   type=_ending_in(_RESULTS),
                   help="write a row per run as it finishes (may be given twice)")
    p.add_argument("--resume", action="store_true",
                   help="keep the rows already in the outputs and run only the missing ones")
    p.add_argument("--plot", default=None, metavar="FILE.png", type=_ending_in(_PICTURES),
                   help="draw the results (.png, .svg or .pdf)")
    p.add_argument("--theory", action="store_true",
                   help="add the theory's figures to every row (theory_cards_per_minute, "
                        "theory_retransmissions_per_card, theory_undetected_per_million; "
                        "docs/throughput.md) and draw them in the plot; a setting 'theory' refuses "
                        "(auto columns, overlap mechanics, a cut, a line too slow) is refused")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=cmd_sweep)

    q = sub.add_parser("plot", help="draw the results of a sweep",
                       description="Draw cards per minute against columns sent and against bit "
                                   "error rate, and line efficiency, from the rows of a sweep.")
    q.add_argument("results", metavar="RESULTS", help="a sweep's .csv or .jsonl file")
    q.add_argument("-o", "--output", default=None, metavar="FILE.png", type=_ending_in(_PICTURES),
                   help="picture to write (default: RESULTS with .png)")
    q.set_defaults(func=cmd_plot)


# -- where the work runs (also tools.measure_games') --------------------------------------------------
_ADDRESS = re.compile(r"^[a-z][a-z0-9+.-]*://[^\s/:]+:\d{1,5}$")


def _dask_address(text: str) -> str:
    if text != "local" and not _ADDRESS.match(text):
        raise argparse.ArgumentTypeError(f"must be 'local' or an address like tcp://HOST:8786, not {text!r}")
    return text


def add_backend_options(p: argparse.ArgumentParser) -> None:
    """``--workers``, ``--dask`` and ``--dask-timeout``: a process pool, or a Dask cluster."""
    p.add_argument("--workers", default=None, metavar="N", type=argtypes.integer(1, 4096),
                   help="processes on this machine, or in --dask local (default: every core)")
    p.add_argument("--dask", default=None, metavar="local|tcp://HOST:PORT", type=_dask_address,
                   help="run on a Dask LocalCluster, or on the cluster of a running scheduler")
    p.add_argument("--dask-timeout", default=10.0, metavar="SECONDS", type=argtypes.number(0.1, 3600),
                   help="seconds to wait for the scheduler and its workers (default %(default)s)")


def backend_workers(args: argparse.Namespace) -> int:
    """The workers asked for (default: every core), checked against ``--dask`` before any work."""
    if args.workers is not None and args.dask not in (None, "local"):
        raise IbmError("--workers is for local processes or --dask local; a remote scheduler has "
                       "the workers it has")
    from ibm1013.sweep.backends import default_workers

    return args.workers or default_workers()


def backend_of(args: argparse.Namespace, workers: int, *,
               preload: Sequence[str] | None = None) -> DaskCluster | ProcessPool:
    """The backend of ``--dask`` (a Dask cluster, connected) or else a pool of ``workers``
    processes (``preload``: the modules :class:`~ibm1013.sweep.backends.ProcessPool`'s workers
    import first, if not its own)."""
    from ibm1013.sweep.backends import ProcessPool
    from ibm1013.sweep.cluster import DaskCluster

    if args.dask:
        return DaskCluster(args.dask, workers, args.dask_timeout)
    return ProcessPool(workers) if preload is None else ProcessPool(workers, preload)


# -- checking arguments -----------------------------------------------------------------------------


def _once(option: str, values: list[Any]) -> list[Any]:
    """The values of an option given several times (``--columns``, ``--burst``), none twice."""
    if len(set(values)) != len(values):
        raise IbmError(f"{option}: a setting is given twice ({', '.join(map(str, values))})")
    return values


def sweep_values(args: argparse.Namespace) -> dict[str, list[JsonValue]]:
    """The list of values of every dimension (each checked by its option's type when parsed)."""
    from ibm1013.sweep.grid import burst_text

    return {
        "bit_rate": args.bit_rate, "duplex": args.duplex, "turnaround": args.turnaround,
        "columns": _once("--columns", args.columns),
        "column_binary": [t == "on" for t in args.column_binary],
        "mechanics": args.mechanics, "ber": args.ber,
        "burst": _once("--burst", [burst_text(b) for b in args.burst or [None]]),
        "cut_at": args.cut_at, "on_give_up": args.on_give_up,
    }


_PICTURES = (".png", ".svg", ".pdf")
_RESULTS = (".csv", ".jsonl")


def _ending_in(exts: tuple[str, ...]) -> Any:
    """An argparse type: an output file (argtypes.output_file) whose name ends in one of ``exts``."""

    def check(text: str) -> str:
        if os.path.splitext(text)[1].lower() not in exts:
            raise argparse.ArgumentTypeError(f"{text}: the name must end in {' or '.join(exts)}")
        if text == "-":
            raise argparse.ArgumentTypeError("a file name, not standard output")
        return argtypes.output_file(text)

    check.__name__ = "file " + "/".join(exts)
    return check


def _check(args: argparse.Namespace) -> dict[str, Any]:
    """Every argument of ``sweep``, checked before any work."""
    values = sweep_values(args)
    if args.deck is not None and args.cards is not None:
        raise IbmError("give a DECK or --cards, not both")
    workers = backend_workers(args)
    if len(set(map(os.path.abspath, args.output))) != len(args.output):
        raise IbmError("-o: the same file is given twice")
    for path in args.output:
        if os.path.exists(path) and not args.resume:
            raise IbmError(f"{path} exists: add --resume to continue that sweep, or write to another file")
    if args.resume and not args.output:
        raise IbmError("--resume needs the -o file of the sweep to continue")
    return {"values": values, "seeds": args.seeds, "cards": args.cards or 100, "workers": workers}


# -- the commands -----------------------------------------------------------------------------------
def cmd_sweep(args: argparse.Namespace) -> int:
    written = [0]
    try:
        with _progress(0, enabled=sys.stderr.isatty()) as progress:
            def on_progress(done: int, total: int, runs: int) -> None:
                written[0] = runs
                progress(done, total)

            result, where = swept(args, on_progress=on_progress)
    except KeyboardInterrupt:
        if not args.output:
            print(f"ibm1013: interrupted after {written[0]} runs (none kept: no -o)", file=sys.stderr)
            return ExitStatus.INTERRUPTED
        from ibm1013.sweep import ResultsFile

        kept = len(ResultsFile(args.output[0]).read())
        print(f"ibm1013: interrupted: {kept} runs written to {', '.join(args.output)}; run the same "
              f"command with --resume to finish", file=sys.stderr)
        return ExitStatus.INTERRUPTED
    if args.plot:
        from ibm1013.sweep.plot import draw

        draw(result.rows, args.plot)
    return _print(result, args, where)


def swept(args: argparse.Namespace, deck: np.ndarray | None = None, *,
          on_progress: Callable[[int, int, int], None] | None = None) -> tuple[SweepResult, str]:
    """The sweep ``sweep`` runs (and :func:`ibm1013.sweep_grid`), every argument checked first: its
    result and where it ran.  The deck is ``args.deck``'s, or ``deck`` (a deck array) when given,
    or ``--cards`` synthetic cards."""
    from ibm1013.cli.deckfiles import require_cards
    from ibm1013.cli.theory import theory_setting
    from ibm1013.sweep import grid, run_sweep
    from ibm1013.sweep.grid import config_of, synthetic_deck

    if deck is not None and args.cards is not None:
        raise IbmError("give a deck or cards, not both")
    checked = _check(args)
    points = grid(checked["values"])
    for point in points:
        config_of(point, 0).validate()
        if args.theory:  # every point the theory cannot work out is refused, as theory refuses it
            theory_setting(config_of(point, 0))
    if deck is not None or args.deck is not None:
        from ibm1013.cli.simulate import read_deck

        deck = read_deck(args) if deck is None else deck
        require_cards(len(deck), "the deck")  # (read_deck refuses an empty file, naming it)
        _check_encodable(deck, points, args.deck or "the deck")
    else:
        deck = synthetic_deck(checked["cards"])
    annotate = None
    if args.theory:
        from ibm1013.sweep.theory import theory_columns

        annotate = theory_columns(points, deck)
    backend = backend_of(args, checked["workers"])
    try:
        result = run_sweep(deck, points, checked["seeds"], backend=backend, outputs=args.output,
                           resume=args.resume, on_progress=on_progress, annotate=annotate)
    finally:
        backend.close()
    return result, backend.description


def _check_encodable(deck: Any, points: list[dict[str, Any]], source: str) -> None:
    """Every card can be sent in every layout of the sweep (else one line naming card and column,
    before any work)."""
    from emulator.errors import CardError
    from ibm1013.sweep.grid import config_of

    layouts = {(p["columns"], p["column_binary"]): p for p in points}
    for point in layouts.values():
        try:
            config_of(point, 0).session.columns.encode(deck)
        except CardError as err:
            raise err.located(source=source) from None


def cmd_plot(args: argparse.Namespace) -> int:
    from ibm1013.sweep import ResultsFile
    from ibm1013.sweep.plot import draw

    out = args.output or os.path.splitext(args.results)[0] + ".png"
    try:
        _ending_in(_PICTURES)(out)  # the default, not parsed
    except argparse.ArgumentTypeError as err:
        raise IbmError(f"-o {err}") from None
    if not os.path.isfile(args.results):
        raise IbmError(f"{args.results}: no such file")
    rows = ResultsFile(args.results).read()
    if not rows:
        raise IbmError(f"{args.results}: no runs in it")
    draw(rows, out)
    print(out)
    return ExitStatus.OK


class _progress:
    """A rich progress bar on stderr: points done, points per second, time left."""

    def __init__(self, total: int, *, enabled: bool) -> None:
        self.enabled, self.total = enabled, total
        self.start = time.monotonic()

    def __enter__(self) -> Any:
        if not self.enabled:
            return lambda done, total: None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.bar = Progress(TextColumn("sweep"), BarColumn(), MofNCompleteColumn(), TextColumn("points"),
                            TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
                            console=Console(stderr=True), transient=True)
        self.bar.__enter__()
        task = self.bar.add_task("sweep", total=self.total, rate="")

        def update(done: int, total: int) -> None:
            elapsed = time.monotonic() - self.start
            rate = f"{done / elapsed:.1f}/s" if done and elapsed > 0 else ""
            self.bar.update(task, completed=done, total=total, rate=rate)

        return update

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if self.enabled:
            self.bar.__exit__(kind, error, traceback)


def _print(result: Any, args: argparse.Namespace, where: str) -> int:
    summary = result.summary
    lost = sum(s["lost"] for s in summary)
    duplicated = sum(s["duplicated"] for s in summary)
    if args.json:
        print(json.dumps({"runs": len(result.rows), "simulated_now": result.ran, "backend": where,
                          "outputs": args.output, "lost": lost, "duplicated": duplicated,
                          "points": summary}, indent=2))
    else:
        print(_table(summary))
        print(f"{len(result.rows)} runs ({result.ran} simulated now on {where})"
              + (f"; rows in {', '.join(args.output)}" if args.output else ""))
    if lost or duplicated:
        bad = [s for s in summary if s["lost"] or s["duplicated"]]
        print(f"ibm1013: WARNING: {lost} cards LOST and {duplicated} DUPLICATED in {len(bad)} points "
              f"(first: {_describe(bad[0])}); these must be 0", file=sys.stderr)
        return ExitStatus.INCOMPLETE
    return ExitStatus.OK


def _describe(s: dict[str, Any]) -> str:
    from ibm1013.sweep import DIMENSIONS

    return ", ".join(f"{k}={s[k]}" for k in DIMENSIONS)


def _table(summary: list[dict[str, Any]]) -> str:
    from ibm1013.sweep import DIMENSIONS

    varying = [k for k in DIMENSIONS if len({str(s[k]) for s in summary}) > 1] or ["bit_rate"]
    theory = any(s.get("theory_cards_per_minute") is not None for s in summary)
    heads = varying + ["runs", "cards/min", "95% CI ±"] + (["theory"] if theory else []) + [
        "retrans", "detected", "undetected", "failed", "lost", "dup", "not complete", "efficiency"]
    lines = []
    for s in summary:
        ci = "-" if s["ci95_low"] is None else f"{(s['ci95_high'] - s['ci95_low']) / 2:.1f}"
        expected = s.get("theory_cards_per_minute")
        lines.append([str(s[k]) for k in varying] + [
            str(s["runs"]), f"{s['cards_per_minute']:.1f}", ci]
            + ([f"{expected:.1f}" if expected is not None else "-"] if theory else []) + [
            str(s["retransmissions"]),
            str(s["detected_errors"]), str(s["undetected_errors"]), str(s["failed_cards"]),
            str(s["lost"]) + ("!" if s["lost"] else ""),
            str(s["duplicated"]) + ("!" if s["duplicated"] else ""), str(s["not_complete"]),
            f"{s['line_efficiency']:.3f}"])
    widths = [max(len(h), *(len(row[i]) for row in lines)) for i, h in enumerate(heads)]
    fmt = "  ".join(f"{{:>{w}}}" for w in widths)
    return "\n".join([fmt.format(*heads)] + [fmt.format(*row) for row in lines])
