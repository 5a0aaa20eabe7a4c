"""SIMH 4.x ``029`` code (``sim_card.c`` ``ascii_to_hol_029``), the "Burroughs" set of the B5500.

It is *not* the IBM 029 / EBCDIC card code (that is :mod:`emulator.codes.ibm029`).  Specials from
``docs/cards.md`` §2; it differs from EBCDIC in ``^`` and ``{`` (both 11-7-8,
so 11-7-8 reads back as ``{``), ``}`` 12-7-9 and ``~`` 12-11-0-1-8.  Letters, digits and lower case
as in §2; SIMH folds text to upper case unless ``MODE_LOWER``, so write upper case for a default
SIMH reader.  Use this code only to feed simh 4.x machines attached with ``029``.
"""

from __future__ import annotations

from emulator.codes import Code, register
from emulator.codes._hollerith import BASE, LOWER

SPECIALS: dict[str, str] = {
    "!": "11-2-8", '"': "7-8", "#": "3-8", "$": "11-3-8", "%": "0-4-8", "&": "12", "'": "5-8",
    "(": "12-5-8", ")": "11-5-8", "*": "11-4-8", "+": "12-6-8", ",": "0-3-8", "-": "11",
    ".": "12-3-8", "/": "0-1", ":": "2-8", ";": "11-6-8", "<": "12-4-8", "=": "6-8", ">": "0-6-8",
    "?": "0-7-8", "@": "4-8", "[": "12-11-0-2-8", "\\": "0-2-8", "]": "12-11-0-3-8", "^": "11-7-8",
    "_": "0-5-8", "`": "1-8", "{": "11-7-8", "|": "12-7-8", "}": "12-7-9", "~": "12-11-0-1-8",
}
"""Special characters → punches (§2, column ``simh029``)."""

CODE = register(
    Code.from_punches(
        "simh029",
        "SIMH 4.x 029 (Burroughs B5500 set; not EBCDIC)",
        {**BASE, **LOWER, **SPECIALS},
        prefer="{",
    )
)
