"""A small parameter sweep with the Python API: cards a minute against the bit error rate.

    python examples/sweep_ber.py examples/sample-decks/hello.cbn [SEEDS]

Every run is seeded, so the table is the same each time.  Noise costs time twice: a damaged record is
sent again, and a lost reply makes the sender wait out its 3 s timer.
"""

from __future__ import annotations

import statistics
import sys

import ibm1013
from emulator import Card, read_deck

RATES = (0.0, 1e-4, 3e-4, 1e-3)


def sweep(deck: list[Card], seeds: int) -> list[tuple[float, float, float, int]]:
    """(BER, mean cards/min, mean retransmissions, runs that delivered every card) for each rate."""
    rows = []
    for ber in RATES:
        reports = [ibm1013.simulate(deck, ber=ber, seed=seed) for seed in range(1, seeds + 1)]
        whole = sum(1 for r in reports if r.ended == "complete")
        rows.append((ber, statistics.mean(r.cards_per_minute for r in reports),
                     statistics.mean(r.retransmissions for r in reports), whole))
    return rows


def main(path: str, seeds: int = 5) -> None:
    deck = read_deck(path)
    print(f"{'bit error rate':>14} {'cards/min':>9} {'resent':>6}  complete runs (of {seeds})")
    for ber, cpm, resent, whole in sweep(deck, seeds):
        print(f"{ber:>14g} {cpm:>9.1f} {resent:>6.1f}  {whole}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 5)
