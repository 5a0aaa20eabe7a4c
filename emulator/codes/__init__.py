"""Keypunch character codes: which holes a key punches, and which character a pattern prints as.

Each code lives in a module of its own as data (a table, in the manner of Python's
``encodings/cp037.py``) and registers a :class:`Code` here.  Facts and tables come from
``docs/cards.md`` §2; ``tests/test_codes.py`` checks every table against it.

Names: ``029`` (IBM 029 = EBCDIC card code), ``026-commercial``, ``026-fortran``, ``simh029``,
``dec029``, ``simh026`` (SIMH 4.x), ``ge635`` (bsd ``bcd``).  Use :func:`get_code` to look one up.
The 64 BCD characters of the 1401 with their six-bit values are in :mod:`emulator.codes.bcd1401`.

Unknown characters and punch patterns are a :class:`~emulator.errors.CardError` naming the column
(and the card, when the caller says which); ``lenient`` substitutes instead and counts each
substitution in a :class:`Substitutions` if one is passed.
"""

from __future__ import annotations

import functools

from emulator.errors import CardError, CodeError
from emulator.record import Record
from emulator.registry import Registry

TYPE_CHECKING = False  # typing is not imported at run time: every command reading a deck comes here
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import TypedDict, Unpack

    class CodeOptions(TypedDict, total=False):
        """The fields of a :class:`Code` that :meth:`Code.from_punches` takes as keywords."""

        fold_case: bool
        substitute_char: str
        substitute_word: int
        aliases: tuple[str, ...]


class Substitutions:
    """Counts what ``lenient`` encoding or decoding replaced, for reporting ("3 substitutions").

    Pass one to :meth:`Code.encode` / :meth:`Code.decode` (and to the deck readers and writers);
    ``count`` grows by one per replaced character or column, and ``first`` keeps the first few
    positions as ``(card, column)`` pairs (``card`` is ``None`` when not known).

    (Written out rather than a dataclass: every command that reads a deck loads this module, and
    :mod:`dataclasses` imports :mod:`inspect`, :mod:`ast` and more, as long to load as a small
    command takes to run.)
    """

    __hash__ = None  # type: ignore[assignment]  # mutable: compared by value, never hashed

    def __init__(self, count: int = 0, first: list[tuple[int | None, int]] | None = None,
                 keep: int = 5) -> None:
        self.count = count
        self.first: list[tuple[int | None, int]] = [] if first is None else first
        self.keep = keep

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Substitutions)
        return (self.count, self.first, self.keep) == (other.count, other.first, other.keep)

    def __repr__(self) -> str:
        return f"Substitutions(count={self.count!r}, first={self.first!r}, keep={self.keep!r})"

    def add(self, column: int, card: int | None = None) -> None:
        self.count += 1
        if len(self.first) < self.keep:
            self.first.append((card, column))


class Code(Record):
    """A character code: ``encoding`` maps characters to column words, ``decoding`` the reverse.

    ``fold_case``: lower-case letters are punched as upper case (the 026 and most simulators).
    ``substitute``: what ``lenient`` decoding prints for an unknown pattern, and the pattern that
    ``lenient`` encoding punches for an unknown character.  Frozen (a :class:`~emulator.record.Record`,
    not a dataclass: see :class:`Substitutions`).
    """

    name: str
    description: str
    encoding: Mapping[str, int]
    decoding: Mapping[int, str]
    fold_case: bool
    substitute_char: str
    substitute_word: int
    aliases: tuple[str, ...]
    _fields = ("name", "description", "encoding", "decoding", "fold_case", "substitute_char",
               "substitute_word", "aliases")

    def __init__(self, name: str, description: str, encoding: Mapping[str, int], decoding: Mapping[int, str],
                 fold_case: bool = False, substitute_char: str = "?", substitute_word: int = 0,
                 aliases: tuple[str, ...] = ()) -> None:
        self._set(name=name, description=description, encoding=encoding, decoding=decoding,
                  fold_case=fold_case, substitute_char=substitute_char, substitute_word=substitute_word,
                  aliases=aliases)

    def encode(
        self, text: str, *, lenient: bool = False, substitutions: Substitutions | None = None,
        card: int | None = None,
    ) -> tuple[int, ...]:
        """Column words for ``text`` (at most 80 characters).

        ``lenient`` punches ``substitute_word`` for a character the code lacks, counting it in
        ``substitutions`` if given; ``card`` (1-based) only labels errors and counts.
        """
        if len(text) > 80:
            raise CardError(f"{len(text)} characters do not fit on an 80-column card")
        enc = self.encoding
        words = []
        for i, ch in enumerate(text):
            if self.fold_case:
                ch = ch.upper()
            word = enc.get(ch)
            if word is None:
                if not lenient:
                    raise CodeError(
                        f"character {ch!r} has no punch in code {self.name}", column=i + 1, card=card
                    )
                word = self.substitute_word
                if substitutions is not None:
                    substitutions.add(i + 1, card)
            words.append(word)
        return tuple(words)

    def decode(
        self, words: Sequence[int], *, lenient: bool = False, substitutions: Substitutions | None = None,
        card: int | None = None,
    ) -> str:
        """The characters for column words; unknown patterns are an error unless ``lenient``.

        ``lenient`` prints ``substitute_char`` instead, counting it in ``substitutions`` if given.
        """
        dec = self.decoding
        out = []
        for i, word in enumerate(words):
            ch = dec.get(word)
            if ch is None:
                if not lenient:
                    from emulator.punches import word_to_punches  # here: decoding need not load it

                    raise CodeError(
                        f"punches {word_to_punches(word) or 'none'} are not a character of code "
                        f"{self.name}",
                        column=i + 1, card=card,
                    )
                ch = self.substitute_char
                if substitutions is not None:
                    substitutions.add(i + 1, card)
            out.append(ch)
        return "".join(out)

    @functools.cached_property
    def printing(self) -> frozenset[int]:
        """The punch patterns this code prints as a character: text can show them.  Its table also
        maps some patterns to control characters (the 029's EBCDIC ``DEL`` is 12-7-9), which no text
        shows; a deck holding one cannot be decoded as text in this code.  Decoding, ``cards info``
        and which codes fit a deck (:mod:`emulator.codes.detect`) all ask this one set."""
        return frozenset(word for word, ch in self.decoding.items() if ch.isprintable() and ch != "\0")

    @classmethod
    def from_punches(
        cls, name: str, description: str, table: Mapping[str, str], *, prefer: str = "",
        **options: Unpack[CodeOptions],
    ) -> Code:
        """A code from a table of ``character: "punches"`` (e.g. ``{"A": "12-1"}``).

        When several characters share one pattern, decoding gives the one listed in ``prefer``,
        otherwise the last one in the table.  The other keywords set the fields of the same names
        (``fold_case``, ``substitute_char``, ``substitute_word``, ``aliases``); ``substitute_word``
        defaults to the punches of ``substitute_char``.
        """
        from emulator.punches import punches_to_word  # here: the 029's table is written in words

        encoding = {ch: punches_to_word(p) for ch, p in table.items()}
        decoding = {word: ch for ch, word in encoding.items()}
        for ch in prefer:
            decoding[encoding[ch]] = ch
        sub = str(options.get("substitute_char", "?"))
        if "substitute_word" not in options and sub in encoding:
            options["substitute_word"] = encoding[sub]
        return cls(name, description, encoding, decoding, **options)

    def interpret(self, words: Sequence[int]) -> str:
        """What a keypunch prints above the columns: unknown patterns and controls print blank."""
        dec = self.decoding
        return "".join(ch if (ch := dec.get(w, " ")).isprintable() else " " for w in words)


CODE_NAMES: tuple[str, ...] = ("026-commercial", "026-fortran", "029", "dec029", "ge635", "simh026",
                               "simh029")
"""The names the code modules register, as :func:`code_names` gives them, written out so that the
command line can offer them without importing the modules (and numpy); tests/test_registry.py checks
that the two agree."""

CODE_HOMES: dict[str, str] = {
    "026-commercial": "ibm026", "026c": "ibm026", "026-fortran": "ibm026", "026f": "ibm026",
    "029": "ibm029", "ibm029": "ibm029", "ebcdic": "ibm029", "dec029": "dec029",
    "ge635": "ge635", "bcd": "ge635", "bsd-bcd": "ge635", "simh026": "simh026", "simh029": "simh029"}
"""The module that registers each code name and alias: :func:`get_code` of one of these imports that
module alone, not every code's (a small deck decodes in one code); tests/test_registry.py checks the
map against what the modules register."""

_CODES: Registry[Code] = Registry(__name__, "card code", homes=CODE_HOMES)


def register(code: Code) -> Code:
    """Add a code to the registry under its name and aliases."""
    return _CODES.add(code, *code.aliases)


def get_code(name: str) -> Code:
    """The code called ``name``; a clear :class:`CardError` if there is none."""
    return _CODES.get(name)


def code_names() -> list[str]:
    """Names of all codes (without aliases)."""
    return _CODES.names()
