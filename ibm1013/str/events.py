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


COMPLETE = "complete"
"""The far end holds every card and the end of transmission was confirmed."""
CARDS_GIVEN_UP = "cards given up"
"""The session ended in order (end of transmission confirmed) after the transmitting terminal gave
one card or more up: the far end does not hold the whole deck, so it is not ``complete``."""

NOT_CONFIRMED = "delivered, not confirmed"
"""The far end holds every card (every one was acknowledged, or in a simulation: every one arrived),
but the last word that says so was lost."""


@dataclass(frozen=True, slots=True)
class SessionEnded:
    """The session is over.  ``outcome``: ``complete``, ``cards given up``, ``no answer``, ``no data``,
    ``protocol error``, ``sequence fault``, ``aborted`` (this end gave up), ``aborted by receiver``,
    ``end not confirmed``.
    ``resume_at``: the deck position a new session should start from (``None``: nothing left)."""

    outcome: str
    message: str
    resume_at: int | None = None

    @property
    def clean(self) -> bool:
        return self.outcome == COMPLETE


Action = Send | StartTimer | CancelTimer
Event = CardAccepted | CardDelivered | CardFailed | OperatorCall | ProtocolError | SessionEnded
