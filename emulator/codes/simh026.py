"""SIMH 4.x ``026`` code (``sim_card.c`` ``ascii_to_hol_026``, ``MODE_026``).

SIMH's own BCD-derived mapping, the default of its I7000 and I650 card readers — not a keypunch:
``&`` is 12-0, ``?`` 12-2-8, ``~`` 7-9 (``docs/cards.md`` §2).  Several
characters share holes; reading gives the later ASCII one, as SIMH's reverse table does: 0-4-8 is
``(``, 4-8 is ``@``, 11-7-8 is ``{``.  For the IBM 026 keypunch use ``026-commercial`` or
``026-fortran``.  Letters, digits and lower case as in §2.
"""

from __future__ import annotations

from emulator.codes import Code, register
from emulator.codes._hollerith import BASE, LOWER

SPECIALS: dict[str, str] = {
    "!": "11-0", '"': "7-8", "#": "0-2-8", "$": "11-3-8", "%": "0-4-8", "&": "12-0", "'": "4-8",
    "(": "0-4-8", ")": "12-4-8", "*": "11-4-8", "+": "12", ",": "0-3-8", "-": "11", ".": "12-3-8",
    "/": "0-1", ":": "5-8", ";": "11-6-8", "<": "12-6-8", "=": "3-8", ">": "6-8", "?": "12-2-8",
    "@": "4-8", "[": "12-5-8", "\\": "0-6-8", "]": "11-5-8", "^": "11-7-8", "_": "2-8", "`": "0-5-8",
    "{": "11-7-8", "|": "12-7-8", "}": "12-7-9", "~": "7-9",
}
"""Special characters → punches (§2, column ``simh026``), in ASCII order."""

CODE = register(
    Code.from_punches(
        "simh026", "SIMH 4.x 026 (I7000/I650 default; not a keypunch)", {**BASE, **LOWER, **SPECIALS}
    )
)
