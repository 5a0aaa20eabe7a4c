"""Following a deck file while a punch writes it (``tail -f`` for cards).

An emulator's card punch — SIMH's ``attach cdp FILE``, Hercules' 3525 — appends each card to its
file as it is punched.  :class:`PunchFollower` reads such a file as it grows and hands out each card
once *all* of its bytes are there, in any deck format we read:

* line formats (``text``, ``i1401``, ``i7094`` and their column-binary spellings): a card is whole at
  its newline;
* fixed-size records (``ebcdic`` 80 bytes, ``bin`` 160, ``rowbin`` 120): a card is whole at its last
  byte;
* ``cbn``: a card is whole when it has its 160 bytes or the next card's record mark has come (a short
  last card is taken when the deck ends).

A record still being written waits; half a card never comes out.  The deck ends at an end-of-file
card (``~EOF`` / the CBN EOF byte, not handed out), after ``idle_s`` seconds without the file
growing (counted from its first byte: a punch that has not begun is not idle), or when
:meth:`end` is called (the operator's Ctrl-C).  ASCII-art decks cannot be followed (a drawing
spans many lines and says nowhere that it is finished).
"""

from __future__ import annotations

import io
import os
import time
from collections.abc import Callable

from emulator.card import Card
from emulator.errors import IbmError
from emulator.formats import detect, get_format

_LINES = frozenset({"text", "i1401", "i7094", "i1401-cbn", "i7094-cbn"})
_FIXED = {"ebcdic": 80, "bin": 160, "rowbin": 120}
_CBN_RECORD = 160
READ_LIMIT = 1 << 20
"""Most bytes taken from the file in one poll."""


class FollowError(IbmError):
    """The file cannot be followed (gone, unreadable, a card that is no card)."""


def whole_prefix(fmt: str, data: bytes) -> int:
    """How many bytes at the start of ``data`` are whole cards of format ``fmt``."""
    if fmt in _LINES:
        return data.rfind(b"\n") + 1
    if fmt in _FIXED:
        return len(data) // _FIXED[fmt] * _FIXED[fmt]
    if fmt == "cbn":
        last = max((i for i in range(len(data) - 1, max(-1, len(data) - _CBN_RECORD - 2), -1)
                    if data[i] & 0x80), default=-1)
        if last < 0:
            return 0
        return len(data) if len(data) - last >= _CBN_RECORD else last
    raise FollowError(f"a {fmt} deck cannot be followed as it is written (give --format)")


class PunchFollower:
    """The cards of ``path`` as a punch appends them (see the module docstring).

    ``fmt``: a format name, or ``auto`` (decided from the first whole line or record: text unless the
    first bytes are a CBN or BIN card).  ``clock``: seconds (:func:`time.monotonic`)."""

    IDLE = "the file did not grow for {:g} s"
    """Why the deck ended, when it ended by ``idle_s`` (in the report: nothing confirms the end)."""

    def __init__(self, path: str, fmt: str = "auto", *, code: str = "029", idle_s: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.path, self.fmt, self.code, self.idle_s, self.clock = path, fmt, code, idle_s, clock
        self.cards_read = 0
        self.why_ended = ""
        self.left_over = b""
        """Bytes after the last whole card when the deck ended (not handed out)."""
        self._buf = b""
        self._offset = 0
        self._grew: float | None = None  # when the file last grew (None: the punch has not begun)
        self._ended = False

    @property
    def finished(self) -> bool:
        """The deck has ended: no more cards will come."""
        return self._ended

    def next_due(self) -> float | None:
        """Unknown: the punch says nothing ahead (poll)."""
        return None

    def play_on(self, now: float) -> None:
        """Nothing to do: the punch goes on whether or not the far end listens."""

    def end(self, why: str = "ended by the operator") -> None:
        """End the deck now (Ctrl-C): the whole cards already written still come out."""
        if not self._ended:
            self._ended, self.why_ended = True, why

    def poll(self, now: float | None = None) -> list[Card]:
        """Whole cards written since the last call."""
        now = self.clock() if now is None else now
        grown = self._read()
        if grown:
            self._grew = now
        cards = self._cards(final=False)
        if self._ended:
            return cards + self._cards(final=True)
        if self.idle_s is not None and self._grew is not None and now - self._grew >= self.idle_s:
            self.end(self.IDLE.format(self.idle_s))
            cards += self._cards(final=True)
        return cards

    def _read(self) -> bool:
        try:
            with open(self.path, "rb") as f:
                f.seek(self._offset)
                data = f.read(READ_LIMIT)
        except FileNotFoundError:
            return False  # the punch has not made it yet
        except OSError as err:
            raise FollowError(f"{self.path}: cannot read it ({err.strerror})") from None
        self._offset += len(data)
        self._buf += data
        return bool(data)

    def _format(self) -> str:
        """The format, once enough is written to tell: a CBN or BIN card's 160 bytes, or a line."""
        buf = self._buf
        if self.fmt == "auto" and buf and (
                self._ended or len(buf) >= 512 or (len(buf) >= _CBN_RECORD if buf[0] & 0x80
                                                   else b"\n" in buf)):
            self.fmt = detect(buf[:512]).name
        return self.fmt

    def _cards(self, *, final: bool) -> list[Card]:
        if self._ended and not final:
            return []
        if not self._buf or self._format() == "auto":
            return []
        n = whole_prefix(self.fmt, self._buf)
        if final and self.fmt == "cbn":
            n = len(self._buf)  # a short last CBN card is whole once the deck has ended
        chunk, self._buf = self._buf[:n], self._buf[n:]
        if final:
            self.left_over, self._buf = self._buf, b""
        cards = []
        try:
            for card in get_format(self.fmt).read(io.BytesIO(chunk), code=self.code, source=self.path):
                if getattr(card, "is_eof", False):
                    self.end("an end-of-file card")
                    self.left_over, self._buf = b"", b""
                    break
                self.cards_read += 1
                cards.append(card)
        except IbmError as err:
            raise FollowError(f"{self.path}: card {self.cards_read + 1}: {err}") from None
        return cards


def check_followable(path: str, fmt: str) -> None:
    """Refuse, before any work, a path that cannot be followed: a directory, a missing directory,
    or a format with no record boundary."""
    if os.path.isdir(path):
        raise FollowError(f"{path} is a directory, not a punch file")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise FollowError(f"{path}: no such directory {parent} (the punch could never write it)")
    if fmt not in ("auto", "cbn") and fmt not in _LINES and fmt not in _FIXED:
        raise FollowError(f"a {fmt} deck cannot be followed as it is written")
