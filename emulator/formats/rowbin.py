"""``rowbin``: IBM 7090/7094 row binary — a card as the 24 36-bit words the 7094 reads.

The 7090's card reader is wired row by row: each of the 12 rows of columns 1–72 becomes two 36-bit
words, **row 9 first** (columns 1–36, then 37–72), then row 8, … row 1, row 0, row 11 and last row
12.  Within a word the most significant bit is the leftmost column.  Columns 73–80 are not read at
all (``docs/cards.md`` §3; checked against simh 3.8 ``i7094`` in
``tests/test_interop_simh.py``).  A 7-9 punch in column 1 conventionally marks a binary card.

File layout (this library's choice; there is no standard file for it): each 36-bit word is stored
big-endian in **5 bytes** whose top four bits are zero, so a card is 24 × 5 = 120 bytes, and a word
reads in a hex dump as ``0`` plus nine hex digits.  A short last record, or a set top bit, is a
:class:`~emulator.errors.FormatError` (``lenient`` pads the record with zero bytes and ignores the
top bits).  Writing a card punched in columns 73–80 is a
:class:`~emulator.errors.CardError` unless ``lenient`` (then those columns are dropped).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import BinaryIO

from emulator.card import ROW_BIT, Card
from emulator.errors import FormatError
from emulator.formats import DeckFormat, register
from emulator.formats._records import read_exact
from emulator.formats._simh38 import check_columns

WORDS_PER_CARD = 24
BYTES_PER_WORD = 5
RECORD_BYTES = WORDS_PER_CARD * BYTES_PER_WORD
WORD_BITS = 36
READ_COLUMNS = 72
ROW_ORDER: tuple[int, ...] = (9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 11, 12)
"""Rows in the order the 7094 reads them, two words each."""


def card_to_row_words(card: Card) -> tuple[int, ...]:
    """The 24 row-binary words of ``card`` (columns 73–80 are ignored)."""
    words = []
    for row in ROW_ORDER:
        bit = ROW_BIT[row]
        for half in (0, 36):
            word = 0
            for col in range(half, half + WORD_BITS):
                word = (word << 1) | (1 if card[col] & bit else 0)
            words.append(word)
    return tuple(words)


def row_words_to_card(words: Iterable[int]) -> Card:
    """The card whose columns 1–72 the 24 row-binary ``words`` describe."""
    words = tuple(words)
    if len(words) != WORDS_PER_CARD:
        raise FormatError(f"a row-binary card is {WORDS_PER_CARD} words, not {len(words)}")
    columns = [0] * READ_COLUMNS
    for i, word in enumerate(words):
        if not 0 <= word < 1 << WORD_BITS:
            raise FormatError(f"row-binary word {i + 1} is not 36 bits: {word:o}")
        bit = ROW_BIT[ROW_ORDER[i // 2]]
        first = (i % 2) * WORD_BITS
        for k in range(WORD_BITS):
            if word >> (WORD_BITS - 1 - k) & 1:
                columns[first + k] |= bit
    return Card(columns)


def read(
    stream: BinaryIO, *, lenient: bool = False, source: str | None = None, **_: object,
) -> Iterator[Card]:
    """Cards of a row-binary file, 120 bytes each (``code`` is not used: the holes are the data)."""
    number = 0
    while True:
        record = read_exact(stream, RECORD_BYTES)  # a pipe may give less per read
        if not record:
            return
        number += 1
        if len(record) < RECORD_BYTES:
            if not lenient:
                raise FormatError(
                    f"short record: {len(record)} of {RECORD_BYTES} bytes", card=number, source=source
                )
            record = record.ljust(RECORD_BYTES, b"\0")
        words = []
        for i in range(WORDS_PER_CARD):
            chunk = record[i * BYTES_PER_WORD:(i + 1) * BYTES_PER_WORD]
            if lenient:
                chunk = bytes([chunk[0] & 0x0F]) + chunk[1:]
            elif chunk[0] & 0xF0:
                raise FormatError(
                    f"word {i + 1} has bits above 36 set (byte 0x{chunk[0]:02x})", card=number,
                    source=source,
                )
            words.append(int.from_bytes(chunk, "big"))
        yield row_words_to_card(words)


def write(cards: Iterable[Card], stream: BinaryIO, *, lenient: bool = False, **_: object) -> None:
    """Write each card as 24 words of 5 bytes; columns 73–80 must be blank unless ``lenient``."""
    for number, card in enumerate(cards, start=1):
        check_columns(card, READ_COLUMNS, number=number, lenient=lenient, what="7094 row binary")
        stream.write(b"".join(w.to_bytes(BYTES_PER_WORD, "big") for w in card_to_row_words(card)))


FORMAT = register(DeckFormat(
    name="rowbin",
    description="7090/7094 row binary: 24 x 36-bit words per card (rows 9..0, 11, 12), 5 bytes a word",
    extensions=(".rbn",),
    read=read,
    write=write,
))
