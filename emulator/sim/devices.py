"""Card-handling machines as timing pieces: hopper → reader, punch → stacker.

A serial card reader or punch moves a card in (``feed_s``) and then passes its columns under the
brushes or punch dies one by one (``columns_per_s``), so a card takes ``feed_s + columns /
columns_per_s``; only the columns up to the last one needed have to pass.  Each machine handles one
card at a time: ``put(item, columns)`` queues it, and ``out(item)`` is called when it is done.
Reference figures: ``docs/ibm1013.md`` §2 (a 1442-class mechanism at 160 columns/s with a 0.1 s
feed, one reading of the 1013's 100 cards/min).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Generic, TypeVar, cast

import simpy

T = TypeVar("T")
"""What a machine handles: a card, or whatever stands for one (its number in the terminal model)."""


class Hopper(Generic[T]):
    """The input stack of cards, taken from the front."""

    def __init__(self, cards: Iterable[T] = ()) -> None:
        self._cards: deque[T] = deque(cards)

    def __len__(self) -> int:
        return len(self._cards)

    def take(self) -> T:
        return self._cards.popleft()


class Stacker(Generic[T]):
    """The output stack: cards in the order they arrived."""

    def __init__(self) -> None:
        self.cards: list[T] = []

    def put(self, card: T) -> None:
        self.cards.append(card)


class CardMachine(Generic[T]):
    """A serial reader or punch: one card at a time, ``feed_s + columns / columns_per_s`` each."""

    def __init__(
        self, env: simpy.Environment, *, feed_s: float, columns_per_s: float,
        out: Callable[[T], None] | None = None,
    ) -> None:
        self.env = env
        self.feed_s = feed_s
        self.columns_per_s = columns_per_s
        self.out = out
        self.busy_until = 0.0
        self.cards = 0

    def card_time(self, columns: int) -> float:
        return self.feed_s + columns / self.columns_per_s

    def put(self, item: T, columns: int) -> float:
        """Start on ``item`` as soon as the machine is free; returns the time it will be done."""
        now = self.env.now
        start = self.busy_until if self.busy_until > now else now
        done = start + self.card_time(columns)
        self.busy_until = done
        self.cards += 1
        ev = self.env.timeout(done - now, item)
        ev.callbacks.append(self._done)
        return done

    def start_time(self) -> float:
        """When a card put now would start moving."""
        return max(self.busy_until, self.env.now)

    def _done(self, ev: simpy.events.Event) -> None:
        if self.out is not None:
            self.out(cast(T, ev.value))  # the item put: SimPy's events do not say their value's type


class CardReader(CardMachine[T]):
    """Reads cards from a hopper; ``out(item)`` when a card's columns have been read."""


class CardPunch(CardMachine[T]):
    """Punches cards into a stacker; ``out(item)`` when a card is punched and stacked."""
