"""The receiving station of an STR session: records in, replies and cards out.

Synchronize mode (``docs/str.md`` §1): until it has heard the transmitter, the
receiver keeps cycling as an idle STR station does — idles for ``sync_idle_s``, ``CL IDLE``
(end-of-idle), then listen ``sync_listen_s`` (the ``"sync"`` timer) and again — so a transmitter started
later still hears an end-of-idle.  The first ``TL`` sequence from the far end (its bid) proves it
heard one: ``synchronized`` turns true and the cycling stops.  The idle timer, started once with the
first cycle, bounds the whole wait: if it runs out first, the session ends ``no data`` with a message
starting ``no peer``.

States: ``hunt`` (between sequences: idles are skipped; a sequence must follow at least one idle, as
every STR transmission does), ``record`` (inside ``TL SORn`` … ``TL LRC``), ``done``.

A record is refused with ``CL ERR`` (and counted in ``detected_errors``) when a character is not one of
the layout's data characters (four-of-eight fails, or a control pattern inside the data), when the
LRC does not match, or when its length is wrong for the column layout.  A good record whose SOR
number is the one expected is accepted (``CardAccepted``) and answered ``CL ACKn``; one with the
other number is the transmitter repeating a record whose acknowledgement it missed: it is answered
``CL ACKn`` again and thrown away.

Sequence checks (our estimate; STR documents none).  Four-of-eight controls are only two bit flips
apart, so ``CL ERR`` can arrive as ``CL ACK1`` and make the transmitter move on to the next card
although this one was refused.  The receiver notices what the alternation lets it notice and ends
the session with ``CL EOT`` and a clear ``sequence fault`` naming the card to resume from, rather than
lose a card silently:

* after refusing a record numbered as the *expected* one, a good record with the other number, or
  ``TL EOT``, means the transmitter moved on without an acknowledgement;
* a "duplicate" that differs from the card last accepted is refused; twice in a row is a fault;
* a bid (``TL INQ``) after refused records of *both* numbers means the transmitter gave up a record
  it had numbered on its own after a misread reply;
* the card last accepted arriving again with the *expected* number, right after a refused repeat
  of it, is most likely that repeat with its SOR hit: it is refused (``suspect_repeats``) rather than
  punched twice.  (If it really was the next card, identical to the last, the transmitter gives it up
  after its retries and lists it as failed — never silent.)

``TL INQ`` or ``TL EOT`` with characters right behind it in the same chunk is taken for a record
whose SOR was hit (a real bid or end is followed by silence); byte-at-a-time drivers do not get this
check.  A refused record whose SOR was unreadable counts as possibly the expected one.  These checks can
stop a session that was in fact in step (a damaged duplicate whose SOR was hit), never silently.

A second layout for the first record (``handshake``; our extension).  The far end may answer our
handshake by refusing it, in a record of its own form (:mod:`ibm1013.str.trailer`: a whole card in BCD,
as the handshake itself), which a receiver set to a narrower mask, fewer columns or column binary
would refuse for its length.  With ``handshake`` given, the first record is also accepted when it
fits that layout (length and characters; LRC and numbering as always); its ``CardAccepted`` carries
that layout, so the caller reads it in the form it was sent.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from ibm1013.str import fourofeight as fo
from ibm1013.str.config import SessionConfig
from ibm1013.str.events import (
    ABORTED,
    COMPLETE,
    NO_DATA,
    PROTOCOL_ERROR,
    SEQUENCE_FAULT,
    STATE_DONE,
    STATE_HUNT,
    STATE_NEW,
    STATE_RECORD,
    CancelTimer,
    CardAccepted,
    OperatorCall,
    Output,
    ProtocolError,
    Send,
    SessionEnded,
    StartTimer,
)
from ibm1013.str.layout import ColumnLayout

# Final: mypyc keeps these in C statics rather than looking them up in the module's dict
_IDLE: Final = fo.IDLE
_TL: Final = fo.TL
_CL: Final = fo.CL
_IDLE_B: Final = bytes([fo.IDLE])
_TL_B: Final = bytes([fo.TL])
_REPLY: Final = {code: bytes([fo.CL, code]) for code in (fo.ACK1, fo.ACK2, fo.ERR, fo.EOT, fo.TEL)}
_REPLY_SEND: Final = {code: Send(data) for code, data in _REPLY.items()}  # shared; never changed
_ACK1_SEND: Final = _REPLY_SEND[fo.ACK1]  # a record's acknowledgement, by its SOR: no dict look-up
_ACK2_SEND: Final = _REPLY_SEND[fo.ACK2]
_SOR1: Final = fo.SOR1
_SOR2: Final = fo.SOR2
_SORS: Final = (_SOR1, _SOR2)


def sequence_fault_message(after: int, what: str, resume_at: int | None, lacking: str = "") -> str:
    """A sequence fault in words: the last card accepted, what put the records out of step, and
    where to start again (``resume_at``; ``None``: no card after ``after`` is missing, only
    ``lacking``, the cards given up, if any).  The receiving core numbers cards as it accepts them;
    the simulation, which sees the deck, names them by their place in it (cards given up and skipped
    have none at the receiving end)."""
    head = f"records out of step after card {after} ({what}; a reply misread?): "
    if resume_at is not None:
        return head + f"resume at card {resume_at}"
    return head + (f"no card after it is missing; the far end lacks {lacking}, given up: send them again"
                   if lacking else "no card is missing")


@mypyc_attr(allow_interpreted_subclasses=True)  # ibm1013.str.stream, ibm1013.sim.stream subclass it
class Receiver:
    """Receives cards numbered from deck position ``first_card`` on."""

    def __init__(self, config: SessionConfig | None = None, *, first_card: int = 1,
                 handshake: ColumnLayout | None = None) -> None:
        self.config = cfg = config or SessionConfig()
        self.layout = cfg.columns
        self._barred = fo.barred(self.layout.valid_chars)
        self._lengths = self.layout.record_lengths()
        self.handshake = handshake
        """A layout the first record may come in too (see the module docstring), or ``None``."""
        self._handshake_lengths = handshake.record_lengths() if handshake else frozenset()
        self._handshake_barred = fo.barred(handshake.valid_chars if handshake else b"")
        self._max_len = max(self.layout.max_chars, handshake.max_chars if handshake else 0)
        self._tl_barred = self._barred[_TL] != 0  # always (TL is no data character): the fast path's premise
        self._idle_timer = StartTimer("idle", cfg.idle_timeout_s)
        self._sync_timer = StartTimer("sync", cfg.sync_listen_s)
        self._sync_data = _IDLE_B * cfg.sync_idles + bytes([fo.CL, fo.IDLE])
        self._babble_limit = cfg.babble_chars
        self._bad_limit = 4 * (cfg.max_retries + 1)
        self._buf = bytearray()
        self.state = STATE_NEW
        self.synchronized = False  # heard the transmitter (a TL sequence): synchronize mode is over
        self.sync_cycles = 0       # synchronize sequences (idles + CL IDLE) sent
        self._sync_running = False  # synchronized, but the "sync" timer not yet cancelled
        self._after_idle = False
        self._sor: int | None = None     # SOR of the record being received (None: garbled)
        self._overlong = False
        self._expect = fo.SOR1
        self._last: bytes | None = None  # data of the card last accepted
        self._anomalies = 0
        self._refused: set[int | None] = set()  # SORs of records refused since the last accepted
        self._bad_in_row = 0
        self._garbage = 0
        self._tel_pending = False
        self.first_card = first_card
        self.next_card = first_card
        # counters
        self.detected_errors = 0
        self.duplicates = 0
        self.sequence_faults = 0
        self.fault: str | None = None
        """What put the records out of step (a sequence fault's cause), once one has."""
        self.suspect_repeats = 0
        self.invalid_sequences = 0
        self.chars_sent = 0
        self.operator_calls = 0
        self.ended: SessionEnded | None = None

    # -- public API ------------------------------------------------------------------------------
    @property
    def cards_accepted(self) -> int:
        """Records accepted (each numbered ``next_card`` in turn)."""
        return self.next_card - self.first_card

    def start(self) -> Output:
        """Enter synchronize mode: idles and ``CL IDLE`` on the reply pair; start the idle timer (the
        bound on the whole session start) and the ``"sync"`` timer (listen, then cycle again)."""
        if self.state != STATE_NEW:
            raise RuntimeError("the receiver was already started")
        self.state = STATE_HUNT
        return [*self._sync(), self._idle_timer]

    def _sync(self) -> Output:
        self.sync_cycles += 1
        self.chars_sent += len(self._sync_data)
        return [Send(self._sync_data), self._sync_timer]

    def _synchronized(self) -> None:
        """The far end sent a sequence: it heard our end-of-idle; stop cycling (the ``"sync"`` timer
        is cancelled at the end of this chunk's actions, so replies keep their place in the list)."""
        self.synchronized = True
        self._sync_running = True

    def call_operator(self) -> None:
        """Send ``CL TEL`` (telephone request) with the next reply."""
        self._tel_pending = True

    def abort(self, reason: str) -> Output:
        """Give the session up now (the operator stopped): ``CL EOT`` goes out, which a transmitter
        sending a record takes as "aborted by receiver" and stops at once, instead of waiting for its
        timers.  The session ends ``aborted`` (message ``reason``, ``resume_at`` the next card).
        Before :meth:`start` or after the end it does nothing and returns ``[]``."""
        if self.state in (STATE_NEW, STATE_DONE):
            return []
        return self._finish(ABORTED, reason, abort=True)

    def timer_expired(self, name: str) -> Output:
        """The timer ``name`` ran out: ``"sync"`` (cycle synchronize mode again) or ``"idle"``."""
        if self.state in (STATE_DONE, STATE_NEW):
            return []
        if name == "sync":
            return [] if self.synchronized else self._sync()
        if name != "idle":
            return []
        peer = "" if self.synchronized else (
            f"no peer: no transmitting terminal answered {self.sync_cycles} synchronize sequences; ")
        return self._finish(NO_DATA, f"{peer}nothing valid from the transmitting terminal for "
                                       f"{self.config.idle_timeout_s:g} s after card "
                                       f"{self.next_card - 1}")

    def receive_data(self, data: bytes) -> Output:
        """Characters arriving on the data pair, in any chunking."""
        buf = self._buf
        size = len(data)
        if not buf and self.state == STATE_HUNT and size > 4 and data[0] == _IDLE and self.synchronized:
            # fast path: exactly one whole record, idles first, the LRC last (its data sliced once)
            i = 1
            while i < size and data[i] == _IDLE:
                i += 1
            sor = data[i + 1] if size - i > 3 and data[i] == _TL else 0
            if (sor == _SOR1 or sor == _SOR2) and data[size - 2] == _TL and self._tl_barred:
                record = data[i + 2:-2]
                if len(record) in self._lengths and fo.lrc_if_allowed(record, self._barred) == data[-1]:
                    # a good record, and no TL inside it (TL is barred): the general path below
                    # would end it at the same TL; any other frame takes that path
                    self._after_idle = False
                    self._garbage = 0
                    return self._on_good_record(record, sor, self.layout)
        if self.state == STATE_NEW:
            return []
        buf += data
        out: Output = []
        while buf:
            if self.state == STATE_RECORD:
                end = buf.find(_TL_B)
                if end < 0 or end + 1 >= len(buf):
                    if len(buf) > self._max_len + 1:
                        self._overlong = True
                        self._garbage += len(buf) - 1
                        del buf[:-1]
                        if self._garbage > self._babble_limit:
                            return out + self._babble()
                    break
                record = bytes(buf[:end])
                check = buf[end + 1]
                del buf[: end + 2]
                self.state = STATE_HUNT
                self._after_idle = False
                out += self._on_record(record, check, self._sor, self._overlong)
                if self.state == STATE_DONE:
                    break
                continue
            # hunt (or done: still answer TL EOT)
            if buf[0] == _IDLE:
                stripped = buf.lstrip(_IDLE_B)
                del buf[: len(buf) - len(stripped)]
                self._after_idle = True
                continue
            if len(buf) < 2:
                break
            lead = buf[0]
            if not self._after_idle or lead not in (_TL, _CL):
                del buf[0]
                self._after_idle = False
                if self.state != STATE_DONE:
                    self._garbage += 1
                    if self._garbage > self._babble_limit:
                        return out + self._babble()
                continue
            code = buf[1]
            del buf[:2]
            self._after_idle = False
            if lead == _CL:  # the far end's end-of-idle (sync); nothing to answer
                if code != _IDLE:
                    self.invalid_sequences += 1
                continue
            if not self.synchronized and self.state != STATE_DONE:
                self._synchronized()
            out += self._on_sequence(code)
        if self._sync_running:
            self._sync_running = False
            out.append(CancelTimer("sync"))
        return out

    # -- sequences -------------------------------------------------------------------------------
    def _on_sequence(self, code: int) -> Output:
        if self.state == STATE_DONE:
            return self._reply(fo.EOT) if code == fo.EOT else []
        self._garbage = 0
        if (code == fo.INQ or code == fo.EOT) and self._buf[:1] not in (b"", _IDLE_B):
            code = 0  # a bid or an end is followed by silence: this is a record whose SOR was hit
        if code == fo.SOR1 or code == fo.SOR2:
            self.state = STATE_RECORD
            self._sor = code
            self._overlong = False
            return []
        if code == fo.INQ:
            other = fo.SOR2 if self._expect == fo.SOR1 else fo.SOR1
            if other in self._refused and self._new_refused():
                return self._sequence_fault("a bid after refused records of both numbers")
            self._refused.clear()
            self._expect = fo.SOR1
            self._last = None
            self._anomalies = 0
            self._bad_in_row = 0
            return [*self._reply(fo.ACK2), self._idle_timer]
        if code == fo.EOT:
            if self._new_refused():
                return self._sequence_fault("TL EOT while a new record was still refused")
            out = self._reply(fo.EOT)
            return out + self._finish(COMPLETE, f"end of transmission after card "
                                                  f"{self.next_card - 1}", resume=False)
        if code == fo.TEL:
            self.operator_calls += 1
            return [OperatorCall(), self._idle_timer]
        # TL followed by something that is no code: the start of a record whose SOR was hit
        self.invalid_sequences += 1
        self.state = STATE_RECORD
        self._sor = None
        self._overlong = False
        return []

    def _on_record(self, data: bytes, check: int, sor: int | None,
                   overlong: bool = False) -> Output:
        """A record ended: ``sor`` its number (``None``: unreadable), ``overlong`` if characters were
        dropped from it because it ran past the longest record."""
        self._garbage = 0
        layout = self.layout
        if (
            sor is None or overlong or len(data) not in self._lengths
            or fo.lrc_if_allowed(data, self._barred) != check
        ):
            if sor is not None and not overlong and self._in_handshake_form(data, check):
                layout = self.handshake  # type: ignore[assignment]
            else:
                self.detected_errors += 1
                self._refused.add(sor)
                self._bad_in_row += 1
                if self._bad_in_row > self._bad_limit:
                    return self._protocol_error(f"{self._bad_in_row} bad records in a row")
                return [*self._reply(fo.ERR), self._idle_timer]
        return self._on_good_record(data, sor, layout)

    def _on_good_record(self, data: bytes, sor: int, layout: ColumnLayout) -> Output:
        """A record with the right length, characters and LRC, in ``layout``."""
        self._bad_in_row = 0
        if sor == self._expect:
            if self._refused:
                if data == self._last and self._other() in self._refused:
                    # the previous card again, right after a refused repeat of it: most likely that
                    # repeat with its SOR hit (two bits).  Accepting would punch it twice; refuse.
                    self.suspect_repeats += 1
                    return [*self._reply(fo.ERR), self._idle_timer]
                self._refused.clear()
            number = self.next_card
            self.next_card = number + 1
            self._last = data
            self._anomalies = 0
            self._expect = _SOR2 if sor == _SOR1 else _SOR1
            if self._tel_pending:
                return [CardAccepted(number, data, layout), *self._reply(sor), self._idle_timer]
            self.chars_sent += 2
            return [CardAccepted(number, data, layout), _ACK1_SEND if sor == _SOR1 else _ACK2_SEND,
                    self._idle_timer]
        if self._new_refused():
            return self._sequence_fault("the next record came without the refused one")
        if data == self._last:
            self.duplicates += 1
            self._refused.clear()
            return [*self._reply(sor), self._idle_timer]
        self._anomalies += 1
        if self._anomalies >= 2:
            return self._sequence_fault("a record number repeated with a different card")
        self.detected_errors += 1
        self._refused.add(sor)
        return [*self._reply(fo.ERR), self._idle_timer]

    # -- helpers ---------------------------------------------------------------------------------
    def _in_handshake_form(self, data: bytes, check: int) -> bool:
        """Is this good record, arriving as the first one, in the ``handshake`` layout's form?"""
        return (self.next_card == self.first_card and len(data) in self._handshake_lengths
                and fo.lrc_if_allowed(data, self._handshake_barred) == check)

    def _reply(self, code: int) -> Output:
        if self._tel_pending:
            self._tel_pending = False
            data = _REPLY[fo.TEL] + _REPLY[code]
            self.chars_sent += len(data)
            return [Send(data)]
        self.chars_sent += 2
        return [_REPLY_SEND[code]]

    def _other(self) -> int:
        return fo.SOR2 if self._expect == fo.SOR1 else fo.SOR1

    def _new_refused(self) -> bool:
        """Was a record refused that may have been the expected new one (its SOR, or unreadable)?"""
        return self._expect in self._refused or None in self._refused

    def _sequence_fault(self, what: str) -> Output:
        self.sequence_faults += 1
        self.fault = what
        return self._finish(
            SEQUENCE_FAULT, sequence_fault_message(self.next_card - 1, what, self.next_card), abort=True)

    def _babble(self) -> Output:
        return self._protocol_error(
            f"the transmitting terminal sent {self._garbage} characters without one valid sequence "
            f"(after card {self.next_card - 1})")

    def _protocol_error(self, message: str) -> Output:
        return [ProtocolError(message), *self._finish(PROTOCOL_ERROR, message, abort=True)]

    def _finish(self, outcome: str, message: str, *, abort: bool = False,
                resume: bool = True) -> Output:
        out = self._reply(fo.EOT) if abort else []
        self.state = STATE_DONE
        self._buf.clear()
        self.ended = SessionEnded(outcome, message, self.next_card if resume else None)
        cancel = [] if self.synchronized and not self._sync_running else [CancelTimer("sync")]
        self._sync_running = False
        return [*out, CancelTimer("idle"), *cancel, self.ended]
