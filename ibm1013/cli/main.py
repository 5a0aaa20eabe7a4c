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
The width of the help, the errors as one line and the stop signals are :mod:`ibm1013.cli.terminal`'s.

``ibm1013`` starts in :mod:`ibm1013.cli.start`, which answers ``ibm1013 --help`` and ``ibm1013 cards
decode DECK`` without argparse, from what this module's parser answered
(:mod:`ibm1013.cli.prepared`), and hands every other command line to :func:`main`.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from emulator.errors import ExitStatus
from ibm1013.cli.commands import Commands, Listing, build_every
from ibm1013.cli.terminal import answer, stop_signals_interrupt, terminal_columns

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


def main(argv: Sequence[str] | None = None) -> int:
    with stop_signals_interrupt():
        parser, _ = command_parser()
        return _run(parser, argv)


def _run(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> int:
    if not (sys.argv[1:] if argv is None else argv):  # `ibm1013` alone: what there is to run
        parser.print_help(sys.stderr)
        return ExitStatus.FAILED

    def command() -> int:
        try:
            args = parser.parse_args(argv)
        except SystemExit as done:  # -h, --version or a parse error (already printed)
            return int(done.code or 0)
        return int(args.func(args) or 0)

    return answer(command)


if __name__ == "__main__":
    sys.exit(main())
