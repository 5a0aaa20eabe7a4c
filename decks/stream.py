"""A game streamed move by move, without any I/O: the player's end makes cards, the watcher's end
takes them and keeps the same game.

The stream is a sequence of compact cards (:mod:`decks.compact`): first the game as a compact deck
(its first card says how many cards the deck has), then one *event card* per move, undo or redo, and
an ``end`` event when the player stops.  An event card is one chunk of the compact encoding without
a sequence field: the tag ``110101``, the kind (2 bits), the event's number (gamma), the move coded
against the position it is made in (:class:`decks.compact.MoveCode`: about 4 bits in Klondike) and
16 bits of a digest of the position it leads to — 5 to 7 columns, the rest of the card blank, so a
line sending ``--columns auto`` carries a move in about 11 characters.

:class:`GameFeed` (the player's end) turns each new state into the card for it.  :class:`Watcher`
(the watcher's end) takes cards in order and checks each: the right event number, a move that
applies to its own copy of the game, and a position equal to the player's.  Anything else raises
:class:`Diverged` naming the event and the card — the driver ends the session with it rather than
show a game that is no longer the player's.

**A restarted player.**  A player whose process ended (the game saved) and who carries on with
``play --load DECK --stream`` starts a new stream: its game deck, then its events.  A watcher that
holds part of the old stream sees a game deck's first card where an event was due; the watcher
takes the new deck and, once it is complete and holds the same game (game, deal, options), carries
on from the player's position (:attr:`Watcher.restarted`: the stream now starts at the new deck).
"""

from __future__ import annotations

from dataclasses import dataclass

from bitarray import bitarray
from bitarray.util import ba2int

from decks import compact, engine
from decks.bitcards import BitReader, BitWriter, chunk_columns, columns_chunk
from decks.compact import move_code
from emulator.card import Card
from emulator.errors import IbmError
from emulator.words import counted

EVENT_TAG = bitarray("110101")
"""First bits of an event card (a deck's first card starts with the compact deck's magic)."""
EVENTS = ("move", "undo", "redo", "end")
EVENT_BITS = 2
CHECK_BITS = 16
"""Bits of the position digest on an event card."""


class Diverged(IbmError):
    """A card of the stream that does not continue the watcher's game."""


@dataclass(frozen=True)
class Event:
    """Event ``number`` of a stream (1, 2 …): ``kind`` is ``move``, ``undo``, ``redo`` or ``end``
    (the player finished); ``check`` is the digest of the position it leads to."""

    number: int
    kind: str
    move: engine.Move | None
    check: int

    def describe(self) -> str:
        return str(self.move) if self.kind == "move" else self.kind


def position_check(state: engine.GameState) -> int:
    return compact.position_check(state, CHECK_BITS)


def encode_event(event: Event, state: engine.GameState) -> Card:
    """One event made in ``state`` (the position before it) as a line-only card."""
    w = BitWriter()
    w.bits.extend(EVENT_TAG)
    w.fixed(EVENTS.index(event.kind), EVENT_BITS)
    w.gamma(event.number)
    if event.kind == "move":
        assert event.move is not None
        move_code(state).write(w, event.move, state)
    w.fixed(event.check, CHECK_BITS)
    return Card.from_columns(chunk_columns(w.bits))


def decode_event(card: Card, state: engine.GameState, number: int) -> Event:
    """The event on ``card``, made in ``state`` (``number``: its card number in the stream, named in
    errors)."""
    r = BitReader(columns_chunk(list(card), number), [number])
    if r.fixed(len(EVENT_TAG), "event tag") != ba2int(EVENT_TAG):
        raise r.fail("not an event card of a game stream")
    kind = EVENTS[r.fixed(EVENT_BITS, "event kind")]
    n = r.gamma("event number")
    move = move_code(state).read(r, state) if kind == "move" else None
    check = r.fixed(CHECK_BITS, "position check")
    if r.pos != len(r.bits):
        raise r.fail("bits left over after the event")
    return Event(n, kind, move, check)


class GameFeed:
    """The player's end: ``cards`` to send first, then :meth:`event` for every change."""

    def __init__(self, state: engine.GameState, label: str | None = None) -> None:
        self.state = state
        self.cards: list[Card] = compact.encode(state, label)
        self.events = 0

    def event(self, kind: str, new: engine.GameState) -> Card:
        """The card for ``kind`` (``move``, ``undo``, ``redo``, ``end``) leading to ``new``."""
        self.events += 1
        move = new.history[-1] if kind == "move" else None
        card = encode_event(Event(self.events, kind, move, position_check(new)), self.state)
        self.state = new
        return card

    def change(self, old: engine.GameState, new: engine.GameState, command: str) -> list[Card]:
        """The cards for whatever ``command`` did to ``old``: none if the game did not change, one
        event a step for ``undo 3`` or ``redo 2``."""
        if (old.history, old.future) == (new.history, new.future):
            return []
        head = command.split()[0].lower()
        if head not in ("undo", "redo"):
            return [self.event("move", new)]
        step = engine.undo if head == "undo" else engine.redo
        cards, state = [], old
        for _ in range(abs(len(new.history) - len(old.history)) - 1):
            state = step(state)
            cards.append(self.event(head, state))
        return [*cards, self.event(head, new)]


def ending(events: int, state: engine.GameState) -> str:
    """What the watcher says once the ``end`` card (event ``events``) is in: how much was played and
    whether it was won."""
    made = counted(events - 1, "move, undo or redo", "moves, undos and redos")
    return f"the player ended the game after {made}; " + ("won" if engine.is_won(state) else "not won")


def starts_deck(card: Card) -> bool:
    """Whether ``card`` is the first card of a compact game deck (never an event card: their first
    bits differ)."""
    try:
        compact.deck_cards(card)
    except IbmError:
        return False
    return True


class Watcher:
    """The watcher's end: :meth:`take` each card in stream order."""

    def __init__(self) -> None:
        self.deck: list[Card] = []
        self.deck_size = 0
        self.state: engine.GameState | None = None
        self.events = 0
        self.finished = False
        self.last: Event | None = None
        self.next: Watcher | None = None
        """The game deck of a restarted player's stream, while it comes in."""
        self.restarted = False
        """Set by the card that completed a restarted player's deck: the stream starts over there."""

    def take(self, number: int, card: Card) -> Event | None:
        """Take stream card ``number``: ``None`` while the game deck comes in (the state is ready
        once it is complete), else the event it carried, already made on :attr:`state`."""
        self.restarted = False
        if self.state is None:
            self._deck_card(number, card)
            return None
        if self.next is not None or starts_deck(card):
            self._restart(number, card)
            return None
        if self.finished:
            raise Diverged(f"card {number} came after the end of the game")
        try:
            event = decode_event(card, self.state, number)
        except IbmError as err:
            raise Diverged(f"stream card {number}: {err}") from None
        if event.number != self.events + 1:
            raise Diverged(f"stream card {number} carries event {event.number}, event "
                           f"{self.events + 1} was due (an event lost or repeated)")
        new = self._make(event, number)
        if position_check(new) != event.check:
            raise Diverged(f"event {event.number} ({event.describe()}, stream card {number}) leads "
                           "here to another position than at the player's end: the games diverged")
        self.state, self.events, self.last = new, event.number, event
        self.finished = event.kind == "end"
        return event

    def drop_partial_restart(self) -> None:
        """Forget a restarted player's deck that did not come in whole (a new session sends it
        again from its first card)."""
        self.next = None

    def _restart(self, number: int, card: Card) -> None:
        """A card of a restarted player's game deck (see the module docstring)."""
        assert self.state is not None
        if self.next is None:
            self.next = Watcher()
        self.next.take(number, card)
        new = self.next.state
        if new is None:
            return None
        old, pending, self.next = self.state, self.next, None
        if (new.game, new.deal_number, new.options) != (old.game, old.deal_number, old.options):
            raise Diverged(f"stream card {number} ends the game deck of another game ({new.game} deal "
                           f"{new.deal_number}), not the {old.game} deal {old.deal_number} this end holds")
        self.deck, self.deck_size, self.state = pending.deck, pending.deck_size, new
        self.events, self.finished, self.last, self.restarted = 0, False, None, True
        return None

    def _deck_card(self, number: int, card: Card) -> None:
        if not self.deck:
            try:
                self.deck_size = compact.deck_cards(card)
            except IbmError as err:
                raise Diverged(f"stream card {number}: {err}") from None
        self.deck.append(card)
        if len(self.deck) == self.deck_size:
            try:
                self.state = compact.decode(self.deck)
            except IbmError as err:
                raise Diverged(f"the game deck at the start of the stream: {err}") from None
        return None

    def _make(self, event: Event, number: int) -> engine.GameState:
        assert self.state is not None
        try:
            if event.kind == "move":
                assert event.move is not None
                return engine.apply(self.state, event.move)
            if event.kind == "undo":
                return engine.undo(self.state)
            if event.kind == "redo":
                return engine.redo(self.state)
            return self.state
        except IbmError as err:
            raise Diverged(f"event {event.number} ({event.describe()}, stream card {number}) does not "
                           f"apply here: {err}") from None
