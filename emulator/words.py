"""Counts in words, as every message of the project says them: ``1 card``, ``2 cards``."""

from __future__ import annotations


def counted(n: int, word: str, plural: str | None = None, *, thousands: bool = False) -> str:
    """``n`` and ``word``, plural (``word + "s"`` unless ``plural`` is given) unless ``n`` is one;
    ``thousands`` groups the digits: ``1,055 positions``."""
    number = f"{n:,}" if thousands else str(n)
    return f"{number} {word if n == 1 else (plural or word + 's')}"


def cards(n: int) -> str:
    """``n`` cards, in words: ``1 card``, ``2 cards``."""
    return counted(n, "card")
