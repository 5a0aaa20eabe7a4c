"""SIMH 4.x ``CBN`` decks (column binary): 160 bytes per card, six rows per byte, odd parity.

Each column takes two bytes (``docs/cards.md`` §3):

====  ==================  ==========  =====================
byte  bit 7               bit 6       bits 5–0
====  ==================  ==========  =====================
2k    1 on column 1 only  odd parity  rows 12, 11, 0, 1, 2, 3
2k+1  0                   odd parity  rows 4, 5, 6, 7, 8, 9
====  ==================  ==========  =====================

Bit 7 is the *record mark* that starts a card; parity makes the count of ones in bits 6–0 odd.  A
blank column is ``40 40``; ``H`` (12-8) is ``A0 02`` in column 1.

* A card ends at the next byte with bit 7 set, so a short card is read with the rest blank.  A card
  of an odd number of bytes ends in half a column: an error naming the card, as SIMH 4.x marks it in
  error (with ``lenient`` the column gets its rows 12–3 only).
* The lone byte 0x8F between records is an **end-of-file card** (:data:`~emulator.card.EOF_CARD`).
  SIMH 4.x reads it only when told the format (``attach -F CBN``): in AUTO mode its even parity
  fails the CBN test, and the bytes from there on are taken for text.
* Errors name the card and column: a parity error, a card longer than 160 bytes (its next record
  mark is missing), a deck that does not start with a record mark.  With ``lenient`` parity is not
  checked, over-long cards are cut at 160 bytes and bytes before the first record mark are skipped.

SIMH's AUTO mode takes a card for CBN when its byte 0 has bit 7 and the 160 bytes from there all
have odd parity (:func:`sniff`, which also allows lone EOF bytes).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, BinaryIO

import numpy as np

from emulator.card import COLUMNS
from emulator.deck import CHUNK_CARDS, EOF_FLAG, eof_rows, lookup
from emulator.errors import FormatError
from emulator.formats import DeckFormat, register
from emulator.formats._records import CHUNK_BYTES

if TYPE_CHECKING:
    from numpy.typing import NDArray

RECORD = 2 * COLUMNS
MARK = 0x80
PARITY = 0x40
EOF_BYTE = 0x8F
_HALF = ("rows 12-3", "rows 4-9")


def _ones_odd(x: np.ndarray) -> NDArray[np.bool_]:
    """True where the count of one bits in the low seven bits of ``x`` (uint8) is odd."""
    x = x & 0x7F
    if hasattr(np, "bitwise_count"):
        odd: NDArray[np.bool_] = (np.bitwise_count(x) & 1).astype(bool)
        return odd
    x = x ^ (x >> 4)
    x = x ^ (x >> 2)
    x = x ^ (x >> 1)
    odd = (x & 1).astype(bool)
    return odd


def _with_parity(six: np.ndarray) -> NDArray[np.uint8]:
    """Six-bit values (uint8) with bit 6 set where needed for odd parity."""
    with_parity: NDArray[np.uint8] = six | ((~_ones_odd(six)).astype(np.uint8) << 6)
    return with_parity


# -- detection ------------------------------------------------------------------------------------

def sniff(head: bytes) -> bool:
    """SIMH AUTO's CBN test on the first card: a record mark on byte 0 and 160 bytes of odd parity.

    As in SIMH the 160 bytes run on across record marks, so a short first card passes when the
    cards after it are CBN too.  Lone EOF bytes (a 0x8F followed by a record mark or the end) are
    left out first: SIMH's count would fail on their even parity.
    """
    buf = np.frombuffer(head, dtype=np.uint8)
    following = np.append(buf[1:], MARK)  # what comes after each byte (the end counts as a mark)
    body = buf[~((buf == EOF_BYTE) & (following >= MARK))][:RECORD]
    return len(body) == RECORD and body[0] >= MARK and bool(_ones_odd(body).all())


# -- reading --------------------------------------------------------------------------------------

def _full_cards(rec: np.ndarray, first_card: int, lenient: bool, source: str | None) -> np.ndarray:
    """Column words of whole 160-byte records, shape (n, 160) → (n, 80).

    The bytes are worked on eight at a time, as 64-bit numbers (four columns each): the six data
    bits of each byte are shifted into place, and each byte's parity is folded into its low bit
    (the record marks are known to sit on the first bytes only, so bit 7 is left out).  Only a
    chunk with a byte of even parity is gone over again, to name that byte.
    """
    rec = np.ascontiguousarray(rec)
    octets = rec.view("<u8")
    words = ((octets & _HIGH_SIX) << 6 | (octets >> 8) & _HIGH_SIX).view("<u2").reshape(len(rec), COLUMNS)
    if not lenient:
        fold = octets & _SEVEN
        for shift in (4, 2, 1):
            fold ^= fold >> shift
        if (~fold & _LOW).any():
            _refuse_parity(rec, rec.view("<u2"), first_card, source)
    return words


_HIGH_SIX, _SEVEN, _LOW = (np.uint64(int.from_bytes(bytes(pattern) * 4, "little"))
                           for pattern in ((0x3F, 0), (0x7F, 0x7F), (1, 1)))
"""Masks of a 64-bit number of CBN bytes: the six data bits of each column's first byte, and of
every byte the seven bits parity counts, and the low bit."""


def _refuse_parity(rec: np.ndarray, pairs: np.ndarray, first_card: int, source: str | None) -> None:
    """The parity error of whole records: the first byte whose re-encoded column differs."""
    words = ((pairs & 0x3F) << 6) | ((pairs >> 8) & 0x3F)
    expected = lookup(COLUMN_PAIRS, words)
    expected[:, 0] |= MARK
    card, col = (int(i) for i in np.argwhere(expected != pairs)[0])
    byte = 2 * col + (0 if (expected[card, col] ^ pairs[card, col]) & 0xFF else 1)
    raise FormatError(
        f"parity error in byte {rec[card, byte]:#04x} ({_HALF[byte % 2]})",
        card=first_card + card, column=col + 1, source=source,
    )


def _cards(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray, first_card: int, lenient: bool,
           source: str | None) -> np.ndarray:
    """Deck array of the records ``buf[starts[i]:ends[i]]``, which lie end to end.

    Whole cards back to back are one reshape; records of other lengths go through :func:`_records`.
    """
    lengths = ends - starts
    if len(starts) and (lengths == RECORD).all():
        return _full_cards(buf[starts[0] : ends[-1]].reshape(-1, RECORD), first_card, lenient, source)
    return _records(buf[starts[0] : ends[-1]], lengths, first_card, lenient, source)


def _records(span: np.ndarray, lengths: np.ndarray, first_card: int, lenient: bool,
             source: str | None) -> np.ndarray:
    """Deck array of records of any ``lengths`` laid end to end in ``span``, at a cost in proportion
    to their bytes (a deck of two-byte cards costs no more than its bytes, not 160 per card).

    Each byte is put straight into its column word: even bytes give rows 12-3, odd bytes rows 4-9;
    columns past a short record's end stay blank.  A lone 0x8F record is an EOF row.  Parity is
    checked byte by byte (a record mark sits on each record's first byte only, as the marks cut the
    records); over-long cards count only up to byte 160.
    """
    n = len(lengths)
    firsts = np.cumsum(lengths) - lengths  # where each record starts in ``span``
    card = np.repeat(np.arange(n), lengths)
    offset = np.arange(len(span)) - np.repeat(firsts, lengths)
    eof = (lengths == 1) & (span[firsts] == EOF_BYTE)
    data = span
    if len(lengths) and lengths.max() > RECORD:
        inside = offset < RECORD
        card, offset, data = card[inside], offset[inside], span[inside]
    if not lenient:
        _refuse_bad_records(data, card, offset, lengths, eof, first_card, source)
    words: NDArray[np.uint16] = np.zeros(n * COLUMNS, dtype=np.uint16)
    index = card * COLUMNS + (offset >> 1)
    six = (data & 0x3F).astype(np.uint16)
    high = (offset & 1) == 0
    words[index[high]] = six[high] << 6
    words[index[~high]] |= six[~high]
    words = words.reshape(n, COLUMNS)
    words[eof] = 0
    words[eof, 0] = EOF_FLAG
    return words


def _refuse_bad_records(data: np.ndarray, card: np.ndarray, offset: np.ndarray, lengths: np.ndarray,
                        eof: np.ndarray, first_card: int, source: str | None) -> None:
    """The first error among the records, in deck order: a parity error (named by its byte), or a card
    over 160 bytes long, or one that ends on an odd byte (half a column)."""
    parity = ~_ones_odd(data)
    parity &= ~eof[card]  # a lone 0x8F (EOF) has even parity
    bad_parity = np.flatnonzero(parity)[:1]
    bad_length = np.flatnonzero((lengths > RECORD) | ((lengths & 1).astype(bool) & ~eof))[:1]
    if len(bad_parity) and (not len(bad_length) or card[bad_parity[0]] <= bad_length[0]):
        at = int(bad_parity[0])
        raise FormatError(f"parity error in byte {data[at]:#04x} ({_HALF[offset[at] % 2]})",
                          card=first_card + int(card[at]), column=int(offset[at]) // 2 + 1, source=source)
    if not len(bad_length):
        return
    first = int(bad_length[0])
    length = int(lengths[first])
    if length > RECORD:
        raise FormatError(f"card is {length} bytes long, a CBN card has at most {RECORD} "
                          "(missing record mark?)", card=first_card + first, source=source)
    size = f"{length} byte{'s' if length > 1 else ''}"
    raise FormatError(f"card ends on an odd byte ({size}): its column {(length + 1) // 2} is half a "
                      "column, rows 12-3 only (SIMH marks such a card in error)",
                      card=first_card + first, source=source)


def _marks(buf: np.ndarray) -> np.ndarray:
    """Offsets of the bytes with a record mark (fast when they fall exactly every 160 bytes)."""
    marked = buf >= MARK
    every = np.arange(0, len(buf), RECORD)
    if len(every) and marked[every].all() and np.count_nonzero(marked) == len(every):
        return every
    return np.flatnonzero(marked)


def read_arrays(stream: BinaryIO, *, lenient: bool = False, source: str | None = None,
                **_: object) -> Iterator[np.ndarray]:
    """Deck arrays of a CBN deck, chunk by chunk."""
    card = 1
    carry = b""
    started = skipping = False
    while True:
        data = stream.read(CHUNK_BYTES)
        final = not data
        if skipping and data:  # lenient: drop the tail of an over-long card up to its next mark
            marks = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) & MARK)
            if not len(marks):
                continue
            data, skipping = data[int(marks[0]) :], False
        block = carry + data if carry else data
        if not block:
            return
        buf = np.frombuffer(block, dtype=np.uint8)
        marks = _marks(buf)
        if not started:
            if not len(marks) or marks[0]:
                if not lenient:
                    raise FormatError(
                        f"first byte {buf[0]:#04x} has no record mark (not a CBN deck?)",
                        card=1, source=source,
                    )
                if not len(marks):
                    carry = b""
                    if final:
                        return
                    continue
                buf, marks = buf[marks[0] :], marks - marks[0]
            started = True
        if final:
            starts, ends = marks, np.append(marks[1:], len(buf))
            carry = b""
        elif len(marks) < 2:
            carry = buf.tobytes()
            if len(carry) > RECORD + 1:
                if not lenient:
                    head = np.frombuffer(carry[:RECORD], dtype=np.uint8).reshape(1, RECORD)
                    _full_cards(head, card, False, source)  # as in _cards: a parity error comes first
                    raise FormatError(
                        f"card is over {RECORD} bytes long (missing record mark?)", card=card, source=source
                    )
                carry, skipping = carry[:RECORD], True
            continue
        else:
            starts, ends = marks[:-1], marks[1:]
            carry = buf[marks[-1] :].tobytes()
        for i in range(0, len(starts), CHUNK_CARDS):  # short cards: many per block
            words = _cards(buf, starts[i : i + CHUNK_CARDS], ends[i : i + CHUNK_CARDS], card, lenient, source)
            card += len(words)
            yield words
        if final:
            return


# -- writing --------------------------------------------------------------------------------------

def _column_pairs() -> np.ndarray:
    """``uint16[4096]``: the two CBN bytes of each column word, as one little-endian word."""
    words = np.arange(4096)
    hi = _with_parity((words >> 6).astype(np.uint8)).astype(np.uint16)
    lo = _with_parity((words & 0x3F).astype(np.uint8)).astype(np.uint16)
    return hi | (lo << 8)


COLUMN_PAIRS = _column_pairs()



def encode_array(words: np.ndarray) -> bytes | memoryview:
    """CBN bytes of a deck array; EOF rows become the lone byte 0x8F (without them, the bytes are
    a view of the array that was built, not a copy)."""
    pairs = lookup(COLUMN_PAIRS, words)
    pairs[:, 0] |= MARK
    out = pairs.astype("<u2", copy=False).view(np.uint8)
    eof = eof_rows(words)
    if not eof.any():
        return out.reshape(-1).data
    pieces, start = [], 0
    for i in np.flatnonzero(eof).tolist():
        pieces += [out[start:i].tobytes(), bytes([EOF_BYTE])]
        start = i + 1
    pieces.append(out[start:].tobytes())
    return b"".join(pieces)


def write_arrays(arrays: Iterable[np.ndarray], stream: BinaryIO, **_: object) -> None:
    """Write deck arrays as CBN records."""
    for words in arrays:
        stream.write(encode_array(words))


FORMAT = register(
    DeckFormat.from_arrays(
        name="cbn",
        description="SIMH 4.x column binary: 160 bytes per card, record mark and odd parity; 0x8F = EOF",
        extensions=(".cbn",),
        sniff=sniff,
        read_arrays=read_arrays,
        write_arrays=write_arrays,
    )
)
