"""Argument types that check a value when the command line is parsed, before any work starts.

argparse calls an option's ``type`` on the text the user gave; when it raises
:class:`argparse.ArgumentTypeError` the parser stops with one line naming the option
(``ibm1013: simulate: argument --turnaround: must be a number >= 0, not -1``) and exit status 2.
So a bad value never costs a long simulation first, and nothing is written.

* Numbers (:class:`Number`): finite only (``nan``, ``inf`` and ``-inf`` are refused), within a range.
  Ready-made: :data:`NON_NEGATIVE`, :data:`POSITIVE`, :data:`PROBABILITY`, :data:`SEED`,
  :data:`COUNT`, :data:`POSITIVE_INT`, :data:`DEAL_NUMBER`.
* Output paths (:func:`output_file`, :func:`output_directory`): the place must exist, be a directory
  we can create files in, have space left, and the target must not be a directory or a device.
* Names, refused in argparse's words for a bad choice: :func:`deck_format`,
  :func:`deck_format_or_auto`, :func:`card_code`, :func:`game` (aliases are accepted too).
* Domain values: :func:`burst` (Gilbert-Elliott parameters), :func:`columns` (a column layout),
  :func:`deck_label` (the 4-character label of a punched game deck).
* Card-room specs, parsed into their values (:mod:`emulator.deckops.fields`): :data:`card_field`
  (``73-80``), :data:`card_ranges` (``10-20,40-``), :data:`field_text` (``73-76=PROG``),
  :data:`copy_wire` (``1-10:71-80``), :data:`punched_holes` (``80:12``).
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable

from emulator.codes import CODE_NAMES
from emulator.errors import IbmError
from emulator.formats import FORMAT_NAMES

TYPE_CHECKING = False  # typing is not imported at run time: every command reading a deck comes here
if TYPE_CHECKING:
    from typing import Any, TypeVar

    from ibm1013.str.layout import ColumnLayout

    Value = TypeVar("Value")

# The tables behind these types (codes, formats, games, layouts) are imported when a value is
# checked, not here: ``ibm1013 --help`` must not pay for numpy (see tests/test_startup.py).


class Number:
    """An argparse type for a finite ``int`` or ``float`` between ``low`` and ``high``.

    ``above=True`` makes ``low`` itself invalid (``> low`` instead of ``>= low``).  The attributes are
    public so that a test walking the parser can feed each numeric option a value out of range.
    """

    def __init__(self, kind: type[int] | type[float], low: float | None = None, high: float | None = None, *,
                 above: bool = False) -> None:
        self.kind, self.low, self.high, self.above = kind, low, high, above
        self.__name__ = kind.__name__  # argparse names the type in some messages

    def describe(self) -> str:
        """The rule in words: ``a number >= 0``, ``a whole number from 1 to 80`` …"""
        noun = "a whole number" if self.kind is int else "a number"
        low, high = (None if v is None else str(v) if self.kind is int else f"{v:g}"
                     for v in (self.low, self.high))  # a whole number in full: 9223372036854775807
        if low is not None and high is not None and not self.above:
            return f"{noun} from {low} to {high}"
        parts = []
        if low is not None:
            parts.append(f"{'>' if self.above else '>='} {low}")
        if high is not None:
            parts.append(f"<= {high}")
        return " ".join([noun, " and ".join(parts)]).strip()

    def __call__(self, text: str) -> int | float:
        try:
            value = self.kind(text)
        except (TypeError, ValueError):
            raise argparse.ArgumentTypeError(f"must be {self.describe()}, not {text!r}") from None
        if not math.isfinite(value) or not self._inside(value):
            raise argparse.ArgumentTypeError(f"must be {self.describe()}, not {text!r}")
        return value

    def _inside(self, value: float) -> bool:
        if self.low is not None and (value <= self.low if self.above else value < self.low):
            return False
        return self.high is None or value <= self.high

    def __repr__(self) -> str:
        return f"Number({self.describe()})"


NON_NEGATIVE = Number(float, 0)
"""Seconds and other amounts that may be zero: a finite float >= 0."""
POSITIVE = Number(float, 0, above=True)
"""A finite float > 0 (a timeout, a duration that must pass)."""
PROBABILITY = Number(float, 0, 1)
"""A chance or rate: a float from 0 to 1 (bit error rate, drop rate)."""
SEED = Number(int, 0, 2**63 - 1)
"""A random seed: a whole number from 0 to 2^63 − 1."""
COUNT = Number(int, 0)
"""How many of something, zero allowed."""
POSITIVE_INT = Number(int, 1)
"""A whole number from 1 up (a card number, a node limit, a baud rate)."""
MAX_BIT_RATE = 99_999
"""The fastest line a command takes, in bit/s."""
BIT_RATE = Number(int, 1, MAX_BIT_RATE)
"""A line's speed in bit/s, on every command that has a line (the simulated one too; ``line`` takes
0 as well, for unpaced): a whole number up to 99,999, which the resume handshake names in five
digits.  The model's timing is arithmetic on it (characters per second = bit rate / 8)."""
DEAL_NUMBER = Number(int, 1, 2**63 - 1)
"""A deal number, as :func:`decks.deals.check_deal_number` accepts them (1 … 2^63 − 1)."""


def integer(low: int | None = None, high: int | None = None) -> Number:
    """A whole number from ``low`` to ``high`` (either bound may be left open)."""
    return Number(int, low, high)


def number(low: float | None = None, high: float | None = None, *, above: bool = False) -> Number:
    """A finite float from ``low`` (or above it) to ``high``."""
    return Number(float, low, high, above=above)


# --------------------------------------------------------------------------------------------------
# output paths
# --------------------------------------------------------------------------------------------------
def _check_writable_directory(directory: str) -> None:
    """Create (and remove) a scratch file in ``directory``: the honest test, also as root and on a
    read-only mount, where permission bits say nothing; then check there is space left."""
    import tempfile  # here: only a command writing a file pays for it (it imports random, shutil)

    try:
        fd, probe = tempfile.mkstemp(prefix=".~ibm1013-check.", dir=directory)
    except OSError as err:
        raise argparse.ArgumentTypeError(f"cannot create files in {directory}: {err.strerror}") from None
    os.close(fd)
    os.unlink(probe)
    fs = os.statvfs(directory)
    free = fs.f_bfree if os.geteuid() == 0 else fs.f_bavail  # root may use the reserved blocks
    if free == 0:
        raise argparse.ArgumentTypeError(f"no space left on the device of {directory}")


def output_file(text: str) -> str:
    """A file to write (atomically, see :mod:`emulator.atomic`), or ``-`` for standard output.

    Refused: an empty name, a directory, an existing device or pipe (a rename would replace it), a
    missing directory, one we cannot create files in, and a full file system.
    """
    if text == "-":
        return text
    if not text:
        raise argparse.ArgumentTypeError("an empty file name")
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text} is a directory")
    if os.path.lexists(text) and not os.path.isfile(text):
        raise argparse.ArgumentTypeError(f"{text} exists and is not a regular file (for standard output "
                                         "write '-')")
    directory = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(directory):
        why = "not a directory:" if os.path.exists(directory) else "no such directory"
        raise argparse.ArgumentTypeError(f"{text}: {why} {directory}")
    _check_writable_directory(directory)
    return text


def deck_file(text: str) -> str:
    """A deck file to read, or ``-`` for standard input.  Every argument that names a deck to read (a
    positional DECK, or an option: ``play --load DECK``) has this type
    (:func:`ibm1013.cli.options.add_deck`): it is how the contract tests find every command that
    reads a deck, and each reads it through :func:`ibm1013.cli.deckfiles.reading`."""
    if not text:
        raise argparse.ArgumentTypeError("an empty file name (for standard input write '-')")
    return text


def log_file(text: str) -> str:
    """A log written line by line as things happen (``--trace``): an :func:`output_file`, but not
    ``-``, since standard output carries the command's own report."""
    if text == "-":
        raise argparse.ArgumentTypeError("a file name, not '-' (standard output carries the report)")
    return output_file(text)


def receive_output(text: str) -> str:
    """What ``receive -o`` writes: a deck file (:func:`output_file`, not ``-``) or a Hercules card
    reader ``sockdev://HOST:PORT`` (the port from 1 to 65535)."""
    from emulator.sockdev import SCHEME

    return sockdev(text) if text.startswith(SCHEME) else output_file(text)


def sockdev(text: str) -> str:
    """A Hercules socket device ``sockdev://HOST:PORT`` (the port from 1 to 65535)."""
    from emulator.sockdev import parse_address

    try:
        parse_address(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return text


def follow_source(text: str) -> str:
    """What ``send --follow`` reads: a punch file, or a Hercules printer ``sockdev://HOST:PORT``."""
    from emulator.sockdev import SCHEME

    return sockdev(text) if text.startswith(SCHEME) else text


def output_directory(text: str) -> str:
    """A directory to write files into; it is created later if missing, so its nearest existing
    ancestor must be a directory we can create files in."""
    if not text:
        raise argparse.ArgumentTypeError("an empty directory name")
    if os.path.exists(text) and not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text} exists and is not a directory")
    existing = os.path.abspath(text)
    while not os.path.exists(existing):
        existing = os.path.dirname(existing)
    if not os.path.isdir(existing):
        raise argparse.ArgumentTypeError(f"{text}: {existing} is not a directory")
    _check_writable_directory(existing)
    return text


# --------------------------------------------------------------------------------------------------
# domain values
# --------------------------------------------------------------------------------------------------
def _from_value_error(parse: Callable[[str], Any]) -> Callable[[str], str]:
    """An argparse type that checks ``text`` with ``parse`` (raising ValueError) and keeps the text."""

    def check(text: str) -> str:
        try:
            parse(text)
        except ValueError as err:  # CardError is a ValueError too
            raise argparse.ArgumentTypeError(str(err)) from None
        return text

    check.__name__ = parse.__name__
    return check


def parse_burst(text: str) -> tuple[float, float, float]:
    from emulator.noise import parse_burst

    return parse_burst(text)


def column_layout(text: str) -> ColumnLayout:
    from ibm1013.str.layout import ColumnLayout

    return ColumnLayout.parse(text)


columns = _from_value_error(column_layout)
"""``N``, ``auto`` or a mask like ``1-20,41-60`` (see :class:`ibm1013.str.layout.ColumnLayout`)."""


def _parsed(parse: Callable[[str], Any], name: str) -> Callable[[str], Any]:
    """An argparse type that returns what ``parse`` makes of the text (a ValueError refuses it)."""

    def check(text: str) -> Any:
        try:
            return parse(text)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    check.__name__ = name
    return check


def _card_room() -> Any:
    from emulator.deckops import fields

    return fields


card_field = _parsed(lambda text: _card_room().Field.parse(text), "column field")
"""Columns ``73-80`` or one column ``5``, within 1-80."""
card_ranges = _parsed(lambda text: _card_room().CardRanges.parse(text), "card numbers")
"""Card numbers ``10-20,40-``."""
field_text = _parsed(lambda text: _card_room().field_value(text), "COLS=TEXT")
"""``73-76=PROG``: a field and the text that fills it."""
copy_wire = _parsed(lambda text: _card_room().copy_spec(text), "FROM:TO")
"""``1-10:71-80``: two fields of one width."""
punched_holes = _parsed(lambda text: _card_room().parse_punched(text), "COL:ROWS")
"""``80:12``: a column and the holes it must have."""


def deck_label(text: str) -> str:
    """The label punched in columns 73-76 of a game deck: 4 characters the 1013 sends faithfully."""
    from decks.records import LABEL_WIDTH, SAFE_CHARACTERS

    label = text.upper()
    if len(label) != LABEL_WIDTH:
        raise argparse.ArgumentTypeError(f"must be {LABEL_WIDTH} characters, not {len(label)} ({text!r})")
    bad = sorted({ch for ch in label if ch not in SAFE_CHARACTERS})
    if bad:
        raise argparse.ArgumentTypeError(f"{text!r}: {''.join(bad)!r} cannot be punched in a deck label")
    return label


def _choice(kind: str, names: Callable[[], list[str]], lookup: Callable[[str], Any]) -> Callable[[str], str]:
    """An argparse type for a name ``lookup`` knows (aliases too), refused in argparse's own words for a
    bad choice, so every bad choice reads alike whether the parser or a type caught it."""

    def check(text: str) -> str:
        try:
            lookup(text)
        except (ValueError, IbmError):
            raise argparse.ArgumentTypeError(
                f"invalid choice: {text!r} (choose from {', '.join(map(repr, names()))})") from None
        return text

    check.__name__ = kind
    check.names = names  # type: ignore[attr-defined]  # for shell completion (ibm1013.cli.shell)
    return check


def _get_format(name: str) -> Any:
    """A format's name, checked against :data:`~emulator.formats.FORMAT_NAMES` (the registry's names,
    exactly: tests/test_registry.py) without importing the formats, and numpy with them."""
    if name not in FORMAT_NAMES:
        raise ValueError(name)
    return name


def _get_code(name: str) -> Any:
    from emulator.codes import get_code

    return get_code(name)


deck_format = _choice("deck format", lambda: list(FORMAT_NAMES), _get_format)
"""A deck format's name (``cbn``, ``text`` …; see ``ibm1013 cards -h``)."""
deck_format_or_auto = _choice("deck format", lambda: ["auto", *FORMAT_NAMES],
                              lambda name: name == "auto" or _get_format(name))
"""A deck format's name, or ``auto`` (detect it as SIMH does)."""
card_code = _choice("card code", lambda: list(CODE_NAMES), _get_code)
"""A card code's name or alias (``029``, ``026-fortran`` …)."""


def _game_names() -> list[str]:
    from decks.engine import game_names

    return list(game_names())


def _get_game(name: str) -> Any:
    from decks.engine import get_game

    return get_game(name)


game = _choice("game", _game_names, _get_game)
"""A solitaire game's name (see ``ibm1013 games``)."""


# --------------------------------------------------------------------------------------------------
# choices, "none", and the comma lists of a sweep
# --------------------------------------------------------------------------------------------------
def one_of(*names: str) -> Callable[[str], str]:
    """A choice among ``names``, as a type (so a comma list of them can be built, :class:`ListOf`),
    refused in argparse's words for a bad choice."""

    def lookup(text: str) -> str:
        if text not in names:
            raise ValueError(text)
        return text

    return _choice("choice", lambda: list(names), lookup)


def or_none(item: Callable[[str], Value]) -> Callable[[str], Value | None]:
    """``none`` (None), or what ``item`` takes: a setting that may be off (``--cut-at none``)."""

    def check(text: str) -> Value | None:
        return None if text.strip() == "none" else item(text)

    check.__name__ = f"none or {getattr(item, '__name__', 'value')}"
    check.item = item  # type: ignore[attr-defined]  # for a test walking the parser
    return check


burst = _parsed(or_none(parse_burst), "burst")
"""``none`` (None) or ``P_GB,P_BG,BER_BAD``: three probabilities (see
:func:`emulator.noise.parse_burst`), returned as a tuple."""


class ListOf:
    """A comma list of what ``item`` takes (``--ber 0,1e-4,1e-3`` in a sweep), each value checked by
    the very type the single-valued option of the other commands has, so a bad value is refused in
    the same words (``argument --ber: must be a number from 0 to 1, not 'nan'``).  No item may be
    empty or given twice."""

    def __init__(self, item: Callable[[str], object]) -> None:
        self.item = item
        self.__name__ = f"list of {getattr(item, '__name__', 'value')}"

    def __call__(self, text: str) -> list[object]:
        items = [t.strip() for t in text.split(",")]
        if not all(items):
            raise argparse.ArgumentTypeError(f"an empty list or an empty item in {text!r}")
        values = [self.item(t) for t in items]
        first: dict[Any, int] = {}  # value -> where it first is (one look-up each: a long list is quick)
        for i, value in enumerate(values):
            if first.setdefault(value, i) != i:
                raise argparse.ArgumentTypeError(f"{items[i]} is given twice in {text!r}")
        return values


def column_layouts(text: str) -> list[str]:
    """One ``--columns`` value of a sweep: a comma list of ``N`` and ``auto``, or one mask written as
    in simulate (``1-20,41-60``: a value with a range is one mask; ``1-20+41-60`` is taken too).
    A mask is returned with ``+`` between its ranges, the form of the sweep's rows."""
    if "-" in text:
        return [columns(text.strip().replace("+", ",")).replace(",", "+")]
    return [str(layout) for layout in ListOf(columns)(text)]  # (each a str already: columns')


column_layouts.item = columns  # type: ignore[attr-defined]  # built from columns (a test checks it)
