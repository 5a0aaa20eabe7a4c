"""The sending station of an STR session: cards in, records out, replies in.

See the package docstring (``ibm1013.str``) for the exchange; here is the state machine:

``sync``  idles + ``CL IDLE`` sent; waiting for the far end's ``CL IDLE`` (``sync_listen_s``)
``bid``   ``IDLE TL INQ`` sent; waiting for ``CL ACK2`` (``ack_timeout_s``, ``sync_retries``)
``send``  record ``IDLE TL SORn data TL LRC`` sent; waiting for ``CL ACKn`` / ``CL ERR``
``end``   ``IDLE TL EOT`` sent; waiting for ``CL EOT``
``abort`` :meth:`Transmitter.abort` sent ``IDLE TL EOT`` early; waiting for ``CL EOT`` (at most one
          ``ack_timeout_s``), then the session ends ``aborted`` (``resume_at``: the first card not delivered)
``done``  the session is over (``SessionEnded`` was returned)

A record is sent again after ``CL ERR``, a wrong ``CL ACK``, a garbled reply or no reply within
``ack_timeout_s``.  After ``max_retries`` retransmissions the transmitter bids again (``TL INQ``) to
put both ends back in step; if the bid is answered the card is given up (``CardFailed``) and the next
card goes as ``SOR1``; if not, the line is dead and the session ends with ``resume_at`` at that card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
from mypy_extensions import mypyc_attr

from emulator.card import Card
from ibm1013.str import fourofeight as fo
from ibm1013.str.config import GIVE_UP_STOP, SessionConfig
from ibm1013.str.events import (
    ABORTED,
    ABORTED_BY_RECEIVER,
    CARDS_GIVEN_UP,
    COMPLETE,
    END_NOT_CONFIRMED,
    NO_ANSWER,
    PROTOCOL_ERROR,
    STATE_ABORT,
    STATE_BID,
    STATE_DONE,
    STATE_END,
    STATE_NEW,
    STATE_SEND,
    STATE_SYNC,
    CancelTimer,
    CardDelivered,
    CardFailed,
    OperatorCall,
    Output,
    ProtocolError,
    Send,
    SessionEnded,
    StartTimer,
)
from ibm1013.str.layout import deck_words

# Final: mypyc keeps these in C statics rather than looking them up in the module's dict
_CL: Final = fo.CL
_IDLE: Final = fo.IDLE
_SOR1: Final = fo.SOR1
_SOR2: Final = fo.SOR2
_IDLE_B: Final = bytes([fo.IDLE])
_TEL_SEQ: Final = bytes([fo.IDLE, fo.TL, fo.TEL])


@mypyc_attr(allow_interpreted_subclasses=True)  # ibm1013.str.stream, ibm1013.sim.stream subclass it
class Transmitter:
    """Sends ``deck`` (cards or an ``(n, 80)`` array of column words) from deck position
    ``first_card`` on.  All records are encoded up front, so a column that cannot be sent is a
    :class:`~emulator.errors.CardError` (naming card and column) before anything goes on the line."""

    def __init__(
        self, deck: Sequence[Card] | np.ndarray, config: SessionConfig | None = None, *,
        first_card: int = 1,
    ) -> None:
        self.config = cfg = config or SessionConfig()
        words = deck_words(deck)
        self.total_cards = len(words)
        if not 1 <= first_card <= self.total_cards + 1:
            raise ValueError(f"first card {first_card} is not in a deck of {self.total_cards}")
        self.first_card = first_card
        self._bodies = cfg.columns.encode_records(words[first_card - 1:], first_card)  # data TL LRC
        self._count = len(self._bodies)
        head = _IDLE_B * cfg.pre_idles + bytes([fo.TL])
        self._head1 = head + bytes([fo.SOR1])   # a record's head by its number: two fields, no dict
        self._head2 = head + bytes([fo.SOR2])
        self._inq = head + bytes([fo.INQ])
        self._eot = head + bytes([fo.EOT])
        self._reply_timer = StartTimer("reply", cfg.ack_timeout_s)
        self._listen_timer = StartTimer("reply", cfg.sync_listen_s)
        self._buf = bytearray()
        self.state = STATE_NEW
        self._i = 0                  # index into _bodies of the card being sent
        self._sor = fo.SOR1
        self._attempt = 0            # transmissions of the current record (or bid, or EOT)
        self._giving_up = False      # bidding again after the retry limit
        self._abort_reason = ""
        self._tel_pending = False
        self._garbage = 0
        # counters
        self.retransmissions = 0
        self.records_sent = 0
        self.chars_sent = 0
        self.error_replies = 0
        self.timeouts = 0
        self.garbled_replies = 0
        self.failed: list[int] = []
        self.ended: SessionEnded | None = None

    # -- public API ------------------------------------------------------------------------------
    @property
    def delivered(self) -> int:
        """Cards acknowledged by the receiving terminal (every card before the current one was either
        acknowledged or given up)."""
        return self._i - len(self.failed)

    @property
    def current_card(self) -> int:
        """Deck position of the card being sent (or next to send)."""
        return self.first_card + self._i

    def sent_data(self, number: int) -> bytes:
        """The data characters the record of card ``number`` (deck position) carries."""
        return self._bodies[number - self.first_card][:-2]

    def sent_unchanged(self, start: int, data: list[bytes]) -> bool:
        """Whether ``data`` are exactly the data characters of cards ``start``, ``start + 1`` … as
        their records carried them (the usual end of a transfer), checked without copying a record."""
        bodies = self._bodies
        k = start - self.first_card
        if k < 0 or k + len(data) > len(bodies):
            return False
        for d in data:
            body = bodies[k]
            if len(body) != len(d) + 2 or not body.startswith(d):
                return False
            k += 1
        return True

    def start(self) -> Output:
        """Enter synchronize mode: idles, ``CL IDLE``, then listen for the far end."""
        if self.state != STATE_NEW:
            raise RuntimeError("the transmitter was already started")
        self.state = STATE_SYNC
        self._attempt = 1
        return self._sync()

    def abort(self, reason: str) -> Output:
        """Stop sending now: ``IDLE TL EOT`` goes out so the receiver ends at once instead of waiting
        for its idle timeout.  The session ends ``aborted`` (message ``reason``; ``resume_at`` the
        first card not delivered: the first failed one, else the one being sent) when ``CL EOT``
        answers or after one ``ack_timeout_s``.  Call it while handling the events of one call and
        perform its actions instead of that call's remaining ones (void once aborted).  Before
        :meth:`start`, once aborted, or after the end it does nothing and returns ``[]``."""
        if self.state in (STATE_DONE, STATE_NEW, STATE_ABORT):
            return []
        self.state = STATE_ABORT
        self._abort_reason = reason
        self._buf.clear()
        self.chars_sent += len(self._eot)
        return [Send(self._eot), self._reply_timer]

    def call_operator(self) -> None:
        """Send ``TL TEL`` (telephone request) before the next record."""
        self._tel_pending = True

    def receive_data(self, data: bytes) -> Output:
        """Characters arriving on the reply pair, in any chunking."""
        buf = self._buf
        if (not buf and len(data) == 2 and data[0] == _CL and self.state == STATE_SEND
                and data[1] == self._sor):
            self._garbage = 0  # fast path: the acknowledgement awaited, as one whole reply
            return self._delivered()
        if self.state in (STATE_DONE, STATE_NEW):
            return []
        if not buf and len(data) == 2 and data[0] == _CL:  # one whole reply of another kind
            self._garbage = 0
            out: Output = []
            self._on_reply(data[1], out)
            return out
        buf += data
        out = []
        while buf and self.state != STATE_DONE:
            if buf[0] == _IDLE:
                stripped = buf.lstrip(_IDLE_B)
                del buf[: len(buf) - len(stripped)]
                continue
            if buf[0] != _CL:
                del buf[0]
                self._garbage += 1
                if self._garbage > self.config.babble_chars:
                    return out + self._finish(
                        PROTOCOL_ERROR,
                        f"the receiving terminal sent {self._garbage} characters without one valid "
                        f"reply (state {self.state})", error=True)
                continue
            if len(buf) < 2:
                break
            code = buf[1]
            del buf[:2]
            self._garbage = 0
            self._on_reply(code, out)
        if self.state == STATE_DONE:
            buf.clear()
        return out

    def timer_expired(self, name: str) -> Output:
        """The timer ``name`` (only ``"reply"``) ran out."""
        if name != "reply" or self.state in (STATE_DONE, STATE_NEW):
            return []
        self.timeouts += 1
        if self.state == STATE_ABORT:
            return self._finish(ABORTED, f"{self._abort_reason} (TL EOT sent, no CL EOT)", error=True)
        if self.state == STATE_SYNC:
            return self._retry_sync()
        if self.state == STATE_BID:
            return self._retry_bid()
        if self.state == STATE_END:
            if self._attempt > self.config.max_retries:
                return self._finish(END_NOT_CONFIRMED,
                                    "no CL EOT from the receiving terminal after TL EOT")
            return self._send_eot()
        return self._retransmit("no reply")

    # -- replies ---------------------------------------------------------------------------------
    def _on_reply(self, code: int, out: Output) -> None:
        state = self.state
        if code == fo.TEL:
            out.append(OperatorCall())
            return
        if code == _IDLE:  # the far end's end-of-idle: only awaited in sync mode
            if state == STATE_SYNC:
                self.state = STATE_BID
                self._attempt = 1
                out += self._send_bid()
            return
        if state == STATE_ABORT:
            if code == fo.EOT:
                out += self._finish(ABORTED, f"{self._abort_reason} (end of transmission confirmed)",
                                    error=True)
        elif state == STATE_SEND:
            if code == self._sor:
                out += self._delivered()
            elif code == fo.EOT:
                out += self._finish(ABORTED_BY_RECEIVER,
                                    f"the receiving terminal ended the session at card "
                                    f"{self.current_card} (CL EOT)", error=True)
            else:
                if code == fo.ERR:
                    self.error_replies += 1
                    reason = "CL ERR"
                elif code in (fo.ACK1, fo.ACK2):
                    reason = "wrong CL ACK"
                else:
                    self.garbled_replies += 1
                    reason = "garbled reply"
                out += self._retransmit(reason)
        elif state == STATE_BID:
            if code == fo.ACK2:
                out += self._bid_answered()
        elif state == STATE_END:
            if code == fo.EOT:
                out += self._end_confirmed()

    def _end_confirmed(self) -> Output:
        if not self.failed:
            return self._finish(COMPLETE, "all cards sent, end of transmission confirmed")
        cards = ", ".join(map(str, self.failed[:20])) + (" …" if len(self.failed) > 20 else "")
        return self._finish(CARDS_GIVEN_UP, f"end of transmission confirmed, but {len(self.failed)} "
                                            f"card{'s' if len(self.failed) != 1 else ''} given up "
                                            f"after {self.config.max_retries} retransmissions "
                                            f"each: {cards}", error=True)

    def _delivered(self) -> Output:
        i = self._i
        self._i = i + 1
        self._sor = sor = _SOR2 if self._sor == _SOR1 else _SOR1
        self._attempt = 1
        number = self.first_card + i
        if i + 1 < self._count and not self._tel_pending:  # the common case, inlined
            data = (self._head2 if sor == _SOR2 else self._head1) + self._bodies[i + 1]
            self.records_sent += 1
            self.chars_sent += len(data)
            return [CardDelivered(number), Send(data, number + 1, 1), self._reply_timer]
        return [CardDelivered(number), *self._send_record()]

    def _retransmit(self, reason: str) -> Output:
        if self._attempt > self.config.max_retries:
            self._giving_up = True
            self.state = STATE_BID
            self._attempt = 1
            self._last_reason = reason
            return self._send_bid()
        self._attempt += 1
        self.retransmissions += 1
        return self._send_record()

    def _bid_answered(self) -> Output:
        out: Output = []
        self._sor = fo.SOR1
        if self._giving_up:
            number = self.first_card + self._i
            self.failed.append(number)
            failed = CardFailed(number, f"{self.config.max_retries} retransmissions failed "
                                        f"(last: {self._last_reason})")
            out.append(failed)
            self._giving_up = False
            self._i += 1
            if self.config.on_give_up == GIVE_UP_STOP:  # no card after it: the session ends here
                return out + self.abort(f"card {number} given up ({failed.reason})")
        self._attempt = 1
        return out + self._send_record()

    # -- sending -----------------------------------------------------------------------------------
    def _send_record(self) -> Output:
        if self._i >= len(self._bodies):
            self.state = STATE_END
            self._attempt = 0
            return self._send_eot()
        self.state = STATE_SEND
        data = (self._head2 if self._sor == _SOR2 else self._head1) + self._bodies[self._i]
        if self._tel_pending:
            self._tel_pending = False
            data = _TEL_SEQ + data
        self.records_sent += 1
        self.chars_sent += len(data)
        return [Send(data, self.first_card + self._i, self._attempt), self._reply_timer]

    def _sync(self) -> Output:
        data = _IDLE_B * self.config.sync_idles + bytes([fo.CL, fo.IDLE])
        self.chars_sent += len(data)
        return [Send(data), self._listen_timer]

    def _retry_sync(self) -> Output:
        if self._attempt > self.config.sync_retries:
            return self._finish(NO_ANSWER, f"no CL IDLE from the receiving terminal after "
                                             f"{self._attempt} synchronize attempts", error=True)
        self._attempt += 1
        self.retransmissions += 1
        return self._sync()

    def _send_bid(self) -> Output:
        self.chars_sent += len(self._inq)
        return [Send(self._inq), self._reply_timer]

    def _retry_bid(self) -> Output:
        if self._attempt > self.config.sync_retries:
            return self._finish(NO_ANSWER, f"no CL ACK2 answered TL INQ after {self._attempt} bids "
                                             f"(card {self.current_card} not confirmed)", error=True)
        self._attempt += 1
        self.retransmissions += 1
        return self._send_bid()

    def _send_eot(self) -> Output:
        self._attempt += 1
        self.chars_sent += len(self._eot)
        return [Send(self._eot), self._reply_timer]

    def _finish(self, outcome: str, message: str, *, error: bool = False) -> Output:
        self.state = STATE_DONE
        self._buf.clear()
        resume = self.current_card if self._i < len(self._bodies) else None
        if outcome in (ABORTED, CARDS_GIVEN_UP) and self.failed:  # a card given up: resume from it
            resume = min(self.failed)
        self.ended = SessionEnded(outcome, message, resume)
        out: Output = [ProtocolError(message)] if outcome == PROTOCOL_ERROR else []
        return [*out, CancelTimer("reply"), self.ended]
