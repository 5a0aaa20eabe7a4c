"""simh 3.8 IBM 7094 card decks: ``i7094`` (text) and ``i7094-cbn`` (text column binary).

Debian's simh 3.8.1 ``i7094`` reads and punches ASCII text, one line per card
(``docs/cards.md`` §3):

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

from emulator.formats import register
from emulator.formats._simh38 import A_SET_7094, CARD_ORDER_WORDS, H_SET_7094, machine_formats

DEFAULT_SET = "H"
"""simh 3.8 ``i7094`` punches the FORTRAN set unless ``SET CDP BUSINESS``."""

TEXT, CBN = map(register, machine_formats(
    "7094", words=CARD_ORDER_WORDS, h_set=H_SET_7094, a_set=A_SET_7094, default_set=DEFAULT_SET,
    text_description="simh 3.8 i7094 text deck: one BCD character per column (H set; A with code=business)",
    cbn_description="simh 3.8 i7094 text column binary: 2 printable characters per column (rows 12-3, 4-9)",
))
