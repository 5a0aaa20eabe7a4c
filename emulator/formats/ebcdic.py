"""EBCDIC decks: 80 bytes per card, one EBCDIC byte per column, as Hercules reads and punches them.

Each byte stands for the punches of §2 of ``docs/cards.md`` (the EBCDIC card
code; :data:`emulator.codes.ibm029.EBCDIC_TO_WORD`): ``H`` is ``C8``, a blank column ``40``.  SIMH
4.x ``-F EBCDIC`` uses the same records.

* Reading: every byte is a valid column.  A file whose length is not a multiple of 80 ends in a
  short card: an error naming the card (Hercules: unit check), or with ``lenient`` the card is padded
  with blank columns (Hercules ``autopad`` pads with 0x00 instead, which is 12-0-1-8-9).
* Writing: a column with two or more of rows 1–7 has no EBCDIC byte — an error naming card and
  column, or with ``lenient`` the byte for ``?`` (6F), counted in ``substitutions``.  There is no
  end-of-file card.  The format is never auto-detected (any bytes are a valid deck).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import BinaryIO

import numpy as np

from emulator.card import COLUMNS, word_to_punches
from emulator.codes import Substitutions
from emulator.codes.ibm029 import EBCDIC_TO_WORD, WORD_TO_EBCDIC
from emulator.deck import eof_rows, first_true, lookup
from emulator.errors import CardError, FormatError
from emulator.formats import DeckFormat, register
from emulator.formats._records import record_chunks

RECORD = COLUMNS
BLANK_BYTE = 0x40
SUBSTITUTE_BYTE = 0x6F
"""EBCDIC ``?``, written for a column that has no EBCDIC byte when ``lenient``."""

WORD_OF_BYTE = np.array(EBCDIC_TO_WORD, dtype=np.uint16)
BYTE_OF_WORD = np.full(4096, -1, dtype=np.int16)
BYTE_OF_WORD[list(WORD_TO_EBCDIC)] = list(WORD_TO_EBCDIC.values())



def read_arrays(stream: BinaryIO, *, lenient: bool = False, source: str | None = None,
                **_: object) -> Iterator[np.ndarray]:
    """Deck arrays of an EBCDIC deck, chunk by chunk."""
    card = 1
    for chunk in record_chunks(stream, RECORD):
        whole, extra = divmod(len(chunk), RECORD)
        if extra:
            if not lenient:
                raise FormatError(
                    f"short last card: {extra} of {RECORD} bytes", card=card + whole, source=source
                )
            chunk += bytes([BLANK_BYTE]) * (RECORD - extra)
            whole += 1
        yield lookup(WORD_OF_BYTE, np.frombuffer(chunk, dtype=np.uint8).reshape(-1, RECORD))
        card += whole


def encode_array(words: np.ndarray, *, first_card: int = 1, lenient: bool = False,
                 substitutions: Substitutions | None = None) -> memoryview:
    """The 80-byte records of a deck array."""
    eof = eof_rows(words)
    if eof.any():
        raise FormatError(
            "an EBCDIC deck cannot hold an end-of-file card", card=first_card + first_true(eof)[0]
        )
    out = lookup(BYTE_OF_WORD, words)
    if out.size and out.min() < 0:
        bad = out < 0
        card, col = first_true(bad)
        if not lenient:
            raise CardError(
                f"punches {word_to_punches(int(words[card, col]))} are not in the EBCDIC card code",
                card=first_card + card, column=col + 1,
            )
        if substitutions is not None:
            for card, col in np.argwhere(bad).tolist():
                substitutions.add(col + 1, first_card + card)
        out[bad] = SUBSTITUTE_BYTE
    return out.astype(np.uint8).reshape(-1).data


def write_arrays(arrays: Iterable[np.ndarray], stream: BinaryIO, *, lenient: bool = False,
                 substitutions: Substitutions | None = None, **_: object) -> None:
    """Write deck arrays as EBCDIC records."""
    card = 1
    for words in arrays:
        stream.write(encode_array(words, first_card=card, lenient=lenient, substitutions=substitutions))
        card += len(words)


FORMAT = register(
    DeckFormat.from_arrays(
        name="ebcdic",
        description="EBCDIC card images: 80 bytes per card (Hercules, SIMH -F EBCDIC)",
        extensions=(".ebcdic", ".ebc"),
        read_arrays=read_arrays,
        write_arrays=write_arrays,
    )
)
