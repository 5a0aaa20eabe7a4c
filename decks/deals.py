"""Deal numbers people can share, and each game's own random generator.

A deal number N names one shuffle of a pack (``docs/games.md``, "Deal
numbers"):

* 1 ≤ N ≤ 2^31 − 1: the Microsoft FreeCell generator.  ``state = N``; each draw sets
  ``state = (214013·state + 2531011) mod 2^31`` and returns ``state >> 16`` (0 … 32767).  Start from
  the pack in its documented order (:func:`decks.packs.pack`; for the standard pack AC AD AH AS 2C …
  KS); repeatedly draw ``j = rand() mod remaining``, swap card ``j`` with the last remaining card and
  deal that last card.  The dealt cards, in the order dealt, are the *deal order*.  Deal 1 of the
  standard pack begins JD 2D 9H JC 5D 7H 7C 5H, deal 617 begins 7D AD 5C 3S 5S 8C 2D AH — exactly
  Microsoft's (and KPat's) deals.  Other packs use the same steps over their own order.
* 2^31 ≤ N ≤ 2^63 − 1: a Mersenne Twister (MT19937, seeded with ``init_by_array`` of N's 32-bit words,
  least significant first — what Python's ``random.Random(N)`` does).  Starting from the pack order,
  for ``i = n−1`` down to 1 draw ``j`` uniformly in ``0 … i`` and swap cards ``i`` and ``j``; the
  resulting list is the deal order.  A uniform ``j`` below ``k`` is drawn by taking
  ``b = bit_length(k)`` bits (the top ``b`` bits of one 32-bit MT output) until the number is < k.

Games deal from the front of the deal order: the first card dealt is ``order[0]``.

Every later random step of a game (La Belle Lucie's redeal shuffles) draws from the game's own
generator, :class:`GameRandom`, seeded from the deal number and kept in the game state as one
integer, so a deal number reproduces the whole game and a saved game continues identically.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from decks.packs import PlayingCard, pack
from emulator.errors import IbmError

MS_MAX_DEAL = 2**31 - 1
MAX_DEAL = 2**63 - 1
T = TypeVar("T")


class MicrosoftRandom:
    """The Microsoft C runtime's ``rand()`` as FreeCell uses it: a 31-bit linear congruential generator."""

    def __init__(self, seed: int) -> None:
        self.state = seed & 0x7FFFFFFF

    def rand(self) -> int:
        """The next number 0 … 32767."""
        self.state = (214013 * self.state + 2531011) & 0x7FFFFFFF
        return self.state >> 16


def microsoft_order(items: Sequence[T], deal_number: int) -> list[T]:
    """Microsoft FreeCell's shuffle of ``items`` (a pack in its documented order): the deal order."""
    rng = MicrosoftRandom(deal_number)
    deck = list(items)
    dealt = []
    while deck:
        j = rng.rand() % len(deck)
        deck[j], deck[-1] = deck[-1], deck[j]
        dealt.append(deck.pop())
    return dealt


def _mt_below(rng: random.Random, k: int) -> int:
    """A uniform integer 0 … k−1 from MT19937 by rejection (the documented large-deal scheme)."""
    bits = k.bit_length()
    while True:
        j = rng.getrandbits(bits)
        if j < k:
            return j


def mersenne_order(items: Sequence[T], deal_number: int) -> list[T]:
    """The large-deal scheme: Fisher–Yates from the end, driven by MT19937 seeded with the deal number."""
    rng = random.Random(deal_number)
    deck = list(items)
    for i in range(len(deck) - 1, 0, -1):
        j = _mt_below(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def check_deal_number(deal_number: int) -> int:
    """``deal_number`` if it is a valid deal number (1 … 2^63 − 1), else a clear :class:`IbmError`."""
    if isinstance(deal_number, bool) or not isinstance(deal_number, int):
        raise IbmError(f"deal number must be an integer, not {deal_number!r}")
    if not 1 <= deal_number <= MAX_DEAL:
        raise IbmError(f"deal number {deal_number} is out of range 1 … {MAX_DEAL}")
    return deal_number


def shuffle_order(items: Sequence[T], deal_number: int) -> list[T]:
    """The deal order of ``items`` for a deal number (Microsoft below 2^31, Mersenne Twister above)."""
    check_deal_number(deal_number)
    if deal_number <= MS_MAX_DEAL:
        return microsoft_order(items, deal_number)
    return mersenne_order(items, deal_number)


def deal_order(kind: str, deal_number: int) -> list[PlayingCard]:
    """The cards of pack ``kind`` shuffled by deal number ``deal_number``, first card dealt first."""
    return shuffle_order(pack(kind), deal_number)


_MASK64 = (1 << 64) - 1


class GameRandom:
    """A game's own generator for random steps after the deal (SplitMix64, one 64-bit integer of state).

    It is seeded from the deal number (``state = deal_number``).  Its whole state is :attr:`state`,
    which the game state stores; ``GameRandom(state)`` resumes it exactly.  Each step adds
    0x9E3779B97F4A7C15 to the state and mixes it into a 64-bit output.
    """

    GOLDEN = 0x9E3779B97F4A7C15

    def __init__(self, state: int) -> None:
        self.state = state & _MASK64

    @classmethod
    def for_deal(cls, deal_number: int) -> GameRandom:
        return cls(deal_number)

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + self.GOLDEN) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, k: int) -> int:
        """A uniform integer 0 … k−1 (rejection on the top bits, no modulo bias)."""
        if k <= 0:
            raise ValueError("below() needs k > 0")
        bits = max(1, (k - 1).bit_length())
        while True:
            j = self.next64() >> (64 - bits)
            if j < k:
                return j

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy of ``items`` (Fisher–Yates from the end)."""
        deck = list(items)
        for i in range(len(deck) - 1, 0, -1):
            j = self.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        return deck
