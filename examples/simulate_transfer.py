"""Send a deck from one simulated IBM 1013 to another, on a clean line and on noisy ones.

    python examples/simulate_transfer.py examples/sample-decks/hello.cbn

``ibm1013.transfer`` (``ibm1013 simulate`` as a function, the command's options as keywords) builds
a SimPy model of two terminals and a telephone line, runs the STR session to its end and returns what
each end holds and a report.  Same seed, same run.
"""

from __future__ import annotations

import sys

import ibm1013
from emulator import read_deck


def main(path: str) -> None:
    deck = read_deck(path)
    print(f"{path}: {len(deck)} cards")
    print(f"{'line':<34} {'cards/min':>9} {'resent':>6} {'errors':>6}  arrived intact")
    for label, settings in [
        ("1200 bit/s, full duplex", {}),
        ("1200 bit/s, half duplex", {"duplex": "half"}),
        ("2400 bit/s", {"bit_rate": 2400}),
        ("1200 bit/s, bit error rate 1e-3", {"ber": 1e-3, "seed": 7}),
    ]:
        transfer = ibm1013.transfer(deck, **settings)
        report = transfer.report
        intact = transfer.received_cards() == deck and report.undetected_errors == 0
        print(f"{label:<34} {report.cards_per_minute:>9.1f} {report.retransmissions:>6} "
              f"{report.detected_errors:>6}  {'yes' if intact else 'NO'}")


if __name__ == "__main__":
    main(sys.argv[1])
