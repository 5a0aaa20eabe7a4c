"""The raw streams :func:`emulator.formats.open_deck` reads a deck through: :class:`Peeked` gives
back the first bytes, looked at to detect the format, before the rest; :class:`Watched` shows every
byte of a deck detected as text to the other text formats' readings
(:mod:`emulator.formats.ambiguity`).  Apart from the package top: ``cards decode`` of a small deck
reads no stream through them, and two subclasses of :class:`io.RawIOBase` (an abstract base class)
cost its start-up more than the rest of the package top.
"""

from __future__ import annotations

import io

TYPE_CHECKING = False  # typing is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, BinaryIO


class Peeked(io.RawIOBase):
    """A raw stream that replays ``head`` and then reads on from ``rest`` (for non-seekable input)."""

    def __init__(self, head: bytes, rest: BinaryIO) -> None:
        self._head = memoryview(head)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = self._rest.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


class Watched(io.RawIOBase):
    """A raw stream that shows every byte it reads to an
    :class:`~emulator.formats.ambiguity.OtherReadings` and, at the end of the file, tells ``told``
    what it found, if anything."""

    def __init__(self, raw: io.RawIOBase, readings: Any, told: Callable[[str], None]) -> None:
        self._raw, self._readings, self._told = raw, readings, told

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = self._raw.readinto(buffer) or 0
        if n:
            self._readings.feed(bytes(memoryview(buffer)[:n]))
        elif self._readings is not None:
            verdict, self._readings = self._readings.verdict(), None
            if verdict:
                self._told(verdict)
        return n

    @property
    def watching(self) -> bool:
        """Some other reading is still possible: the rest of the file may yet show a column it
        punches otherwise."""
        return self._readings is not None and bool(self._readings.watching)
