"""The reference figures a sweep is drawn against: cards per minute by line speed and columns sent.

The 1013 is documented at "generally 100 cards per minute", faster when only part of each card is
sent (IBM Archives, *Products and Services* FAQ, as cited by Wikipedia's "IBM 1013" article).  The
rest of the table is the timing arithmetic that reproduces that figure: one record per card, stop and
wait, the acknowledgement coming back on the other pair of a four-wire circuit,

    T = (N + 4 + i) / cps + a / cps + t_fix

with N data characters, 4 for ``TL SOR`` and ``TL LRC``, i = 1 idle, a = 2 reply characters,
t_fix = 0.02 s of propagation and detection, and cps = bit rate / 8 (four-of-eight characters are 8
bits).  At 1200 bit/s and 80 columns, 87/150 + 0.02 = 0.60 s: 100 cards per minute.  These are the
conditions of the table: full duplex, a clean line, card mechanics not the bottleneck.
"""

from __future__ import annotations

REFERENCE_CARDS_PER_MINUTE: dict[int, dict[int, int]] = {
    600: {80: 51, 60: 66, 40: 93, 20: 158, 10: 243},
    1200: {80: 100, 60: 129, 40: 180, 20: 300, 10: 450},
    2000: {80: 163, 60: 208, 40: 288, 20: 469, 10: 682},
    2400: {80: 194, 60: 247, 40: 340, 20: 545, 10: 783},
}
"""bit rate (bit/s) -> {columns sent per card: cards per minute}."""


def model_cards_per_minute(bit_rate: int, columns: int) -> float:
    """The arithmetic behind the table (it rounds these to whole cards)."""
    cps = bit_rate / 8
    return 60.0 / ((columns + 4 + 1) / cps + 2 / cps + 0.02)
