"""The 085/088 collator: merging two decks sorted on a key, and matching their cards.

The collator had two feeds, *primary* and *secondary*, and compared the control field of the next
card in each: the lower went first, and on a tie the primary card (so a patch deck fed as
secondary lands behind the cards it matches).  Each feed checked its own deck's sequence and
stopped on a card lower than the one before.  In a *match-merge* the pockets kept apart the cards
whose key the other deck also had from those it had not.

Here A is the primary deck and B the secondary.  Both must be single decks (no end-of-file cards).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from emulator.deck import eof_rows
from emulator.deckops.keys import SortKey, descents, key_arrays, stable_order
from emulator.errors import CardError


def _single(words: np.ndarray, source: str | None) -> None:
    flags = eof_rows(words)
    if flags.any():
        raise CardError("is an end-of-file card; merge one deck at a time (cards split-decks)",
                        card=int(np.argmax(flags)) + 1, source=source)


def check_sorted(arrays: Sequence[np.ndarray], keys: Sequence[SortKey], source: str | None = None) -> None:
    """Refuse a deck whose key arrays are not in order, naming the first card lower than the one
    before it."""
    lower, _ = descents(arrays)
    if lower.any():
        card = int(np.argmax(lower)) + 2
        fields = ", ".join(str(k.field) for k in keys)
        raise CardError(f"out of order on {fields} (lower than card {card - 1}); sort the deck first",
                        card=card, source=source)


def _collate(arrays: Sequence[np.ndarray], n_a: int) -> np.ndarray:
    """The merge order of two sorted runs of one key array, as the collator fed them: a card of A
    goes after the cards of B lower than it, a card of B after the cards of A lower or equal."""
    key_a, key_b = arrays[0][:n_a], arrays[0][n_a:]
    order = np.empty(len(arrays[0]), dtype=np.int64)
    order[np.arange(n_a) + np.searchsorted(key_b, key_a, side="left")] = np.arange(n_a)
    order[np.arange(len(key_b)) + np.searchsorted(key_a, key_b, side="right")] = n_a + np.arange(len(key_b))
    return order


@dataclass(frozen=True)
class Collation:
    """A merge: the merged deck, and for a match-merge which of its cards matched."""

    words: np.ndarray
    from_a: np.ndarray
    """For each card of ``words``: True if it came from A."""
    matched: np.ndarray
    """For each card of ``words``: True if the other deck holds a card with the same key."""

    @property
    def counts(self) -> dict[str, int]:
        a, m = self.from_a, self.matched
        return {"cards": len(self.words), "from_a": int(a.sum()), "from_b": int((~a).sum()),
                "matched_a": int((a & m).sum()), "matched_b": int((~a & m).sum()),
                "unmatched_a": int((a & ~m).sum()), "unmatched_b": int((~a & ~m).sum())}


def merge(a: np.ndarray, b: np.ndarray, keys: Sequence[SortKey], code: str = "029", *,
          sources: tuple[str | None, str | None] = (None, None)) -> Collation:
    """Collate ``a`` (primary) and ``b`` (secondary), both sorted on ``keys``."""
    _single(a, sources[0])
    _single(b, sources[1])
    both = np.concatenate((a, b))
    arrays = key_arrays(both, keys, code)
    check_sorted([k[:len(a)] for k in arrays], keys, sources[0])
    check_sorted([k[len(a):] for k in arrays], keys, sources[1])
    # A before B on a tie; one key array (the usual case) is merged by binary search, no sort
    order = _collate(arrays, len(a)) if len(arrays) == 1 else stable_order(arrays, len(both))
    from_a = order < len(a)
    _, equal = descents([k[order] for k in arrays])
    group = np.concatenate((np.zeros(min(len(order), 1), dtype=np.int64), np.cumsum(~equal)))
    has_a = np.bincount(group, weights=from_a) > 0
    has_b = np.bincount(group, weights=~from_a) > 0
    matched = (has_a & has_b)[group]
    return Collation(np.take(both, order, axis=0), from_a, matched)
