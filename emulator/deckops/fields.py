"""Where on the card: column fields such as ``73-80`` and card ranges such as ``10-20,40-``.

A *field* is a run of adjacent columns, numbered 1–80 as printed on the card; it is how every
card-room machine was wired (the sorter's column dial, the collator's and reproducer's plugboard
hubs).  Specs are checked when parsed; a bad one is a :class:`SpecError` whose message is one line
naming it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from emulator.card import COLUMNS, punches_to_word
from emulator.errors import CardError, IbmError

if TYPE_CHECKING:  # numpy is imported when cards are worked on, not when a command line is parsed
    import numpy as np


class SpecError(IbmError, ValueError):
    """A field, range or plugboard spec that cannot be wired: one line naming the spec."""


@dataclass(frozen=True, order=True)
class Field:
    """Columns ``first`` to ``last`` (1-based, both included)."""

    first: int
    last: int

    @classmethod
    def parse(cls, text: str) -> Field:
        """``73-80`` or a single column ``5``; columns outside 1–80 or reversed are refused."""
        match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", text)
        if not match:
            raise SpecError(f"{text!r} is not a column field (like 73-80 or 5)")
        first = int(match[1])
        last = int(match[2]) if match[2] else first
        for column in (first, last):
            if not 1 <= column <= COLUMNS:
                raise SpecError(f"field {text}: column {column} is outside 1-{COLUMNS}")
        if last < first:
            raise SpecError(f"field {text}: ends before it starts")
        return cls(first, last)

    @property
    def width(self) -> int:
        return self.last - self.first + 1

    @property
    def columns(self) -> slice:
        """The field as a slice of a deck array's columns (0-based)."""
        return slice(self.first - 1, self.last)

    def overlaps(self, other: Field) -> bool:
        return self.first <= other.last and other.first <= self.last

    def __str__(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


def disjoint(fields: Iterable[Field], what: str = "fields") -> None:
    """Refuse two ``fields`` that share a column (a plugboard hub takes one wire)."""
    ordered = sorted(fields)
    for a, b in zip(ordered, ordered[1:], strict=False):
        if a.overlaps(b):
            raise SpecError(f"{what} {a} and {b} overlap")


@dataclass(frozen=True)
class CardRanges:
    """Card numbers such as ``10-20,40-`` (1-based; an open end runs to the last card)."""

    ranges: tuple[tuple[int, int | None], ...]

    @classmethod
    def parse(cls, text: str) -> CardRanges:
        ranges: list[tuple[int, int | None]] = []
        for part in text.split(","):
            match = re.fullmatch(r"\s*(\d*)\s*(-)?\s*(\d*)\s*", part)
            if not match or not (match[1] or match[3]) or (match[3] and not match[2]):
                raise SpecError(f"{text}: {part!r} is not N, N-M, N- or -M")
            low = int(match[1]) if match[1] else 1
            high = int(match[3]) if match[3] else (None if match[2] else low)
            if low < 1:
                raise SpecError(f"{text}: cards count from 1")
            if high is not None and high < low:
                raise SpecError(f"{text}: {part} ends before it starts")
            ranges.append((low, high))
        return cls(tuple(ranges))

    def mask(self, start: int, n: int) -> np.ndarray:
        """Which of cards ``start+1 … start+n`` (the next ``n`` of the file) are in the ranges."""
        import numpy as np

        numbers = np.arange(start + 1, start + n + 1)
        chosen = np.zeros(n, dtype=bool)
        for low, high in self.ranges:
            inside = numbers >= low
            if high is not None:
                inside &= numbers <= high
            chosen |= inside
        return chosen


def parse_punched(text: str) -> tuple[int, int]:
    """``COL:ROWS`` such as ``80:12`` or ``1:12-1``: the column and the rows that must be punched."""
    column, sep, rows = text.partition(":")
    if not sep or not rows.strip():
        raise SpecError(f"{text}: give COLUMN:ROWS, like 80:12 or 1:11-0")
    field = Field.parse(column)
    if field.width != 1:
        raise SpecError(f"{text}: one column, not {field}")
    try:
        word = punches_to_word(rows)
    except CardError as err:
        raise SpecError(f"{text}: {err.reason}") from None
    return field.first, word


def field_value(text: str) -> tuple[Field, str]:
    """``COLS=TEXT`` (``--where 1-3=ABC``, ``--gang 73-76=PROG``): the field and its text, which
    must fill the field exactly."""
    cols, sep, value = text.partition("=")
    if not sep:
        raise SpecError(f"{text}: give COLUMNS=TEXT, like 73-76=PROG")
    field = Field.parse(cols)
    if len(value) != field.width:
        raise SpecError(f"{text}: {len(value)} characters for the {field.width} columns {field}")
    return field, value


def copy_spec(text: str) -> tuple[Field, Field]:
    """``FROM:TO`` such as ``1-10:71-80``: two fields of one width."""
    source, sep, target = text.partition(":")
    if not sep:
        raise SpecError(f"{text}: give FROM:TO, like 1-10:71-80")
    a, b = Field.parse(source), Field.parse(target)
    if a.width != b.width:
        raise SpecError(f"{text}: {a} is {a.width} columns wide, {b} is {b.width}")
    return a, b
