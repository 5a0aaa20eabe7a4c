"""Sorting a deck: stable, on several keys; and the same job as the IBM 083 sorter did it.

:func:`sort` puts the cards of each deck of a file in order of their keys (most significant key
first), ties in their old order, in one numpy pass.

The **083 sorter** (1,000 cards a minute; the 082 did 650) read one column per pass: a brush
dropped through the first hole it met, the card travelling 9-edge first, and a chute sent the card
to that row's pocket — 9, 8 … 1, 0, 11, 12, or R (reject) for no hole.  The operator took the
pockets out in order and fed the deck again for the next column, right to left, so the last pass
decides (a radix sort, least significant column first).  Numbers need one pass a column.  Letters
need two: a *digit* pass (rows 1–9, then 0) and then a *zone* pass (only rows 0, 11, 12 sensed),
pockets gathered 12, 11, 0 and then the rest, putting ``A``–``I`` before ``J``–``R`` before
``S``–``Z``.  :func:`sort_083` does exactly those passes and counts them: a column takes the zone
pass when any card has a 12 or 11 hole there, or a 0 hole together with a digit.

Its order is the sorter's, not the code's: in a zone pass a plain ``0`` falls in the 0 pocket with
``S``–``Z``, and special characters go where their holes send them.  On digits and blanks (the
sequence numbers the 083 mostly sorted) the two orders agree.  ``descending`` gathers the pockets
the other way round.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from emulator.card import ROW_BIT
from emulator.deck import WORD_MASK, eof_rows, lookup
from emulator.deckops.keys import SortKey, key_arrays, stable_order

SORTER_CARDS_PER_MINUTE = 1000
"""The 083's speed."""

DIGIT_ROWS = (9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
"""Rows a digit pass senses, in the order the brush meets them (9-edge first)."""
ZONE_ROWS = (0, 11, 12)
"""Rows a zone pass senses, in the order the brush meets them."""
DIGIT_GATHER = ("R", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
"""Pockets in the order the operator stacks them after a digit pass (ascending)."""
ZONE_GATHER = (12, 11, 0, "R")
"""Pockets in the order the operator stacks them after a zone pass (ascending)."""


def _pocket_table(sensed: tuple[int, ...], gather: tuple[int | str, ...]) -> np.ndarray:
    """``uint8[4096]``: the place in ``gather`` of the pocket each column word falls into."""
    table = np.empty(4096, dtype=np.uint8)
    for word in range(4096):
        pocket: int | str = next((row for row in sensed if word & ROW_BIT[row]), "R")
        table[word] = gather.index(pocket)
    table.flags.writeable = False
    return table


@functools.cache
def pockets(zone: bool) -> np.ndarray:
    """The pocket table of a digit pass, or of a zone pass (built when the 083 first runs: 8,192
    cards' worth of Python that a plain sort need not pay for at start-up)."""
    return _pocket_table(ZONE_ROWS, ZONE_GATHER) if zone else _pocket_table(DIGIT_ROWS, DIGIT_GATHER)


_ZONED = ROW_BIT[12] | ROW_BIT[11]
_DIGIT_HOLES = sum(ROW_BIT[r] for r in range(1, 10))


def _deck_ids(words: np.ndarray) -> list[np.ndarray]:
    """Keys that keep each deck of a stacked file together and its end-of-file card in front."""
    return _deck_keys(eof_rows(words))


def _deck_keys(flags: np.ndarray) -> list[np.ndarray]:
    if not flags.any():
        return []
    return [np.cumsum(flags), ~flags]


def order(words: np.ndarray, keys: Sequence[SortKey], code: str = "029") -> np.ndarray:
    """The permutation that sorts ``words`` on ``keys``, each deck of the file on its own (stable)."""
    return order_of_columns(words, eof_rows(words), keys, code)


def order_of_columns(columns: np.ndarray, eof: np.ndarray, keys: Sequence[SortKey], code: str = "029",
                     first_column: int = 1) -> np.ndarray:
    """:func:`order` from the key columns alone: ``columns`` holds card columns ``first_column``
    on (at least those the keys read), ``eof`` marks the end-of-file cards."""
    arrays = key_arrays(columns, keys, code, first_column=first_column)  # end-of-file rows read as blank
    return stable_order(_deck_keys(eof) + arrays, len(columns))


def sort(words: np.ndarray, keys: Sequence[SortKey], code: str = "029") -> np.ndarray:
    """The cards of ``words`` sorted on ``keys``, each deck of the file on its own (stable)."""
    return np.take(words, order(words, keys, code), axis=0)  # take: far faster than words[order]


def needs_zone_pass(column: np.ndarray) -> bool:
    """Whether a column's cards need the second (zone) pass: a 12 or 11 hole, or 0 with a digit."""
    w = column & WORD_MASK
    return bool(((w & _ZONED) != 0).any() or (((w & ROW_BIT[0]) != 0) & ((w & _DIGIT_HOLES) != 0)).any())


@dataclass(frozen=True)
class SorterJob:
    """What the 083 did: the sorted deck, the passes it took and the minutes they took."""

    words: np.ndarray
    passes: int
    cards: int

    @property
    def minutes(self) -> float:
        """Feeding time at 1,000 cards a minute (the operator's handling not counted)."""
        return self.passes * self.cards / SORTER_CARDS_PER_MINUTE


def sort_083(words: np.ndarray, keys: Sequence[SortKey]) -> SorterJob:
    """Sort as the 083 did, column by column into pockets; character keys only."""
    flags = eof_rows(words)
    hopper = np.arange(len(words))
    passes = 0
    for key in reversed(keys):
        if key.numeric:
            raise ValueError("the 083 sorts columns, not numbers: give character keys")
        for col in range(key.field.last - 1, key.field.first - 2, -1):
            tables = [pockets(zone=False)]
            if needs_zone_pass(words[~flags, col]):
                tables.append(pockets(zone=True))
            for table in tables:
                pocket = lookup(table, words[hopper, col] & WORD_MASK)
                if key.descending:
                    pocket = np.uint8(len(DIGIT_GATHER)) - pocket
                hopper = hopper[np.argsort(pocket, kind="stable")]
                passes += 1
    ids = _deck_ids(words)
    if ids:  # put each deck back together, its order kept
        hopper = hopper[stable_order([i[hopper] for i in ids], len(hopper))]
    return SorterJob(np.take(words, hopper, axis=0), passes, int(np.count_nonzero(~flags)))
