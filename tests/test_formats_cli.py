"""Deck formats through ``ibm1013 cards``: every format takes every option, over-long lines, one file
as both input and output, EOF cards in text decks, detection card by card, degenerate decks.

Each test here was written against a fault found by fuzzing or by a fresh user (issue 13).
"""

from __future__ import annotations

import io
import os

import pytest

from emulator.card import EOF_CARD, Card
from emulator.codes import Substitutions
from emulator.formats import format_names, get_format, read_deck, write_deck
from ibm1013.cli.main import main

HELLO = [Card.from_text("HELLO"), Card.from_text("WORLD 123")]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["cards", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def deck_bytes(cards: list[Card], fmt: str, **options) -> bytes:
    out = io.BytesIO()
    write_deck(cards, out, fmt, **options)
    return out.getvalue()


def leftovers(directory) -> list[str]:
    """Temporary files an interrupted write would leave (``.~NAME.xxxx``)."""
    return [name for name in os.listdir(directory) if name.startswith(".~")]


# -- every format takes every option (issue 13 §2) ---------------------------------------------------

@pytest.mark.parametrize("fmt", format_names())
def test_every_format_takes_the_common_reading_and_writing_options(fmt):
    subs = Substitutions()
    data = deck_bytes(HELLO, fmt, code="029", lenient=True, substitutions=subs, raw=False)
    options = dict(code="029", lenient=True, source="x", substitutions=subs, raw=True)
    assert list(read_deck(io.BytesIO(data), fmt, **options)) == HELLO
    assert subs.count == 0


@pytest.mark.parametrize("fmt", format_names())
def test_decode_lenient_works_for_every_format(capsys, tmp_path, fmt):
    source = tmp_path / "h.txt"
    source.write_text("HELLO\n")
    deck = tmp_path / f"h.{fmt}"
    assert run(capsys, "encode", str(source), "-o", str(deck), "--format", fmt)[0] == 0
    assert run(capsys, "decode", str(deck), "--format", fmt, "--lenient") == (0, "HELLO\n", "")


@pytest.mark.parametrize(("fmt", "data", "column"), [
    ("i7094", b"A`B\n", 2),  # '`' is no 7094 character: SIMH reads it as a blank column
    ("i1401", b"AB\x7f\n", 3),
    ("i7094-cbn", b"-2`\n", 2),
])
def test_lenient_simh38_readers_count_what_they_replaced(fmt, data, column):
    subs = Substitutions()
    cards = list(get_format(fmt).read(io.BytesIO(data), lenient=True, substitutions=subs))
    assert len(cards) == 1 and subs.count == 1 and subs.first == [(1, column)]


def test_lenient_art_reads_a_smudged_row_as_no_hole_and_counts_it():
    drawing = bytearray(deck_bytes([Card.from_text("A")], "art"))
    lines = drawing.split(b"\n")
    lines[5] = b"|X" + lines[5][2:]  # row 1, column 1 was ']' (A = 12-1)
    data = b"\n".join(lines)
    with pytest.raises(Exception, match="column 1 of row 1"):
        list(get_format("art").read(io.BytesIO(data)))
    subs = Substitutions()
    assert list(get_format("art").read(io.BytesIO(data), lenient=True, substitutions=subs)) == [
        Card.from_punches(["12"])
    ]
    assert subs.count == 1


def test_lenient_rowbin_pads_a_short_record_and_ignores_top_bits():
    data = bytearray(deck_bytes([Card.from_text("A")], "rowbin"))
    data[0] |= 0xF0
    assert list(get_format("rowbin").read(io.BytesIO(bytes(data[:-5])), lenient=True)) == [
        Card.from_text("A")
    ]


def test_write_lenient_simh38_counts_or_rule_columns():
    subs = Substitutions()
    deck_bytes([Card.from_punches(["", "12-11-1"])], "i7094", lenient=True, substitutions=subs)
    assert subs.count == 1 and subs.first == [(1, 2)]


def test_decode_lenient_reports_substitutions_in_one_line(capsys, tmp_path):
    deck = tmp_path / "d.i7094"
    deck.write_bytes(b"A`B\n")
    status, out, err = run(capsys, "decode", str(deck), "--format", "i7094", "--lenient")
    assert (status, out) == (0, "A B\n")
    assert err == "ibm1013: 1 substitution (first: card 1 column 2)\n"


def test_eof_card_in_a_deck_without_one_is_a_clean_error(capsys, tmp_path):
    deck = tmp_path / "d.cbn"
    deck.write_bytes(deck_bytes([Card.from_text("A"), EOF_CARD], "cbn"))
    for fmt in ("art", "rowbin", "i1401", "i7094-cbn", "bin", "ebcdic"):
        status, out, err = run(capsys, "convert", str(deck), str(tmp_path / "out"), "--to", fmt)
        assert status == 2 and err.count("\n") == 1 and "card 2" in err, (fmt, err)
        assert not (tmp_path / "out").exists() and not leftovers(tmp_path)


# -- over-long lines and one file as input and output (issue 13 §4) ---------------------------------

def test_encode_refuses_a_line_longer_than_a_card_naming_file_and_line(capsys, tmp_path):
    source = tmp_path / "long.txt"
    source.write_text("SHORT\n" + "A" * 81 + "\n" + "B" * 90 + "\n")
    deck = tmp_path / "long.cbn"
    status, out, err = run(capsys, "encode", str(source), "-o", str(deck))
    assert status == 2 and out == "" and err.count("\n") == 1
    assert f"{source}: line 2 has 81 columns; a card holds 80" in err and "--truncate" in err
    assert not deck.exists() and not leftovers(tmp_path)


@pytest.mark.parametrize(("line", "columns"), [("\tX" * 10, 81), ("é" * 81, 81), ("~" + "x" * 90, 91)])
def test_long_lines_count_columns_not_bytes(capsys, tmp_path, line, columns):
    source = tmp_path / "t.txt"
    source.write_text("A" * 80 + "\n" + "\t" * 10 + "\n" + "é" * 80 + "\n" + line + "\n", encoding="utf-8")
    status, _, err = run(capsys, "encode", str(source), "-o", str(tmp_path / "t.cbn"))
    assert status == 2 and f"line 4 has {columns} columns" in err


def test_encode_truncate_cuts_and_counts_long_lines(capsys, tmp_path):
    source = tmp_path / "long.txt"
    raw = "~raw" + "0001" * 80  # control lines are not long lines
    source.write_text("A" * 81 + "\nOK\n" + raw + "\n" + "é" * 100 + "\n", encoding="utf-8")
    deck = tmp_path / "long.cbn"
    status, out, err = run(capsys, "encode", str(source), "-o", str(deck), "--truncate")
    assert (status, out) == (0, "")
    assert err == "ibm1013: 2 lines longer than 80 columns cut at column 80 (first: lines 1, 4)\n"
    with open(deck, "rb") as f:
        cards = list(read_deck(f, "cbn"))
    assert cards == [Card.from_text("A" * 80), Card.from_text("OK"), Card([1] * 80), Card.from_text("é" * 80)]


def test_text_decks_still_drop_columns_past_80_as_simh_does():
    assert list(read_deck(io.BytesIO(b"A" * 85 + b"\n"), "text")) == [Card.from_text("A" * 80)]


@pytest.mark.parametrize("command", ["convert", "decode", "encode", "show"])
def test_one_file_as_input_and_output_is_refused(capsys, tmp_path, command):
    deck = tmp_path / "deck.cbn"
    deck.write_bytes(deck_bytes(HELLO, "cbn"))
    os.link(deck, tmp_path / "link.cbn")
    before = deck.read_bytes()
    for target in (str(deck), str(tmp_path / "." / "deck.cbn"), str(tmp_path / "link.cbn")):
        argv = {"convert": ["convert", str(deck), target, "--to", "text"],
                "decode": ["decode", str(deck), "-o", target],
                "encode": ["encode", str(deck), "-o", target],
                "show": ["show", str(deck), "--svg", target]}[command]
        status, out, err = run(capsys, *argv)
        assert status == 2 and err.count("\n") == 1 and "are the same file" in err, err
    assert deck.read_bytes() == before and not leftovers(tmp_path)


# -- decks SIMH 4.x must read exactly (issue 13 §5) -------------------------------------------------

def simh4_text_lines(data: bytes) -> list[bytes]:
    """The lines SIMH 4.x's card reader takes as cards from a text deck, as ``sim_card.c``
    (``_sim_parse_card``, open-simh) scans them — ordinary lines and ``~`` EOF lines only.

    After ``~`` and blanks it moves past the CR or LF that ends the scan *before* it looks for the
    end of the line; from a bare LF that search runs on to the end of the next line, whose card is
    lost.  After a CR it stops at the LF.
    """
    cards, i = [], 0
    while i < len(data):
        start = i
        if data[i] == ord("~") and not data[i + 1 :].split(b"\n", 1)[0].strip(b" \t\r"):
            i += 1
            while i < len(data) and data[i] in b" \t":
                i += 1
            i += 1  # the CR or LF that ended the scan
            cards.append(b"~")
        else:
            cards.append(data[start:].split(b"\n", 1)[0].replace(b"\r", b""))
        while i < len(data) and data[i] not in b"\r\n":
            i += 1
        i += data[i : i + 1] == b"\r"
        i += data[i : i + 1] == b"\n"
    return cards


def test_the_simh4_model_loses_the_card_after_tilde_lf():
    assert simh4_text_lines(b"A\n~\nB\nC\n") == [b"A", b"~", b"C"]  # why we do not write ~ LF
    assert simh4_text_lines(b"A\n~\r\nB\nC\n") == [b"A", b"~", b"B", b"C"]


def test_an_eof_card_is_written_so_that_the_card_after_it_survives():
    deck = [Card.from_text("A"), EOF_CARD, Card.from_text("B"), EOF_CARD, EOF_CARD, Card.from_text("C")]
    data = deck_bytes(deck, "text")
    assert data == b"A\n~\r\nB\n~\r\n~\r\nC\n"
    assert simh4_text_lines(data) == [b"A", b"~", b"B", b"~", b"~", b"C"]
    assert list(read_deck(io.BytesIO(data), "text")) == deck
    assert list(read_deck(io.BytesIO(data))) == deck  # detected as text


def test_decode_writes_eof_cards_that_simh4_reads(capsys, tmp_path):
    deck = tmp_path / "d.cbn"
    deck.write_bytes(deck_bytes([EOF_CARD, Card.from_text("NEXT")], "cbn"))
    status, out, _ = run(capsys, "decode", str(deck))
    assert status == 0 and simh4_text_lines(out.encode()) == [b"~", b"NEXT"]


def test_blank_lines_as_simh_punches_them_are_text_not_bin():
    for count in (80, 81, 200):
        data = b" \n" * count + b"HELLO\n"
        assert get_format("bin").sniff(data[:160]) is False
        assert list(read_deck(io.BytesIO(data))) == [Card.blank()] * count + [Card.from_text("HELLO")]
        data = deck_bytes([Card.blank()] * count, "text")
        assert list(read_deck(io.BytesIO(data))) == [Card.blank()] * count


def test_a_cbn_deck_whose_first_card_is_short_is_cbn():
    deck = [Card.from_text("AB"), Card.blank(), Card.blank()]
    full = deck_bytes(deck, "cbn")
    short = full[:4] + full[160:]  # the first card cut after column 2, as SIMH reads it
    assert list(read_deck(io.BytesIO(short))) == deck
    assert list(read_deck(io.BytesIO(full[:2] + full[160:]))) == [Card([0x900])] + deck[1:]  # A, 12-3 only
    blanks = deck_bytes([Card.blank()] * 3, "cbn")
    assert list(read_deck(io.BytesIO(blanks[:2] + blanks[160:]))) == [Card.blank()] * 3


def test_cbn_wins_over_bin_as_in_simh():
    digits = deck_bytes([Card.from_text("456789"), Card.blank()], "cbn")  # passes the BIN test too
    assert get_format("bin").sniff(digits)
    assert list(read_deck(io.BytesIO(digits))) == [Card.from_text("456789"), Card.blank()]
    eof_first = deck_bytes([EOF_CARD, Card.from_text("H"), EOF_CARD, Card.blank()], "cbn")
    assert list(read_deck(io.BytesIO(eof_first)))[1] == Card.from_text("H")


def test_bin_decks_are_still_detected():
    for deck in ([Card.blank()] * 2, [Card.from_text("HELLO")], [Card.from_punches(["12-0-2-8"] * 80)]):
        assert list(read_deck(io.BytesIO(deck_bytes(deck, "bin")))) == deck


@pytest.mark.parametrize("card", [b"\xff\x40", b"\x8f", b"\xc0\x40"])
def test_a_deck_of_tiny_cbn_cards_converts_both_ways(capsys, tmp_path, card):
    source = tmp_path / "tiny.cbn"
    source.write_bytes(card * 5000)
    text = tmp_path / "tiny.txt"
    assert run(capsys, "convert", str(source), str(text), "--from", "cbn", "--to", "text")[0] == 0
    line = {b"\xff\x40": b"~raw7700\n", b"\x8f": b"~\r\n", b"\xc0\x40": b" \n"}[card]
    assert text.read_bytes() == line * 5000
    back = tmp_path / "back.cbn"
    assert run(capsys, "convert", str(text), str(back), "--to", "cbn")[0] == 0
    with open(source, "rb") as a, open(back, "rb") as b:
        assert list(read_deck(a, "cbn")) == list(read_deck(b, "cbn"))


@pytest.mark.parametrize("byte", [0xFF, 0xC0])
def test_a_file_of_one_byte_cbn_cards_is_refused_at_card_1(capsys, tmp_path, byte):
    """Issue 25 §6: each such byte is a card that ends on an odd byte (half a column): the first is in
    error, and nothing is written; ``decode --lenient`` still reads them."""
    source, target = tmp_path / "tiny.cbn", tmp_path / "tiny.art"
    source.write_bytes(bytes([byte]) * 3_000_000)
    status, _, err = run(capsys, "convert", str(source), str(target), "--to", "art")
    assert status == 2 and f"{source}: card 1: card ends on an odd byte (1 byte)" in err, err
    assert not target.exists()
    small = tmp_path / "small.cbn"
    small.write_bytes(bytes([byte]) * 3)
    status, out, _ = run(capsys, "decode", str(small), "--lenient", "--format", "cbn")
    assert status == 0 and len(out.splitlines()) == 3
