"""An open-ended STR session: cards that are made while the session runs (a streamed game).

A deck transfer knows all its cards before it starts; a game streamed move by move does not.  The
two classes here are the STR core (:mod:`ibm1013.str`) with the least added to keep one session up
between cards that come seconds or minutes apart — sans-I/O like the core, driven by the same
drivers (:mod:`ibm1013.line.stream` over a serial port, :mod:`ibm1013.sim.stream` in SimPy).

**Holding the line.**  STR has no "nothing to send yet" sequence: a transmitter with no record
sends ``TL EOT`` and the session is over; setting up a new one costs synchronize mode (1.3 s of
idles, then waiting for the far end's ``CL IDLE`` in its own 1.3 s + 3 s cycle) before every move.
What STR does allow at any time is a *bid*: ``IDLE TL INQ``, answered ``CL ACK2`` — the transmitter
uses it to put both ends back in step after trouble, and the receiver restarts its idle timer on it.
So :class:`StreamTransmitter`, when it has delivered every card it has, *waits*; every
``keepalive_s`` it bids.  The answered bid proves both directions alive (5 characters on the
line), the receiver's idle timer never runs out, and record numbering restarts at ``SOR1`` on both
ends exactly as after any bid.  A new card is sent at once from the wait, with no synchronize
phase: the latency of a move is one record's time on the line.  If a bid goes unanswered the
core's own bid retries (``sync_retries``, ``ack_timeout_s`` each) end the session ``no answer``:
the watcher is gone.  At the receiving end the idle timer (``idle_timeout_s``, longer than
``keepalive_s``) ends the session ``no data`` when the player's end is gone.

Idle fill between the bids (the real data set kept sending IDLE characters to stay in character
sync) is left out: on our lines nothing loses sync, and idles would only delay the next record
behind them.

**Refusing a card.**  STR lets a receiving station end a session by answering ``CL EOT``; the
transmitter reports ``aborted by receiver``.  :meth:`StreamReceiver.refuse` does that for a card the
layer above will not take (a move that does not apply): the card is not acknowledged, ``CL EOT``
goes out and the session ends ``refused``.

**Ending.**  :meth:`StreamTransmitter.close` marks the stream finished: when every card is delivered,
``TL EOT`` goes out and the session ends ``complete`` as any other.
"""

from __future__ import annotations

from collections.abc import Sequence

from emulator.card import Card
from ibm1013.str.config import SessionConfig
from ibm1013.str.events import (
    REFUSED,
    STATE_BID,
    STATE_DONE,
    STATE_WAIT,
    CancelTimer,
    Output,
    StartTimer,
)
from ibm1013.str.layout import deck_words
from ibm1013.str.receiver import Receiver
from ibm1013.str.transmitter import Transmitter

KEEPALIVE_S = 5.0
"""Seconds between bids while no card waits (our choice: well inside the 20 s idle timeout)."""


class StreamTransmitter(Transmitter):
    """A transmitter whose deck grows: :meth:`append` cards at any time, :meth:`close` to end.

    ``cards``: the records known at the start, of which those from ``first_card`` on are sent (1-based
    deck positions, as for :class:`Transmitter`)."""

    def __init__(
        self, cards: Sequence[Card] = (), config: SessionConfig | None = None, *, first_card: int = 1,
        keepalive_s: float = KEEPALIVE_S,
    ) -> None:
        super().__init__([], config)
        self.first_card = first_card
        self.keepalive_s = keepalive_s
        self.closing = False
        self.keepalives = 0
        self._keepalive_timer = StartTimer("keepalive", keepalive_s)
        self._add(list(cards)[first_card - 1:])

    @property
    def waiting(self) -> bool:
        """Every card so far delivered (or given up); holding the line for the next."""
        return self.state == STATE_WAIT

    @property
    def pending(self) -> int:
        """Cards appended but not yet delivered or given up."""
        return self._count - self._i

    def append(self, cards: Sequence[Card]) -> Output:
        """Add cards at the end of the deck; if the line is being held they go at once."""
        self._add(cards)
        if self.state != STATE_WAIT or not cards:
            return []
        return [CancelTimer("keepalive"), *self._send_record()]

    def close(self) -> Output:
        """No more cards: after the last is delivered ``TL EOT`` ends the session."""
        self.closing = True
        if self.state != STATE_WAIT:
            return []
        return [CancelTimer("keepalive"), *self._send_record()]

    def timer_expired(self, name: str) -> Output:
        if name == "keepalive":
            if self.state != STATE_WAIT:
                return []
            self.keepalives += 1
            self.state = STATE_BID
            self._attempt = 1
            return self._send_bid()
        return super().timer_expired(name)

    # -- the core's hooks ----------------------------------------------------------------------------
    def _add(self, cards: Sequence[Card]) -> None:
        if not cards:
            return
        number = self.first_card + self._count
        self._bodies += self.config.columns.encode_records(deck_words(list(cards)), number)
        self._count = len(self._bodies)
        self.total_cards = self.first_card - 1 + self._count

    def _send_record(self) -> Output:
        if self._i >= self._count and not self.closing:
            self.state = STATE_WAIT
            return [CancelTimer("reply"), self._keepalive_timer]
        return super()._send_record()

    def _finish(self, outcome: str, message: str, *, error: bool = False) -> Output:
        return [CancelTimer("keepalive"), *super()._finish(outcome, message, error=error)]


class StreamReceiver(Receiver):
    """A receiver that can refuse the card it has just been handed (see the module docstring)."""

    def refuse(self, reason: str) -> Output:
        """End the session now with ``CL EOT`` instead of acknowledging the last card; the card is
        not counted.  Perform these actions *instead of* the rest of the list that carried the card
        (its acknowledgement must not go out)."""
        if self.state == STATE_DONE:
            return []
        self.next_card -= 1
        return self._finish(REFUSED, reason, abort=True)

