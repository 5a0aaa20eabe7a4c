"""The collating sequence: in what order a code's punch patterns sort.

Machines compared cards by their holes, and each family of codes had its own order:

* **EBCDIC** (System/360 and the 029 keypunch): patterns sort as their EBCDIC bytes do — blank
  (X'40') before the specials, lower case before upper case, letters before digits.  Codes ``029``,
  ``simh029`` and ``dec029`` punch (nearly) the EBCDIC card code, so they collate this way.
* **BCD** (the 1401 and the 026 keypunch): the 1401's character collating sequence (IBM's 1401
  reference manual; the character table of Wikipedia's "IBM 1401" article is in this order) —
  blank, the 12-8 specials, ``&``, the 11-8 specials, ``-``, ``/``, the 0-8 specials, the 8
  specials, then ``A``–``I``, ``J``–``R``, ``S``–``Z`` and the digits last.  Codes
  ``026-commercial``, ``026-fortran``, ``simh026`` and ``ge635`` (whose own GE sequence is not
  modelled) collate this way.

A pattern outside the family (a binary card's columns) sorts after all of the family's patterns,
in the order of its column word, so every one of the 4096 patterns has a place and sorts are total.
"""

from __future__ import annotations

import functools

import numpy as np

from emulator.card import punches_to_word

BCD_SEQUENCE: tuple[str, ...] = (
    "", "12-3-8", "12-4-8", "12-5-8", "12-6-8", "12-7-8", "12",
    "11-3-8", "11-4-8", "11-5-8", "11-6-8", "11-7-8", "11",
    "0-1", "0-3-8", "0-4-8", "0-5-8", "0-6-8", "0-7-8", "2-8",
    "3-8", "4-8", "5-8", "6-8", "7-8",
    "12-0", "12-1", "12-2", "12-3", "12-4", "12-5", "12-6", "12-7", "12-8", "12-9",
    "11-0", "11-1", "11-2", "11-3", "11-4", "11-5", "11-6", "11-7", "11-8", "11-9",
    "0-2-8", "0-2", "0-3", "0-4", "0-5", "0-6", "0-7", "0-8", "0-9",
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
)
"""The 64 BCD punch patterns in the 1401's collating sequence, lowest first (the 1401's character
collating sequence; ``2-8`` is the lone A bit, ``0-2-8`` the record mark)."""

FAMILIES: dict[str, str] = {
    "029": "ebcdic", "simh029": "ebcdic", "dec029": "ebcdic",
    "026-commercial": "bcd", "026-fortran": "bcd", "simh026": "bcd", "ge635": "bcd",
}
"""The collating family of each code (by its canonical name); codes not listed collate as EBCDIC."""


def family(code: str) -> str:
    from emulator.codes import get_code

    return FAMILIES.get(get_code(code).name, "ebcdic")


def _order(code: str) -> list[int]:
    """The family's column words, lowest first."""
    if family(code) == "bcd":
        return [punches_to_word(p) for p in BCD_SEQUENCE]
    from emulator.codes.ibm029 import EBCDIC_TO_WORD

    return list(EBCDIC_TO_WORD)


@functools.cache
def ranks(code: str = "029") -> np.ndarray:
    """``uint16[4096]``: the place of each column word in ``code``'s collating sequence (0 lowest).

    Ranks are 12-bit numbers, so five columns pack into one 64-bit sort key.
    """
    ordered = _order(code)
    table = np.full(4096, -1, dtype=np.int32)
    table[ordered] = np.arange(len(ordered))
    rest = np.flatnonzero(table < 0)
    table[rest] = len(ordered) + np.arange(len(rest))
    out = table.astype(np.uint16)
    out.flags.writeable = False
    return out
