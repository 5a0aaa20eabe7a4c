"""Sorting a deck file by its key columns alone, the cards copied out in their new order.

A million cards held as column words take 160 MB (twice the text file they came from), and a sort
needs of each card only the columns its keys read.  So ``cards sort`` reads a deck file in two
passes, as an operator with a sorter and a reproducing punch might have: the first reads every card
as the format's reader does (the same blocks, checks and errors, in the same order) and keeps the
key columns of each card (eight columns of ``73-80``: 16 bytes a card) and which cards are
end-of-file cards; the order is sorted from those alone.  The second reads the file again and
copies each card's record, as it stands in the file, to its place in the output, one segment of the
output (:data:`SEGMENT_BYTES`) a pass, so that no more than a segment of the deck is ever held.

A record is copied only where the copy is exactly what the format's writer would write for the card
read from it:

* **text**: a line of 1–80 characters, each a printable ASCII character that the code punches and
  prints back as itself (so no lower case in a code that folds it, no TAB, CR or NUL), not starting
  with ``~`` and not ending in a blank (the writer trims trailing blanks and writes a blank card as
  one space);
* **cbn**: a deck of full 160-byte cards (read without ``lenient``, so every byte's parity is
  right) and no end-of-file byte.

A deck with any other card, a deck read from standard input (which cannot be read twice) or one
written in another format is held as column words and sorted as :func:`emulator.deckops.sort.sort`
does: the same cards, in the same order, written by the same writer.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, BinaryIO

import numpy as np

from emulator.card import COLUMNS
from emulator.deck import CHUNK_CARDS, ascii_decoder, byte_encoder, empty, eof_rows, release_freed_memory
from emulator.deckops.fields import Field
from emulator.errors import IbmError

if TYPE_CHECKING:
    from emulator.formats import DeckFormat
    from emulator.formats.text import LongLines

SEGMENT_BYTES = 56 << 20
"""Output held at most at a time while copying records out, a pass over the input file each (the
passes take equal shares): a million cards of text take two passes, of CBN three."""

LINE = COLUMNS + 1
"""A copied text line's slot: up to 80 characters and the newline."""
_CBN_RECORD = 2 * COLUMNS
_NL, _BLANK, _TILDE = 10, 32, ord("~")


class Scan:
    """What the first pass keeps of a deck file: card columns ``first_column`` … of every card
    (``columns``, ``uint16``), the end-of-file cards (``eof``), and either what the second pass needs
    to copy the records (``path``, and for text each line's ``lengths``) or, when the records cannot
    be copied, the whole deck as column words (``words``)."""

    def __init__(self, fmt: DeckFormat, columns: np.ndarray, first_column: int, eof: np.ndarray, *,
                 path: str | None = None, lengths: np.ndarray | None = None,
                 words: np.ndarray | None = None) -> None:
        self.format, self.columns, self.first_column, self.eof = fmt, columns, first_column, eof
        self.path, self.lengths, self.words = path, lengths, words
        self.starts = np.zeros(0, dtype=np.int64)
        """Text: where each line starts in the file (its size ``size`` bytes)."""
        self.size = 0

    @property
    def copies(self) -> bool:
        """Whether the records are copied out as they stand (else ``words`` holds the deck)."""
        return self.words is None


def key_span(fields: list[Field]) -> Field:
    """The columns a sort on ``fields`` reads: from the first of them to the last."""
    return Field(min(f.first for f in fields), max(f.last for f in fields))


def scan(stream: BinaryIO, fmt: str, *, span: Field, path: str | None, copy_to: str | None = "",
         code: str = "029", source: str | None = None,
         other_reading: Callable[[str], None] | None = None, long_lines: LongLines | None = None,
         **_: object) -> tuple[DeckFormat, Scan]:
    """The first pass over ``stream`` (format ``fmt``, detected for ``auto``), keeping ``span``'s
    columns.  ``path``: the file to read again for the records, or None to hold the deck as words
    (standard input); ``copy_to``: the output's format ("" for the input's), the records copied
    only into their own format."""
    from emulator.formats import arrays_of, open_deck

    found, deck = open_deck(stream, fmt, code=code, other_reading=other_reading)
    if copy_to not in ("", found.name):
        path = None
    if path is not None and found.name == "text":
        return found, _scan_text(found, deck, span, path, code, source, long_lines)
    if path is not None and found.name == "cbn":
        return found, _scan_cbn(found, deck, span, path, source)
    parts = list(arrays_of(found, deck, code=code, lenient=False, source=source, long_lines=long_lines))
    return found, _held(found, np.concatenate([empty(), *parts]), span)


def _held(found: DeckFormat, words: np.ndarray, span: Field) -> Scan:
    return Scan(found, words[:, span.columns], span.first, eof_rows(words), words=words)


# -- text ------------------------------------------------------------------------------------------

@functools.cache
def _copied_bytes(code: str) -> tuple[bytes, np.ndarray]:
    """The bytes a text line is copied with (each prints back as itself; and the newline), and the
    column word of each byte (``uint16[256]``)."""
    encoder = byte_encoder(code)
    decoder = ascii_decoder(code)
    same = [b for b in range(0x20, 0x7F) if encoder[b] >= 0 and decoder[encoder[b]] == b]
    words = np.where(encoder < 0, 0, encoder).astype(np.uint16)
    return bytes([*same, _NL]), words


def _copied_lines(block: bytes, nl: np.ndarray, code: str) -> tuple[np.ndarray, np.ndarray] | None:
    """Each line's start and length, if every line of ``block`` is copied as it stands; else None."""
    same, _ = _copied_bytes(code)
    if not block or block.translate(None, same):
        return None
    if not block.endswith(b"\n"):
        nl = np.append(nl, len(block))
    starts = np.empty(len(nl), dtype=np.int64)
    starts[0], starts[1:] = 0, nl[:-1] + 1
    lengths = nl - starts
    if lengths.min() < 1 or lengths.max() > COLUMNS:
        return None
    raw = np.frombuffer(block, dtype=np.uint8)
    if (raw[starts] == _TILDE).any() or (raw[nl - 1] == _BLANK).any():
        return None
    return starts, lengths


def _text_columns(block: bytes, starts: np.ndarray, lengths: np.ndarray, span: Field,
                  code: str) -> np.ndarray:
    """Column words of ``span`` of lines copied as they stand (one byte, one column)."""
    _, words = _copied_bytes(code)
    raw = np.frombuffer(block, dtype=np.uint8)
    cols = np.arange(span.first - 1, span.last)
    at = np.minimum(starts[:, None] + cols, len(raw) - 1)
    out: np.ndarray = words[raw[at]]
    out *= cols < lengths[:, None]
    return out


def _scan_text(found: DeckFormat, deck: BinaryIO, span: Field, path: str, code: str,
               source: str | None, long_lines: LongLines | None) -> Scan:
    """Read a text deck as :func:`emulator.formats.text.read_arrays` does, block by block.  Blocks
    whose lines are all copied need no column words but the key's; at the first other block the deck
    is held as words (the blocks before it read again from the file, which cannot fail)."""
    from emulator.codes import get_code
    from emulator.formats import text

    get_code(code)
    columns: list[np.ndarray] = []
    lengths: list[np.ndarray] = []
    starts: list[np.ndarray] = []  # where each line starts in the file
    sizes: list[int] = []  # of the blocks read so far, to read them again for their words
    offset = _bom(path)
    words: list[np.ndarray] | None = None
    card = 1
    for block, cut_length, nl in text._card_blocks(deck):
        if cut_length is not None and long_lines is not None:
            long_lines.over(card, cut_length, source)
        lines = _copied_lines(block, nl, code) if words is None and cut_length is None else None
        if lines is not None:
            columns.append(_text_columns(block, *lines, span, code))
            lengths.append(lines[1].astype(np.uint8))
            starts.append(lines[0] + offset)
            sizes.append(len(block))
            offset += len(block)
            card += len(lines[1])
            continue
        if words is None:
            words, columns, starts = _text_words_again(path, sizes, code), [], []
        chunk = text._block_to_words(block, code, card, False, None, source, long_lines, False,
                                     cut_length is not None, nl)
        words.append(chunk)
        card += len(chunk)
    if words is not None:
        return _held(found, np.concatenate([empty(), *words]), span)
    keys = np.concatenate([np.zeros((0, span.width), dtype=np.uint16), *columns])
    scan = Scan(found, keys, span.first, np.zeros(card - 1, dtype=bool), path=path,
                lengths=np.concatenate([np.zeros(0, dtype=np.uint8), *lengths]))
    scan.starts, scan.size = np.concatenate([np.zeros(0, dtype=np.int64), *starts]), offset
    del columns, starts
    release_freed_memory()
    return scan


def _bom(path: str) -> int:
    """Bytes of a UTF-8 byte-order mark at the start of the file (the text reader skips it)."""
    with open(path, "rb") as f:
        return 3 if f.read(3) == b"\xef\xbb\xbf" else 0


def _text_words_again(path: str, sizes: list[int], code: str) -> list[np.ndarray]:
    """Column words of the first blocks of a text file (``sizes`` bytes each, after any byte-order
    mark), every line of them one that copies."""
    from emulator.formats import text

    with open(path, "rb") as f:
        f.seek(_bom(path))
        return [text._block_to_words(f.read(size), code, 1, False, None, None) for size in sizes]


def _text_records(scan: Scan, destination: np.ndarray, low: int, segment: np.ndarray) -> int:
    """Copy the lines of ``scan.path`` whose place in the output (``destination``) falls in the
    segment starting at ``low`` into its slots, reading the file a stretch at a time (each stretch
    with a line's length more, for the lines starting at its end); return the lines seen."""
    starts = scan.starts
    stretch = _TEXT_READ
    buffer = bytearray(stretch + LINE)
    window = np.lib.stride_tricks.sliding_window_view(np.frombuffer(buffer, dtype=np.uint8), LINE)
    with open(scan.path or "", "rb", buffering=0) as f:
        if os.fstat(f.fileno()).st_size != scan.size:
            return -1
        bounds = np.searchsorted(starts, np.arange(0, scan.size + stretch, stretch))
        for k in range(len(bounds) - 1):
            first, last = int(bounds[k]), int(bounds[k + 1])
            if first == last:
                continue
            f.seek(k * stretch)
            got = _fill(f, buffer)
            buffer[got:] = bytes(len(buffer) - got)
            dest = destination[first:last] - low
            take = (dest >= 0) & (dest < len(segment))
            segment[dest[take]] = window[starts[first:last][take] - k * stretch]
    return len(starts)


_TEXT_READ = 4 << 20
"""Bytes of a text deck read at a time while copying its lines out."""


def _write_text(scan: Scan, order: np.ndarray, out: BinaryIO) -> None:
    assert scan.lengths is not None
    lengths = scan.lengths[order]
    for low, segment in _segments(scan, order, LINE, _text_records):
        for i in range(0, len(segment), CHUNK_CARDS):  # a copy of a chunk at a time, not the segment's
            rows = segment[i : i + CHUNK_CARDS]
            width = lengths[low + i : low + i + len(rows)]
            rows[np.arange(len(rows)), width] = _NL  # the last line may have had none
            out.write(rows.data if (width == COLUMNS).all() else rows[_SLOT <= width[:, None]].data)


_SLOT = np.arange(LINE)


# -- cbn -------------------------------------------------------------------------------------------

def _scan_cbn(found: DeckFormat, deck: BinaryIO, span: Field, path: str, source: str | None) -> Scan:
    """Read a CBN deck with its reader; its records are copied when they are all full cards, which
    a deck read without ``lenient`` is exactly when its file holds 160 bytes a card."""
    assert found.read_arrays is not None
    columns, eof = [], []
    for words in found.read_arrays(deck, lenient=False, source=source):
        columns.append(words[:, span.columns].copy())
        eof.append(eof_rows(words))
    flags = np.concatenate([np.zeros(0, dtype=bool), *eof])
    n = len(flags)
    if not flags.any() and os.path.getsize(path) == _CBN_RECORD * n:
        keys = np.concatenate([np.zeros((0, span.width), dtype=np.uint16), *columns])
        del columns
        release_freed_memory()
        return Scan(found, keys, span.first, flags, path=path)
    with open(path, "rb") as again:  # short cards or end-of-file bytes: hold the deck as words
        words = np.concatenate([empty(), *found.read_arrays(again, lenient=False, source=source)])
    return _held(found, words, span)


def _cbn_records(scan: Scan, destination: np.ndarray, low: int, segment: np.ndarray) -> int:
    seen = 0
    per_read = CHUNK_CARDS // 4
    buffer = bytearray(per_read * _CBN_RECORD)
    with open(scan.path or "", "rb", buffering=0) as f:
        while True:
            got = _fill(f, buffer)
            if not got:
                return seen
            whole = got - got % _CBN_RECORD
            rows = np.frombuffer(buffer, dtype=np.uint8, count=whole).reshape(-1, _CBN_RECORD)
            dest = destination[seen : seen + len(rows)] - low
            take = (dest >= 0) & (dest < len(segment))
            segment[dest[take]] = rows[take]
            seen += len(rows)


def _fill(f: Any, buffer: bytearray) -> int:
    view, got = memoryview(buffer), 0
    while got < len(buffer):
        n = f.readinto(view[got:])
        if not n:
            break
        got += n
    return got


def _write_cbn(scan: Scan, order: np.ndarray, out: BinaryIO) -> None:
    for _, segment in _segments(scan, order, _CBN_RECORD, _cbn_records):
        out.write(segment.data)


# -- the second pass -------------------------------------------------------------------------------

def _segments(scan: Scan, order: np.ndarray, width: int, copy: Any) -> Iterator[tuple[int, np.ndarray]]:
    """The output, a segment of ``width``-byte slots at a time (one buffer, filled again for each),
    each filled by one pass of ``copy`` over the input file."""
    n = len(order)
    destination = np.empty(n, dtype=np.int64)
    destination[order] = np.arange(n)
    passes = max(1, -(-n * width // SEGMENT_BYTES))
    per = max(1, -(-n // passes))
    buffer = np.empty((min(per, n), width), dtype=np.uint8)
    for low in range(0, n, per):
        segment = buffer[: min(per, n - low)]
        if copy(scan, destination, low, segment) != n:
            raise IbmError(f"{scan.path}: the file changed while it was being sorted")
        yield low, segment


def write_sorted(scan: Scan, order: np.ndarray, out: BinaryIO) -> None:
    """Write the cards of ``scan`` (which copies) in ``order``, in its own format."""
    release_freed_memory()  # the key columns and the sort's arrays: the output segment takes their place
    if scan.format.name == "text":
        _write_text(scan, order, out)
    else:
        _write_cbn(scan, order, out)
