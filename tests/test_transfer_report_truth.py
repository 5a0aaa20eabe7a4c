"""`simulate`'s report says what each end holds, checked card by card against the received deck.

A card the transmitting terminal gave up may still have arrived (every acknowledgement of it was
lost): it is *delivered, not confirmed* (``unconfirmed_cards``), not failed.  ``failed_cards`` lists
only cards the receiving end does not hold, so a user who sends them again duplicates nothing.
"""

import os

import numpy as np
import pytest

from emulator.formats import read_deck_arrays
from ibm1013 import fourofeight as fo
from ibm1013.transfer import TransferConfig, run_transfer

DATA = os.path.join(os.path.dirname(__file__), "data")
CARD_WORDS = np.array(sorted(w for w in range(4096) if fo.WORD_TO_CHAR[w]), dtype=np.uint16)


def expected_deck(deck: np.ndarray, report, layout) -> list[np.ndarray]:
    """The cards the report says the receiving end holds, in order: every card sent, less the failed
    ones, up to ``resume_at`` (columns not sent are punched blank)."""
    mask = np.zeros(80, dtype=np.uint16)
    mask[layout.indices] = 0xFFFF
    first = report.settings["first_card"]
    stop = report.resume_at or len(deck) + 1
    failed = set(report.failed_cards)
    return [deck[n - 1] & mask for n in range(first, stop) if n not in failed]


def check_card_by_card(deck: np.ndarray, transfer) -> None:
    r = transfer.report
    got = [np.asarray(card.columns, dtype=np.uint16) for card in transfer.received_cards()]
    assert r.cards_received == len(got)
    assert not set(r.failed_cards) & set(r.unconfirmed_cards)
    if r.lost or r.duplicated or r.undetected_errors:  # STR's known two-bit weaknesses: counted
        assert len(got) == len(expected_deck(deck, r, transfer.layout)) + r.duplicated - r.lost
        return
    want = expected_deck(deck, r, transfer.layout)
    assert len(got) == len(want), (r.failed_cards, r.unconfirmed_cards, r.resume_at, r.ended)
    for number, (a, b) in enumerate(zip(got, want, strict=True), 1):
        assert np.array_equal(a, b), f"received card {number} is not the card the report implies"
    if r.ended == "complete":
        assert r.cards_received + len(r.failed_cards) == len(deck) - r.settings["first_card"] + 1


def test_failed_cards_167_reports_card_115_as_unconfirmed():
    with open(os.path.join(DATA, "failed-cards-167.cbn"), "rb") as f:
        deck = np.concatenate(list(read_deck_arrays(f, "cbn")[1]))
    t = run_transfer(deck, TransferConfig.build(ber=0.000959737738908241, seed=488869500))
    r = t.report
    assert (r.cards_sent, r.cards_received) == (167, 156)
    assert 115 not in r.failed_cards and r.unconfirmed_cards == [115]
    assert len(r.failed_cards) == 11 and r.cards_received == 167 - len(r.failed_cards)
    check_card_by_card(deck, t)


def random_run(seed: int):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 25))
    deck = rng.choice(CARD_WORDS, size=(n, 80))
    if rng.random() < 0.3:
        deck[:, int(rng.integers(5, 80)):] = 0  # short cards, for --columns auto
    config = TransferConfig.build(
        ber=float(rng.choice([3e-4, 1e-3, 2e-3, 4e-3])),
        burst=(1e-3, 0.1, 0.03) if rng.random() < 0.2 else None,
        cut_at=float(rng.uniform(2, 20)) if rng.random() < 0.15 else None,
        columns=str(rng.choice(["80", "auto", "20", "1-10,30-35"])),
        duplex=str(rng.choice(["full", "half"])), seed=seed,
    )
    return deck, run_transfer(deck, config)


@pytest.mark.parametrize("block", range(4))
def test_reports_agree_with_the_received_deck_on_noisy_runs(block):
    """300 seeded noisy runs (75 a block), small decks: the report is checked card by card."""
    unconfirmed = 0
    for seed in range(block * 75, (block + 1) * 75):
        deck, t = random_run(seed)
        check_card_by_card(deck, t)
        unconfirmed += len(t.report.unconfirmed_cards)
    assert unconfirmed > 0  # the case that used to be misreported does occur in every block
