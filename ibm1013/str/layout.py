"""Which columns of a card go on the line, and how they become four-of-eight characters.

The 1013 could be set to send only part of each card, and was faster for it
(``docs/ibm1013.md`` §1; our layouts: ``docs/str.md`` §3).  How the option was set is not documented; we offer
three ways, given as text on the command line:

* ``"80"`` (or any ``N`` from 1 to 80) — columns 1…N of every card;
* ``"auto"`` — columns 1 up to the last punched column of each card (a blank card sends none);
* ``"1-20,41-60"`` — a field mask: only these columns, in this order.

Both terminals must be set alike; the receiver punches every column it was not sent blank.

A record carries one four-of-eight character per column (the 1401 BCD character of its punches), or
in *column-binary* mode (our extension) two characters per column, rows 12…3 then rows 4…9 as 6-bit
values, so any punches can travel at twice the line time.  Whole decks are encoded at once with numpy
table look-ups; the LRC of every record comes from one XOR reduction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from emulator.card import COLUMNS, Card, word_to_punches
from emulator.errors import CardError
from ibm1013.str import fourofeight as fo
from ibm1013.str.trailer import card_of_bytes


@dataclass(frozen=True)
class ColumnLayout:
    """How much of each card is sent: ``mode`` is ``fixed``, ``auto`` or ``mask``."""

    mode: str = "fixed"
    count: int = COLUMNS
    """Columns sent in ``fixed`` mode."""
    ranges: tuple[tuple[int, int], ...] = ()
    """Column ranges (1-based, inclusive) sent in ``mask`` mode."""
    column_binary: bool = False

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str | int, *, column_binary: bool = False) -> ColumnLayout:
        """``"80"``, ``"auto"`` or ``"1-20,41-60"``; a clear :class:`CardError` otherwise."""
        text = str(text).strip()
        if text == "auto":
            return cls("auto", COLUMNS, (), column_binary)
        if text.isdigit():
            n = int(text)
            if not 1 <= n <= COLUMNS:
                raise CardError(f"columns per card must be 1 to {COLUMNS}, not {n}")
            return cls("fixed", n, (), column_binary)
        from emulator.deckops.fields import Field, SpecError

        ranges = []
        for part in text.split(","):
            if not part.strip() or not all(c.isdigit() or c in " -" for c in part):
                raise CardError(f"column mask must look like 1-20,41-60, not {text!r}")
            try:  # the card room's column fields: a range that runs backwards is refused as there
                field = Field.parse(part)
            except SpecError as err:
                raise CardError(f"column mask {text!r}: {err}") from None
            ranges.append((field.first, field.last))
        cols = [c for a, b in ranges for c in range(a, b + 1)]
        if len(set(cols)) != len(cols):
            raise CardError(f"column mask {text!r} names a column twice")
        return cls("mask", len(cols), tuple(ranges), column_binary)

    # -- shape -------------------------------------------------------------------------------
    @property
    def per_column(self) -> int:
        """Line characters per card column: 1, or 2 in column-binary mode."""
        return 2 if self.column_binary else 1

    @property
    def indices(self) -> np.ndarray:
        """0-based card columns sent, in order (all 80 in ``auto`` mode, where a prefix is sent)."""
        if self.mode == "mask":
            return np.array([c - 1 for a, b in self.ranges for c in range(a, b + 1)], dtype=np.intp)
        n = COLUMNS if self.mode == "auto" else self.count
        return np.arange(n, dtype=np.intp)

    @property
    def max_chars(self) -> int:
        """Longest record (data characters) this layout can produce."""
        return len(self.indices) * self.per_column

    @property
    def expected_chars(self) -> int | None:
        """Exact record length for ``fixed`` and ``mask`` layouts; ``None`` for ``auto``."""
        return None if self.mode == "auto" else self.max_chars

    @property
    def valid_chars(self) -> bytes:
        """Characters a record may contain: the 63 with a card code, or all 64 in column binary."""
        return fo.DATA_CHARS if self.column_binary else fo.CARD_CHARS

    def record_lengths(self) -> frozenset[int]:
        """Record lengths (data characters) the layout can produce: the one length of ``fixed`` and
        ``mask`` layouts, 0 to the longest in ``auto``, even ones only in column binary."""
        expected = self.expected_chars
        return frozenset(n for n in range(self.max_chars + 1)
                         if (expected is None or n == expected) and not (self.column_binary and n & 1))

    def describe(self) -> str:
        what = {"fixed": f"columns 1-{self.count}", "auto": "up to the last punched column",
                "mask": "columns " + ",".join(f"{a}-{b}" for a, b in self.ranges)}[self.mode]
        return what + (" (column binary)" if self.column_binary else "")

    # -- encoding ----------------------------------------------------------------------------
    def encode(self, words: np.ndarray, first_card: int = 1) -> tuple[list[bytes], bytes]:
        """Data characters and LRC of every card in ``words`` (an ``(n, 80)`` array of column words).

        A column outside the 1401 BCD set is a :class:`CardError` naming card (``first_card`` is the
        number of row 0) and column, unless in column-binary mode.
        """
        chars, lengths, lrcs = self._encode_chars(words, first_card)
        flat = np.ascontiguousarray(chars).tobytes()
        return _rows(flat, chars.shape[1], lengths, 0), lrcs.tobytes()

    def encode_records(self, words: np.ndarray, first_card: int = 1, *, tail: int = fo.TL) -> list[bytes]:
        """Every card's data characters followed by ``tail`` and the LRC — the part of a record that
        does not change when it is sent again — built for the whole deck at once (one numpy array,
        one ``bytes``, then one slice a card).  Errors as :meth:`encode`."""
        chars, lengths, lrcs = self._encode_chars(words, first_card)
        n, width = chars.shape
        body = np.zeros((n, width + 2), dtype=np.uint8)
        body[:, :width] = chars
        rows = np.arange(n)
        body[rows, lengths] = tail
        body[rows, lengths + 1] = lrcs
        return _rows(body.tobytes(), width + 2, lengths, 2)

    def _encode_chars(self, words: np.ndarray, first_card: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(chars, lengths, lrcs)``: an ``(n, width)`` array of line characters (only the first
        ``lengths[k]`` of row k are sent), and the LRC of each row's sent part."""
        n = words.shape[0]
        idx = self.indices
        sent = words[:, idx] if self.mode == "mask" or len(idx) < COLUMNS else words
        if self.column_binary:
            halves = np.empty((n, sent.shape[1], 2), dtype=np.uint8)
            halves[:, :, 0] = fo.HALF_TO_CHAR[sent >> 6]
            halves[:, :, 1] = fo.HALF_TO_CHAR[sent & 0x3F]
            chars = halves.reshape(n, sent.shape[1] * 2)  # (-1 cannot be worked out for no card)
        else:
            chars = _look_up(fo.WORD_TO_CHAR, sent)
        if self.mode == "auto":
            punched = sent != 0
            lengths = np.where(punched.any(axis=1), COLUMNS - np.argmax(punched[:, ::-1], axis=1), 0)
            lengths = lengths * self.per_column
            live = np.arange(chars.shape[1]) < lengths[:, None]
        else:
            lengths = np.full(n, chars.shape[1])
            live = None
        if not self.column_binary:
            bad = chars == 0 if live is None else (chars == 0) & live
            if bad.any():
                card, pos = (int(v) for v in np.argwhere(bad)[0])
                column = int(idx[pos]) + 1
                raise CardError(
                    f"punches {word_to_punches(int(sent[card, pos]))} are not a character of the "
                    "1401 BCD set and cannot be sent in four-of-eight (send the deck with --column-binary)",
                    card=first_card + card, column=column,
                )
        masked = chars if live is None else np.where(live, chars, 0).astype(np.uint8)
        lrcs = np.bitwise_xor.reduce(masked, axis=1).astype(np.uint8) if n else np.zeros(0, np.uint8)
        return chars, lengths, lrcs

    # -- decoding ----------------------------------------------------------------------------
    def decode_words(self, data: bytes) -> np.ndarray:
        """The 80 column words a receiving punch makes of a record's data (unsent columns blank)."""
        chars = np.frombuffer(data, dtype=np.uint8)
        if self.column_binary:
            chars = chars[: len(chars) // 2 * 2].reshape(-1, 2)
            cols = (fo.CHAR_TO_HALF[chars[:, 0]] << 6) | fo.CHAR_TO_HALF[chars[:, 1]]
        else:
            cols = fo.CHAR_TO_WORD[chars]
        out = np.zeros(COLUMNS, dtype=np.uint16)
        out[self.indices[: len(cols)]] = cols
        return out

    def decode(self, data: bytes) -> Card:
        """The card punched from a record's data (unsent columns blank)."""
        if self.mode != "mask" and not self.column_binary:
            return card_of_bytes(self.decode_bytes(data))
        return Card.from_array(self.decode_words(data))

    def decode_bytes(self, data: bytes) -> bytes:
        """The card punched from a record's data as its 80 column words, big-endian: 160 bytes, what
        the journal writes and the digest is taken over (:func:`~ibm1013.str.trailer.card_bytes`), with
        no :class:`Card` built (the receiving end's per-card path).  A record of columns 1… in order,
        one character each (every layout but masks and column binary), is decoded without an array:
        ``bytes.translate`` gives each column word's high and low bytes, interleaved."""
        if self.mode != "mask" and not self.column_binary:
            if len(data) > COLUMNS:
                raise CardError(f"a card has {COLUMNS} columns, not {len(data)}")
            words = bytearray(2 * COLUMNS)      # columns not sent stay blank
            end = 2 * len(data)
            words[0:end:2] = data.translate(_HIGH)
            words[1:end:2] = data.translate(_LOW)
            return bytes(words)
        return self.decode_words(data).astype(">u2").tobytes()


_HIGH: Final = bytes(w >> 8 for w in fo.CHAR_TO_WORD.tolist())
"""By line character, the high byte of the column word it punches (0 for a character that is none)."""
_LOW: Final = bytes(w & 0xFF for w in fo.CHAR_TO_WORD.tolist())
"""By line character, the low byte of that word."""


def _look_up(table: np.ndarray, index: np.ndarray, chunk: int = 1024) -> np.ndarray:
    """``table[index]``, in chunks of rows small enough for the cache (a whole deck of uint16 column
    words indexed at once costs numpy a full-size intp copy first: about twice as slow)."""
    out = np.empty(index.shape, dtype=table.dtype)
    for start in range(0, len(index), chunk):
        np.take(table, index[start:start + chunk].astype(np.intp), out=out[start:start + chunk])
    return out


def _rows(flat: bytes, width: int, lengths: np.ndarray, extra: int) -> list[bytes]:
    """Row k of a ``width``-wide byte matrix, cut to ``lengths[k] + extra`` bytes.  Rows all whole
    are cut by numpy: a row as one "void" item of ``width`` bytes, which ``tolist`` gives as ``bytes``
    (nothing stripped, unlike ``S``), twice as fast as slicing in a Python loop."""
    if len(lengths) and (lengths == width - extra).all():
        rows: list[bytes] = np.frombuffer(flat, dtype=f"V{width}").tolist()
        return rows
    return [flat[k * width:k * width + length + extra] for k, length in enumerate(lengths.tolist())]


def deck_words(deck: Sequence[Card] | np.ndarray) -> np.ndarray:
    """A deck as an ``(n, 80)`` array of column words (cards, or an array passed through)."""
    if isinstance(deck, np.ndarray):
        if deck.ndim != 2 or deck.shape[1] != COLUMNS:
            raise CardError(f"a deck array must have shape (n, {COLUMNS}), not {deck.shape}")
        return deck.astype(np.uint16, copy=False)
    if not deck:
        return np.zeros((0, COLUMNS), dtype=np.uint16)
    return np.array([card.columns for card in deck], dtype=np.uint16)
