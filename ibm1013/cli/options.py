"""Options that several commands share: one type and one help each, whichever command has them.

``--ber 1e-4`` means the same to ``simulate``, ``line``, ``demo`` and ``simulate-play``, and
``sweep --ber 0,1e-4`` is a comma list of the same values, each checked by the same type from
:mod:`ibm1013.cli.argtypes`, so a bad value is refused in the same words everywhere.  A command adds
such an option with :meth:`Shared.add` (one value) or :meth:`Shared.add_list` (the sweep's list);
``tests/test_cli_parser.py`` checks that an option name used by several commands has one type and
one help.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable

from emulator.record import Record
from ibm1013.cli import argtypes

TYPE_CHECKING = False  # typing is not imported at run time: every command's parser comes here
if TYPE_CHECKING:
    from typing import TypedDict, Unpack

    class DeckOptions(TypedDict, total=False):
        """The keywords of argparse's ``add_argument`` (typeshed's types) :func:`add_deck` passes on."""

        action: str | type[argparse.Action]
        nargs: int | str | None
        const: object
        default: object
        choices: Iterable[object] | None
        required: bool

    class OptionOptions(DeckOptions, total=False):
        """… and those :meth:`Shared.add` passes on (its ``type`` and ``metavar`` for this command)."""

        type: Callable[[str], object]
        metavar: str | tuple[str, ...] | None

    class ListOptions(TypedDict, total=False):
        """… and those :meth:`Shared.add_list` passes on (its ``type`` and ``default`` are its own)."""

        action: str | type[argparse.Action]
        nargs: int | str | None
        const: object
        choices: Iterable[object] | None
        required: bool
        metavar: str | tuple[str, ...] | None

SWEEP_NOTE = "; in a sweep: "
"""What follows this in a help tells how ``sweep`` takes several values of the option."""


class Shared(Record):
    """An option's name, the type that checks its value, its help (``%(default)s`` for the default,
    which each command sets) and its metavar (a :class:`~emulator.record.Record`: :mod:`dataclasses`
    is slow to import, and a named tuple imports :mod:`typing`)."""

    flag: str
    type: Callable[[str], object] | None
    help: str
    metavar: str | None
    _fields = ("flag", "type", "help", "metavar")

    def __init__(self, flag: str, type: Callable[[str], object] | None, help: str,  # noqa: A002
                 metavar: str | None = None) -> None:
        self._set(flag=flag, type=type, help=help, metavar=metavar)

    def add(self, parser: argparse._ActionsContainer, *, note: str | None = None,
            **kwargs: Unpack[OptionOptions]) -> argparse.Action:
        """The option with one value (or a flag, when ``type`` is None and ``action`` is given);
        ``note`` says, after the shared help and a ``;``, what this command adds to the meaning (a
        ``type`` given here must take every value the shared one takes, and the note say what more)."""
        given: OptionOptions = ({"type": self.type, "metavar": self.metavar, **kwargs}
                                if self.type is not None else kwargs)
        text = self.help if note is None else f"{self.help}; {note}"
        return parser.add_argument(self.flag, help=text, **given)

    def add_list(self, parser: argparse.ArgumentParser, default: object, *,
                 item: Callable[[str], object] | None = None, how: str = "a comma list, each value run",
                 **kwargs: Unpack[ListOptions]) -> argparse.Action:
        """The sweep's form: a comma list of the values :meth:`add` takes, each checked by its type
        (``item``: the type of one value, when it is not ``type``: a flag elsewhere, or a value
        that holds commas itself); ``how`` tells the form after :data:`SWEEP_NOTE`."""
        kind = item or argtypes.ListOf(self.type)  # type: ignore[arg-type]
        given: ListOptions = {"metavar": "LIST", **kwargs}
        return parser.add_argument(self.flag, type=kind, default=default, help=self.help + SWEEP_NOTE + how,
                                   **given)


class Accumulate(argparse._AppendAction):
    """Each use adds its list of values (``sweep --columns 80,40 --columns 1-20,41-60``: an append, as
    :mod:`ibm1013.cli.keywords` sees it, of lists flattened); the default,
    a text the type reads as argparse reads any text default (so ``--help`` shows it as it is), holds
    until the option is first given."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option: str | None = None) -> None:
        if not isinstance(values, Iterable):  # (the option's type makes a list)
            raise TypeError(f"{self.dest}: not a list of values: {values!r}")
        items = getattr(namespace, self.dest, None)
        items = [] if items is None or items is self.default else list(items)
        setattr(namespace, self.dest, items + list(values))


class Given(argparse.Action):
    """Store the value, and ``DEST_given = True``: the user named it (``cards decode`` reads a deck in
    another code only when ``--code`` was not given)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        setattr(namespace, f"{self.dest}_given", True)


def add_deck(parser: argparse._ActionsContainer, dest: str = "deck", *, help: str, metavar: str = "DECK",
             **kwargs: Unpack[DeckOptions]) -> argparse.Action:
    """A deck file the command reads: a positional ``dest``, or an option (``"--load"``), typed
    :func:`~ibm1013.cli.argtypes.deck_file` (the mark the contract tests go by); the command reads it
    through :func:`ibm1013.cli.deckfiles.reading`, in the format of :data:`DECK_FORMAT` and the code
    of :data:`CODE`."""
    return parser.add_argument(dest, metavar=metavar, type=argtypes.deck_file, help=help, **kwargs)


DECK_FORMAT = Shared("--format", argtypes.deck_format_or_auto,
                     "format of the deck read: one of 'ibm1013 cards -h', or auto: detected as SIMH does "
                     "(CBN, BIN, else text), or named by an extension (.ebcdic, .rbn) (default %(default)s)",
                     "FORMAT")
BIT_RATE = Shared("--bit-rate", argtypes.BIT_RATE,
                  "line speed in bit/s, both ends alike: a whole number up to 99999 (the 1013's modems: "
                  "600, 1200, 2000, 2400; default %(default)s)")
BER = Shared("--ber", argtypes.PROBABILITY, "bit error rate of the line, 0 to 1 (default %(default)s)")
BURST = Shared("--burst", argtypes.burst,
               "Gilbert-Elliott bursts: per-bit chance good→bad, bad→good, and the BER when bad; or none "
               "(default none)", "none|P_GB,P_BG,BER_BAD")
CUT_AT = Shared("--cut-at", argtypes.or_none(argtypes.NON_NEGATIVE),
                "cut the line this many seconds after it starts, or none (default none)", "SECONDS")
TURNAROUND = Shared("--turnaround", argtypes.NON_NEGATIVE,
                    "half-duplex turnaround delay in seconds (default %(default)s)", "SECONDS")
DUPLEX = Shared("--duplex", argtypes.one_of("full", "half"),
                "full: 4-wire, replies on the other pair; half: 2-wire with turnarounds "
                "(default %(default)s)", "full|half")
MECHANICS = Shared("--mechanics", argtypes.one_of("none", "overlap", "serial"),
                   "card reader/punch timing: none (line-bound), overlap (pipelined 0.1 s + 160 col/s), "
                   "serial (no overlap) (default %(default)s)", "none|overlap|serial")
COLUMNS = Shared("--columns", argtypes.columns,
                 "columns sent per card: N, 'auto' (up to the last punched) or a mask like 1-20,41-60 "
                 "(both ends alike; default %(default)s)")
ON_GIVE_UP = Shared("--on-give-up", argtypes.one_of("stop", "skip"),
                    "a card given up after the retries: stop the session there, as send does, and say "
                    "where to start again, or skip it and go on with the next card, the far end lacking "
                    "it (default %(default)s)", "stop|skip")
DEFAULT_ON_GIVE_UP = "stop"
"""The STR core's default (``ibm1013.str.config.GIVE_UP_STOP``; tests/test_settings_contract.py holds
them alike), written here so that building the parser imports no protocol code."""
COLUMN_BINARY = Shared("--column-binary", None,
                       "send any punches as two characters per column (our extension; both ends alike)")
SEED = Shared("--seed", argtypes.SEED,
              "seed of everything random on the line: its noise, and drops where there are (default "
              "%(default)s)")
CODE = Shared("--code", argtypes.card_code,
              "card code: the punches of each character, in text decks (default %(default)s; see "
              "'ibm1013 cards -h')")
FAST = Shared("--fast", None, "no pacing: send as fast as the port takes it")
PROPAGATION = Shared("--propagation", argtypes.NON_NEGATIVE,
                     "one-way delay of the line in seconds, added when paced (default %(default)s)",
                     "SECONDS")
TIMEOUT = Shared("--timeout", argtypes.POSITIVE,
                 "longest wait for the far end, in seconds (default %(default)s)", "SECONDS")
IDLE = Shared("--idle", argtypes.POSITIVE,
               "with --follow: the deck ends when no card or line has come for this long", "SECONDS")
KEEPALIVE = Shared("--keepalive", argtypes.POSITIVE,
                   "bid (TL INQ) to hold the line after this long without a move (default %(default)s; "
                   "shorter than the watcher's --timeout)", "SECONDS")
DEFAULT_KEEPALIVE_S = 5.0
"""``ibm1013.str.stream.KEEPALIVE_S``, written here so that building the parser imports no protocol
code (tests/test_settings_contract.py holds them alike)."""
THINK = Shared("--think", argtypes.NON_NEGATIVE,
               "seconds the player thinks before each move of --moves without its own +SECONDS "
               "(default %(default)s)", "SECONDS")
DEAL = Shared("--deal", argtypes.DEAL_NUMBER, "deal number (default %(default)s)", "N")
TIMELINE = Shared("--timeline", argtypes.output_file, "draw who sent what when, as a PNG", "FILE.png")
COMPACT = Shared("--compact", None, "punch the game as compact cards when it is written")
PLAIN = Shared("--plain", None,
               "print the layout after each move instead of the full-screen board (the default when "
               "standard input or output is not a terminal)")
SAVE = Shared("--save", argtypes.output_file, "write the game as a punched deck when it ends", "DECK")
DURATION = Shared("--duration", argtypes.NON_NEGATIVE,
                  "stop after this many seconds (default: run until interrupted)", "SECONDS")


CONTRADICTIONS: tuple[tuple[str, str], ...] = (
    ("--force", "--resume"),          # replace the deck received vs. go on with an interrupted one
    ("--hopper", "--force"),          # a hopper deck takes the next number: it replaces nothing
    ("--fast", "--propagation"),      # the line's delay is added only when paced
    ("DECK", "--follow"),             # a deck file to send vs. a file followed as it is punched
    ("DECK", "--idle"),               # --idle ends a followed deck; a deck file ends at its end
    ("--printer", "--punch-format"),  # the punch file's format, where the output is printed
)
"""Pairs of options that contradict each other, refused together by every command that has both
(:func:`refuse_contradictions`): a flag or metavar on the left, one on the right."""


def refuse_contradictions(parser: argparse.ArgumentParser) -> None:
    """Refuse each pair of :data:`CONTRADICTIONS` that ``parser`` has, when the arguments are parsed,
    before any work: argparse's own check of a mutually exclusive group (``argument --resume: not
    allowed with argument --force``, one line, exit status 2), made of options that shared helpers
    added in different places.  argparse counts an option as given when its value is not its default
    object; a text default is made an object of its own (:class:`_Default`), so that an option given
    its default's value (``--punch-format ebcdic``) counts as given too."""
    named = {name: action for action in parser._actions
             for name in (*action.option_strings, action.metavar) if isinstance(name, str)}
    for pair in CONTRADICTIONS:
        if all(name in named for name in pair):
            actions = [named[name] for name in pair]
            assert not any(a.required for a in actions), f"{pair}: a required option cannot be refused"
            for action in actions:
                if type(action.default) is str:
                    action.default = _Default(action.default)
            parser.add_mutually_exclusive_group()._group_actions.extend(actions)


def refuse_contradictions_under(parser: argparse.ArgumentParser) -> None:
    """:func:`refuse_contradictions` on ``parser`` and on every command and action parser under it
    that is built, once each (a command's parser is built when it is first parsed)."""
    if getattr(parser, "_contradictions_refused", False):
        return
    refuse_contradictions(parser)
    parser._contradictions_refused = True  # type: ignore[attr-defined]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in dict.fromkeys(action.choices.values()):  # aliases: one parser
                if command is not None:                           # listed, not built yet
                    refuse_contradictions_under(command)


def check_when_parsed(parser: argparse.ArgumentParser,
                      check: Callable[[argparse.Namespace], str | None]) -> None:
    """Have ``parser`` refuse, when its arguments are parsed and before any work, what ``check``
    finds wrong in them: the text it returns, as an error of argparse's own (one line, exit status
    2; :class:`ibm1013.cli.main.Parser` runs the checks).  For a rule that ties several options
    together, which no one option's type can see (``send --follow FILE --format art``)."""
    parser.checks_when_parsed.append(check)  # type: ignore[attr-defined]  # every parser is a Parser


class _Default(str):
    """A text default that is no other string: a value parsed from the command line never is it
    (argparse turns it into a value of the option's type when the option is not given)."""

    __slots__ = ()

