"""Which code a deck was punched in, told from its punches alone, as far as they tell.

A deck file holds holes, not characters: the same holes print differently on an 029 and on the two
print drums of the 026 (``docs/cards.md`` §2).  Most punches read alike in every code (letters,
digits, ``. , - / $ *``), so most decks decode the same whatever code is named.  Two cases can be
told from the holes:

* **The punches fit only some codes.**  A code "fits" a deck when it prints every pattern the deck
  has punched as a character (:attr:`~emulator.codes.Code.printing`: what decoding to text needs).
  When the code asked for does not fit, the codes that do are named; when exactly
  one code fits and none was asked for, it is the code detected.
* **The punches fit several keypunches, which print them differently.**  Every punch of the 026's
  keys is an 029 punch too, so an 026 deck always decodes as 029, wrongly where the two print
  differently: an
  026-FORTRAN ``FORMAT (13H HELLO, WORLD)`` reads ``FORMAT %13H HELLO, WORLD<``.  When another
  keypunch (:data:`KEYPUNCHES`) fits and prints some of the deck's punches otherwise, and no
  keypunch that fits prints them as the code asked for does, the code to try is named with the
  punches that differ.  A deck that reads the same on some other keypunch (``A & B`` on the 029 and
  the 026-commercial alike) gets no advice: whichever punched it, the text is right for one of them.

All of this is data over the code tables (:attr:`~emulator.codes.Code.decoding`): nothing here knows
a character.
"""

from __future__ import annotations

import functools

from emulator.codes import code_names, get_code
from emulator.record import Record

TYPE_CHECKING = False  # typing is not imported at run time: decoding a deck comes here
if TYPE_CHECKING:
    from collections.abc import Iterable

KEYPUNCHES: tuple[str, ...] = ("029", "026-fortran", "026-commercial")
"""The codes of the machines that punched decks, in the order advice names them.  A keypunch fits a
deck whose patterns its keys punch (:func:`_keys`): an 029 deck with ``( ) = +`` (12-5-8, 11-5-8,
6-8, 12-6-8) is no 026 deck, though the 1401's BCD table holds those holes.  The other codes
(``simh029``, ``dec029``, ``simh026``, ``ge635``) are programs' readings of punches: they are named
only when the code asked for cannot read the deck."""

ALIKE = " 0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-/*.,$"
"""Characters on the keys of every keypunch, punched and printed alike by all of them (blank, digits,
letters, ``- / * . , $``; ``tests/test_codes.py`` checks it against the tables).  A deck of these
alone fits every keypunch and reads the same on each: there is nothing to advise, and :func:`fit`
says so without loading the 026's tables (``cards decode`` of a plain deck)."""

SHOWN = 4
"""Differing punches named in the advice at most."""


class CodeFit(Record):
    """What a deck's punched patterns say about ``code``, the code asked for (``chosen``: named by
    the user, not a default).  A :class:`~emulator.record.Record`: decoding a deck loads this
    module, and :mod:`dataclasses` is slow to import (a named tuple, :mod:`typing`)."""

    code: str
    chosen: bool
    fits: tuple[str, ...]
    """Every code whose table holds each pattern of the deck: keypunches first, then the others."""
    differing: dict[str, tuple[int, ...]]
    """For each other keypunch that fits: the deck's patterns it prints otherwise than ``code``."""
    _fields = ("code", "chosen", "fits", "differing")

    def __init__(self, code: str, chosen: bool, fits: tuple[str, ...],
                 differing: dict[str, tuple[int, ...]]) -> None:
        self._set(code=code, chosen=chosen, fits=fits, differing=differing)

    @property
    def detected(self) -> str | None:
        """The code to read with instead of ``code``: the only one that fits, when ``code`` does not
        and was not named."""
        alone = len(self.fits) == 1 and self.code not in self.fits
        return self.fits[0] if alone and not self.chosen else None

    @property
    def alternatives(self) -> tuple[str, ...]:
        """The codes to try, best first (empty: nothing to advise)."""
        if self.code not in self.fits:  # a keypunch that fits, else the programs' codes that do
            return tuple(name for name in self.fits if name in KEYPUNCHES) or self.fits
        if self.chosen or not self.differing or not all(self.differing.values()):
            return ()  # named, or some other keypunch reads the deck as ``code`` does
        return tuple(self.differing)

    def advice(self) -> str:
        """One line for the user, or ``""``."""
        if self.detected:
            return (f"the punches fit only code {self.detected}, not {self.code}: read with "
                    f"{self.detected} (--code names another)")
        tries = " or ".join(f"--code {name}" for name in self.alternatives)
        if not tries:
            return ""
        if self.code not in self.fits:
            return f"the punches do not all fit code {self.code}; try {tries}"
        from emulator.punches import word_to_punches  # here: a plain deck is advised nothing

        patterns = sorted({p for differ in self.differing.values() for p in differ})[:SHOWN]
        shown = ", ".join(f"{word_to_punches(p)} ({_printed(self.code, p)} in {self.code}, "
                          + ", ".join(f"{_printed(other, p)} in {other}" for other in self.differing) + ")"
                          for p in patterns)
        return f"an 026 punches these too, and prints them otherwise: {shown}; for an 026 deck, try {tries}"


@functools.cache
def _unlike(asked: str, other: str) -> int:
    """How many of the patterns ``asked`` prints ``other`` prints otherwise (or not at all): of the
    programs' codes that fit a deck, the one closest to the code asked for is named first
    (``simh029`` for an 029 deck holding the ``}`` that only SIMH's 029 table prints)."""
    table, reading = get_code(other).decoding, get_code(asked).decoding
    return sum(1 for p in get_code(asked).printing if table.get(p) != reading[p])


def _printed(code: str, pattern: int) -> str:
    return repr(get_code(code).decoding[pattern])


def fit(patterns: Iterable[int], code: str, *, chosen: bool = False, every: bool = True) -> CodeFit:
    """How the punched ``patterns`` of a deck (blank columns and end-of-file cards left out or not,
    as they fit every code) fit ``code`` and the other codes.

    With ``every=False``, when ``code`` fits, the programs' codes other than ``code`` are not tried
    (nor imported): :attr:`~CodeFit.fits` then holds the keypunches that fit and ``code``.  What
    decoding asks (:attr:`~CodeFit.detected`, :attr:`~CodeFit.alternatives`, :meth:`~CodeFit.advice`)
    is the same either way: those codes count only when ``code`` does not fit."""
    code = get_code(code).name  # an alias by its name
    seen = set(patterns) - {0}
    if not every and code in KEYPUNCHES and seen <= _alike(code):
        return CodeFit(code, chosen, KEYPUNCHES, {other: () for other in KEYPUNCHES if other != code})
    return _fit(seen, code, chosen, every)


def _fit(seen: set[int], code: str, chosen: bool, every: bool) -> CodeFit:
    """:func:`fit` from the code tables (``seen``: the patterns, without blank columns)."""
    if not every and seen <= get_code(code).printing:
        others = [] if code in KEYPUNCHES else [code]
    else:
        others = sorted((name for name in code_names() if name not in KEYPUNCHES),
                        key=lambda name: _unlike(code, name))
    fits = tuple(name for name in (*KEYPUNCHES, *others) if seen <= get_code(name).printing)
    differing: dict[str, tuple[int, ...]] = {}
    if code in fits:
        reading = get_code(code).decoding
        for other in KEYPUNCHES:
            if other != code and seen <= _keys(other):
                table = get_code(other).decoding
                differing[other] = tuple(sorted(p for p in seen if table[p] != reading[p]))
    return CodeFit(code, chosen, fits, differing)


@functools.cache
def _alike(keypunch: str) -> frozenset[int]:
    """The patterns of the :data:`ALIKE` characters (the same in every keypunch's table)."""
    encoding = get_code(keypunch).encoding
    return frozenset(encoding[ch] for ch in ALIKE)


@functools.cache
def _keys(keypunch: str) -> frozenset[int]:
    """The patterns the keys of ``keypunch`` punch: every pattern of its table for the 029, the 48
    characters on the keys for an 026."""
    from emulator.codes.ibm026 import KEYBOARD_COMMERCIAL, KEYBOARD_FORTRAN

    code = get_code(keypunch)
    keyboard = {"026-fortran": KEYBOARD_FORTRAN, "026-commercial": KEYBOARD_COMMERCIAL}.get(keypunch)
    return frozenset(code.decoding if keyboard is None else (code.encoding[ch] for ch in keyboard))
