"""The four-of-eight tables against the reference chart ``tests/data/fourofeight.csv`` (see its README)."""

import csv
import functools
import operator
from pathlib import Path

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from emulator.card import punches_to_word
from ibm1013.str import fourofeight as fo

CSV = Path(__file__).resolve().parent / "data" / "fourofeight.csv"


def csv_rows() -> list[dict[str, str]]:
    with open(CSV, newline="") as f:
        return list(csv.DictReader(f))


def test_every_csv_row_is_in_the_table():
    rows = csv_rows()
    assert len(rows) == 64 == len(fo.DATA_TABLE)
    table = {row[0]: row for row in fo.DATA_TABLE}
    for row in rows:
        char = int(row["hex"], 16)
        assert row["bits"] == f"{char:08b}"
        ours = table[char]
        assert ours[1] == row["graphic_7701"]
        assert ours[2] == row["graphic_1130"]
        assert ours[3] == int(row["bcd_octal"], 8)
        punches = row["punches"]
        expected = None if punches == "" else ("" if punches == "none" else punches)
        assert ours[4] == expected, row


def test_data_and_control_characters_split_the_70_patterns():
    assert len(fo.FOUR_BIT) == 70
    assert len(fo.DATA_CHARS) == 64 and len(fo.CONTROL_ONLY) == 6
    assert set(fo.DATA_CHARS) | set(fo.CONTROL_ONLY) == set(fo.FOUR_BIT)
    assert fo.CONTROL_ONLY == bytes([0x33, 0x35, 0x39, 0x53, 0x55, 0x59])
    # EOT and TEL share their pattern with data characters; the leader tells them apart
    assert fo.EOT in fo.DATA_CHARS and fo.TEL in fo.DATA_CHARS


def test_card_code_mapping_is_a_bijection_on_63_punches():
    words = [w for w in range(4096) if fo.WORD_TO_CHAR[w]]
    assert len(words) == 63 == len(fo.CARD_CHARS)
    for w in words:
        assert fo.CHAR_TO_WORD[fo.WORD_TO_CHAR[w]] == w
    assert fo.WORD_TO_CHAR[punches_to_word("12-1")] == 0x71  # A
    assert fo.WORD_TO_CHAR[0] == 0xF0  # blank column = BCD space
    assert fo.WORD_TO_CHAR[punches_to_word("12-11")] == 0  # not a 1401 character


def test_bcd_values_cover_0_to_63():
    assert sorted(fo.CHAR_TO_BCD.values()) == list(range(64))
    assert all(fo.CHAR_TO_HALF[fo.HALF_TO_CHAR[v]] == v for v in range(64))


@given(st.binary(max_size=400))
def test_lrc_is_the_xor_of_the_data(data):
    assert fo.lrc(data) == functools.reduce(operator.xor, data, 0)


def test_describe_names_characters():
    assert "A" in fo.describe(0x71)
    assert "IDLE" in fo.describe(0x39)
    assert "3 one-bits" in fo.describe(0x07)
    assert np.all(fo.HALF_TO_CHAR < 256)


@given(st.binary(max_size=200), st.binary(max_size=64))
def test_lrc_if_allowed_is_the_lrc_of_data_made_only_of_allowed_characters(data, allowed):
    expected = fo.lrc(data) if all(c in allowed for c in data) else -1
    assert fo.lrc_if_allowed(data, fo.barred(allowed)) == expected
