"""simh 3.8 decks (``i1401``, ``i7094``, their column binary), 7090 row binary and ASCII-art cards.

Tables are checked against the reference tables in ``tests/data/`` (the 7094 H set and the simh
3.8.1 ``i7094`` column of the special characters; see its README) and ``H`` → ``-2`` (simh 3.8.1
column binary), then every format is round-tripped with hypothesis and fed random bytes, which
must give either cards or a clean :class:`CardError` (never another exception).
"""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import h_set_7094, special_characters
from reference import word as punch_word

from emulator.card import Card, punches_to_word
from emulator.codes import bcd1401
from emulator.errors import CardError, FormatError
from emulator.formats import get_format
from emulator.formats._simh38 import (
    A_SET_1401,
    A_SET_7094,
    CARD_ORDER_WORDS,
    H_SET_1401,
    H_SET_7094,
)
from emulator.formats.rowbin import card_to_row_words, row_words_to_card


def read(fmt: str, data: bytes, **kw) -> list[Card]:
    return list(get_format(fmt).read(io.BytesIO(data), **kw))


def write(fmt: str, cards: list[Card], **kw) -> bytes:
    out = io.BytesIO()
    get_format(fmt).write(cards, out, **kw)
    return out.getvalue()


# -- tables against the reference -----------------------------------------------------------------


def test_h_set_is_the_reference_string():
    assert H_SET_7094 == h_set_7094()
    diffs = {H_SET_7094[i] + A_SET_7094[i] for i in range(64) if H_SET_7094[i] != A_SET_7094[i]}
    assert {d[1] for d in diffs} == set("#@%&")  # "the A set differs only in #@%&"
    assert sorted(H_SET_1401) == sorted(H_SET_7094) and H_SET_1401[0o12] == "0" == A_SET_1401[0o12]


def _simh38_column() -> dict[str, int]:
    """Character → punches that simh 3.8.1 ``i7094`` reads it as (``—``: not a 7094 character)."""
    return {ch: punch_word(cells["simh38_i7094"]) for ch, cells in special_characters().items()
            if cells["simh38_i7094"] != "—"}


def test_text_mapping_matches_reference_special_characters():
    ref = _simh38_column()
    assert len(ref) > 25
    for ch, word in ref.items():
        if ch in ("%", "`"):
            continue  # '%': SIMH's own bug (reads 12-4-8), '`': SIMH reads it as a blank column
        assert read("i7094", ch.encode())[0][0] == word, ch
    assert read("i7094", b"%")[0][0] == punches_to_word("0-4-8")  # the A-set meaning, not the bug
    assert read("i7094", b"`", lenient=True)[0].is_blank()


def test_letters_digits_and_common_characters():
    card = read("i7094", b"AJS/0-9&.$,\n")[0]
    expected = ["12-1", "11-1", "0-2", "0-1", "0", "11", "9", "12", "12-3-8", "11-3-8", "0-3-8"]
    assert card == Card.from_punches(expected)
    assert read("i1401", b"AJS/0-9&.$,")[0] == card  # same holes on the 1401
    # but the 1401 punches its plus and minus zeros 12-0 and 11-0, SIMH's 7094 12-8-2 and 11-8-2
    assert read("i1401", b"?!")[0] == Card.from_punches(["12-0", "11-0"])
    assert read("i7094", b"?!")[0] == Card.from_punches(["12-2-8", "11-2-8"])
    assert len(set(CARD_ORDER_WORDS)) == 64


def test_column_binary_spelling_from_reference():
    h = Card.from_punches(["12-8"])
    assert write("i7094-cbn", [h]) == b"-2\n"  # §3.2: H -> -2
    assert read("i7094-cbn", b"-2\n") == [h]
    assert write("i7094-cbn", [Card.blank()]) == b"\n"
    # six bits 010000 (row 11 in the first half): the 7094 spells it '0', the 1401 '^'
    minus = Card.from_punches(["11", "0-2"])
    assert write("i7094-cbn", [minus]) == b"0 ^\n"  # 0-2 = 001010 -> '^' on the 7094
    assert write("i1401-cbn", [minus]) == b"^ 0\n"
    assert read("i1401-cbn", b"^ 0") == [minus]


def test_text_writer_sets_and_trimming():
    card = Card.from_punches(["12", "3-8", "4-8", "0-4-8", "12-4-8", "", ""])
    assert write("i7094", [card]) == b"+='()\n"
    assert write("i7094", [card], code="business") == b"&#@%)\n"
    assert write("i1401", [card]) == b"&#@%)\n"  # the 1401 punches the business set by default
    assert write("i1401", [card], code="fortran") == b"+='()\n"
    assert write("i1401", [Card.blank(), Card.blank()]) == b"\n\n"


def test_text_writer_refuses_non_bcd_patterns_unless_lenient():
    bad = Card.from_punches(["", "12-11-1"])
    with pytest.raises(CardError, match="card 1, column 2"):
        write("i7094", [bad])
    # lenient does what SIMH's punch does: OR the per-row values (12 -> 060, 11 -> 040, 1 -> 001)
    assert write("i7094", [bad], lenient=True) == b" A\n"
    with pytest.raises(CardError, match="business or FORTRAN"):
        write("i7094", [bad], code="ebcdic")


def test_reader_errors_name_card_and_column():
    with pytest.raises(CardError, match="card 2, column 3"):
        read("i7094", b"ABC\nAB\x01\n")
    with pytest.raises(FormatError, match="card 1"):
        read("i1401", b"A" * 81 + b"\n")
    with pytest.raises(FormatError, match="not ASCII"):
        read("i1401", "é\n".encode())
    assert read("i1401", b"AB\r\n") == [Card.from_punches(["12-1", "12-2"])]


@pytest.mark.parametrize("fmt", ["i7094", "i7094-cbn", "i1401", "i1401-cbn", "rowbin", "art"])
def test_eof_marker_is_refused(fmt):
    with pytest.raises(CardError, match="card 2: .*end-of-file"):
        write(fmt, [Card.blank(), Card.eof()])


# -- row binary ----------------------------------------------------------------------------------


def test_rowbin_word_order():
    card = Card.from_punches(["9"] + [""] * 35 + ["12"] + [""] * 34 + ["1"])  # cols 1, 37, 72
    words = card_to_row_words(card)
    assert words[0] == 1 << 35  # row 9, columns 1-36: column 1 is the MSB
    assert words[23] == 1 << 35  # row 12, columns 37-72
    assert words[2 * 8 + 1] == 1  # row 1, columns 37-72: column 72 is the LSB
    assert sum(1 for w in words if w) == 3
    data = write("rowbin", [card])
    assert len(data) == 120 and data[:5] == bytes.fromhex("0800000000")


def test_rowbin_refuses_columns_73_to_80_and_bad_records():
    card = Card.from_punches([""] * 79 + ["1"])
    with pytest.raises(CardError, match="column 80"):
        write("rowbin", [card])
    assert read("rowbin", write("rowbin", [card], lenient=True)) == [Card.blank()]
    with pytest.raises(FormatError, match="short record"):
        read("rowbin", bytes(121))
    with pytest.raises(FormatError, match="bits above 36"):
        read("rowbin", b"\x10" + bytes(119))


# -- ASCII art -----------------------------------------------------------------------------------


def test_art_draws_holes_and_reads_them_back():
    card = Card.from_text("HELLO, 0123 &", "029")
    data = write("art", [card])
    lines = data.decode().splitlines()
    assert len(lines) == 15 and lines[0] == " " + "_" * 80 and lines[1].startswith("/HELLO, 0123 &")
    assert lines[2][1:3] == "]]" and lines[3][1:3] == "  "  # H, E: row 12 punched, row 11 not
    assert lines[9][1:4] == "5]5" and lines[12][1] == "]"  # E is 12-5 (row 5 = line 9); H is 12-8
    assert read("art", data) == [card]
    # the text line is ignored: a lie there changes nothing
    lied = data.replace(b"/HELLO", b"/JELLO")
    assert read("art", lied) == [card]
    assert get_format("art").sniff(data) and not get_format("art").sniff(b"HELLO\n")


def test_art_errors():
    data = write("art", [Card.from_text("A", "029")])
    with pytest.raises(FormatError, match="ends in the middle"):
        read("art", data[:-250])
    with pytest.raises(FormatError, match="row 1"):
        read("art", data.replace(b"|]1111", b"|]X111"))
    with pytest.raises(FormatError, match="top edge"):
        read("art", b"hello\n")


# -- round trips and fuzzing ---------------------------------------------------------------------

BCD_WORDS = {"i7094": CARD_ORDER_WORDS, "i1401": bcd1401.WORDS}
any_cards = st.lists(st.integers(0, 0xFFF), max_size=80).map(Card)
rowbin_cards = st.lists(st.integers(0, 0xFFF), max_size=72).map(Card)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["i7094", "i1401"]), st.sampled_from(["fortran", "business"]), st.data())
def test_text_round_trip(fmt, charset, data):
    bcd_cards = st.lists(st.sampled_from(BCD_WORDS[fmt]), max_size=80).map(Card)
    cards = data.draw(st.lists(bcd_cards, max_size=4))
    assert read(fmt, write(fmt, cards, code=charset)) == cards


@settings(max_examples=60, deadline=None)
@given(st.lists(any_cards, max_size=4), st.sampled_from(["i7094-cbn", "i1401-cbn"]),
       st.sampled_from(["fortran", "business"]))
def test_column_binary_round_trip(cards, fmt, charset):
    assert read(fmt, write(fmt, cards, code=charset)) == cards


@settings(max_examples=60, deadline=None)
@given(st.lists(rowbin_cards, max_size=4))
def test_rowbin_round_trip(cards):
    assert read("rowbin", write("rowbin", cards)) == cards
    for card in cards:
        assert row_words_to_card(card_to_row_words(card)) == card


@settings(max_examples=40, deadline=None)
@given(st.lists(any_cards, max_size=3))
def test_art_round_trip(cards):
    assert read("art", write("art", cards)) == cards


FORMATS = ["i7094", "i7094-cbn", "i1401", "i1401-cbn", "rowbin", "art"]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(FORMATS), st.binary(max_size=400))
def test_random_bytes_give_cards_or_a_clean_error(fmt, data):
    try:
        cards = read(fmt, data)
    except CardError:
        return
    assert all(isinstance(c, Card) for c in cards)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(FORMATS), st.lists(any_cards, min_size=1, max_size=2), st.data())
def test_truncated_decks_give_cards_or_a_clean_error(fmt, cards, data):
    blob = write(fmt, cards, lenient=True)
    cut = data.draw(st.integers(0, len(blob)))
    try:
        read(fmt, blob[:cut])
    except CardError:
        pass


def test_art_decks_are_detected_automatically():
    from emulator.formats import read_deck, write_deck

    cards = [Card.from_text("HELLO ART", "029"), Card.from_text("0123", "029")]
    buf = io.BytesIO()
    write_deck(cards, buf, "art")
    assert list(read_deck(io.BytesIO(buf.getvalue()), "auto")) == cards
