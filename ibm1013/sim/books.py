"""The books an omniscient observer keeps of a simulated transfer (:mod:`ibm1013.sim.transfer`): each
terminal reports the events of its STR core here — cards delivered, failed and accepted, operator
calls, the end of each session.  It runs once or twice per card, so it is compiled with the rest of
the simulation's hot path (:mod:`emulator.compiled`)."""

from __future__ import annotations

from collections.abc import Callable

import simpy

from emulator.sim.kernel import now
from ibm1013.sim.terminal import EventSink, Terminal
from ibm1013.str.events import (
    CardAccepted,
    CardDelivered,
    CardFailed,
    Event,
    OperatorCall,
    SessionEnded,
)


class Books:
    """What the omniscient observer writes down while the terminals talk (two notebooks: one hears
    the sending terminal, one the receiving terminal)."""

    def __init__(self, env: simpy.Environment) -> None:
        self.env = env
        self.delivered: list[int] = []
        self.failed: list[int] = []
        self.accepted_tags: list[object] = []
        """The card number each accepted record carried (simulation bookkeeping) …"""
        self.accepted_data: list[bytes] = []
        """… and its data, in the order accepted."""
        self.last_ack = 0.0
        self.operator_calls = 0
        self.ended: dict[str, SessionEnded] = {}
        self.done = env.event()
        """Triggered when the run is over: both sessions ended, or the time limit came (:meth:`finish`)."""
        self.on_progress: Callable[[int], None] | None = None
        self.sender = _SenderNotes(self)
        """The notebook that hears the sending terminal (its ``on_event``) …"""
        self.receiver = _ReceiverNotes(self)
        """… and the one that hears the receiving terminal."""

    def sender_event(self, terminal: Terminal, event: Event, tag: object) -> None:
        # isinstance: mypyc then reads the event's fields natively
        if isinstance(event, CardDelivered):
            self.card_delivered(event.number, now(self.env))
        elif isinstance(event, CardFailed):
            self.failed.append(event.number)
            self.last_ack = self.env.now
        else:
            self._session_event(terminal, event)

    def card_delivered(self, number: int, at: float) -> None:
        """The sending terminal heard card ``number`` acknowledged at the simulated time ``at``."""
        self.delivered.append(number)
        self.last_ack = at
        if self.on_progress is not None:
            self._progress(self.on_progress)

    def _progress(self, report: Callable[[int], None]) -> None:
        done = len(self.delivered) + len(self.failed)
        if done % 1000 == 0:
            report(done)

    def receiver_event(self, terminal: Terminal, event: Event, tag: object) -> None:
        if isinstance(event, CardAccepted):
            self.accepted_tags.append(tag)
            self.accepted_data.append(event.data)
        else:
            self._session_event(terminal, event)

    def _session_event(self, terminal: Terminal, event: Event) -> None:
        kind = type(event)
        if kind is OperatorCall:
            self.operator_calls += 1
        elif isinstance(event, SessionEnded):  # (no subclasses: as ``kind is``)
            self.ended[terminal.name] = event
            if len(self.ended) == 2:
                self.finish()

    def finish(self) -> None:
        """End the run: both sessions have ended, or the time limit has come."""
        if not self.done.triggered:
            self.done.succeed()


class _SenderNotes(EventSink):
    """:meth:`Books.sender_event` as a terminal's :class:`EventSink` (compiled: a direct call)."""

    def __init__(self, books: Books) -> None:
        self.books = books

    def hear(self, terminal: Terminal, event: Event, tag: object) -> None:
        if isinstance(event, CardDelivered):  # (per card: the time from the terminal, not the clock)
            self.books.card_delivered(event.number, terminal.now)
        else:
            self.books.sender_event(terminal, event, tag)


class _ReceiverNotes(EventSink):
    """:meth:`Books.receiver_event` as a terminal's :class:`EventSink`."""

    def __init__(self, books: Books) -> None:
        self.books = books

    def hear(self, terminal: Terminal, event: Event, tag: object) -> None:
        self.books.receiver_event(terminal, event, tag)
