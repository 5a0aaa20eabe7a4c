"""``ibm1013 rje`` and ``ibm1013 rje-host``: remote job entry, a job sent and its output sent back.

::

    ibm1013 rje PORT JOBDECK -o OUTPUT [--format FMT] [--output-format FMT] [--output-timeout SECONDS]
                [line options]
    ibm1013 rje-host PORT --reader sockdev://HOST:PORT (--printer sockdev://HOST:PORT | --punch FILE)
                     [--punch-format FMT] [--idle SECONDS] [line options]

Nothing new goes on the line: a job is a deck and its output is a deck.  ``rje`` is ``send PORT
JOBDECK`` and then, the line turned around, ``receive PORT -o OUTPUT``, which waits
``--output-timeout`` for the first line of output (the computer prints it when the job gets there),
then ``--timeout`` between cards as any receive.  ``rje-host`` is ``receive PORT -o JOB`` (the job,
whole, into ``sockdev-HOST-PORT.1013job`` beside the reader's journal), the job fed to the reader (a
Hercules sockdev 3505) in one piece, and then ``send PORT --follow`` on the printer or the punch file,
the output ending ``--idle`` seconds after its last line or card.  Each phase is that command, run
with the same line options (``--column-binary`` and the others apply to both phases, so give both
ends the same), with its journal, report and exit status; a phase that fails ends the session with
its status.

The reader gets the job only when all of it has come and checked out against its trailer: a
transfer cut and resumed never hands the guest a job in two parts (a reader's submitter that closes
is the end of the deck for Hercules).  The printer is connected before the job goes into the reader,
and its lines spooled from then on (:class:`emulator.printer.PrinterSpool`): however soon the guest
prints, and however fast the line turns around, no line is printed to nobody.  (Not earlier: Hercules
3.13 turns a new printer client away, "device busy or interrupt pending", after one went away, until
the guest has used the printer; a client killed in the job phase would shut the resumed one out.)

``--resume``: when the job phase is complete, each end writes a marker (``OUTPUT.1013rje`` for
``rje``, ``sockdev-HOST-PORT.1013rje`` for ``rje-host``, written before the job goes into the reader:
an ``rje-host`` killed while feeding it loses the job rather than running it twice); run again with
``--resume``, an end with its marker resumes the output phase, one without it resumes the job phase
(``rje-host``: or feeds the job it holds whole) and goes on.  The marker goes when the output phase is
complete.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from emulator.errors import ExitStatus, IbmError
from emulator.words import counted
from ibm1013.cli import argtypes, options

PASSED_VALUES = ("bit_rate", "columns", "propagation", "timeout", "code", "baud", "parity", "stop_bits")
PASSED_FLAGS = ("column_binary", "fast", "json", "rtscts")
MARKER = ".1013rje"
JOB = ".1013job"
if TYPE_CHECKING:
    from emulator.printer import PrinterSpool

OUTPUT_TIMEOUT_S = 3600.0
"""``rje --output-timeout``: an hour for the job to run and print its first line."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from ibm1013.cli.serial import _add_line_options

    p = sub.add_parser("rje", help="remote job entry: send a job deck, then receive its output",
                       description="Send JOBDECK over PORT to an `ibm1013 rje-host`, then turn the line "
                                   "around and receive the job's output (printed lines or punched cards, "
                                   "a card each) into OUTPUT.")
    p.add_argument("port", metavar="PORT", help="device, pty path or pyserial URL")
    options.add_deck(p, "jobdeck", metavar="JOBDECK", help="the job: a deck file")
    p.add_argument("-o", "--output", required=True, metavar="OUTPUT", type=argtypes.output_file,
                   help="where the output deck goes")
    options.DECK_FORMAT.add(p, default="auto", note="JOBDECK's")
    p.add_argument("--output-format", default="text", metavar="FORMAT", type=argtypes.deck_format,
                   help="OUTPUT's format (default text: a printed line a line)")
    p.add_argument("--output-timeout", default=OUTPUT_TIMEOUT_S, metavar="SECONDS", type=argtypes.POSITIVE,
                   help="longest wait for the output's first line or card, once the job is in: the job "
                        "runs first (default %(default)g; --timeout after it)")
    _add_line_options(p)
    p.set_defaults(func=cmd_rje)

    p = sub.add_parser("rje-host", help="the computer's end of remote job entry: a job into the reader, "
                                        "its output back",
                       description="Receive a job over PORT into a Hercules sockdev card reader, then send "
                                   "back what its printer (sockdev) or punch (a file) produces.")
    p.add_argument("port", metavar="PORT", help="device, pty path or pyserial URL")
    p.add_argument("--reader", required=True, metavar="sockdev://HOST:PORT", type=argtypes.sockdev,
                   help="the Hercules 3505 the job goes into (defined sockdev ebcdic eof)")
    back = p.add_mutually_exclusive_group(required=True)
    back.add_argument("--printer", metavar="sockdev://HOST:PORT", type=argtypes.sockdev,
                      help="the Hercules 1403 whose lines go back (defined sockdev)")
    back.add_argument("--punch", metavar="FILE", help="the punch file whose cards go back (a Hercules 3525)")
    p.add_argument("--punch-format", default="ebcdic", metavar="FORMAT", type=argtypes.deck_format,
                   help="the punch file's format (default ebcdic, as a 3525 writes it)")
    options.IDLE.add(p, default=3.0, note="the output phase follows the printer or punch (default 3)")
    _add_line_options(p)
    p.set_defaults(func=cmd_rje_host)


def _line_options(args: argparse.Namespace) -> list[str]:
    """The line options given to ``rje``/``rje-host``, as ``send``/``receive`` take them."""
    if args.trace is not None or args.timeline is not None:
        raise IbmError("--trace and --timeline name one file: trace each phase with send and receive")
    passed: list[str] = []
    for name in PASSED_VALUES:
        if name == "propagation" and args.fast:  # no delay without pacing: refused together
            continue
        passed += [f"--{name.replace('_', '-')}", str(getattr(args, name))]
    return passed + [f"--{name.replace('_', '-')}" for name in PASSED_FLAGS if getattr(args, name)]


def in_words_of(this: str, far: str, phase: str) -> Callable[[str], str]:
    """A phase's messages as ``this`` end (``rje`` or ``rje-host``) says them, in the ``phase`` ("job"
    or "output"), its far end ``far``: the commands named are these two, not the ``send`` and
    ``receive`` the phase runs."""
    words = (
        ("run send and receive again with --resume", "run rje and rje-host again with --resume"),
        ("Run send and receive again with --resume", "Run rje and rje-host again with --resume"),
        ("start `ibm1013 receive` at the far end", f"start `ibm1013 {far}` at the far end"),
        ("run send with --resume to continue it", f"run {far} with --resume to continue it"),
        ("send with --resume to continue it", f"run {this} with --resume to continue it"),
        ("receive with --resume to continue it", f"run {this} with --resume to continue it"),
        ("handshake failed (in it the receiving end transmits)",
         f"{far} did not answer the handshake that begins the {phase} (in it {this} transmits: is "
         f"{far} running, or did it stop? see its message)"),
    )

    def say(message: str) -> str:
        for theirs, ours in words:
            message = message.replace(theirs, ours)
        return message

    return say


def _run(argv: list[str], **settings: object) -> int:
    """One phase: the command ``argv`` parsed and run as ``ibm1013`` would, with ``settings`` its
    command line does not offer (``first_card_s``, ``printer_spool``: see :func:`cmd_rje`;
    ``in_words_of``: its messages in ``rje``'s and ``rje-host``'s words)."""
    from ibm1013.cli.main import build_parser

    args = build_parser().parse_args(argv)
    for name, value in settings.items():
        setattr(args, name, value)
    return int(args.func(args) or 0)


def _job_done(marker: str) -> None:
    with open(marker, "w") as note:
        note.write("the job phase is complete\n")
        note.flush()
        os.fsync(note.fileno())


def _output_phase(marker: str, argv: list[str], done_with: tuple[str, ...] = (), **settings: object) -> int:
    """The output phase; when complete, the files ``done_with`` (the job deck, the spool) go, then
    the marker (in that order: a host killed in between holds no job it could feed twice)."""
    status = _run(argv, **settings)
    if status == ExitStatus.OK:
        for path in (*done_with, marker):
            if os.path.exists(path):
                os.unlink(path)
    return status


def cmd_rje(args: argparse.Namespace) -> int:
    line = _line_options(args)
    job = ["send", args.port, args.jobdeck, "--format", args.format, *line]
    output = ["receive", args.port, "-o", args.output, "--format", args.output_format, *line]
    marker = args.output + MARKER
    if not (args.resume and os.path.exists(marker)):
        status = _run(job + (["--resume"] if args.resume else []),
                      in_words_of=in_words_of("rje", "rje-host", "job"))
        if status != ExitStatus.OK:
            return status
        _job_done(marker)
    else:
        output.append("--resume")
    return _output_phase(marker, output, first_card_s=args.output_timeout,
                         in_words_of=in_words_of("rje", "rje-host", "output"))


def cmd_rje_host(args: argparse.Namespace) -> int:
    from emulator.printer import spool_name
    from emulator.sockdev import parse_address

    line = _line_options(args)
    host, port = parse_address(args.reader)
    marker, job_file = f"sockdev-{host}-{port}{MARKER}", f"sockdev-{host}-{port}{JOB}"
    job = ["receive", args.port, "-o", job_file, "--format", "ebcdic", *line]
    follow: list[str] = (["--follow", args.printer] if args.printer else
                         ["--follow", args.punch, "--format", args.punch_format])
    output = ["send", args.port, *follow, "--idle", str(args.idle), *line]
    done_with = (job_file, spool_name(*parse_address(args.printer))) if args.printer else (job_file,)
    restarted = args.resume and os.path.exists(marker)
    said = in_words_of("rje-host", "rje", "output")
    if restarted and not args.printer:  # a punch file keeps every card the guest punched: go on
        return _output_phase(marker, output + ["--resume"], done_with, in_words_of=said)
    if restarted and not os.path.exists(job_file):
        return _short_output(args, line, marker)
    if not restarted and not (args.resume and os.path.exists(job_file)):  # else: whole, not yet fed
        status = _run(job + (["--resume"] if args.resume else []),
                      in_words_of=in_words_of("rje-host", "rje", "job"))
        if status != ExitStatus.OK:
            return status
    spool = _printer(args) if args.printer else None  # before the job goes in: Hercules keeps no line
    try:                                               # for a client not there
        try:
            fed = _feed(job_file, host, port, marker, again=restarted)
        except IbmError as err:
            raise IbmError(f"{err} (the job is kept in {job_file}: run rje-host and rje again with "
                           "--resume once the reader is there)") from None
        if not args.json:
            again = (" again: the output of its first run was cut (IPL it)" if restarted else "")
            print(f"job               {counted(fed, 'card')} fed to the card reader {args.reader}{again}",
                  flush=True)
        return _output_phase(marker, output, done_with, printer_spool=spool,
                             rerun="ANEW" if restarted else None, in_words_of=said)
    finally:
        if spool is not None:
            spool.close()


def _printer(args: argparse.Namespace) -> PrinterSpool:
    """The printer's client, with a spool of its own (the lines of an earlier run, if any, dropped):
    one turned away (Hercules still counts a client that went, or has an interrupt pending) is tried
    again for ``--timeout`` seconds, the operator told what to do."""
    from emulator.follow import FollowError
    from emulator.printer import PrinterSpool
    from emulator.sockdev import parse_address

    def tell(why: str) -> None:
        print(f"ibm1013: rje-host: {why}; trying again for {args.timeout:g} s", file=sys.stderr, flush=True)

    try:
        return PrinterSpool(*parse_address(args.printer), code=args.code, fresh=True,
                            within_s=args.timeout, on_turned_away=tell)
    except FollowError as err:
        raise IbmError(f"{err}; then run rje-host and rje again with --resume") from None


def _short_output(args: argparse.Namespace, line: list[str], marker: str) -> int:
    """A host restarted in the output phase without the job deck cannot run the job again: the
    output phase is refused (``REFUSED SHORT``: the far end told), saying what the spool holds."""
    from emulator.printer import spool_name
    from emulator.sockdev import parse_address

    spool = spool_name(*parse_address(args.printer))
    open(spool, "ab").close()  # noqa: SIM115 - followed only for the handshake
    with open(spool, "rb") as lines:
        held = sum(1 for _ in lines)
    status = _run(["send", args.port, "--follow", spool, "--format", "text", *line], rerun="SHORT",
                  in_words_of=in_words_of("rje-host", "rje", "output"))
    print(f"ibm1013: rje-host: {spool} holds the {counted(held, 'line')} the printer gave before the "
          f"restart; to run the job again send it again, {marker} and rje's marker and journal deleted",
          file=sys.stderr)
    return status if status != ExitStatus.OK else ExitStatus.FAILED


def _feed(job_file: str, host: str, port: int, marker: str, *, again: bool = False) -> int:
    """The whole job into the reader, in one connection (its close is the deck's end).  The marker is
    written first, so a kill while feeding never feeds the job twice; a reader that fails takes it
    back on a first feed (the job is still there to feed with ``--resume``), and leaves it on a feed
    ``again`` (a restart in the output phase: ``--resume`` runs the job again).  The job deck stays
    until the output phase is complete: a restart in it runs the job again from there."""
    from emulator.sockdev import SockdevReader

    with open(job_file, "rb") as deck:
        data = deck.read()
    _job_done(marker)
    reader = SockdevReader(host, port)
    try:
        reader.connect()
        reader.feed(data, f"the job's {len(data) // 80} cards")
    except IbmError:
        if not again:
            os.unlink(marker)
        raise
    finally:
        reader.close()
    return len(data) // 80
