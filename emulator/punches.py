"""Punch notation: the rows of a card column and the words that name its holes (``12-1``).

A column's holes are written from the top edge down, rows joined by ``-``: ``12-1`` is ``A`` in the
029 code, ``0-8-3`` a comma.  As a *column word* the rows are bits, row 12 the high bit (``0x800``)
down to row 9 (``0x001``).  :mod:`emulator.card` and the card codes (:mod:`emulator.codes`) both
use these; they live here, apart from both, so neither needs the other to read or write a punch.
"""

from __future__ import annotations

from emulator.errors import CardError

COLUMNS = 80
"""Columns of a card (:data:`emulator.card.COLUMNS` is this one)."""

ROWS: tuple[int, ...] = (12, 11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
"""Punch rows from the top edge of the card down."""

ROW_BIT: dict[int, int] = {row: 0x800 >> i for i, row in enumerate(ROWS)}
"""Bit of each row in a column word: row 12 = 0x800 … row 9 = 0x001."""


def word_to_punches(word: int) -> str:
    """Punches of a column word in IBM top-to-bottom order, e.g. ``0x900`` → ``"12-1"``.

    A blank column gives the empty string.
    """
    return "-".join(str(row) for row in ROWS if word & ROW_BIT[row])


def punches_to_word(punches: str) -> int:
    """Column word of a punch string such as ``"12-1"``, ``"0-8-3"`` or ``""`` (blank).

    The order of the rows does not matter (``0-8-3`` and ``0-3-8`` are the same holes).
    """
    word = 0
    for part in filter(None, (p.strip() for p in punches.replace(",", "-").split("-"))):
        if not part.isdigit() or int(part) not in ROW_BIT:
            raise CardError(f"not a card row: {part!r} in punches {punches!r}")
        bit = ROW_BIT[int(part)]
        if word & bit:
            raise CardError(f"row {part} given twice in punches {punches!r}")
        word |= bit
    return word
