"""The two handshakes of a transfer around its deck: the resume record first, the verdict last.

A transfer (:mod:`ibm1013.line.endpoint`) is STR sessions on one pair of wires; these are the one-card
ones, each an STR session of its own driven by a :class:`~ibm1013.line.station.Station`, with records of
our own (:mod:`ibm1013.str.trailer`) always in :data:`HANDSHAKE_LAYOUT`, a whole card in BCD:

* *Resume handshake* — the receiving end first acts as a **transmitter** of a one-card record
  ``1013 RESUME nnnnnnnn CARDS DIGEST …`` (:mod:`ibm1013.str.trailer`): how many cards it already holds
  durably in its journal, and the digest of those cards.  The sending end receives it and checks
  that those cards are the first cards of its own deck.  A fresh transfer says 0 cards.  If it
  refuses (settings that differ, a journal without ``--resume``, another deck, a deck that needs
  column binary), it sends a one-card ``1013 REFUSED … RATE`` record instead of the deck, in the
  handshake's whole-card form, which the receiving end's core takes as its first record whatever
  its layout (:func:`refusal_of`): so the receiving end stops at once with the right advice.
* *Verdict* — when the trailer arrived, the line turns around once more and the receiving end
  transmits its one-card verdict ``1013 VERDICT … PUBLISHED`` (or ``MISMATCH``, ``NOTWRITTEN``):
  :func:`send_verdict`.  Only a ``PUBLISHED`` verdict lets the sending end say ``complete``
  (:func:`await_verdict`); when the verdict is lost it says ``delivered, not confirmed``
  (:class:`NotConfirmed`, exit status 3 on the command line).

The receiving end's side: :func:`announce_resume_point`, then (after the deck) :func:`send_verdict`;
a refusal that arrives instead of the deck is :func:`refusal_of` / :func:`refused_message`.  The
sending end's: :func:`sending_handshake` (:func:`await_resume_point`, and :func:`tell_refusal` when it
refuses), then :func:`await_verdict`.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import Any

from emulator.card import Card
from emulator.errors import CardError
from emulator.serial import PortError
from emulator.words import cards
from ibm1013.line.journal import Journal
from ibm1013.line.station import EndpointConfig, Interrupted, Station, TransferError, ended_text
from ibm1013.report import ExitStatus, TransferReport
from ibm1013.str.config import SessionConfig
from ibm1013.str.events import COMPLETE, NOT_CONFIRMED, CardAccepted, CardDelivered, SessionEnded
from ibm1013.str.layout import ColumnLayout, deck_words
from ibm1013.str.receiver import Receiver
from ibm1013.str.trailer import (
    DeckDigest,
    DeckMark,
    layout_tag,
    parse_mark,
    refusal_cards,
    resume_cards,
    sent_view,
    verdict_cards,
)
from ibm1013.str.transmitter import Transmitter

HANDSHAKE_LAYOUT = ColumnLayout()
"""The form of every record of our own outside the deck (resume record, refusal, verdict): a whole
card in BCD, read alike by both ends whatever their ``--columns`` and ``--column-binary``."""


def handshake_session(config: EndpointConfig) -> SessionConfig:
    """The session of a handshake record: always a whole 80-column card in BCD (faithful) mode."""
    return replace(config.session, columns=HANDSHAKE_LAYOUT, idle_timeout_s=config.timeout_s)


class OtherDeck(TransferError):
    """In the resume handshake: the cards the receiving end holds are not the first cards of this
    deck (a live stream starts over instead: :func:`ibm1013.line.stream.stream_cards`)."""


class SentAnew(TransferError):
    """In the resume handshake of ``rje-host``'s output after the job ran again: the receiving end holds
    cards of the earlier run's output, which the whole new output replaces (it is told to drop them)."""


SHORT_OUTPUT = ("rje-host was restarted in the output phase and cannot run the job again (its job deck "
                "is gone): lines the computer printed while no rje-host read its printer are lost, so "
                "the output may be short")
"""Why ``rje-host`` refuses its output phase (``REFUSED SHORT``): said at both ends."""


class NotConfirmed(TransferError):
    """Every card and the trailer were acknowledged, but the receiving end's verdict (did it check
    and write the deck?) never arrived.  ``report`` is the sending end's report."""

    exit_status = ExitStatus.NOT_CONFIRMED

    def __init__(self, message: str, report: TransferReport, *, resumable: bool = False,
                 look_first: bool = False) -> None:
        super().__init__(message, resumable=resumable, look_first=look_first)
        self.report = report

    @classmethod
    def of(cls, report: TransferReport) -> NotConfirmed:
        """The error for ``report`` (its message says what went through): look for the deck at the
        far end, and resume if it is not there."""
        return cls(f"{NOT_CONFIRMED}: {report.message}", report, resumable=True, look_first=True)


# --------------------------------------------------------------------------------------------------
# The resume handshake
# --------------------------------------------------------------------------------------------------
def announce_resume_point(station: Station, journal: Journal, config: EndpointConfig) -> None:
    """Send the resume record (the handshake: cards held, digest, layout tag), as an STR transmitter."""
    tag = layout_tag(config.session.columns.describe())
    what = "resume handshake" if journal.count else "handshake"  # "resume" only where one applies
    _send_mark(station, resume_cards(journal.digest, tag, int(config.session.bit_rate)), what)


def sending_handshake(station: Station, records: list[Card], columns: list[int] | None,
                      config: EndpointConfig, source: str | None) -> int:
    """The sending end's side of the resume handshake (:func:`await_resume_point`, bit rates
    compared): the deck position to start from.  A refusal is told to the receiving end, and so is
    a deck with a card four-of-eight cannot carry (checked before, told after the handshake).

    ``rje-host``'s output after a restart (``config.rerun``): ``ANEW`` tells a receiving end that holds
    cards of the earlier run's output to drop them (a ``REFUSED ANEW`` record) and takes its second
    handshake, which holds none; ``SHORT`` refuses the output phase, the receiving end told."""
    unsendable = _unsendable(records, config, source)
    for told_anew in (False, True):
        try:
            resume_at = await_resume_point(station, records, columns, config, check_bit_rate=True)
            break
        except Interrupted as err:
            raise err.again(f"{err.reason}; no card was sent", resumable=True) from None
        except TransferError as err:
            told = tell_refusal(station, config, err.refusal)
            if isinstance(err, SentAnew) and told and not told_anew:
                continue  # the receiving end drops what it held and hands shake again, holding nothing
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
    if config.rerun == "SHORT":
        raise _refusal("SHORT", TransferError(SHORT_OUTPUT))
    if config.rerun == "ANEW" and mark.count:
        raise _refusal("ANEW", SentAnew(
            f"the receiving end held {cards(mark.count)} of the earlier run's output, and dropped none"))
    if mark.count and not config.resume:
        raise _refusal("RESUME", TransferError(
            f"the receiving end already holds {cards(mark.count)} of an earlier transfer: "
            "send with --resume to continue it"
        ))
    if mark.count > len(records):
        raise _refusal("OTHER", OtherDeck(
            f"the receiving end holds {cards(mark.count)} but this deck has only {len(records)} "
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
    """``err``, marked as the refusal ``reason`` (:data:`ibm1013.str.trailer.REFUSALS`) that
    :func:`send_deck` tells the receiving end at once."""
    err.refusal = reason
    return err


def tell_refusal(station: Station, config: EndpointConfig, reason: str | None) -> bool:
    """Send the receiving end a ``REFUSED`` record saying why (``reason``, one of
    :data:`~ibm1013.str.trailer.REFUSALS`; ``None``: no refusal, nothing sent), so that it stops at once
    with the right advice (best effort: the refusal is the error either way); whether it got through."""
    if reason is None:
        return False
    with contextlib.suppress(TransferError, PortError):
        _send_mark(station, refusal_cards(reason, int(config.session.bit_rate)), "refusal")
        return True
    return False


def refusal_of(event: CardAccepted) -> DeckMark | None:
    """The sending end's ``REFUSED`` record, if ``event`` (the first card of a deck session) is one.
    It comes in :data:`HANDSHAKE_LAYOUT` whatever the session's layout: the receiver takes it in
    that form too (:class:`~ibm1013.str.receiver.Receiver`'s ``handshake``), and it is read in it."""
    if len(event.data) != HANDSHAKE_LAYOUT.max_chars:
        return None
    mark = parse_mark([HANDSHAKE_LAYOUT.decode(event.data)])
    return mark if mark is not None and mark.kind == "REFUSED" else None


def refused_message(mark: DeckMark, config: EndpointConfig, held: int, what: str = "transfer") -> str:
    """The receiving end's one line for a sending end's refusal ``mark`` of the ``what``."""
    why = {
        "RATE": f"it sends at {mark.bit_rate} bit/s and this end was given --bit-rate "
                f"{int(config.session.bit_rate)}: give both ends the same --bit-rate",
        "LAYOUT": "the two ends are set differently: give both the same --columns and --column-binary",
        "RESUME": f"this end holds {cards(held)} of an earlier transfer and the sending end was not "
                  "given --resume: run send with --resume to continue it",
        "OTHER": f"the {held} cards this end holds are not of the deck it sends (or other --columns): "
                 "receive it into another file",
        "BINARY": "its deck has a card whose punches no BCD character has, which only column binary "
                  "sends: give both ends --column-binary",
        "GAME": "it is an `ibm1013 play --stream`, streaming a game: that goes to an `ibm1013 watch`; "
                "a receive takes a deck sent by `ibm1013 send`",
        "ANEW": "it is an rje-host that ran the job again and sends its whole output anew, and this "
                "end could not drop the output it held",
        "SHORT": f"{SHORT_OUTPUT}; this end keeps the {cards(held)} it holds in its journal",
    }.get(mark.status, f"({mark.status})")
    return f"the sending end refused the {what} at once: {why}"


# --------------------------------------------------------------------------------------------------
# The verdict
# --------------------------------------------------------------------------------------------------
def send_verdict(station: Station, status: str, count: int, digest: str, report: TransferReport) -> bool:
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


def await_verdict(station: Station, config: EndpointConfig, report: TransferReport,
                  digest: DeckDigest, transmitter: Transmitter, ended: SessionEnded) -> TransferReport:
    """Receive the receiving end's verdict on the deck and judge the transfer by it."""
    try:
        verdict, why = _receive_mark(station, config, "VERDICT")
    except Interrupted as err:
        raise Interrupted(f"{err.reason} while waiting for the verdict; every card and the trailer were "
                          "acknowledged", resumable=True, look_first=True) from None
    return _judge(report, verdict, why, digest, transmitter, ended)


def verdict_after_abort(station: Station) -> DeckMark | None:
    """The receiving end ended the deck session (``CL EOT``): its ``NOTWRITTEN`` verdict, if it
    could not keep a card and says so at once (:func:`ibm1013.line.endpoint.receive_deck`), else
    ``None``.  Waited for no longer than the verdict takes to come (a receiving end stopped by its
    operator sends none)."""
    config = station.config
    chars_s = 8.0 / config.session.bit_rate if config.paced else 0.0
    station.config = replace(config, timeout_s=min(config.timeout_s, 1.0 + VERDICT_CHARS * chars_s))
    try:
        verdict, _why = _receive_mark(station, station.config, "VERDICT")
    finally:
        station.config = config
    return verdict if verdict is not None and verdict.status == "NOTWRITTEN" else None


VERDICT_CHARS = 120
"""Characters on the line from a receiving end's ``CL EOT`` to its verdict's acknowledgement, about:
the line turned round, a bid, the record and the replies."""


def journal_lost_at_far_end(held: int, acknowledged: int, deck_cards: int) -> str:
    """The sending end's words for a ``NOTWRITTEN`` verdict that holds fewer cards (``held``) than
    the receiving end had acknowledged: a card acknowledged is durable in its journal, so only a
    journal lost (deleted or replaced under the running receiver) takes cards back."""
    start = "its first card" if held == 0 else f"card {held + 1} (with --resume)"
    return (f"the receiving end lost its journal (deleted or replaced while it ran: verdict NOTWRITTEN "
            f"for {cards(held)}, after {acknowledged} of {cards(deck_cards)} were acknowledged): it "
            f"does not hold them; run both ends again to send the deck from {start}")


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
        raise NotConfirmed.of(report)
    held = cards(verdict.count)
    if verdict.status == "MISMATCH":
        raise TransferError(
            f"the receiving end checked the deck against its trailer and it does not match (cards "
            f"lost, repeated or altered on the line): it wrote nothing and keeps the {held} in its "
            "journal; delete that journal there and send the deck again")
    if verdict.status == "NOTWRITTEN" and verdict.count <= digest.count:  # not even the trailer held
        raise TransferError(journal_lost_at_far_end(verdict.count, digest.count, digest.count))
    if verdict.status == "NOTWRITTEN":
        raise TransferError(
            f"the receiving end holds the whole deck ({held}, checked against the trailer) but could "
            "not write it (see its message, e.g. disk full): fix that first", resumable=True)
    if (verdict.count, verdict.digest) != (digest.count, digest.hexdigest()):
        raise TransferError(
            f"the receiving end says it wrote {held} with digest {verdict.digest}, which is not this "
            f"deck ({cards(digest.count)}, {digest.hexdigest()})")
    report.ended = COMPLETE
    checked = f"all {cards(digest.count)}" if digest.count != 1 else "the deck's one card"
    report.message = (f"the receiving end checked {checked} against the trailer and wrote the deck "
                      "(verdict PUBLISHED)")
    report.cards_received = report.cards_sent
    return report


# --------------------------------------------------------------------------------------------------
# One-card records
# --------------------------------------------------------------------------------------------------
def _send_mark(station: Station, cards: list[Card], what: str) -> None:
    """Send a one-card record (resume record or verdict), as an STR transmitter."""
    delivered = [False]

    def on_event(event: Any, now: float) -> None:
        if isinstance(event, CardDelivered):
            delivered[0] = True

    transmitter = Transmitter(cards, handshake_session(station.config))
    ended, _ = station.run(transmitter, on_event)
    if not delivered[0]:
        raise PortError(
            f"{what} failed (in it the receiving end transmits): {ended_text(ended)}"
        )


def _receive_mark(station: Station, config: EndpointConfig, kind: str) -> tuple[DeckMark | None, str]:
    """Receive a one-card record (resume record or verdict) as an STR receiver: the mark of ``kind``
    it carries, or ``None`` and why not."""
    got: list[Card] = []

    def on_event(event: Any, now: float) -> None:
        if isinstance(event, CardAccepted):
            got.append(event.card)

    try:
        ended, _ = station.run(Receiver(handshake_session(config)), on_event)
        why = ended_text(ended)
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
