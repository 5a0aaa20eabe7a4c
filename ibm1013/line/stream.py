"""A game streamed over a real line: :mod:`ibm1013.str.stream` driven as :mod:`ibm1013.line.endpoint`
drives a deck.

Nothing here speaks STR: the sessions are a :class:`~ibm1013.line.station.Station`'s loop around the
core's machines, and the resume handshake is :mod:`ibm1013.line.handshake`'s (the receiving end
transmits a one-card ``1013 RESUME`` record saying how many cards it holds in its journal and their
digest; the sending end checks they are its first cards and goes on after them).  What is added:

* :func:`stream_cards` — the sending end.  A :class:`~ibm1013.str.stream.StreamTransmitter` is fed from a
  :class:`CardSource` (the player): the source is polled on a ``"feed"`` timer of the session loop,
  at the moment its next card is due (``next_due``) or every ``POLL_S`` for a person typing.  The
  stream never holds the game hostage: with no watcher on the line yet, or when the session breaks
  (a cut line, a watcher that went away), the sending end keeps the cards, the player plays on
  (:meth:`CardSource.play_on`) and the watcher's handshake is awaited again and again, each time up
  to ``HANDSHAKE_TRY_S``; a watcher that comes (or comes back) catches up on every card.  Only once the
  player has finished and a whole ``timeout_s`` more has passed without a watcher does it give up
  (:class:`NoWatcher`), and the caller keeps the game.  A watcher that holds part of an *earlier*
  stream (the player's process was restarted, ``play --load DECK --stream``) gets this stream from
  its first card: :class:`~decks.stream.Watcher` sees a game deck where an event was due, checks
  it is the same game and carries on from the player's position.
* :func:`watch_cards` — the receiving end: a :class:`~ibm1013.str.stream.StreamReceiver` whose accepted
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
from ibm1013.line.handshake import (
    HANDSHAKE_LAYOUT,
    OtherDeck,
    announce_resume_point,
    await_resume_point,
    refusal_of,
    refused_message,
    tell_refusal,
)
from ibm1013.line.journal import Journal
from ibm1013.line.station import EndpointConfig, Station, TransferError
from ibm1013.line.trace import Trace
from ibm1013.str.events import (
    ABORTED_BY_RECEIVER,
    CardAccepted,
    CardDelivered,
    Output,
    Send,
    SessionEnded,
    StartTimer,
)
from ibm1013.str.stream import KEEPALIVE_S, StreamReceiver, StreamTransmitter

BID_RETRIES = 1
"""Retries of an unanswered bid in a stream's session before the line counts as cut (our choice)."""

HANDSHAKE_TRY_S = 5.0
"""Longest single wait for the watcher's handshake when none is on the line (our choice); the
player gives up only ``timeout_s`` after finishing."""

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

    def play_on(self, now: float) -> None:
        """No watcher is taking the cards yet (or the line is down): go on without one (a script
        starts its clock)."""


class NoWatcher(TransferError):
    """The player finished and no watcher answered for ``timeout_s`` more: the cards not confirmed
    stay with the caller (``play --stream`` saves the game)."""


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
    """The stream transmitter with the player's source attached on a ``"feed"`` timer.

    The endpoint's session loop drives it like any machine: the timer wakes it exactly when the
    source's next card is due, so a card goes on the line the moment it is made."""

    def __init__(self, tx: StreamTransmitter, source: CardSource, records: list[Card],
                 last_cards: Callable[[], list[Card]] | None = None) -> None:
        self.tx = tx
        self.source = source
        self.records = records
        self.last_cards = last_cards
        """Cards that go after the source's last (a deck's trailer), asked for once it is finished."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self.tx, name)

    def _timer(self, now: float) -> StartTimer:
        due = self.source.next_due()
        return StartTimer("feed", POLL_S if due is None else max(0.0, due - now))

    def _poll(self) -> Output:
        now = time.monotonic()
        cards = self.source.poll(now)
        self.records += cards
        out = self.tx.append(cards)
        if self.source.finished:
            tail = self.last_cards() if self.last_cards else []
            return out + self.tx.append(tail) + self.tx.close()
        return [self._timer(now), *out]

    def start(self) -> Output:
        return [*self.tx.start(), StartTimer("feed", 0.0)]

    def timer_expired(self, name: str) -> Output:
        if name == "feed":
            return [] if self.tx.ended else self._poll()
        return self.tx.timer_expired(name)


def stream_cards(
    link: Link, cards: list[Card], source: CardSource, config: EndpointConfig, *,
    keepalive_s: float = KEEPALIVE_S, on_delivered: Callable[[int, float], None] | None = None,
    monitor: Trace | None = None, on_waiting: Callable[[StreamStats, bool], None] | None = None,
) -> StreamStats:
    """Send ``cards`` and then every card ``source`` makes, keeping one session up; returns when the
    source is finished and the watcher confirmed the end.  Without a watcher the player plays on
    (``on_waiting(stats, finished)`` hears of each handshake that found none); :class:`NoWatcher`
    once the source is finished and no watcher came for ``config.timeout_s`` more,
    :class:`TransferError` when the watcher refuses a card, or at once when the far end's handshake
    is refused (another ``--bit-rate``, or not a watcher's columns: a ``receive``), the far end told.
    ``monitor`` sees the line (:mod:`ibm1013.line.trace`; the line pane of the full-screen board)."""
    stats = StreamStats()
    records = list(cards)
    config = replace(config, resume=True)  # the watcher says what it holds; we go on from there
    # a bid that holds the line is tried twice, not the 7 times of a session start: a watcher that
    # is gone is noticed in 2 × ack_timeout_s, and the handshake that follows waits timeout_s for it
    session = replace(config.deck_session(), sync_retries=BID_RETRIES)
    station = Station(link, config, monitor=monitor)
    link.discard_input()
    finished_at: float | None = None  # when the player finished with no watcher on the line
    while True:
        try:
            first = _handshake(station, records, config)
        except OtherDeck:  # the watcher holds part of an earlier stream (a player since restarted)
            first = 1      # this stream starts over from its game deck; the watcher checks the game
        except (TransferError, PortError) as err:
            refusal = getattr(err, "refusal", None)
            if refusal is not None:  # the far end is set otherwise (--bit-rate): no use waiting for
                # it; it is told at once.  Other columns than the player's 'auto': no watcher
                tell_refusal(station, config, "GAME" if refusal == "LAYOUT" else refusal)
                if refusal == "LAYOUT":
                    raise TransferError(
                        "the far end is not an `ibm1013 watch` (it takes other --columns than a "
                        "watcher's 'auto': an `ibm1013 receive`?); a game streamed by `ibm1013 play "
                        "--stream` is shown by `ibm1013 watch`") from None
                raise
            now = time.monotonic()
            if finished_at is not None and now - finished_at >= config.timeout_s:
                raise NoWatcher(_no_watcher(link, config, stats, err)) from None
            source.play_on(now)
            records += source.poll(now)
            if source.finished and finished_at is None:
                finished_at = now
            if on_waiting:
                on_waiting(stats, source.finished)
            continue
        tx = StreamTransmitter(records, session, first_card=first, keepalive_s=keepalive_s)
        feed = _Feed(tx, source, records)

        def on_event(event: Any, now: float) -> None:
            if isinstance(event, CardDelivered):
                stats.cards += 1
                if on_delivered:
                    on_delivered(event.number, now)

        stats.sessions += 1
        try:
            ended, _log = station.run(feed, on_event, stall_s=math.inf)  # type: ignore[arg-type]
        except PortError as err:
            raise TransferError(f"{err}; {stats.cards} cards were confirmed") from None
        stats.retransmissions += tx.retransmissions
        stats.keepalives += tx.keepalives
        if ended.clean and source.finished and tx.pending == 0:
            return stats
        if ended.outcome == ABORTED_BY_RECEIVER:
            raise TransferError(
                f"the watcher refused card {tx.current_card} and ended the stream (its own message "
                "says why: a move that does not apply there)")
        # a cut or a card given up: wait for the watcher's next handshake and go on


def _handshake(station: Station, records: list[Card], config: EndpointConfig) -> int:
    """One try at the watcher's resume handshake, of at most HANDSHAKE_TRY_S (or ``timeout_s``):
    between tries the player's cards are collected, so the player hears soon that nobody watches."""
    station.config = replace(config, timeout_s=min(config.timeout_s, HANDSHAKE_TRY_S))
    try:
        return await_resume_point(station, records, None, station.config, check_bit_rate=True)
    finally:
        station.config = config


def _no_watcher(link: Link, config: EndpointConfig, stats: StreamStats, err: Exception) -> str:
    if not stats.sessions:
        return (f"no watcher answered on {link.name} (waited {config.timeout_s:g} s after the last "
                "move): start `ibm1013 watch` there (or give a longer --timeout)")
    return (f"the watcher did not come back after the line broke, {stats.cards} cards confirmed "
            f"(waited {config.timeout_s:g} s after the last move): {err}")


def watch_cards(
    link: Link, journal: Journal, on_card: Callable[[int, Card, float], None], config: EndpointConfig,
    *, monitor: Trace | None = None, stop: threading.Event | None = None,
) -> SessionEnded:
    """Receive a game stream into ``journal``.  ``on_card(number, card, now)`` sees each card first
    (raise :class:`Refused` to refuse it); then it is made durable, then acknowledged.  Returns how
    the session ended (``complete``: the player's end sent ``TL EOT``).  ``monitor`` sees the line;
    once ``stop`` is set the session ends, the far end told (:class:`~ibm1013.line.station.Interrupted`)."""
    link.discard_input()
    station = Station(link, config, monitor=monitor, stop=stop)
    try:
        announce_resume_point(station, journal, config)
    except (TransferError, PortError):
        raise TransferError(
            f"no player's end answered on {link.name} within {config.timeout_s:g} s: start "
            "`ibm1013 play … --stream` there (or give a longer --timeout)") from None
    held = journal.count
    rx = StreamReceiver(config.deck_session(), first_card=held + 1, handshake=HANDSHAKE_LAYOUT)
    refused = []  # the far end's refusal of our handshake, if it came

    def on_event(event: Any, now: float) -> None:
        if isinstance(event, CardAccepted):
            if event.number == held + 1 and (mark := refusal_of(event)) is not None:
                refused.append(mark)  # acknowledged, never journalled; said once the session ends
                return
            card = event.card
            on_card(event.number, card, now)  # raises Refused: no acknowledgement goes out
            journal.append(card)

    try:
        ended, _log = station.run(rx, on_event, stall_s=math.inf)
    except Refused as err:
        station.pacer.queue(_refusal(rx, str(err)), time.monotonic())
        station.pacer.drain()
        raise
    if refused:
        raise TransferError(_refused(refused[0], config, held))
    return ended


def _refused(mark: Any, config: EndpointConfig, held: int) -> str:
    """The watcher's one line for the far end's refusal of its handshake."""
    if mark.status == "LAYOUT":  # a player streams in the watcher's own layout: this is a `send`
        return ("the far end is an `ibm1013 send`, sending a deck: that goes to an `ibm1013 "
                "receive`; a watcher shows a game streamed by `ibm1013 play --stream`")
    return refused_message(mark, config, held, "stream")


def _refusal(rx: StreamReceiver, reason: str) -> bytes:
    """The bytes of the receiver's refusal (``CL EOT``), from the core."""
    return b"".join(a.data for a in rx.refuse(reason) if isinstance(a, Send))
