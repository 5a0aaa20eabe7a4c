"""The receiver's journal: every accepted card made durable before it is acknowledged.

A 1013 punched each card it received; once a card was punched it was safe, whatever happened to the
line.  Our receiver's "punch" is this journal, a file next to the output deck named ``DECK.1013part``:

* a 16-byte header ``IBM1013 JOURNAL1``;
* then one fixed-size record per accepted card, in order: card number (u32, 1-based), the 80 column
  words (160 bytes, big-endian) and a CRC-32 of the 164 bytes before it — 168 bytes in all.

:meth:`Journal.append` writes a record, flushes it and ``fsync``-s the file *before* the receiver
sends the acknowledgement, so a card the sender has seen acknowledged is on disk.  A ``kill -9`` or a
power cut in the middle of an append leaves a short or garbled last record; :meth:`Journal.open`
checks every record's length, number and CRC, keeps the longest valid prefix and cuts off the torn
tail (a header torn while the journal was being created counts as an empty journal).  When the
deck is complete :meth:`Journal.publish` writes the output deck atomically (temporary file,
``fsync``, rename, via :func:`emulator.atomic.atomic_output`) and only then deletes the journal.

One output, one receiver: :meth:`Journal.open` takes an exclusive ``flock`` on the journal and
holds it until the journal is closed, so a second receiver on the same output (even with
``--resume``) is refused at once instead of writing into the same journal.  It also refuses an
output that is a directory or lies in a missing directory, before any card is received.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import struct
import zlib
from collections.abc import Iterator
from typing import BinaryIO

from emulator.atomic import atomic_output
from emulator.card import Card
from emulator.errors import IbmError
from ibm1013.trailer import DeckDigest

MAGIC = b"IBM1013 JOURNAL1"
_HEAD = struct.Struct(">I80H")
RECORD_SIZE = _HEAD.size + 4
SUFFIX = ".1013part"


class JournalError(IbmError):
    """The journal cannot be created, read or published."""


def journal_path(deck_path: str) -> str:
    return deck_path + SUFFIX


class Journal:
    """Durable, append-only list of the cards received so far for one output deck."""

    def __init__(
        self, path: str, stream: BinaryIO, count: int, digest: DeckDigest, last: Card | None
    ) -> None:
        self.path = path
        self._stream = stream
        self.count = count
        self.digest = digest
        self.last_card = last
        self.torn_bytes = 0

    # -- opening ------------------------------------------------------------------------------
    @classmethod
    def open(cls, deck_path: str, *, resume: bool) -> Journal:
        """Open and lock the journal for ``deck_path``.

        Without ``resume`` an existing journal is an error (it holds a transfer that did not finish);
        with ``resume`` it is read, its torn tail (if any) cut off, and appending continues after it.
        A journal another process holds open is refused (:class:`JournalError`), as is an output
        path that cannot be written.
        """
        check_output(deck_path)
        path = journal_path(deck_path)
        stream = _open_locked(path)
        try:
            exists = os.fstat(stream.fileno()).st_size > 0
            if exists and not resume:
                raise JournalError(
                    f"{path} holds an unfinished transfer: receive with --resume to continue it, "
                    "or delete it to start over"
                )
            if not exists:
                stream.write(MAGIC)
                _sync(stream)
                _sync_dir(path)
                return cls(path, stream, 0, DeckDigest(), None)
            return cls._recover(path, stream)
        except BaseException:
            stream.close()
            raise

    @classmethod
    def _recover(cls, path: str, stream: BinaryIO) -> Journal:
        head = stream.read(len(MAGIC))
        if head != MAGIC:
            if not MAGIC.startswith(head):
                raise JournalError(f"{path}: not an ibm1013 journal")
            stream.seek(0)  # torn while it was being created: start it afresh
            stream.truncate(0)
            stream.write(MAGIC)
            _sync(stream)
            return cls(path, stream, 0, DeckDigest(), None)
        digest, last, count = DeckDigest(), None, 0
        good_end = len(MAGIC)
        for card in _records(stream, path):
            digest.update(card)
            last, count = card, count + 1
            good_end += RECORD_SIZE
        size = stream.seek(0, os.SEEK_END)
        journal = cls(path, stream, count, digest, last)
        if size > good_end:  # a torn or garbled tail from a crash mid-append: drop it
            journal.torn_bytes = size - good_end
            stream.truncate(good_end)
            _sync(stream)
        stream.seek(good_end)
        return journal

    # -- use ----------------------------------------------------------------------------------
    def append(self, card: Card) -> None:
        """Make ``card`` durable as card ``count + 1``; returns only once it is on disk."""
        head = _HEAD.pack(self.count + 1, *card.columns)
        try:
            self._stream.write(head + zlib.crc32(head).to_bytes(4, "big"))
            _sync(self._stream)
        except OSError as err:
            raise JournalError(f"{self.path}: cannot write card {self.count + 1} ({err.strerror})") from None
        self.count += 1
        self.digest.update(card)
        self.last_card = card

    def cards(self) -> Iterator[Card]:
        """Every durable card, first to last (read back from disk, never all in memory)."""
        with open(self.path, "rb") as stream:
            stream.seek(len(MAGIC))
            for i, card in enumerate(_records(stream, self.path)):
                if i >= self.count:
                    break
                yield card

    def publish(self, deck_path: str, fmt: str, *, code: str = "029", drop_last: int = 0) -> None:
        """Write the journal's cards, less the last ``drop_last`` (the trailer), to ``deck_path``
        atomically, then delete the journal."""
        from emulator.formats import write_deck

        keep = self.count - drop_last
        cards = (c for i, c in enumerate(self.cards()) if i < keep)
        with atomic_output(deck_path) as out:
            write_deck(cards, out, fmt, code=code)
        self._unlink()  # still holding the lock, so no second receiver can pick the journal up
        self.close()
        _sync_dir(deck_path)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._stream.close()

    def close_or_discard(self) -> None:
        """Close; if no card was ever made durable, delete the (empty) journal too."""
        if self.count == 0 and not self._stream.closed:
            self._unlink()
        self.close()

    def _unlink(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)


def check_output(deck_path: str) -> None:
    """Refuse (:class:`JournalError`) an output deck that is a directory or whose directory is missing
    or not one; whether it can be written is found when the journal is created beside it."""
    if os.path.isdir(deck_path):
        raise JournalError(f"{deck_path}: is a directory (give a file name)")
    directory = os.path.dirname(os.path.abspath(deck_path))
    if not os.path.isdir(directory):
        raise JournalError(f"{deck_path}: no such directory {directory}")


def _open_locked(path: str) -> BinaryIO:
    """Open (creating it empty if need be) and exclusively lock ``path``; refuse if it is locked."""
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as err:
            raise JournalError(f"{path}: cannot create the journal ({err.strerror})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            os.close(fd)
            if err.errno in (errno.EWOULDBLOCK, errno.EACCES):
                raise JournalError(
                    f"{path} is in use: another receive is writing this deck (one output, one "
                    "receiver; wait for it or give another -o)"
                ) from None
            raise JournalError(f"{path}: cannot lock the journal ({err.strerror})") from None
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:  # not a journal its last holder published and deleted while we waited for the lock
            return os.fdopen(fd, "r+b")
        os.close(fd)


def _records(stream: BinaryIO, path: str) -> Iterator[Card]:
    """Valid records from the current position; stops at the first short, misnumbered or bad one."""
    number = 0
    while True:
        raw = stream.read(RECORD_SIZE)
        if len(raw) < RECORD_SIZE:
            return
        head, crc = raw[:-4], int.from_bytes(raw[-4:], "big")
        if zlib.crc32(head) != crc:
            return
        fields = _HEAD.unpack(head)
        if fields[0] != number + 1 or any(w > 0xFFF for w in fields[1:]):
            return
        number += 1
        yield Card(fields[1:])


def _sync(stream: BinaryIO) -> None:
    stream.flush()
    os.fsync(stream.fileno())


def _sync_dir(path: str) -> None:
    """fsync the directory holding ``path`` so a new or renamed entry survives a crash."""
    directory = os.path.dirname(os.path.abspath(path))
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
