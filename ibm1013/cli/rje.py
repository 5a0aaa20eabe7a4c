"""``ibm1013 rje`` and ``ibm1013 rje-host``: remote job entry, a job sent and its output sent back.

::

    ibm1013 rje PORT JOBDECK -o OUTPUT [--format FMT] [--output-format FMT] [line options]
    ibm1013 rje-host PORT --reader sockdev://HOST:PORT (--printer sockdev://HOST:PORT | --punch FILE)
                     [--punch-format FMT] [--idle SECONDS] [line options]

Nothing new goes on the line: a job is a deck and its output is a deck.  ``rje`` is ``send PORT
JOBDECK`` and then, the line turned around, ``receive PORT -o OUTPUT``; ``rje-host`` is ``receive
PORT -o READER`` (a Hercules sockdev 3505) and then ``send PORT --follow`` on the printer or the punch
file, the output ending ``--idle`` seconds after its last line or card.  Each phase is that command,
run with the same line options (``--column-binary`` and the others apply to both phases, so give
both ends the same), with its journal, report and exit status; a phase that fails ends the session
with its status.

``--resume``: when the job phase is complete, each end writes a marker (``OUTPUT.1013rje`` for
``rje``, ``sockdev-HOST-PORT.1013rje`` for ``rje-host``, beside the reader's journal); run again with
``--resume``, an end with its marker resumes the output phase, one without it resumes the job phase
and goes on.  The marker goes when the output phase is complete.
"""

from __future__ import annotations

import argparse
import os

from emulator.errors import IbmError
from ibm1013.cli import argtypes, options
from ibm1013.report import ExitStatus

PASSED_VALUES = ("bit_rate", "columns", "propagation", "timeout", "code", "baud", "parity", "stop_bits")
PASSED_FLAGS = ("column_binary", "fast", "json", "rtscts")
MARKER = ".1013rje"


def register(sub: argparse._SubParsersAction) -> None:
    from ibm1013.cli.serial import _add_line_options

    p = sub.add_parser("rje", help="remote job entry: send a job deck, then receive its output",
                       description="Send JOBDECK over PORT to an `ibm1013 rje-host`, then turn the line "
                                   "around and receive the job's output (printed lines or punched cards, "
                                   "a card each) into OUTPUT.")
    p.add_argument("port", metavar="PORT", help="device, pty path or pyserial URL")
    p.add_argument("jobdeck", metavar="JOBDECK", help="the job: a deck file")
    p.add_argument("-o", "--output", required=True, metavar="OUTPUT", type=argtypes.output_file,
                   help="where the output deck goes")
    p.add_argument("--format", default="auto", metavar="FORMAT", type=argtypes.deck_format_or_auto,
                   help="JOBDECK's format (default: detect)")
    p.add_argument("--output-format", default="text", metavar="FORMAT", type=argtypes.deck_format,
                   help="OUTPUT's format (default text: a printed line a line)")
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


def _run(argv: list[str]) -> int:
    """One phase: the command ``argv`` parsed and run as ``ibm1013`` would."""
    from ibm1013.cli.main import build_parser

    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


def _phases(marker: str, resume: bool, job: list[str], output: list[str]) -> int:
    """Run the job phase, then the output phase (see the module docstring for the marker)."""
    again = ["--resume"] if resume else []
    if not (resume and os.path.exists(marker)):
        status = _run(job + again)
        if status != ExitStatus.OK:
            return status
        with open(marker, "w") as note:
            note.write("the job phase is complete\n")
        again = []
    status = _run(output + again)
    if status == ExitStatus.OK:
        os.unlink(marker)
    return status


def cmd_rje(args: argparse.Namespace) -> int:
    line = _line_options(args)
    job = ["send", args.port, args.jobdeck, "--format", args.format, *line]
    output = ["receive", args.port, "-o", args.output, "--format", args.output_format, *line]
    return _phases(args.output + MARKER, args.resume, job, output)


def cmd_rje_host(args: argparse.Namespace) -> int:
    from emulator.sockdev import parse_address

    line = _line_options(args)
    host, port = parse_address(args.reader)
    job = ["receive", args.port, "-o", args.reader, "--format", "ebcdic", *line]
    follow: list[str] = (["--follow", args.printer] if args.printer else
                         ["--follow", args.punch, "--format", args.punch_format])
    output = ["send", args.port, *follow, "--idle", str(args.idle), *line]
    return _phases(f"sockdev-{host}-{port}{MARKER}", args.resume, job, output)
