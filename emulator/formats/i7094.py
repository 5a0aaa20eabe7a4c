"""simh 3.8 IBM 7094 card decks: ``i7094`` (text) and ``i7094-cbn`` (text column binary).

Debian's simh 3.8.1 ``i7094`` reads and punches ASCII text, one line per card
(``../shared/reference/cardformats.md`` §3.2):

* **text** (``attach -t`` or a ``.txt`` name): one character per column through the six-bit BCD
  table, FORTRAN (H) set by default, business (A) set with ``code="business"``.  The 7094 itself sees
  only columns 1–72 (its row-binary reader has 2 × 36 bits per row); this library keeps columns
  73–80 (sequence numbers) too, which SIMH reads and ignores.  Patterns outside the 64 BCD
  characters cannot be written as text (use ``i7094-cbn``) unless ``lenient``, which writes what
  SIMH's punch would (the rows OR-ed together).
* **column binary** (``attach -c`` or a ``.cbn`` name — *not* the binary ``.cbn`` of SIMH 4.x): two
  printable characters per column, rows 12–3 then rows 4–9, each six bits spelt through the same
  table (so ``H`` = 12-8 is ``-2``); trailing blanks trimmed.  Every pattern has a spelling.

SIMH 3.8 reads ASCII ``%`` as 12-4-8 (a bug: its A set prints 0-4-8 as ``%``); this library reads
``%`` as 0-4-8, so an A-set deck containing ``%`` means different holes to SIMH.  The H set
round-trips everything.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import BinaryIO

from emulator.card import COLUMNS, Card
from emulator.formats import DeckFormat, register
from emulator.formats._simh38 import (
    A_SET_7094,
    CARD_ORDER_WORDS,
    H_SET_7094,
    character_set,
    read_column_binary,
    read_text,
    write_column_binary,
    write_text,
)

DEFAULT_SET = "H"
"""simh 3.8 ``i7094`` punches the FORTRAN set unless ``SET CDP BUSINESS``."""


def read(
    stream: BinaryIO, *, code: str | None = None, lenient: bool = False, source: str | None = None,
) -> Iterator[Card]:
    """Cards of a 7094 text deck (either character set is accepted)."""
    character_set(code, DEFAULT_SET)  # reject a meaningless code early
    return read_text(
        stream, words=CARD_ORDER_WORDS, h_set=H_SET_7094, a_set=A_SET_7094, lenient=lenient, source=source,
        what="7094 BCD character set",
    )


def write(
    cards: Iterable[Card], stream: BinaryIO, *, code: str | None = None, lenient: bool = False,
) -> None:
    """A 7094 text deck in the H set (``code="business"`` for the A set)."""
    charset = A_SET_7094 if character_set(code, DEFAULT_SET) == "A" else H_SET_7094
    write_text(
        cards, stream, words=CARD_ORDER_WORDS, charset=charset, lenient=lenient, width=COLUMNS,
        what="7094 BCD",
    )


def read_cbn(
    stream: BinaryIO, *, code: str | None = None, lenient: bool = False, source: str | None = None,
) -> Iterator[Card]:
    """Cards of a 7094 text column-binary deck (two characters per column)."""
    character_set(code, DEFAULT_SET)
    return read_column_binary(
        stream, h_set=H_SET_7094, a_set=A_SET_7094, lenient=lenient, source=source,
        what="7094 column-binary character set",
    )


def write_cbn(
    cards: Iterable[Card], stream: BinaryIO, *, code: str | None = None, lenient: bool = False,
) -> None:
    """A 7094 text column-binary deck (H set unless ``code="business"``)."""
    table = A_SET_7094 if character_set(code, DEFAULT_SET) == "A" else H_SET_7094
    write_column_binary(cards, stream, table=table, lenient=lenient, width=COLUMNS, what="7094 deck")


TEXT = register(DeckFormat(
    name="i7094",
    description="simh 3.8 i7094 text deck: one BCD character per column (H set; A with code=business)",
    extensions=(),
    read=read,
    write=write,
    textual=True,
))

CBN = register(DeckFormat(
    name="i7094-cbn",
    description="simh 3.8 i7094 text column binary: 2 printable characters per column (rows 12-3, 4-9)",
    extensions=(),
    read=read_cbn,
    write=write_cbn,
))
