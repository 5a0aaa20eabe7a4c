"""The player's end of a streamed game: where its cards come from.

The line drivers (:func:`ibm1013.line.stream.stream_cards`) take the player's cards from a *card
source* and ask it nothing else: :meth:`poll` for the cards made since the last call,
:meth:`next_due` for when the next one will be made (so a card goes on the line the moment it is
made), :attr:`finished` once the ``end`` card is out, :meth:`begin` as each card is confirmed and
:meth:`play_on` while no watcher answers.  Two sources make them from a :class:`~decks.stream.GameFeed`:

* :class:`ScriptSource` — a move script (``play --moves FILE --stream``): each command at its think
  time, counted from the moment the whole game deck is through (or play goes on without a watcher);
* :class:`TypedSource` — a person at the keyboard: a :class:`~decks.session.Session` whose every
  change (whichever interface made it, in whichever thread) queues its cards at once, so the player
  plays on while the line is being set up or is cut.

They know nothing of the line; :func:`play_commands` checks a whole script before anything is sent.
"""

from __future__ import annotations

import queue
import time
from typing import Any

from decks import engine
from decks.session import Session
from decks.stream import GameFeed
from emulator.card import Card
from emulator.errors import IbmError


def play_commands(
    state: engine.GameState, script: list[tuple[int, float, str]]
) -> list[tuple[float, engine.GameState, str]]:
    """Each command's time (from the start) and the state after it, checked before anything is sent."""
    session = Session(state, "cbn", False)
    at, out = 0.0, []
    for line, wait, command in script:
        if command.lower() == "quit":
            break
        at += wait
        if command.split()[0].lower() in ("hint", "moves", "help", "save"):
            continue
        try:
            session.command(command)
        except IbmError as err:
            raise IbmError(f"line {line}: {err}") from None
        out.append((at, session.state, command))
    return out


class ScriptSource:
    """The player's end from a script: each command at its time, as the card it makes."""

    def __init__(self, feed: GameFeed, steps: list[tuple[float, engine.GameState, str]]) -> None:
        self.feed, self.steps = feed, steps
        self.start: float | None = None  # the script's clock starts once the game deck is through
        self.i = 0
        self.made: dict[int, float] = {}
        self.ended = False

    def begin(self, number: int, now: float) -> None:
        """A card was confirmed: once the whole game deck is, the script's clock starts."""
        if self.start is None and number >= len(self.feed.cards):
            self.start = now

    def play_on(self, now: float) -> None:
        """No watcher yet: the script's clock starts all the same."""
        if self.start is None:
            self.start = now

    def next_due(self) -> float | None:
        if self.start is None:
            return None
        return self.start + self.steps[self.i][0] if self.i < len(self.steps) else self.start

    def poll(self, now: float) -> list[Card]:
        if self.start is None:
            return []
        cards = []
        while self.i < len(self.steps) and self.start + self.steps[self.i][0] <= now:
            _, new, command = self.steps[self.i]
            made = self.feed.change(self.feed.state, new, command)
            for n in range(self.feed.events - len(made) + 1, self.feed.events + 1):
                self.made[n] = self.start + self.steps[self.i][0]
            cards += made
            self.i += 1
        if self.i >= len(self.steps) and not self.ended:
            self.ended = True
            self.made[self.feed.events + 1] = now
            cards.append(self.feed.event("end", self.feed.state))
        return cards

    @property
    def finished(self) -> bool:
        return self.ended


class TypedSource:
    """The player's end at the keyboard.  A thread reads and carries out the commands at once — the
    player plays on while the line is being set up or is cut — and queues the card of every change;
    the session loop collects them."""

    def __init__(self, feed: GameFeed, symbols: bool) -> None:
        self.feed = feed
        self.session = Session(feed.state, "cbn", symbols)
        self.made: dict[int, float] = {}
        self.cards: queue.Queue[Card] = queue.Queue()
        self.sent: list[Card] = []  # every event card, in order (the line pane pictures them)
        self.ended = False  # set by the reading thread once its last card is queued
        self.session.listeners.append(self._changed)

    def finish(self) -> None:
        """The player stopped: the ``end`` card is the last."""
        self._queue(self.feed.event("end", self.feed.state), self.feed.events)
        self.ended = True

    def _changed(self, before: Any, after: Any, line: str) -> None:
        cards = self.feed.change(before, after, line)
        for number, card in enumerate(cards, self.feed.events - len(cards) + 1):
            self._queue(card, number)

    def _queue(self, card: Card, number: int) -> None:
        self.made[number] = time.monotonic()
        self.sent.append(card)
        self.cards.put(card)

    def begin(self, number: int, now: float) -> None:
        """(The keyboard needs no start signal.)"""

    def play_on(self, now: float) -> None:
        """(The player at the keyboard plays on anyway: the reading thread never waits for the line.)"""

    def next_due(self) -> float | None:
        return None

    def poll(self, now: float) -> list[Card]:
        out = []
        while True:
            try:
                out.append(self.cards.get_nowait())
            except queue.Empty:
                return out

    @property
    def finished(self) -> bool:
        return self.ended and self.cards.empty()
