"""The 514 reproducing punch: a new deck punched from the old one through a plugboard.

The 514 read each card of the old deck at one station while punching a new card at another; wires
on its plugboard took columns read to columns punched (``--copy 1-10:71-80``), and a gang-punch
wire punched the same holes into every card (``--gang 73-76=PROG``).  Here every column is wired
straight through unless ``only`` (then the new cards hold just the wired fields, the rest blank);
copies read the *old* card, so two fields can trade places.  A punch column takes one wire:
targets that overlap are refused.  End-of-file cards pass through.  Works chunk by chunk.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from emulator.deck import eof_rows
from emulator.deckops.fields import Field, SpecError, disjoint


@dataclass(frozen=True)
class Plugboard:
    """The wiring: ``copies`` (from, to) and ``gangs`` (field, column words); ``only`` leaves the
    unwired columns blank."""

    copies: Sequence[tuple[Field, Field]] = ()
    gangs: Sequence[tuple[Field, Sequence[int]]] = ()
    only: bool = False

    def __post_init__(self) -> None:
        if not (self.copies or self.gangs):
            raise SpecError("nothing wired: give --copy FROM:TO or --gang COLS=TEXT")
        disjoint([t for _, t in self.copies] + [f for f, _ in self.gangs], "punch fields")

    def punch(self, words: np.ndarray) -> np.ndarray:
        """The new cards for a chunk of old ones."""
        flags = eof_rows(words)
        new = np.zeros_like(words) if self.only else words.copy()
        for source, target in self.copies:
            new[:, target.columns] = words[:, source.columns]
        for field, holes in self.gangs:
            new[:, field.columns] = np.asarray(holes, dtype=np.uint16)
        new[flags] = words[flags]
        return new


def reproduce(chunks: Iterable[np.ndarray], board: Plugboard) -> Iterator[np.ndarray]:
    for words in chunks:
        yield board.punch(words)
