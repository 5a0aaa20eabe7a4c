"""Sequence numbers: checking a deck's order, and punching new numbers.

Programmers kept a number in columns 73–80 of every card (the compilers ignored them), often a
label in front (``PROG0010``) and counting in tens, so that a dropped deck could be sorted back and
a card slipped in between two others.  The sequence field of a card is read as its *label* — the
columns before the run of digits that ends the field — and its *number*, those digits.  A card
whose field does not end in a digit is *unnumbered*.

:func:`check` reports what a dropped deck shows: cards lower than the numbered card before them
(out of order), cards whose label and number another card has too (duplicates), and numbers
missing from each label's run at the deck's step (the most common gap between its numbers, or the
step given).  :func:`renumber` punches ``label + number`` into the field of every card, the number
right-justified with leading zeros.  End-of-file cards are skipped by both; card numbers in the
report count every card of the file.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field

import numpy as np

from emulator.card import ROW_BIT
from emulator.deck import WORD_MASK, eof_rows, lookup
from emulator.deckops.collate import ranks
from emulator.deckops.fields import Field, SpecError
from emulator.deckops.keys import MAX_NUMERIC, descents, pack, stable_order
from emulator.errors import CardError

FIRST_FEW = 10

_DIGIT = np.full(4096, -1, dtype=np.int8)
for _d in range(10):
    _DIGIT[ROW_BIT[_d]] = _d
DIGIT_WORDS = np.array([ROW_BIT[d] for d in range(10)], dtype=np.uint16)
"""Column word of each digit 0-9."""


@dataclass
class SequenceReport:
    """What :func:`check` found; card numbers are 1-based positions in the file."""

    field: str
    cards: int = 0
    unnumbered: int = 0
    out_of_order: int = 0
    duplicates: int = 0
    missing: int = 0
    step: int | None = None
    first_unnumbered: list[int] = dataclass_field(default_factory=list)
    first_out_of_order: list[int] = dataclass_field(default_factory=list)
    first_duplicates: list[int] = dataclass_field(default_factory=list)
    first_missing: list[int] = dataclass_field(default_factory=list)

    @property
    def in_order(self) -> bool:
        return not (self.unnumbered or self.out_of_order or self.duplicates or self.missing)

    def as_dict(self) -> dict[str, object]:
        return {**self.__dict__, "in_order": self.in_order}


def label_and_number(words: np.ndarray, seq: Field,
                     code: str) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    """For each card: the label as packed keys (:func:`~emulator.deckops.keys.pack`), the number
    (``int64``) and how many digits end the field (0 = unnumbered)."""
    cols = words[:, seq.columns] & WORD_MASK
    digits = lookup(_DIGIT, cols)
    is_digit = digits >= 0
    run = np.cumprod(is_digit[:, ::-1], axis=1).sum(axis=1)  # trailing digits
    in_run = np.arange(seq.width)[None, :] >= (seq.width - run)[:, None]
    number = np.zeros(len(words), dtype=np.int64)
    for j in range(seq.width):
        number = np.where(in_run[:, j], number * 10 + digits[:, j], number)
    r = lookup(ranks(code), cols) + 1  # 0 for the digits of the run, so labels of any length differ
    r[in_run] = 0
    return pack(r, 13), number, run


def check_field(seq: Field) -> None:
    """Refuse a sequence field whose numbers would not fit a 64-bit integer."""
    if seq.width > MAX_NUMERIC:
        raise SpecError(f"sequence field {seq} is {seq.width} columns wide; at most {MAX_NUMERIC}")


def check(words: np.ndarray, seq: Field, code: str = "029", *, step: int | None = None) -> SequenceReport:
    """The sequence report of a file's cards on field ``seq``."""
    check_field(seq)
    punched = np.flatnonzero(~eof_rows(words))
    label, number, run = label_and_number(words[punched], seq, code)
    report = SequenceReport(str(seq), cards=len(punched))
    none = run == 0
    report.unnumbered = int(none.sum())
    report.first_unnumbered = (punched[none][:FIRST_FEW] + 1).tolist()
    numbered = punched[~none]
    keys = [k[~none] for k in label] + [number[~none]]
    if not len(numbered):
        return report
    lower, _ = descents(keys)
    report.out_of_order = int(lower.sum())
    report.first_out_of_order = (numbered[1:][lower][:FIRST_FEW] + 1).tolist()
    order = stable_order(keys, len(numbered))
    keys = [k[order] for k in keys]
    _, same = descents(keys)
    dup = np.sort(numbered[order][1:][same])
    report.duplicates = len(dup)
    report.first_duplicates = (dup[:FIRST_FEW] + 1).tolist()
    _missing(report, keys[:-1], keys[-1], step)
    return report


def _missing(report: SequenceReport, label: list[np.ndarray], number: np.ndarray, step: int | None) -> None:
    """Fill in the step and the numbers missing between each label's consecutive numbers (the
    cards sorted by label and number)."""
    _, same_label = descents(label)
    same_label = same_label & (np.diff(number) != 0)  # duplicates leave no gap
    gaps = np.diff(number)[same_label]
    lows = number[:-1][same_label]
    if step is None:
        if not len(gaps):
            return
        values, counts = np.unique(gaps, return_counts=True)
        step = int(values[np.argmax(counts)])
    report.step = step
    absent = np.maximum((gaps - 1) // step, 0)
    report.missing = int(absent.sum())
    for low, n in zip(lows[absent > 0].tolist(), absent[absent > 0].tolist(), strict=True):
        room = FIRST_FEW - len(report.first_missing)
        report.first_missing += [low + step * k for k in range(1, min(n, room) + 1)]
        if len(report.first_missing) >= FIRST_FEW:
            break


@dataclass(frozen=True)
class Numbering:
    """New sequence numbers: ``label`` (column words) then ``start``, ``start + step`` … in ``seq``."""

    seq: Field
    start: int = 10
    step: int = 10
    label: Sequence[int] = ()

    def __post_init__(self) -> None:
        if len(self.label) >= self.seq.width:
            raise SpecError(f"--prefix of {len(self.label)} characters leaves no room for a number "
                            f"in the {self.seq.width} columns {self.seq}")
        if self.digits > MAX_NUMERIC:
            raise SpecError(f"sequence numbers of {self.digits} digits: at most {MAX_NUMERIC}")

    @property
    def digits(self) -> int:
        return self.seq.width - len(self.label)

    def punch(self, words: np.ndarray, done: int = 0, first_card: int = 1) -> np.ndarray:
        """A chunk with new numbers; ``done`` cards (not counting end-of-file ones) came before, and
        the chunk's first card is card ``first_card`` of the file (for errors)."""
        flags = eof_rows(words)
        count = np.cumsum(~flags) - 1 + done
        value = self.start + self.step * count.astype(np.int64)
        if len(value) and int(value[~flags].max(initial=0)) >= 10 ** self.digits:
            card = int(np.argmax((value >= 10 ** self.digits) & ~flags))
            raise CardError(f"number {int(value[card])} does not fit in the {self.digits} columns "
                            f"left in {self.seq}", card=first_card + card)
        new = words.copy()
        first = self.seq.first - 1
        new[:, first:first + len(self.label)] = np.asarray(self.label, dtype=np.uint16)
        for j in range(self.digits):
            digit = (value // 10 ** (self.digits - 1 - j)) % 10
            new[:, first + len(self.label) + j] = DIGIT_WORDS[digit]
        new[flags] = words[flags]
        return new


def renumber(chunks: Iterable[np.ndarray], numbering: Numbering) -> Iterator[np.ndarray]:
    """The cards of a stream with new sequence numbers."""
    done = seen = 0
    for words in chunks:
        yield numbering.punch(words, done, seen + 1)
        done += int(np.count_nonzero(~eof_rows(words)))
        seen += len(words)
