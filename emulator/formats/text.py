"""SIMH 4.x ``TEXT`` decks: one line per card, characters through a keypunch code.

The rules of ``sim_card`` (``docs/cards.md`` §3):

* Each line is a card, column 1 first.  CR and NUL bytes are ignored, a TAB moves to the next
  multiple of 8 columns, characters after column 80 are dropped (pass a :class:`LongLines` to
  refuse such lines or count them instead), a short line leaves the rest of the card blank.  The
  file is UTF-8 (plain ASCII for SIMH); each character goes through the chosen code (``029`` by
  default); one the code lacks is an error naming card and column, or with ``lenient`` the code's
  substitute, counted in ``substitutions``.  A leading byte-order mark is skipped.
* Lines starting with ``~`` (any case after it) are special:

  - ``~`` alone, or followed only by blanks, is an **end-of-file card**
    (:data:`~emulator.card.EOF_CARD` in our card streams);
  - ``~raw`` followed by 4-digit octal column words (row 12 high, ``A`` = ``4400``); missing columns
    are blank;
  - ``~eor`` is 7-8-9 in column 1, ``~eof`` 6-7-9, ``~eoi`` 6-7-8-9.

  Any other line starting with ``~`` is text (SIMH compares only the three letters after ``~``).
* The writer trims trailing blanks and writes a blank card as one space.  A card that is not all
  printable text in the code (or whose text would read back as a ``~`` line) is written as ``~eor``/
  ``~eof``/``~eoi`` when it is exactly that card, otherwise as ``~raw`` with its columns up to the
  last punched one (a reader takes the missing columns as blank); the EOF card is ``~`` + CR LF
  (:data:`EOF_LINE`: with a bare LF SIMH 4.x loses the card after it).  With ``raw=False`` (plain
  text, used by ``ibm1013 cards decode``) such a card is an error instead, or with ``lenient`` its
  unknown columns become the code's substitute.

Reading (here) and writing (:mod:`emulator.formats._text_write`) run over whole chunks with numpy
(:mod:`emulator.deck`); only lines read that need care (TAB, ``~`` other than EOF and ``~raw``,
characters beyond ASCII or outside the code) go one by one through
:meth:`~emulator.codes.Code.encode`.  Text has no reliable signature, so it is what ``detect`` falls
back to.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, BinaryIO

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from emulator.card import COLUMNS
from emulator.codes import Substitutions, get_code
from emulator.deck import CHUNK_CARDS, EOF_FLAG, WORD_MASK, byte_encoder
from emulator.errors import CardError, FormatError
from emulator.formats import DeckFormat, register
from emulator.formats._records import CHUNK_BYTES
from emulator.formats._text_write import _NL, _TILDE, SPECIAL_CARDS, write_arrays
from emulator.formats._text_write import EOF_LINE as EOF_LINE  # the format's names, here as before
from emulator.formats._text_write import encode_array as encode_array

if TYPE_CHECKING:
    from numpy.typing import NDArray

MAX_LINE = 1 << 16
"""Longer lines are cut here while reading (only the first 80 columns count anyway)."""

_TAB = 9


@dataclass
class LongLines:
    """What to do with a text line longer than a card, when dropping its tail silently will not do.

    ``truncate`` False: such a line is a :class:`~emulator.errors.FormatError` naming the file and
    line (``hint`` is added to its message).  True: it is cut at column 80 and counted: ``count``
    lines in all, the first few line numbers in ``first``.  ``~`` control lines are never long.
    """

    truncate: bool = False
    hint: str = ""
    count: int = 0
    first: list[int] = field(default_factory=list)
    keep: int = 5

    def over(self, line: int, columns: int, source: str | None) -> None:
        """Line number ``line`` has ``columns`` columns (more than 80)."""
        if not self.truncate:
            raise FormatError(f"line {line} has {columns} columns; a card holds {COLUMNS}{self.hint}",
                              source=source)
        self.count += 1
        if len(self.first) < self.keep:
            self.first.append(line)


# -- one line at a time ----------------------------------------------------------------------------

def line_to_words(line: bytes, code: str, *, card: int, lenient: bool = False,
                  substitutions: Substitutions | None = None, source: str | None = None,
                  long_lines: LongLines | None = None, text_only: bool = False) -> np.ndarray:
    """Deck-array row of one line (without its newline); an EOF line gives the flagged row
    (``text_only``: see :func:`read_arrays`)."""
    row = np.zeros(COLUMNS, dtype=np.uint16)
    line = line.replace(b"\r", b"").replace(b"\0", b"")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as err:
        if not lenient:
            raise FormatError(f"not UTF-8 text (byte {line[err.start]:#04x})", card=card,
                              column=len(line[: err.start].decode("utf-8", "replace")) + 1,
                              source=source) from None
        text = line.decode("utf-8", "replace")
    if text.startswith("~"):
        if not text[1:].strip(" \t"):
            row[0] = EOF_FLAG
            return row
        keyword = text[1:4].lower()
        if keyword == "raw":
            return _raw_words(text[4:], card=card, lenient=lenient, source=source)
        if keyword in SPECIAL_CARDS:
            row[0] = SPECIAL_CARDS[keyword]
            return row
    text = text.expandtabs(8)
    if text_only and not text.isprintable():
        column, char = next((i, c) for i, c in enumerate(text, 1) if not c.isprintable())
        raise FormatError(f"line {card}, column {column}: {_unicode_name(char)} has no printed form, so "
                          "a card punched with it would not decode as text (punch such columns with a "
                          "~raw line)", source=source)
    if long_lines is not None and len(text) > COLUMNS:
        long_lines.over(card, len(text), source)
    text = text[:COLUMNS]
    try:
        words = get_code(code).encode(text, lenient=lenient, substitutions=substitutions, card=card)
    except CardError as err:
        raise err.located(card=card, source=source) from None
    row[: len(words)] = words
    return row


def _unicode_name(char: str) -> str:
    """``control character U+0001`` and the like."""
    import unicodedata

    kind = "control character" if unicodedata.category(char) == "Cc" else "character"
    name = unicodedata.name(char, "")
    return f"{kind} U+{ord(char):04X}" + (f" ({name})" if name else "")


def _raw_words(digits: str, *, card: int, lenient: bool, source: str | None) -> np.ndarray:
    row = np.zeros(COLUMNS, dtype=np.uint16)
    digits = digits.rstrip(" \t")
    for i in range(0, min(len(digits), 4 * COLUMNS), 4):
        group = digits[i : i + 4]
        if len(group) == 4 and all("0" <= d <= "7" for d in group):
            row[i // 4] = int(group, 8)
        elif not lenient:
            raise FormatError(f"~raw column {group!r} is not 4 octal digits", card=card,
                              column=i // 4 + 1, source=source)
    return row


# -- reading ---------------------------------------------------------------------------------------

def _characters(data: bytes) -> int:
    """Characters in UTF-8 ``data`` (continuation bytes, CR and NUL take no column)."""
    raw = np.frombuffer(data, dtype=np.uint8)
    return len(raw) - int(np.count_nonzero(((raw & 0xC0) == 0x80) | (raw == 13) | (raw == 0)))


def _lines(stream: BinaryIO) -> Iterator[tuple[bytes, int | None]]:
    """Blocks of whole lines (each ending in a newline, except perhaps the very last), each with the
    length in characters of its first line when that line was cut at :data:`MAX_LINE` (else None)."""
    carry = b""
    cut_length: int | None = None  # the carry is a line cut at MAX_LINE that had this many characters
    skipping = False  # inside a line already cut at MAX_LINE
    first = True
    while True:
        data = stream.read(CHUNK_BYTES)
        if first:
            while data and len(data) < 3 and (more := stream.read(CHUNK_BYTES)):
                data += more
            if data.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte-order mark
                data = data[3:] or stream.read(CHUNK_BYTES)
            first = False
        if not data:
            if carry:
                yield carry, cut_length
            return
        if skipping:
            nl = data.find(b"\n")
            cut_length = (cut_length or 0) + _characters(data if nl < 0 else data[:nl])
            if nl < 0:
                continue
            data, skipping = data[nl:], False
        block = carry + data if carry else data
        cut = block.rfind(b"\n") + 1
        if cut:
            yield block[:cut], cut_length
            cut_length = None
        carry = block[cut:]
        if len(carry) > MAX_LINE:
            cut_length = _characters(carry)
            carry, skipping = carry[:MAX_LINE], True


@functools.cache
def _tables(code: str, text_only: bool = False) -> tuple[bytes, bytes]:
    """For the vectorised path: two ``bytes.translate`` tables, the low and the high byte of each
    byte's column word, with :data:`TRICKY` as the high byte of the bytes that need the slow path.

    Those are TAB, bytes beyond ASCII and characters the code lacks (with ``text_only`` the
    :data:`_CONTROLS` too).  A column word has 12 bits, so its high byte is at most 0x0F and the
    marker cannot be taken for a punch.  ``bytes.translate`` runs through a block at about half a
    nanosecond a byte, several times faster than a numpy look-up of the same bytes, and finding the
    tricky bytes comes free with it.
    """
    encoder = byte_encoder(code)
    tricky = (encoder < 0) | (np.arange(256) >= 128)
    tricky[[_TAB]] = True
    tricky[[_NL, 0]] = False
    if text_only:
        tricky |= np.frombuffer(_CONTROLS, dtype=np.uint8).astype(bool)
    words = np.where(encoder < 0, 0, encoder)
    high = np.where(tricky, TRICKY, words >> 8)
    return (words & 0xFF).astype(np.uint8).tobytes(), high.astype(np.uint8).tobytes()


TRICKY = 0xFF
"""High byte of the column word of a byte that needs the slow path (see :func:`_tables`)."""
_TRICKY_BYTE = bytes([TRICKY])
_NOWHERE = np.zeros(0, dtype=np.int64)
_COLUMN_NUMBERS = np.arange(COLUMNS, dtype=np.uint16)
_CONTROLS = bytes(int(b == 127 or (b < 32 and b not in (_NL, _TAB))) for b in range(256))
"""For ``text_only`` reading, a ``bytes.translate`` table giving 1 for the ASCII control characters
(TAB and newline aside), which a code may punch but no text shows: their lines go the slow path, which
refuses them.  (Bytes beyond ASCII go that path anyway.)"""


def _block_words(block: bytes, code: str, text_only: bool) -> tuple[np.ndarray, np.ndarray]:
    """The column word of each byte of ``block``, then 80 blank words, so that any line's 80 columns
    can be cut out (``uint16``); and the offsets of the bytes that need the slow path."""
    low_table, high_table = _tables(code, text_only)
    high = block.translate(high_table)
    n = len(block)
    words = np.empty(n + COLUMNS, dtype=np.uint16)
    words[:n] = np.frombuffer(high, dtype=np.uint8)
    words[:n] <<= 8
    words[:n] |= np.frombuffer(block.translate(low_table), dtype=np.uint8)
    words[n:] = 0
    if _TRICKY_BYTE not in high:
        return words, _NOWHERE
    return words, np.flatnonzero(np.frombuffer(high, dtype=np.uint8) == TRICKY)


def _newlines(block: bytes) -> np.ndarray:
    """Offsets of the newlines in ``block``."""
    return np.flatnonzero(np.frombuffer(block, dtype=np.uint8) == _NL)


def _block_to_words(block: bytes, code: str, first_card: int, lenient: bool,
                    substitutions: Substitutions | None, source: str | None,
                    long_lines: LongLines | None = None, text_only: bool = False,
                    first_counted: bool = False, nl: np.ndarray | None = None) -> np.ndarray:
    """Deck array of a block of lines (see :func:`_lines`; ``nl``: the offsets of its newlines, if
    known).

    The bytes of the block become column words through two 256-entry tables (:func:`_block_words`),
    each line's first 80 words are cut out as one row (a sliding-window view taken at the line
    starts), and words past the line's end are zeroed.  Lines that need care are then redone one by
    one.  ``first_counted``: the first line was cut while reading and :class:`LongLines` has already
    been told its length.
    """
    if not block.endswith(b"\n"):
        block += b"\n"
        nl = None
    if b"\r" in block or b"\0" in block:  # ignored wherever they are; they take no column
        block = block.replace(b"\r", b"").replace(b"\0", b"")
        nl = None
    if nl is None:
        nl = _newlines(block)
    raw = np.frombuffer(block, dtype=np.uint8)
    starts = np.empty(len(nl), dtype=np.int64)
    starts[0], starts[1:] = 0, nl[:-1] + 1
    lengths = nl - starts
    tilde = (raw[starts] == _TILDE) & (lengths > 0)
    every, tricky = _block_words(block, code, text_only)
    words = sliding_window_view(every, COLUMNS)[starts]
    words *= _COLUMN_NUMBERS < np.minimum(lengths, COLUMNS).astype(np.uint16)[:, None]
    tricky_line = np.zeros(len(nl), dtype=bool)
    tricky_line[np.searchsorted(nl, tricky)] = True
    special = tilde | tricky_line
    if tilde.any():  # a deck may be made of nothing but EOF or ~raw lines: read those at numpy speed
        done = _control_lines_read(raw, starts, nl, tilde & ~tricky_line, words)
        special &= ~done
        lengths[done] = 0  # control lines are never too long
    if first_counted:
        lengths[0] = min(int(lengths[0]), COLUMNS)
    care = special | (lengths > COLUMNS) if long_lines is not None else special
    for i in np.flatnonzero(care).tolist():  # in line order, so the first error is the first line's
        if special[i]:
            counted = first_counted and i == 0
            words[i] = line_to_words(block[starts[i] : nl[i]], code, card=first_card + i, lenient=lenient,
                                     substitutions=substitutions, source=source, text_only=text_only,
                                     long_lines=None if counted else long_lines)
        elif long_lines is not None:  # plain ASCII: one byte, one column
            long_lines.over(first_card + i, int(lengths[i]), source)
    return words


_OCTAL = np.zeros(256, dtype=bool)
_OCTAL[ord("0") : ord("8")] = True
_RAW = np.frombuffer(b"raw", dtype=np.uint8)
_DIGIT_INDEX = np.arange(4)


def _control_lines_read(raw: np.ndarray, starts: np.ndarray, nl: np.ndarray, candidates: np.ndarray,
                        words: np.ndarray) -> NDArray[np.bool_]:
    """Fill in ``words`` for the ``candidates`` (plain-ASCII lines starting with ``~``) that are an
    EOF line (``~`` and blanks) or a ``~raw`` line of whole 4-digit octal groups, at most 80; return
    which lines were done.  Anything else (TABs, ``~eor``, a bad digit …) is left to the slow path,
    which also reports the errors."""
    lengths = nl - starts
    not_blank = np.concatenate([[0], np.cumsum(raw != 0x20)])
    eof = candidates & (not_blank[nl] - not_blank[starts] == 1)
    words[eof] = 0
    words[eof, 0] = EOF_FLAG
    digits = lengths - 4
    maybe_raw = candidates & ~eof & (digits >= 0) & (digits % 4 == 0) & (digits <= 4 * COLUMNS)
    if maybe_raw.any():
        at = starts[maybe_raw]
        keyword = raw[np.minimum(at[:, None] + np.arange(1, 4), len(raw) - 1)] | 0x20
        not_octal = np.concatenate([[0], np.cumsum(~_OCTAL[raw])])
        good = (keyword == _RAW).all(axis=1) & (not_octal[nl[maybe_raw]] - not_octal[at + 4] == 0)
        maybe_raw[maybe_raw] = good
        lines = np.flatnonzero(maybe_raw)  # each group of 4 digits is read where it is, not 80 per line
        count = digits[lines] // 4
        line = np.repeat(lines, count)
        column = np.arange(len(line)) - np.repeat(np.cumsum(count) - count, count)
        group = raw[(starts[line] + 4 + 4 * column)[:, None] + _DIGIT_INDEX].astype(np.uint16) - 48
        words[lines] = 0
        octal = (group[:, 0] << 9) | (group[:, 1] << 6) | (group[:, 2] << 3) | group[:, 3]
        words[line, column] = octal & WORD_MASK
    done: NDArray[np.bool_] = eof | maybe_raw
    return done


def _card_blocks(stream: BinaryIO) -> Iterator[tuple[bytes, int | None, np.ndarray]]:
    """Blocks of at most :data:`~emulator.deck.CHUNK_CARDS` lines (short lines make many cards), each
    with the full length of its first line if that was cut (see :func:`_lines`) and the offsets of
    its newlines (each block's newlines are found once)."""
    for block, cut_length in _lines(stream):
        nl = _newlines(block)
        if len(nl) < CHUNK_CARDS:
            yield block, cut_length, nl
            continue
        start = 0
        for first in range(0, len(nl), CHUNK_CARDS):
            ends = nl[first : first + CHUNK_CARDS]
            end = int(ends[-1]) + 1
            yield block[start:end], cut_length if start == 0 else None, ends - start
            start = end
        if start < len(block):  # the last line, without a newline
            yield block[start:], cut_length if start == 0 else None, _NOWHERE


def read_arrays(stream: BinaryIO, *, code: str | None = "029", lenient: bool = False,
                source: str | None = None, substitutions: Substitutions | None = None,
                long_lines: LongLines | None = None, text_only: bool = False,
                **_: object) -> Iterator[np.ndarray]:
    """Deck arrays of a text deck, chunk by chunk (``long_lines``: see :class:`LongLines`;
    ``text_only``: a character with no printed form, such as a control character, is an error naming
    line and column, as ``cards encode`` wants: a card punched with one would not decode as text)."""
    code = code or "029"
    get_code(code)  # unknown code: fail before reading
    card = 1
    for block, cut_length, nl in _card_blocks(stream):
        if cut_length is not None and long_lines is not None:  # a line cut while reading, at full length
            long_lines.over(card, cut_length, source)
        words = _block_to_words(block, code, card, lenient, substitutions, source, long_lines,
                                text_only, cut_length is not None, nl)
        card += len(words)
        yield words


# -- the format (writing: :mod:`emulator.formats._text_write`) ------------------------------------

FORMAT = register(
    DeckFormat.from_arrays(
        name="text",
        description="SIMH 4.x text deck: one line per card, ~raw/~eor/~eof/~eoi lines, ~ = EOF card",
        extensions=(".txt", ".text", ".crd"),
        textual=True,
        read_arrays=read_arrays,
        write_arrays=write_arrays,
    )
)
