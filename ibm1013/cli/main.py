"""The ``ibm1013`` command line.

Each subcommand group lives in a module of its own in this package and provides
``register(subparsers)``, which adds its parsers and sets ``func`` on each (a callable taking the
parsed arguments and returning the exit status).

Every parser is a :class:`Parser`: help shows each option's default, and a parse error (an unknown
option, a bad choice, a value out of range — see :mod:`ibm1013.cli.argtypes`) is one line on stderr,
``ibm1013: cards decode: argument --format: invalid choice: …``, exit status 2, before any work.
Errors a user can act on later (:class:`IbmError`) are printed the same way — never a traceback.
When the reader of our standard output goes away (``ibm1013 cards decode X | head -1``) we stop
quietly with status 141, as a Unix tool killed by SIGPIPE does.

SIGTERM (``kill``, a service manager) and SIGHUP (the terminal closed) are treated as Ctrl-C by every
command: each long-running one stops, prints one line saying what is kept and how to go on, and exits
with status 130 (:data:`ExitStatus.INTERRUPTED`), leaving no process of its own behind.  One ignored
when the command started (``nohup``; ``&`` in a script) stays ignored (:mod:`ibm1013.line.stop_signals`).
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import signal
import sys
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager

from emulator.errors import ExitStatus, IbmError
from ibm1013.cli.commands import Commands, Listing, build_every
from ibm1013.line.stop_signals import STOP_SIGNALS, catching

TYPE_CHECKING = False  # typing is not imported at run time: this is on the path of every command
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import NoReturn, TypedDict, Unpack, cast

    class ParserOptions(TypedDict, total=False):
        """The keywords of ``argparse.ArgumentParser`` (typeshed's types), which :class:`Parser` takes."""

        prog: str | None
        usage: str | None
        description: str | None
        epilog: str | None
        parents: Iterable[argparse.ArgumentParser]
        formatter_class: type[argparse.HelpFormatter]
        prefix_chars: str
        fromfile_prefix_chars: str | None
        argument_default: object
        conflict_handler: str
        add_help: bool
        allow_abbrev: bool
        exit_on_error: bool

COMMAND_MODULES: tuple[str, ...] = (
    "ibm1013.cli.cards",     # ibm1013 cards …
    "ibm1013.cli.simulate",  # ibm1013 simulate …
    "ibm1013.cli.serial",    # ibm1013 send / receive / line
    "ibm1013.cli.rje",       # ibm1013 rje / rje-host
    "ibm1013.cli.monitor",   # ibm1013 monitor (a datascope)
    "ibm1013.cli.games",     # ibm1013 games / deck / deal / play / solve
    "ibm1013.cli.demo",      # ibm1013 demo
    "ibm1013.cli.sweep",     # ibm1013 sweep / plot
    "ibm1013.cli.theory",    # ibm1013 theory
    "ibm1013.cli.stats",     # ibm1013 stats
    "ibm1013.cli.stream",    # ibm1013 watch / simulate-play (play --stream: games calls stream)
    "ibm1013.cli.shell",     # ibm1013 completion / manpage
)

COMMANDS: Listing = (
    ("cards", "cards", "punched-card decks: encode, decode, convert, show, info; sort, select, merge …"),
    ("simulate", "simulate", "simulate sending a deck between two IBM 1013s (SimPy)"),
    ("send", "serial", "send a card deck over a serial port as a 1013 would"),
    ("receive", "serial", "receive a card deck over a serial port as a 1013 would"),
    ("ports", "serial", "list the serial ports of this machine"),
    ("line", "serial", "a virtual line: two raw ptys joined at the 1013's bit rate"),
    ("rje", "rje", "remote job entry: send a job deck, then receive its output"),
    ("rje-host", "rje", "the computer's end of remote job entry: a job into the reader, its output back"),
    ("monitor", "monitor", "a datascope: watch one or two directions of a line without taking part"),
    ("games", "games", "list the solitaire games and their options"),
    ("deck", "games", "playing-card packs"),
    ("deal", "games", "deal a game: show it, or punch it into a deck"),
    ("play", "games", "play a game in the terminal, or replay a move script"),
    ("solve", "games", "search for a winning move list"),
    ("demo", "demo", "deal a game, punch it, send it between two simulated 1013s, resume it"),
    ("sweep", "sweep", "simulate transfers over a grid of line settings (cards/min with 95 %% CI)"),
    ("plot", "sweep", "draw the results of a sweep"),
    ("theory", "theory",
     "work out cards/min, retransmissions, give-ups and undetected errors (no simulation)"),
    ("stats", "stats", "games played and won, streaks, best moves and times"),
    ("watch", "stream", "watch a game streamed from the far end of PORT, move by move"),
    ("simulate-play", "stream", "a game streamed over the simulated line"),
    ("completion", "shell", "print a shell completion script (bash or zsh)"),
    ("manpage", "shell", "write the manual page (roff), generated from these commands' help"),
)
"""Every command: its name, the module of :data:`COMMAND_MODULES` (under ``ibm1013.cli``) that
registers it, and its one line of help, written out so that ``ibm1013 --help`` lists the commands
without building their parsers (:class:`~ibm1013.cli.commands.Commands`;
``tests/test_cli_commands.py`` checks the table against the modules)."""


def help_with_default(action: argparse.Action) -> str:
    """``action``'s help with ``(default: …)`` added, unless the text already speaks of its default or
    there is nothing worth showing (no default, a flag, an empty list)."""
    text = action.help or ""
    default = action.default
    if ("default" in text.lower() or default is None
            or default is argparse.SUPPRESS or isinstance(default, bool) or default == []
            or not (action.option_strings or action.nargs in ("?", "*"))):
        return text
    return f"{text} (default: %(default)s)"


def terminal_columns() -> int:
    """``shutil.get_terminal_size().columns``, without importing :mod:`shutil` (which imports
    ``bz2``, ``lzma`` and ``fnmatch``): argparse makes a formatter, and asks the width, for every
    ``add_argument``, so every command would pay for it."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):  # no stdout, or not a terminal
            columns = 80
    return columns


class HelpFormatter(argparse.HelpFormatter):
    """Help that shows every option's default (see :func:`help_with_default`), as wide as the
    terminal (:func:`terminal_columns`)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        if width is None:
            width = terminal_columns() - 2  # as argparse does
        super().__init__(prog, indent_increment, max_help_position, width)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        return help_with_default(action)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line, ``ibm1013: [COMMAND: ]message``, exit status 2.

    Subparsers are made of the same class (argparse's ``add_subparsers`` uses ``type(self)``), so
    every command and action reads alike.
    """

    def __init__(self, **kwargs: Unpack[ParserOptions]) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(**kwargs)
        self.checks_when_parsed: list[Callable[[argparse.Namespace], str | None]] = []
        """Run on the arguments parsed (:func:`ibm1013.cli.options.check_when_parsed`)."""

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        """argparse's, then the checks of :func:`ibm1013.cli.options.check_when_parsed`: the first
        that finds something wrong is this parser's error."""
        parsed, extras = super().parse_known_args(args, namespace)
        for check in self.checks_when_parsed:
            problem = check(parsed)
            if problem:
                self.error(problem)
        return parsed, extras

    def error(self, message: str) -> NoReturn:
        command = self.prog.partition(" ")[2]
        where = f"{command}: " if command else ""
        self.exit(2, f"ibm1013: {where}{' '.join(message.split())}\n")


def version() -> str:
    """The installed package's version."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("ibm1013")
    except PackageNotFoundError:
        return "unknown (not installed)"


class VersionAction(argparse._VersionAction):
    """``--version``: the installed version, looked up only when asked (importlib.metadata is slow
    to import, and every run would pay for it)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:  # type: ignore[no-untyped-def]
        self.version = f"%(prog)s {version()}"
        super().__call__(parser, namespace, values, option_string)


def command_parser() -> tuple[argparse.ArgumentParser, Commands]:
    """The parser of ``ibm1013``, with every command listed (:data:`COMMANDS`) and none built."""
    parser = Parser(
        prog="ibm1013",
        description="Punched cards, card decks and the IBM 1013 Card Transmission Terminal.",
        epilog="Run 'ibm1013 COMMAND -h' for the options of a command.",
    )
    parser.add_argument("--version", action=VersionAction,
                        help="print the version and exit")
    made = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, action=Commands)
    if TYPE_CHECKING:  # (typing is not imported at run time)
        sub = cast(Commands, made)
    else:
        sub = made
    sub.listing(COMMANDS)
    return parser, sub


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``ibm1013`` with every command's parser built (for completion, the manual page
    and the tests; running a command builds only its own: :class:`Commands`)."""
    parser, sub = command_parser()
    for name in COMMAND_MODULES:  # a module that fails to import is an error, never a missing command
        importlib.import_module(name).register(sub)
    build_every(parser)
    from ibm1013.cli.options import refuse_contradictions_under

    refuse_contradictions_under(parser)  # (a command built on demand gets them in Commands.build)
    return parser


def _stdout_closed() -> bool:
    """Whether the reader of our standard output has gone (a pipe or socket with no reader)."""
    import select  # here: only a command whose output broke asks

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(ev & select.POLLERR for _fd, ev in poller.poll(0))
    except (OSError, ValueError, AttributeError):
        return False


def _broken_pipe(err: BaseException) -> bool:
    """Whether ``err`` (or the error it was raised from) is EPIPE on our standard output."""
    for cause in (err, err.__context__):
        if isinstance(cause, OSError) and cause.errno == errno.EPIPE:
            return _stdout_closed()
    return False


def _one_line(err: BaseException) -> str:
    """An error as one line: an IbmError's message; an OSError's file and reason (``strerror``)."""
    if isinstance(err, OSError) and not isinstance(err, IbmError) and err.strerror:
        return f"{err.filename}: {err.strerror}" if err.filename else err.strerror
    return str(err)


def _quiet_exit() -> int:
    """Stop writing to the closed pipe: point stdout at /dev/null so the final flush stays silent."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return ExitStatus.BROKEN_PIPE


def stop_signals_interrupt() -> AbstractContextManager[None]:
    """While inside (in the main thread), SIGTERM and SIGHUP raise :class:`KeyboardInterrupt` as
    Ctrl-C does, so that each command's Ctrl-C path (what is kept, how to go on) serves all three.
    A signal ignored when we started (``nohup``; ``&`` in a script) stays ignored
    (:mod:`ibm1013.line.stop_signals`)."""
    return catching(signal.default_int_handler, STOP_SIGNALS[1:])


def main(argv: Sequence[str] | None = None) -> int:
    with stop_signals_interrupt():
        parser, _ = command_parser()
        return _run(parser, argv)


def _run(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> int:
    if not (sys.argv[1:] if argv is None else argv):  # `ibm1013` alone: what there is to run
        parser.print_help(sys.stderr)
        return ExitStatus.FAILED
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as done:  # -h, --version or a parse error (already printed)
            status = int(done.code or 0)
        else:
            status = args.func(args)
        if sys.stdout is not None:  # None when started with stdout closed (>&-)
            sys.stdout.flush()  # here, not at exit, so that a closed pipe is seen below
    except (IbmError, OSError) as err:
        if _broken_pipe(err):
            return _quiet_exit()
        print(f"ibm1013: {_one_line(err)}", file=sys.stderr)
        return getattr(err, "exit_status", ExitStatus.FAILED)  # a transfer interrupted, or not confirmed
    except KeyboardInterrupt:  # a command with nothing to keep (its own handler says what is kept)
        print("ibm1013: interrupted: the command did not finish (its files are written whole or not "
              "at all); run it again", file=sys.stderr)
        return ExitStatus.INTERRUPTED
    return int(status or 0)


if __name__ == "__main__":
    sys.exit(main())
