"""How deck arrays came to be numpy ``uint16`` (``python -m tools.measure_deck_storage``).

Turns random column words into CBN bytes two ways — deck arrays through the real writer, and
``bitarray`` card by card — and prints both times (see :mod:`emulator.deck`).
"""

from __future__ import annotations

import time

import numpy as np
from bitarray import bitarray

from emulator.card import COLUMNS
from emulator.formats import cbn


def main(n: int = 200_000, sample: int = 5_000) -> None:
    """Time turning column words into CBN bytes: deck arrays (the real writer) against bitarray."""
    rng = np.random.default_rng(1)
    words = rng.integers(0, 4096, size=(n, COLUMNS), dtype=np.uint16)
    start = time.perf_counter()
    cbn.encode_array(words)
    t_numpy = time.perf_counter() - start
    cards = [bitarray("".join(f"{w:012b}" for w in row)) for row in words[:sample].tolist()]
    start = time.perf_counter()
    for card in cards:
        halves = [card[i : i + 6] for i in range(0, 12 * COLUMNS, 6)]
        bytes(((0x40 if h.count() % 2 == 0 else 0) | int(h.to01(), 2)) for h in halves)
    t_bits = (time.perf_counter() - start) * n / sample
    print(f"{n} cards to CBN: numpy deck arrays {t_numpy * 1e3:.0f} ms ({words.nbytes // n} B/card); "
          f"bitarray {t_bits * 1e3:.0f} ms estimated from {sample} cards ({len(cards[0]) // 8} B/card)")


if __name__ == "__main__":
    main()
