"""Bits on punched cards: the layer under the compact game deck (:mod:`decks.compact`) and the
streamed game's event cards (:mod:`decks.stream`).

Fields are packed into one big-endian bit stream (:class:`BitWriter`: fixed widths, Elias gamma
numbers, short names 6 bits a character) and read back by a :class:`BitReader` that knows on which
card each bit lies, so a fault names its card.

**On the card.**  The 1013 carries 64 BCD characters, but one of them — the lone A bit, BCD 20 — has
no card code (see :mod:`ibm1013.str.fourofeight`), so a column holds one of 63 punch patterns: the 1401
card code of every other BCD value (:mod:`emulator.codes.bcd1401`), in BCD order.  The bit stream is
cut into chunks of at most :data:`CHUNK_BITS` (429) bits; a chunk with a 1 bit put in front of it is a
number below 63^72, written as 72 base-63 digits, the least significant in column 1
(:func:`chunk_columns`).  The leading 1 tells the decoder the chunk's length, and a short chunk
leaves the columns after its last digit blank.  Columns 73–80 keep the readable deck's sequence
field (a 4-character label and the card number, punched in the 029 code: :mod:`decks.records`), so
a dropped deck can still be put in order by eye; :func:`read_chunks` checks it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bitarray import bitarray
from bitarray.util import ba2int, int2ba, zeros

from decks.records import CODE, LABEL_WIDTH, MAX_CARDS, NUMBER_WIDTH, SAFE_CHARACTERS, DeckStateError
from emulator.card import Card
from emulator.codes.bcd1401 import WORDS
from emulator.errors import IbmError

DATA_COLUMNS = 72
NO_CARD_CODE = 0o20
"""The lone A bit: a BCD character the 1013 carries but no card column can hold."""
COLUMN_WORDS: tuple[int, ...] = tuple(w for bcd, w in enumerate(WORDS) if bcd != NO_CARD_CODE)
"""Column word of each base-63 digit: the 1401 card code of each punchable BCD value, in order."""
DIGIT_OF_WORD = {w: d for d, w in enumerate(COLUMN_WORDS)}
BASE = len(COLUMN_WORDS)  # 63
CHUNK_BITS = 429
"""Bits one card holds: a chunk with a leading 1 is below 2^430 < 63^72."""
DIGITS = "0123456789"
TEXT = "abcdefghijklmnopqrstuvwxyz0123456789-_ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""The 64 characters a name may use, 6 bits each."""

assert BASE == 63 and 2 ** (CHUNK_BITS + 1) <= BASE**DATA_COLUMNS


# ---------------------------------------------------------------------------------------------
# bits: a writer and a reader that knows on which card each bit lies
# ---------------------------------------------------------------------------------------------
class BitWriter:
    """Fields appended to one big-endian :class:`bitarray`."""

    def __init__(self) -> None:
        self.bits = bitarray(endian="big")

    def fixed(self, value: int, width: int) -> None:
        if width:
            self.bits.extend(int2ba(value, width, endian="big"))

    def gamma(self, n: int) -> None:
        """Elias gamma code of ``n`` ≥ 1: (bit length − 1) zeros, then ``n`` in binary."""
        if n < 1:
            raise ValueError(f"gamma code needs a number of at least 1, not {n}")
        self.bits.extend(zeros(n.bit_length() - 1, endian="big"))
        self.bits.extend(int2ba(n, endian="big"))

    def text(self, s: str) -> None:
        self.gamma(len(s) + 1)
        for ch in s:
            i = TEXT.find(ch)
            if i < 0:
                raise ValueError(f"character {ch!r} of {s!r} has no compact code (use {TEXT})")
            self.fixed(i, 6)


class BitReader:
    """Reads fields back; :meth:`fail` names the card the current field lies on."""

    def __init__(self, bits: bitarray, card_of: Sequence[int]) -> None:
        self.bits = bits
        self.card_of = card_of  # card number of every bit
        self.pos = 0

    @property
    def card(self) -> int:
        return self.card_of[min(self.pos, len(self.card_of) - 1)] if self.card_of else 1

    def fail(self, reason: str, card: int | None = None) -> DeckStateError:
        return DeckStateError(reason, card=card or self.card)

    def fixed(self, width: int, what: str) -> int:
        if self.pos + width > len(self.bits):
            raise self.fail(f"the cards end inside the {what} (cards missing at the end?)")
        value = ba2int(self.bits[self.pos:self.pos + width]) if width else 0
        self.pos += width
        return value

    def gamma(self, what: str) -> int:
        zeros = 0
        while self.pos < len(self.bits) and not self.bits[self.pos]:
            zeros += 1
            self.pos += 1
            if zeros > 64:
                raise self.fail(f"the {what} is not a number")
        return self.fixed(zeros + 1, what)

    def text(self, what: str) -> str:
        n = self.gamma(what) - 1
        return "".join(TEXT[self.fixed(6, what)] for _ in range(n))


# ---------------------------------------------------------------------------------------------
# chunks ⇄ cards
# ---------------------------------------------------------------------------------------------
def chunk_columns(chunk: bitarray) -> list[int]:
    """The 72 column words of one chunk (≤ :data:`CHUNK_BITS` bits): 1·chunk in base 63."""
    value = ba2int(bitarray("1", endian="big") + chunk)
    words = []
    for _ in range(DATA_COLUMNS):
        value, digit = divmod(value, BASE)
        words.append(COLUMN_WORDS[digit])
    return words


def columns_chunk(words: Sequence[int], card: int) -> bitarray:
    """The chunk that :func:`chunk_columns` wrote into ``words`` (the 72 data columns)."""
    value = 0
    for col in range(DATA_COLUMNS, 0, -1):
        digit = DIGIT_OF_WORD.get(words[col - 1])
        if digit is None:
            raise DeckStateError("punches that are no compact character (not a BCD character the "
                                 "1013 sends)", card=card, column=col)
        value = value * BASE + digit
    if value < 2 or value.bit_length() > CHUNK_BITS + 1:
        raise DeckStateError("the columns hold no compact chunk (is this a compact card?)", card=card)
    return int2ba(value, endian="big")[1:]


def _sequence_words(label: str, number: int) -> list[int]:
    return list(Card.from_text(" " * DATA_COLUMNS + f"{label}{number:0{NUMBER_WIDTH}d}", CODE))[72:]


def punch_chunks(chunks: Sequence[bitarray], label: str) -> list[Card]:
    label = label.upper()
    if len(label) != LABEL_WIDTH:
        raise ValueError(f"deck label {label!r} must be {LABEL_WIDTH} characters")
    if len(chunks) > MAX_CARDS:
        raise ValueError(f"state needs {len(chunks)} cards; the sequence field counts to {MAX_CARDS}")
    return [Card.from_columns(chunk_columns(c) + _sequence_words(label, n))
            for n, c in enumerate(chunks, start=1)]


def read_chunks(cards: Iterable[Card]) -> tuple[list[bitarray], str]:
    """The chunk of every card and the deck label, with the sequence field checked."""
    chunks: list[bitarray] = []
    label = ""
    for n, card in enumerate(cards, start=1):
        if card.is_eof:
            break
        seq = Card.from_columns([0] * DATA_COLUMNS + list(card)[DATA_COLUMNS:])
        try:
            text = seq.text(CODE)[DATA_COLUMNS:]
        except IbmError:
            raise DeckStateError("the sequence field (columns 73-80) is unreadable", card=n,
                                 column=73) from None
        for col, ch in enumerate(text, start=DATA_COLUMNS + 1):
            if ch not in SAFE_CHARACTERS:  # the label and number are punched in the BCD set only
                raise DeckStateError(f"character {ch!r} of the sequence field is not in the BCD set",
                                     card=n, column=col)
        if not all(ch in DIGITS for ch in text[LABEL_WIDTH:]):  # str.isdigit() takes '²' too
            raise DeckStateError(f"sequence field {text!r} has no card number", card=n, column=77)
        if n == 1:
            label = text[:LABEL_WIDTH]
        elif text[:LABEL_WIDTH] != label:
            raise DeckStateError(f"deck label {text[:LABEL_WIDTH]!r} differs from {label!r} on card 1 "
                                 "(a card of another deck)", card=n, column=73)
        if int(text[LABEL_WIDTH:]) != n:
            raise DeckStateError(f"card number {text[LABEL_WIDTH:]} where {n:04d} belongs (a card "
                                 "missing, repeated or out of order)", card=n, column=77)
        chunks.append(columns_chunk(list(card), n))
    if not chunks:
        raise DeckStateError("the deck has no cards")
    return chunks, label
