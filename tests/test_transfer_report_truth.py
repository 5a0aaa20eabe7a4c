"""`simulate`'s report says what each end holds, checked card by card against the received deck.

A card the transmitting terminal gave up may still have arrived (every acknowledgement of it was
lost): it is *delivered, not confirmed* (``unconfirmed_cards``), not failed.  ``failed_cards`` lists
only cards the receiving end does not hold, so a user who sends them again duplicates nothing.
"""

import os

import numpy as np
import pytest

from emulator.formats import read_deck_arrays
from ibm1013.sim.transfer import TransferConfig, run_transfer
from tools.reliability import random_case, report_discrepancies

DATA = os.path.join(os.path.dirname(__file__), "data")


def check_card_by_card(deck: np.ndarray, transfer) -> None:
    assert report_discrepancies(deck, transfer) == []


def test_failed_cards_167_reports_card_115_as_unconfirmed():
    with open(os.path.join(DATA, "failed-cards-167.cbn"), "rb") as f:
        deck = np.concatenate(list(read_deck_arrays(f, "cbn")[1]))
    t = run_transfer(deck, TransferConfig.build(ber=0.000959737738908241, seed=488869500, on_give_up="skip"))
    r = t.report
    assert (r.cards_sent, r.cards_received) == (167, 156)
    assert 115 not in r.failed_cards and r.unconfirmed_cards == [115]
    assert len(r.failed_cards) == 11 and r.cards_received == 167 - len(r.failed_cards)
    check_card_by_card(deck, t)


@pytest.mark.parametrize("block", range(4))
def test_reports_agree_with_the_received_deck_on_noisy_runs(block):
    """300 seeded noisy runs (75 a block), small decks: the report is checked card by card."""
    unconfirmed = 0
    for seed in range(block * 75, (block + 1) * 75):
        deck, config = random_case(seed)
        t = run_transfer(deck, config)
        check_card_by_card(deck, t)
        unconfirmed += len(t.report.unconfirmed_cards)
    assert unconfirmed > 0  # the case that used to be misreported does occur in every block


def test_a_report_is_never_complete_by_default():
    from ibm1013.report import TransferReport

    assert TransferReport().ended != "complete"
