"""SIMH 4.x ``BIN`` decks (the IBM 1130 binary card image): 160 bytes per card.

Each column is the 12-bit column word shifted left four bits and stored as a little-endian 16-bit
word (``docs/cards.md`` §3): the first byte holds rows 6, 7, 8, 9 in bits
7–4 and zero in its low nibble, the second rows 12, 11, 0, 1, 2, 3, 4, 5 in bits 7–0.  ``H`` (12-8)
is ``20 80``.  There is no end-of-file card and no record mark, so:

* a file whose length is not a multiple of 160 ends in a short card — an error naming the card
  (``lenient`` pads it with blank columns, as the 1130 simulator does);
* a non-zero low nibble means the file is not a BIN deck — an error naming card and column
  (``lenient`` ignores those bits);
* the writer writes only whole records and refuses the EOF marker card.

SIMH's AUTO mode takes a card for BIN when 160 bytes are there and every even byte has a clear low
nibble; :func:`sniff` also wants a byte that could not be in a text file, as the IBM 1130 simulator
does (else 81 blank lines of text, one space each, would be a binary card).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import BinaryIO

import numpy as np

from emulator.card import COLUMNS
from emulator.deck import WORD_MASK, eof_rows, first_true
from emulator.errors import FormatError
from emulator.formats import DeckFormat, register
from emulator.formats._records import record_chunks

RECORD = 2 * COLUMNS


_TEXT_BYTES = frozenset(range(0x20, 0x7F)) | {0x09, 0x0A, 0x0D}
"""Printable ASCII, TAB, LF and CR: what a plain text file is made of."""


def sniff(head: bytes) -> bool:
    """SIMH AUTO's BIN test — a whole record whose even bytes all have a zero low nibble — and at
    least one byte in it that is not text."""
    record = head[:RECORD]
    return (len(record) == RECORD and not any(b & 0x0F for b in record[0::2])
            and not set(record) <= _TEXT_BYTES)


def decode_records(data: bytes, *, first_card: int = 1, lenient: bool = False,
                   source: str | None = None) -> np.ndarray:
    """Deck array of whole 160-byte records."""
    pairs = np.frombuffer(data, dtype="<u2").reshape(-1, COLUMNS)
    if not lenient:
        bad = (pairs & 0x000F) != 0
        if bad.any():
            card, col = first_true(bad)
            raise FormatError(
                f"column word {int(pairs[card, col]):#06x} has bits in its low nibble (not a BIN deck?)",
                card=first_card + card, column=col + 1, source=source,
            )
    return (pairs >> 4).astype(np.uint16)


def read_arrays(stream: BinaryIO, *, lenient: bool = False, source: str | None = None,
                **_: object) -> Iterator[np.ndarray]:
    """Deck arrays of a BIN deck, chunk by chunk."""
    card = 1
    for chunk in record_chunks(stream, RECORD):
        whole, extra = divmod(len(chunk), RECORD)
        words = decode_records(chunk[: whole * RECORD], first_card=card, lenient=lenient, source=source)
        if extra:  # errors in the whole cards before it come first
            if not lenient:
                raise FormatError(
                    f"short last card: {extra} of {RECORD} bytes (BIN decks have whole records)",
                    card=card + whole, source=source,
                )
            tail = decode_records(chunk[whole * RECORD :] + bytes(RECORD - extra), lenient=True)
            words = np.concatenate([words, tail])
        card += len(words)
        yield words


def encode_array(words: np.ndarray, *, first_card: int = 1) -> bytes:
    """The 160-byte records of a deck array (which must hold no EOF marker)."""
    eof = eof_rows(words)
    if eof.any():
        raise FormatError("a BIN deck cannot hold an end-of-file card", card=first_card + first_true(eof)[0])
    return ((words & WORD_MASK) << 4).astype("<u2").tobytes()


def write_arrays(arrays: Iterable[np.ndarray], stream: BinaryIO, **_: object) -> None:
    """Write deck arrays as BIN records."""
    card = 1
    for words in arrays:
        stream.write(encode_array(words, first_card=card))
        card += len(words)


FORMAT = register(
    DeckFormat.from_arrays(
        name="bin",
        description="SIMH 4.x / IBM 1130 binary deck: 160 bytes per card, little-endian column<<4",
        extensions=(".bin",),
        sniff=sniff,
        read_arrays=read_arrays,
        write_arrays=write_arrays,
    )
)
