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
import math
import os
import re
import sys
import time
from typing import Any

from emulator.errors import IbmError

_LIST = "LIST"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sweep", help="simulate transfers over a grid of line settings (cards/min with 95 %% CI)",
        description="Simulate sending a deck between two IBM 1013s at every combination of the "
                    "settings given (each option takes a comma list), several seeds each; write one "
                    "row per run as it finishes and print a summary per point.",
    )
    p.add_argument("deck", metavar="DECK", nargs="?", help="deck file to send (default: --cards)")
    p.add_argument("--cards", default=None, metavar="N",
                   help="send N synthetic cards, every column punched (default 100 if no DECK)")
    p.add_argument("--format", default="auto", help="deck format (default: detect)")
    p.add_argument("--code", default="029", help="card code of text decks (default 029)")
    p.add_argument("--bit-rate", default="1200", metavar=_LIST,
                   help="line speeds in bit/s, whole numbers up to 99999 (default 1200)")
    p.add_argument("--duplex", default="full", metavar=_LIST, help="full, half (default full)")
    p.add_argument("--turnaround", default="0.2", metavar=_LIST,
                   help="half-duplex turnaround in seconds (default 0.2)")
    p.add_argument("--columns", action="append", default=None, metavar=_LIST,
                   help="N or auto (a comma list), or one mask like 1-20,41-60 as in simulate; give "
                        "--columns again for more (default 80)")
    p.add_argument("--column-binary", default="off", metavar=_LIST,
                   help="send any punches as two characters a column: off, on (default off)")
    p.add_argument("--mechanics", default="none", metavar=_LIST,
                   help="card reader/punch timing: none, overlap, serial (default none)")
    p.add_argument("--ber", default="0", metavar=_LIST, help="bit error rates, 0 to 1 (default 0)")
    p.add_argument("--burst", action="append", default=None, metavar="none|P_GB,P_BG,BER_BAD",
                   help="Gilbert-Elliott bursts; give the option once per setting (default none)")
    p.add_argument("--cut-at", default="none", metavar=_LIST,
                   help="cut the line after so many seconds, or none (default none)")
    p.add_argument("--seeds", default="5", metavar="N", help="seeds per point (default 5)")
    p.add_argument("--workers", default=None, metavar="N",
                   help="processes on this machine, or in --dask local (default: every core)")
    p.add_argument("--dask", default=None, metavar="local|tcp://HOST:PORT",
                   help="run on a Dask LocalCluster, or on the cluster of a running scheduler")
    p.add_argument("--dask-timeout", default="10", metavar="SECONDS",
                   help="seconds to wait for the scheduler and its workers (default 10)")
    p.add_argument("-o", "--output", action="append", default=[], metavar="FILE.csv|FILE.jsonl",
                   help="write a row per run as it finishes (may be given twice)")
    p.add_argument("--resume", action="store_true",
                   help="keep the rows already in the outputs and run only the missing ones")
    p.add_argument("--plot", default=None, metavar="FILE.png", help="draw the results")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=cmd_sweep)

    q = sub.add_parser("plot", help="draw the results of a sweep",
                       description="Draw cards per minute against columns sent and against bit "
                                   "error rate, and line efficiency, from the rows of a sweep.")
    q.add_argument("results", metavar="RESULTS", help="a sweep's .csv or .jsonl file")
    q.add_argument("-o", "--output", default=None, metavar="FILE.png",
                   help="picture to write (default: RESULTS with .png)")
    q.set_defaults(func=cmd_plot)


# -- checking arguments -----------------------------------------------------------------------------
def _items(option: str, text: str) -> list[str]:
    items = [t.strip() for t in text.split(",")]
    if not text.strip() or not all(items):
        raise IbmError(f"{option} {text!r}: an empty list or an empty item")
    for t in items:
        if items.count(t) > 1:
            raise IbmError(f"{option} {text!r}: {t} is given twice")
    return items


def _number(option: str, text: str, *, lo: float = 0.0, hi: float = math.inf) -> float:
    try:
        value = float(text)
    except ValueError:
        raise IbmError(f"{option} {text!r}: not a number") from None
    if not math.isfinite(value) or not lo <= value <= hi:
        bound = f"{lo:g} to {hi:g}" if math.isfinite(hi) else f"a finite number >= {lo:g}"
        raise IbmError(f"{option} {text}: must be {bound}")
    return value


def _integer(option: str, text: str, *, lo: int = 1, hi: int = 10**9) -> int:
    try:
        value = int(text)
    except ValueError:
        raise IbmError(f"{option} {text!r}: not a whole number") from None
    if not lo <= value <= hi:
        raise IbmError(f"{option} {value}: must be {lo} to {hi}")
    return value


def _choices(option: str, text: str, allowed: tuple[str, ...]) -> list[str]:
    items = _items(option, text)
    for t in items:
        if t not in allowed:
            raise IbmError(f"{option} {t!r}: must be one of {', '.join(allowed)}")
    return items


def _columns(values: list[str] | None) -> list[str]:
    """The layouts of ``--columns``: each value a comma list of ``N`` and ``auto``, or one mask
    (``1-20,41-60``, written as in simulate; ``1-20+41-60`` is taken too), kept as ``1-20+41-60``."""
    from ibm1013.str import ColumnLayout

    items: list[str] = []
    for text in values or ["80"]:
        items += [text.strip().replace(",", "+")] if "-" in text else _items("--columns", text)
    if len(set(items)) != len(items):
        raise IbmError(f"--columns: a layout is given twice ({', '.join(items)})")
    for t in items:
        try:
            ColumnLayout.parse(t.replace("+", ","))
        except IbmError as err:
            raise IbmError(f"--columns {t!r}: {err}") from None
    return items


def _bursts(values: list[str] | None) -> list[str]:
    from emulator.noise import parse_burst
    from ibm1013.sweep.grid import burst_text

    out = []
    for text in values or ["none"]:
        if text.strip() == "none":
            out.append("none")
            continue
        try:
            burst = parse_burst(text)
        except ValueError as err:
            raise IbmError(f"--burst {text!r}: {err}") from None
        if not all(math.isfinite(v) for v in burst):
            raise IbmError(f"--burst {text!r}: probabilities must be finite")
        out.append(burst_text(burst))
    if len(set(out)) != len(out):
        raise IbmError("--burst: the same setting is given twice")
    return out


def sweep_values(args: argparse.Namespace) -> dict[str, list[Any]]:
    """The list of values of every dimension, checked (an :class:`IbmError` naming the option)."""
    from ibm1013.transfer import MAX_BIT_RATE

    return {
        "bit_rate": [_integer("--bit-rate", t, hi=MAX_BIT_RATE) for t in _items("--bit-rate", args.bit_rate)],
        "duplex": _choices("--duplex", args.duplex, ("full", "half")),
        "turnaround": [_number("--turnaround", t, hi=60.0) for t in _items("--turnaround", args.turnaround)],
        "columns": _columns(args.columns),
        "column_binary": [t == "on" for t in _choices("--column-binary", args.column_binary, ("off", "on"))],
        "mechanics": _choices("--mechanics", args.mechanics, ("none", "overlap", "serial")),
        "ber": [_number("--ber", t, hi=1.0) for t in _items("--ber", args.ber)],
        "burst": _bursts(args.burst),
        "cut_at": [None if t == "none" else _number("--cut-at", t) for t in _items("--cut-at", args.cut_at)],
    }


_PICTURES = (".png", ".svg", ".pdf")
_ADDRESS = re.compile(r"^[a-z][a-z0-9+.-]*://[^\s/:]+:\d{1,5}$")


def _check_output(path: str, *, may_exist: bool, exts: tuple[str, ...], option: str) -> None:
    """An output path we can write, checked before any work."""
    if os.path.splitext(path)[1].lower() not in exts:
        raise IbmError(f"{option} {path}: the name must end in {' or '.join(exts)}")
    if os.path.isdir(path):
        raise IbmError(f"{option} {path}: is a directory")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise IbmError(f"{option} {path}: no directory {parent}")
    if not os.access(parent, os.W_OK):
        raise IbmError(f"{option} {path}: cannot write in {parent}")
    if os.path.exists(path) and not may_exist:
        raise IbmError(f"{path} exists: add --resume to continue that sweep, or write to another file")


def _check(args: argparse.Namespace) -> dict[str, Any]:
    """Every argument of ``sweep``, checked before any work."""
    values = sweep_values(args)
    seeds = _integer("--seeds", args.seeds, hi=100_000)
    if args.deck is not None and args.cards is not None:
        raise IbmError("give a DECK or --cards, not both")
    cards = _integer("--cards", args.cards or "100", hi=10_000_000)
    if args.dask is not None and args.dask != "local" and not _ADDRESS.match(args.dask):
        raise IbmError(f"--dask {args.dask!r}: must be 'local' or an address like tcp://HOST:8786")
    if args.workers is not None and args.dask not in (None, "local"):
        raise IbmError("--workers is for local processes or --dask local; a remote scheduler has "
                       "the workers it has")
    from ibm1013.sweep.backends import default_workers

    workers = _integer("--workers", args.workers, hi=4096) if args.workers else default_workers()
    timeout = _number("--dask-timeout", args.dask_timeout, lo=0.1, hi=3600.0)
    if len(set(map(os.path.abspath, args.output))) != len(args.output):
        raise IbmError("-o: the same file is given twice")
    for path in args.output:
        _check_output(path, may_exist=args.resume, exts=(".csv", ".jsonl"), option="-o")
    if args.plot:
        _check_output(args.plot, may_exist=True, exts=_PICTURES, option="--plot")
    if args.resume and not args.output:
        raise IbmError("--resume needs the -o file of the sweep to continue")
    return {"values": values, "seeds": seeds, "cards": cards, "workers": workers, "timeout": timeout}


# -- the commands -----------------------------------------------------------------------------------
def cmd_sweep(args: argparse.Namespace) -> int:
    from ibm1013.sweep import grid, run_sweep
    from ibm1013.sweep.backends import DaskCluster, ProcessPool
    from ibm1013.sweep.grid import config_of, synthetic_deck

    checked = _check(args)
    points = grid(checked["values"])
    for point in points:
        config_of(point, 0).validate()
    if args.deck is not None:
        from ibm1013.cli.simulate import _read

        deck = _read(args)
        if len(deck) == 0:
            raise IbmError(f"{args.deck}: no cards")
        _check_encodable(deck, points, args.deck)
    else:
        deck = synthetic_deck(checked["cards"])
    if args.dask:
        backend: Any = DaskCluster(args.dask, checked["workers"], checked["timeout"])
    else:
        backend = ProcessPool(checked["workers"])
    written = [0]
    try:
        with _progress(len(points), enabled=sys.stderr.isatty()) as progress:
            def on_progress(done: int, total: int, runs: int) -> None:
                written[0] = runs
                progress(done, total)

            result = run_sweep(deck, points, checked["seeds"], backend=backend, outputs=args.output,
                               resume=args.resume, on_progress=on_progress)
    except KeyboardInterrupt:
        if not args.output:
            print(f"ibm1013: interrupted after {written[0]} runs (none kept: no -o)", file=sys.stderr)
            return 130
        from ibm1013.sweep import ResultsFile

        kept = len(ResultsFile(args.output[0]).read())
        print(f"ibm1013: interrupted: {kept} runs written to {', '.join(args.output)}; run the same "
              f"command with --resume to finish", file=sys.stderr)
        return 130
    finally:
        backend.close()
    if args.plot:
        from ibm1013.sweep.plot import draw

        draw(result.rows, args.plot)
    return _print(result, args, backend.description)


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
    _check_output(out, may_exist=True, exts=_PICTURES, option="-o")
    if not os.path.isfile(args.results):
        raise IbmError(f"{args.results}: no such file")
    rows = ResultsFile(args.results).read()
    if not rows:
        raise IbmError(f"{args.results}: no runs in it")
    draw(rows, out)
    print(out)
    return 0


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

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            self.bar.__exit__(*exc)


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
        return 1
    return 0


def _describe(s: dict[str, Any]) -> str:
    from ibm1013.sweep import DIMENSIONS

    return ", ".join(f"{k}={s[k]}" for k in DIMENSIONS)


def _table(summary: list[dict[str, Any]]) -> str:
    from ibm1013.sweep import DIMENSIONS

    varying = [k for k in DIMENSIONS if len({str(s[k]) for s in summary}) > 1] or ["bit_rate"]
    heads = varying + ["runs", "cards/min", "95% CI ±", "retrans", "detected", "undetected", "failed",
                       "lost", "dup", "not complete", "efficiency"]
    lines = []
    for s in summary:
        ci = "-" if s["ci95_low"] is None else f"{(s['ci95_high'] - s['ci95_low']) / 2:.1f}"
        lines.append([str(s[k]) for k in varying] + [
            str(s["runs"]), f"{s['cards_per_minute']:.1f}", ci, str(s["retransmissions"]),
            str(s["detected_errors"]), str(s["undetected_errors"]), str(s["failed_cards"]),
            str(s["lost"]) + ("!" if s["lost"] else ""),
            str(s["duplicated"]) + ("!" if s["duplicated"] else ""), str(s["not_complete"]),
            f"{s['line_efficiency']:.3f}"])
    widths = [max(len(h), *(len(row[i]) for row in lines)) for i, h in enumerate(heads)]
    fmt = "  ".join(f"{{:>{w}}}" for w in widths)
    return "\n".join([fmt.format(*heads)] + [fmt.format(*row) for row in lines])
