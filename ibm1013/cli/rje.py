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

from emulator.errors import IbmError
from emulator.words import counted
from ibm1013.cli import argtypes, options
from ibm1013.report import ExitStatus

PASSED_VALUES = ("bit_rate", "columns", "propagation", "timeout", "code", "baud", "parity", "stop_bits")
PASSED_FLAGS = ("column_binary", "fast", "json", "rtscts")
MARKER = ".1013rje"
JOB = ".1013job"
OUTPUT_TIMEOUT_S = 3600.0
"""``rje --output-timeout``: an hour for the job to run and print its first line."""


def register(sub: argparse._SubParsersAction) -> None:
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
        passed += [f"--{name.replace('_', '-')}", str(getattr(args, name))]
    return passed + [f"--{name.replace('_', '-')}" for name in PASSED_FLAGS if getattr(args, name)]


def _run(argv: list[str], **settings: object) -> int:
    """One phase: the command ``argv`` parsed and run as ``ibm1013`` would, with ``settings`` its
    command line does not offer (``first_card_s``, ``printer_spool``: see :func:`cmd_rje`)."""
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


def _output_phase(marker: str, argv: list[str], **settings: object) -> int:
    status = _run(argv, **settings)
    if status == ExitStatus.OK:
        os.unlink(marker)
    return status


def cmd_rje(args: argparse.Namespace) -> int:
    line = _line_options(args)
    job = ["send", args.port, args.jobdeck, "--format", args.format, *line]
    output = ["receive", args.port, "-o", args.output, "--format", args.output_format, *line]
    marker = args.output + MARKER
    if not (args.resume and os.path.exists(marker)):
        status = _run(job + (["--resume"] if args.resume else []))
        if status != ExitStatus.OK:
            return status
        _job_done(marker)
    else:
        output.append("--resume")
    return _output_phase(marker, output, first_card_s=args.output_timeout)


def cmd_rje_host(args: argparse.Namespace) -> int:
    from emulator.printer import PrinterSpool
    from emulator.sockdev import parse_address

    line = _line_options(args)
    host, port = parse_address(args.reader)
    marker, job_file = f"sockdev-{host}-{port}{MARKER}", f"sockdev-{host}-{port}{JOB}"
    job = ["receive", args.port, "-o", job_file, "--format", "ebcdic", *line]
    follow: list[str] = (["--follow", args.printer] if args.printer else
                         ["--follow", args.punch, "--format", args.punch_format])
    output = ["send", args.port, *follow, "--idle", str(args.idle), *line]
    spool = None
    try:
        if not (args.resume and os.path.exists(marker)):
            if not (args.resume and os.path.exists(job_file)):  # else: the job came whole, not yet fed
                status = _run(job + (["--resume"] if args.resume else []))
                if status != ExitStatus.OK:
                    return status
            if args.printer:  # its client before the job goes in: Hercules keeps no line for one not there
                spool = PrinterSpool(*parse_address(args.printer), code=args.code)
            fed = _feed(job_file, host, port, marker)
            if not args.json:
                print(f"job               {counted(fed, 'card')} fed to the card reader {args.reader}")
        else:
            output.append("--resume")
        return _output_phase(marker, output, printer_spool=spool)
    finally:
        if spool is not None:
            spool.close()


def _feed(job_file: str, host: str, port: int, marker: str) -> int:
    """The whole job into the reader, in one connection (its close is the deck's end).  The marker is
    written first, so a kill while feeding never feeds the job twice; a reader that fails takes it
    back (the job is still there to feed with ``--resume``)."""
    from emulator.sockdev import SockdevReader

    with open(job_file, "rb") as deck:
        data = deck.read()
    _job_done(marker)
    reader = SockdevReader(host, port)
    try:
        reader.connect()
        reader.feed(data, f"the job's {len(data) // 80} cards")
    except IbmError:
        os.unlink(marker)
        raise
    finally:
        reader.close()
    os.unlink(job_file)
    return len(data) // 80
