"""Pictures of punched cards: SVG, PNG and terminal art, at the real card's proportions.

The geometry is the ANSI rectangular-hole card (``docs/cards.md`` §1):

* the card is 7⅜ × 3¼ in, with its **upper left corner cut** off so an operator sees at once
  a card turned the wrong way;
* 80 columns 0.087 in apart, column 1 centred 0.251 in from the left edge (column 80 ends up as far
  from the right edge);
* 12 rows 0.25 in apart, row 12 centred 0.25 in below the top edge, then 11, 0, 1 … 9 (row 9 is
  0.25 in above the bottom edge);
* holes 0.055 in wide and 0.125 in tall.

Like IBM's stock (the 5081 card) the digit of each row 0–9 is printed in every column where it is not
punched, and the tiny column numbers 1–80 run under rows 0 and 9.  A keypunch prints the
*interpreted line* — the character of each column — along the top edge; here that is
``card.interpreted(code)``, so unknown patterns print blank, exactly as on the 029.

Geometry is kept in mils (thousandths of an inch), the SVG user unit; the PNG is drawn directly with
Pillow at ``dpi`` pixels per inch.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol
from xml.sax.saxutils import escape

from emulator.atomic import atomic_output
from emulator.punches import COLUMNS, ROW_BIT, ROWS


class Card(Protocol):
    """What a picture is drawn from: the 80 column words and the interpreted line, as an
    :class:`emulator.card.Card` has them.  The renderer asks no more of a card, and imports no card
    module, so that a card can draw itself (``Card._repr_svg_``) without a circle between the two."""

    @property
    def columns(self) -> tuple[int, ...]: ...

    def interpreted(self, code: str = "029") -> str: ...

if TYPE_CHECKING:  # Pillow is imported only when a picture is drawn
    from PIL import Image, ImageFont

# -- geometry (mils) -------------------------------------------------------------------------------
CARD_WIDTH = 7375
CARD_HEIGHT = 3250
COLUMN_PITCH = 87
FIRST_COLUMN_X = 251
ROW_PITCH = 250
FIRST_ROW_Y = 250
HOLE_WIDTH = 55
HOLE_HEIGHT = 125
CORNER_CUT = (170, 300)
"""The corner cut runs from (170, 0) on the top edge to (0, 300) on the left edge."""

DIGIT_SIZE = 85
"""Height of the printed row digits (the ~6-point type of IBM stock)."""
NUMBER_SIZE = 38
"""Height of the tiny column numbers."""
TEXT_SIZE = 110
"""Height of the interpreted characters along the top edge."""

CARD_COLOUR = "#f3e4bd"
EDGE_COLOUR = "#8a7a55"
INK_COLOUR = "#3a3226"
PRINT_COLOUR = "#9b3a2e"
HOLE_COLOUR = "#1d1d1d"
BACKGROUND = "#ffffff"


def column_x(column: int) -> int:
    """Centre of ``column`` (1–80) from the left edge, in mils."""
    return FIRST_COLUMN_X + (column - 1) * COLUMN_PITCH


def row_y(row: int) -> int:
    """Centre of punch row ``row`` (12, 11, 0–9) from the top edge, in mils."""
    return FIRST_ROW_Y + ROWS.index(row) * ROW_PITCH


def holes(card: Card) -> Iterator[tuple[int, int]]:
    """``(column, row)`` of every punch, column by column, top row first."""
    for col, word in enumerate(card.columns, start=1):
        for row in ROWS:
            if word & ROW_BIT[row]:
                yield col, row


def printable_line(card: Card, code: str) -> str:
    """The interpreted line with anything unprintable (control characters) shown as a blank."""
    return "".join(ch if ch.isprintable() else " " for ch in card.interpreted(code))


# -- SVG ----------------------------------------------------------------------------------------------


def _outline_path() -> str:
    cx, cy = CORNER_CUT
    return f"M{cx},0 H{CARD_WIDTH} V{CARD_HEIGHT} H0 V{cy} Z"


def _text_run(chars: Sequence[tuple[int, str]], y: int, size: int, colour: str, cls: str) -> str:
    """One ``<text>`` placing each character at its own x (so columns line up in any font)."""
    chars = [(x, ch) for x, ch in chars if ch != " "]
    if not chars:
        return ""
    xs = " ".join(str(x) for x, _ in chars)
    body = escape("".join(ch for _, ch in chars))
    return (
        f'<text class="{cls}" x="{xs}" y="{y}" font-size="{size}" fill="{colour}" '
        f'font-family="DejaVu Sans Mono, Courier New, monospace" text-anchor="middle">{body}</text>'
    )


def _card_elements(card: Card, code: str) -> list[str]:
    """SVG elements of one card in card coordinates (mils, origin at the top-left corner)."""
    out = [
        f'<path class="card" d="{_outline_path()}" fill="{CARD_COLOUR}" stroke="{EDGE_COLOUR}" '
        f'stroke-width="8"/>'
    ]
    punched = set(holes(card))
    for row in range(10):
        y = row_y(row) + DIGIT_SIZE * 36 // 100
        run = [(column_x(c), " " if (c, row) in punched else str(row)) for c in range(1, COLUMNS + 1)]
        out.append(_text_run(run, y, DIGIT_SIZE, INK_COLOUR, "digits"))
    for below in (0, 9):
        y = row_y(below) + HOLE_HEIGHT // 2 + NUMBER_SIZE
        run = [(column_x(c), str(c)) for c in range(1, COLUMNS + 1)]
        out.append(_text_run_numbers(run, y))
    line = printable_line(card, code)
    run = [(column_x(c), ch) for c, ch in enumerate(line, start=1)]
    out.append(_text_run(run, FIRST_ROW_Y - HOLE_HEIGHT // 2 - 20, TEXT_SIZE, PRINT_COLOUR, "interpreted"))
    for col, row in sorted(punched):
        x, y = column_x(col) - HOLE_WIDTH // 2, row_y(row) - HOLE_HEIGHT // 2
        out.append(
            f'<rect class="hole" x="{x}" y="{y}" width="{HOLE_WIDTH}" height="{HOLE_HEIGHT}" '
            f'fill="{HOLE_COLOUR}"><title>column {col} row {row}</title></rect>'
        )
    return [e for e in out if e]


def _text_run_numbers(chars: Sequence[tuple[int, str]], y: int) -> str:
    """Column numbers: multi-digit labels need one ``<text>`` each, grouped for compactness."""
    items = "".join(f'<text x="{x}" y="{y}">{n}</text>' for x, n in chars)
    return (
        f'<g class="column-numbers" font-size="{NUMBER_SIZE}" fill="{INK_COLOUR}" '
        f'font-family="DejaVu Sans Mono, monospace" text-anchor="middle">{items}</g>'
    )


def card_svg(card: Card, *, code: str = "029") -> str:
    """A standalone SVG picture of ``card``, 7.375 × 3.25 in, one ``rect.hole`` per punch."""
    body = "\n".join(_card_elements(card, code))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{CARD_WIDTH / 1000}in" '
        f'height="{CARD_HEIGHT / 1000}in" viewBox="0 0 {CARD_WIDTH} {CARD_HEIGHT}">\n{body}\n</svg>\n'
    )


SHEET_GAP = 250
"""Space between cards on a contact sheet (mils, before scaling)."""
LABEL_SIZE = 160
"""Height of the card numbers under each card (mils)."""
TITLE_SIZE = 260
"""Height of a sheet's title (mils)."""
PER_ROW = 2
"""Cards across a contact sheet: two cards a row stay readable on a screen."""
PER_PAGE = 12
"""Cards on one page of a PNG contact sheet; a longer deck gets more pages."""


def sheet_title(title: str, first: int, last: int, total: int, page: int = 1, pages: int = 1) -> str:
    """``deck.cbn — cards 1–12 of 30, page 1 of 3`` (the parts that apply)."""
    span = f"card {first}" if first == last else f"cards {first}–{last}"
    whole = f"{total} card" + ("" if total == 1 else "s")
    text = whole if (first, last) == (1, total) else f"{span} of {total}"
    if pages > 1:
        text += f", page {page} of {pages}"
    return f"{title} — {text}" if title else text


def contact_sheet_svg(cards: Iterable[Card], *, code: str = "029", per_row: int = PER_ROW,
                      title: str = "") -> str:
    """A deck as a grid of cards under a title, ``per_row`` across, each numbered below (1 = first
    card).  One SVG holds the whole deck: a vector picture is zoomed, not paged."""
    if per_row < 1:
        raise ValueError("per_row must be at least 1")
    cell_w, cell_h = CARD_WIDTH + SHEET_GAP, CARD_HEIGHT + SHEET_GAP + LABEL_SIZE
    top = SHEET_GAP + TITLE_SIZE + SHEET_GAP // 2
    parts, count = [], 0
    for count, card in enumerate(cards, start=1):
        i = count - 1
        x, y = SHEET_GAP + (i % per_row) * cell_w, top + (i // per_row) * cell_h
        parts.append(f'<g class="card-{count}" transform="translate({x},{y})">')
        parts.extend(_card_elements(card, code))
        parts.append(
            f'<text class="number" x="{CARD_WIDTH // 2}" y="{CARD_HEIGHT + LABEL_SIZE}" '
            f'font-size="{LABEL_SIZE}" text-anchor="middle" fill="{INK_COLOUR}" '
            f'font-family="DejaVu Sans, sans-serif">{count}</text></g>'
        )
    across = min(per_row, max(count, 1))
    down = max(1, -(-count // per_row))
    width, height = SHEET_GAP + across * cell_w, top + down * cell_h
    scale = 1 / 2  # a sheet's inch is two card inches
    heading = (f'<text class="title" x="{SHEET_GAP}" y="{SHEET_GAP + TITLE_SIZE * 8 // 10}" '
               f'font-size="{TITLE_SIZE}" fill="{INK_COLOUR}" font-family="DejaVu Sans, sans-serif">'
               f'{escape(sheet_title(title, 1, count, count))}</text>')
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * scale / 1000:.3f}in" '
        f'height="{height * scale / 1000:.3f}in" viewBox="0 0 {width} {height}">\n'
        f'<rect width="{width}" height="{height}" fill="{BACKGROUND}"/>\n{heading}\n'
        + "\n".join(parts) + "\n</svg>\n"
    )


# -- PNG ----------------------------------------------------------------------------------------------

_FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
    "/usr/share/fonts/TTF/DejaVuSansMono.ttf",
    "/Library/Fonts/DejaVuSansMono.ttf",
)


@lru_cache(maxsize=1)
def _font_file() -> str | None:
    """A monospaced TrueType font: the system's DejaVu Sans Mono, else the copy matplotlib ships."""
    for path in _FONT_CANDIDATES:
        if os.path.exists(path):
            return path
    import importlib.util

    spec = importlib.util.find_spec("matplotlib")
    if spec and spec.origin:
        bundled = Path(spec.origin).parent / "mpl-data" / "fonts" / "ttf" / "DejaVuSansMono.ttf"
        if bundled.exists():
            return str(bundled)
    return None


@lru_cache(maxsize=32)
def _font(pixels: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    from PIL import ImageFont

    path = _font_file()
    size = max(pixels, 4)
    if path:
        return ImageFont.truetype(path, size)
    return ImageFont.load_default(size)


def card_image(card: Card, *, code: str = "029", dpi: int = 150) -> Image.Image:
    """A Pillow RGB image of ``card`` at ``dpi`` pixels per inch (white where the card is cut)."""
    from PIL import Image, ImageDraw

    if dpi < 10:
        raise ValueError(f"dpi must be at least 10, not {dpi}")
    k = dpi / 1000  # pixels per mil

    def px(v: float) -> float:
        return v * k

    w, h = round(px(CARD_WIDTH)), round(px(CARD_HEIGHT))
    img = Image.new("RGB", (w, h), BACKGROUND)
    draw = ImageDraw.Draw(img)
    cx, cy = CORNER_CUT
    outline = [(px(cx), 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1), (0, px(cy))]
    draw.polygon(outline, fill=CARD_COLOUR, outline=EDGE_COLOUR)
    punched = set(holes(card))
    digit_font, number_font = _font(round(px(DIGIT_SIZE * 1.05))), _font(round(px(NUMBER_SIZE * 1.3)))
    for c in range(1, COLUMNS + 1):
        x = px(column_x(c))
        for row in range(10):
            if (c, row) not in punched:
                draw.text((x, px(row_y(row))), str(row), font=digit_font, fill=INK_COLOUR, anchor="mm")
        if dpi >= 100:  # the column numbers are unreadable below that
            for below in (0, 9):
                y = px(row_y(below) + HOLE_HEIGHT // 2 + NUMBER_SIZE // 2 + 8)
                draw.text((x, y), str(c), font=number_font, fill=INK_COLOUR, anchor="mm")
    text_font = _font(round(px(TEXT_SIZE * 1.3)))
    for c, ch in enumerate(printable_line(card, code), start=1):
        if ch != " ":
            y = px(FIRST_ROW_Y - HOLE_HEIGHT // 2 - 60)
            draw.text((px(column_x(c)), y), ch, font=text_font, fill=PRINT_COLOUR, anchor="mm")
    for col, row in punched:
        x0, y0 = px(column_x(col) - HOLE_WIDTH / 2), px(row_y(row) - HOLE_HEIGHT / 2)
        draw.rectangle(
            (x0, y0, x0 + max(px(HOLE_WIDTH), 1) - 1, y0 + max(px(HOLE_HEIGHT), 1) - 1), fill=HOLE_COLOUR
        )
    return img


def _save_png(img: Image.Image, path: str | os.PathLike[str], dpi: int) -> None:
    with atomic_output(path) as out:
        img.save(out, format="PNG", dpi=(dpi, dpi))


def card_png(card: Card, path: str | os.PathLike[str], *, code: str = "029", dpi: int = 150) -> None:
    """Write ``card`` as a PNG at ``dpi`` (atomically: no half-written file on failure)."""
    _save_png(card_image(card, code=code, dpi=dpi), path, dpi)


def contact_sheet_image(cards: Iterable[Card], *, code: str = "029", per_row: int = PER_ROW, dpi: int = 100,
                        title: str = "", first: int = 1, total: int | None = None,
                        page: int = 1, pages: int = 1) -> Image.Image:
    """A Pillow image of cards as a numbered grid under a title (``dpi`` per card inch).

    ``first`` is the number of the first card shown and ``total`` the deck's length, for the
    numbers and the title when this is one page of a longer deck."""
    from PIL import Image, ImageDraw

    if per_row < 1:
        raise ValueError("per_row must be at least 1")
    images = [card_image(card, code=code, dpi=dpi) for card in cards]
    total = len(images) if total is None else total
    cw, ch = round(CARD_WIDTH * dpi / 1000), round(CARD_HEIGHT * dpi / 1000)
    gap, label = max(round(SHEET_GAP * dpi / 1000), 4), max(round(LABEL_SIZE * dpi / 1000), 12)
    heading = max(round(TITLE_SIZE * dpi / 1000), 14)
    top = gap + heading + gap // 2
    across = min(per_row, max(len(images), 1))
    down = max(1, -(-len(images) // per_row))
    sheet = Image.new("RGB", (gap + across * (cw + gap), top + down * (ch + gap + label)), BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    last = first + max(len(images), 1) - 1
    draw.text((gap, gap), sheet_title(title, first, last, total, page, pages), font=_font(heading),
              fill=INK_COLOUR, anchor="lt")
    font = _font(label)
    for i, img in enumerate(images):
        x, y = gap + (i % per_row) * (cw + gap), top + (i // per_row) * (ch + gap + label)
        sheet.paste(img, (x, y))
        draw.text((x + cw / 2, y + ch + label / 2 + 2), f"card {first + i}", font=font, fill=INK_COLOUR,
                  anchor="mm")
    return sheet


def page_paths(path: str | os.PathLike[str], pages: int) -> list[str]:
    """Where each page goes: ``sheet.png``, then ``sheet-2.png``, ``sheet-3.png`` …"""
    base, ext = os.path.splitext(os.fspath(path))
    return [os.fspath(path)] + [f"{base}-{n}{ext}" for n in range(2, pages + 1)]


def contact_sheet_png(
    cards: Iterable[Card], path: str | os.PathLike[str], *, code: str = "029", per_row: int = PER_ROW,
    dpi: int = 100, title: str = "", per_page: int = PER_PAGE,
) -> list[str]:
    """Write the deck's contact sheet as PNG pages of ``per_page`` cards (each atomically); returns
    the paths written (:func:`page_paths`).  Pages left from a longer sheet written to the same path
    before (``sheet-4.png`` … when this one has 3) are removed, so every page there is this deck's."""
    if per_page < 1:
        raise ValueError("per_page must be at least 1")
    deck = list(cards)
    pages = max(1, -(-len(deck) // per_page))
    paths = page_paths(path, pages)
    for n, target in enumerate(paths):
        chunk = deck[n * per_page:(n + 1) * per_page]
        image = contact_sheet_image(chunk, code=code, per_row=per_row, dpi=dpi, title=title,
                                    first=n * per_page + 1, total=len(deck), page=n + 1, pages=pages)
        _save_png(image, target, dpi)
    stale = pages + 1
    while os.path.isfile(extra := page_paths(path, stale)[-1]):
        os.unlink(extra)
        stale += 1
    return paths


# -- terminal ----------------------------------------------------------------------------------------

HOLE_MARK = "█"
"""What a punched position looks like in terminal art."""
ZONE_BLANK = "·"
"""An unpunched position of rows 12 and 11 (rows 0–9 show their digit, as the card does)."""


def ruler(width: int = COLUMNS) -> str:
    """A column ruler in keypunch-listing style: ``....+....1....+....2`` …"""
    return "".join(
        str(c // 10 % 10) if c % 10 == 0 else "+" if c % 5 == 0 else "." for c in range(1, width + 1)
    )


def card_terminal(card: Card, *, code: str = "029") -> str:
    """The card as 80-column text: the interpreted line, the 12 rows top to bottom (``█`` = hole;
    rows 12 and 11 show ``·`` where unpunched, rows 0–9 their digit, as the card does), a ruler."""
    lines = [printable_line(card, code).rstrip()]
    for row in ROWS:
        bit = ROW_BIT[row]
        blank = ZONE_BLANK if row in (12, 11) else str(row)
        lines.append("".join(HOLE_MARK if word & bit else blank for word in card.columns))
    lines.append(ruler())
    return "\n".join(lines) + "\n"


_BRAILLE_DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
"""Bits of the braille cell's dots: four rows of a left and a right column (Unicode U+2800 block)."""


def card_braille(card: Card) -> list[str]:
    """A small picture of the card for a terminal: three lines of 40 braille characters, each
    character two columns by four rows of the card, a raised dot where a hole is."""
    lines = []
    for band in range(0, len(ROWS), 4):
        chars = []
        for col in range(0, COLUMNS, 2):
            cell = 0
            for r, row in enumerate(ROWS[band:band + 4]):
                for side in (0, 1):
                    if card.columns[col + side] & ROW_BIT[row]:
                        cell |= _BRAILLE_DOTS[r][side]
            chars.append(chr(0x2800 + cell))
        lines.append("".join(chars))
    return lines
