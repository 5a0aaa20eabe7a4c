"""SIMH ``DEC029`` code (``sim_card.c`` ``ascii_to_dec_029``), DEC's 029 assignment.

The default of the PDP-10 ``cr``/``cp`` devices in simh 4.x and Jones's "DEC 029".  It follows
EBCDIC except for ``[`` 12-2-8, ``\\`` 11-7-8, ``]`` 0-2-8, ``^`` 12-7-8, ``{`` 12-0, ``|`` 12-11, ``}``
11-0 and ``~`` 11-0-1 (``docs/cards.md`` §2).  Letters, digits and lower case
as in §2.
"""

from __future__ import annotations

from emulator.codes import Code, register
from emulator.codes._hollerith import BASE, LOWER

SPECIALS: dict[str, str] = {
    "!": "11-2-8", '"': "7-8", "#": "3-8", "$": "11-3-8", "%": "0-4-8", "&": "12", "'": "5-8",
    "(": "12-5-8", ")": "11-5-8", "*": "11-4-8", "+": "12-6-8", ",": "0-3-8", "-": "11",
    ".": "12-3-8", "/": "0-1", ":": "2-8", ";": "11-6-8", "<": "12-4-8", "=": "6-8", ">": "0-6-8",
    "?": "0-7-8", "@": "4-8", "[": "12-2-8", "\\": "11-7-8", "]": "0-2-8", "^": "12-7-8",
    "_": "0-5-8", "`": "1-8", "{": "12-0", "|": "12-11", "}": "11-0", "~": "11-0-1",
}
"""Special characters → punches (§2, column ``dec029``)."""

CODE = register(
    Code.from_punches("dec029", "SIMH DEC029 (PDP-10 card reader default)", {**BASE, **LOWER, **SPECIALS})
)
