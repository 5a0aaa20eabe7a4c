"""Two real 1013s: the STR core driven over a serial port, a pty or a network serial port.

The sans-I/O STR state machines (:mod:`ibm1013.str`) say *what* to send and *when* to give up; this
module does the I/O, with a plain single-threaded loop around one :class:`~emulator.serial.Link`:

* **Pacing.**  A terminal's data set clocks characters out at the line rate; :class:`Pacer` does the
  same, putting each character on the port when its last bit would have left (``8 / bit_rate``
  seconds after the one before, four-of-eight characters having no start or stop bits), plus a
  one-way ``propagation_s``.  ``paced=False`` (``--fast``) writes as fast as the port takes it.  A
  ``StartTimer`` after a ``Send`` counts from the moment that send has left, as the core asks.
* **Timers and reads.**  Every wait is a :func:`time.monotonic` deadline: the core's timers, the
  pacer's next character and a stall guard (``timeout_s`` without a card going through ends the
  session with a clear message).  Reads are bounded in size, so a babbling peer cannot grow our
  buffers; the core itself declares a babbler mad after a bounded number of characters.

**Sessions** (our extension to STR, built only from the STR core).  A transfer is two STR sessions on
the same pair of wires:

1. *Resume handshake* — the receiving end first acts as a **transmitter** of a one-card record
   ``1013 RESUME nnnnnnnn CARDS DIGEST …`` (:mod:`ibm1013.trailer`): how many cards it already holds
   durably in its journal, and the digest of those cards.  The sending end receives it and checks
   that those cards are the first cards of its own deck.  A fresh transfer says 0 cards.  If it
   refuses (settings that differ, a journal without ``--resume``, another deck, a deck that needs
   column binary), it sends a one-card ``1013 REFUSED … RATE`` record instead of the deck, in the
   handshake's whole-card form, which the receiving end's core takes as its first record whatever
   its layout (:func:`refusal_of`): so the receiving end stops at once with the right advice.
2. *The line turns around* and the sending end transmits its deck from the next card on, followed by
   the trailer card(s); the receiving end makes each card durable in its journal (append + fsync)
   before the reply that acknowledges it goes out (the core hands back the card event ahead of its
   reply), and on ``TL EOT`` checks the trailer and publishes the deck atomically.
3. *Verdict* — when the trailer arrived, the line turns around once more and the receiving end
   transmits its one-card verdict ``1013 VERDICT … PUBLISHED`` (or ``MISMATCH``, ``NOTWRITTEN``).
   Only a ``PUBLISHED`` verdict lets the sending end say ``complete``; when the verdict is lost it
   says ``delivered, not confirmed`` (:class:`NotConfirmed`, exit status 3 on the command line).

Exit statuses of ``send`` and ``receive`` (``docs/serial.md``): 0 complete (the deck was written
at the far end, and the sender was told so), 2 failed (one line saying why and whether to run both
ends again with ``--resume``), 3 delivered, not confirmed (sender only), 130 interrupted.

**Stopping.**  Ctrl-C (SIGINT) or SIGTERM in the main thread ends the session the STR way — the
transmitter sends ``TL EOT``, the receiver ``CL EOT`` — so the far end stops at once instead of
waiting for its timeout; :class:`Interrupted` then says what is safe and to run both with
``--resume``.  A second signal stops at once.

Synchronizing is the core's: an STR receiver keeps cycling synchronize mode (idles, ``CL IDLE``,
listen) on its ``"sync"`` timer until the transmitter bids, so the two ends may be started in either
order.  The only help here: idle fill of a cycle still queued when the receiver has synchronized is
dropped, so its first reply is not held up behind it.  A card the transmitter gives up ends the
transfer with :meth:`~ibm1013.str.transmitter.Transmitter.abort` (``TL EOT``), so the receiving end
stops at once rather than after its idle timeout.
"""

from __future__ import annotations

import contextlib
import math
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from emulator.card import Card
from emulator.errors import CardError, IbmError
from emulator.serial import Link, PortError
from ibm1013.journal import Journal, JournalError
from ibm1013.monitor import Monitor
from ibm1013.report import TransferReport
from ibm1013.str.config import SessionConfig
from ibm1013.str.events import (
    NOT_CONFIRMED,
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
from ibm1013.trailer import (
    DeckCheckError,
    DeckDigest,
    DeckMark,
    check_trailer,
    layout_tag,
    marks_needed,
    parse_mark,
    refusal_cards,
    resume_cards,
    sent_view,
    trailer_cards,
    verdict_cards,
)

if TYPE_CHECKING:
    from ibm1013.reader_feed import ReaderFeed

READ_LIMIT = 4096
"""Most bytes taken from the port in one read."""

PROPAGATION_S = 0.01
"""One-way line delay added when paced: the SimPy line's default, half of the timing model's 0.02 s of
propagation and detection per card (``docs/ibm1013.md`` §2)."""


"""What the sending end says when every card was acknowledged but the receiver's verdict was lost."""


class TransferError(IbmError):
    """The transfer stopped; the message says why and how to go on (``--resume``).  From
    :func:`send_deck`, ``report`` is the sending end's report so far (``resume_at``: the first card
    the far end has not acknowledged), for ``send --json``."""

    exit_status = 2
    report: TransferReport | None = None
    refusal: str | None = None
    """Set when the sending end refused the handshake (one of :data:`ibm1013.trailer.REFUSALS`)."""


class OtherDeck(TransferError):
    """In the resume handshake: the cards the receiving end holds are not the first cards of this
    deck (a live stream starts over instead: :func:`ibm1013.live_endpoint.stream_cards`)."""


class NotConfirmed(TransferError):
    """Every card and the trailer were acknowledged, but the receiving end's verdict (did it check
    and write the deck?) never arrived.  ``report`` is the sending end's report."""

    exit_status = 3

    def __init__(self, message: str, report: TransferReport) -> None:
        super().__init__(message)
        self.report = report


class Interrupted(TransferError):
    """The operator stopped the transfer (Ctrl-C or SIGTERM); the peer was told."""

    exit_status = 130


@dataclass
class EndpointConfig:
    """How an endpoint drives the line.

    ``session``: the STR settings both ends share (bit rate, columns …).  ``paced``: clock characters
    out at the bit rate (``False`` = ``--fast``).  ``propagation_s``: one-way line delay added to
    every character when paced.  ``timeout_s``: longest wait for the peer (to answer the handshake,
    or to let a card through) before giving up with a clear message.
    """

    session: SessionConfig = field(default_factory=SessionConfig)
    paced: bool = True
    propagation_s: float = PROPAGATION_S
    timeout_s: float = 30.0
    resume: bool = False

    def deck_session(self) -> SessionConfig:
        return replace(self.session, idle_timeout_s=self.timeout_s)

    def handshake_session(self) -> SessionConfig:
        """The handshake always sends a whole 80-column card in BCD (faithful) mode."""
        return replace(self.session, columns=HANDSHAKE_LAYOUT, idle_timeout_s=self.timeout_s)


HANDSHAKE_LAYOUT = ColumnLayout()
"""The form of every record of our own outside the deck (resume record, refusal, verdict): a whole
card in BCD, read alike by both ends whatever their ``--columns`` and ``--column-binary``."""


def refusal_of(event: CardAccepted) -> DeckMark | None:
    """The sending end's ``REFUSED`` record, if ``event`` (the first card of a deck session) is one.
    It comes in :data:`HANDSHAKE_LAYOUT` whatever the session's layout: the receiver takes it in
    that form too (:class:`~ibm1013.str.receiver.Receiver`'s ``handshake``), and it is read in it."""
    if len(event.data) != HANDSHAKE_LAYOUT.max_chars:
        return None
    mark = parse_mark([HANDSHAKE_LAYOUT.decode(event.data)])
    return mark if mark is not None and mark.kind == "REFUSED" else None


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


class Station:
    """One end of the line: runs STR sessions over ``link``, one after the other."""

    def __init__(
        self, link: Link, config: EndpointConfig, *, stop: threading.Event | None = None,
        monitor: Monitor | None = None,
    ) -> None:
        self.link = link
        self.config = config
        self.monitor = monitor or Monitor()
        """Sees every send, read, timer and event (:mod:`ibm1013.monitor`: ``--trace``, ``--timeline``)."""
        self.stop = stop
        """Once set (e.g. by Ctrl-C, see :func:`stop_on_signals`), a running session tells the peer
        (the core's ``abort``) and ends with :class:`Interrupted`."""
        self.pacer = Pacer(link, config.session.bit_rate, paced=config.paced,
                           propagation_s=config.propagation_s)

    def run(
        self, machine: Machine, on_event: Callable[[Any, float], None], *, stall_s: float | None = None,
        abort_on_failure: bool = False,
    ) -> tuple[SessionEnded, SessionLog]:
        """Start ``machine`` and drive it until it ends; ``on_event(event, now)`` sees every event.

        ``stall_s`` (default ``timeout_s``): end with :class:`TransferError` if no card goes through
        for that long once our own synchronize sequence has gone out.  ``abort_on_failure``: a
        transmitter's ``CardFailed`` aborts the session (``TL EOT``, see :meth:`Transmitter.abort`).
        """
        stall = stall_s if stall_s is not None else self.config.timeout_s
        return _Session(self, machine, on_event, stall, abort_on_failure).run()


@contextlib.contextmanager
def stop_on_signals(stop: threading.Event) -> Iterator[None]:
    """While inside, SIGINT (Ctrl-C), SIGTERM and SIGHUP set ``stop`` instead of killing the transfer
    mid-step; a second signal raises :class:`KeyboardInterrupt`.  Only in the main thread (elsewhere
    signals cannot be caught, and this does nothing)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(_signum: int, _frame: Any) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    old = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


class _Session:
    """The loop of one STR session: perform actions, fire timers, read the port, until it ends."""

    def __init__(
        self, station: Station, machine: Machine, on_event: Callable[[Any, float], None],
        stall: float, abort_on_failure: bool,
    ) -> None:
        self.link, self.pacer, self.stop = station.link, station.pacer, station.stop
        self.monitor = station.monitor
        self.watching = type(self.monitor) is not Monitor
        self.stopping: float | None = None  # interrupted: give the peer until then to confirm
        self.machine, self.on_event = machine, on_event
        self.stall, self.abort_on_failure = stall, abort_on_failure
        self.log = SessionLog(started=time.monotonic())
        self.timers: dict[str, float] = {}
        self.ended: SessionEnded | None = None
        self.synchronized = not isinstance(machine, Receiver)
        self.progress = self.log.started

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
        return isinstance(self.machine, Transmitter) and self.machine.state in ("end", "abort")

    def step(self) -> None:
        now = time.monotonic()
        if self.stopping is None and self.stop is not None and self.stop.is_set():
            self.interrupt(now)
        if self.stopping is not None and now > self.stopping and self.ended is None:
            self.ended = SessionEnded("aborted", "interrupted; the far end did not confirm")
            return
        pacer, timers = self.pacer, self.timers
        pacer.flush(now)
        if timers and min(timers.values()) <= now:
            self.run_timers(now)
            if self.ended is not None:
                return
        bounded = self.bounded()
        if now - self.progress > self.stall and not bounded:
            raise TransferError(
                f"the far end let no card through for {self.stall:g} s (session state "
                f"{self.machine.state}): the line is dead or the peer is confused. "
                "Run send and receive again with --resume"
            )
        # wake at the soonest of: a quarter second, a timer, the stall guard, the pacer's next character
        wake = min(now + 0.25, min(timers.values())) if timers else now + 0.25
        if not bounded:
            wake = min(wake, self.progress + self.stall + 0.001)
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

    def perform(self, actions: list, now: float) -> None:
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
                self.on_event(action, now)
                if isinstance(action, CardFailed) and self.abort_on_failure:
                    reason = f"card {action.number} given up ({action.reason})"
                    self.perform(self.machine.abort(reason), now)  # type: ignore[union-attr]
                    return  # the rest of this list (the next record) is void

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


def _rate(log: SessionLog) -> float:
    if log.first_record is None or log.last_card is None or log.last_card <= log.first_record:
        return 0.0
    return log.cards * 60.0 / (log.last_card - log.first_record)


def _settings(config: EndpointConfig, role: str, port: str) -> dict[str, Any]:
    s = config.session
    return {
        "role": role, "port": port, "bit_rate": s.bit_rate, "columns": s.columns.describe(),
        "paced": config.paced, "propagation_s": config.propagation_s, "timeout_s": config.timeout_s,
    }


ProgressFn = Callable[[int, int], None]


# --------------------------------------------------------------------------------------------------
# The sending end
# --------------------------------------------------------------------------------------------------
def send_deck(
    link: Link, deck: Sequence[Card], config: EndpointConfig, *, progress: ProgressFn | None = None,
    stop: threading.Event | None = None, monitor: Monitor | None = None, source: str | None = None,
) -> TransferReport:
    """Send ``deck`` (plus its trailer) to a receiving endpoint and get its verdict.

    A deck with a card that four-of-eight cannot carry (without ``--column-binary``) is refused
    after the handshake, the receiving end told (a ``BINARY`` refusal); ``source`` names the deck's
    file in that message.

    A report (``ended == "complete"``: the far end checked and wrote the deck), or
    :class:`TransferError` — :class:`NotConfirmed` when only the verdict was lost,
    :class:`Interrupted` when ``stop`` was set (by Ctrl-C: see :func:`stop_on_signals`).
    ``monitor`` sees every character, timer and event (:mod:`ibm1013.monitor`).
    """
    columns = _columns(config)
    digest = DeckDigest(sent_view(card, columns) for card in deck)
    records = [*deck, *trailer_cards(digest, columns)]
    report = TransferReport(settings=_settings(config, "send", link.name))
    stop = stop if stop is not None else threading.Event()

    def run() -> TransferReport:
        with stop_on_signals(stop):
            return _send(link, deck, records, digest, config, report, stop, monitor, progress,
                         source)

    return _reporting(report, run)


def _reporting(report: TransferReport, run: Callable[[], TransferReport]) -> TransferReport:
    """``run()``; a transfer error it raises carries ``report`` (how far it got) unless it has one."""
    try:
        return run()
    except (TransferError, PortError) as err:
        if getattr(err, "report", None) is None:
            report.ended = "interrupted" if isinstance(err, Interrupted) else "failed"
            report.message = str(err)
            err.report = report  # type: ignore[attr-defined]
        raise


def _send(
    link: Link, deck: Sequence[Card], records: list[Card], digest: DeckDigest, config: EndpointConfig,
    report: TransferReport, stop: threading.Event, monitor: Monitor | None, progress: ProgressFn | None,
    source: str | None = None,
) -> TransferReport:
    columns = _columns(config)
    link.discard_input()  # characters left over from an earlier, interrupted session
    station = Station(link, config, stop=stop, monitor=monitor)
    resume_at = _handshake(station, records, columns, config, source)
    report.settings.update(deck_cards=len(deck), trailer_cards=len(records) - len(deck),
                           resumed_from=resume_at)
    report.resume_at = resume_at
    transmitter = Transmitter(records, config.deck_session(), first_card=resume_at)
    ended = _send_records(station, transmitter, len(records) - len(deck), report, progress)
    return _verdict(station, config, report, digest, transmitter, ended)


def _handshake(station: Station, records: list[Card], columns: list[int] | None,
               config: EndpointConfig, source: str | None) -> int:
    """The sending end's side of the resume handshake (:func:`await_resume_point`, bit rates
    compared): the deck position to start from.  A refusal is told to the receiving end, and so is
    a deck with a card four-of-eight cannot carry (checked before, told after the handshake)."""
    unsendable = _unsendable(records, config, source)
    try:
        resume_at = await_resume_point(station, records, columns, config, check_bit_rate=True)
    except Interrupted as err:
        raise Interrupted(f"{err}; no card was sent. Run send and receive again with --resume") from None
    except TransferError as err:
        tell_refusal(station, config, err.refusal)
        if unsendable is None or err.refusal is not None:
            raise
        raise TransferError(f"{unsendable}; the receiving end was not told ({err})") from None
    if unsendable is not None:
        told = tell_refusal(station, config, "BINARY")
        raise TransferError(f"{unsendable}; the receiving end {'was' if told else 'could not be'} "
                            "told, and needs --column-binary too")
    return resume_at


def _unsendable(records: list[Card], config: EndpointConfig, source: str | None) -> CardError | None:
    """Why the deck cannot go in four-of-eight (a card whose punches no BCD character has, naming card
    and column, and ``source``: the deck's file), or ``None``.  Column binary sends any punches."""
    if config.session.columns.column_binary:
        return None
    try:
        config.session.columns.encode_records(deck_words(records))
    except CardError as err:
        return err.located(source=source) if source else err
    return None


def _verdict(station: Station, config: EndpointConfig, report: TransferReport, digest: DeckDigest,
             transmitter: Transmitter, ended: SessionEnded) -> TransferReport:
    """Receive the receiving end's verdict on the deck and judge the transfer by it."""
    try:
        verdict, why = _receive_mark(station, config, "VERDICT")
    except Interrupted as err:
        raise Interrupted(
            f"{err} while waiting for the verdict; every card and the trailer were acknowledged: "
            "look for the deck at the far end; if it is not there, run send and receive again "
            "with --resume") from None
    return _judge(report, verdict, why, digest, transmitter, ended)


def follow_deck(
    link: Link, source: Any, config: EndpointConfig, *, progress: ProgressFn | None = None,
    stop: threading.Event | None = None, monitor: Monitor | None = None,
    on_delivered: Callable[[int, float], None] | None = None,
) -> TransferReport:
    """Send the cards ``source`` hands out (:class:`emulator.follow.PunchFollower`: a punch file as it
    grows) as they come, one session held open between them with bids
    (:class:`~ibm1013.live.LiveTransmitter`), then the trailer once the source has finished, and get
    the verdict — a transfer like :func:`send_deck` in every other way (handshake, journal, resume,
    report, errors).  ``stop`` aborts it (the second Ctrl-C of ``send --follow``; the first one ends
    the source's deck).  ``on_delivered(number, now)`` hears of each card acknowledged."""
    report = TransferReport(settings=_settings(config, "send", link.name))
    stop = stop if stop is not None else threading.Event()
    return _reporting(report, lambda: _follow(link, source, config, report, stop, monitor, progress,
                                              on_delivered))


def _follow(
    link: Link, source: Any, config: EndpointConfig, report: TransferReport, stop: threading.Event,
    monitor: Monitor | None, progress: ProgressFn | None,
    on_delivered: Callable[[int, float], None] | None,
) -> TransferReport:
    from ibm1013.live import KEEPALIVE_S, LiveTransmitter

    columns = _columns(config)
    records: list[Card] = source.poll(time.monotonic())
    link.discard_input()  # characters left over from an earlier, interrupted session
    station = Station(link, config, stop=stop, monitor=monitor)
    resume_at = _handshake(station, records, columns, config, getattr(source, "path", None))
    report.resume_at = resume_at
    k = marks_needed(columns)
    digest = DeckDigest()

    def trailer() -> list[Card]:
        for card in records:
            digest.update(sent_view(card, columns))
        return trailer_cards(digest, columns)

    keepalive = min(KEEPALIVE_S, config.timeout_s / 3)
    tx = LiveTransmitter(records, config.deck_session(), first_card=resume_at, keepalive_s=keepalive)
    feed = _FollowFeed(tx, source, records, trailer, k)
    ended = _send_records(station, feed, k, report, progress, stall_s=math.inf,  # type: ignore[arg-type]
                          on_delivered=on_delivered)
    report.settings.update(deck_cards=len(records), trailer_cards=k, resumed_from=resume_at,
                           deck_ended=source.why_ended)
    return _verdict(station, config, report, digest, tx, ended)


class _FollowFeed:
    """The live feed of a followed deck: :attr:`total_cards` counts the trailer still to come, so a
    transfer cut before the deck ended is never taken for one whose trailer went through."""

    def __init__(self, tx: Any, source: Any, records: list[Card], trailer: Callable[[], list[Card]],
                 k: int) -> None:
        from ibm1013.live_endpoint import _Feed

        self._feed = _Feed(tx, source, records, trailer)
        self._k = k

    def __getattr__(self, name: str) -> Any:
        return getattr(self._feed, name)

    @property
    def total_cards(self) -> int:
        tx = self._feed.tx
        return tx.total_cards + (0 if self._feed.source.finished and tx.closing else self._k)


def _send_records(
    station: Station, transmitter: Transmitter, trailer: int, report: TransferReport,
    progress: ProgressFn | None, *, stall_s: float | None = None,
    on_delivered: Callable[[int, float], None] | None = None,
) -> SessionEnded:
    """Run the deck session (``trailer``: how many of the transmitter's last records are the
    trailer); return how it ended if the receiving end may now hold the whole deck and trailer (so
    its verdict is worth waiting for), else raise :class:`TransferError`."""
    done = [transmitter.first_card - 1]
    failed: list[CardFailed] = []

    def on_event(event: Any, now: float) -> None:
        if isinstance(event, CardDelivered):
            done[0] = event.number
            deck_cards = transmitter.total_cards - trailer
            report.resume_at = event.number + 1  # should the transfer stop here
            report.cards_sent = max(0, min(event.number, deck_cards) - (transmitter.first_card - 1))
            if progress:
                progress(min(event.number, deck_cards), deck_cards)
            if on_delivered and event.number <= deck_cards:
                on_delivered(event.number, now)
        elif isinstance(event, CardFailed):
            failed.append(event)  # the session aborts with TL EOT: the receiving end stops at once

    try:
        ended, log = station.run(transmitter, on_event, stall_s=stall_s, abort_on_failure=True)
    except (TransferError, PortError) as err:  # e.g. our own port died: a network port, a USB adapter
        last = transmitter.total_cards
        deck_cards = last - trailer
        if done[0] >= last and not isinstance(err, Interrupted):  # the far end may have it all
            report.ended, report.message = NOT_CONFIRMED, (
                f"every card and the trailer were acknowledged, then: {err}")
            report.cards_sent = max(0, deck_cards - (transmitter.first_card - 1))
            raise NotConfirmed(f"{NOT_CONFIRMED}: {report.message}. Look for the deck at the far "
                               "end; if it is not there, run send and receive again with --resume",
                               report) from None
        if "--resume" in str(err):
            raise
        raise type(err)(f"{err}; {_through(done[0], deck_cards, last)}. "
                        "Run send and receive again with --resume") from None
    last = transmitter.total_cards
    deck_cards = last - trailer
    _fill(report, log, getattr(transmitter, "tx", transmitter), ended)  # a feed's transmitter
    report.cards_sent = max(0, min(done[0], deck_cards) - (transmitter.first_card - 1))
    if failed and failed[0].number < last:  # aborted before the trailer: no verdict will come
        card = failed[0]
        raise TransferError(
            f"card {card.number} could not be sent ({card.reason}): the line is too noisy. "
            f"Run send and receive again with --resume to go on from card {card.number}"
        )
    if not (ended.clean or failed or ended.outcome == "end not confirmed"):
        raise TransferError(
            f"{ended.message} ({ended.outcome}); {_through(done[0], deck_cards, last)}. "
            "Run send and receive again with --resume"
        )
    return ended


def _through(done: int, deck_cards: int, records: int) -> str:
    """How far the deck got, in deck cards (the trailer is counted apart)."""
    trailer = " and the trailer" if done >= records else ""
    return (f"{min(done, deck_cards)} of {deck_cards} cards{trailer} were acknowledged (safe in the "
            "receiving end's journal)")


def _judge(
    report: TransferReport, verdict: DeckMark | None, why: str, digest: DeckDigest,
    transmitter: Transmitter, ended: SessionEnded,
) -> TransferReport:
    """Turn the receiving end's verdict into the sending end's outcome."""
    report.settings["verdict"] = verdict.status if verdict else None
    report.failed_cards = []  # only the trailer's last card can have been given up by now
    if verdict is None:
        acked = ("every card was acknowledged but not the trailer's last card" if transmitter.failed
                 else f"every card and the trailer were acknowledged (end: {ended.outcome})")
        report.ended, report.message = NOT_CONFIRMED, (
            f"{acked}, and the receiving end's verdict did not arrive ({why})")
        raise NotConfirmed(
            f"{NOT_CONFIRMED}: {report.message}. Look for the deck at the far end; if it is not "
            "there, run send and receive again with --resume", report)
    held = f"{verdict.count} cards"
    if verdict.status == "MISMATCH":
        raise TransferError(
            f"the receiving end checked the deck against its trailer and it does not match (cards "
            f"lost, repeated or altered on the line): it wrote nothing and keeps the {held} in its "
            "journal; delete that journal there and send the deck again")
    if verdict.status == "NOTWRITTEN":
        raise TransferError(
            f"the receiving end holds the whole deck ({held}, checked against the trailer) but could "
            "not write it (see its message, e.g. disk full): once that is fixed, run send and "
            "receive again with --resume")
    if (verdict.count, verdict.digest) != (digest.count, digest.hexdigest()):
        raise TransferError(
            f"the receiving end says it wrote {held} with digest {verdict.digest}, which is not this "
            f"deck ({digest.count} cards, {digest.hexdigest()})")
    report.ended = "complete"
    report.message = (f"the receiving end checked all {digest.count} cards against the trailer and "
                      "wrote the deck (verdict PUBLISHED)")
    report.cards_received = report.cards_sent
    return report


def _receive_mark(station: Station, config: EndpointConfig, kind: str) -> tuple[DeckMark | None, str]:
    """Receive a one-card record (resume record or verdict) as an STR receiver: the mark of ``kind``
    it carries, or ``None`` and why not."""
    got: list[Card] = []

    def on_event(event: Any, now: float) -> None:
        if isinstance(event, CardAccepted):
            got.append(event.card)

    try:
        ended, _ = station.run(Receiver(config.handshake_session()), on_event)
        why = f"{ended.message} ({ended.outcome})"
    except Interrupted:
        raise
    except (TransferError, PortError) as err:
        if kind == "RESUME":
            raise
        why = str(err)
    mark = parse_mark(got[-1:]) if got else None
    if mark is None or mark.kind != kind:
        return None, ("it sent something else" if got else why)
    return mark, ""


def await_resume_point(
    station: Station, records: list[Card], columns: list[int] | None, config: EndpointConfig,
    *, check_bit_rate: bool = False,
) -> int:
    """Receive the handshake record; return the deck position to start sending from.  An error for
    settings that differ is marked as a refusal (see :func:`tell_refusal`); ``check_bit_rate``
    compares the receiving end's --bit-rate with ours."""
    heard = station.link.bytes_read
    mark, why = _receive_mark(station, config, "RESUME")
    if mark is None and station.link.bytes_read == heard:
        raise TransferError(
            f"nothing answered on {station.link.name} within {config.timeout_s:g} s: start `ibm1013 "
            "receive` at the far end, and check that this port is the one wired to it (the cable or "
            "adapter, and its --baud, --parity, --stop-bits and --rtscts)")
    if mark is None:
        raise TransferError(
            f"no resume record from the receiving end (in the handshake the sending end receives): {why}"
        )
    ours_tag = layout_tag(config.session.columns.describe())
    if mark.layout and mark.layout != ours_tag:
        watcher = mark.layout == layout_tag(ColumnLayout.parse("auto").describe())
        raise _refusal("LAYOUT", TransferError(
            "the two ends are set differently: " + (
                "the far end takes columns 'auto', as an `ibm1013 watch` does (a watcher shows a game "
                "streamed by `ibm1013 play --stream`; a deck goes to an `ibm1013 receive`); if it is "
                "a receive, " if watcher else "")
            + "give both the same --columns and --column-binary "
            f"(this end sends {config.session.columns.describe()})"
        ))
    rate = int(config.session.bit_rate)
    if check_bit_rate and mark.bit_rate is not None and mark.bit_rate != rate:
        raise _refusal("RATE", TransferError(
            f"the two ends are set to different bit rates: this end sends at {rate} bit/s, the "
            f"receiving end was given --bit-rate {mark.bit_rate}; give both the same --bit-rate"
        ))
    if mark.count and not config.resume:
        raise _refusal("RESUME", TransferError(
            f"the receiving end already holds {mark.count} cards of an earlier transfer: "
            "send with --resume to continue it"
        ))
    if mark.count > len(records):
        raise _refusal("OTHER", OtherDeck(
            f"the receiving end holds {mark.count} cards but this deck has only {len(records)} "
            "records with its trailer: it is another deck"
        ))
    ours = DeckDigest(sent_view(card, columns) for card in records[: mark.count])
    if ours.hexdigest() != mark.digest:
        raise _refusal("OTHER", OtherDeck(
            f"the {mark.count} cards the receiving end holds are not the first {mark.count} cards "
            "of this deck (digests differ): it is another deck, or other --columns"
        ))
    return mark.count + 1


def _refusal(reason: str, err: TransferError) -> TransferError:
    """``err``, marked as the refusal ``reason`` (:data:`ibm1013.trailer.REFUSALS`) that
    :func:`send_deck` tells the receiving end at once."""
    err.refusal = reason
    return err


def tell_refusal(station: Station, config: EndpointConfig, reason: str | None) -> bool:
    """Send the receiving end a ``REFUSED`` record saying why (``reason``, one of
    :data:`~ibm1013.trailer.REFUSALS`; ``None``: no refusal, nothing sent), so that it stops at once
    with the right advice (best effort: the refusal is the error either way); whether it got through."""
    if reason is None:
        return False
    with contextlib.suppress(TransferError, PortError):
        _send_mark(station, refusal_cards(reason, int(config.session.bit_rate)), "refusal")
        return True
    return False


def refused_message(mark: DeckMark, config: EndpointConfig, held: int, what: str = "transfer") -> str:
    """The receiving end's one line for a sending end's refusal ``mark`` of the ``what``."""
    why = {
        "RATE": f"it sends at {mark.bit_rate} bit/s and this end was given --bit-rate "
                f"{int(config.session.bit_rate)}: give both ends the same --bit-rate",
        "LAYOUT": "the two ends are set differently: give both the same --columns and --column-binary",
        "RESUME": f"this end holds {held} cards of an earlier transfer and the sending end was not "
                  "given --resume: run send with --resume to continue it",
        "OTHER": f"the {held} cards this end holds are not of the deck it sends (or other --columns): "
                 "receive it into another file",
        "BINARY": "its deck has a card whose punches no BCD character has, which only column binary "
                  "sends: give both ends --column-binary",
        "GAME": "it is an `ibm1013 play --stream`, streaming a game: that goes to an `ibm1013 watch`; "
                "a receive takes a deck sent by `ibm1013 send`",
    }.get(mark.status, f"({mark.status})")
    return f"the sending end refused the {what} at once: {why}"


def _columns(config: EndpointConfig) -> list[int] | None:
    """The card columns sent (0-based), ``None`` when a whole card or up to its last punch is."""
    layout = config.session.columns
    return None if layout.mode == "auto" else [int(i) for i in layout.indices]


def _fill(report: TransferReport, log: SessionLog, machine: Machine, ended: SessionEnded) -> None:
    report.cards_per_minute = round(_rate(log), 3)
    report.simulated_seconds = round(log.ended_at - log.started, 3)
    report.characters_on_line = log.chars_written + log.chars_read
    report.ended = ended.outcome
    report.message = ended.message
    report.resume_at = ended.resume_at
    report.operator_calls = log.operator_calls
    if isinstance(machine, Transmitter):
        report.retransmissions = machine.retransmissions
        report.detected_errors = machine.error_replies
        report.failed_cards = list(machine.failed)
    else:
        report.detected_errors = machine.detected_errors


# --------------------------------------------------------------------------------------------------
# The receiving end
# --------------------------------------------------------------------------------------------------
def receive_deck(
    link: Link, out_path: str, fmt: str, config: EndpointConfig, *, code: str = "029",
    progress: ProgressFn | None = None, stop: threading.Event | None = None,
    monitor: Monitor | None = None, feed: ReaderFeed | None = None,
) -> TransferReport:
    """Receive a deck into ``out_path`` (published atomically only when complete and checked), then
    send the verdict back.  The journal next to ``out_path`` is opened (and locked) first: a bad
    output path or a second receiver on the same output is refused before anything is sent.

    With ``feed`` the deck goes into a card reader instead (:mod:`ibm1013.reader_feed`): each card
    as soon as it is journaled and known to be a deck card; ``out_path`` only names the journal."""
    journal = Journal.open(out_path, resume=config.resume, held_back=marks_needed(_columns(config)))
    stop = stop if stop is not None else threading.Event()
    try:
        with stop_on_signals(stop):
            station = Station(link, config, stop=stop, monitor=monitor)
            return _receive(station, journal, out_path, fmt, config, code, progress, feed)
    except Interrupted as err:
        raise Interrupted(f"{err}; {_safe(journal, _columns(config))}. Run send and receive again with "
                          "--resume") from None
    finally:
        if feed is not None:
            feed.close()
        journal.close_or_discard()


def _receive(
    station: Station, journal: Journal, out_path: str, fmt: str, config: EndpointConfig, code: str,
    progress: ProgressFn | None, feed: ReaderFeed | None = None,
) -> TransferReport:
    columns = _columns(config)
    held = journal.count
    if feed is not None:
        feed.start(journal, marks_needed(columns))  # a reader that is not there: refused before the line
        out_path = feed.reader.name
    station.link.discard_input()  # characters left over from an earlier, interrupted session
    announce_resume_point(station, journal, config)

    report = TransferReport(settings=_settings(config, "receive", station.link.name))
    report.settings.update(resumed_from=held + 1, torn_bytes_dropped=journal.torn_bytes)
    refused: list[DeckMark] = []  # the sending end's refusal of our handshake, if it came

    def on_event(event: Any, now: float) -> None:
        if isinstance(event, CardAccepted):
            if event.number == held + 1 and (mark := refusal_of(event)) is not None:
                refused.append(mark)  # acknowledged, never journalled; said once the session ends
                return
            if event.layout != config.session.columns:  # taken only in the handshake's form
                raise TransferError(f"card {event.number} came as a whole card in BCD, not as this "
                                    f"end's {config.session.columns.describe()}: the far end is set "
                                    "differently (give both the same --columns and --column-binary)")
            if event.number != journal.count + 1:
                raise TransferError(
                    f"card {event.number} arrived but card {journal.count + 1} was expected"
                )
            card = event.card
            journal.append(card)  # durable before the reply that follows goes out
            if feed is not None:
                feed.card_safe(card)
            if progress:
                progress(journal.count, 0)

    receiver = Receiver(config.deck_session(), first_card=held + 1, handshake=HANDSHAKE_LAYOUT)
    try:
        ended, log = station.run(receiver, on_event)
        if refused:
            raise TransferError(refused_message(refused[0], config, held))
    except Interrupted:
        raise
    except (TransferError, PortError) as err:
        resumable = journal.count > 0 and "--resume" not in str(err) and not refused  # a port died
        hint = ". Run send and receive again with --resume" if resumable else ""
        raise type(err)(f"{err} ({_safe(journal, columns)}){hint}") from None
    _fill(report, log, receiver, ended)
    report.cards_received = journal.count - held
    if not ended.clean:
        raise TransferError(
            f"{ended.message} ({ended.outcome}); {_safe(journal, columns)}. "
            "Run send and receive again with --resume"
        )
    k = marks_needed(columns)
    deck_cards = journal.count - k
    trailer = list(journal.tail)  # the last k cards, kept as they arrived: no reading back
    mark = parse_mark(trailer, columns) if deck_cards >= 0 else None
    if mark is None or mark.kind != "TRAILER":  # TL EOT before the trailer: the sending end aborted
        raise TransferError(
            f"the sending end ended the transmission after card {journal.count}, before the deck's "
            f"trailer (it gave a card up, or was stopped); {_safe(journal, columns)}. "
            "Run send and receive again with --resume"
        )
    try:
        check_trailer(trailer, journal.deck_digest, columns)
    except DeckCheckError as err:
        _send_verdict(station, "MISMATCH", journal.count, journal.digest.hexdigest(), report)
        done = (f"the reader was already fed its {feed.fed} cards" if feed is not None
                else f"nothing was written to {out_path}")
        raise DeckCheckError(
            f"{err}; {done} (the cards received are kept in {journal.path}: "
            "delete it and send the deck again)"
        ) from None
    try:
        if feed is not None:
            feed.finish(journal)
        else:
            journal.publish(out_path, fmt, code=code, drop_last=k)
    except (OSError, IbmError) as err:  # disk full, a card the output format cannot hold …
        _send_verdict(station, "NOTWRITTEN", journal.count, journal.digest.hexdigest(), report)
        why = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise JournalError(
            f"{out_path}: cannot write the deck ({why}); the {deck_cards} cards and the trailer are "
            f"kept in {journal.path}: once that is fixed, run send and receive again with --resume"
        ) from None
    report.cards_received = max(0, deck_cards - held)
    report.settings.update(deck_cards=deck_cards)
    where = "fed to the card reader" if feed is not None else "written to"
    report.message = f"{deck_cards} cards checked against the trailer and {where} {out_path}"
    told = _send_verdict(station, "PUBLISHED", mark.count, mark.digest, report)
    if not told:
        report.message += "; the verdict did not reach the sending end (it says: delivered, not confirmed)"
    return report


def _send_verdict(station: Station, status: str, count: int, digest: str, report: TransferReport) -> bool:
    """Tell the sending end what became of the deck (``count`` cards of hex ``digest``); whether the
    verdict got through."""
    try:
        _send_mark(station, verdict_cards(status, count, digest), "verdict")
    except (TransferError, PortError) as err:
        if isinstance(err, Interrupted) and status != "PUBLISHED":
            raise  # the journal is kept: the message says so and to resume
        report.settings["verdict"] = f"{status} (not delivered: {err})"
        return False
    report.settings["verdict"] = status
    return True


def _safe(journal: Journal, columns: list[int] | None = None) -> str:
    """What the journal holds, in deck cards: the trailer is named, not counted as a card."""
    if journal.count == 0:
        return "no card had arrived"
    k = marks_needed(columns)
    deck_cards = journal.count - k
    if deck_cards >= 0:
        mark = parse_mark(list(journal.tail), columns)  # the journal keeps the last k cards apart
        if mark is not None and mark.kind == "TRAILER" and mark.count == deck_cards:
            return f"all {deck_cards} cards and the trailer are safe in {journal.path}"
    return f"{journal.count} cards are safe in {journal.path}"


def announce_resume_point(station: Station, journal: Journal, config: EndpointConfig) -> None:
    """Send the resume record (the handshake: cards held, digest, layout tag), as an STR transmitter."""
    tag = layout_tag(config.session.columns.describe())
    _send_mark(station, resume_cards(journal.digest, tag, int(config.session.bit_rate)), "resume handshake")


def _send_mark(station: Station, cards: list[Card], what: str) -> None:
    """Send a one-card record (resume record or verdict), as an STR transmitter."""
    delivered = [False]

    def on_event(event: Any, now: float) -> None:
        if isinstance(event, CardDelivered):
            delivered[0] = True

    transmitter = Transmitter(cards, station.config.handshake_session())
    ended, _ = station.run(transmitter, on_event)
    if not delivered[0]:
        raise PortError(
            f"{what} failed (in it the receiving end transmits): {ended.message} ({ended.outcome})"
        )
