"""``ibm1013 monitor``: a datascope on one or two ports, listening only.

::

    ibm1013 line --tap --json &                 # prints a, b, tap_ab, tap_ba
    ibm1013 monitor TAP_AB TAP_BA --log line.log

Each port carries one direction of a line: the two taps of ``ibm1013 line --tap``, or the receive
pins of a Y-cable on each direction of a real line.  The monitor never writes to a port.  What it
shows is decided by :class:`ibm1013.line.datascope.Datascope`.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import select
import signal
import sys
import time
from typing import TYPE_CHECKING, Any, TextIO

from emulator.errors import ExitStatus, IbmError
from ibm1013.cli import argtypes, options
from ibm1013.cli.serial import _add_port_options
from ibm1013.line.stop_signals import catching

if TYPE_CHECKING:
    from emulator.serial import Link
    from ibm1013.line.datascope import Datascope, Observation

SUMMARY_EVERY_S = 1.0
"""How often the live summary line is redrawn (on a terminal)."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "monitor", help="a datascope: watch one or two directions of a line without taking part",
        description="Decode what passes on one or two ports (each one direction of a line: the taps "
                    "of `ibm1013 line --tap`, or a Y-cable): every record with its card, BCD text, "
                    "LRC and retransmissions, every reply, idle gaps, and a summary at the end "
                    "(Ctrl-C, SIGTERM or --duration ends it).  It never writes to a port.")
    p.add_argument("ports", nargs="+", metavar="PORT",
                   help="one or two ports (device, pty path or pyserial URL)")
    p.add_argument("--name", action="append", default=None, metavar="NAME",
                   help="what to call each port's direction, in order (default: A, B)")
    options.COLUMNS.add(p, default="80")
    options.COLUMN_BINARY.add(p, action="store_true")
    p.add_argument("--hex", action="store_true", help="show the raw bytes of each sequence too")
    p.add_argument("--gap", type=argtypes.POSITIVE, default=0.5, metavar="SECONDS",
                   help="silence on every port this long is an idle gap, ending a block")
    p.add_argument("--log", default=None, type=argtypes.output_file, metavar="FILE",
                   help="also write every line to FILE, each with its UTC wall-clock time")
    p.add_argument("--json", action="store_true",
                   help="one JSON object a line for each sequence, the summary last")
    options.DURATION.add(p, default=None)
    _add_port_options(p)
    p.set_defaults(func=cmd_monitor)


def _names(args: argparse.Namespace) -> list[str]:
    if len(args.ports) > 2:
        raise IbmError(f"monitor watches one or two ports, not {len(args.ports)}")
    names = args.name or ["A", "B"][: len(args.ports)]
    if len(names) != len(args.ports) or len(set(names)) != len(names):
        raise IbmError("give --name once for each port, each a different name")
    return names


class _Display:
    """Where the observations go: standard output (text or JSON lines), the log, the live line."""

    def __init__(self, args: argparse.Namespace, log: TextIO | None) -> None:
        self.args, self.log = args, log
        self.live = not args.json and sys.stderr.isatty()
        self._drawn = 0.0

    def show(self, observations: list[Observation], scope: Datascope, now: float) -> None:
        for obs in observations:
            if obs.kind == "idle":
                continue
            text = obs.line(hex_bytes=self.args.hex)
            if self.live:
                sys.stderr.write("\r\033[K")
            print(json.dumps(obs.as_dict()) if self.args.json else text, flush=True)
            if self.log is not None:
                stamp = datetime.datetime.now(datetime.UTC).isoformat(timespec="microseconds")
                self.log.write(f"{stamp} {text}\n")
        if self.live and now - self._drawn >= SUMMARY_EVERY_S:
            self._drawn = now
            sys.stderr.write("\r\033[K" + _summary_line(scope.summary(now)))
            sys.stderr.flush()

    def close(self, summary: dict[str, Any]) -> None:
        if self.live:
            sys.stderr.write("\r\033[K")
        if self.args.json:
            print(json.dumps({"summary": summary}), flush=True)
        else:
            print(_summary_line(summary), flush=True)
        if self.log is not None:
            self.log.write(_summary_line(summary) + "\n")


def _summary_line(s: dict[str, Any]) -> str:
    from emulator.words import cards, counted

    return (f"{cards(s['cards'])}, {s['cards_per_minute']:.1f} cards/min, "
            f"{counted(s['bad_records'], 'bad record')}, {s['error_replies']} CL ERR, "
            f"{counted(s['retransmissions'], 'retransmission')}, {counted(len(s['sessions']), 'session')}, "
            f"{s['seconds']:.1f} s")


def cmd_monitor(args: argparse.Namespace) -> int:
    from emulator.serial import Link, PortSettings
    from ibm1013.line.datascope import Datascope
    from ibm1013.str.layout import ColumnLayout

    names = _names(args)
    scope = Datascope(ColumnLayout.parse(args.columns, column_binary=args.column_binary), gap_s=args.gap)
    settings = PortSettings(baudrate=args.baud, parity=args.parity, stopbits=args.stop_bits,
                            rtscts=args.rtscts)
    stopped: list[int] = []
    with contextlib.ExitStack() as stack:  # a signal ignored from the start (nohup) stays ignored
        stack.enter_context(catching(lambda signum, _f: stopped.append(signum),
                                     (signal.SIGINT, signal.SIGTERM)))
        log = None
        if args.log:
            try:
                log = stack.enter_context(open(args.log, "w", encoding="utf-8", buffering=1))
            except OSError as err:
                raise IbmError(f"{args.log}: cannot write the log ({err.strerror})") from None
        links = [stack.enter_context(Link.open(port, settings)) for port in args.ports]
        for link in links:
            link.discard_input()  # what a tap held before anyone listened
        display = _Display(args, log)
        t0 = time.monotonic()
        _watch(links, names, scope, display, t0, stopped, args.duration)
        now = time.monotonic() - t0
        display.show(scope.finish(now), scope, now)
        display.close(scope.summary(now))
    return ExitStatus.OK


def _watch(links: list[Link], names: list[str], scope: Datascope, display: _Display, t0: float,
           stopped: list[int], duration: float | None) -> None:
    """Read every port until stopped; a port that fails ends the watch with one line."""
    fds = [fd for fd in (link._fd for link in links) if fd is not None]
    waitable = len(fds) == len(links)
    while not stopped:
        now = time.monotonic() - t0
        if duration is not None and now >= duration:
            return
        if waitable:
            with contextlib.suppress(InterruptedError):
                select.select(fds, [], [], 0.05)
        for link, name in zip(links, names, strict=True):
            data = link.read(4096, 0.0 if waitable else 0.01)
            now = time.monotonic() - t0
            display.show(scope.feed(name, data, now) if data else scope.tick(now), scope, now)
