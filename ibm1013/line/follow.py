"""A deck sent as a punch writes it: ``ibm1013 send --follow FILE`` (SIMH ``attach cdp``, a Hercules
3525).

:func:`follow_deck` sends each card of a punch file as soon as the punch has written it whole
(:class:`emulator.follow.PunchFollower`), one STR session held open between cards with bids
(:class:`~ibm1013.str.stream.StreamTransmitter`), then the trailer once the deck has ended — a transfer
like :func:`ibm1013.line.endpoint.send_deck` in every other way: the same handshakes, journal, resume,
report and errors.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from emulator.card import Card
from emulator.serial import Link
from ibm1013.line.endpoint import (
    new_report,
    reporting,
    resumed_from,
    send_records,
    sent_columns,
)
from ibm1013.line.handshake import await_verdict, sending_handshake
from ibm1013.line.progress import ProgressFn
from ibm1013.line.station import EndpointConfig, Station
from ibm1013.line.stream import _Feed
from ibm1013.line.trace import Trace
from ibm1013.report import TransferReport
from ibm1013.str.stream import KEEPALIVE_S, StreamTransmitter
from ibm1013.str.trailer import DeckDigest, marks_needed, sent_view, trailer_cards

if TYPE_CHECKING:
    from emulator.follow import PunchFollower


def follow_deck(
    link: Link, source: PunchFollower, config: EndpointConfig, *, progress: ProgressFn | None = None,
    stop: threading.Event | None = None, monitor: Trace | None = None,
    on_delivered: Callable[[int, float], None] | None = None,
) -> TransferReport:
    """Send the cards ``source`` hands out (:class:`emulator.follow.PunchFollower`: a punch file as it
    grows) as they come, one session held open between them with bids
    (:class:`~ibm1013.str.stream.StreamTransmitter`), then the trailer once the source has finished, and get
    the verdict — a transfer like :func:`send_deck` in every other way (handshake, journal, resume,
    report, errors).  ``stop`` aborts it (the second Ctrl-C of ``send --follow``; the first one ends
    the source's deck).  ``on_delivered(number, now)`` hears of each card acknowledged."""
    report = new_report(config, "send", link.name)
    stop = stop if stop is not None else threading.Event()
    return reporting(report, lambda: _follow(link, source, config, report, stop, monitor, progress,
                                              on_delivered))


def _follow(
    link: Link, source: Any, config: EndpointConfig, report: TransferReport, stop: threading.Event,
    monitor: Trace | None, progress: ProgressFn | None,
    on_delivered: Callable[[int, float], None] | None,
) -> TransferReport:
    columns = sent_columns(config)
    records: list[Card] = source.poll(time.monotonic())
    link.discard_input()  # characters left over from an earlier, interrupted session
    station = Station(link, config, stop=stop, monitor=monitor)
    resume_at = sending_handshake(station, records, columns, config, getattr(source, "path", None))
    report.resume_at = resume_at
    k = marks_needed(columns)
    digest = DeckDigest()

    def trailer() -> list[Card]:
        for card in records:
            digest.update(sent_view(card, columns))
        return trailer_cards(digest, columns)

    keepalive = min(KEEPALIVE_S, config.timeout_s / 3)
    tx = StreamTransmitter(records, config.deck_session(), first_card=resume_at, keepalive_s=keepalive)
    feed = _FollowFeed(tx, source, records, trailer, k)
    ended = send_records(station, feed, k, report, progress, stall_s=math.inf,  # type: ignore[arg-type]
                          on_delivered=on_delivered)
    report.settings.update(deck_cards=len(records), trailer_cards=k, deck_ended=source.why_ended,
                           **resumed_from(resume_at))
    return await_verdict(station, config, report, digest, tx, ended)


class _FollowFeed:
    """The live feed of a followed deck: :attr:`total_cards` counts the trailer still to come, so a
    transfer cut before the deck ended is never taken for one whose trailer went through."""

    def __init__(self, tx: Any, source: Any, records: list[Card], trailer: Callable[[], list[Card]],
                 k: int) -> None:
        self._feed = _Feed(tx, source, records, trailer)
        self._k = k

    def __getattr__(self, name: str) -> Any:
        return getattr(self._feed, name)

    @property
    def total_cards(self) -> int:
        tx = self._feed.tx
        return tx.total_cards + (0 if self._feed.source.finished and tx.closing else self._k)
