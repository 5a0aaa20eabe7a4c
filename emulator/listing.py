"""Card listings: a deck written out card by card, column by column, with comments.

A keypunch operator punching an object deck worked from a coding sheet: which bytes go into which
columns of which card.  A *card listing* is that sheet as a text file, for cards that plain text
cannot say (an S/370 IPL card holds a PSW and channel commands, not characters)::

    # the IPL card: what the 3505 reads into storage at IPL
    card
    hex 00000000 00000400   # PSW: run at 400
    hex 02000400 60000050   # CCW: read card 2 to 400
    text |S/370 LOADER|     # columns 25-36: a label for people

* ``card`` (a line of its own, a ``#`` comment may follow) starts the next card; every card starts
  with it.  The columns of a card follow one another from column 1, over as many lines as wanted.
* ``hex`` then hexadecimal bytes (blanks between them allowed): each byte is one column, punched in
  the EBCDIC card code, so that an S/360 or S/370 reader (Hercules' 3505) reads that very byte.
* ``text`` then characters between two ``|``: one column each, punched in the keypunch code given
  (``029`` unless told; the 1401's characters are punched with ``029`` as well).  A ``|`` cannot be
  in the text: give its byte with ``hex``.
* After the hex or the closing ``|``, ``#`` starts a comment; blank lines and lines starting with
  ``#`` are comments too.
* A card holds at most 80 columns (more is an error naming the line); the columns not given are
  blank (no holes: EBCDIC 40, the 1401's blank).

``ibm1013 cards encode LISTING --listing`` punches a listing into a deck of any format.  Every
error names the file and line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from emulator.card import COLUMNS, Card
from emulator.codes import get_code
from emulator.codes.ibm029 import EBCDIC_TO_WORD
from emulator.errors import CardError, FormatError

_TEXT = re.compile(r"text\s*\|([^|]*)\|\s*(?:#.*)?$")
_HEX = re.compile(r"hex\s+([0-9A-Fa-f\s]*?)\s*(?:#.*)?$")
_CARD = re.compile(r"card\s*(?:#.*)?$")


def read_listing(lines: Iterable[str], *, code: str = "029", source: str = "<listing>") -> list[Card]:
    """The cards of a card listing (see the module's description)."""
    keypunch = get_code(code)
    cards: list[list[int]] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue

        def fail(reason: str, line_number: int = number) -> FormatError:
            return FormatError(f"line {line_number}: {reason}", source=source)

        if _CARD.match(line):
            cards.append([])
            continue
        if not cards:
            raise fail("a listing starts with 'card' (then 'hex' and 'text' lines fill that card)")
        if (text := _TEXT.match(line)) is not None:
            try:
                words = list(keypunch.encode(text.group(1)))
            except CardError as err:
                raise fail(f"text: {err.reason}") from None
        elif (hexes := _HEX.match(line)) is not None:
            digits = re.sub(r"\s", "", hexes.group(1))
            if not digits or len(digits) % 2:
                raise fail("hex needs whole bytes, two hexadecimal digits each")
            words = [EBCDIC_TO_WORD[b] for b in bytes.fromhex(digits)]
        else:
            raise fail(f"not a listing line: {line[:40]!r} (card, hex BYTES or text |CHARACTERS|)")
        cards[-1].extend(words)
        if len(cards[-1]) > COLUMNS:
            raise fail(f"card {len(cards)} would have {len(cards[-1])} columns, more than {COLUMNS}")
    return [Card(words) for words in cards]
