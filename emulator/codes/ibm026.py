"""IBM 026 keypunch codes: the 64-character BCD set, printed the *commercial* or the *FORTRAN* way.

The 026 punched BCD: letters and digits as in every code, plus specials made of a zone and an 8
punch.  The same holes print as different characters on the two 026 print drums in five places
(``docs/cards.md`` §2):

=========  ===  ===  ===  =====  ======
punches    12   3-8  4-8  0-4-8  12-4-8
=========  ===  ===  ===  =====  ======
commercial  &    #    @    %      ⌑
FORTRAN     +    =    '    (      )
=========  ===  ===  ===  =====  ======

Both codes here cover all 64 BCD characters of the 1401 (:mod:`emulator.codes.bcd1401`), fold lower
case to upper as the 026 has no lower case, and — like simh 3.8 — accept either spelling of those
five characters when punching (``)`` too means the lozenge: simh's business set prints it so).
"""

from __future__ import annotations

from emulator.codes import Code, register
from emulator.codes.bcd1401 import BUSINESS, FORTRAN, PUNCHES

LOZENGE = "⌑"
"""The commercial character on 12-4-8."""

COMMERCIAL = BUSINESS.replace(")", LOZENGE)
"""The 64 commercial characters in 1401 BCD order."""


KEYBOARD_COMMERCIAL = " 0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ&-/*.,$#%" + LOZENGE + "@"
"""The 48 characters on the commercial 026's keys and print drum: blank, digits, letters and 11
specials (the 1401's other 16 BCD characters took multi-punching)."""

KEYBOARD_FORTRAN = " 0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ+-/*.,$=()'"
"""The 48 characters of the FORTRAN 026: the commercial keys' holes, five of them printed otherwise."""


def _table(printed: str, other: str) -> dict[str, str]:
    """``character → punches``: first the other spellings (input only), then the printed set."""
    table = {ch: p for ch, p in zip(other, PUNCHES, strict=True) if ch not in printed}
    table.update(zip(printed, PUNCHES, strict=True))
    return table


COMMERCIAL_CODE = register(
    Code.from_punches(
        "026-commercial",
        "IBM 026 keypunch, commercial print (1401 BCD: & # @ % ⌑)",
        {")": "12-4-8", **_table(COMMERCIAL, FORTRAN)},
        prefer=COMMERCIAL,
        fold_case=True,
        aliases=("026c",),
    )
)

FORTRAN_CODE = register(
    Code.from_punches(
        "026-fortran",
        "IBM 026 keypunch, FORTRAN print (1401 BCD: + = ' ( ))",
        {LOZENGE: "12-4-8", **_table(FORTRAN, COMMERCIAL)},
        prefer=FORTRAN,
        fold_case=True,
        aliases=("026f",),
    )
)
