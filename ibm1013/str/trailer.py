"""Deck-level checks we add on top of STR: the trailer card and the resume record.

STR checks each record (every character has four 1-bits, the LRC checks the record), but nothing in
the 1013's line control says how many cards a deck has or whether the deck that arrived is the deck
that left.  Operators of the time counted cards and ran a balancing total on a control card at the
end of the deck; we do the same, as an extension of our own:

* The sender appends a **trailer card** after the last card of the deck:
  ``1013 TRAILER 00000012 CARDS DIGEST 0123456789ABCDEF0123456789ABCDEF`` — the number of deck
  cards and the first 128 bits of a SHA-256 over their holes, in hexadecimal.
* Before every transfer the receiver sends back a one-card record
  ``1013 RESUME  00000005 CARDS DIGEST … Lxxxx`` naming how many cards it holds durably, the digest
  of those cards and a tag of its column settings, so the sender can check it is continuing the same
  deck with the same settings (a fresh transfer says 0 cards).
* After the deck the receiver sends back its **verdict**, again as a one-card record:
  ``1013 VERDICT 00000012 CARDS DIGEST … PUBLISHED`` — the deck was checked against its trailer and
  written (the count and digest are the deck's); ``MISMATCH`` — the trailer check failed and nothing
  was written; ``NOTWRITTEN`` — the deck checked out but could not be written (disk full …), the
  cards are kept in the journal.  For the last two the count and digest are those of every card the
  receiver holds.  Only this tells the sender the deck really arrived (see ``docs/serial.md``).

Both are punched with letters, digits and blanks only. Those are BCD characters whose punches are
the same in every IBM card code, so the cards travel in faithful four-of-eight mode
(``docs/ibm1013.md`` §3; the cards are described in ``docs/str.md`` §3). The record is 67
characters; when the terminals send only part of each card (``--columns``), it is spread over the
columns that are sent of as many cards as it needs, and the digest is taken over the cards as the
far end punches them (unsent columns blank).
"""

from __future__ import annotations

import hashlib
import re
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from emulator.card import COLUMNS, Card
from emulator.errors import IbmError

DIGEST_HEX = 32
"""Hex digits of the digest carried on a card (128 bits)."""

TRAILER_WIDTH = 67
"""Columns a trailer or resume card uses; the rest of the card is blank."""

_CARD = struct.Struct(">80H")

# Punches of the characters used here (the same in 026, 029 and BCD): digits, letters, blank.
_ZONE = {"A": 0x800, "J": 0x400, "S": 0x200}
_PUNCH: dict[str, int] = {" ": 0, "0": 0x200}
for _d in range(1, 10):
    _PUNCH[str(_d)] = 0x200 >> _d
for _first, _zone in _ZONE.items():
    _start = 2 if _first == "S" else 1
    for _i, _ch in enumerate(
        "ABCDEFGHI" if _first == "A" else "JKLMNOPQR" if _first == "J" else "STUVWXYZ"
    ):
        _PUNCH[_ch] = _zone | (0x200 >> (_start + _i))
_CHAR = {w: c for c, w in _PUNCH.items()}


class DeckCheckError(IbmError):
    """The deck that arrived is not the deck that was sent (count or digest differ)."""


def card_bytes(card: Card) -> bytes:
    """The 80 column words of a card as 160 big-endian bytes (what the digest is taken over)."""
    return _CARD.pack(*card.columns)


def card_of_bytes(words: bytes) -> Card:
    """The card whose :func:`card_bytes` are ``words`` (a code table's or a card's: the words are
    not checked, see :meth:`~emulator.card.Card.from_table`)."""
    return Card.from_table(_CARD.unpack(words))


class DeckDigest:
    """Running card count and SHA-256 over the holes of every card, in deck order."""

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        self._sha = hashlib.sha256()
        self.count = 0
        for card in cards:
            self.update(card)

    def update(self, card: Card) -> None:
        self.update_words(card_bytes(card))

    def update_words(self, words: bytes) -> None:
        """Count a card given as its :func:`card_bytes` (a caller that has them already)."""
        self._sha.update(words)
        self.count += 1

    def hexdigest(self) -> str:
        return self._sha.hexdigest()[:DIGEST_HEX].upper()

    def copy(self) -> DeckDigest:
        other = DeckDigest()
        other._sha = self._sha.copy()
        other.count = self.count
        return other


@dataclass(frozen=True)
class DeckMark:
    """What a trailer or resume card says: a card count and a digest of those cards."""

    kind: str  # "TRAILER", "RESUME", "VERDICT" or "REFUSED"
    count: int
    digest: str
    layout: str = ""
    """Resume record only: a 4-hex-digit tag of the receiving end's column layout ("" if absent)."""
    status: str = ""
    """Verdict: ``PUBLISHED``, ``MISMATCH`` or ``NOTWRITTEN`` (see :data:`VERDICTS`); refusal: why
    (see :data:`REFUSALS`)."""
    bit_rate: int | None = None
    """Resume record and refusal: the bit rate the end that sent it was given (``None`` if absent)."""


VERDICTS = ("PUBLISHED", "MISMATCH", "NOTWRITTEN")
"""What a receiving end can say about a deck whose trailer arrived (see the module docstring)."""
REFUSALS = ("RATE", "LAYOUT", "RESUME", "OTHER", "BINARY", "GAME", "ANEW", "SHORT")
"""Why a sending end refused the receiving end's handshake (told at once in a ``REFUSED`` record, so
the receiving end need not wait out its timeout): another bit rate, another column layout, a journal
to resume without ``--resume``, the cards of another deck, a deck with a card only column binary
can send (no ``--column-binary``), a game stream (``play --stream``) whose far end is no watcher;
and from an ``rje-host`` restarted in the output phase: ``ANEW``, the job ran again and its whole
output comes anew (drop the cards held of the earlier run, then hand shake again), or ``SHORT``, the
job cannot run again and the output it could send may be short."""
MAX_MARKED_BIT_RATE = 99_999
"""The highest bit rate a resume record can name (five digits: the record fills 80 columns)."""


def sent_view(card: Card, columns: Sequence[int] | None) -> Card:
    """``card`` as the far end punches it when only ``columns`` (0-based indices) are sent."""
    if columns is None or len(columns) == COLUMNS:
        return card
    words = [0] * COLUMNS
    for i in columns:
        words[i] = card.columns[i]
    return Card(words)


def marks_needed(columns: Sequence[int] | None) -> int:
    """How many cards a trailer or resume record takes when only ``columns`` are sent."""
    width = COLUMNS if columns is None else len(columns)
    return -(-TRAILER_WIDTH // width)


def mark_cards(
    kind: str, count: int, digest: str, columns: Sequence[int] | None = None, layout: str = "",
    status: str = "", bit_rate: int | None = None,
) -> list[Card]:
    """The trailer (``kind="TRAILER"``), resume (``"RESUME"``) or verdict (``"VERDICT"``, with a
    ``status``) record for ``count`` cards.

    Its 67 characters go into the columns that are sent (``columns``, 0-based; all 80 if ``None``),
    spread over as many cards as needed (one when at least 67 columns are sent).
    """
    if not 0 <= count <= 99_999_999:
        raise DeckCheckError(f"a deck of {count} cards is too large for the trailer card")
    if bit_rate is not None and not 0 < bit_rate <= MAX_MARKED_BIT_RATE:
        bit_rate = None  # beyond what the record can say: not compared
    text = (f"1013 {kind:<7} {count:08d} CARDS DIGEST {digest}" + (f" L{layout}" if layout else "")
            + (f" B{bit_rate}" if bit_rate else "") + (f" {status}" if status else ""))
    cols = list(range(COLUMNS)) if columns is None else list(columns)
    cards = []
    for start in range(0, len(text), len(cols)):
        words = [0] * COLUMNS
        for col, ch in zip(cols, text[start : start + len(cols)], strict=False):
            words[col] = _PUNCH[ch]
        cards.append(Card(words))
    return cards


_MARK = re.compile(r"1013 (TRAILER|RESUME |VERDICT|REFUSED) (\d{8}) CARDS DIGEST ([0-9A-F]{32})"
                   r"(?: L([0-9A-F]{4}))?(?: B(\d{1,5}))?(?: ([A-Z]{1,11}))?")


def parse_mark(cards: Sequence[Card], columns: Sequence[int] | None = None) -> DeckMark | None:
    """The trailer or resume record on ``cards`` (see :func:`mark_cards`), or ``None``."""
    cols = list(range(COLUMNS)) if columns is None else list(columns)
    chars = [_CHAR.get(card.columns[c]) for card in cards for c in cols]
    if None in chars:
        return None
    m = _MARK.fullmatch("".join(c for c in chars if c is not None).rstrip(" "))
    if m is None:
        return None
    return DeckMark(m.group(1).strip(), int(m.group(2)), m.group(3), m.group(4) or "", m.group(6) or "",
                    int(m.group(5)) if m.group(5) else None)


def trailer_cards(digest: DeckDigest, columns: Sequence[int] | None = None) -> list[Card]:
    return mark_cards("TRAILER", digest.count, digest.hexdigest(), columns)


def resume_cards(digest: DeckDigest, layout: str = "", bit_rate: int | None = None) -> list[Card]:
    """The resume record; ``layout`` (see :func:`layout_tag`) and ``bit_rate`` let the sender catch
    unlike settings."""
    return mark_cards("RESUME", digest.count, digest.hexdigest(), layout=layout, bit_rate=bit_rate)


def refusal_cards(reason: str, bit_rate: int) -> list[Card]:
    """The sending end's refusal of a handshake: ``reason`` (one of :data:`REFUSALS`) and, for
    ``RATE``, its own bit rate, on one whole card in BCD — the handshake's own form, which every
    receiving end reads whatever its ``--columns`` (see :class:`~ibm1013.str.receiver.Receiver`'s
    ``handshake``)."""
    if reason not in REFUSALS:
        raise ValueError(f"unknown refusal {reason!r}")
    cards = mark_cards("REFUSED", 0, "0" * 32, status=reason,
                       bit_rate=bit_rate if reason == "RATE" else None)
    assert len(cards) == 1, "a refusal fits one card"
    return cards


def verdict_cards(status: str, count: int, digest: str) -> list[Card]:
    """The receiver's verdict record: ``status`` (one of :data:`VERDICTS`) about ``count`` cards of
    hex digest ``digest``."""
    if status not in VERDICTS:
        raise ValueError(f"unknown verdict {status!r}")
    return mark_cards("VERDICT", count, digest, status=status)


def layout_tag(description: str) -> str:
    """Four hex digits naming a column layout (its description), for the resume record."""
    return hashlib.sha256(description.encode()).hexdigest()[:4].upper()


def check_trailer(
    trailer: Sequence[Card], received: DeckDigest, columns: Sequence[int] | None = None
) -> None:
    """Raise :class:`DeckCheckError` unless ``trailer`` vouches for exactly the cards received."""
    mark = parse_mark(trailer, columns)
    if mark is None or mark.kind != "TRAILER":
        raise DeckCheckError(
            f"the deck ended without a trailer card after card {received.count}: "
            "the sender did not finish the deck"
        )
    if mark.count != received.count:
        raise DeckCheckError(
            f"trailer says {mark.count} cards but {received.count} arrived: cards lost or repeated"
        )
    if mark.digest != received.hexdigest():
        raise DeckCheckError(
            f"deck digest mismatch over {received.count} cards (trailer {mark.digest}, "
            f"received {received.hexdigest()}): some card arrived altered"
        )
