"""The bulk path of whole-file conversion (issue 23 P1) gives, byte for byte, what a card-by-card
reading of the formats gives, in every code, and an error still names the card and column.

The bulk readers and writers work on chunks of cards at once (64-bit words of CBN bytes, table
look-ups, output written from the arrays).  Here each format is also read and written one
card at a time in plain Python, straight from its definition: CBN's two six-bit bytes per column with
odd parity and the record mark (``docs/cards.md`` §3), Hercules' one EBCDIC byte per column, and text
through the code's own ``encode``/``decoding``.  Chunks are made small so that the decks here cross
many chunk boundaries.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emulator.codes import CODE_NAMES, get_code
from emulator.codes.ibm029 import EBCDIC_TO_WORD, WORD_TO_EBCDIC
from emulator.errors import CardError
from emulator.formats import _records, cbn, read_deck_arrays, text, write_deck_arrays
from emulator.formats.text import LongLines

CODES = st.sampled_from(CODE_NAMES)


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Read in chunks of a few cards (not a whole number of records), so that a deck crosses many."""
    for module in (cbn, text, _records):
        monkeypatch.setattr(module, "CHUNK_BYTES", 1000)


# -- one card at a time --------------------------------------------------------------------------

def _odd(six: int) -> int:
    """A six-bit value with bit 6 set when needed to make its count of ones odd."""
    return six | (0x40 if bin(six).count("1") % 2 == 0 else 0)


def cbn_card(words: list[int]) -> bytes:
    record = bytearray()
    for word in words:
        record += bytes([_odd(word >> 6), _odd(word & 0x3F)])
    record[0] |= 0x80
    return bytes(record)


def cbn_words(record: bytes) -> list[int]:
    return [((record[2 * i] & 0x3F) << 6) | (record[2 * i + 1] & 0x3F) for i in range(80)]


def text_line(words: list[int], code: str) -> bytes:
    """``cards decode``'s line of a card of printable ASCII: trailing blanks trimmed, a blank card one
    space."""
    return (get_code(code).decode(words).rstrip(" ") or " ").encode() + b"\n"


def text_words(line: str, code: str) -> list[int]:
    words = list(get_code(code).encode(line[:80]))
    return words + [0] * (80 - len(words))


def printable(code: str) -> list[int]:
    """Column words ``code`` prints as printable ASCII that a text deck reads back as a plain line."""
    return sorted(w for w, ch in get_code(code).decoding.items() if " " <= ch <= "}")


def deck(draw: st.DrawFn, words: list[int], cards: int) -> list[list[int]]:
    return [draw(st.lists(st.sampled_from(words), min_size=80, max_size=80)) for _ in range(cards)]


def bulk_write(arrays: list[np.ndarray], fmt: str, code: str, **options: object) -> bytes:
    out = io.BytesIO()
    write_deck_arrays(arrays, out, fmt, code=code, **options)
    return out.getvalue()


def bulk_read(data: bytes, fmt: str, code: str, **options: object) -> list[list[int]]:
    _, arrays = read_deck_arrays(io.BytesIO(data), fmt, code=code, **options)
    return [row for chunk in arrays for row in chunk.tolist()]


# -- the properties -------------------------------------------------------------------------------

@st.composite
def coded_decks(draw: st.DrawFn) -> tuple[str, list[list[int]]]:
    """A code and a deck of cards that print as text in it, with some blank columns."""
    code = draw(CODES)
    return code, deck(draw, printable(code) + [0] * 20, draw(st.integers(0, 40)))


@settings(max_examples=60, deadline=None)
@given(coded_decks())
def test_text_to_cbn_and_back_equals_the_cards_one_by_one(case: tuple[str, list[list[int]]]) -> None:
    code, cards = case
    lines = b"".join(text_line(words, code) for words in cards)
    expected = [text_words(line, code) for line in lines.decode().splitlines()]
    assert bulk_read(lines, "text", code, text_only=True, long_lines=LongLines()) == expected
    punched = b"".join(cbn_card(words) for words in expected)
    assert bulk_write([np.array(expected, dtype=np.uint16).reshape(-1, 80)], "cbn", code) == punched
    assert bulk_read(punched, "cbn", code) == expected
    assert bulk_write([np.array(expected, dtype=np.uint16).reshape(-1, 80)], "text", code, raw=False) == lines


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_any_punches_go_through_cbn_and_ebcdic_as_card_by_card(data: st.DataObject) -> None:
    """Any 12-bit columns through CBN, and the EBCDIC card code's columns through EBCDIC."""
    any_cards = deck(data.draw, list(range(4096)), data.draw(st.integers(0, 30)))
    punched = b"".join(cbn_card(words) for words in any_cards)
    arrays = [np.array(any_cards, dtype=np.uint16).reshape(-1, 80)]
    assert bulk_write(arrays, "cbn", "029") == punched
    assert bulk_read(punched, "cbn", "029") == any_cards
    ebcdic_cards = deck(data.draw, list(WORD_TO_EBCDIC), data.draw(st.integers(0, 30)))
    records = bytes(WORD_TO_EBCDIC[w] for words in ebcdic_cards for w in words)
    assert bulk_read(records, "ebcdic", "029") == [[EBCDIC_TO_WORD[b] for b in records[i : i + 80]]
                                                   for i in range(0, len(records), 80)]
    assert bulk_write([np.array(ebcdic_cards, dtype=np.uint16).reshape(-1, 80)], "ebcdic", "029") == records


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_parity_error_is_named_by_its_card_column_and_byte(data: st.DataObject) -> None:
    cards = deck(data.draw, list(range(4096)), data.draw(st.integers(1, 30)))
    punched = bytearray(b"".join(cbn_card(words) for words in cards))
    card = data.draw(st.integers(0, len(cards) - 1))
    byte = data.draw(st.integers(0, 159))
    punched[160 * card + byte] ^= 0x40  # the parity bit: the column's data is unchanged
    with pytest.raises(CardError) as caught:
        bulk_read(bytes(punched), "cbn", "029", source="deck.cbn")
    half = "rows 12-3" if byte % 2 == 0 else "rows 4-9"
    assert str(caught.value) == (f"deck.cbn: card {card + 1}, column {byte // 2 + 1}: parity error in byte "
                                 f"{punched[160 * card + byte]:#04x} ({half})")
    assert bulk_read(bytes(punched), "cbn", "029", lenient=True) == cards


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_a_column_without_an_ebcdic_byte_is_named(data: st.DataObject) -> None:
    cards = deck(data.draw, list(WORD_TO_EBCDIC), data.draw(st.integers(1, 30)))
    card, column = data.draw(st.integers(0, len(cards) - 1)), data.draw(st.integers(0, 79))
    cards[card][column] = 0b0011_1000_0000  # rows 1 and 2 (and 3): no EBCDIC byte
    with pytest.raises(CardError) as caught:
        bulk_write([np.array(cards, dtype=np.uint16)], "ebcdic", "029")
    assert caught.value.card == card + 1 and caught.value.column == column + 1


def test_cbn_to_text_from_the_command_line_names_a_bad_column_and_writes_nothing(tmp_path) -> None:
    """A deck of a few thousand cards (the bulk path, many chunks) with bad parity deep inside: one line
    naming file, card and column, exit status 2, and no output file, nor a temporary one, left."""
    rng = np.random.default_rng(5)
    words = rng.choice(printable("029"), size=(5000, 80)).astype(np.uint16)
    data = bytearray(cbn.encode_array(words))
    data[160 * 4321 + 2 * 16 + 1] ^= 0x40  # card 4322, column 17, rows 4-9
    deck_path, out = tmp_path / "deck.cbn", tmp_path / "out.txt"
    deck_path.write_bytes(bytes(data))
    run = subprocess.run([sys.executable, "-m", "ibm1013", "cards", "decode", str(deck_path), "-o", str(out)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    byte = data[160 * 4321 + 33]
    assert run.stderr.strip().splitlines() == [
        f"ibm1013: {deck_path}: card 4322, column 17: parity error in byte {byte:#04x} (rows 4-9)"]
    assert sorted(os.listdir(tmp_path)) == ["deck.cbn"]
