"""What the STR state machines hand back: things to do (actions) and things that happened (events).

The driver (SimPy terminal, serial endpoint, test) performs the actions in order and reacts to the
events.  All are small dataclasses; the three made once per record (``Send``, ``CardAccepted``,
``CardDelivered``) are not frozen, because frozen dataclasses are several times slower to build —
treat them as read-only all the same.  Those three also write their ``__init__`` out
(``init=False``) and have no ``slots=True``: the ``__init__`` that ``dataclass`` generates is Python
code even in the compiled build (400-500 ns a record each), and ``slots=True`` makes a new class
that mypyc did not compile; written out, mypyc builds them natively.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from emulator.card import Card
from ibm1013.str.layout import ColumnLayout  # a real import: mypyc's dataclasses resolve annotations


# -- actions --------------------------------------------------------------------------------------
@dataclass(init=False)
class Send:
    """Put ``data`` on the line.  ``card``: the deck position a record carries (``None`` for control
    sequences); ``attempt``: 1 for its first transmission, 2… for retransmissions."""

    data: bytes
    card: int | None
    attempt: int

    def __init__(self, data: bytes, card: int | None = None, attempt: int = 0) -> None:
        self.data = data
        self.card = card
        self.attempt = attempt


@dataclass(frozen=True, slots=True)
class StartTimer:
    """(Re)start the timer ``name`` to expire ``seconds`` after the preceding :class:`Send` (or now,
    if none precedes it in the same list) has left the terminal.  A running timer of the same name is
    replaced.  On expiry the driver calls ``timer_expired(name)``."""

    name: str
    seconds: float


@dataclass(frozen=True, slots=True)
class CancelTimer:
    """Stop the timer ``name`` if it runs."""

    name: str


# -- events ---------------------------------------------------------------------------------------
@dataclass(init=False)
class CardAccepted:
    """The receiver accepted a record: card ``number`` (deck position) with the record ``data``.
    ``card`` decodes it (unsent columns blank), ``words`` to its column words; reply it already
    queued."""

    number: int
    data: bytes
    layout: ColumnLayout = field(repr=False, compare=False)

    def __init__(self, number: int, data: bytes, layout: ColumnLayout) -> None:
        self.number = number
        self.data = data
        self.layout = layout

    @property
    def card(self) -> Card:
        return self.layout.decode(self.data)

    @property
    def words(self) -> bytes:
        """The card's column words, big-endian (its journal record's words), with no card built."""
        return self.layout.decode_bytes(self.data)


@dataclass(init=False)
class CardDelivered:
    """The transmitter got the acknowledgement for card ``number``."""

    number: int

    def __init__(self, number: int) -> None:
        self.number = number


@dataclass(frozen=True, slots=True)
class CardFailed:
    """The transmitter gave card ``number`` up after the retry limit (``reason`` says why)."""

    number: int
    reason: str


@dataclass(frozen=True, slots=True)
class OperatorCall:
    """The far end sent TEL: its operator asks for a telephone call."""


@dataclass(frozen=True, slots=True)
class ProtocolError:
    """The peer broke the protocol (garbage, babbling, sequence fault); a :class:`SessionEnded`
    follows."""

    message: str


# -- session outcomes: SessionEnded.outcome, and a report's ``ended`` -------------------------------
COMPLETE: Final = "complete"
"""The far end holds every card and the end of transmission was confirmed."""
CARDS_GIVEN_UP: Final = "cards given up"
"""The session ended in order (end of transmission confirmed) after the transmitting terminal gave
one card or more up: the far end does not hold the whole deck, so it is not ``complete``."""
NOT_CONFIRMED: Final = "delivered, not confirmed"
"""The far end holds every card (every one was acknowledged, or in a simulation: every one arrived),
but the last word that says so was lost."""
END_NOT_CONFIRMED: Final = "end not confirmed"
"""Every card was acknowledged, but ``TL EOT`` was never answered with ``CL EOT``."""
NO_ANSWER: Final = "no answer"
"""The transmitting terminal's synchronizing or bid went unanswered: the line is dead."""
NO_DATA: Final = "no data"
"""The receiving terminal heard nothing valid for ``idle_timeout_s``."""
PROTOCOL_ERROR: Final = "protocol error"
"""The peer broke the protocol (garbage, babbling)."""
SEQUENCE_FAULT: Final = "sequence fault"
"""The receiving terminal saw a record out of sequence and stopped the session."""
ABORTED: Final = "aborted"
"""This end gave up (:meth:`~ibm1013.str.Transmitter.abort`, ``Receiver.abort``)."""
ABORTED_BY_RECEIVER: Final = "aborted by receiver"
"""The receiving terminal ended the session with ``TL EOT`` while cards were still coming."""
REFUSED: Final = "refused"
"""A live stream's receiving terminal refused the card it was handed (``StreamReceiver.refuse``)."""


# -- states of the state machines (``Transmitter.state``, ``Receiver.state``) ---------------------
STATE_NEW: Final = "new"
"""Not started yet (both)."""
STATE_SYNC: Final = "sync"
"""Transmitter: idles and ``CL IDLE`` sent, waiting for the far end's ``CL IDLE``."""
STATE_BID: Final = "bid"
"""Transmitter: ``TL INQ`` sent, waiting for ``CL ACK2``."""
STATE_SEND: Final = "send"
"""Transmitter: a record sent, waiting for its ``CL ACKn`` or ``CL ERR``."""
STATE_END: Final = "end"
"""Transmitter: ``TL EOT`` sent, waiting for ``CL EOT``."""
STATE_ABORT: Final = "abort"
"""Transmitter: ``TL EOT`` sent early by ``abort``, waiting for ``CL EOT``."""
STATE_WAIT: Final = "wait"
"""Live stream transmitter: every card so far delivered, holding the line for the next."""
STATE_HUNT: Final = "hunt"
"""Receiver: between records, hunting for the next ``TL``."""
STATE_RECORD: Final = "record"
"""Receiver: inside a record."""
STATE_DONE: Final = "done"
"""The session is over (both)."""


@dataclass(frozen=True, slots=True)
class SessionEnded:
    """The session is over.  ``outcome``: one of the outcome constants above (:data:`COMPLETE`,
    :data:`CARDS_GIVEN_UP`, :data:`NO_ANSWER` …).
    ``resume_at``: the deck position a new session should start from (``None``: nothing left)."""

    outcome: str
    message: str
    resume_at: int | None = None

    @property
    def clean(self) -> bool:
        return self.outcome == COMPLETE


Action = Send | StartTimer | CancelTimer
Event = CardAccepted | CardDelivered | CardFailed | OperatorCall | ProtocolError | SessionEnded
Output = list[Action | Event]
"""What each call of a core returns, in order: the actions its driver carries out and the events it
reports (a core does no I/O of its own)."""
