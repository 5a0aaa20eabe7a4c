"""Pulling cards out of a deck: by card number, by what is punched in a field, or by a hole.

A card-room operator did this at the sorter (one column, one pocket) or by hand.  A
:class:`Selection` takes the cards that meet *all* its tests; ``invert`` takes the others, so a
selection and its inverse split the file between them, every card going to exactly one side.
Card numbers count every card of the file as read, end-of-file cards included (as ``cards show``
numbers them); tests on content never take an end-of-file card.  Works chunk by chunk.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from emulator.deck import WORD_MASK, eof_rows
from emulator.deckops.fields import CardRanges, Field


@dataclass(frozen=True)
class Selection:
    """Which cards to take: ``cards`` ranges, ``where`` fields holding exactly these column words,
    ``punched`` columns with at least these holes; ``invert`` takes the rest."""

    cards: CardRanges | None = None
    where: Sequence[tuple[Field, Sequence[int]]] = ()
    punched: Sequence[tuple[int, int]] = ()
    invert: bool = False

    def mask(self, words: np.ndarray, start: int = 0) -> np.ndarray:
        """Which rows of a chunk to take; ``start`` is how many cards of the file came before it."""
        n = len(words)
        take = self.cards.mask(start, n) if self.cards is not None else np.ones(n, dtype=bool)
        if self.where or self.punched:
            take &= ~eof_rows(words)
        for field, want in self.where:
            take &= ((words[:, field.columns] & WORD_MASK) == np.asarray(want, dtype=np.uint16)).all(axis=1)
        for column, holes in self.punched:
            take &= (words[:, column - 1] & holes) == holes
        return ~take if self.invert else take


def select(chunks: Iterable[np.ndarray], selection: Selection) -> Iterator[np.ndarray]:
    """The chosen cards of a stream of deck arrays, in order, chunk by chunk."""
    start = 0
    for words in chunks:
        yield np.compress(selection.mask(words, start), words, axis=0)
        start += len(words)
