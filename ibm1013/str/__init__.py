"""STR (Synchronous Transmit-Receive) line control for the IBM 1013, without any I/O.

Like h11 for HTTP, this package only keeps state: you feed it the bytes that arrived and the timers
that ran out, and it hands back what to send, which timers to start, and what happened.  The SimPy
model (``ibm1013.sim.terminal``) and the serial endpoints drive the very same objects.  No SimPy, no
serial, no clock in here.

The exchange (``docs/str.md`` §1, codes in ``docs/ibm1013.md`` §3)::

    transmitter                                   receiver
    IDLE×n CL IDLE      (synchronize mode)        IDLE×n CL IDLE
    IDLE TL INQ         ─────────────►
                        ◄─────────────            CL ACK2
    IDLE TL SOR1 data TL LRC ────────►            (checks each character and the LRC)
                        ◄─────────────            CL ACK1   (or CL ERR: send it again)
    IDLE TL SOR2 data TL LRC ────────►
                        ◄─────────────            CL ACK2
    …
    IDLE TL EOT         ─────────────►
                        ◄─────────────            CL EOT

API
---
``Transmitter(deck, config=SessionConfig(), first_card=1)``
    ``deck``: a sequence of :class:`~emulator.card.Card` or an ``(n, 80)`` numpy array of column
    words; transmission starts at deck position ``first_card`` (1-based; use it to resume after a
    cut).  Encoding happens in the constructor: a column the layout cannot send raises
    :class:`~emulator.errors.CardError` naming card and column.
``Receiver(config=SessionConfig(), first_card=1)``
    numbers the cards it accepts from ``first_card``.

Both have:

``start() -> list``
    the first actions (synchronize idles + ``CL IDLE``, and timers).  Call once.  Both ends stay in
    synchronize mode until they hear each other: the transmitter repeats its sequence
    (``sync_retries``); the receiver cycles idles, ``CL IDLE``, listen ``sync_listen_s`` (its ``"sync"``
    timer) until the transmitter's first ``TL`` sequence (``Receiver.synchronized``), so a
    transmitter started later still hears an end-of-idle.  The receiver's idle timer bounds the wait:
    if nobody answers, it ends ``no data`` with a message beginning ``no peer``.
``receive_data(data: bytes) -> list``
    bytes from the peer, any chunking (one byte at a time or many records at once).  Buffers stay
    bounded whatever arrives: a peer sending more than ``config.babble_chars`` non-idle characters
    without a valid sequence ends the session with ``ProtocolError`` + ``SessionEnded``.
``timer_expired(name: str) -> list``
    the named timer ran out (transmitter: ``"reply"``; receiver: ``"idle"``, ``"sync"``).
``call_operator() -> None``
    send TEL (telephone request) at the next opportunity; the far end reports ``OperatorCall``.
``ended: SessionEnded | None``
    set once the session is over; later calls return ``[]`` (a receiver that ended cleanly still
    answers a repeated ``TL EOT``).
``Transmitter.abort(reason: str) -> list``
    give up the session now (e.g. after a ``CardFailed`` the driver will not accept): sends
    ``IDLE TL EOT`` so the receiver ends at once (it answers ``CL EOT``; STR has no other end, so
    to the receiver it looks like a normal end — check the deck's trailer) instead of waiting for its
    idle timeout.  The session ends ``aborted`` (``resume_at``: the first card not delivered) on
    ``CL EOT`` or one ``ack_timeout_s`` later.  Perform its actions *instead of* the rest of the
    list being performed.
``Receiver.abort(reason: str) -> list``
    give up the session now (the operator stopped it): sends ``CL EOT``, which a transmitter in the
    middle of a record takes as ``aborted by receiver``; the session ends ``aborted`` at once.
``Transmitter.sent_data(number) -> bytes``
    the data characters the record of card ``number`` carries (for checking what arrived).

Counters: ``Transmitter.retransmissions``, ``records_sent``, ``chars_sent``, ``error_replies``,
``timeouts``, ``garbled_replies``, ``delivered``, ``failed`` (list of card numbers);
``Receiver.cards_accepted``, ``sync_cycles``, ``detected_errors``, ``duplicates``, ``invalid_sequences``,
``sequence_faults``, ``suspect_repeats``, ``chars_sent``, ``operator_calls``, ``next_card``.

Beyond the documented STR exchange the receiver runs a few sequence checks (see
``ibm1013.str.receiver``) so that a reply or SOR hit by two bit flips ends the session with a clear
``sequence fault`` instead of losing a card.  Two weaknesses remain, both needing two-bit errors in
control characters: a repeated record whose SOR1/SOR2 is flipped looks exactly like the next card
when consecutive cards are identical, and is punched twice; and a card skipped on a ``CL ERR`` misread
as ``CL ACK1`` goes unnoticed if the receiver then recognises none of the tries of the next record
(seen once in about 32,000 fuzzed runs at BER 1e-2, where under 1 % of records get through).  The
simulator counts such cards in ``duplicated`` and ``lost``; stricter checks here stopped sessions
at ordinary noise levels, which was judged worse.

The returned lists hold, in order, actions to perform and events to note (``ibm1013.str.events``):

* ``Send(data, card=None, attempt=0)`` — put bytes on the line (``card``: deck position a record
  carries; ``attempt`` 1 for the first transmission);
* ``StartTimer(name, seconds)`` — (re)start a timer, counting from when the preceding ``Send`` in the
  same list has left the terminal; ``CancelTimer(name)``;
* ``CardAccepted(number, data, layout)`` (``.card`` decodes it), ``CardDelivered(number)``,
  ``CardFailed(number, reason)``, ``OperatorCall()``, ``ProtocolError(message)``,
  ``SessionEnded(outcome, message, resume_at)``.

Settings: :class:`SessionConfig` (every value with its source) and :class:`ColumnLayout`
(``ColumnLayout.parse("80" | "auto" | "1-20,41-60", column_binary=False)``).
"""

from ibm1013.str.config import SessionConfig, parameter_sources
from ibm1013.str.events import (
    CancelTimer,
    CardAccepted,
    CardDelivered,
    CardFailed,
    OperatorCall,
    ProtocolError,
    Send,
    SessionEnded,
    StartTimer,
)
from ibm1013.str.layout import ColumnLayout, deck_words
from ibm1013.str.receiver import Receiver
from ibm1013.str.transmitter import Transmitter

__all__ = [
    "CancelTimer", "CardAccepted", "CardDelivered", "CardFailed", "ColumnLayout", "OperatorCall",
    "ProtocolError", "Receiver", "Send", "SessionConfig", "SessionEnded", "StartTimer",
    "Transmitter", "deck_words", "parameter_sources",
]
