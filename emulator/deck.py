"""Decks in bulk: chunks of cards as numpy arrays of column words, for the fast file formats.

A :class:`~emulator.card.Card` is a convenient value, but building a million Python objects costs
seconds.  The deck formats therefore also move cards as *deck arrays*: ``numpy`` arrays of shape
``(n, 80)`` and dtype ``uint16``, one row per card, each element a 12-bit column word (row 12 =
0x800 … row 9 = 0x001, ``docs/cards.md`` §1).  The four spare high bits carry
one flag: :data:`EOF_FLAG` in column 1 marks the row as the end-of-file marker
(:data:`~emulator.card.EOF_CARD`); its other columns are zero.

Storage was chosen by measurement (``python -m tools.measure_deck_storage`` repeats it).  Turning
200,000 cards of random column words into CBN bytes took 70–150 ms with ``uint16`` deck arrays (the
real writer: one table look-up per column) against about 26 s with ``bitarray`` (estimated from 5,000 cards:
bitarray has no vectorised table look-up, so the six-bit halves and their parity are built card by
card in Python).  The array costs 160 bytes per card against 120 for a bitarray — a third more
memory for a speed-up of over two hundred times — so decks are numpy arrays.

Readers yield one array per chunk of the file (about 1 MB, see
:mod:`emulator.formats._records`) and :func:`batched` groups cards :data:`CHUNK_CARDS` at a time, so
memory stays bounded whatever the size of the deck.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

import numpy as np

from emulator.card import COLUMNS, EOF_CARD, Card

if TYPE_CHECKING:
    from numpy.typing import NDArray

EOF_FLAG = 0x8000
"""Set in column 1 of a deck-array row that stands for the end-of-file marker card."""

CHUNK_CARDS = 32768
"""Rows per chunk when cards are turned into arrays (about 5 MB of column words)."""

WORD_MASK = 0x0FFF


def empty(n: int = 0) -> np.ndarray:
    """A deck array of ``n`` blank cards."""
    return np.zeros((n, COLUMNS), dtype=np.uint16)


def eof_rows(words: np.ndarray) -> NDArray[np.bool_]:
    """Boolean mask of the rows of ``words`` that are end-of-file markers."""
    mask: NDArray[np.bool_] = (words[:, 0] & EOF_FLAG) != 0
    return mask


def cards_to_array(cards: Iterable[Card]) -> np.ndarray:
    """A deck array of ``cards`` (EOF markers become flagged rows)."""
    rows = [((EOF_FLAG,) + (0,) * (COLUMNS - 1)) if c.is_eof else c.columns for c in cards]
    if not rows:
        return empty()
    return np.array(rows, dtype=np.uint16)


def batched(cards: Iterable[Card], size: int = CHUNK_CARDS) -> Iterator[np.ndarray]:
    """Deck arrays of at most ``size`` cards each, in order."""
    chunk: list[Card] = []
    for card in cards:
        chunk.append(card)
        if len(chunk) >= size:
            yield cards_to_array(chunk)
            chunk = []
    if chunk:
        yield cards_to_array(chunk)


def array_to_cards(words: np.ndarray) -> list[Card]:
    """The cards of one deck array."""
    flags = eof_rows(words)
    return [EOF_CARD if flag else Card(row) for flag, row in zip(flags.tolist(), words.tolist(), strict=True)]


def iter_cards(arrays: Iterable[np.ndarray]) -> Iterator[Card]:
    """The cards of a stream of deck arrays, one by one."""
    for words in arrays:
        yield from array_to_cards(words)


def first_true(mask: np.ndarray) -> tuple[int, ...]:
    """Index of the first true element of ``mask`` in row-major order (card, column…)."""
    flat = int(np.argmax(mask.ravel()))
    return tuple(int(i) for i in np.unravel_index(flat, mask.shape))


def lookup(table: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``table[index % len(table)]`` for a small ``table``, in slices of a quarter million elements.

    Plain fancy indexing first widens the whole index array to 64-bit integers; slice by slice
    ``np.take`` stays in cache and runs two to three times faster on big decks.  Indices wrap
    around, so a 4096-entry table ignores the :data:`EOF_FLAG` bit.
    """
    flat = np.ascontiguousarray(index).reshape(-1)
    out = np.empty(flat.shape, dtype=table.dtype)
    step = 1 << 18
    for i in range(0, len(flat), step):
        np.take(table, flat[i : i + step], out=out[i : i + step], mode="wrap")
    return out.reshape(index.shape)


def keep_freed_memory() -> None:
    """Let the C library keep the memory a bulk conversion frees, for the next chunk to use.

    A chunk's arrays take a few megabytes, freed once the chunk is written.  glibc gives blocks that
    size back to the kernel, and the next chunk's arrays take them again page by page: tens of
    thousands of page faults over a million cards of text.  Raising glibc's two thresholds
    (``mallopt``: blocks up to 32 MB come from the heap, which is trimmed only past 256 MB free) keeps
    the memory in the process.  For a command that does nothing else; elsewhere (no glibc) it is a
    no-op.
    """
    import ctypes  # numpy imports it already

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(_M_MMAP_THRESHOLD, 32 << 20)
    mallopt(_M_TRIM_THRESHOLD, 256 << 20)


def release_freed_memory() -> None:
    """Give the memory freed so far back to the kernel (glibc's ``malloc_trim``), for a command that
    holds a big deck in phases: the chunks a first pass read and freed would otherwise stay in the
    process, under the next phase's arrays, and count in its peak.  Elsewhere (no glibc) a no-op."""
    import ctypes

    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return
    trim(0)


_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
"""glibc's ``mallopt`` parameters (``malloc.h``)."""


# -- character codes as look-up tables ------------------------------------------------------------

@functools.cache
def byte_encoder(code_name: str) -> np.ndarray:
    """``int32[256]``: column word of each Latin-1 byte in the code (folded if the code folds), or -1.

    Only characters U+0000–U+00FF can be looked up this way; callers send other text down the slow
    path through :meth:`~emulator.codes.Code.encode`.
    """
    from emulator.codes import get_code

    code = get_code(code_name)
    table = np.full(256, -1, dtype=np.int32)
    for b in range(256):
        ch = chr(b)
        if code.fold_case:
            ch = ch.upper()
        word = code.encoding.get(ch)
        if word is not None:
            table[b] = word
    return table


@functools.cache
def ascii_decoder(code_name: str) -> np.ndarray:
    """``uint8[4096]``: the printable ASCII byte (0x20–0x7E) each column word prints as, or 0.

    0 means "not plain printable ASCII in this code" (unknown pattern, control character or a
    character beyond ASCII such as ``¢``); callers handle those cards one by one.
    """
    from emulator.codes import get_code

    code = get_code(code_name)
    table = np.zeros(4096, dtype=np.uint8)
    for word, ch in code.decoding.items():
        if " " <= ch <= "~":
            table[word] = ord(ch)
    return table

