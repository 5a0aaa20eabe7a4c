"""Playing-card packs: the cards, their short names and each pack's documented order.

A playing card is a small frozen value, :class:`PlayingCard`: a ``rank`` (the card's position in its
suit, 1 = ace … 13 = king for the standard pack), a ``suit`` letter, a ``colour`` and a stable
``name`` made of letters and digits only, so that it can be punched in the 1401 BCD character set
(``docs/cards.md``).  Cards with the same name are the same value: the two aces
of clubs of a double pack compare equal, which is what every two-pack game wants.

Pack kinds (``docs/games.md``, "Other packs"):

``standard`` (52)
    Ranks A 2 … 9 T J Q K (rank 1 … 13), suits C D H S (clubs, diamonds black/red …).  Names are rank
    letter + suit letter: ``AC``, ``TD`` (ten of diamonds), ``QS``.  Order: AC AD AH AS 2C 2D … KS —
    rank by rank, clubs, diamonds, hearts, spades within a rank.  This is the order the Microsoft
    FreeCell generator shuffles (see :mod:`decks.deals`).
``double`` (104)
    The standard order twice (AC … KS, AC … KS); no jokers.  The two copies of a card are the same
    value (same name, code and char), so a two-pack position is a multiset of cards.
``double-88`` (88)
    Two packs without kings and queens, for British Constitution: the standard order cut at the
    jacks (AC AD AH AS 2C … JS, 44 cards), twice.
``compucards`` (54)
    The computer-themed pack of 1983: within each suit the cards are numbered in powers of two,
    1 (the ace), 2, 4, 8, … 512 for the ten positions A … 10, then the jack and queen, and the
    Programmer card ``P`` in place of the king; two ``Bug`` jokers.  Names: value + suit
    (``1C``, ``2C``, ``4C`` … ``512C``, ``JC``, ``QC``, ``PC``) and ``BUG1``, ``BUG2``.  ``rank`` is
    the position 1 … 13 (so games can treat it like a standard pack); ``value`` is the printed number
    (1 … 512; 0 for J, Q, P and the Bugs).  Order: like ``standard`` (rank by rank, C D H S), then
    BUG1, BUG2.
``spelling-bee`` (30)
    The board of the television pricing game: eleven ``C``, eleven ``A``, six ``R`` and two ``CAR``
    cards, in that order.  No suits; ``rank`` is 1 (C), 2 (A), 3 (R), 4 (CAR).
``tarot`` (78)
    The Trionfi / tarot pack: four suits W (wands), P (cups, "pokals"), S (swords), N (coins, "nummi")
    of fourteen cards A 2 … 9 T, then page ``J``, knight ``C``, queen ``Q``, king ``K`` (rank 1 … 14),
    and the 22 trumps ``M0`` … ``M21`` (suit ``M``, rank 0 … 21).  Names: ``AW``, ``TS``, ``CN``,
    ``M0``, ``M21``.  Order: the suits one after another (W, P, S, N, each A … K), then M0 … M21.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from emulator.errors import IbmError

STANDARD_RANKS = "A23456789TJQK"
"""Rank letters of the standard pack; ``STANDARD_RANKS[rank - 1]``.  T is the ten."""
STANDARD_SUITS = "CDHS"
"""Suit letters in the order of the Microsoft generator's pack: clubs, diamonds, hearts, spades."""
RED_SUITS = frozenset("DH")
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king")

TAROT_SUITS = "WPSN"
TAROT_RANKS = "A23456789TJCQK"
COMPUCARD_FACES = {11: "J", 12: "Q", 13: "P"}


@dataclass(frozen=True, slots=True)
class PlayingCard:
    """One playing card.

    ``rank``: position in its suit (1 = ace … 13 = king in a standard pack); ``suit``: one letter (''
    for a card without a suit); ``colour``: 'red', 'black' or ''; ``name``: the stable short name
    (letters and digits only); ``value``: the printed number where it differs from the rank
    (Compucards), else equal to ``rank``; ``code``: a small number unique to the name within its pack
    kind (the order in which names first appear in the pack); ``char``: ``chr(48 + code)``, one
    character standing for the card in compact state keys (the solver's transposition table).
    """

    rank: int
    suit: str
    colour: str
    name: str
    value: int
    code: int
    char: str

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"PlayingCard({self.name})"


def _colour(suit: str) -> str:
    if suit in RED_SUITS:
        return "red"
    return "black" if suit in "CS" and suit else ""


def _standard_names() -> list[tuple[int, str, str, int]]:
    return [(r, s, STANDARD_RANKS[r - 1] + s, r) for r in range(1, 14) for s in STANDARD_SUITS]


def _compucard_names() -> list[tuple[int, str, str, int]]:
    out = []
    for r in range(1, 14):
        for s in STANDARD_SUITS:
            if r <= 10:
                value = 1 << (r - 1)
                out.append((r, s, f"{value}{s}", value))
            else:
                out.append((r, s, COMPUCARD_FACES[r] + s, 0))
    out += [(0, "", "BUG1", 0), (0, "", "BUG2", 0)]
    return out


def _spelling_bee_names() -> list[tuple[int, str, str, int]]:
    counts = (("C", 1, 11), ("A", 2, 11), ("R", 3, 6), ("CAR", 4, 2))
    return [(rank, "", name, rank) for name, rank, n in counts for _ in range(n)]


def _tarot_names() -> list[tuple[int, str, str, int]]:
    out = [(r, s, TAROT_RANKS[r - 1] + s, r) for s in TAROT_SUITS for r in range(1, 15)]
    out += [(r, "M", f"M{r}", r) for r in range(22)]
    return out


_KINDS = {
    "standard": _standard_names,
    "double": lambda: _standard_names() * 2,
    "double-88": lambda: [row for row in _standard_names() if row[0] <= 11] * 2,
    "compucards": _compucard_names,
    "spelling-bee": _spelling_bee_names,
    "tarot": _tarot_names,
}
PACK_KINDS: tuple[str, ...] = tuple(_KINDS)


@cache
def pack(kind: str = "standard") -> tuple[PlayingCard, ...]:
    """The cards of a pack kind in its documented order (one shared tuple of interned cards)."""
    try:
        rows = _KINDS[kind]()
    except KeyError:
        raise IbmError(f"unknown pack kind {kind!r} (known: {', '.join(PACK_KINDS)})") from None
    first: dict[str, PlayingCard] = {}
    cards = []
    for rank, suit, name, value in rows:
        if name not in first:
            colour = _colour(suit) if kind != "tarot" else ("" if suit == "M" else _tarot_colour(suit))
            first[name] = PlayingCard(rank, suit, colour, name, value, len(first), chr(48 + len(first)))
        cards.append(first[name])
    return tuple(cards)


def _tarot_colour(suit: str) -> str:
    """Cups and coins are the 'red' suits of the Italian-suited tarot, wands and swords 'black'."""
    return "red" if suit in "PN" else "black"


@cache
def _by_name(kind: str) -> dict[str, PlayingCard]:
    return {c.name: c for c in pack(kind)}


def card(name: str, kind: str = "standard") -> PlayingCard:
    """The card with short name ``name`` in pack ``kind`` (case-insensitive), e.g. ``card('TD')``."""
    try:
        return _by_name(kind)[name.upper()]
    except KeyError:
        raise IbmError(f"no card named {name!r} in the {kind} pack") from None


def cards(names: str, kind: str = "standard") -> list[PlayingCard]:
    """Several cards from a space-separated string of short names: ``cards('AC TD QS')``."""
    return [card(n, kind) for n in names.split()]


def describe(c: PlayingCard) -> str:
    """A long name for people: 'ten of diamonds' (standard cards), else the short name."""
    if c.suit in SUIT_NAMES and 1 <= c.rank <= 13 and c.name == STANDARD_RANKS[c.rank - 1] + c.suit:
        return f"{RANK_NAMES[c.rank - 1]} of {SUIT_NAMES[c.suit]}"
    return c.name
