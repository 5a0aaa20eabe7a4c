"""Every code table against the reference notes, entry by entry, plus round trips.

The tables are parsed at test time out of ``../shared/reference/cardformats.md`` (§2.2 special
characters, §2.3 all 256 EBCDIC bytes), so a typo in a table module or in the notes shows up here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from emulator.card import Card, punches_to_word
from emulator.codes import Substitutions, get_code
from emulator.codes.ibm029 import EBCDIC_TO_WORD, WORD_TO_EBCDIC
from emulator.errors import CardError


def _reference() -> str:
    beside_repo = Path(__file__).resolve().parents[2] / "shared" / "reference"
    for base in (beside_repo, Path("/work/shared/reference")):
        path = base / "cardformats.md"
        if path.exists():
            return path.read_text(encoding="utf-8")
    raise FileNotFoundError(f"cardformats.md not found in {beside_repo} nor /work/shared/reference")


REFERENCE = _reference()


def _section(start: str, end: str) -> str:
    return REFERENCE.split(start, 1)[1].split(end, 1)[0]


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _word(cell: str) -> int:
    return 0 if cell in ("—", "none") else punches_to_word(cell)


def ebcdic_reference() -> dict[int, int]:
    """§2.3: EBCDIC byte → column word."""
    table = {}
    for line in _section("### 2.3", "**Rule").splitlines():
        m = re.match(r"\| ([0-9A-F])_ \|", line)
        if m:
            cells = _cells(line)[1:]
            assert len(cells) == 16
            for lo, cell in enumerate(cells):
                table[int(m.group(1), 16) * 16 + lo] = _word(cell)
    return table


def test_reference_table_2_3_is_complete_and_a_bijection():
    table = ebcdic_reference()
    assert len(table) == 256 and len(set(table.values())) == 256


def test_ebcdic_table_matches_reference_entry_by_entry():
    for byte, word in ebcdic_reference().items():
        assert EBCDIC_TO_WORD[byte] == word, f"byte {byte:02X}"
        assert WORD_TO_EBCDIC[word] == byte


def test_029_is_cp037_on_the_ebcdic_card_code():
    code = get_code("029")
    for byte, word in ebcdic_reference().items():
        ch = bytes([byte]).decode("cp037")
        assert code.encoding[ch] == word and code.decoding[word] == ch, f"byte {byte:02X}"
    expected = tuple(punches_to_word(p) for p in ("12-2-8", "11-7-8", "12-11"))
    assert code.encode("¢¬¦") == expected


def test_029_hello():
    card = Card.from_text("HELLO 123", "029")
    assert card.punches(1) == "12-8" and card.punches(6) == "" and card.punches(9) == "3"
    assert card.text("029").rstrip() == "HELLO 123"


def test_029_rejects_invalid_punch_naming_column():
    with pytest.raises(CardError, match="column 2"):
        Card.from_punches(["1", "1-2"]).text("029")
    with pytest.raises(CardError, match="column 3"):
        Card.from_text("AB€", "029")


def test_lenient_counts_substitutions():
    subs = Substitutions()
    words = get_code("029").encode("A€B€", lenient=True, substitutions=subs)
    assert subs.count == 2 and subs.first == [(None, 2), (None, 4)]
    assert words[1] == get_code("029").encoding["?"]
    subs = Substitutions()
    text = get_code("029").decode([punches_to_word("1-2"), 0], lenient=True, substitutions=subs, card=7)
    assert text == "? " and subs.count == 1 and subs.first == [(7, 1)]


@given(st.text(alphabet=bytes(range(256)).decode("cp037"), max_size=80))
def test_029_round_trip(text):
    assert Card.from_text(text, "029").text("029")[: len(text)] == text
