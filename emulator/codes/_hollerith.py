"""What every Hollerith code agrees on (``docs/cards.md`` §2).

Digits are one punch in their row, blank is no punch, ``A``–``I`` are 12-1…12-9, ``J``–``R`` are
11-1…11-9 and ``S``–``Z`` are 0-2…0-9.  Lower case exists only on EBCDIC cards: ``a``–``i`` =
12-0-1…9, ``j``–``r`` = 12-11-1…9, ``s``–``z`` = 11-0-2…9.
"""

from __future__ import annotations

import string


def _zone(letters: str, zone: str, first_row: int) -> dict[str, str]:
    return {ch: f"{zone}-{first_row + i}" for i, ch in enumerate(letters)}


BASE: dict[str, str] = {
    " ": "",
    **{d: d for d in string.digits},
    **_zone("ABCDEFGHI", "12", 1),
    **_zone("JKLMNOPQR", "11", 1),
    **_zone("STUVWXYZ", "0", 2),
}
"""Blank, digits and upper-case letters: ``character → punches``."""

LOWER: dict[str, str] = {
    **_zone("abcdefghi", "12-0", 1),
    **_zone("jklmnopqr", "12-11", 1),
    **_zone("stuvwxyz", "11-0", 2),
}
"""Lower-case letters as EBCDIC cards punch them."""
