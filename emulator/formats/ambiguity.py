"""A text file that more than one deck format reads, some of its characters punched otherwise.

``detect`` takes any file that is no CBN, BIN or card drawing for a SIMH 4.x text deck, but simh
3.8's ``i1401`` and ``i7094`` decks are text files too: one line a card, one character a column.
Most characters punch alike in all of them (letters, digits, ``. , - / $ *``); others do not.  The
029 punches ``(`` as 12-5-8, the 1401's FORTRAN set as 0-4-8; the 029 takes ``{`` for 12-0, the
1401 for 0-7-8 (its plus zero is ``?``).  A 1401 deck read as 029 text keeps its length and
changes its data: an amount ``12?`` (+120) would reach the 1401 as another number.

So while a deck detected as text is read, :class:`OtherReadings` watches its bytes for each format
with a fixed character table (:attr:`~emulator.formats.DeckFormat.characters`).  At the end of the
file, if such a format reads every line of it too (ASCII characters of its table, at most 80 a line)
and punches some column otherwise than the text deck in the code asked for, the reader is told, in
one line naming the first such column and the formats: the deck is read as SIMH 4.x text, as
documented, and ``--format`` names the other reading.  (It is not refused: SIMH 4.x text is the
format of nearly every text deck, this project's own among them, and most of those hold a ``(`` or a
``+`` somewhere.)  A deck whose characters punch alike in every format it can be is read as text
without a word: it is the same deck whichever it is.  A deck with a line starting with ``~`` (SIMH
4.x's end-of-file and ``~raw`` cards) is a SIMH 4.x text deck: simh 3.8 has no such lines.

All of this is bytes through ``bytes.translate`` tables, block by block, with no numpy: a deck of any
size streams past, and a file no other format can read stops being watched at its first such line.
"""

from __future__ import annotations

import functools
import importlib

from emulator.card import COLUMNS, word_to_punches
from emulator.codes import get_code

CHARACTER_FORMAT_MODULES = ("emulator.formats.i1401", "emulator.formats.i7094")
"""The modules whose formats read a text file through a fixed character table (simh 3.8's), named
here so that a small deck can be checked without importing every format (and numpy);
tests/test_deck_reading.py checks that they are all the registry holds."""


@functools.cache
def character_formats() -> dict[str, dict[str, int]]:
    """Each format with a character table: its name and the punches of each character."""
    found = {}
    for module in map(importlib.import_module, CHARACTER_FORMAT_MODULES):
        for value in vars(module).values():  # its registered formats (a DeckFormat has .characters)
            if getattr(value, "characters", None) and isinstance(getattr(value, "name", None), str):
                found[value.name] = dict(value.characters)
    return found


def other_reading(data: bytes, code: str | None) -> str | None:
    """For the whole text deck ``data``: what :meth:`OtherReadings.verdict` tells, or None."""
    readings = OtherReadings(code, character_formats())
    readings.feed(data)
    return readings.verdict()


class _Reading:
    """One other format's view of the deck so far (a plain class: every command decoding a text
    deck checks it, and :mod:`dataclasses` is slow to import)."""

    def __init__(self, name: str, characters: dict[str, int], readable: bytes, alike: bytes) -> None:
        self.name = name
        self.characters = characters
        self.readable = readable
        """The bytes this format reads (and the newline): any other byte rules it out."""
        self.alike = alike
        """The readable bytes it punches as the text deck does."""
        self.possible = True
        self.first: tuple[int, int, str] | None = None
        """Card, column and character of the first column punched otherwise."""


class OtherReadings:
    """The other formats a text deck read in ``code`` could be, and where they would punch otherwise.

    :meth:`feed` every byte of the file, in order; :meth:`verdict` at its end says what to tell the
    user, if the deck can be several things.
    """

    def __init__(self, code: str | None, formats: dict[str, dict[str, int]]) -> None:
        self.code = get_code(code or "029")
        self.readings = [self._reading(name, table) for name, table in formats.items()]
        self._carry = b""
        self._lines = 0

    def _reading(self, name: str, characters: dict[str, int]) -> _Reading:
        encoding, fold = self.code.encoding, self.code.fold_case
        readable = bytes(sorted({ord(ch) for ch in characters if ord(ch) < 128} | {10}))
        alike = bytes(b for b in readable if b == 10 or encoding.get(
            chr(b).upper() if fold else chr(b)) == characters[chr(b)])
        return _Reading(name, characters, readable, alike)

    @property
    def watching(self) -> bool:
        return any(r.possible for r in self.readings)

    def feed(self, data: bytes) -> None:
        """The next bytes of the file."""
        if not self.watching:
            return
        block = self._carry + data
        cut = block.rfind(b"\n") + 1
        self._carry = block[cut:]
        if cut:
            self._whole_lines(block[:cut])
        if len(self._carry) > COLUMNS + 1:  # a line longer than a card: no other format reads it
            self._rule_out()

    def verdict(self) -> str | None:
        """At the end of the file: what to tell about a deck that a format still possible punches
        otherwise, or None."""
        if self._carry and self.watching:
            self._whole_lines(self._carry + b"\n")
        self._carry = b""
        otherwise = [r for r in self.readings if r.possible and r.first is not None]
        if not otherwise:
            return None
        card, column, ch = min(r.first for r in otherwise if r.first is not None)
        text_word = self.code.encoding.get(ch.upper() if self.code.fold_case else ch)
        by_punches: dict[str, list[str]] = {}
        for r in otherwise:
            by_punches.setdefault(_punches(r.characters.get(ch)), []).append(r.name)
        punched = ", ".join(f"{holes} in {' or '.join(names)}" for holes, names in by_punches.items())
        names = [r.name for r in otherwise]
        verb = "read" if len(names) > 1 else "reads"
        return (f"read as a SIMH 4.x text deck in code {self.code.name}, but simh 3.8's "
                f"{' and '.join(names)} {verb} it otherwise (card {card}, column {column}: {ch!r} is "
                f"{_punches(text_word)} as text, {punched}): name the format, --format text or "
                + " or ".join(f"--format {name}" for name in names))

    def _rule_out(self) -> None:
        for reading in self.readings:
            reading.possible = False

    def _whole_lines(self, block: bytes) -> None:
        """Lines each ending in a newline.

        A deck of a million cards streams through here, so the usual block costs one
        ``bytes.translate`` (each byte marked: read by every format still possible, a newline, or
        not) and a few searches of the marks; only a block with a byte some format cannot read is
        looked at line by line."""
        first_card = self._lines + 1
        possible = [r for r in self.readings if r.possible]
        if any(r.first is None for r in possible):  # line numbers only name a first column punched otherwise
            self._lines += block.count(b"\n")
        if b"\r" in block:
            block = block.replace(b"\r\n", b"\n")  # the simh 3.8 readers drop a CR before the newline
        marks = block.translate(_marks(tuple(r.readable for r in possible)))
        plain = _OTHER not in marks  # every byte read by every format still possible
        too_long = _LONG in marks if plain else max(map(len, block.split(b"\n"))) > COLUMNS
        if too_long or (b"~" in block and (block.startswith(b"~") or b"\n~" in block)):
            self._rule_out()
            return
        alike = _common(tuple(r.alike for r in possible if r.first is None))
        differs = alike is not None and bool(block.translate(None, alike))
        for reading in possible:
            if not plain and block.translate(None, reading.readable):
                reading.possible = False
            elif reading.first is None and differs and block.translate(None, reading.alike):
                reading.first = _position(block, reading.alike, first_card)


_OTHER = b"\x02"
_LONG = b"\x00" * (COLUMNS + 1)
"""In a block's marks (:func:`_marks`): a byte some format cannot read; a line longer than a card
(81 bytes in a row that every format reads and that are no newline)."""


@functools.cache
def _marks(readables: tuple[bytes, ...]) -> bytes:
    """A ``bytes.translate`` table: 1 for the newline, 0 for a byte every one of ``readables``
    holds, 2 for any other."""
    table = bytearray(b"\x02" * 256)
    for b in range(256):
        if all(b in r for r in readables):
            table[b] = 0
    table[10] = 1
    return bytes(table)


@functools.cache
def _common(alikes: tuple[bytes, ...]) -> bytes | None:
    """The bytes in every one of ``alikes`` (None for none at all): a block of only these bytes shows
    no column punched otherwise in any of them."""
    if not alikes:
        return None
    return bytes(b for b in range(256) if all(b in a for a in alikes))


def _punches(word: int | None) -> str:
    return "no punch" if word is None else word_to_punches(word) or "blank"


def _position(block: bytes, alike: bytes, first_card: int) -> tuple[int, int, str]:
    """Card, column and character of the first byte of ``block`` not in ``alike``."""
    at = min(block.find(bytes([b])) for b in set(block.translate(None, alike)))
    line_start = block.rfind(b"\n", 0, at) + 1
    return first_card + block.count(b"\n", 0, at), at - line_start + 1, chr(block[at])
