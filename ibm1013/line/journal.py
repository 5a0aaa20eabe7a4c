"""The receiver's journal: every accepted card made durable before it is acknowledged.

A 1013 punched each card it received; once a card was punched it was safe, whatever happened to the
line.  Our receiver's "punch" is this journal, a file next to the output deck named ``DECK.1013part``:

* a 16-byte header ``IBM1013 JOURNAL1``;
* then one fixed-size record per accepted card, in order: card number (u32, 1-based), the 80 column
  words (160 bytes, big-endian) and a CRC-32 of the 164 bytes before it — 168 bytes in all.

:meth:`Journal.append` writes a record *before* the receiver sends the acknowledgement, and the
write returns only once the record is on disk (the journal is opened ``O_DSYNC``: each write is a
synchronised data write, as a write followed by ``fdatasync``, the file's new length included), so a
card the sender has seen acknowledged is on disk.  One system call per card (a ``pwrite`` of the
fixed-size record at its place, ``16 + 168 × (number − 1)``): a card costs what the
disk's synchronous write costs.  The file is grown ahead of the cards by records of zeros in one
synchronous write (8 records first, then as many as it holds, up to :data:`AHEAD`: a small deck
needs no room it will not use), so that a card's write changes neither the file's length
nor its blocks and the disk has only the data to make durable: on an ext4 disk that took a
synchronous write from 0.19 to 0.13 ms (docs/speed.md).  A run of zeros after the last card is
space written ahead, not a torn card.  The receiver keeps what it needs after the session — the
digest of every card, the digest of the deck without its trailer and the trailer's cards themselves
— as the cards arrive, so it need not read the journal back to check the deck.  A ``kill -9`` or a
power cut in the middle of an append leaves a short or garbled last record; :meth:`Journal.open`
checks every record's length, number and CRC, keeps the longest valid prefix and cuts off the torn
tail (a header torn while the journal was being created counts as an empty journal).  When the
deck is complete :meth:`Journal.publish` writes the output deck atomically (temporary file,
``fsync``, rename, via :func:`emulator.atomic.atomic_output`) and only then deletes the journal; it
reads the journal's fixed-size records back in bulk, as deck arrays, not card by card.

One output, one receiver: :meth:`Journal.open` takes an exclusive ``flock`` on the journal and
holds it until the journal is closed, so a second receiver on the same output (even with
``--resume``) is refused at once instead of writing into the same journal.  It also refuses an
output that is a directory or lies in a missing directory, before any card is received.

A journal deleted (or replaced by another file) while the receiver runs is *lost*: the lock and the
writes then go to a file no one can find, and a card written there is no more safe than a card
never punched.  So after each card's write :meth:`Journal.append_words` checks that the path still
names the file it wrote (one ``stat``), and :meth:`Journal.publish` checks again before reading the
cards back; a lost journal is a :class:`JournalLost`, its cards count as none held
(:attr:`Journal.held`), and the file now at the path, if any, is never deleted as ours.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import struct
import zlib
from collections import deque
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, BinaryIO

from emulator.atomic import atomic_output
from emulator.card import Card
from emulator.errors import IbmError
from emulator.words import counted
from ibm1013.str.trailer import DeckDigest, card_bytes, card_of_bytes

if TYPE_CHECKING:
    import numpy as np

MAGIC = b"IBM1013 JOURNAL1"
_HEAD = struct.Struct(">I80H")
_NUMBER = struct.Struct(">I")
RECORD_SIZE = _HEAD.size + 4
_RECORD = [("number", ">u4"), ("words", ">u2", (80,)), ("crc", ">u4")]
"""A record as a numpy dtype (for reading records back in bulk)."""
SUFFIX = ".1013part"
AHEAD = 512
"""Most records of zeros the journal is grown by at a time (86 KB): one synchronous write every 512
cards, once the journal holds that many."""
FIRST_AHEAD = 8
"""Records of zeros the journal is first grown by (1,344 bytes); each growth after takes as many as
the journal holds, up to :data:`AHEAD`."""


class JournalError(IbmError):
    """The journal cannot be created, read or published."""


class JournalLost(JournalError):
    """The journal was deleted, or replaced by another file, while the receiver ran: the cards it
    held are gone (see the module's docstring)."""


def journal_path(deck_path: str) -> str:
    return deck_path + SUFFIX


class Journal:
    """Durable, append-only list of the cards received so far for one output deck.

    Besides the cards on disk it keeps, up to date as cards are added: ``count``, the last card,
    ``tail`` (the last ``held_back`` cards: where a deck's trailer is) and ``deck_digest`` (of every
    card but those in ``tail``); ``digest`` (of every card) and the cards themselves are made from
    these when asked.
    """

    def __init__(self, path: str, stream: BinaryIO, held_back: int = 0) -> None:
        self.path = path
        self._stream = stream
        self._fd = stream.fileno()
        self.count = 0
        self.deck_digest = DeckDigest()
        self._tail_words: deque[bytes] = deque(maxlen=held_back)  # the tail's cards, as card_bytes
        self._last_words: bytes | None = None
        self.torn_bytes = 0
        self._grown_to = len(MAGIC)  # the file's length: records of zeros past the cards, if any
        own = os.fstat(self._fd)
        self._identity = (own.st_dev, own.st_ino)
        self.lost: str | None = None  # why the journal is lost (see check_kept), once it is

    @property
    def held(self) -> int:
        """The cards this end still holds: ``count``, or none once the journal is lost."""
        return 0 if self.lost is not None else self.count

    def check_kept(self) -> None:
        """Raise :class:`JournalLost` unless the journal's path still names the file this journal
        writes (it was deleted, or another file put in its place, while the receiver ran)."""
        if self.lost is None:
            try:
                now = os.stat(self.path)
            except FileNotFoundError:
                self.lost = "deleted"
            else:
                if (now.st_dev, now.st_ino) != self._identity:
                    self.lost = "replaced by another file"
        if self.lost is not None:
            held = counted(self.count, "card") + (" it held is" if self.count == 1 else " it held are")
            raise JournalLost(f"{self.path}: the journal was {self.lost} while the deck was being "
                              f"received: the {held} lost with it")

    def _note(self, words: bytes) -> None:
        """Count the card whose :func:`~ibm1013.str.trailer.card_bytes` are ``words``, now durable, in
        the figures kept (see the class's docstring)."""
        self.count += 1
        self._last_words = words
        tail = self._tail_words
        if len(tail) == tail.maxlen:  # the oldest card of the tail leaves it for the deck
            self.deck_digest.update_words(tail[0] if tail else words)
        tail.append(words)

    @property
    def digest(self) -> DeckDigest:
        """The digest of every durable card: the deck's, then the tail's cards (so a card costs one
        SHA-256 update as it arrives, not two)."""
        digest = self.deck_digest.copy()
        for words in self._tail_words:
            digest.update_words(words)
        return digest

    @property
    def last_card(self) -> Card | None:
        """The last durable card (``None`` before the first)."""
        return None if self._last_words is None else card_of_bytes(self._last_words)

    @property
    def tail(self) -> list[Card]:
        """The last ``held_back`` durable cards, first to last."""
        return [card_of_bytes(words) for words in self._tail_words]

    # -- opening ------------------------------------------------------------------------------
    @classmethod
    def open(cls, deck_path: str, *, resume: bool, held_back: int = 0) -> Journal:
        """Open and lock the journal for ``deck_path``, keeping its last ``held_back`` cards apart
        (the trailer's cards: see the class's docstring).

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
                return cls(path, stream, held_back)
            return cls._recover(path, stream, held_back)
        except BaseException:
            stream.close()
            raise

    @classmethod
    def _recover(cls, path: str, stream: BinaryIO, held_back: int) -> Journal:
        journal = cls(path, stream, held_back)
        head = stream.read(len(MAGIC))
        if head != MAGIC:
            if not MAGIC.startswith(head):
                raise JournalError(f"{path}: not an ibm1013 journal")
            stream.seek(0)  # torn while it was being created: start it afresh
            stream.truncate(0)
            stream.write(MAGIC)
            _sync(stream)
            return journal
        for card in _records(stream, path):
            journal._note(card_bytes(card))
        good_end = len(MAGIC) + journal.count * RECORD_SIZE
        size = stream.seek(0, os.SEEK_END)
        if size > good_end:  # space written ahead, or a torn or garbled tail from a crash: drop it
            journal.torn_bytes = _written(stream, good_end, size)
            stream.truncate(good_end)
            _sync(stream)
        stream.seek(good_end)
        journal._grown_to = good_end
        return journal

    # -- use ----------------------------------------------------------------------------------
    def append(self, card: Card) -> None:
        """Make ``card`` durable as card ``count + 1``; returns only once it is on disk."""
        self.append_words(card_bytes(card))

    def append_words(self, words: bytes) -> None:
        """Make the card whose :func:`~ibm1013.str.trailer.card_bytes` are ``words`` durable as card
        ``count + 1``; returns only once it is on disk.

        One ``pwrite`` of the whole fixed-size record at its own place (the journal is ``O_DSYNC``:
        that write is the sync); the words serve the record and the digest, and no :class:`Card` is
        built (the receiving end's per-card path: ``CardAccepted.words``)."""
        head = _NUMBER.pack(self.count + 1) + words
        record = head + zlib.crc32(head).to_bytes(4, "big")
        offset = len(MAGIC) + self.count * RECORD_SIZE
        try:
            if offset + RECORD_SIZE > self._grown_to:
                self._grow(offset)
            done = os.pwrite(self._fd, record, offset)
            while done < RECORD_SIZE:  # a short write (hardly ever): the rest, after it
                done += os.pwrite(self._fd, record[done:], offset + done)
        except OSError as err:
            raise JournalError(f"{self.path}: cannot write card {self.count + 1} ({err.strerror})") from None
        self._note(words)
        self.check_kept()  # the card went into the file at the journal's path, not into a lost one

    def _grow(self, offset: int) -> None:
        """Write records of zeros at ``offset`` (the end of the cards), synchronously: as many as the
        journal holds cards, from :data:`FIRST_AHEAD` up to :data:`AHEAD`, so that a small deck on a
        small disk does not fail for room it would never use.  A disk too full to grow the journal
        ahead is no error here: the card's own write then grows it, and says so if it cannot."""
        zeros = bytes(min(AHEAD, max(FIRST_AHEAD, self.count)) * RECORD_SIZE)
        done = 0
        try:
            while done < len(zeros):
                done += os.pwrite(self._fd, zeros[done:], offset + done)
        except OSError as err:
            if err.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
                raise
            return
        self._grown_to = offset + len(zeros)

    def start_over(self, cards: Iterable[Card] = ()) -> None:
        """Drop every card and hold ``cards`` instead (a live stream that started over: a restarted
        player's game deck replaces the stream this end held); durable when it returns."""
        try:
            self._stream.seek(len(MAGIC))
            self._stream.truncate()
            _sync(self._stream)
            self._grown_to = len(MAGIC)
        except OSError as err:
            raise JournalError(f"{self.path}: cannot start the journal over ({err.strerror})") from None
        self.count, self.deck_digest, self._last_words = 0, DeckDigest(), None
        self._tail_words.clear()
        for card in cards:
            self.append(card)

    def cards(self) -> Iterator[Card]:
        """Every durable card, first to last (read back from disk, never all in memory)."""
        with open(self.path, "rb") as stream:
            stream.seek(len(MAGIC))
            for i, card in enumerate(_records(stream, self.path)):
                if i >= self.count:
                    break
                yield card

    def arrays(self, count: int) -> Iterator[np.ndarray]:
        """The first ``count`` durable cards as deck arrays (:mod:`emulator.deck`), a chunk of
        fixed-size records read at a time; a record that no longer checks is a :class:`JournalError`."""
        import numpy as np

        from emulator.deck import CHUNK_CARDS

        with open(self.path, "rb") as stream:
            stream.seek(len(MAGIC))
            for first in range(0, count, CHUNK_CARDS):
                n = min(CHUNK_CARDS, count - first)
                raw = stream.read(n * RECORD_SIZE)
                rows = np.frombuffer(raw, dtype=_RECORD, count=len(raw) // RECORD_SIZE)
                if len(rows) < n or not _valid(raw, rows, first):
                    raise JournalError(f"{self.path}: the records of cards {first + 1} to {first + n} "
                                       "no longer check (was the journal changed?)")
                yield rows["words"].astype(np.uint16)

    def publish(self, deck_path: str, fmt: str, *, code: str = "029", drop_last: int = 0) -> None:
        """Write the journal's cards, less the last ``drop_last`` (the trailer), to ``deck_path``
        atomically, then delete the journal."""
        from emulator.formats import write_deck_arrays

        self.check_kept()
        with atomic_output(deck_path) as out:
            write_deck_arrays(self.arrays(self.count - drop_last), out, fmt, code=code)
        self.finish()

    def finish(self) -> None:
        """The deck is where it belongs (published, or fed to a reader): delete the journal."""
        self._unlink()  # still holding the lock, so no second receiver can pick the journal up
        self.close()
        _sync_dir(self.path)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._stream.close()

    def close_or_discard(self) -> None:
        """Close; if no card was ever made durable, delete the (empty) journal too."""
        if self.count == 0 and not self._stream.closed:
            self._unlink()
        self.close()

    def _unlink(self) -> None:
        """Delete the journal, unless it is lost: the file at its path then is another's."""
        if self.lost is not None:
            return
        with contextlib.suppress(FileNotFoundError):
            now = os.stat(self.path)
            if (now.st_dev, now.st_ino) == self._identity:
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
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_DSYNC, 0o666)
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


def cards_in(path: str) -> int:
    """The cards the journal at ``path`` holds (0 when there is none), counted from the file without
    opening it as a journal (no lock: a receiver may be writing it): records numbered 1, 2, … each
    with its CRC; the space written ahead and a torn last record do not count."""
    try:
        with open(path, "rb") as stream:
            if stream.read(len(MAGIC)) != MAGIC:
                return 0
            return sum(1 for _ in _records(stream, path))
    except FileNotFoundError:
        return 0


def _written(stream: BinaryIO, start: int, end: int, chunk: int = 1 << 16) -> int:
    """The bytes from ``start`` (the end of the last whole card) up to the last one before ``end``
    that is not zero: what a crash tore, as opposed to space written ahead.  Read backwards a chunk
    at a time, so a journal torn early costs no copy of all that follows."""
    while end > start:
        size = min(chunk, end - start)
        stream.seek(end - size)
        data = stream.read(size).rstrip(b"\0")
        if data:
            return end - size + len(data) - start
        end -= size
    return 0


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


def _valid(raw: bytes, rows: np.ndarray, first: int) -> bool:
    """Whether ``rows`` (records of ``raw``) are the cards after card ``first``, each with its CRC."""
    import numpy as np

    view = memoryview(raw)
    return bool((rows["number"] == np.arange(first + 1, first + len(rows) + 1)).all()
                and (rows["words"] <= 0xFFF).all()
                and all(zlib.crc32(view[i * RECORD_SIZE:(i + 1) * RECORD_SIZE - 4]) == crc
                        for i, crc in enumerate(rows["crc"].tolist())))


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
