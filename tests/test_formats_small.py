"""The numpy-free path of ``cards decode`` for small decks (:mod:`emulator.small_decks`, issue 23 P7)
prints what the bulk path prints, byte for byte, and does take the plain decks.

Random CBN and text decks, in every code: plain ones, and ones with what the small path must leave to
the bulk path (short records, bad parity, EOF cards, ``~`` lines, TABs, long lines, punches the code
lacks).  Whenever the small path gives text, the bulk readers and writer give the same; when the bulk
path refuses the deck, the small path gave ``None``.
"""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from emulator import small_decks
from emulator.codes import CODE_NAMES, get_code
from emulator.errors import CardError
from emulator.formats import format_names, get_format, read_deck_arrays, write_deck_arrays
from emulator.formats.text import LongLines

CODES = st.sampled_from(CODE_NAMES)
FORMATS = st.sampled_from(["auto", "cbn", "text"])


def bulk(data: bytes, fmt: str, code: str) -> bytes | None:
    """What ``cards decode`` prints through the deck arrays, or None if it refuses the deck."""
    out = io.BytesIO()
    try:
        _, arrays = read_deck_arrays(io.BytesIO(data), fmt, code=code, long_lines=LongLines(truncate=True))
        write_deck_arrays(arrays, out, "text", code=code, raw=False)
    except CardError:
        return None
    return out.getvalue()


def printable(code: str) -> list[int]:
    """The column words that ``code`` prints as printable ASCII other than ``~``."""
    return sorted(w for w, ch in get_code(code).decoding.items() if " " <= ch <= "}")


def cbn_record(words: list[int]) -> bytes:
    """The CBN bytes of a card of these columns (no padding: a short card is a short record)."""
    def odd(six: int) -> int:
        return six | (0 if bin(six).count("1") % 2 else 0x40)
    out = bytearray()
    for word in words:
        out += bytes([odd(word >> 6), odd(word & 0x3F)])
    if out:
        out[0] |= 0x80
    return bytes(out)


@st.composite
def cbn_decks(draw, plain: bool = False):
    code = draw(CODES)
    words = st.sampled_from(printable(code)) if plain else st.one_of(
        st.sampled_from(printable(code)), st.integers(0, 0o7777))
    cards = draw(st.lists(st.lists(words, min_size=1, max_size=80), min_size=1, max_size=12))
    if plain:
        cards = [card + [0] * (80 - len(card)) for card in cards]
    data = b"".join(cbn_record(card) for card in cards)
    if not plain and draw(st.booleans()):  # a byte changed, its parity flipped, cut off; an EOF card
        at = draw(st.integers(0, len(data) - 1))
        byte = draw(st.integers(0, 255))
        new = draw(st.sampled_from([b"", b"\x8f", bytes([data[at] ^ 0x40]), bytes([byte])]))
        data = data[:at] + new + data[at + 1 :]
    return code, data


@st.composite
def text_decks(draw, plain: bool = False):
    code = draw(CODES)
    chars = "".join(sorted({get_code(code).decoding[w] for w in printable(code)}))
    if not plain:
        chars += "~\t\r\x7f¢abc"
    lines = draw(st.lists(st.text(alphabet=chars, max_size=80 if plain else 90), max_size=12))
    if plain:
        lines = [line.lstrip("~") for line in lines]
    return code, ("\n".join(lines) + draw(st.sampled_from(["", "\n"]))).encode("utf-8")


@settings(deadline=None, max_examples=300)  # timing varies with machine load; speed is benchmarked elsewhere
@given(st.one_of(cbn_decks(), text_decks()), FORMATS)
def test_what_the_small_path_decodes_the_bulk_path_decodes_alike(deck, fmt):
    code, data = deck
    small = small_decks.decode(data, fmt, get_code(code))
    if small is not None:
        assert small == bulk(data, fmt, code)


@settings(deadline=None)  # timing varies with machine load; speed is benchmarked elsewhere
@given(st.one_of(cbn_decks(plain=True), text_decks(plain=True)))
def test_the_small_path_takes_plain_decks(deck):
    code, data = deck
    small = small_decks.decode(data, "auto", get_code(code))
    if small is None and not (len(data) < 160 and data[:1] >= b"\x80"):  # too short to detect as CBN
        told: list[str] = []  # simh 3.8 reads it otherwise, and the bulk path says so
        list(read_deck_arrays(io.BytesIO(data), "auto", code=code, other_reading=told.append)[1])
        assert len(told) == 1 and ("--format i1401" in told[0] or "--format i7094" in told[0])
    if small is not None:
        assert small == bulk(data, "auto", code)


def test_the_small_path_leaves_big_decks_and_odd_cards_to_the_bulk_path():
    code = get_code("029")
    assert small_decks.decode(b"HELLO\n" * 3000, "auto", code) is None  # over SMALL_BYTES
    assert small_decks.decode(b"A\tB\n", "auto", code) is None
    assert small_decks.decode(b"~raw0001\n", "auto", code) is None
    blank = b"\xc0" + b"\x40" * 159
    assert small_decks.decode(blank * 2, "auto", code) == b" \n \n"
    assert small_decks.decode(blank + b"\x8f", "auto", code) is None  # an EOF card
    assert small_decks.decode(blank[:-1] + b"\x00", "auto", code) is None  # a parity error
    assert small_decks.decode(b"HELLO\n", "cbn", code) is None
    assert small_decks.decode(b"HELLO\nWORLD", "text", code) == b"HELLO\nWORLD\n"


def test_the_undetected_extensions_are_the_formats():
    undetected = {ext for name in format_names() if name != "text" and get_format(name).sniff is None
                  for ext in get_format(name).extensions}
    assert set(small_decks.UNDETECTED_EXTENSIONS) == undetected


def test_a_card_has_the_columns_the_punches_module_says():
    """:data:`~emulator.formats.small_decks.COLUMNS` is written out (importing :mod:`emulator.punches`
    would cost the fastest command's start-up): it is the card's."""
    from emulator.punches import COLUMNS

    assert small_decks.COLUMNS == COLUMNS == 80


def test_the_byte_tables_are_parity_and_printable_ascii():
    """The ``bytes.translate`` tables are built without a loop over the bytes (start-up): each is
    what its byte-by-byte definition gives."""
    assert small_decks._ODD == bytes(bin(b & 0x7F).count("1") & 1 for b in range(256))
    assert small_decks._TEXT == bytes(int(0x20 <= b <= 0x7E or b == 0x0A) for b in range(256))
    assert small_decks._MARKS == bytes(int(b >= 0x80) for b in range(256))
    assert small_decks._LOW6 == bytes(b & 0x3F for b in range(256))
