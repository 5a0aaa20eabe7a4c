"""simh 3.8 IBM 1401 card decks: ``i1401`` (text) and ``i1401-cbn`` (text column binary).

Debian's simh 3.8.1 ``i1401`` reads each line of an ASCII file as an 80-column card, every
character through the 1401 BCD table, and punches blank-trimmed lines
(``docs/cards.md`` §3).  ``SET CDP BUSINESS|FORTRAN`` picks the print set
(business is the 1401's default; use ``code="fortran"``); either spelling is read.  Text patterns
outside the 64 BCD characters cannot be written unless ``lenient``.

Holes follow the 1401's own card code (:data:`emulator.codes.bcd1401.WORDS`, shared with the 026
codes): ``0`` is BCD 012 and the 0 row, the lone A bit ``^`` (020) is 8-2, and the minus and plus
zeros ``!`` (052) and ``?`` (072) are 11-0 and 12-0.  (The 7094 deck punches those two as 11-8-2
and 12-8-2, following SIMH's ``bcd_to_colbin``.)

The 1401's *column binary* (``R``/``P`` with the ``C`` modifier) spells each column as two
characters, rows 12–3 then 4–9, each six bits read as a raw 1401 BCD code — so here ``0`` stands
for 001010 and ``^`` for 010000, the reverse of the 7094's spelling.  simh 3.8's default ("new
conversions") interleaves the two characters of each column; the pre-3.5 ``OLDCONVERSIONS`` layout
(all first halves, then all second halves) is not supported.
"""

from __future__ import annotations

from emulator.codes.bcd1401 import WORDS
from emulator.formats import register
from emulator.formats._simh38 import A_SET_1401, H_SET_1401, machine_formats

DEFAULT_SET = "A"
"""simh 3.8 ``i1401`` punches the business set unless ``SET CDP FORTRAN``."""

TEXT, CBN = map(register, machine_formats(
    "1401", words=WORDS, h_set=H_SET_1401, a_set=A_SET_1401, default_set=DEFAULT_SET,
    text_description="simh 3.8 i1401 text deck: one BCD character per column (A set; H with code=fortran)",
    cbn_description="simh 3.8 i1401 column binary: 2 printable characters per column, interleaved",
))
