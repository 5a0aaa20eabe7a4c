"""GE-635/645 card code as bsd ``bcd`` punches it (``holes[]`` in ``games/bcd/bcd.c``).

The Bell Labs GE-635 code, recovered from the old Unix ``bcd`` (``docs/cards.md`` §2; checked
against ``bcd`` in ``tests/test_interop_bcd.py``). ``bcd`` folds lower case to upper, and the ASCII
characters of the lower-case rows (`` ` { | } ~``) punch like their upper-case partners (``@ [ \\ ]
^``), so reading gives the upper ones. ``bcd`` itself punches an unknown byte as a blank column;
here that is an error unless ``lenient``.
"""

from __future__ import annotations

from emulator.codes import Code, register
from emulator.codes._hollerith import BASE

SPECIALS: dict[str, str] = {
    "!": "0-7-8", '"': "0-6-8", "#": "3-8", "$": "11-3-8", "%": "0-4-8", "&": "12", "'": "11-7-8",
    "(": "12-5-8", ")": "11-5-8", "*": "11-4-8", "+": "12-0", ",": "0-3-8", "-": "11", ".": "12-3-8",
    "/": "0-1", ":": "5-8", ";": "11-6-8", "<": "12-6-8", "=": "0-5-8", ">": "6-8", "?": "7-8",
    "@": "4-8", "[": "2-8", "\\": "12-7-8", "]": "12-4-8", "^": "11-0", "_": "0-2-8", "`": "4-8",
    "{": "2-8", "|": "12-7-8", "}": "12-4-8", "~": "11-0",
}
"""Special characters → punches (§2, column ``ge635``)."""

CODE = register(
    Code.from_punches(
        "ge635",
        "GE-635/645 (bsd bcd)",
        {**BASE, **SPECIALS},
        prefer="@[\\]^",
        fold_case=True,
        aliases=("bcd", "bsd-bcd"),
    )
)
