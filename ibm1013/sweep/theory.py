"""The theory's figures beside a sweep's runs (``ibm1013 sweep --theory``).

Each point is worked out once (:mod:`ibm1013.theory`, all points in one batch) for a deck of the
sweep's length, with the deck's characters at each position; the three figures go into every row of
the point.  A point the theory does not cover (overlapped card mechanics, a cut, ``--columns auto``,
a line too slow for STR's timers) raises :class:`~ibm1013.theory.TheoryError`: ``sweep --theory``
refuses it when its arguments are checked, in the words ``theory`` uses
(:func:`ibm1013.cli.theory.theory_setting`).
"""

from __future__ import annotations

import numpy as np

from ibm1013.report import Row
from ibm1013.sweep.grid import Point, config_of, point_key
from ibm1013.theory import Setting, figures_many


def theory_columns(points: list[Point], deck: np.ndarray) -> dict[str, Row]:
    """``point key -> {theory_cards_per_minute, theory_retransmissions_per_card,
    theory_undetected_per_million}`` for every point of a sweep that sends ``deck``."""
    covered: dict[tuple[str, bool], list[tuple[Point, Setting]]] = {}
    out: dict[str, Row] = {}
    for point in points:
        setting = Setting.of(config_of(point, 0))
        covered.setdefault((str(point["columns"]), bool(point["column_binary"])), []).append((point, setting))
    for group in covered.values():
        chars, _lrcs = group[0][1].layout.encode(deck)
        records = np.frombuffer(b"".join(chars), dtype=np.uint8).reshape(len(chars), -1)
        found = figures_many([s for _, s in group], cards=len(deck), deck=records)
        for (point, _), f in zip(group, found, strict=True):
            out[point_key(point)] = {
                "theory_cards_per_minute": round(f.cards_per_minute, 6),
                "theory_retransmissions_per_card": round(f.retransmissions_per_card, 9),
                "theory_undetected_per_million": f.undetected_per_million,
            }
    return out
