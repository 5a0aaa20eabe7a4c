"""The 80-column punched card as a value.

A card has 80 columns and 12 punch rows.  From the top edge the rows are 12, 11, 0, 1, 2 … 9; rows
12, 11 and 0 are the *zone* rows, 1–9 (and 0) the *digit* rows.  Each column is held as a 12-bit
*column word* with row 12 in the high bit (``0x800``) down to row 9 in the low bit (``0x001``) — the
order SIMH, the IBM 1130 simulator and bsd ``bcd`` all use (``docs/cards.md`` §1).
In octal the four digits of a column word are the rows (12,11,0)(1,2,3)(4,5,6)(7,8,9), so ``A``
(12-1) is ``0o4400``.

Columns are numbered 1–80 as printed on the card; Python indexing (``card[i]``) is 0-based.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from emulator.errors import CardError
from emulator.punches import COLUMNS as COLUMNS
from emulator.punches import ROW_BIT as ROW_BIT
from emulator.punches import ROWS as ROWS
from emulator.punches import punches_to_word as punches_to_word
from emulator.punches import word_to_punches as word_to_punches

TYPE_CHECKING = False  # typing is not imported at run time: every command reading a deck comes here
if TYPE_CHECKING:
    import numpy as np

BLANK = 0
MAX_WORD = 0xFFF


class Card:
    """An immutable 80-column card: equality and hashing by its holes.

    Build one from column words (:meth:`from_columns`), from punch strings (:meth:`from_punches`) or
    from text through a keypunch code (:meth:`from_text`).  Fewer than 80 columns are padded blank.
    """

    __slots__ = ("_columns", "_hash")

    is_eof: bool = False
    """True only for the end-of-file marker :data:`EOF_CARD` (see :class:`EofCard`)."""

    def __init__(self, columns: Iterable[int] = ()) -> None:
        cols = tuple(columns)
        if len(cols) > COLUMNS:
            raise CardError(f"a card has {COLUMNS} columns, not {len(cols)}")
        if cols and not (0 <= min(cols) and max(cols) <= MAX_WORD):  # one pass each, in C
            for i, word in enumerate(cols):
                if not 0 <= word <= MAX_WORD:
                    raise CardError(f"column word {word!r} is not 12 bits", column=i + 1)
        if len(cols) < COLUMNS:
            cols += (BLANK,) * (COLUMNS - len(cols))
        self._columns: tuple[int, ...] = cols
        self._hash = hash(cols)

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_columns(cls, columns: Iterable[int]) -> Card:
        """A card from up to 80 column words (row 12 = 0x800 … row 9 = 0x001)."""
        return cls(columns)

    @classmethod
    def from_table(cls, words: tuple[int, ...]) -> Card:
        """A card from up to 80 column words read from a code table, whose words are all 12-bit:
        the words are not checked one by one (a receiving end makes one of these a card)."""
        if len(words) > COLUMNS:
            raise CardError(f"a card has {COLUMNS} columns, not {len(words)}")
        if len(words) < COLUMNS:
            words += (BLANK,) * (COLUMNS - len(words))
        card = object.__new__(cls)
        card._columns = words
        card._hash = hash(words)
        return card

    @classmethod
    def blank(cls) -> Card:
        """A card with no holes."""
        return _BLANK_CARD

    @classmethod
    def eof(cls) -> Card:
        """The end-of-file marker card :data:`EOF_CARD`."""
        return EOF_CARD

    @classmethod
    def from_punches(cls, punches: Sequence[str]) -> Card:
        """A card from punch strings per column, e.g. ``["12-1", "", "0-8-3"]``."""
        words = []
        for i, p in enumerate(punches):
            try:
                words.append(punches_to_word(p))
            except CardError as err:
                raise CardError(err.reason, column=i + 1) from None
        return cls(words)

    @classmethod
    def from_text(cls, text: str, code: str = "029", *, lenient: bool = False) -> Card:
        """Keypunch ``text`` (at most 80 characters) through the named code.

        A character the code cannot punch is a :class:`CardError` naming the column, unless
        ``lenient``, when the code's substitute is punched instead.
        """
        from emulator.codes import get_code

        return cls(get_code(code).encode(text, lenient=lenient))

    @classmethod
    def from_array(cls, row: np.ndarray) -> Card:
        """A card from one row of a deck array (80 unsigned column words)."""
        return cls(row.tolist())  # Python ints, converted by numpy in one call

    # -- reading ------------------------------------------------------------------------------
    @property
    def columns(self) -> tuple[int, ...]:
        """The 80 column words, column 1 first."""
        return self._columns

    def column(self, number: int) -> int:
        """Column word of column ``number`` (1–80, as printed on the card)."""
        if not 1 <= number <= COLUMNS:
            raise CardError(f"no column {number} on an {COLUMNS}-column card")
        return self._columns[number - 1]

    def punches(self, number: int) -> str:
        """Punches of column ``number`` (1–80) as a string like ``"12-1"``; ``""`` if blank."""
        return word_to_punches(self.column(number))

    def text(self, code: str = "029", *, lenient: bool = False) -> str:
        """The 80 characters the punches stand for in ``code`` (trailing blanks kept).

        A punch pattern the code lacks is a :class:`CardError` naming the column, unless
        ``lenient``, when the code's substitute character is used.
        """
        from emulator.codes import get_code

        return get_code(code).decode(self._columns, lenient=lenient)

    def interpreted(self, code: str = "029") -> str:
        """The line a keypunch prints along the top edge: unknown patterns print as blanks."""
        from emulator.codes import get_code

        return get_code(code).interpret(self._columns)

    def last_nonblank(self) -> int:
        """Number (1–80) of the last punched column; 0 for a blank card."""
        for i in range(COLUMNS - 1, -1, -1):
            if self._columns[i]:
                return i + 1
        return 0

    def is_blank(self) -> bool:
        """Whether no column of the card is punched."""
        return not any(self._columns)

    # -- value protocol -----------------------------------------------------------------------
    def __len__(self) -> int:
        return COLUMNS

    def __getitem__(self, index: int) -> int:
        return self._columns[index]

    def __iter__(self) -> Iterator[int]:
        return iter(self._columns)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._columns == other._columns and self.is_eof == other.is_eof

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        last = self.last_nonblank()
        body = " ".join(f"{w:04o}" for w in self._columns[:last])
        return f"Card(<{body}>)"

    def _repr_svg_(self) -> str:
        """The card's picture, its holes and the characters printed along its top in the 029 code
        (Jupyter shows it; :func:`emulator.render.card_svg`, loaded only now).

        >>> '<rect class="hole"' in Card.from_text("A")._repr_svg_()
        True
        """
        from emulator.render import card_svg

        return card_svg(self, code="029")


_BLANK_CARD = Card()


class EofCard(Card):
    """The end-of-file marker in a stream of cards: not a punched card but a signal to the reader.

    SIMH 4.x decks can hold one between cards — a text line ``~``, or the lone byte 0x8F in a
    column-binary deck (``docs/cards.md`` §3) — and the reader then reports
    end of file to the program instead of a card.  In our card streams it is :data:`EOF_CARD`: it has
    no holes (code that ignores it sees a blank card) but ``is_eof`` is true, it equals only itself,
    and the writers of formats that can hold it write it back; the others refuse it.
    """

    __slots__ = ()
    is_eof = True

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return other.is_eof

    def __hash__(self) -> int:
        return hash("EOF card")

    def __repr__(self) -> str:
        return "Card.eof()"


EOF_CARD = EofCard()
"""The one end-of-file marker card."""
