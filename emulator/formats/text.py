"""SIMH 4.x ``TEXT`` decks: one line per card, characters through a keypunch code.

The rules of ``sim_card`` (``docs/cards.md`` §3):

* Each line is a card, column 1 first.  CR and NUL bytes are ignored, a TAB moves to the next
  multiple of 8 columns, characters after column 80 are dropped, a short line leaves the rest of
  the card blank.  The file is UTF-8 (plain ASCII for SIMH); each character goes through the chosen
  code (``029`` by default); one the code lacks is an error naming card and column, or with
  ``lenient`` the code's substitute, counted in ``substitutions``.  A leading byte-order mark is
  skipped.
* Lines starting with ``~`` (any case after it) are special:

  - ``~`` alone, or followed only by blanks, is an **end-of-file card**
    (:data:`~emulator.card.EOF_CARD` in our card streams);
  - ``~raw`` followed by 4-digit octal column words (row 12 high, ``A`` = ``4400``); missing columns
    are blank;
  - ``~eor`` is 7-8-9 in column 1, ``~eof`` 6-7-9, ``~eoi`` 6-7-8-9.

  Any other line starting with ``~`` is text (SIMH compares only the three letters after ``~``).
* The writer trims trailing blanks and writes a blank card as one space.  A card that is not all
  printable text in the code (or whose text would read back as a ``~`` line) is written as ``~eor``/``~eof``/
  ``~eoi`` when it is exactly that card, otherwise as ``~raw`` with all 80 columns; the EOF card is
  ``~``.  With ``raw=False`` (plain text, used by ``ibm1013 cards decode``) such a card is an error
  instead, or with ``lenient`` its unknown columns become the code's substitute.

Reading and writing run over whole chunks with numpy (:mod:`emulator.deck`); only lines that need
care (TAB, ``~``, characters beyond ASCII or outside the code) go one by one through
:meth:`~emulator.codes.Code.encode`.  Text has no reliable signature, so it is what ``detect``
falls back to.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from emulator.card import COLUMNS, punches_to_word, word_to_punches
from emulator.codes import Substitutions, get_code
from emulator.deck import (
    CHUNK_CARDS,
    EOF_FLAG,
    WORD_MASK,
    ascii_decoder,
    byte_encoder,
    eof_rows,
    lookup,
)
from emulator.errors import CardError, FormatError
from emulator.formats import DeckFormat, register
from emulator.formats._records import CHUNK_BYTES

WIDTH = COLUMNS + 1
"""Row width while laying out lines: 80 columns and a slot for the newline."""

MAX_LINE = 1 << 16
"""Longer lines are cut here while reading (only the first 80 columns count anyway)."""

SPECIAL_CARDS: dict[str, int] = {
    "eor": punches_to_word("7-8-9"),
    "eof": punches_to_word("6-7-9"),
    "eoi": punches_to_word("6-7-8-9"),
}
"""Column-1 word of the ``~eor``/``~eof``/``~eoi`` control cards (the rest of the card is blank)."""

_NL, _TAB, _TILDE = 10, 9, ord("~")


# -- one line at a time ----------------------------------------------------------------------------

def line_to_words(line: bytes, code: str, *, card: int, lenient: bool = False,
                  substitutions: Substitutions | None = None, source: str | None = None) -> np.ndarray:
    """Deck-array row of one line (without its newline); an EOF line gives the flagged row."""
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
    text = text.expandtabs(8)[:COLUMNS]
    try:
        words = get_code(code).encode(text, lenient=lenient, substitutions=substitutions, card=card)
    except CardError as err:
        raise err.located(card=card, source=source) from None
    row[: len(words)] = words
    return row


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

def _lines(stream: BinaryIO) -> Iterator[bytes]:
    """Blocks of whole lines (each ending in a newline, except perhaps the very last)."""
    carry = b""
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
                yield carry
            return
        if skipping:
            nl = data.find(b"\n")
            if nl < 0:
                continue
            data, skipping = data[nl:], False
        block = carry + data if carry else data
        cut = block.rfind(b"\n") + 1
        carry = block[cut:]
        if len(carry) > MAX_LINE:
            carry, skipping = carry[:MAX_LINE], True
        if cut:
            yield block[:cut]


@functools.cache
def _tables(code: str) -> tuple[bytes, np.ndarray]:
    """For the vectorised path: which bytes need the slow path, and each byte's column word.

    The first is a ``bytes.translate`` table giving 1 for TAB, bytes beyond ASCII and characters the
    code lacks; the second maps a byte to its column word, with NUL (filler) blank.
    """
    encoder = byte_encoder(code)
    tricky = (encoder < 0) | (np.arange(256) >= 128)
    tricky[[_TAB]] = True
    tricky[[_NL, 0]] = False
    columns = np.where(encoder < 0, 0, encoder).astype(np.uint16)
    columns[0] = 0
    return tricky.astype(np.uint8).tobytes(), columns


_COLUMN_NUMBERS = np.arange(COLUMNS, dtype=np.uint8)
_BLANKS = np.zeros(COLUMNS, dtype=np.uint8)


def _block_to_words(block: bytes, code: str, first_card: int, lenient: bool,
                    substitutions: Substitutions | None, source: str | None) -> np.ndarray:
    """Deck array of a block of lines (see :func:`_lines`).

    Each line's first 80 bytes are cut out of the block as one row (a sliding-window view of the
    block, taken at the line starts), bytes past the line's end are zeroed, and a 256-entry table
    turns bytes into column words.  Lines that need care are then redone one by one.
    """
    if not block.endswith(b"\n"):
        block += b"\n"
    if b"\r" in block or b"\0" in block:  # ignored wherever they are; they take no column
        block = block.replace(b"\r", b"").replace(b"\0", b"")
    tricky, columns = _tables(code)
    raw = np.frombuffer(block, dtype=np.uint8)
    nl = np.flatnonzero(raw == _NL)
    starts = np.empty(len(nl), dtype=np.int64)
    starts[0], starts[1:] = 0, nl[:-1] + 1
    lengths = nl - starts
    special = (raw[starts] == _TILDE) & (lengths > 0)
    marked = block.translate(tricky)
    if b"\x01" in marked:
        special[np.searchsorted(nl, np.flatnonzero(np.frombuffer(marked, dtype=np.uint8)))] = True
    padded = np.concatenate([raw, _BLANKS])
    rows = sliding_window_view(padded, COLUMNS)[starts]
    rows *= _COLUMN_NUMBERS < np.minimum(lengths, COLUMNS).astype(np.uint8)[:, None]
    words = lookup(columns, rows)
    for i in np.flatnonzero(special).tolist():
        words[i] = line_to_words(block[starts[i] : nl[i]], code, card=first_card + i, lenient=lenient,
                                 substitutions=substitutions, source=source)
    return words


def _card_blocks(stream: BinaryIO) -> Iterator[bytes]:
    """Blocks of at most :data:`~emulator.deck.CHUNK_CARDS` lines (short lines make many cards)."""
    for block in _lines(stream):
        ends = np.flatnonzero(np.frombuffer(block, dtype=np.uint8) == _NL)[CHUNK_CARDS - 1 :: CHUNK_CARDS]
        start = 0
        for end in ends.tolist():
            yield block[start : end + 1]
            start = end + 1
        if start < len(block):
            yield block[start:]


def read_arrays(stream: BinaryIO, *, code: str | None = "029", lenient: bool = False,
                source: str | None = None, substitutions: Substitutions | None = None,
                **_: Any) -> Iterator[np.ndarray]:
    """Deck arrays of a text deck, chunk by chunk."""
    code = code or "029"
    get_code(code)  # unknown code: fail before reading
    card = 1
    for block in _card_blocks(stream):
        words = _block_to_words(block, code, card, lenient, substitutions, source)
        card += len(words)
        yield words


# -- writing ---------------------------------------------------------------------------------------

def card_line(row: np.ndarray, code: str, *, card: int, raw: bool = True, lenient: bool = False,
              substitutions: Substitutions | None = None) -> bytes:
    """The line (with newline) for one deck-array row."""
    if row[0] & EOF_FLAG:
        return b"~\n"
    words = [int(w) & WORD_MASK for w in row]
    chars = get_code(code)
    text = "".join(chars.decoding.get(w, "\0") for w in words)
    if text.isprintable() and not _reads_as_special(text):
        return ((text.rstrip(" ") or " ") + "\n").encode("utf-8")
    if raw:
        for name, word in SPECIAL_CARDS.items():
            if words[0] == word and not any(words[1:]):
                return f"~{name}\n".encode()
        return ("~raw" + "".join(f"{w:04o}" for w in words) + "\n").encode()
    out = []
    for i, (w, ch) in enumerate(zip(words, text, strict=True)):
        if not ch.isprintable() or ch == "\0":
            if not lenient:
                what = "print no character" if w in chars.decoding else "are not a character"
                raise CardError(f"punches {word_to_punches(w) or 'none'} {what} in code {code}",
                                card=card, column=i + 1)
            ch = chars.substitute_char
            if substitutions is not None:
                substitutions.add(i + 1, card)
        out.append(ch)
    return (("".join(out).rstrip(" ") or " ") + "\n").encode("utf-8")


def _reads_as_special(text: str) -> bool:
    """Whether a reader would take this text for a ``~`` control line rather than a card."""
    return text.startswith("~") and (not text[1:].strip(" ") or text[1:4].lower() in ("raw", *SPECIAL_CARDS))


def encode_array(words: np.ndarray, code: str, *, first_card: int = 1, raw: bool = True,
                 lenient: bool = False, substitutions: Substitutions | None = None) -> bytes:
    """The lines of a deck array."""
    chars = lookup(ascii_decoder(code), words)
    special = (chars == 0).any(axis=1) | (chars[:, 0] == _TILDE) | eof_rows(words)
    pieces, start = [], 0
    for i in np.flatnonzero(special).tolist():
        pieces.append(_plain_lines(chars[start:i]))
        pieces.append(card_line(words[i], code, card=first_card + i, raw=raw, lenient=lenient,
                                substitutions=substitutions))
        start = i + 1
    pieces.append(_plain_lines(chars[start:]))
    return b"".join(pieces)


_OUTPUT_COLUMNS = np.arange(WIDTH, dtype=np.uint8)
_COLUMN_COUNTS = np.arange(1, COLUMNS + 1, dtype=np.uint8)


def _plain_lines(chars: np.ndarray) -> bytes:
    """Lines of rows of printable ASCII: trailing blanks trimmed, a blank card as one space."""
    n = len(chars)
    if not n:
        return b""
    length = ((chars != 0x20) * _COLUMN_COUNTS).max(axis=1)  # number of the last non-blank column
    np.maximum(length, 1, out=length)  # a blank card is one space
    rows = np.empty((n, WIDTH), dtype=np.uint8)
    rows[:, :COLUMNS] = chars
    rows[np.arange(n), length] = _NL
    return rows[_OUTPUT_COLUMNS <= length[:, None]].tobytes()


def write_arrays(arrays: Iterable[np.ndarray], stream: BinaryIO, *, code: str | None = "029",
                 raw: bool = True, lenient: bool = False, substitutions: Substitutions | None = None,
                 **_: Any) -> None:
    """Write deck arrays as text lines."""
    code = code or "029"
    get_code(code)
    card = 1
    for words in arrays:
        stream.write(encode_array(words, code, first_card=card, raw=raw, lenient=lenient,
                                  substitutions=substitutions))
        card += len(words)


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
