"""The card layer of a readable game deck (:mod:`decks.punch`): records of tokens on 80-column cards.

A *record* is a keyword and its tokens (``PILE T2 2 /5H 4C``).  It starts on a fresh card; when its
tokens do not fit in columns 1–72 it continues on ``CONT`` cards that repeat the keyword and, for a
pile, its name.  Every column is one of the :data:`SAFE_CHARACTERS` — the 1401 BCD characters that
the 029 and both 026 keypunches punch alike — and any string becomes such a token by a small escape
(:func:`escape`).  Columns 73–80 hold the classic sequence field, a 4-character deck label and a
4-digit card number, so a dropped deck can be put back in order by eye; the last card, the
trailer, says how many cards the deck has and carries a digest of every card before it.

:func:`punch_records` makes the cards and :func:`read_records` reads them back, checking every
column, the sequence field, the continuations and the trailer; each fault is a
:class:`DeckStateError` naming the card (and the column where one is to blame).  What the records
*mean* — a game state — is :mod:`decks.punch`'s.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from emulator.card import Card
from emulator.errors import CardError

PAYLOAD_COLUMNS = 72
"""Columns 1–72 carry the record; 73–80 are the sequence field."""

LABEL_WIDTH = 4
NUMBER_WIDTH = 4
MAX_CARDS = 10**NUMBER_WIDTH - 1

SAFE_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -/.,$*")
"""Characters common to the 1401 BCD set, the 029 and both 026 keypunches (docs/cards.md §2)."""

CODE = "029"
"""Keypunch code used to punch and read the deck (the safe characters punch alike in 026)."""

DIGEST_DIGITS = 16

# Records whose first token after the keyword names the record (repeated on continuation cards).
_NAMED_RECORDS = frozenset({"PILE"})


class DeckStateError(CardError):
    """A punched deck that is not a valid game state; ``card`` is the 1-based card number."""


# ---------------------------------------------------------------------------------------------
# escaping free text into safe tokens
# ---------------------------------------------------------------------------------------------
_HEX = "0123456789ABCDEF"


def escape(text: str, *, natural_upper: bool = False) -> str:
    """``text`` as one token of safe characters, reversible with :func:`unescape`.

    Letters of the *natural* case (lower case for names such as ``klondike``, upper case for
    playing cards such as ``KS``) print as upper-case letters; a letter of the other case gets a
    ``*`` before it.  Digits and ``-`` stand for themselves, ``_`` prints as ``.``, and any other
    character as ``$`` + 2 hex digits (``$U`` + 4 or ``$V`` + 6 beyond Latin-1).
    """
    out = []
    for ch in text:
        if "a" <= ch <= "z" or "A" <= ch <= "Z":
            natural = ch.isupper() == natural_upper
            out.append(ch.upper() if natural else "*" + ch.upper())
        elif "0" <= ch <= "9" or ch == "-":
            out.append(ch)
        elif ch == "_":
            out.append(".")
        else:
            code = ord(ch)
            if code < 0x100:
                out.append(f"${code:02X}")
            elif code < 0x10000:
                out.append(f"$U{code:04X}")
            else:
                out.append(f"$V{code:06X}")
    return "".join(out)


def unescape(token: str, *, natural_upper: bool = False) -> str:
    """The text that :func:`escape` turned into ``token``; ``ValueError`` if it is malformed."""
    out = []
    i = 0
    while i < len(token):
        ch = token[i]
        if "A" <= ch <= "Z":
            out.append(ch if natural_upper else ch.lower())
            i += 1
        elif "0" <= ch <= "9" or ch == "-":
            out.append(ch)
            i += 1
        elif ch == ".":
            out.append("_")
            i += 1
        elif ch == "*":
            nxt = token[i + 1 : i + 2]
            if not ("A" <= nxt <= "Z"):
                raise ValueError(f"'*' must be followed by a letter in {token!r}")
            out.append(nxt.lower() if natural_upper else nxt)
            i += 2
        elif ch == "$":
            width = {"U": 4, "V": 6}.get(token[i + 1 : i + 2], 2)
            start = i + 1 + (width != 2)
            digits = token[start : start + width]
            if len(digits) != width or any(d not in _HEX for d in digits):
                raise ValueError(f"bad '$' escape in {token!r}")
            out.append(chr(int(digits, 16)))
            i = start + width
        else:
            raise ValueError(f"character {ch!r} is not allowed in {token!r}")
    return "".join(out)


def format_value(value: object) -> str:
    """An option or counter value as a token: ``3``, ``-1``, ``YES``, ``NO``, ``NONE`` or text."""
    if value is True:
        return "YES"
    if value is False:
        return "NO"
    if value is None:
        return "NONE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        token = escape(value)
        if token in ("YES", "NO", "NONE") or re.fullmatch(r"-?\d+", token) or not token:
            token = "," + token  # a string that would read as a number or a flag
        return token
    raise TypeError(f"cannot punch value {value!r} of type {type(value).__name__}")


def parse_value(token: str) -> object:
    """The value :func:`format_value` wrote as ``token``."""
    if token == "YES":
        return True
    if token == "NO":
        return False
    if token == "NONE":
        return None
    if re.fullmatch(r"-?\d+", token):
        return int(token)
    if token.startswith(","):
        return unescape(token[1:])
    return unescape(token)


# ---------------------------------------------------------------------------------------------
# records ⇄ card images
# ---------------------------------------------------------------------------------------------
@dataclass
class Record:
    """One logical line of the deck: a keyword and its tokens (``PILE``, ``STOCK``, ``24``, …).

    ``card`` is the number of the card it started on (filled in by :func:`read_records`).
    """

    keyword: str
    tokens: list[str] = field(default_factory=list)
    card: int = 0

    def head(self) -> list[str]:
        """Tokens repeated on each continuation card: the keyword, and a pile's name."""
        if self.keyword in _NAMED_RECORDS and self.tokens:
            return [self.keyword, self.tokens[0]]
        return [self.keyword]

    def body(self) -> list[str]:
        return self.tokens[len(self.head()) - 1 :]


def layout_records(records: Sequence[Record]) -> list[str]:
    """The 72-column payload lines for ``records`` (continuation cards where needed)."""
    lines: list[str] = []
    for record in records:
        head = record.head()
        line = " ".join(head)
        for token in record.body():
            if not token or any(ch not in SAFE_CHARACTERS or ch == " " for ch in token):
                raise ValueError(f"token {token!r} of {record.keyword} is not punchable")
            if len(token) > PAYLOAD_COLUMNS - 40:
                raise ValueError(f"token {token!r} of {record.keyword} is too long for a card")
            if len(line) + 1 + len(token) > PAYLOAD_COLUMNS:
                lines.append(line)
                line = " ".join(["CONT", *head])
            line += " " + token
        if len(line) > PAYLOAD_COLUMNS:
            raise ValueError(f"record head {line!r} is too long for a card")
        lines.append(line)
    return lines


def digest(payloads: Iterable[str], label: str) -> str:
    """First 16 hex digits of SHA-256 over the label and each card's 72-column payload."""
    h = hashlib.sha256(label.encode("ascii"))
    for text in payloads:
        h.update(b"\n" + text.ljust(PAYLOAD_COLUMNS).encode("ascii"))
    return h.hexdigest()[:DIGEST_DIGITS].upper()


def deck_label(game: str) -> str:
    """Default 4-character deck label: the game's name without separators, e.g. ``KLON``."""
    letters = re.sub(r"[^A-Z0-9]", "", game.upper())
    return (letters or "DECK")[:LABEL_WIDTH].ljust(LABEL_WIDTH, "X")


def punch_records(records: Sequence[Record], label: str) -> list[Card]:
    """Cards for ``records`` followed by the trailer card, each with its sequence field."""
    label = label.upper()
    if len(label) != LABEL_WIDTH or any(ch not in SAFE_CHARACTERS for ch in label):
        raise ValueError(f"deck label {label!r} must be {LABEL_WIDTH} safe characters")
    payloads = layout_records(records)
    count = len(payloads) + 1
    if count > MAX_CARDS:
        raise ValueError(f"state needs {count} cards; the sequence field counts to {MAX_CARDS}")
    payloads.append(f"END CARDS {count:04d} DIGEST {digest(payloads, label)}")
    return [
        Card.from_text(text.ljust(PAYLOAD_COLUMNS) + f"{label}{n:0{NUMBER_WIDTH}d}", CODE)
        for n, text in enumerate(payloads, start=1)
    ]


def read_records(cards: Iterable[Card]) -> tuple[list[Record], str]:
    """The records on a punched deck and its label; every check of the card layer done here.

    Checks: each column is a safe character, the sequence field numbers the cards 1, 2, 3 … with
    one label, continuation cards follow their record, the trailer is last with the right count
    and digest.
    """
    payloads: list[str] = []
    label = ""
    records: list[Record] = []
    trailer: list[str] | None = None
    for n, card in enumerate(cards, start=1):
        if card.is_eof:  # a SIMH end-of-file marker ends the deck
            break
        if trailer is not None:
            raise DeckStateError("card after the END card", card=n)
        try:
            text = card.text(CODE)
        except CardError as err:
            raise DeckStateError(f"unreadable punches: {err.reason}", card=n, column=err.column) from None
        for col, ch in enumerate(text, start=1):
            if ch not in SAFE_CHARACTERS:
                raise DeckStateError(f"character {ch!r} is not in the BCD set", card=n, column=col)
        seq_label, seq_number = text[72:76], text[76:80]
        if not seq_number.isdigit():
            raise DeckStateError(f"sequence field {text[72:80]!r} has no card number", card=n, column=77)
        if n == 1:
            label = seq_label
        elif seq_label != label:
            raise DeckStateError(
                f"deck label {seq_label!r} differs from {label!r} on card 1 (a card of another deck)",
                card=n, column=73,
            )
        if int(seq_number) != n:
            raise DeckStateError(
                f"card number {seq_number} where {n:04d} belongs (a card missing, repeated or out "
                "of order)", card=n, column=77,
            )
        payload = text[:PAYLOAD_COLUMNS]
        tokens = payload.split()
        if not tokens:
            raise DeckStateError("blank card in a game deck", card=n)
        if tokens[0] == "END":
            trailer = tokens
            _check_trailer(tokens, n, payloads, label)
            continue
        payloads.append(payload)
        if tokens[0] == "CONT":
            _continue(records, tokens, n)
        else:
            records.append(Record(tokens[0], tokens[1:], card=n))
    if trailer is None:
        count = len(payloads)
        raise DeckStateError("deck ends without its END card (cards missing at the end)",
                             card=count if count else None)
    return records, label


def _continue(records: list[Record], tokens: list[str], n: int) -> None:
    if not records:
        raise DeckStateError("continuation card before any record", card=n)
    last = records[-1]
    head = last.head()
    if tokens[1 : 1 + len(head)] != head:
        raise DeckStateError(
            f"continuation of {' '.join(tokens[1:1 + len(head)])} does not follow its record "
            f"(card {last.card} is {' '.join(head)})", card=n,
        )
    last.tokens.extend(tokens[1 + len(head) :])


def _check_trailer(tokens: list[str], n: int, payloads: list[str], label: str) -> None:
    if len(tokens) != 5 or tokens[1] != "CARDS" or tokens[3] != "DIGEST" or not tokens[2].isdigit():
        raise DeckStateError("malformed END card (want END CARDS nnnn DIGEST hex)", card=n)
    if int(tokens[2]) != n:
        raise DeckStateError(f"END card says the deck has {int(tokens[2])} cards, it has {n}", card=n)
    expected = digest(payloads, label)
    if tokens[4] != expected:
        raise DeckStateError(
            f"digest {tokens[4]} does not match the cards ({expected}): a card was changed", card=n
        )
