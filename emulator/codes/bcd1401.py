"""The 64 six-bit BCD characters of the IBM 1401 with their punches (data shared by the 026 codes).

Inside the 1401 a character is six bits, ``B A 8 4 2 1``: the zone bits B/A and a digit 0–15.  On
the card the zone becomes a zone punch (BA = 12, B = 11, A = 0) and the digit a punch in rows 1–9 or
8 plus one of rows 3–7.  Four places break the pattern: blank is BCD 000 and no punch; the digit
``0`` is BCD 012 and the 0 row; minus zero ``!`` (052) is 11-0 and plus zero ``?`` (072) is 12-0;
and the lone A bit (020) is the 8-2 punch (``docs/cards.md`` §3; simh 3.8 ``i1401``
reads ``H`` = 070, ``0`` = 012, blank = 000 in ``tests/test_interop_simh.py``).

Characters are the ASCII stand-ins simh 3.8 ``i1401`` uses (``bcd_to_ascii_a`` / ``_h``): ``{`` tape
mark, ``^`` the A-bit character, ``|`` record mark, ``~`` word separator, ``"`` segment mark, ``_``
delta, ``}`` group mark.  The business (A) and FORTRAN (H) sets differ in five places (§2); simh
prints the business lozenge (12-4-8) as ``)``.
"""

from __future__ import annotations

from emulator.punches import punches_to_word

PUNCHES: tuple[str, ...] = (
    # 00-17: no zone
    "", "1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "3-8", "4-8", "5-8", "6-8", "7-8",
    # 20-37: A zone (row 0)
    "2-8", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "0-7",
    "0-8", "0-9", "0-2-8", "0-3-8", "0-4-8", "0-5-8", "0-6-8", "0-7-8",
    # 40-57: B zone (row 11)
    "11", "11-1", "11-2", "11-3", "11-4", "11-5", "11-6", "11-7",
    "11-8", "11-9", "11-0", "11-3-8", "11-4-8", "11-5-8", "11-6-8", "11-7-8",
    # 60-77: BA zone (row 12)
    "12", "12-1", "12-2", "12-3", "12-4", "12-5", "12-6", "12-7",
    "12-8", "12-9", "12-0", "12-3-8", "12-4-8", "12-5-8", "12-6-8", "12-7-8",
)
"""Punches of each 1401 BCD code 000–077 (octal), indexed by the code."""

WORDS: tuple[int, ...] = tuple(punches_to_word(p) for p in PUNCHES)
"""Column word of each 1401 BCD code."""

BUSINESS = " 1234567890#@:>{^/STUVWXYZ|,%~\\\"-JKLMNOPQR!$*];_&ABCDEFGHI?.)[<}"
"""simh 3.8 ``i1401`` business (A) set, indexed by BCD code."""

FORTRAN = " 1234567890=':>{^/STUVWXYZ|,(~\\\"-JKLMNOPQR!$*];_+ABCDEFGHI?.)[<}"
"""simh 3.8 ``i1401`` FORTRAN (H) set, indexed by BCD code."""

BCD_OF_WORD: dict[int, int] = {word: bcd for bcd, word in enumerate(WORDS)}
"""1401 BCD code of each of the 64 punch patterns."""
