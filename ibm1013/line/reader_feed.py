"""Receiving straight into a running computer's card reader (a Hercules sockdev 3505).

A 1013 at headquarters punched the cards it received, and an operator carried them to the reader.
Here the receiver hands each card to the reader itself, over the socket Hercules listens on
(:mod:`emulator.sockdev`), as soon as the card is safe in the journal *and* known to be a card of
the deck: the last cards of a transmission are its trailer (:mod:`ibm1013.str.trailer`), so card ``n``
goes to the reader when card ``n + k`` has arrived (``k``: the trailer's cards), and the trailer
never does.  At the end of a checked deck the connection is closed — for Hercules, the end of the
deck — and the journal deleted; no deck file is written.

Never a card twice.  Beside the journal a *feed count* (``JOURNAL.1013fed``, one number) says how
many cards the reader has been handed.  The count is written just *before* a card's bytes go into
the connection — into the kernel, which keeps it whatever becomes of the process — and reaches the
disk (``fdatasync``) right after.  So a receiver killed or crashed at any moment leaves a count that
says exactly which cards went, except in the few microseconds between the two writes, where the
count already names a card not yet written: that card is then missing from the reader, never doubled.
(The count is not made durable before the write on purpose: a process woken from a synchronous disk
write waits for a processor, and on a busy machine a kill in that wait lost a card.)  A power failure
of this machine between a card's write and its count reaching the disk can leave the count one card
short, and ``--resume`` would then hand that one card again.  A ``--resume`` connects again and feeds
from the card after the count; the first connection's cards are already in the reader (Hercules
ended that deck at the close), so the guest sees the deck in two parts, each card once.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections import deque

from emulator.card import Card
from emulator.errors import IbmError
from emulator.formats import get_format
from emulator.sockdev import ReaderError, SockdevReader
from ibm1013.line.journal import Journal, JournalError

FED_SUFFIX = ".1013fed"


def journal_name(host: str, port: int) -> str:
    """The deck path the journal of a sockdev output is named after (in the current directory)."""
    return f"sockdev-{host}-{port}".replace(":", "_")


class ReaderFeed:
    """Feeds a journal's deck cards to a :class:`SockdevReader`, each once, in order."""

    def __init__(self, reader: SockdevReader, fmt: str, code: str = "029") -> None:
        self.reader = reader
        self.fmt = fmt
        self.code = code
        self.fed = 0
        self._fd: int | None = None
        self._path = ""
        self._held_back = 0
        self._pending: deque[Card] = deque()

    # -- the feed count -----------------------------------------------------------------------
    def _open_count(self, journal: Journal) -> None:
        self._path = journal.path + FED_SUFFIX
        try:
            self._fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o666)
            text = os.pread(self._fd, 32, 0).decode("ascii", "replace").strip()
        except OSError as err:
            raise JournalError(f"{self._path}: cannot keep the feed count ({err.strerror})") from None
        if journal.count == 0:  # a fresh journal: any count left beside it is stale
            self._store(0)
        elif not text:
            raise JournalError(f"{journal.path} holds cards but {self._path} is missing, so which of "
                               "them the reader took is not known: no card is fed twice on a guess")
        elif text.isdigit():
            self.fed = int(text)
        else:
            raise JournalError(f"{self._path}: not a feed count ({text[:20]!r}); it says how many "
                               "cards the reader took, so it is not guessed: look into it")

    def _store(self, fed: int, *, durable: bool = True) -> None:
        """Write the count; ``durable``: and wait until it is on disk."""
        assert self._fd is not None
        os.pwrite(self._fd, b"%010d\n" % fed, 0)  # the kernel holds it from here, kill or crash
        if durable:
            os.fdatasync(self._fd)
        self.fed = fed

    # -- feeding ------------------------------------------------------------------------------
    def start(self, journal: Journal, held_back: int) -> None:
        """Connect to the reader and feed the deck cards the journal holds beyond the count; the
        last ``held_back`` cards wait (they may be the trailer)."""
        self._open_count(journal)
        self.reader.connect()
        self._held_back = held_back
        self._pending = deque(card for number, card in enumerate(journal.cards(), 1) if number > self.fed)
        self._drain()

    def card_safe(self, card: Card) -> None:
        """``card``, the journal's newest, is durable: feed the card it shows to be a deck card."""
        self._pending.append(card)
        self._drain()

    def _drain(self) -> None:
        while len(self._pending) > self._held_back:
            number = self.fed + 1
            out = io.BytesIO()
            try:
                get_format(self.fmt).write([self._pending[0]], out, code=self.code)
            except IbmError as err:
                raise JournalError(f"card {number} cannot go to the reader as {self.fmt} ({err})") from None
            self._pending.popleft()
            self._store(number, durable=False)  # counted first: a kill now costs this card, never repeats it
            self.reader.feed(out.getvalue(), f"card {number}")
            os.fdatasync(self._fd)  # type: ignore[arg-type]  # the count on disk before the next card

    def finish(self, journal: Journal) -> None:
        """The deck is checked: close the connection (for Hercules the end of the deck), delete the
        journal, then the count (a count left alone is stale beside a fresh journal)."""
        self.reader.close()
        journal.finish()
        self.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self._path)

    def close(self) -> None:
        self.reader.close()
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


__all__ = ["FED_SUFFIX", "ReaderError", "ReaderFeed", "journal_name"]
