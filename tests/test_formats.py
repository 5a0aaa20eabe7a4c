"""SIMH 4.x deck formats (text, cbn, bin, ebcdic): golden bytes, round trips, bad and fuzzed input.

Byte layouts and golden vectors from ``docs/cards.md`` §3 and SIMH's ``sim_card.c``.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator.card import EOF_CARD, Card, punches_to_word
from emulator.codes import Substitutions
from emulator.codes.ibm029 import WORD_TO_EBCDIC
from emulator.deck import cards_to_array
from emulator.errors import CardError, FormatError
from emulator.formats import detect, get_format, read_deck, read_deck_arrays, write_deck

MINE = ("text", "cbn", "bin", "ebcdic")
H = Card.from_text("H")


def write(cards, fmt: str, **options) -> bytes:
    out = io.BytesIO()
    write_deck(cards, out, fmt, **options)
    return out.getvalue()


def read(data: bytes, fmt: str = "auto", **options) -> list[Card]:
    return list(read_deck(io.BytesIO(data), fmt, **options))


# -- golden vectors ----------------------------------------------------------------------------------

def test_golden_h():
    assert write([H], "cbn")[:4] == bytes([0xA0, 0x02, 0x40, 0x40])
    assert write([H], "bin")[:4] == bytes([0x20, 0x80, 0x00, 0x00])
    assert write([H], "ebcdic")[:2] == bytes([0xC8, 0x40])
    assert write([H], "text") == b"H\n"
    assert [len(write([H], f)) for f in ("cbn", "bin", "ebcdic")] == [160, 160, 80]


def test_golden_blank_and_eof():
    assert write([Card.blank()], "cbn") == bytes([0xC0, 0x40]) + bytes([0x40]) * 158
    assert write([Card.blank()], "text") == b" \n"
    assert write([EOF_CARD], "cbn") == b"\x8f"
    assert write([EOF_CARD], "text") == b"~\r\n"
    assert read(b"\x8f" + write([H], "cbn"), "cbn") == [EOF_CARD, H]


def test_bin_byte_layout():
    # rows 6,7,8,9 in b7-b4 of byte 0; rows 12,11,0,1,2,3,4,5 in byte 1
    card = Card.from_punches(["6-7-8-9", "12-11-0-1-2-3-4-5"])
    assert write([card], "bin")[:4] == bytes([0xF0, 0x00, 0x00, 0xFF])


def test_cbn_byte_layout_and_parity():
    card = Card.from_punches(["12-11-0-1-2-3", "4-5-6-7-8-9", "9"])
    data = write([card], "cbn")
    # 6 ones: even -> parity bit set; record mark on column 1 only
    assert data[:6] == bytes([0x80 | 0x40 | 0x3F, 0x40, 0x40, 0x40 | 0x3F, 0x40, 0x01])


# -- text deck rules -----------------------------------------------------------------------------------

def test_text_special_lines():
    deck = read(b"~\n~raw4400\n~RAW0000\n~eor\n~EOF junk\n~eoi\n~hello\n~  \t\n", "text")
    assert deck[0] == EOF_CARD and deck[7] == EOF_CARD
    assert deck[1] == Card([punches_to_word("12-1")])
    assert deck[2] == Card.blank()
    assert deck[3] == Card([punches_to_word("7-8-9")])
    assert deck[4] == Card([punches_to_word("6-7-9")])
    assert deck[5] == Card([punches_to_word("6-7-8-9")])
    assert deck[6] == Card.from_text("~hello")


def test_text_tabs_cr_nul_and_long_lines():
    deck = read(b"A\tB\r\nC\0D\n" + b"X" * 100 + b"Y\n\t\t\t\t\t\t\t\t\t\tZ\n", "text")
    assert deck[0] == Card.from_text("A       B")
    assert deck[1] == Card.from_text("CD")
    assert deck[2] == Card.from_text("X" * 80)
    assert deck[3] == Card.blank()  # the Z would be in column 81
    assert read(b"no newline at end", "text") == [Card.from_text("no newline at end")]
    assert read(b"", "text") == [] and read(b"\n", "text") == [Card.blank()]


def test_text_writer_trims_and_uses_raw():
    cards = [Card.from_text("AB   "), Card.blank(), Card.from_punches(["1-2"]), Card.from_text("~RAW"),
             Card([punches_to_word("7-8-9")]), Card.from_text("~x"), EOF_CARD]
    lines = write(cards, "text").decode().splitlines()
    assert lines[0] == "AB" and lines[1] == " "
    assert lines[2] == "~raw0600"  # up to the last punched column: SIMH reads the rest as blank
    assert lines[3].startswith("~raw") and lines[4] == "~eor" and lines[5] == "~x" and lines[6] == "~"
    assert read(write(cards, "text"), "text") == cards


def test_text_utf8_and_codes():
    assert read("¢ ¬ ¦\n".encode(), "text") == [Card.from_text("¢ ¬ ¦")]
    assert write([Card.from_text("¢")], "text") == "¢\n".encode()
    fortran = read(b"A=B+C\n", "text", code="026-fortran")
    assert fortran == [Card.from_text("A=B+C", "026-fortran")]
    assert write(fortran, "text", code="026-commercial") == b"A#B&C\n"


def test_text_errors_name_card_and_column():
    with pytest.raises(CardError, match=r"deck.txt: card 2, column 3"):
        read("ok\nab€\n".encode(), "text", source="deck.txt")
    with pytest.raises(FormatError, match=r"card 1, column 2"):
        read(b"~raw00009999\n", "text")
    with pytest.raises(FormatError, match="card 2.*UTF-8"):
        read(b"A\n\xff\n", "text")
    subs = Substitutions()
    assert read("a€b€\n".encode(), "text", lenient=True, substitutions=subs)[0] == Card.from_text("a?b?")
    assert subs.count == 2 and subs.first == [(1, 2), (1, 4)]


def test_text_plain_mode_refuses_non_text():
    cards = [Card.from_text("OK"), Card.from_punches(["", "1-2"])]
    with pytest.raises(CardError, match="card 2, column 2"):
        write(cards, "text", raw=False)
    subs = Substitutions()
    assert write(cards, "text", raw=False, lenient=True, substitutions=subs) == b"OK\n ?\n"
    assert subs.count == 1


# -- binary deck errors --------------------------------------------------------------------------------

def test_bin_short_record_is_an_error_naming_the_card():
    data = write([H, H], "bin")
    with pytest.raises(FormatError, match=r"d.bin: card 2: short last card: 100 of 160"):
        read(data[:260], "bin", source="d.bin")
    assert read(data[:260], "bin", lenient=True) == [H, H]  # padded with blank columns
    with pytest.raises(FormatError, match="card 1, column 2"):
        read(bytes([0, 0, 1, 0]) + bytes(156), "bin")
    with pytest.raises(FormatError, match="end-of-file"):
        write([H, EOF_CARD], "bin")


def test_ebcdic_short_card_and_invalid_punches():
    data = write([H, H], "ebcdic")
    with pytest.raises(FormatError, match="card 2: short last card: 79 of 80"):
        read(data[:-1], "ebcdic")
    assert read(data[:-1], "ebcdic", lenient=True) == [H, H]
    first = read(bytes(range(256)) + bytes(64), "ebcdic")[0]
    assert first.text("029") == bytes(range(80)).decode("cp037")
    bad = Card.from_punches(["", "", "1-2"])
    with pytest.raises(CardError, match="card 2, column 3"):
        write([H, bad], "ebcdic")
    subs = Substitutions()
    assert write([bad], "ebcdic", lenient=True, substitutions=subs)[2] == 0x6F and subs.count == 1


def test_cbn_errors():
    data = bytearray(write([H, H], "cbn"))
    with pytest.raises(FormatError, match="no record mark"):
        read(bytes(data[1:]), "cbn")
    data[163] ^= 0x01  # card 2, column 2: parity broken
    with pytest.raises(FormatError, match=r"card 2, column 2: parity error"):
        read(bytes(data), "cbn")
    assert len(read(bytes(data), "cbn", lenient=True)) == 2
    long_card = write([H], "cbn") + b"\x40\x40" + write([H], "cbn")
    with pytest.raises(FormatError, match="card 1: card is 162 bytes"):
        read(long_card, "cbn")
    assert read(long_card, "cbn", lenient=True) == [H, H]


def test_cbn_short_cards_read_with_the_rest_blank():
    hello = write([Card.from_text("HELLO")], "cbn")
    deck = read(hello[:6] + hello[:4], "cbn")
    assert deck == [Card.from_text("HEL"), Card.from_text("HE")]


@pytest.mark.parametrize("where", ["last", "middle"])
def test_a_cbn_card_of_an_odd_byte_count_is_in_error_naming_it(where):
    """Issue 25 §6: a deck ending on an odd byte was read as half a column without a word; SIMH 4.x
    marks that card in error.  ``lenient`` reads the half column (rows 12-3 only)."""
    hello = write([Card.from_text("HELLO")], "cbn")
    odd = hello[:6] + hello[:5]
    data = odd if where == "last" else odd + hello
    with pytest.raises(FormatError, match=r"^card 2: card ends on an odd byte \(5 bytes\): its column 3 "):
        read(data, "cbn")
    deck = read(data, "cbn", lenient=True)
    assert deck[1] == Card.from_punches(["12-8", "12-5", "11-3"])  # L = 11-3: rows 12-3 only


# -- detection ----------------------------------------------------------------------------------------------

def test_detect_like_simh_auto():
    assert detect(write([H], "bin")).name == "bin"
    assert detect(write([H, H], "cbn")).name == "cbn"
    assert detect(b"HELLO\n").name == "text"
    # A CBN deck of blanks and digits 4-9 passes SIMH's BIN test too; its CBN framing wins here.
    digits = write([Card.from_text("456789"), Card.blank()], "cbn")
    assert get_format("bin").sniff(digits) and detect(digits).name == "cbn"
    assert read(digits) == [Card.from_text("456789"), Card.blank()]
    assert detect(write([EOF_CARD, H], "cbn")).name == "cbn"
    fmt, _ = read_deck_arrays(io.BytesIO(write([H], "ebcdic")))
    assert fmt.name == "text"  # EBCDIC is never detected: name it


def test_auto_reads_from_a_pipe_like_stream():
    class Pipe(io.RawIOBase):
        def __init__(self, data: bytes) -> None:
            self.data = data

        def readable(self) -> bool:
            return True

        def readinto(self, b) -> int:  # three bytes at a time
            n = min(3, len(b), len(self.data))
            b[:n], self.data = self.data[:n], self.data[n:]
            return n

    deck = [Card.from_text(f"CARD {i}") for i in range(20)] + [EOF_CARD]
    assert list(read_deck(Pipe(write(deck, "cbn")))) == deck  # type: ignore[arg-type]
    assert list(read_deck(Pipe(write(deck[:-1], "bin")))) == deck[:-1]  # type: ignore[arg-type]


# -- round trips and fuzzing ----------------------------------------------------------------------------

words = st.integers(0, 0xFFF)
ebcdic_words = st.sampled_from(sorted(WORD_TO_EBCDIC))
cards = st.lists(words, max_size=80).map(Card)
decks = st.lists(st.one_of(cards, st.just(EOF_CARD)), max_size=12)
plain_decks = st.lists(cards, max_size=12)


@settings(deadline=None)  # timing varies with machine load; speed is benchmarked elsewhere
@given(decks)
def test_round_trip_text_and_cbn(deck):
    for fmt in ("text", "cbn"):
        assert read(write(deck, fmt), fmt) == deck


@settings(deadline=None)  # timing varies with machine load; speed is benchmarked elsewhere
@given(plain_decks)
def test_round_trip_bin(deck):
    assert read(write(deck, "bin"), "bin") == deck


@settings(deadline=None)  # timing varies with machine load; speed is benchmarked elsewhere
@given(st.lists(st.lists(ebcdic_words, max_size=80).map(Card), max_size=12))
def test_round_trip_ebcdic(deck):
    assert read(write(deck, "ebcdic"), "ebcdic") == deck


@settings(deadline=None)  # timing varies with machine load; speed is benchmarked elsewhere
@given(st.lists(st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\n\r\0~"), max_size=90),
                max_size=8))
def test_text_lines_round_trip_through_cards(lines):
    data = "".join(line + "\n" for line in lines).encode()
    deck = read(data, "text", lenient=True)
    assert len(deck) == len(lines)
    assert read(write(deck, "text"), "text") == deck


@pytest.mark.parametrize("fmt", [*MINE, "auto"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=700))
def test_fuzzed_input_gives_only_clean_errors(fmt, data):
    for lenient in (False, True):
        try:
            read(data, fmt, lenient=lenient)
        except CardError:
            pass


@pytest.mark.parametrize("fmt", MINE)
@settings(deadline=None)  # timing varies with machine load; speed is benchmarked elsewhere
@given(deck=st.lists(st.lists(ebcdic_words, max_size=80).map(Card), max_size=12), cut=st.integers(0, 2000))
def test_truncated_files_give_cards_or_clean_errors(fmt, deck, cut):
    data = write(deck, fmt)[:cut]
    try:
        got = read(data, fmt)
    except CardError:
        return
    assert len(got) <= len(deck)


def test_large_deck_streams_in_chunks():
    deck = cards_to_array([Card.from_text(f"{i:08d}") for i in range(5)])
    many = np.tile(deck, (20000, 1))  # 100,000 cards: several 1 MB chunks
    for fmt in MINE:
        out = io.BytesIO()
        get_format(fmt).write_arrays([many], out)
        chunks = list(get_format(fmt).read_arrays(io.BytesIO(out.getvalue())))
        assert len(chunks) > 1 or fmt == "text"
        assert np.array_equal(np.concatenate(chunks), many), fmt


def test_text_skips_a_byte_order_mark():
    assert read("\ufeffAB\n".encode(), "text") == [Card.from_text("AB")]
    assert read(b"\xef\xbb\xbf", "text") == []

    class Trickle(io.RawIOBase):  # the mark alone in the first read
        def __init__(self) -> None:
            self.parts = [b"\xef\xbb\xbf", b"HI\n"]

        def readable(self) -> bool:
            return True

        def read(self, n: int = -1) -> bytes:
            return self.parts.pop(0) if self.parts else b""

    assert list(read_deck(Trickle(), "text")) == [Card.from_text("HI")]  # type: ignore[arg-type]


def _outcome(data: bytes, fmt: str, lenient: bool):
    try:
        return [c.columns if not c.is_eof else "EOF" for c in read(data, fmt, lenient=lenient)]
    except CardError as err:
        return (type(err).__name__, err.card, err.column)


mutated_decks = st.tuples(decks, st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 255)), max_size=4))


@pytest.mark.parametrize("fmt", MINE)
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(deck_and_edits=mutated_decks, noise=st.binary(max_size=400), chunk=st.integers(1, 400))
def test_chunk_boundaries_do_not_change_the_result(monkeypatch, fmt, deck_and_edits, noise, chunk):
    """Reading in tiny chunks gives exactly what one big chunk gives: cards, or the same error."""
    from emulator.formats import _records, cbn, text

    deck, edits = deck_and_edits
    deck = [c for c in deck if fmt in ("text", "cbn") or not c.is_eof]
    try:
        data = bytearray(write(deck, fmt, lenient=True))
    except CardError:
        data = bytearray()
    for pos, value in edits:
        if data:
            data[pos % len(data)] = value
    for sample in (bytes(data), bytes(data) + noise, noise):
        expected = [_outcome(sample, fmt, lenient) for lenient in (False, True)]
        with monkeypatch.context() as m:
            for module in (_records, cbn, text):
                m.setattr(module, "CHUNK_BYTES", chunk)
            m.setattr(text, "MAX_LINE", 1000)  # longer than any line here
            assert [_outcome(sample, fmt, lenient) for lenient in (False, True)] == expected


def test_an_over_long_first_card_reports_its_parity_error_whatever_the_chunking(monkeypatch):
    """Found by the property above: an EOF byte followed by two cards whose record marks were lost
    makes a 321-byte card; both read paths must name the parity error in column 1 first."""
    from emulator.formats import cbn

    data = bytearray(write([Card.eof(), Card([]), Card([]), Card([])], "cbn"))
    data[1] = data[161] = 0
    expected = ("FormatError", 1, 1)
    assert _outcome(bytes(data), "cbn", False) == expected
    monkeypatch.setattr(cbn, "CHUNK_BYTES", 1)
    assert _outcome(bytes(data), "cbn", False) == expected


class _Endless(io.RawIOBase):
    """``total`` bytes of ``record`` repeated, made up as they are read (nothing held in memory)."""

    def __init__(self, record: bytes, total: int) -> None:
        self.record, self.left, self.offset = record, total, 0
        self.pattern = record * (65536 // len(record) + 2)  # copied out 64 KB at a time

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = min(len(buffer), self.left)
        view = memoryview(buffer)
        done = 0
        while done < n:
            part = self.pattern[self.offset : self.offset + min(n - done, 65536)]
            view[done : done + len(part)] = part
            done += len(part)
            self.offset = (self.offset + len(part)) % len(self.record)
        self.left -= n
        return n


def _read_endless(fmt: str, record: bytes, total: int) -> tuple[int, int]:
    """Cards read from ``total`` bytes of ``record`` repeated, and the peak memory traced meanwhile."""
    import tracemalloc

    tracemalloc.start()
    try:
        _, arrays = read_deck_arrays(io.BufferedReader(_Endless(record, total)), fmt)
        count = sum(len(words) for words in arrays)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return count, peak


@pytest.mark.parametrize("fmt", MINE)
def test_reading_streams_in_bounded_memory(fmt):
    record = write([Card.from_text(f"CARD {i:05d} OF A LONG DECK") for i in range(100)], fmt)
    total = (24 << 20) // len(record) * len(record)  # about 24 MB of deck
    count, peak = _read_endless(fmt, record, total)
    assert count == total // len(record) * 100
    assert peak < 20 << 20, f"{fmt}: peak {peak >> 20} MB for a {total >> 20} MB deck"


@pytest.mark.parametrize(("fmt", "record"), [("text", b"\n"), ("cbn", b"\x8f"), ("cbn", b"\xc0\x40")])
def test_tiny_records_stay_in_bounded_memory(fmt, record):
    """A deck of empty lines or lone EOF bytes has a card per byte or two; chunks still stay small."""
    total = 2 << 20  # two chunks
    count, peak = _read_endless(fmt, record, total)
    assert count == total // len(record)
    assert peak < 40 << 20, f"{fmt}: peak {peak >> 20} MB"
