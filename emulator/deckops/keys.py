"""Sort keys: a field of each card turned into numbers that numpy can sort and compare.

A key field is read either as **characters**, each column ranked in the code's collating sequence
(:mod:`emulator.deckops.collate`) and the ranks packed into as few ``uint64`` keys as they fit
(:func:`character_keys`), or as a
**number** (``numeric``): its digits read as an integer.  Numbers are punched as digit holes
(rows 0–9, one per column); blank columns are skipped, so ``"  12"``, ``"12  "`` and ``"0012"`` are
all twelve; an 11 punch (alone, as ``-``, or over a digit, as IBM signed fields carried their sign)
makes the number negative, a 12 punch is a plus sign.  Anything else is an error naming the card
and column.  A numeric field holds at most 18 columns (it must fit a 64-bit integer).

``descending`` turns a key round; ties keep the cards' order either way (the sorts are stable).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from emulator.card import ROW_BIT
from emulator.deck import WORD_MASK, lookup
from emulator.deckops.collate import ranks
from emulator.deckops.fields import Field, SpecError
from emulator.errors import CardError

MAX_NUMERIC = 18
"""Widest numeric field: 18 digits fit a signed 64-bit integer."""

_DIGITS = np.full(4096, -2, dtype=np.int8)
"""Digit of each column word (0–9), -1 for a blank or a lone sign, -2 for anything else."""
for _digit in range(10):
    for _sign in (0, ROW_BIT[11], ROW_BIT[12]):
        _DIGITS[ROW_BIT[_digit] | _sign] = _digit
for _sign in (0, ROW_BIT[11], ROW_BIT[12]):
    _DIGITS[_sign] = -1
_DIGITS.flags.writeable = False


@dataclass(frozen=True)
class SortKey:
    """One key: a field, read as characters or as a number, ascending or descending."""

    field: Field
    numeric: bool = False
    descending: bool = False

    def __post_init__(self) -> None:
        if self.numeric and self.field.width > MAX_NUMERIC:
            raise SpecError(f"numeric key {self.field} is {self.field.width} columns wide; "
                            f"a number has at most {MAX_NUMERIC} digits")


def _columns(words: np.ndarray, field: Field, first_column: int) -> np.ndarray:
    """``field``'s columns of ``words``, whose first column is card column ``first_column`` (a deck
    array holds all 80 from column 1; a sort may hold only the columns its keys read)."""
    return words[:, field.first - first_column : field.last - first_column + 1]


def numbers(words: np.ndarray, field: Field, *, first_card: int = 1, first_column: int = 1) -> np.ndarray:
    """``int64``: the number punched in ``field`` of each card (see the module's rules).

    ``first_card`` is the number of the first row, for error messages; ``first_column`` the card
    column of ``words``' first column.
    """
    cols = _columns(words, field, first_column) & WORD_MASK
    digits = lookup(_DIGITS, cols)
    bad = digits == -2
    if bad.any():
        card, col = np.unravel_index(int(np.argmax(bad)), bad.shape)
        from emulator.card import word_to_punches

        raise CardError(f"punches {word_to_punches(int(cols[card, col]))} are not a digit, sign or blank "
                        f"(numeric key {field})", card=first_card + int(card),
                        column=field.first + int(col))
    value = np.zeros(len(words), dtype=np.int64)
    for j in range(field.width):
        d = digits[:, j]
        value = np.where(d >= 0, value * 10 + d, value)
    negative = ((cols & ROW_BIT[11]) != 0).any(axis=1)
    return np.where(negative, -value, value)


def pack(values: np.ndarray, bits: int = 12) -> list[np.ndarray]:
    """``uint64`` keys of the rows of ``values`` (n, w), each ``bits`` wide: as many columns to a
    key as fit in 60 bits, most significant first; comparing the keys compares the rows."""
    per = 60 // bits
    v = values.astype(np.uint64)
    out = []
    for start in range(0, v.shape[1], per):
        part = v[:, start:start + per]
        key = np.zeros(len(v), dtype=np.uint64)
        for j in range(per):
            key <<= np.uint64(bits)
            if j < part.shape[1]:
                key |= part[:, j]
        out.append(key)
    return out


def character_keys(words: np.ndarray, field: Field, code: str, *, descending: bool = False,
                   first_column: int = 1) -> list[np.ndarray]:
    """``uint64`` keys, most significant first, that compare the cards of ``words`` as the field's
    ranks do.

    Each column is ranked again among the patterns the deck holds in it, in as few bits as they
    need (ten digits take four bits, a column punched alike on every card none), and the columns
    are packed into as few keys as fit: eight digit columns are one 32-bit key, so one
    ``argsort`` does.  The keys compare the cards of this deck only, not those of another.
    """
    cols = _columns(words, field, first_column)
    table = ranks(code)
    out: list[np.ndarray] = []
    key, used = np.zeros(len(words), dtype=np.uint64), 0
    for j in range(field.width):  # a column at a time, in place: a million cards' keys stay small
        r = lookup(table, cols[:, j])
        present = np.bincount(r, minlength=4096) > 0
        distinct = int(present.sum())
        bits = max(distinct - 1, 0).bit_length()
        if not bits:
            continue
        dense = lookup((np.cumsum(present) - 1).astype(np.uint16), r)
        del r
        if descending:
            dense = np.uint16(distinct - 1) - dense
        if used + bits > 64:
            out.append(key)
            key, used = np.zeros(len(words), dtype=np.uint64), 0
        np.left_shift(key, np.uint64(bits), out=key)
        np.bitwise_or(key, dense, out=key, casting="unsafe")
        used += bits
    out.append(key)
    return out


def key_arrays(words: np.ndarray, keys: Sequence[SortKey], code: str, *,
               first_card: int = 1, first_column: int = 1) -> list[np.ndarray]:
    """The arrays of all ``keys`` for each card, most significant first (for ``np.lexsort``
    reversed); they compare the cards of ``words`` among themselves.  ``first_column``: the card
    column of ``words``' first column (1 for a deck array)."""
    out: list[np.ndarray] = []
    for key in keys:
        if key.numeric:
            value = numbers(words, key.field, first_card=first_card, first_column=first_column)
            out.append(-value if key.descending else value)
        else:
            out += character_keys(words, key.field, code, descending=key.descending,
                                  first_column=first_column)
    return out


def stable_order(arrays: Sequence[np.ndarray], n: int) -> np.ndarray:
    """The permutation that sorts rows by ``arrays`` (most significant first), ties kept in order."""
    if not arrays:
        return np.arange(n)
    if len(arrays) == 1:
        return _radix_order(arrays[0])
    return np.lexsort(tuple(reversed(arrays)))


def _radix_order(key: np.ndarray) -> np.ndarray:
    """The stable order of one key array.  An unsigned key (the packed character keys: eight digit
    columns take 32 bits) is sorted 16 bits a pass, lowest first, each pass a stable ``argsort`` of
    ``uint16``, which numpy does by radix sort: two passes over a million cards take a quarter of one
    stable ``argsort`` of the whole key (a merge sort)."""
    if key.dtype.kind != "u" or not len(key):
        return np.argsort(key, kind="stable")
    passes = max(1, (int(key.max()).bit_length() + 15) // 16)
    order = np.argsort((key & np.uint64(0xFFFF)).astype(np.uint16), kind="stable")
    for p in range(1, passes):
        digit = (key[order] >> np.uint64(16 * p)).astype(np.uint16)
        order = order[np.argsort(digit, kind="stable")]
    return order


def descents(arrays: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """For each row after the first: (lower than the row before, equal to it), by the keys."""
    n = len(arrays[0]) if arrays else 0
    lower = np.zeros(max(n - 1, 0), dtype=bool)
    equal = np.ones(max(n - 1, 0), dtype=bool)
    for a in arrays:
        now, before = a[1:], a[:-1]
        lower |= equal & (now < before)
        equal &= now == before
    return lower, equal
