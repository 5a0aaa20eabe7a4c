"""Deck files: one module per format, each a streaming reader and writer of cards.

A format module defines a :class:`DeckFormat` and registers it here.  Readers take a binary stream
and yield :class:`~emulator.card.Card` objects one by one (a 10 GB deck never sits in memory);
writers take any iterable of cards.  Where a format has a fast whole-chunk path (numpy arrays of
column words), the module offers it as ``read_arrays``/``write_arrays`` for the benchmarks and bulk
conversion.  Byte layouts: ``docs/cards.md`` §3, and each format's module, after SIMH 4.x
``sim_card.c``, simh 3.8.1, Hercules ``cardrdr.c`` and bsd ``bcd``.

``detect`` picks the format of a file from its first card, with the tests SIMH 4.x's AUTO mode
applies to each card (``sim_card.c``, ``_sim_parse_card``): the BIN test (160 bytes there, every even
byte with a clear low nibble), then the CBN test (a record mark on byte 0 and 160 bytes of odd
parity), which runs *after* the BIN test and wins when both pass; else text.  We try CBN first,
which comes to the same, then BIN, then our ASCII-art drawings, then text.  SIMH counts those 160
bytes from the card's start across any record marks, so a short first CBN card is CBN when the
cards after it are.  Two deliberate differences:

* SIMH's BIN test also passes 160 bytes of plain text whose even bytes have a clear low nibble —
  81 blank cards as SIMH itself punches them (lines of one space) read as a binary card.  As the IBM
  1130 simulator does, we take such a head for BIN only if it holds a byte that is not printable
  ASCII, TAB, CR or LF (a BIN deck of all-text bytes must be named: ``--format bin``).
* Lone end-of-file bytes (0x8F) before or between CBN cards are allowed (SIMH's parity count fails
  on them).

SIMH decides anew for every card, so it can read a file whose cards change format; we decide once,
from the first card, and read the whole file in that format.  Name the format to override
detection.

The end-of-file marker card (:data:`~emulator.card.EOF_CARD`) passes through the streams; formats
that can hold it (``text``, ``cbn``) write it back, the others refuse it with a clear error.
"""

from __future__ import annotations

import io
import os

from emulator.record import Record
from emulator.registry import Registry

TYPE_CHECKING = False  # typing is not imported at run time: every command reading a deck comes here
if TYPE_CHECKING:  # nor emulator.card: a small deck is decoded as column words, with no Card
    from collections.abc import Callable, Iterable, Iterator, Mapping
    from typing import BinaryIO

    import numpy as np

    from emulator.card import Card

HEAD_BYTES = 512
"""How much of a deck ``read_deck`` looks at to detect its format."""


class DeckFormat(Record):
    """A deck file format (frozen: a :class:`~emulator.record.Record`, not a dataclass, whose import
    is slow).

    ``read(stream, code=..., lenient=..., source=..., substitutions=...)`` yields cards;
    ``write(cards, stream, code=..., lenient=..., substitutions=...)`` writes them.  Every reader and
    writer takes all of these keywords (and ignores those it has no use for, such as ``raw`` meant
    for text), so one set of options works for any format; ``substitutions`` counts what
    ``lenient`` replaced.  ``sniff(head)`` says whether the first bytes look like this format
    (``None`` if the format is never auto-detected).  ``textual`` formats go through a character
    code; binary ones carry the holes themselves.

    ``read_arrays``/``write_arrays`` (optional) are the same over chunks of cards as deck arrays
    (:mod:`emulator.deck`), for bulk work without a Python object per card.  A format that has them
    is built with :meth:`from_arrays`, which makes its card reader and writer out of them.
    """

    name: str
    description: str
    extensions: tuple[str, ...]
    read: Callable[..., Iterator[Card]]
    write: Callable[..., None]
    sniff: Callable[[bytes], bool] | None
    textual: bool
    read_arrays: Callable[..., Iterator[np.ndarray]] | None
    write_arrays: Callable[..., None] | None
    characters: Mapping[str, int] | None
    """For a text file read a character a column through one fixed table (simh 3.8's decks): the
    punches of each character.  A deck detected as text that such a format punches otherwise is
    refused (:mod:`emulator.formats.ambiguity`)."""
    _fields = ("name", "description", "extensions", "read", "write", "sniff", "textual", "read_arrays",
               "write_arrays", "characters")

    def __init__(self, name: str, description: str, extensions: tuple[str, ...],
                 read: Callable[..., Iterator[Card]], write: Callable[..., None],
                 sniff: Callable[[bytes], bool] | None = None, textual: bool = False,
                 read_arrays: Callable[..., Iterator[np.ndarray]] | None = None,
                 write_arrays: Callable[..., None] | None = None,
                 characters: Mapping[str, int] | None = None) -> None:
        self._set(name=name, description=description, extensions=extensions, read=read, write=write,
                  sniff=sniff, textual=textual, read_arrays=read_arrays, write_arrays=write_arrays,
                  characters=characters)

    @classmethod
    def from_arrays(
        cls, *, read_arrays: Callable[..., Iterator[np.ndarray]], write_arrays: Callable[..., None],
        name: str, description: str, extensions: tuple[str, ...],
        sniff: Callable[[bytes], bool] | None = None, textual: bool = False,
    ) -> DeckFormat:
        """A format whose card ``read``/``write`` go through its deck-array reader and writer.

        The other arguments are the format's other fields.
        """
        from emulator.deck import batched, iter_cards

        def read(stream: BinaryIO, **options: object) -> Iterator[Card]:
            return iter_cards(read_arrays(stream, **options))

        def write(cards: Iterable[Card], stream: BinaryIO, **options: object) -> None:
            write_arrays(batched(cards), stream, **options)

        return cls(name=name, description=description, extensions=extensions, read=read, write=write,
                   sniff=sniff, textual=textual, read_arrays=read_arrays, write_arrays=write_arrays)


_FORMATS: Registry[DeckFormat] = Registry(__name__, "deck format")

FORMAT_NAMES: tuple[str, ...] = ("art", "bin", "cbn", "ebcdic", "i1401", "i1401-cbn", "i7094", "i7094-cbn",
                                 "rowbin", "text")
"""The names the format modules register, as :func:`format_names` gives them, written out so that the
command line can offer them without importing the modules (and numpy); tests/test_registry.py checks
that the two agree."""

DETECT_ORDER: tuple[str, ...] = ("cbn", "bin", "art", "text")
"""Order in which ``detect`` tries formats: SIMH AUTO's CBN test wins over its BIN test, so CBN comes
first; we try our ASCII-art drawings (a line of underscores, then a `/` line) before falling back to
text."""


def register(fmt: DeckFormat) -> DeckFormat:
    """Add a format to the registry (each format module calls this when imported)."""
    return _FORMATS.add(fmt)


def get_format(name: str) -> DeckFormat:
    """The format called ``name``; a clear error if there is none."""
    return _FORMATS.get(name)


def format_names() -> list[str]:
    """Names of all formats, sorted."""
    return _FORMATS.names()


def output_format(path: str, given: str | None = None, default: str = "cbn") -> str:
    """The format to write ``path`` in: ``given`` when one is named (not ``auto``), else the format
    whose extension ``path`` has, else ``default``."""
    if given and given != "auto":
        return get_format(given).name
    ext = os.path.splitext(path)[1].lower()
    for name in format_names():
        if ext and ext in (e.lower() for e in get_format(name).extensions):
            return name
    return default


def detect(head: bytes) -> DeckFormat:
    """The format whose ``sniff`` accepts ``head`` (the first bytes of a file) first, in
    :data:`DETECT_ORDER`; text if none does."""
    for name in DETECT_ORDER:
        fmt = _FORMATS.find(name)
        if fmt is not None and fmt.sniff is not None and fmt.sniff(head):
            return fmt
    return get_format("text")


def _read_head(stream: BinaryIO) -> bytes:
    head = b""
    while len(head) < HEAD_BYTES:
        data = stream.read(HEAD_BYTES - len(head))
        if not data:
            break
        head += data
    return head


def read_to_end(deck: BinaryIO) -> None:
    """For a deck opened by :func:`open_deck` that a command stops reading before its end (``cards
    show --card 3``): the rest of its bytes, read and dropped while another text format's reading is
    still watched, so that ``other_reading`` is told what it is told of a deck read whole.  Any
    other deck is left as it is (nothing is read)."""
    from emulator.formats._streams import Watched

    raw = getattr(deck, "raw", None)
    if isinstance(raw, Watched):
        while raw.watching and deck.read(1 << 16):
            pass


def open_deck(stream: BinaryIO, fmt: str = "auto", *, code: str | None = None,
              other_reading: Callable[[str], None] | None = None) -> tuple[DeckFormat, BinaryIO]:
    """The format of ``stream`` (detected from its first bytes if ``fmt`` is ``auto``) and a stream
    that reads the deck from its start (the bytes looked at are replayed).  ``other_reading``: told,
    at the end of a deck detected as text (read in ``code``), the one line to say when another text
    format reads it with other punches (:mod:`emulator.formats.ambiguity`)."""
    if fmt != "auto":
        return get_format(fmt), stream
    from emulator.formats._streams import Peeked, Watched

    head = _read_head(stream)
    found, raw = detect(head), Peeked(head, stream)
    if found.name == "text" and other_reading is not None:
        from emulator.formats.ambiguity import OtherReadings, character_formats

        raw = Watched(raw, OtherReadings(code, character_formats()), other_reading)  # type: ignore[assignment]
    return found, io.BufferedReader(raw, buffer_size=1 << 16)


def read_deck(
    stream: BinaryIO, fmt: str = "auto", *, code: str = "029", lenient: bool = False,
    source: str | None = None, other_reading: Callable[[str], None] | None = None, **options: object,
) -> Iterator[Card]:
    """Cards from ``stream`` in format ``fmt`` (``auto`` detects it from the first bytes).

    ``options`` (e.g. ``substitutions``) go to the format's reader.  Errors name ``source``, the
    card and the column.  ``other_reading``: see :func:`open_deck`.
    """
    deck_format, deck = open_deck(stream, fmt, code=code, other_reading=other_reading)
    return deck_format.read(deck, code=code, lenient=lenient, source=source, **options)


def read_deck_arrays(
    stream: BinaryIO, fmt: str = "auto", *, code: str = "029", lenient: bool = False,
    source: str | None = None, other_reading: Callable[[str], None] | None = None, **options: object,
) -> tuple[DeckFormat, Iterator[np.ndarray]]:
    """Like :func:`read_deck` but chunks of deck arrays, and the format that was read."""
    deck_format, deck = open_deck(stream, fmt, code=code, other_reading=other_reading)
    return deck_format, arrays_of(deck_format, deck, code=code, lenient=lenient, source=source, **options)


def arrays_of(deck_format: DeckFormat, deck: BinaryIO, **options: object) -> Iterator[np.ndarray]:
    """The cards of ``deck`` (opened by :func:`open_deck`) in chunks of deck arrays, through the
    format's array reader or else its card reader."""
    from emulator.deck import batched

    if deck_format.read_arrays is not None:
        return deck_format.read_arrays(deck, **options)
    return batched(deck_format.read(deck, **options))


def write_deck_arrays(
    arrays: Iterable[np.ndarray], stream: BinaryIO, fmt: str, *, code: str = "029", **options: object,
) -> None:
    """Write chunks of deck arrays in format ``fmt`` (through cards if it has no array writer)."""
    from emulator.deck import iter_cards

    deck_format = get_format(fmt)
    if deck_format.write_arrays is not None:
        deck_format.write_arrays(arrays, stream, code=code, **options)
    else:
        deck_format.write(iter_cards(arrays), stream, code=code, **options)


def write_deck(
    cards: Iterable[Card], stream: BinaryIO, fmt: str, *, code: str = "029", **options: object,
) -> None:
    """Write ``cards`` to ``stream`` in format ``fmt`` (``options`` such as ``lenient`` go to it)."""
    get_format(fmt).write(cards, stream, code=code, **options)
