"""The STR line code: four-of-eight.

Every character on an STR line is 8 bits with exactly four 1-bits: C(8,4) = 70 patterns, 64 data
characters and 6 left over for line control.  A received character with any other count of 1-bits is
a *character error* — except the LRC, the block check after each record, which may have any pattern.
Bits are named N X O R 8 4 2 1, most significant first, and go on the line in that order.

The 64 data characters stand for the 64 values of the 6-bit BCD code (the low nibble carries BCD
8-4-2-1).  A card column travels as the BCD character its punches stand for in the IBM 1401 card code,
so a column that is not one of the 1401's 63 punch patterns cannot be sent (the A-bit-only ``2E`` has
no card code).  The *column-binary* mode — our extension, not the 1013's — sends each 12-bit column
as two data characters, rows 12…3 and rows 4…9, each 6-bit half as the data character of that BCD
value.

Tables: ``docs/ibm1013.md`` §3 (the rows below, checked by ``tests/test_fourofeight.py``, and the
control codes as IBM's 1130 STR subroutine SCAT1 uses them).
"""

from __future__ import annotations

from typing import Final

import numpy as np
from mypy_extensions import i64

from emulator.card import punches_to_word

# -- the 64 data characters -----------------------------------------------------------------------
DATA_TABLE: tuple[tuple[int, str, str, int, str | None], ...] = (
    # (character, 7701 graphic, 1130 graphic, BCD value (octal), 1401 card punches or None)
    (0xF0, "space", "space", 0o00, ""),
    (0x6A, "+0", "cent", 0o72, "12-0"),
    (0x8B, ".", ".", 0o73, "12-3-8"),
    (0x6C, "lozenge", "<", 0o74, "12-4-8"),
    (0x56, "", "(", 0o75, "12-5-8"),
    (0x36, "", "+", 0o76, "12-6-8"),
    (0x8D, "group mark", "|", 0o77, "12-7-8"),
    (0x8E, "&", "&", 0o60, "12"),
    (0xCA, "-0", "!", 0o52, "11-0"),
    (0x4B, "$", "$", 0o53, "11-3-8"),
    (0xCC, "*", "*", 0o54, "11-4-8"),
    (0x5C, "", ")", 0o55, "11-5-8"),
    (0x3C, "", ";", 0o56, "11-6-8"),
    (0x4D, "delta", "not", 0o57, "11-7-8"),
    (0x4E, "-", "-", 0o40, "11"),
    (0xB1, "/", "/", 0o21, "0-1"),
    (0x2B, ",", ",", 0o33, "0-3-8"),
    (0xAC, "%", "%", 0o34, "0-4-8"),
    (0x5A, "word separator", "_", 0o35, "0-5-8"),
    (0x3A, "", ">", 0o36, "0-6-8"),
    (0x2D, "block mark", "?", 0o37, "0-7-8"),
    (0x2E, "space", ":", 0o20, None),
    (0x1B, "#", "#", 0o13, "3-8"),
    (0x9C, "@", "@", 0o14, "4-8"),
    (0x0F, "", "'", 0o15, "5-8"),
    (0x1E, "", "=", 0o16, "6-8"),
    (0x1D, "tape mark", '"', 0o17, "7-8"),
    (0x71, "A", "A", 0o61, "12-1"),
    (0x72, "B", "B", 0o62, "12-2"),
    (0x63, "C", "C", 0o63, "12-3"),
    (0x74, "D", "D", 0o64, "12-4"),
    (0x65, "E", "E", 0o65, "12-5"),
    (0x66, "F", "F", 0o66, "12-6"),
    (0x87, "G", "G", 0o67, "12-7"),
    (0x78, "H", "H", 0o70, "12-8"),
    (0x69, "I", "I", 0o71, "12-9"),
    (0xD1, "J", "J", 0o41, "11-1"),
    (0xD2, "K", "K", 0o42, "11-2"),
    (0xC3, "L", "L", 0o43, "11-3"),
    (0xD4, "M", "M", 0o44, "11-4"),
    (0xC5, "N", "N", 0o45, "11-5"),
    (0xC6, "O", "O", 0o46, "11-6"),
    (0x47, "P", "P", 0o47, "11-7"),
    (0xD8, "Q", "Q", 0o50, "11-8"),
    (0xC9, "R", "R", 0o51, "11-9"),
    (0xAA, "record mark", "", 0o32, "0-2-8"),
    (0xB2, "S", "S", 0o22, "0-2"),
    (0xA3, "T", "T", 0o23, "0-3"),
    (0xB4, "U", "U", 0o24, "0-4"),
    (0xA5, "V", "V", 0o25, "0-5"),
    (0xA6, "W", "W", 0o26, "0-6"),
    (0x27, "X", "X", 0o27, "0-7"),
    (0xB8, "Y", "Y", 0o30, "0-8"),
    (0xA9, "Z", "Z", 0o31, "0-9"),
    (0x9A, "0", "0", 0o12, "0"),
    (0xE1, "1", "1", 0o01, "1"),
    (0xE2, "2", "2", 0o02, "2"),
    (0x93, "3", "3", 0o03, "3"),
    (0xE4, "4", "4", 0o04, "4"),
    (0x95, "5", "5", 0o05, "5"),
    (0x96, "6", "6", 0o06, "6"),
    (0x17, "7", "7", 0o07, "7"),
    (0xE8, "8", "8", 0o10, "8"),
    (0x99, "9", "9", 0o11, "9"),
)

# -- line control (docs/ibm1013.md §3, "Control characters") -----------------------------------------------
IDLE: Final = 0x39
"""Fill character of synchronize mode; ``CL IDLE`` ends a run of idles."""
TL: Final = 0x35
"""Transmit leader: starts every sequence the sending station sends."""
CL: Final = 0x55
"""Control leader: starts every reply of the receiving station."""
INQ: Final = 0x59
ERR: Final = 0x59
"""``TL INQ`` bids for the line; ``CL ERR`` says the record was bad, send it again."""
SOR1: Final = 0x53
ACK1: Final = 0x53
"""``TL SOR1`` starts a record numbered 1; ``CL ACK1`` accepts it."""
SOR2: Final = 0x33
ACK2: Final = 0x33
"""``TL SOR2`` starts a record numbered 2; ``CL ACK2`` accepts it (and answers ``TL INQ``)."""
EOT: Final = 0x5A
"""End of transmission (same pattern as the data character 5A; the leader tells them apart)."""
TEL: Final = 0x5C
"""Telephone request: call the operator at the far end (same pattern as data 5C)."""

CONTROL_CODES: dict[str, int] = {
    "IDLE": IDLE, "TL": TL, "CL": CL, "INQ": INQ, "ERR": ERR, "SOR1": SOR1, "SOR2": SOR2,
    "ACK1": ACK1, "ACK2": ACK2, "EOT": EOT, "TEL": TEL,
}
CONTROL_ONLY: bytes = bytes(sorted({IDLE, TL, CL, INQ, SOR1, SOR2}))
"""The six four-bit patterns that are not data characters (33 35 39 53 55 59)."""

# -- derived tables --------------------------------------------------------------------------------
FOUR_BIT: bytes = bytes(c for c in range(256) if c.bit_count() == 4)
"""All 70 four-of-eight patterns."""
DATA_CHARS: bytes = bytes(sorted(row[0] for row in DATA_TABLE))
"""The 64 data characters."""
CARD_CHARS: bytes = bytes(sorted(row[0] for row in DATA_TABLE if row[4] is not None))
"""The 63 data characters that have a 1401 card code (all but the A-bit-only ``2E``)."""

BCD_TO_CHAR: bytes = bytes(
    next(row[0] for row in DATA_TABLE if row[3] == value) for value in range(64)
)
"""Data character of each 6-bit BCD value (index = value)."""
CHAR_TO_BCD: dict[int, int] = {row[0]: row[3] for row in DATA_TABLE}

WORD_TO_CHAR: np.ndarray = np.zeros(4096, dtype=np.uint8)
"""Four-of-eight character of each 12-bit column word; 0 (not a code) where the 1401 has no such punch."""
CHAR_TO_WORD: np.ndarray = np.zeros(256, dtype=np.uint16)
"""Column word punched for each data character (0 = blank, also for non-card characters)."""
for _char, _g7701, _g1130, _bcd, _punches in DATA_TABLE:
    if _punches is not None:
        _word = punches_to_word(_punches)
        WORD_TO_CHAR[_word] = _char
        CHAR_TO_WORD[_char] = _word
HALF_TO_CHAR: np.ndarray = np.frombuffer(BCD_TO_CHAR, dtype=np.uint8).copy()
"""Column-binary mode: data character of each 6-bit half column."""
CHAR_TO_HALF: np.ndarray = np.zeros(256, dtype=np.uint16)
for _value, _char in enumerate(BCD_TO_CHAR):
    CHAR_TO_HALF[_char] = _value


def is_four_of_eight(char: int) -> bool:
    """True if ``char`` has exactly four 1-bits (a valid STR character other than the LRC)."""
    return char.bit_count() == 4


_XOR_OF_TWO_BYTES: Final = bytes((v ^ (v >> 8)) & 0xFF for v in range(1 << 16))


_COMPILED: Final = not __file__.endswith(".py")
"""Whether mypyc compiled this module (:mod:`emulator.compiled`): :func:`lrc` picks its loop by it."""


def lrc(data: bytes) -> int:
    """The longitudinal redundancy check of a record's data: bit-wise XOR of all its characters.

    It runs once per record received, so it takes the fastest way each build has.  Compiled, a loop
    over the bytes on machine integers is native code (:func:`lrc_if_allowed` with nothing barred).
    As Python source such a loop is slow, so the record is read as one big integer and folded in
    halves down to 16 bits, and a table gives the XOR of those two bytes: a handful of operations for
    any record up to 256 characters.  Both give the same answer (``tests/test_fourofeight.py``, in
    both builds).
    """
    if _COMPILED:
        return lrc_if_allowed(data, _NOTHING_BARRED)
    size = len(data)
    if size > 256:
        return lrc(data[:256]) ^ lrc(data[256:])
    n = int.from_bytes(data, "little")
    if size > 128:
        n ^= n >> 1024
    if size > 64:
        n ^= n >> 512
    n ^= n >> 256
    n ^= n >> 128
    n ^= n >> 64
    n ^= n >> 32
    n ^= n >> 16
    return _XOR_OF_TWO_BYTES[n & 0xFFFF]


def barred(allowed: bytes) -> bytes:
    """A 256-entry table for :func:`lrc_if_allowed`: 1 for each character not in ``allowed``."""
    return bytes(0 if c in allowed else 1 for c in range(256))


_NOTHING_BARRED: Final = bytes(256)


def lrc_if_allowed(data: bytes, barred: bytes) -> int:
    """:func:`lrc` of ``data``, or -1 (which matches no LRC) if it holds a character whose entry in
    ``barred`` (see :func:`barred`) is non-zero: the receiver's whole check of a record's data in
    one pass over it when compiled."""
    if _COMPILED:
        xor: i64 = 0  # i64: machine integers in the compiled build (a plain int as source)
        end: i64 = len(data)
        k: i64 = 0
        while k < end:
            char = data[k]
            if barred[char]:
                return -1
            xor ^= char
            k += 1
        return xor
    if 1 in data.translate(barred):
        return -1
    return lrc(data)


def describe(char: int) -> str:
    """A short human name for a character, e.g. ``'A' (71)`` or ``IDLE (39)``."""
    for row in DATA_TABLE:
        if row[0] == char:
            return f"{row[2] or row[1]!r} ({char:02X})"
    names = [n for n, v in CONTROL_CODES.items() if v == char]
    if names:
        return f"{'/'.join(names)} ({char:02X})"
    return f"{char:02X} ({char.bit_count()} one-bits)"
