"""``ibm1013 send``, ``ibm1013 receive`` and ``ibm1013 line``: two 1013s over a real line.

::

    ibm1013 line --bit-rate 1200 --link /tmp/ttyA --link /tmp/ttyB &
    ibm1013 receive /tmp/ttyB -o copy.cbn &
    ibm1013 send /tmp/ttyA deck.cbn

PORT is a device (``/dev/ttyUSB0``), a pty path, or a pyserial URL (``socket://host:port``,
``rfc2217://host:port``, ``loop://``).  After a cut or a crash, run both ends again with ``--resume``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from emulator.errors import ExitStatus, IbmError
from ibm1013.cli import argtypes, options
from ibm1013.line.stop_signals import catching

if TYPE_CHECKING:
    from emulator.card import Card
    from ibm1013.report import Row

DEFAULT_PROPAGATION_S = 0.01
"""One-way line delay the endpoints add when paced: the SimPy line's default (0.01 s each way)."""


# --------------------------------------------------------------------------------------------------
# argument groups
# --------------------------------------------------------------------------------------------------
def _add_port_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("serial port (ignored by ptys, socket:// and loop://)")
    g.add_argument("--baud", type=argtypes.POSITIVE_INT, default=9600,
                   help="UART speed in baud (default 9600)")
    g.add_argument("--parity", choices="NEOMS", default="N", help="parity (default N)")
    g.add_argument("--stop-bits", type=float, choices=(1, 1.5, 2), default=1, help="stop bits (default 1)")
    g.add_argument("--rtscts", action="store_true", help="RTS/CTS hardware flow control")


def _add_line_options(p: argparse.ArgumentParser) -> None:
    options.BIT_RATE.add(p, default=1200)
    options.COLUMNS.add(p, default="80")
    options.COLUMN_BINARY.add(p, action="store_true")
    options.FAST.add(p, action="store_true")
    options.PROPAGATION.add(p, default=DEFAULT_PROPAGATION_S)
    p.add_argument("--resume", action="store_true", help="continue an interrupted transfer")
    options.TIMEOUT.add(p, default=30.0)
    options.CODE.add(p, default="029")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--trace", default=None, metavar="FILE", type=argtypes.log_file,
                   help="log every record, reply and timer with timestamps to FILE (a line monitor)")
    options.TIMELINE.add(p, default=None)
    _add_port_options(p)


EXIT_STATUSES = """\
exit status:
  0    complete: the receiving end checked the deck against its trailer,
       wrote it, and said so
  2    failed: one line says why, what is safe, and whether to run both
       ends again with --resume
  3    delivered, not confirmed (send only): every card and the trailer were
       acknowledged but the receiving end's verdict was lost; look for the
       deck at the far end, else run both ends again with --resume
  130  interrupted (Ctrl-C, SIGTERM or SIGHUP): the far end was told; run both
       ends again with --resume
--json prints the report on 2, 3 and 130 too (send's resume_at: the first
card not acknowledged).
docs/serial.md tells more: the verdict, the .1013part journal and its lock."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("send", help="send a card deck over a serial port as a 1013 would",
                       description="Send DECK over PORT to an `ibm1013 receive` at the far end.",
                       epilog=EXIT_STATUSES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("port", metavar="PORT", help="device, pty path or pyserial URL")
    options.add_deck(p, nargs="?", default=None, help="deck file to send (or give --follow)")
    options.DECK_FORMAT.add(p, default="auto", note="and of the --follow FILE")
    p.add_argument("--follow", default=None, metavar="FILE", type=argtypes.follow_source,
                   help="send each card of FILE as soon as a punch has written it whole (SIMH `attach "
                        "cdp`, a Hercules 3525), or each line a Hercules sockdev 1403 prints "
                        "(sockdev://HOST:PORT: one card a line, cut at column 80); the deck ends at an "
                        "EOF card, after --idle, when the printer closes, or at the first Ctrl-C, which "
                        "sends the trailer (a second Ctrl-C aborts)")
    options.IDLE.add(p, default=None)
    _add_line_options(p)
    options.check_when_parsed(p, _unfollowable)
    p.set_defaults(func=cmd_send)

    p = sub.add_parser("receive", help="receive a card deck over a serial port as a 1013 would",
                       description="Receive a deck from an `ibm1013 send` at the far end of PORT.",
                       epilog=EXIT_STATUSES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("port", metavar="PORT", help="device, pty path or pyserial URL")
    into = p.add_mutually_exclusive_group(required=True)
    into.add_argument("-o", "--output", metavar="DECK", type=argtypes.receive_output,
                      help="deck file to write, or sockdev://HOST:PORT: feed each card to a running "
                           "Hercules sockdev 3505 reader (--format ebcdic or text; docs/machine-room.md)")
    into.add_argument("--hopper", metavar="DIR", type=argtypes.output_directory,
                      help="write the deck to DIR/NNNN.EXT, the next number in arrival order (give "
                           "--format), whole or not at all: a hopper a reader loop takes decks from")
    p.add_argument("--format", default=None, metavar="FORMAT", type=argtypes.deck_format,
                   help="output format (default: from the extension, else cbn)")
    p.add_argument("--force", action="store_true",
                   help="replace an existing DECK with the deck received (refused without it)")
    _add_line_options(p)
    p.set_defaults(func=cmd_receive)

    p = sub.add_parser("ports", help="list the serial ports of this machine",
                       description="List the serial ports pyserial finds (USB adapters, built-in "
                                   "UARTs): the PORT to give send and receive.  Ptys and URLs such "
                                   "as socket://host:port are not listed.")
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    p.set_defaults(func=cmd_ports)

    p = sub.add_parser("line", help="a virtual line: two raw ptys joined at the 1013's bit rate",
                       description="Create two ptys joined by a paced, noisy, cuttable line; print "
                                   "their paths and relay until interrupted.")
    options.BIT_RATE.add(p, type=argtypes.integer(0, argtypes.MAX_BIT_RATE), default=1200,
                         note="0 = unpaced")
    p.add_argument("--bits-per-char", type=argtypes.integer(1, 16), default=8,
                   help="bits per character: 8 for the 1013's synchronous line, 10 for an 8N1 UART")
    options.BER.add(p, default=0.0)
    options.BURST.add(p, default=None)
    p.add_argument("--drop-rate", type=argtypes.PROBABILITY, default=0.0,
                   help="chance a character vanishes (default 0)")
    options.PROPAGATION.add(p, default=0.0, note="the paced endpoints add the 1013 line's 0.01 s already")
    options.CUT_AT.add(p, default=None)
    p.add_argument("--cut-for", type=argtypes.POSITIVE, default=None, metavar="SECONDS",
                   help="how long the cut lasts (default: for good)")
    options.SEED.add(p, default=0)
    p.add_argument("--link", action="append", default=None, metavar="PATH",
                   help="make a symlink to each pty (give twice, like socat's link=)")
    options.DURATION.add(p, default=None)
    p.add_argument("--json", action="store_true", help="print paths and statistics as JSON")
    p.add_argument("--trace", default=None, metavar="FILE", type=argtypes.log_file,
                   help="log what each direction carries, and what the noise did, with timestamps")
    p.add_argument("--tap", action="store_true",
                   help="two more ptys, each a copy of one direction as the far end reads it "
                        "(a->b, then b->a), for `ibm1013 monitor`")
    p.set_defaults(func=cmd_line)


# --------------------------------------------------------------------------------------------------
# send / receive
# --------------------------------------------------------------------------------------------------
def _unfollowable(args: argparse.Namespace) -> str | None:
    """Why ``send --follow FILE`` cannot follow FILE in ``--format`` (told when parsed), or None."""
    if args.follow is None:
        return None
    from ibm1013.cli.deckfiles import follow_format

    try:
        follow_format(args.follow, args.format)
    except IbmError as err:
        return str(err)
    return None


def _endpoint_config(args: argparse.Namespace) -> Any:
    from ibm1013.line.endpoint import EndpointConfig
    from ibm1013.str.config import SessionConfig
    from ibm1013.str.layout import ColumnLayout

    if args.bit_rate <= 0:
        raise IbmError(f"--bit-rate must be positive, not {args.bit_rate}")
    if args.timeout <= 0:
        raise IbmError(f"--timeout must be positive, not {args.timeout}")
    layout = ColumnLayout.parse(args.columns, column_binary=args.column_binary)
    session = SessionConfig(bit_rate=args.bit_rate, columns=layout)
    return EndpointConfig(session=session, paced=not args.fast, propagation_s=args.propagation,
                          timeout_s=args.timeout, resume=args.resume,
                          first_card_s=getattr(args, "first_card_s", None),  # set by rje's output phase
                          rerun=getattr(args, "rerun", None))  # and by rje-host's, after a restart


def _open_link(args: argparse.Namespace) -> Any:
    from emulator.serial import Link, PortSettings

    settings = PortSettings(baudrate=args.baud, parity=args.parity, stopbits=args.stop_bits,
                            rtscts=args.rtscts)
    return Link.open(args.port, settings)


def _progress(args: argparse.Namespace, label: str) -> Any:
    from ibm1013.line.progress import progress_bar

    return progress_bar(label, shown=not args.json and sys.stderr.isatty())


def _monitor(args: argparse.Namespace, role: str, config: Any) -> Any:
    from ibm1013.line.progress import transfer_monitor

    return transfer_monitor(args.trace, args.timeline, role, args.port, config)


def _print_report(report: Any, as_json: bool) -> None:
    if as_json:
        print(report.to_json())
    else:
        print(report.to_text())


def cmd_send(args: argparse.Namespace) -> int:
    from emulator.deck import iter_cards
    from ibm1013.cli.deckfiles import load_deck, require_cards

    if args.deck is None and args.follow is None:  # both, or --idle with a DECK: refused when parsed
        raise IbmError("give a DECK to send, or --follow FILE")
    config = _endpoint_config(args)
    if args.follow is not None:
        return _follow(args, config)
    _, words = load_deck(args.deck, args.format, code=args.code)
    deck = [card for card in iter_cards([words]) if not card.is_eof]
    require_cards(len(deck), "<stdin>" if args.deck == "-" else args.deck)
    # a card only --column-binary can send is refused after the handshake, the receiving end told
    return _send(args, deck, config)


def _send(args: argparse.Namespace, deck: list[Card], config: Any) -> int:
    from ibm1013.line.endpoint import send_deck

    source = "<stdin>" if args.deck == "-" else args.deck
    return _run_transfer(args, config, f"sending {args.deck}", lambda link, progress, monitor: send_deck(
        link, deck, config, progress=progress, monitor=monitor, source=source))


def _run_transfer(args: argparse.Namespace, config: Any, label: str, transfer: Callable[..., Any],
             role: str = "send") -> int:
    """Run ``transfer(link, progress, monitor)`` on the port; its report, or its one line (and the
    report too with --json, whatever stopped it, or when not confirmed) and its exit status."""
    from ibm1013.line.endpoint import NotConfirmed, new_report
    from ibm1013.report import FAILED

    try:
        with _open_link(args) as link, _progress(args, label) as progress, \
                _monitor(args, role, config) as monitor:
            report = transfer(link, progress, monitor)
    except IbmError as err:  # the report too: --json scripts need resume_at
        if args.json or isinstance(err, NotConfirmed):
            stopped = getattr(err, "report", None)
            if stopped is None:  # stopped before the transfer began (the port would not open …)
                stopped = new_report(config, role, args.port)
                stopped.ended, stopped.message = FAILED, str(err)
            _print_report(stopped, args.json)
        said = getattr(args, "in_words_of", None)  # rje and rje-host: their own names, not send/receive
        print(f"ibm1013: {said(str(err)) if said else err}", file=sys.stderr)
        return getattr(err, "exit_status", ExitStatus.FAILED)
    _print_report(report, args.json)
    return ExitStatus.OK


def _follow(args: argparse.Namespace, config: Any) -> int:
    """``send --follow``: the first Ctrl-C (or SIGTERM) ends the deck — what the punch has written
    whole is sent, then the trailer, and the transfer completes as any other; a second one aborts
    the STR way (exit status 130, ``--resume`` goes on); a third stops at once."""
    import threading

    from ibm1013.cli.deckfiles import following
    from ibm1013.line.follow import follow_deck

    follower = following(args.follow, args.format, code=args.code, idle_s=args.idle,
                         spool=getattr(args, "printer_spool", None))  # rje-host's, connected early
    stop = threading.Event()

    def on_signal(_signum: int, _frame: Any) -> None:
        if not follower.finished:
            follower.end("ended by Ctrl-C")
        elif not stop.is_set():
            stop.set()
        else:
            raise KeyboardInterrupt

    def run() -> int:
        status = _run_transfer(args, config, f"following {args.follow}", lambda link, progress, monitor:
                          follow_deck(link, follower, config, progress=progress, stop=stop,
                                      monitor=monitor))
        if follower.left_over:
            print(f"ibm1013: {len(follower.left_over)} bytes at the end of {args.follow} are not a "
                  "whole card: not sent", file=sys.stderr)
        for note in follower.notes():
            print(f"ibm1013: {note}", file=sys.stderr)
        return status

    try:
        with catching(on_signal, (signal.SIGINT, signal.SIGTERM)):  # unless ignored from the start
            return run()
    finally:
        if hasattr(follower, "close"):
            follower.close()


def cmd_receive(args: argparse.Namespace) -> int:
    from emulator.formats import output_format
    from ibm1013.line.endpoint import receive_deck
    from ibm1013.line.journal import check_output

    if args.hopper is not None:
        from emulator.hopper import next_deck

        if args.format is None:
            raise IbmError("--hopper needs --format: the decks' names have no extension to tell it")
        args.output = next_deck(args.hopper, args.format)
    if args.output.startswith("sockdev://"):
        return _receive_into_reader(args)
    if args.output == "-":
        raise IbmError("receive needs a real file for -o (it is written atomically when complete)")
    if os.path.lexists(args.output) and not (args.force or args.resume):
        raise IbmError(f"{args.output} exists: the deck received would replace it; give --force to "
                       "replace it, or --resume to go on with an interrupted transfer into it")
    config = _endpoint_config(args)
    fmt = output_format(args.output, args.format)
    check_output(args.output)  # a directory, or in a missing one: refused before the port is opened

    return _run_transfer(args, config, f"receiving {args.output}", lambda link, progress, monitor:
                         receive_deck(link, args.output, fmt, config, code=args.code, progress=progress,
                                      monitor=monitor), "receive")


def _receive_into_reader(args: argparse.Namespace) -> int:
    """``receive -o sockdev://HOST:PORT``: the journal (and its feed count) is named after the
    reader, in the current directory."""
    from emulator.sockdev import SockdevReader, parse_address
    from ibm1013.line.endpoint import receive_deck
    from ibm1013.line.journal import check_output
    from ibm1013.line.reader_feed import ReaderFeed, journal_name

    fmt = args.format or "ebcdic"
    if fmt not in ("ebcdic", "text"):
        raise IbmError(f"a sockdev reader takes --format ebcdic (a reader defined ebcdic) or text (one "
                       f"defined ascii), not {fmt}")
    host, port = parse_address(args.output)
    deck_path = journal_name(host, port)
    config = _endpoint_config(args)
    check_output(deck_path)
    feed = ReaderFeed(SockdevReader(host, port), fmt, args.code)

    return _run_transfer(args, config, f"feeding {args.output}", lambda link, progress, monitor:
                         receive_deck(link, deck_path, fmt, config, code=args.code, progress=progress,
                                      monitor=monitor, feed=feed), "receive")


# --------------------------------------------------------------------------------------------------
# ports
# --------------------------------------------------------------------------------------------------
PORT_FIELDS = ("device", "description", "hwid", "manufacturer", "product", "serial_number", "vid",
               "pid", "location")


def list_ports() -> list[Row]:
    """Every serial port pyserial's ``list_ports`` finds, sorted by device, as plain dicts."""
    from serial.tools import list_ports as lp

    ports = [{f: getattr(info, f, None) for f in PORT_FIELDS} for info in lp.comports()]
    return sorted(ports, key=lambda p: str(p["device"]))


def cmd_ports(args: argparse.Namespace) -> int:
    ports = list_ports()
    if args.json:
        print(json.dumps(ports, indent=2))
        return ExitStatus.OK
    if not ports:
        print("no serial ports found (a pty from `ibm1013 line` or socat, or a URL, works too)")
        return ExitStatus.OK
    width = max(len(str(p["device"])) for p in ports)
    for p in ports:
        about = "" if p["description"] in (None, "n/a") else p["description"]
        hwid = "" if p["hwid"] in (None, "n/a") else f"  [{p['hwid']}]"
        print(f"{p['device']:<{width}}  {about}{hwid}".rstrip())
    return ExitStatus.OK


# --------------------------------------------------------------------------------------------------
# line
# --------------------------------------------------------------------------------------------------
def _line_noise(args: argparse.Namespace, direction: str) -> Any:
    from emulator.noise import make_noise

    try:
        return make_noise(ber=args.ber, burst=args.burst, seed=f"{args.seed}:{direction}")
    except ValueError as err:
        raise IbmError(str(err)) from None


def cmd_line(args: argparse.Namespace) -> int:
    from emulator.virtual_line import LineConfig, VirtualLine, check_link
    from ibm1013.line.progress import open_trace

    if args.link is not None and len(args.link) != 2:
        raise IbmError("give --link exactly twice (one path for each end)")
    if args.link is not None and os.path.abspath(args.link[0]) == os.path.abspath(args.link[1]):
        raise IbmError(f"--link {args.link[0]} given for both ends: give two paths")
    for path in args.link or ():
        try:
            check_link(path)
        except ValueError as err:
            raise IbmError(f"--link {err}") from None
    if args.bit_rate < 0 or not 0 <= args.drop_rate <= 1:
        raise IbmError("--bit-rate must be >= 0 and --drop-rate between 0 and 1")
    config = LineConfig(bit_rate=args.bit_rate, bits_per_char=args.bits_per_char,
                        propagation_s=args.propagation, drop_rate=args.drop_rate,
                        cut_at_s=args.cut_at, cut_for_s=args.cut_for, seed=args.seed)
    trace = open_trace(args.trace)
    line = VirtualLine(config, noise_ab=_line_noise(args, "ab"), noise_ba=_line_noise(args, "ba"),
                       links=tuple(args.link) if args.link else None, taps=args.tap)
    if trace is not None:
        from ibm1013.line.trace import RelayTrace

        line.monitor = RelayTrace(trace)
    stopped: list[int] = []  # a signal handler must not take a lock: Event.set() in one can deadlock
                             # against Event.wait() interrupted in the same (main) thread

    def on_signal(signum: int, _frame: Any) -> None:
        stopped.append(signum)

    with catching(on_signal):  # a signal ignored from the start (nohup) stays ignored
        try:
            try:
                line.start()
            except OSError as err:
                raise IbmError(f"cannot create the virtual line: {err}") from None
            a, b = line.paths
            taps = dict(zip(("tap_ab", "tap_ba"), line.tap_paths, strict=True)) if args.tap else {}
            if args.json:
                print(json.dumps({"a": a, "b": b, **taps, "bit_rate": args.bit_rate,
                                  "char_seconds": config.char_s, "pid": os.getpid()}), flush=True)
            else:
                pace = f"at {args.bit_rate:g} bit/s" if args.bit_rate else "unpaced"
                print(f"line ready {pace}: {a} <-> {b}  (Ctrl-C ends it)", flush=True)
                if taps:
                    print(f"taps: {taps['tap_ab']} (a->b), {taps['tap_ba']} (b->a)", flush=True)
            deadline = None if args.duration is None else time.monotonic() + args.duration
            while not stopped:
                if deadline is not None and time.monotonic() >= deadline:
                    break
                if line.error is not None:
                    raise IbmError(f"the virtual line failed: {line.error}")
                time.sleep(0.1)
        finally:
            line.stop()
            if trace is not None:
                trace.close()
    stats = line.stats()
    if args.json:
        print(json.dumps({"stats": stats, "seconds": round(line.elapsed, 3)}), flush=True)
    else:
        for name, st in stats.items():
            print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in st.items()), flush=True)
    return ExitStatus.OK
