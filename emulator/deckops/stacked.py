"""Several decks in one file: end-of-file cards between them.

A card reader reports end of file when its hopper runs dry, and a program that reads several
decks (a compiler's source, then its data) waits for each.  Simulators mark those ends inside one
file: SIMH 4.x with a ``~`` line in a text deck or the lone byte 0x8F in a column-binary one (our
:data:`~emulator.card.EOF_CARD`; the ``text`` and ``cbn`` formats hold it).  Hercules' 3505 reader
takes one file per deck instead: ``devinit 00c deck-1.ebcdic deck-2.ebcdic multifile`` reads them
one after the other.  So a file is a *stack* of decks: the cards between end-of-file cards.  An
end-of-file card at the very end closes the last deck without starting another; two in a row
leave an empty deck between them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from emulator.card import COLUMNS
from emulator.deck import EOF_FLAG, eof_rows


def eof_row() -> np.ndarray:
    """One end-of-file card as a deck array."""
    row = np.zeros((1, COLUMNS), dtype=np.uint16)
    row[0, 0] = EOF_FLAG
    return row


def split(words: np.ndarray) -> list[np.ndarray]:
    """The decks of a file (its end-of-file cards left out)."""
    ends = np.flatnonzero(eof_rows(words))
    decks, start = [], 0
    for end in ends.tolist():
        decks.append(words[start:end])
        start = end + 1
    if start < len(words) or not len(ends):
        decks.append(words[start:])
    return decks


def stack(decks: Sequence[np.ndarray]) -> np.ndarray:
    """One file of ``decks``, an end-of-file card between each two."""
    parts: list[np.ndarray] = []
    for i, deck in enumerate(decks):
        if i:
            parts.append(eof_row())
        parts.append(deck)
    return np.concatenate(parts) if parts else np.zeros((0, COLUMNS), dtype=np.uint16)


class DeckCounter:
    """Counts the decks of a file read chunk by chunk (as :func:`split` cuts them): the cards in
    each, and where each starts."""

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.firsts: list[int] = []
        self.seen = 0
        self.open = False

    def feed(self, flags: np.ndarray) -> None:
        """Take the next chunk's end-of-file mask."""
        for is_eof, run in _runs(flags):
            if is_eof:
                for _ in range(run):
                    if not self.open:
                        self._start()
                    self.open = False
            else:
                if not self.open:
                    self._start()
                self.sizes[-1] += run
            self.seen += run

    def _start(self) -> None:
        self.sizes.append(0)
        self.firsts.append(self.seen + 1)
        self.open = True

    def decks(self) -> list[dict[str, int]]:
        """Each deck: its number, the file's card number of its first card, and its size."""
        if not self.sizes:  # an empty file is one empty deck
            return [{"deck": 1, "first_card": 1, "cards": 0}]
        return [{"deck": i + 1, "first_card": first, "cards": size}
                for i, (first, size) in enumerate(zip(self.firsts, self.sizes, strict=True))]


def _runs(flags: np.ndarray) -> list[tuple[bool, int]]:
    """Runs of equal values in a boolean mask, as (value, length)."""
    if not len(flags):
        return []
    edges = np.flatnonzero(np.diff(flags.astype(np.int8))) + 1
    starts = np.concatenate(([0], edges))
    lengths = np.diff(np.concatenate((starts, [len(flags)])))
    return [(bool(flags[s]), int(n)) for s, n in zip(starts.tolist(), lengths.tolist(), strict=True)]
