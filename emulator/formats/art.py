"""``art``: cards drawn in ASCII, in the style of bsd ``bcd -l`` — and read back from the drawing.

Each card is 15 lines (``docs/cards.md`` §3)::

     ________________ … (one ``_`` per column)
    /HELLO            … (the interpreted line: one character per column)
    |]]               …  row 12   ``]`` is a hole; an unpunched position is a blank on the
    |  ]]             …  row 11   zone rows (12, 11, 0) and the row digit on rows 1–9,
    |                 …  row 0    as Debian's ``bcd`` prints them
    |11111111]1111111 …  row 1
    …                    rows 2–9
    |________________ …|

Reading uses **only the holes**: the text line is ignored, so a deck drawn under any code (or by
``bcd`` itself) reads back exactly.  Cards may be 1–80 columns wide (Debian's ``bcd`` draws 48);
missing columns are blank.  Blank lines between cards are allowed.  Anything else is a
:class:`~emulator.errors.FormatError` naming the card and line.  The writer always draws 80 columns
and prints the interpreted line through ``code`` (unprintable characters as blanks).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import BinaryIO

from emulator.card import COLUMNS, ROW_BIT, ROWS, Card
from emulator.codes import Substitutions
from emulator.errors import FormatError
from emulator.formats import DeckFormat, register
from emulator.formats._simh38 import refuse_eof

HOLE = "]"
LINES_PER_CARD = 15


def row_blank(row: int) -> str:
    """What an unpunched position of ``row`` shows: its digit on rows 1–9, a blank on the zones."""
    return str(row) if 1 <= row <= 9 else " "


def draw(card: Card, code: str = "029", width: int = COLUMNS) -> list[str]:
    """The 15 lines of one card, without line ends."""
    text = "".join(ch if ch.isprintable() else " " for ch in card.interpreted(code)[:width])
    lines = [" " + "_" * width, "/" + text + "|"]
    for row in ROWS:
        bit, blank = ROW_BIT[row], row_blank(row)
        lines.append("|" + "".join(HOLE if w & bit else blank for w in card.columns[:width]) + "|")
    lines.append("|" + "_" * width + "|")
    return lines


def write(cards: Iterable[Card], stream: BinaryIO, *, code: str = "029", **_: object) -> None:
    """Draw each card (80 columns) as 15 lines of UTF-8 text."""
    for number, card in enumerate(cards, start=1):
        refuse_eof(card, number=number, what="card-art")
        stream.write(("\n".join(draw(card, code)) + "\n").encode("utf-8"))


def _lines(stream: BinaryIO, source: str | None) -> Iterator[tuple[int, str]]:
    for number, raw in enumerate(stream, start=1):
        try:
            yield number, raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError:
            raise FormatError(f"line {number} is not UTF-8 text", source=source) from None


def read(
    stream: BinaryIO, *, lenient: bool = False, source: str | None = None,
    substitutions: Substitutions | None = None, **_: object,
) -> Iterator[Card]:
    """Cards read from their drawn holes (``code`` is not needed: the text line is ignored).

    With ``lenient`` a row position that is neither a hole nor a blank reads as no hole, counted in
    ``substitutions``; a drawing that is not card-shaped is an error all the same.
    """
    lines = _lines(stream, source)
    number = 0
    for line_no, top in lines:
        if not top.strip():
            continue  # blank lines between cards
        number += 1

        def fail(reason: str, at: int, number: int = number) -> FormatError:
            return FormatError(f"line {at}: {reason}", card=number, source=source)

        width = len(top) - 1
        if not (top.startswith(" _") and top[1:] == "_" * width and width <= COLUMNS):
            raise fail("expected the top edge of a card (' ___…', at most 80 columns)", line_no)
        body = []
        for _row in range(LINES_PER_CARD - 1):
            nxt = next(lines, None)
            if nxt is None:
                raise fail("the deck ends in the middle of a card", line_no)
            body.append(nxt)
        text_no, text = body[0]
        if not (text.startswith("/") and text.endswith("|") and len(text) == width + 2):
            raise fail(f"expected the printed line '/…|' of {width} columns", text_no)
        columns = [0] * width
        for row, (at, line) in zip(ROWS, body[1:13], strict=True):
            if not (line.startswith("|") and line.endswith("|") and len(line) == width + 2):
                raise fail(f"expected row {row} as '|…|' of {width} columns", at)
            blank, bit = row_blank(row), ROW_BIT[row]
            for col, ch in enumerate(line[1:-1]):
                if ch == HOLE:
                    columns[col] |= bit
                elif ch not in (" ", blank, str(row)):
                    if not lenient:
                        raise fail(f"column {col + 1} of row {row} is {ch!r}, not a hole or blank", at)
                    if substitutions is not None:
                        substitutions.add(col + 1, number)
        bottom_no, bottom = body[13]
        if bottom != "|" + "_" * width + "|":
            raise fail("expected the bottom edge '|___…|'", bottom_no)
        yield Card(columns)


def sniff(head: bytes) -> bool:
    """A deck drawing starts with a top edge of underscores and then a '/' printed line."""
    first, _, rest = head.partition(b"\n")
    return (
        len(first.rstrip(b"\r")) >= 3
        and first.rstrip(b"\r") == b" " + b"_" * (len(first.rstrip(b"\r")) - 1)
        and rest.startswith(b"/")
    )


FORMAT = register(DeckFormat(
    name="art",
    description="cards drawn in ASCII like bsd 'bcd -l' (']' = hole); read back from the holes",
    extensions=(".art",),
    read=read,
    write=write,
    sniff=sniff,
    textual=True,
))
