"""One end of a real line: the STR core driven over a serial port, a pty or a network serial port.

The sans-I/O STR state machines (:mod:`ibm1013.str`) say *what* to send and *when* to give up; a
:class:`Station` does the I/O, with a plain single-threaded loop around one
:class:`~emulator.serial.Link`, one STR session after the other (what the sessions of a transfer are:
:mod:`ibm1013.line.endpoint` and :mod:`ibm1013.line.handshake`):

* **Pacing.**  A terminal's data set clocks characters out at the line rate; :class:`Pacer` does the
  same, putting each character on the port when its last bit would have left (``8 / bit_rate``
  seconds after the one before, four-of-eight characters having no start or stop bits), plus a
  one-way ``propagation_s``.  ``paced=False`` (``--fast``) writes as fast as the port takes it.  A
  ``StartTimer`` after a ``Send`` counts from the moment that send has left, as the core asks.
* **Timers and reads.**  Every wait is a :func:`time.monotonic` deadline: the core's timers, the
  pacer's next character and a stall guard (``timeout_s`` without a card going through ends the
  session with a clear message).  Reads are bounded in size, so a babbling peer cannot grow our
  buffers; the core itself declares a babbler mad after a bounded number of characters.

Per card the loop makes one ``select`` and one ``read`` for what arrives and one ``write`` for what
it sends (the journal's one ``pwrite`` aside: :mod:`ibm1013.line.journal`), and builds no more than the
core's own events; that keeps a transfer near the round trip of the line itself
(``python -m tools.bench_serial``, ``docs/speed.md``).

**Stopping.**  Ctrl-C (SIGINT) or SIGTERM in the main thread ends the session the STR way — the
transmitter sends ``TL EOT``, the receiver ``CL EOT`` — so the far end stops at once instead of
waiting for its timeout; :class:`Interrupted` then says what is safe and to run both with
``--resume``.  A second signal stops at once.  A signal ignored when the command started (``nohup``)
stays ignored.

Synchronizing is the core's: an STR receiver keeps cycling synchronize mode (idles, ``CL IDLE``,
listen) on its ``"sync"`` timer until the transmitter bids, so the two ends may be started in either
order.  The only help here: idle fill of a cycle still queued when the receiver has synchronized is
dropped, so its first reply is not held up behind it.  A card the transmitter gives up ends the
transfer with :meth:`~ibm1013.str.transmitter.Transmitter.abort` (``TL EOT``), so the receiving end
stops at once rather than after its idle timeout.
"""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from emulator.errors import IbmError
from emulator.serial import Link
from ibm1013.line.stop_signals import catching
from ibm1013.line.trace import Trace
from ibm1013.report import ExitStatus, TransferReport
from ibm1013.str.config import GIVE_UP_STOP, SessionConfig
from ibm1013.str.events import (
    ABORTED,
    STATE_ABORT,
    STATE_END,
    CancelTimer,
    CardAccepted,
    CardDelivered,
    Event,
    OperatorCall,
    Output,
    ProtocolError,
    Send,
    SessionEnded,
    StartTimer,
)
from ibm1013.str.receiver import Receiver
from ibm1013.str.transmitter import Transmitter

READ_LIMIT = 4096
"""Most bytes taken from the port in one read."""

PROPAGATION_S = 0.01
"""One-way line delay added when paced: the SimPy line's default, half of the timing model's 0.02 s of
propagation and detection per card (``docs/ibm1013.md`` §2)."""


RESUME_ADVICE = "run send and receive again with --resume"
"""What both ends are told to do when a ``--resume`` can go on (:attr:`TransferError.resumable`)."""


def resume_advice(card: int | None = None, *, look_first: bool = False) -> str:
    """The one sentence telling both ends to go on with ``--resume`` (from deck ``card`` or the one
    after it, when ``card`` was given up: the receiving end holds it if only its acknowledgement was
    lost; ``look_first``: every card went through, so the deck may well be at the far end already)."""
    if look_first:
        return f"Look for the deck at the far end; if it is not there, {RESUME_ADVICE}"
    after = (f" to go on from card {card} (or {card + 1}, if card {card} arrived and only its "
             "acknowledgement was lost)") if card else ""
    return RESUME_ADVICE[0].upper() + RESUME_ADVICE[1:] + after


class TransferError(IbmError):
    """The transfer stopped; the message says why.  ``resumable``: running both ends again with
    ``--resume`` goes on from where it stopped (from deck card ``resume_from`` when known; ``look_first``:
    after every card went through), and the message ends with :func:`resume_advice`; ``reason`` is
    the message without it.  From
    :func:`~ibm1013.line.endpoint.send_deck`, ``report`` is the sending end's report so far (``resume_at``:
    the first card the far end has not acknowledged), for ``send --json``."""

    exit_status = ExitStatus.FAILED
    report: TransferReport | None = None
    refusal: str | None = None
    """Set when the sending end refused the handshake (one of :data:`ibm1013.str.trailer.REFUSALS`)."""

    def __init__(self, message: str, *, resumable: bool = False, resume_from: int | None = None,
                 look_first: bool = False) -> None:
        self.reason, self.resumable, self.resume_from = message, resumable, resume_from
        self.look_first = look_first
        advice = resume_advice(resume_from, look_first=look_first)
        super().__init__(f"{message}. {advice}" if resumable else message)

    def again(self, message: str, *, resumable: bool | None = None) -> TransferError:
        """This kind of error, saying ``message`` (its reason with more said), resumable as this one
        unless told; ``report`` and ``refusal`` kept."""
        err = type(self).__new__(type(self))
        TransferError.__init__(err, message, resumable=self.resumable if resumable is None else resumable,
                               resume_from=self.resume_from, look_first=self.look_first)
        err.report, err.refusal = self.report, self.refusal
        return err


class Interrupted(TransferError):
    """The operator stopped the transfer (Ctrl-C or SIGTERM); the peer was told."""

    exit_status = ExitStatus.INTERRUPTED


def resumable(err: IbmError, message: str) -> IbmError:
    """``err``'s kind of error saying ``message`` instead, marked resumable (a port that died — a
    network port, a USB adapter pulled — is a :class:`~emulator.serial.PortError` still, given the
    same ``reason`` and ``resumable`` as a :class:`TransferError`)."""
    if isinstance(err, TransferError):
        return err.again(message, resumable=True)
    died = type(err)(f"{message}. {resume_advice()}")
    died.reason, died.resumable = message, True  # type: ignore[attr-defined]
    return died


def ended_text(ended: SessionEnded) -> str:
    """How a session ended, in words: its message, then its outcome (in the message's own
    parenthesis when that names a control sequence: ``… (CL EOT: aborted by receiver)``)."""
    if re.search(r"\((CL|TL) [A-Z]+\)$", ended.message):
        return f"{ended.message[:-1]}: {ended.outcome})"
    return f"{ended.message} ({ended.outcome})"


@dataclass
class EndpointConfig:
    """How an endpoint drives the line.

    ``session``: the STR settings both ends share (bit rate, columns …).  ``paced``: clock characters
    out at the bit rate (``False`` = ``--fast``).  ``propagation_s``: one-way line delay added to
    every character when paced.  ``timeout_s``: longest wait for the peer (to answer the handshake,
    or to let a card through) before giving up with a clear message.  ``first_card_s``: longest wait
    for the session's first card, when that may take longer than ``timeout_s`` (``rje``'s output: the
    computer prints its first line when the job gets there); ``None``: ``timeout_s``.  ``rerun``: the
    sending end of ``rje-host``'s output after a restart (:func:`ibm1013.line.handshake.sending_handshake`):
    ``"ANEW"``, the job ran again and its whole output is sent in place of the earlier run's;
    ``"SHORT"``, the job cannot run again, and the output phase is refused, the far end told why.
    """

    session: SessionConfig = field(default_factory=SessionConfig)
    paced: bool = True
    propagation_s: float = PROPAGATION_S
    timeout_s: float = 30.0
    resume: bool = False
    first_card_s: float | None = None
    rerun: str | None = None

    def deck_session(self) -> SessionConfig:
        """The deck's session: the peer waited for at most ``timeout_s``, and a card given up stops it
        (``TL EOT`` at once, the transfer resumed from that card: ``docs/serial.md``)."""
        return replace(self.session, idle_timeout_s=self.timeout_s, on_give_up=GIVE_UP_STOP)


# --------------------------------------------------------------------------------------------------
# Pacing
# --------------------------------------------------------------------------------------------------
class Pacer:
    """Puts characters on the link no faster than the line would carry them.

    Character ``i`` of the stream is written at ``start + (i + 1) * char_s + propagation_s``: when its
    last bit has left the terminal, plus the line delay.  :meth:`queue` returns when the last
    character of the data will have left (for the core's timers).
    """

    def __init__(self, link: Link, bit_rate: float, *, paced: bool, propagation_s: float = 0.0) -> None:
        self.link = link
        self.char_s = 8.0 / bit_rate if paced and bit_rate > 0 else 0.0
        self.delay = propagation_s if paced else 0.0
        self._pending = bytearray()
        self._first_due = 0.0  # when _pending[0] is due
        self._free_at = 0.0    # when the line is free for a new character

    def queue(self, data: bytes, now: float) -> float:
        if not self.char_s and not self.delay:
            self.link.write(data)
            return now
        start = max(now, self._free_at)
        if not self._pending:
            self._first_due = start + self.char_s + self.delay
        self._pending += data
        self._free_at = start + len(data) * self.char_s
        return self._free_at

    def discard(self, now: float) -> None:
        """Drop what has not gone out yet (idle fill that is no longer wanted)."""
        self._pending.clear()
        self._free_at = min(self._free_at, now)

    def line_free_at(self, now: float) -> float:
        """When a character queued now would start to leave."""
        return max(now, self._free_at)

    def next_due(self) -> float | None:
        return self._first_due if self._pending else None

    def flush(self, now: float) -> None:
        if not self._pending or now < self._first_due:
            return
        if self.char_s:
            count = min(len(self._pending), int((now - self._first_due) / self.char_s) + 1)
        else:
            count = len(self._pending)
        self.link.write(bytes(self._pending[:count]))
        del self._pending[:count]
        self._first_due += count * self.char_s

    def drain(self, limit_s: float = 10.0) -> None:
        """Write everything still queued (bounded by ``limit_s``)."""
        deadline = time.monotonic() + limit_s
        while self._pending and time.monotonic() < deadline:
            now = time.monotonic()
            self.flush(now)
            due = self.next_due()
            if due is not None:
                time.sleep(max(0.0, min(due, deadline) - time.monotonic()))


# --------------------------------------------------------------------------------------------------
# Driving one STR session
# --------------------------------------------------------------------------------------------------
Machine = Transmitter | Receiver


@dataclass
class SessionLog:
    """Times and counts of one session as seen from this end."""

    started: float = 0.0
    ended_at: float = 0.0
    first_record: float | None = None
    last_card: float | None = None
    cards: int = 0
    chars_written: int = 0
    chars_read: int = 0
    operator_calls: int = 0
    protocol_errors: list[str] = field(default_factory=list)

    @property
    def cards_per_minute(self) -> float:
        """The rate cards went through, from the first record to the last card (0 if none did)."""
        if self.first_record is None or self.last_card is None or self.last_card <= self.first_record:
            return 0.0
        return self.cards * 60.0 / (self.last_card - self.first_record)


class Station:
    """One end of the line: runs STR sessions over ``link``, one after the other."""

    def __init__(
        self, link: Link, config: EndpointConfig, *, stop: threading.Event | None = None,
        monitor: Trace | None = None,
    ) -> None:
        self.link = link
        self.config = config
        self.monitor = monitor or Trace()
        """Sees every send, read, timer and event (:mod:`ibm1013.line.trace`: ``--trace``, ``--timeline``)."""
        self.stop = stop
        """Once set (e.g. by Ctrl-C, see :func:`stop_on_signals`), a running session tells the peer
        (the core's ``abort``) and ends with :class:`Interrupted`."""
        self.pacer = Pacer(link, config.session.bit_rate, paced=config.paced,
                           propagation_s=config.propagation_s)

    def run(
        self, machine: Machine, on_event: Callable[[Event, float], None], *, stall_s: float | None = None,
    ) -> tuple[SessionEnded, SessionLog]:
        """Start ``machine`` and drive it until it ends; ``on_event(event, now)`` sees every event.

        ``stall_s`` (default ``timeout_s``): end with :class:`TransferError` if no card goes through
        for that long once our own synchronize sequence has gone out.  (What a card given up does is
        the session's ``on_give_up``, as the core does it.)  An error ``on_event`` raises (this end
        cannot keep a card: disk full, an I/O error, the card reader gone) ends the session the STR
        way at once, so the peer stops at once too (the reply that would have acknowledged the card
        is not sent), and is raised once the abort is out.
        """
        stall = stall_s if stall_s is not None else self.config.timeout_s
        first = max(stall, self.config.first_card_s or 0.0)
        return _Session(self, machine, on_event, stall, first).run()


@contextlib.contextmanager
def stop_on_signals(stop: threading.Event) -> Iterator[None]:
    """While inside, SIGINT (Ctrl-C), SIGTERM and SIGHUP set ``stop`` instead of killing the transfer
    mid-step; a second signal raises :class:`KeyboardInterrupt`.  Only in the main thread (elsewhere
    signals cannot be caught, and this does nothing); a signal ignored when the command started
    (``nohup``) stays ignored (:mod:`ibm1013.line.stop_signals`)."""

    def handler(_signum: int, _frame: Any) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    with catching(handler):
        yield


class _Session:
    """The loop of one STR session: perform actions, fire timers, read the port, until it ends."""

    def __init__(
        self, station: Station, machine: Machine, on_event: Callable[[Any, float], None],
        stall: float, first_stall: float,
    ) -> None:
        self.link, self.pacer, self.stop = station.link, station.pacer, station.stop
        self.monitor = station.monitor
        self.watching = type(self.monitor) is not Trace
        self.stopping: float | None = None  # interrupted: give the peer until then to confirm
        self.machine, self.on_event = machine, on_event
        self.stall, self.first_stall = stall, first_stall  # the stall guard before the first card
        self.log = SessionLog(started=time.monotonic())
        self.timers: dict[str, float] = {}
        self.ended: SessionEnded | None = None
        self.synchronized = not isinstance(machine, Receiver)
        self.progress = self.log.started
        self.fault: BaseException | None = None  # what on_event raised: told to the peer, then raised

    def run(self) -> tuple[SessionEnded, SessionLog]:
        log, link = self.log, self.link
        w0, r0 = link.bytes_written, link.bytes_read
        now = time.monotonic()
        self.monitor.session(now, self.machine)
        self.perform(self.machine.start(), now)
        self.progress = self.pacer.line_free_at(now)  # the stall clock starts once our sync is out
        while self.ended is None:
            self.step()
        self.pacer.drain(2.0 if self.stopping is not None else 10.0)
        log.ended_at = time.monotonic()
        log.chars_written = link.bytes_written - w0
        log.chars_read = link.bytes_read - r0
        if self.fault is not None:
            raise self.fault
        if self.stopping is not None:
            told = "TL EOT" if isinstance(self.machine, Transmitter) else "CL EOT"
            raise Interrupted(f"interrupted; the far end was told ({told})")
        return self.ended, log

    def interrupt(self, now: float) -> None:
        """Stop: the core's abort tells the peer; wait a little for its confirmation."""
        self.stopping = now + min(2.0, self.machine.config.ack_timeout_s)
        self.perform(self.machine.abort("interrupted"), now)

    def bounded(self) -> bool:
        """Is the core in a state its own timers end soon (a transmitter's end of transmission or
        abort: ``max_retries`` tries of ``ack_timeout_s``)?  The stall guard leaves those alone: all
        cards are through, so giving up early would wrongly send the user back to ``--resume``."""
        return isinstance(self.machine, Transmitter) and self.machine.state in (STATE_END, STATE_ABORT)

    def step(self) -> None:
        now = time.monotonic()
        if self.stopping is None and self.stop is not None and self.stop.is_set():
            self.interrupt(now)
        if self.stopping is not None and now > self.stopping and self.ended is None:
            self.ended = SessionEnded(ABORTED, "interrupted; the far end did not confirm")
            return
        pacer, timers = self.pacer, self.timers
        pacer.flush(now)
        soonest = min(timers.values()) if timers else None
        if soonest is not None and soonest <= now:
            self.run_timers(now)
            if self.ended is not None:
                return
            soonest = min(timers.values()) if timers else None
        bounded = self.bounded()
        stall = self.stall if self.log.last_card is not None else self.first_stall
        if now - self.progress > stall and not bounded:
            raise TransferError(
                f"the far end let no card through for {stall:g} s (session state "
                f"{self.machine.state}): the line is dead or the peer is confused", resumable=True)
        # wake at the soonest of: a quarter second, a timer, the stall guard, the pacer's next character
        wake = now + 0.25
        if soonest is not None and soonest < wake:
            wake = soonest
        guard = self.progress + stall + 0.001
        if not bounded and guard < wake:
            wake = guard
        due = pacer.next_due()
        if due is not None and due < wake:
            wake = due
        data = self.link.read(READ_LIMIT, wake - now)  # one select and one read on a tty
        if data:
            now = time.monotonic()
            self.monitor.received(now, data, self.machine)
            self.perform(self.machine.receive_data(data), now)

    def run_timers(self, now: float) -> None:
        """Run out the timers due by ``now``, soonest first."""
        for name, due in sorted(self.timers.items(), key=lambda kv: kv[1]):
            # an earlier timer's actions may have cancelled or restarted this one (the live feed
            # sending a card cancels the keepalive bid due at the same moment)
            if due <= now and self.ended is None and self.timers.get(name) == due:
                del self.timers[name]
                self.monitor.timer(now, name, "ran out")
                self.perform(self.machine.timer_expired(name), now)

    def perform(self, actions: Output, now: float) -> None:
        """Carry out the core's actions in order; a timer counts from when the send before it left."""
        left = now
        if not self.synchronized and self.machine.synchronized:  # type: ignore[union-attr]
            self.synchronized = True  # the far end bid: idle fill of our sync cycle is not wanted
            self.pacer.discard(now)
        for action in actions:
            if isinstance(action, Send):
                left = self.send(action, now)
            elif isinstance(action, StartTimer):
                self.timers[action.name] = left + action.seconds
                if self.watching:  # (the words cost more than the timer; nobody reads them unwatched)
                    self.monitor.timer(now, action.name, f"start {action.seconds:g} s")
            elif isinstance(action, CancelTimer):
                if self.timers.pop(action.name, None) is not None:
                    self.monitor.timer(now, action.name, "cancel")
            elif isinstance(action, SessionEnded):
                self.ended = action
                self.monitor.event(now, action)
            else:
                self.monitor.event(now, action)
                self.note(action, now)
                try:
                    self.on_event(action, now)
                except (IbmError, OSError) as err:  # this end cannot go on: tell the peer at once
                    self.fault = err
                    self.perform(self.machine.abort(str(err)), now)
                    return  # the rest of this list (the reply acknowledging the card) is void

    def send(self, action: Send, now: float) -> float:
        start = self.pacer.line_free_at(now)
        if action.card is not None and self.log.first_record is None:
            self.log.first_record = start
        end = self.pacer.queue(action.data, now)
        self.monitor.sent(now, start, end, action)
        return end

    def note(self, event: Any, now: float) -> None:
        log = self.log
        if isinstance(event, CardAccepted | CardDelivered):
            if log.first_record is None:  # a receiver: its rate counts from the first card in
                log.first_record = now
                log.cards -= 1
            log.cards += 1
            log.last_card = now
            self.progress = now
        elif isinstance(event, OperatorCall):
            log.operator_calls += 1
        elif isinstance(event, ProtocolError):
            log.protocol_errors.append(event.message)
