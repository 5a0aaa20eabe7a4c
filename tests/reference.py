"""Reference tables the tests check the code tables against (``tests/data/``, see its README)."""

from __future__ import annotations

import csv
from pathlib import Path

from emulator.card import punches_to_word

DATA = Path(__file__).resolve().parent / "data"


def rows(name: str) -> list[dict[str, str]]:
    """The rows of ``tests/data/NAME`` (a CSV file with a header line)."""
    with open(DATA / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def word(cell: str) -> int:
    """Column word of a punches cell (``none`` and ``—`` are no punch)."""
    return 0 if cell in ("—", "none") else punches_to_word(cell)


def ebcdic_card_code() -> dict[int, int]:
    """EBCDIC byte → column word, all 256."""
    return {int(row["byte"], 16): word(row["punches"]) for row in rows("ebcdic_card_code.csv")}


def special_characters() -> dict[str, dict[str, str]]:
    """Special character → its cell in each code column (``cp037``, ``simh029``, … ``bsd_bcd``)."""
    return {row.pop("char"): row for row in rows("special_characters.csv")}


def h_set_7094() -> str:
    """The 7094 FORTRAN (H) print set, 64 characters in six-bit order."""
    return (DATA / "h_set_7094.txt").read_text(encoding="utf-8").rstrip("\n")
