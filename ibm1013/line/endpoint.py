"""Two real 1013s: a deck sent from one end of a line, received, checked and written at the other.

A transfer is STR sessions on the same pair of wires (our extension to STR, built only from the STR
core), each driven by a :class:`~ibm1013.line.station.Station` (:mod:`ibm1013.line.station`: pacing, timers,
reads, stopping); the one-card sessions around the deck are :mod:`ibm1013.line.handshake`'s:

1. *Resume handshake* (:mod:`ibm1013.line.handshake`) — the receiving end says how many cards it already
   holds in its journal, and their digest; the sending end checks them against its own deck, or
   refuses at once, saying why.
2. *The line turns around* and the sending end transmits its deck from the next card on, followed by
   the trailer card(s); the receiving end makes each card durable in its journal (one synchronous
   write) before the reply that acknowledges it goes out (the core hands back the card event ahead
   of its reply), and on ``TL EOT`` checks the trailer and publishes the deck atomically.
3. *Verdict* (:mod:`ibm1013.line.handshake`) — the line turns around once more and the receiving end says
   what became of the deck; only ``PUBLISHED`` lets the sending end say ``complete``.

Exit statuses of ``send`` and ``receive`` (``docs/serial.md``): 0 complete (the deck was written
at the far end, and the sender was told so), 2 failed (one line saying why and whether to run both
ends again with ``--resume``), 3 delivered, not confirmed (sender only), 130 interrupted.

This module holds the deck session of each end: :func:`send_deck` and :func:`receive_deck`
(:func:`ibm1013.line.follow.follow_deck` sends a punch file as it grows).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from emulator.card import Card
from emulator.errors import IbmError
from emulator.serial import Link, PortError
from emulator.words import cards
from ibm1013.line.handshake import (
    HANDSHAKE_LAYOUT,
    NotConfirmed,
    OtherDeck,
    announce_resume_point,
    await_verdict,
    journal_lost_at_far_end,
    refusal_of,
    refused_message,
    send_verdict,
    sending_handshake,
    verdict_after_abort,
)
from ibm1013.line.journal import Journal, JournalError, JournalLost
from ibm1013.line.progress import ProgressFn
from ibm1013.line.station import (
    EndpointConfig,
    Interrupted,
    Machine,
    SessionLog,
    Station,
    TransferError,
    ended_text,
    resumable,
    stop_on_signals,
)
from ibm1013.line.trace import Trace
from ibm1013.report import FAILED, INTERRUPTED, TransferReport
from ibm1013.str.events import (
    ABORTED_BY_RECEIVER,
    END_NOT_CONFIRMED,
    NOT_CONFIRMED,
    CardAccepted,
    CardDelivered,
    CardFailed,
    SessionEnded,
)
from ibm1013.str.receiver import Receiver
from ibm1013.str.trailer import (
    DeckCheckError,
    DeckDigest,
    DeckMark,
    card_of_bytes,
    check_trailer,
    marks_needed,
    parse_mark,
    sent_view,
    trailer_cards,
)
from ibm1013.str.transmitter import Transmitter

if TYPE_CHECKING:
    from ibm1013.line.reader_feed import ReaderFeed

__all__ = [  # the names the command line and the tests take from here
    "NOT_CONFIRMED", "EndpointConfig", "Interrupted", "NotConfirmed", "OtherDeck", "Station",
    "TransferError", "receive_deck", "send_deck",
]


class NotWritten(TransferError, JournalError):
    """The receiving end could not keep or write the cards (disk full, an I/O error, its journal's
    lock lost, the card reader gone); it told the sending end so (verdict ``NOTWRITTEN``)."""


def new_report(config: EndpointConfig, role: str, port: str) -> TransferReport:
    """A real end's report before the transfer: its settings; bit flips unknown (an end cannot
    count them), ``settings.resumed_from`` given only once a resume is known."""
    s = config.session
    return TransferReport(flipped_bits=None, settings={
        "role": role, "port": port, "bit_rate": s.bit_rate, "columns": s.columns.describe(),
        "paced": config.paced, "propagation_s": config.propagation_s, "timeout_s": config.timeout_s,
    })


def sent_columns(config: EndpointConfig) -> list[int] | None:
    """The card columns sent (0-based), ``None`` when a whole card or up to its last punch is."""
    layout = config.session.columns
    return None if layout.mode == "auto" else [int(i) for i in layout.indices]


def _fill(report: TransferReport, log: SessionLog, machine: Machine, ended: SessionEnded) -> None:
    report.cards_per_minute = round(log.cards_per_minute, 3)
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
# The sending end
# --------------------------------------------------------------------------------------------------
def send_deck(
    link: Link, deck: Sequence[Card], config: EndpointConfig, *, progress: ProgressFn | None = None,
    stop: threading.Event | None = None, monitor: Trace | None = None, source: str | None = None,
) -> TransferReport:
    """Send ``deck`` (plus its trailer) to a receiving endpoint and get its verdict.

    A deck with a card that four-of-eight cannot carry (without ``--column-binary``) is refused
    after the handshake, the receiving end told (a ``BINARY`` refusal); ``source`` names the deck's
    file in that message.

    A report (``ended == "complete"``: the far end checked and wrote the deck), or
    :class:`TransferError` — :class:`NotConfirmed` when only the verdict was lost,
    :class:`Interrupted` when ``stop`` was set (by Ctrl-C: see :func:`stop_on_signals`).
    ``monitor`` sees every character, timer and event (:mod:`ibm1013.line.trace`).
    """
    columns = sent_columns(config)
    digest = DeckDigest(sent_view(card, columns) for card in deck)
    records = [*deck, *trailer_cards(digest, columns)]
    report = new_report(config, "send", link.name)
    stop = stop if stop is not None else threading.Event()

    def run() -> TransferReport:
        with stop_on_signals(stop):
            return _send(link, deck, records, digest, config, report, stop, monitor, progress,
                         source)

    return reporting(report, run)


def resumed_from(first: int) -> dict[str, int]:
    """``settings.resumed_from``, for a transfer that goes on from deck card ``first`` (none for a
    fresh one)."""
    return {"resumed_from": first} if first > 1 else {}


def reporting(report: TransferReport, run: Callable[[], TransferReport]) -> TransferReport:
    """``run()``; an error it raises carries ``report`` (how far it got) unless it has one.  The
    report's ``seconds`` are the deck session's; ``settings.run_seconds`` the whole run's (the
    handshakes and the verdict too)."""
    t0 = time.monotonic()
    try:
        return run()
    except IbmError as err:
        if getattr(err, "report", None) is None:
            report.ended = INTERRUPTED if isinstance(err, Interrupted) else FAILED
            report.message = str(err)
            err.report = report  # type: ignore[attr-defined]
        raise
    finally:
        report.settings["run_seconds"] = round(time.monotonic() - t0, 3)


def _send(
    link: Link, deck: Sequence[Card], records: list[Card], digest: DeckDigest, config: EndpointConfig,
    report: TransferReport, stop: threading.Event, monitor: Trace | None, progress: ProgressFn | None,
    source: str | None = None,
) -> TransferReport:
    columns = sent_columns(config)
    link.discard_input()  # characters left over from an earlier, interrupted session
    station = Station(link, config, stop=stop, monitor=monitor)
    resume_at = sending_handshake(station, records, columns, config, source)
    report.settings.update(deck_cards=len(deck), trailer_cards=len(records) - len(deck),
                           **resumed_from(resume_at))
    report.resume_at = resume_at
    transmitter = Transmitter(records, config.deck_session(), first_card=resume_at)
    ended = send_records(station, transmitter, len(records) - len(deck), report, progress)
    return await_verdict(station, config, report, digest, transmitter, ended)


def send_records(
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
        ended, log = station.run(transmitter, on_event, stall_s=stall_s)
    except (TransferError, PortError) as err:  # e.g. our own port died: a network port, a USB adapter
        last = transmitter.total_cards
        deck_cards = last - trailer
        if done[0] >= last and not isinstance(err, Interrupted):  # the far end may have it all
            report.ended, report.message = NOT_CONFIRMED, (
                f"every card and the trailer were acknowledged, then: {getattr(err, 'reason', err)}")
            report.cards_sent = max(0, deck_cards - (transmitter.first_card - 1))
            raise NotConfirmed.of(report) from None
        if getattr(err, "resumable", False):
            raise
        raise resumable(err, f"{err}; {_through(done[0], deck_cards, last)}") from None
    last = transmitter.total_cards
    deck_cards = last - trailer
    _fill(report, log, getattr(transmitter, "tx", transmitter), ended)  # a feed's transmitter
    report.cards_sent = max(0, min(done[0], deck_cards) - (transmitter.first_card - 1))
    if failed and failed[0].number < last:  # aborted before the trailer: no verdict will come
        card = failed[0]
        raise TransferError(f"card {card.number} could not be sent ({card.reason}): the line is too noisy",
                            resumable=True, resume_from=card.number)
    if ended.outcome == ABORTED_BY_RECEIVER and (verdict := verdict_after_abort(station)) is not None:
        if verdict.count < done[0]:  # it acknowledged cards it no longer holds
            raise NotWritten(journal_lost_at_far_end(verdict.count, min(done[0], deck_cards), deck_cards))
        raise NotWritten(
            f"the receiving end could not keep card {verdict.count + 1} and stopped the transfer "
            "(verdict NOTWRITTEN: disk full, an I/O error, its journal lost or its card reader gone; "
            f"its own message says which); {_through(done[0], deck_cards, last)}: fix that first",
            resumable=True)
    if not (ended.clean or failed or ended.outcome == END_NOT_CONFIRMED):
        raise TransferError(f"{ended_text(ended)}; {_through(done[0], deck_cards, last)}", resumable=True)
    return ended


def _through(done: int, deck_cards: int, records: int) -> str:
    """How far the deck got, in deck cards (the trailer is counted apart)."""
    trailer = " and the trailer" if done >= records else ""
    return (f"{min(done, deck_cards)} of {cards(deck_cards)}{trailer} were acknowledged (safe in the "
            "receiving end's journal)")


# --------------------------------------------------------------------------------------------------
# The receiving end
# --------------------------------------------------------------------------------------------------
def receive_deck(
    link: Link, out_path: str, fmt: str, config: EndpointConfig, *, code: str = "029",
    progress: ProgressFn | None = None, stop: threading.Event | None = None,
    monitor: Trace | None = None, feed: ReaderFeed | None = None,
) -> TransferReport:
    """Receive a deck into ``out_path`` (published atomically only when complete and checked), then
    send the verdict back.  The journal next to ``out_path`` is opened (and locked) first: a bad
    output path or a second receiver on the same output is refused before anything is sent.

    With ``feed`` the deck goes into a card reader instead (:mod:`ibm1013.line.reader_feed`): each card
    as soon as it is journaled and known to be a deck card; ``out_path`` only names the journal.

    An error raised carries the report so far as ``report`` (``receive --json`` prints it)."""
    report = new_report(config, "receive", link.name)
    stop = stop if stop is not None else threading.Event()

    def run() -> TransferReport:
        journal = Journal.open(out_path, resume=config.resume, held_back=marks_needed(sent_columns(config)))
        try:
            with stop_on_signals(stop):
                station = Station(link, config, stop=stop, monitor=monitor)
                return _receive(station, journal, out_path, fmt, config, code, progress, report, feed)
        except Interrupted as err:  # a --resume goes on only from a journal that holds cards
            raise err.again(f"{err.reason}; {_safe(journal, sent_columns(config))}",
                            resumable=journal.held > 0) from None
        finally:
            if feed is not None:
                feed.close(discard=journal.held == 0)
            journal.close_or_discard()

    return reporting(report, run)


def _receive(
    station: Station, journal: Journal, out_path: str, fmt: str, config: EndpointConfig, code: str,
    progress: ProgressFn | None, report: TransferReport, feed: ReaderFeed | None = None,
) -> TransferReport:
    columns = sent_columns(config)
    held = journal.count
    if feed is not None:
        feed.start(journal, marks_needed(columns))  # a reader that is not there: refused before the line
        out_path = feed.reader.name
    station.link.discard_input()  # characters left over from an earlier, interrupted session
    for anew in (False, True):
        announce_resume_point(station, journal, config)
        report.settings.update(torn_bytes_dropped=journal.torn_bytes, **resumed_from(held + 1))
        cards = _CardKeeper(journal, config, feed, progress)
        receiver = Receiver(config.deck_session(), first_card=held + 1, handshake=HANDSHAKE_LAYOUT)
        try:
            ended, log = station.run(receiver, cards.on_event)
            if cards.refused and cards.refused[0].status == "ANEW" and held and feed is None and not anew:
                journal.start_over()  # the job ran again: its whole output replaces the one held
                report.settings["dropped_for_output_anew"], held = held, 0
                continue
            if cards.refused:
                raise TransferError(refused_message(cards.refused[0], config, held))
            break
        except Interrupted:
            raise
        except (IbmError, OSError) as caught:
            err = caught
            report.cards_received = journal.count - held
            if cards.lost:  # this end could not keep a card: the session ended at once (CL EOT); now why
                told = _not_written(station, journal, report)
                err = _not_kept(cards.lost[0], told)
            elif not isinstance(err, TransferError | PortError):
                raise
            died = journal.held > 0 and not cards.refused  # e.g. a port died: what is journaled is resumed
            said = f"{getattr(err, 'reason', err)} ({_safe(journal, columns)})"
            if isinstance(err, TransferError):
                raise err.again(said, resumable=err.resumable or died) from None
            raise resumable(err, said) if died else type(err)(said) from None
    _fill(report, log, receiver, ended)
    report.cards_received = journal.count - held
    if not ended.clean:
        raise TransferError(f"{ended_text(ended)}; {_safe(journal, columns)}", resumable=True)
    return _publish(station, journal, out_path, fmt, code, columns, held, report, feed)


class _CardKeeper:
    """The receiving end's handling of each card of the deck session: checked, made durable in the
    journal (and fed to the reader) before its acknowledgement goes out.  ``refused``: the sending
    end's refusal, if that came instead; ``lost``: why a card could not be kept, if one could not
    (raised from :meth:`on_event`, which ends the session at once: :meth:`Station.run`)."""

    def __init__(self, journal: Journal, config: EndpointConfig, feed: ReaderFeed | None,
                 progress: ProgressFn | None) -> None:
        self.journal, self.config, self.feed, self.progress = journal, config, feed, progress
        self.held = journal.count
        self.layout = config.session.columns
        self.refused: list[DeckMark] = []
        self.lost: list[BaseException] = []

    def on_event(self, event: Any, now: float) -> None:
        if not isinstance(event, CardAccepted):
            return
        journal = self.journal
        if event.number == self.held + 1 and (mark := refusal_of(event)) is not None:
            self.refused.append(mark)  # acknowledged, never journalled; said once the session ends
            return
        if event.layout is not self.layout and event.layout != self.layout:  # the handshake's form
            raise TransferError(f"card {event.number} came as a whole card in BCD, not as this "
                                f"end's {self.layout.describe()}: the far end is set differently "
                                "(give both the same --columns and --column-binary)")
        if event.number != journal.count + 1:
            raise TransferError(f"card {event.number} arrived but card {journal.count + 1} was expected")
        words = event.words
        try:
            journal.append_words(words)  # durable before the reply that follows goes out
            if self.feed is not None:
                self.feed.card_safe(card_of_bytes(words))
        except (IbmError, OSError) as err:  # disk full, an I/O error, the card reader gone …
            self.lost.append(err)
            raise
        if self.progress:
            self.progress(journal.count, 0)


def _not_written(station: Station, journal: Journal, report: TransferReport) -> bool:
    """Send the ``NOTWRITTEN`` verdict for the cards this end holds (none, when its journal is lost:
    the sending end then knows that cards it saw acknowledged are gone); whether it got through."""
    digest = journal.digest if journal.lost is None else DeckDigest()
    return send_verdict(station, "NOTWRITTEN", journal.held, digest.hexdigest(), report)


def _not_kept(err: BaseException, told: bool) -> IbmError:
    """The receiving end's error for a card it could not keep (``err``), the sending end told so
    (``told``: the ``NOTWRITTEN`` verdict got through) — of ``err``'s kind when that is ours."""
    why = f"{err.strerror} ({err.filename})" if isinstance(err, OSError) else str(err)
    said = f"{why}; the sending end {'was told (verdict NOTWRITTEN)' if told else 'could not be told'}"
    if isinstance(err, IbmError) and not isinstance(err, TransferError):
        return type(err)(said)
    return NotWritten(said)


def _publish(
    station: Station, journal: Journal, out_path: str, fmt: str, code: str, columns: list[int] | None,
    held: int, report: TransferReport, feed: ReaderFeed | None,
) -> TransferReport:
    """The deck session ended in order: check the deck against its trailer, write it (or finish
    feeding the reader) and send the verdict."""
    k = marks_needed(columns)
    deck_cards = journal.count - k
    trailer = list(journal.tail)  # the last k cards, kept as they arrived: no reading back
    mark = parse_mark(trailer, columns) if deck_cards >= 0 else None
    if mark is None or mark.kind != "TRAILER":  # TL EOT before the trailer: the sending end aborted
        raise TransferError(
            f"the sending end ended the transmission after card {journal.count}, before the deck's "
            f"trailer (it gave a card up, or was stopped); {_safe(journal, columns)}", resumable=True)
    try:
        check_trailer(trailer, journal.deck_digest, columns)
    except DeckCheckError as err:
        send_verdict(station, "MISMATCH", journal.count, journal.digest.hexdigest(), report)
        done = (f"the reader was already fed its {cards(feed.fed)}" if feed is not None
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
    except JournalLost as err:  # deleted or replaced after the last card: nothing to write from
        told = _not_written(station, journal, report)
        raise NotWritten(f"{out_path}: not written: {err}; the sending end "
                         f"{'was told (verdict NOTWRITTEN)' if told else 'could not be told'}: run both "
                         "ends again to send the deck from its first card") from None
    except (OSError, IbmError) as err:  # disk full, a card the output format cannot hold …
        _not_written(station, journal, report)
        why = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise NotWritten(f"{out_path}: cannot write the deck ({why}); the {cards(deck_cards)} and the "
                         f"trailer are kept in {journal.path}: fix that first", resumable=True) from None
    report.cards_received = max(0, deck_cards - held)
    report.settings.update(deck_cards=deck_cards)
    where = "fed to the card reader" if feed is not None else "written to"
    report.message = f"{cards(deck_cards)} checked against the trailer and {where} {out_path}"
    told = send_verdict(station, "PUBLISHED", mark.count, mark.digest, report)
    if not told:
        report.message += "; the verdict did not reach the sending end (it says: delivered, not confirmed)"
    return report


def _safe(journal: Journal, columns: list[int] | None = None) -> str:
    """What the journal holds, in deck cards: the trailer is named, not counted as a card."""
    if journal.lost is not None:
        return "no card is kept: run both ends again to send the deck from its first card"
    if journal.count == 0:
        return "no card had arrived"
    k = marks_needed(columns)
    deck_cards = journal.count - k
    if deck_cards >= 0:
        mark = parse_mark(list(journal.tail), columns)  # the journal keeps the last k cards apart
        if mark is not None and mark.kind == "TRAILER" and mark.count == deck_cards:
            return f"all {cards(deck_cards)} and the trailer are safe in {journal.path}"
    return f"{cards(journal.count)} {'is' if journal.count == 1 else 'are'} safe in {journal.path}"
