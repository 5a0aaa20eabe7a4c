"""Card pictures: SVG structure, PNG geometry and pixels, terminal art — each checked against the holes."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from emulator.card import ROWS, Card
from emulator.render import (
    CARD_HEIGHT,
    CARD_WIDTH,
    HOLE_MARK,
    card_image,
    card_png,
    card_svg,
    card_terminal,
    column_x,
    contact_sheet_png,
    contact_sheet_svg,
    row_y,
    sheet_title,
)

SVG = "{http://www.w3.org/2000/svg}"
HELLO = Card.from_text("HELLO, WORLD 0123456789 &-/", "029")


def _holes(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [r for r in root.iter(f"{SVG}rect") if r.get("class") == "hole"]


def _punch_count(card: Card) -> int:
    return sum(bin(w).count("1") for w in card.columns)


def test_geometry_is_the_ansi_card():
    assert (CARD_WIDTH, CARD_HEIGHT) == (7375, 3250)
    assert column_x(80) - column_x(1) == 79 * 87
    assert CARD_WIDTH - column_x(80) == column_x(1)  # column 80 as far from the right edge
    assert row_y(12) == 250 and row_y(9) == 3000 and row_y(0) - row_y(11) == 250


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 0xFFF), max_size=80))
def test_svg_is_xml_with_one_rectangle_per_punch(words):
    card = Card(words)
    svg = card_svg(card, code="029")
    holes = _holes(svg)
    assert len(holes) == _punch_count(card)
    for rect in holes:
        assert (float(rect.get("width")), float(rect.get("height"))) == (55, 125)


def test_svg_places_holes_and_prints_the_interpreted_line():
    svg = card_svg(HELLO)
    root = ET.fromstring(svg)
    assert root.get("viewBox") == "0 0 7375 3250" and root.get("width") == "7.375in"
    first = {(r.get("x"), r.get("y")) for r in _holes(svg)}
    # H = 12-8 in column 1: two holes centred at x = 251, rows 12 and 8
    assert (str(251 - 27), str(row_y(12) - 62)) in first and (str(251 - 27), str(row_y(8) - 62)) in first
    line = [t for t in root.iter(f"{SVG}text") if t.get("class") == "interpreted"][0]
    assert line.text.startswith("HELLO,WORLD0123456789&-/")  # blanks are not drawn
    assert len(line.get("x").split()) == len(line.text)


def test_contact_sheet_svg_numbers_every_card():
    cards = [HELLO, Card.blank(), Card.from_text("X")]
    root = ET.fromstring(contact_sheet_svg(cards, per_row=2))
    numbers = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "number"]
    assert numbers == ["1", "2", "3"]
    assert len(_holes(contact_sheet_svg(cards))) == sum(map(_punch_count, cards))


def test_png_has_card_proportions_and_shows_holes(tmp_path):
    path = tmp_path / "card.png"
    card_png(HELLO, path, dpi=100)
    img = Image.open(path).convert("RGB")
    assert img.size == (738, 325)
    assert abs(img.size[0] / img.size[1] - 7.375 / 3.25) < 0.01
    k = 100 / 1000

    def at(col: int, row: int) -> tuple[int, int, int]:
        return img.getpixel((round(column_x(col) * k), round(row_y(row) * k)))

    assert at(1, 12) != at(1, 11)  # H: row 12 punched, row 11 not
    assert at(1, 12) == at(2, 12)  # E is punched in row 12 too
    assert at(1, 8) == at(1, 12) and at(2, 5) == at(1, 12)
    assert at(80, 11) != at(1, 12)  # column 80 is blank
    assert img.getpixel((2, 2)) == (255, 255, 255)  # the corner is cut


def test_png_every_hole_is_dark():
    card = Card([0xFFF] * 3 + [0x800])
    img = card_image(card, dpi=80)
    k = 80 / 1000
    for col in range(1, 4):
        for row in ROWS:
            assert sum(img.getpixel((round(column_x(col) * k), round(row_y(row) * k)))) < 150
    assert sum(img.getpixel((round(column_x(4) * k), round(row_y(11) * k)))) > 400


def test_contact_sheet_png(tmp_path):
    path = tmp_path / "sheet.png"
    assert contact_sheet_png([HELLO] * 5, path, per_row=4, dpi=30) == [str(path)]
    w, h = Image.open(path).size
    assert w > h and w > 4 * 221  # four cards across, two rows


def test_contact_sheet_pages_a_long_deck_and_titles_each_page(tmp_path):
    deck = [Card.from_text(f"CARD {i}") for i in range(1, 30)]
    paths = contact_sheet_png(deck, tmp_path / "deck.png", title="deck.cbn", per_page=12, dpi=60)
    assert paths == [str(tmp_path / n) for n in ("deck.png", "deck-2.png", "deck-3.png")]
    sizes = [Image.open(p).size for p in paths]
    assert sizes[0] == sizes[1] and sizes[2][1] < sizes[0][1]  # the last page holds 5 cards
    assert sizes[0][0] < 2.5 * 7.375 * 60  # two cards a row by default
    assert sheet_title("deck.cbn", 13, 24, 29, 2, 3) == "deck.cbn — cards 13–24 of 29, page 2 of 3"
    assert sheet_title("", 1, 1, 1) == "1 card"
    assert sorted(os.listdir(tmp_path)) == ["deck-2.png", "deck-3.png", "deck.png"]


def test_a_shorter_sheet_removes_the_pages_left_from_a_longer_one(tmp_path):
    """cards show --png to the same file after a longer deck: sheet-3.png would be another deck's."""
    (tmp_path / "notes-2.png").write_bytes(b"not a page of this sheet")
    long = [Card.from_text(f"LONG {i}") for i in range(30)]
    assert len(contact_sheet_png(long, tmp_path / "deck.png", per_page=12, dpi=30)) == 3
    short = [Card.from_text(f"SHORT {i}") for i in range(13)]
    assert contact_sheet_png(short, tmp_path / "deck.png", per_page=12, dpi=30) == \
        [str(tmp_path / "deck.png"), str(tmp_path / "deck-2.png")]
    assert sorted(os.listdir(tmp_path)) == ["deck-2.png", "deck.png", "notes-2.png"]
    contact_sheet_png(short[:1], tmp_path / "deck.png", per_page=12, dpi=30)
    assert sorted(os.listdir(tmp_path)) == ["deck.png", "notes-2.png"]


def test_the_readme_says_how_the_demo_and_cards_show_page_their_sheets(tmp_path, capsys):
    """The demo puts its whole deck on one page; cards show --png pages of 12 (README)."""
    from ibm1013.cli.main import main

    readme = open(os.path.join(os.path.dirname(__file__), "..", "README.md"), encoding="utf-8").read()
    assert "pages of 12" in readme and "whole punched deck on one page" in readme
    assert main(["demo", "--moves", "0", "--out", str(tmp_path / "demo")]) == 0
    capsys.readouterr()
    assert sorted(p for p in os.listdir(tmp_path / "demo") if p.startswith("cards")) == ["cards.png"]
    deck = [Card.from_text(f"CARD {i}") for i in range(13)]
    assert len(contact_sheet_png(deck, tmp_path / "s.png", dpi=30)) == 2  # the default: 12 a page


def test_contact_sheet_svg_has_a_title():
    root = ET.fromstring(contact_sheet_svg([HELLO, HELLO], title="h.cbn"))
    titles = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "title"]
    assert titles == ["h.cbn — 2 cards"]


def test_png_failure_leaves_no_file(tmp_path):
    with pytest.raises(ValueError):
        card_png(HELLO, tmp_path / "x.png", dpi=0)
    assert list(tmp_path.iterdir()) == []


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 0xFFF), max_size=80))
def test_terminal_marks_exactly_the_punches(words):
    card = Card(words)
    lines = card_terminal(card).splitlines()
    assert len(lines) == 14
    rows = lines[1:13]
    for row, cells in zip(ROWS, rows, strict=True):
        assert len(cells) == 80
        blank = "·" if row in (12, 11) else str(row)
        assert set(cells) <= {HOLE_MARK, blank}
        for col, word in enumerate(card.columns):
            punched = bool(word & (0x800 >> ROWS.index(row)))
            assert (cells[col] == HOLE_MARK) == punched


def test_terminal_shows_the_interpreted_line_and_ruler():
    art = card_terminal(HELLO).splitlines()
    assert art[0] == "HELLO, WORLD 0123456789 &-/"
    assert art[-1][:10] == "....+....1" and len(art[-1]) == 80
    assert max(len(line) for line in art) == 80  # fits an 80-column terminal


def test_control_characters_never_reach_the_picture():
    tab = Card.from_punches(["12-5-9", "12-1"])  # EBCDIC 05 (HT) then A
    assert tab.text("029")[0] == "\t"  # the column is a control character
    assert card_terminal(tab).splitlines()[0] == " A"
    root = ET.fromstring(card_svg(tab))
    line = [t for t in root.iter(f"{SVG}text") if t.get("class") == "interpreted"][0]
    assert line.text == "A" and line.get("x") == str(column_x(2))


def test_card_braille_shows_every_hole_once():
    from emulator.card import COLUMNS, ROW_BIT, ROWS, Card
    from emulator.render import card_braille

    card = Card.from_text("IBM 1013 A-Z 0-9")
    lines = card_braille(card)
    assert len(lines) == 3 and all(len(line) == COLUMNS // 2 for line in lines)
    dots = sum(bin(ord(ch) - 0x2800).count("1") for line in lines for ch in line)
    assert dots == sum(bin(word).count("1") for word in card.columns)
    top_left = ord(lines[0][0]) - 0x2800  # column 1: rows 12, 11, 0, 1 are the cell's left column
    assert bool(top_left & 0x01) == bool(card.columns[0] & ROW_BIT[ROWS[0]])
