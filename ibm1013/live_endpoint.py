"""A live card stream over a real line: :mod:`ibm1013.live` driven by :mod:`ibm1013.endpoint`.

Nothing here speaks STR: the sessions are the endpoint's :class:`~ibm1013.endpoint.Station` loop
around the core's machines, and the resume handshake is the endpoint's own (the receiving end
transmits a one-card ``1013 RESUME`` record saying how many cards it holds in its journal and their
digest; the sending end checks they are its first cards and goes on after them).  What is added:

* :func:`stream_cards` — the sending end.  A :class:`~ibm1013.live.LiveTransmitter` is fed from a
  :class:`CardSource` (the player): the source is polled on a ``"feed"`` timer of the session loop,
  at the moment its next card is due (``next_due``) or every ``POLL_S`` for a person typing.  When
  the session breaks (a cut line, a watcher that went away) the sending end keeps the cards and
  waits for the watcher's next handshake, up to ``timeout_s``; the player plays on meanwhile.
* :func:`watch_cards` — the receiving end: a :class:`~ibm1013.live.LiveReceiver` whose accepted
  cards go to ``on_card`` and then to the journal (durable before the acknowledgement goes out);
  an exception from ``on_card`` (:class:`Refused`) refuses the card with ``CL EOT`` instead.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from emulator.card import Card
from emulator.errors import IbmError
from emulator.serial import Link, PortError
from ibm1013.endpoint import (
    EndpointConfig,
    Station,
    TransferError,
    announce_resume_point,
    await_resume_point,
)
from ibm1013.journal import Journal
from ibm1013.live import KEEPALIVE_S, LiveReceiver, LiveTransmitter
from ibm1013.monitor import Monitor
from ibm1013.str.events import CardAccepted, CardDelivered, Send, SessionEnded, StartTimer

BID_RETRIES = 1
"""Retries of an unanswered bid in a live session before the line counts as cut (our choice)."""

POLL_S = 0.02
"""How often a source without a known next card (a person typing) is asked for cards."""


class CardSource(Protocol):
    """Where the sending end's cards come from (the player's end of a game stream)."""

    def poll(self, now: float) -> list[Card]:
        """Cards made since the last call (``now``: :func:`time.monotonic`)."""

    def next_due(self) -> float | None:
        """When the next card will be made, if known (``None``: poll every ``POLL_S``)."""

    @property
    def finished(self) -> bool:
        """No more cards will come."""


class Refused(IbmError):
    """Raised by the watcher's ``on_card``: the card must not be acknowledged; the session ends."""


@dataclass
class StreamStats:
    """What one end saw: cards through, retransmissions, bids that held the line, sessions."""

    cards: int = 0
    retransmissions: int = 0
    keepalives: int = 0
    sessions: int = 0


class _Feed:
    """The live transmitter with the player's source attached on a ``"feed"`` timer.

    The endpoint's session loop drives it like any machine: the timer wakes it exactly when the
    source's next card is due, so a card goes on the line the moment it is made."""

    def __init__(self, tx: LiveTransmitter, source: CardSource, records: list[Card]) -> None:
        self.tx = tx
        self.source = source
        self.records = records

    def __getattr__(self, name: str) -> Any:
        return getattr(self.tx, name)

    def _timer(self, now: float) -> StartTimer:
        due = self.source.next_due()
        return StartTimer("feed", POLL_S if due is None else max(0.0, due - now))

    def _poll(self) -> list:
        now = time.monotonic()
        cards = self.source.poll(now)
        self.records += cards
        out = self.tx.append(cards)
        if self.source.finished:
            return out + self.tx.close()
        return [self._timer(now), *out]

    def start(self) -> list:
        return [*self.tx.start(), StartTimer("feed", 0.0)]

    def timer_expired(self, name: str) -> list:
        if name == "feed":
            return [] if self.tx.ended else self._poll()
        return self.tx.timer_expired(name)


def stream_cards(
    link: Link, cards: list[Card], source: CardSource, config: EndpointConfig, *,
    keepalive_s: float = KEEPALIVE_S, on_delivered: Callable[[int, float], None] | None = None,
    monitor: Monitor | None = None,
) -> StreamStats:
    """Send ``cards`` and then every card ``source`` makes, keeping one session up; returns when the
    source is finished and the watcher confirmed the end.  :class:`TransferError` when the watcher
    refuses a card or stays away longer than ``config.timeout_s``.  ``monitor`` sees the line
    (:mod:`ibm1013.monitor`; the line pane of the full-screen board)."""
    stats = StreamStats()
    records = list(cards)
    config = replace(config, resume=True)  # the watcher says what it holds; we go on from there
    # a bid that holds the line is tried twice, not the 7 times of a session start: a watcher that
    # is gone is noticed in 2 × ack_timeout_s, and the handshake that follows waits timeout_s for it
    session = replace(config.deck_session(), sync_retries=BID_RETRIES)
    station = Station(link, config, monitor=monitor)
    link.discard_input()
    while True:
        try:
            first = await_resume_point(station, records, None, config)
        except (TransferError, PortError) as err:
            if not stats.sessions:
                raise TransferError(
                    f"no watcher answered on {link.name} within {config.timeout_s:g} s: start "
                    "`ibm1013 watch` there (or give a longer --timeout)") from None
            raise TransferError(f"the watcher did not come back after the line broke, "
                                f"{stats.cards} cards confirmed: {err}") from None
        tx = LiveTransmitter(records, session, first_card=first, keepalive_s=keepalive_s)
        feed = _Feed(tx, source, records)

        def on_event(event: Any, now: float) -> None:
            if isinstance(event, CardDelivered):
                stats.cards += 1
                if on_delivered:
                    on_delivered(event.number, now)

        stats.sessions += 1
        try:
            ended, _log = station.run(feed, on_event, stall_s=math.inf, abort_on_failure=True)  # type: ignore[arg-type]
        except PortError as err:
            raise TransferError(f"{err}; {stats.cards} cards were confirmed") from None
        stats.retransmissions += tx.retransmissions
        stats.keepalives += tx.keepalives
        if ended.clean and source.finished and tx.pending == 0:
            return stats
        if ended.outcome == "aborted by receiver":
            raise TransferError(
                f"the watcher refused card {tx.current_card} and ended the stream (its own message "
                "says why: a move that does not apply there)")
        # a cut or a card given up: wait for the watcher's next handshake and go on


def watch_cards(
    link: Link, journal: Journal, on_card: Callable[[int, Card, float], None], config: EndpointConfig,
    *, monitor: Monitor | None = None, stop: threading.Event | None = None,
) -> SessionEnded:
    """Receive a live stream into ``journal``.  ``on_card(number, card, now)`` sees each card first
    (raise :class:`Refused` to refuse it); then it is made durable, then acknowledged.  Returns how
    the session ended (``complete``: the player's end sent ``TL EOT``).  ``monitor`` sees the line;
    once ``stop`` is set the session ends, the far end told (:class:`~ibm1013.endpoint.Interrupted`)."""
    link.discard_input()
    station = Station(link, config, monitor=monitor, stop=stop)
    try:
        announce_resume_point(station, journal, config)
    except (TransferError, PortError):
        raise TransferError(
            f"no player's end answered on {link.name} within {config.timeout_s:g} s: start "
            "`ibm1013 play … --stream` there (or give a longer --timeout)") from None
    rx = LiveReceiver(config.deck_session(), first_card=journal.count + 1)

    def on_event(event: Any, now: float) -> None:
        if isinstance(event, CardAccepted):
            card = event.card
            on_card(event.number, card, now)  # raises Refused: no acknowledgement goes out
            journal.append(card)

    try:
        ended, _log = station.run(rx, on_event, stall_s=math.inf)
    except Refused as err:
        station.pacer.queue(_refusal(rx, str(err)), time.monotonic())
        station.pacer.drain()
        raise
    return ended


def _refusal(rx: LiveReceiver, reason: str) -> bytes:
    """The bytes of the receiver's refusal (``CL EOT``), from the core."""
    return b"".join(a.data for a in rx.refuse(reason) if isinstance(a, Send))
