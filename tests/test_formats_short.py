"""Short CBN cards and ``~raw`` lines are read at the cost of their bytes (issue 23 P1, issue 25 §6):
the bulk readers agree with plain references, card for card and error for error.

* CBN: a record shorter than 160 bytes reads as the same record padded with blank halves (0x40) and
  read as a whole card; a lone 0x8F is the EOF card; the first bad record (a parity error, a card
  over 160 bytes, one that ends on an odd byte) is the one the error names.
* Text: a ``~raw`` line reads as the one-line reader (:func:`~emulator.formats.text.line_to_words`)
  reads it.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emulator.deck import EOF_FLAG
from emulator.errors import FormatError
from emulator.formats import cbn, text


def _odd(byte: int) -> int:
    """``byte`` with bit 6 set or cleared so that bits 6-0 hold an odd count of ones."""
    return byte if bin(byte & 0x7F).count("1") % 2 else byte ^ 0x40


record = st.one_of(
    st.just(b"\x8f"),  # the EOF card
    st.tuples(st.integers(0x80, 0xFF), st.lists(st.integers(0, 0x7F), max_size=170), st.booleans()).map(
        lambda t: bytes([t[0], *t[1]]) if t[2] else bytes(_odd(b) for b in [t[0], *t[1]])),
)


def _reference(records: list[bytes], lenient: bool) -> np.ndarray:
    """Each record padded to a whole card and read through the whole-card path."""
    rows = []
    for number, rec in enumerate(records, 1):
        if rec == b"\x8f":
            rows.append(np.array([EOF_FLAG] + [0] * 79, dtype=np.uint16))
            continue
        whole = np.frombuffer(rec[:160].ljust(160, b"\x40"), dtype=np.uint8).reshape(1, 160)
        if not lenient:
            cbn._full_cards(whole, number, False, None)  # a parity error first
            if len(rec) > 160 or len(rec) % 2:
                raise FormatError("bad length", card=number)
        rows.append(cbn._full_cards(whole, number, True, None)[0])
    return np.array(rows, dtype=np.uint16).reshape(-1, 80)


@settings(deadline=None, max_examples=300)  # timing varies with machine load; speed is benchmarked elsewhere
@given(st.lists(record, min_size=1, max_size=12), st.booleans())
def test_short_cbn_records_read_as_padded_whole_cards(records, lenient):
    data = b"".join(records)
    try:
        expected: np.ndarray | FormatError = _reference(records, lenient)
    except FormatError as err:
        expected = err
    if isinstance(expected, FormatError):
        with pytest.raises(FormatError) as raised:
            list(cbn.read_arrays(io.BytesIO(data), lenient=lenient))
        assert raised.value.card == expected.card
    else:
        got = np.concatenate(list(cbn.read_arrays(io.BytesIO(data), lenient=lenient)))
        assert np.array_equal(got, expected)


def test_a_deck_of_two_byte_cards_reads_as_cards_with_one_column():
    words = np.concatenate(list(cbn.read_arrays(io.BytesIO(b"\xff\x40" * 70_000))))
    assert words.shape == (70_000, 80)
    assert (words[:, 0] == 0o7700).all() and not words[:, 1:].any()


raw_line = st.tuples(st.sampled_from(["~raw", "~RAW", "~Raw"]),
                     st.lists(st.integers(0, 0o7777), max_size=82), st.sampled_from(["", " ", "1", "9"])).map(
    lambda t: t[0] + "".join(f"{w:04o}" for w in t[1]) + t[2])


@settings(deadline=None)  # timing varies with machine load; speed is benchmarked elsewhere
@given(st.lists(st.one_of(raw_line, st.sampled_from(["~", "A", "~eor"])), min_size=1, max_size=12),
       st.booleans())
def test_raw_lines_read_in_bulk_as_one_by_one(lines, lenient):
    data = ("\n".join(lines) + "\n").encode()

    def one_by_one() -> np.ndarray:
        return np.array([text.line_to_words(line.encode(), "029", card=i, lenient=lenient)
                         for i, line in enumerate(lines, 1)])

    try:
        expected = one_by_one()
    except FormatError as err:
        with pytest.raises(FormatError) as raised:
            list(text.read_arrays(io.BytesIO(data), lenient=lenient))
        assert (raised.value.card, raised.value.column) == (err.card, err.column)
        return
    assert np.array_equal(np.concatenate(list(text.read_arrays(io.BytesIO(data), lenient=lenient))), expected)
