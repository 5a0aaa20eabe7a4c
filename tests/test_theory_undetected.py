"""Undetected errors: the theory's count against the receiving core's check.

The counting is done by ``tools/validate_undetected.py``'s vectorised copy of the check, so first that
copy is held against the core (:class:`ibm1013.str.Receiver`) on the same damaged records; then two
and three flips are shown never to get through, and the 20-column strata (random and real deck,
four to eight flips) must each meet a hundred events and hold the theory inside their interval.
"""

import numpy as np
import pytest

from ibm1013.str import CardAccepted, ColumnLayout, Receiver, SessionConfig
from ibm1013.theory import undetected
from tools import validate_undetected as vu

LAYOUT = ColumnLayout.parse("20")
DECKS = vu.decks(200, 46)


def core_accepts_wrong(frame: bytes, sent: bytes) -> bool:
    """Does a fresh receiving core, after the bid, accept ``frame`` with data other than ``sent``'s?"""
    rx = Receiver(SessionConfig(columns=LAYOUT))
    rx.start()
    rx.receive_data(bytes([0x39, 0x35, 0x59]))  # IDLE TL INQ: synchronized, expecting SOR1
    accepted = [a for a in rx.receive_data(frame) if isinstance(a, CardAccepted)]
    return bool(accepted) and accepted[0].data != sent[3:-2]


def flipped(frames: np.ndarray, flips: int, rng: np.random.Generator) -> np.ndarray:
    """Each frame with ``flips`` distinct bits flipped anywhere."""
    bits = np.unpackbits(frames, axis=1)
    where = rng.random(bits.shape).argsort(axis=1)[:, :flips]
    np.put_along_axis(bits, where, 1 - np.take_along_axis(bits, where, axis=1), axis=1)
    return np.packbits(bits, axis=1)


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_the_vectorised_check_is_the_core_s(deck):
    """Damaged records of every kind — one to eight flips anywhere, and even-shaped patterns of four
    and six flips that often get through — judged alike by the copy and by the core."""
    rng = np.random.default_rng(7)
    frames = vu.record_frames(DECKS[deck], LAYOUT)
    sent = frames[rng.integers(0, len(frames), 2400)]
    damaged = np.concatenate([flipped(sent[150 * (k - 1):150 * k], k, rng) for k in range(1, 9)]
                             + [vu.even_patterns(sent[1200:1800], 4, rng),
                                vu.even_patterns(sent[1800:], 6, rng)])
    copy = vu.accepted_wrong(damaged, sent, LAYOUT.valid_chars)
    core = np.array([core_accepts_wrong(d.tobytes(), s.tobytes())
                     for d, s in zip(damaged, sent, strict=True)])
    assert (copy == core).all()
    assert core.sum() >= 5  # the comparison saw records get through, not only refusals


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_two_or_three_flips_never_get_through(deck):
    """Every pair and every triple of bits of a record, through the copy (the pairs of one record
    through the core too), and the theory's count: none."""
    frame = vu.record_frames(DECKS[deck][:1], LAYOUT)
    bits = np.unpackbits(frame[0])
    size = len(bits)
    pairs = np.stack(np.triu_indices(size, 1), axis=1)
    batches = [pairs] + [np.column_stack([np.full(len(rest), first), first + 1 + rest])
                         for first in range(size - 2)
                         for rest in [np.stack(np.triu_indices(size - first - 1, 1), axis=1)]]
    for chunk in batches:  # every pair, then every triple (a first bit and a pair after it)
        damaged = np.repeat(bits[None, :], len(chunk), axis=0)
        damaged[np.arange(len(chunk))[:, None], chunk] ^= 1
        assert not vu.accepted_wrong(np.packbits(damaged, axis=1), np.repeat(frame, len(chunk), axis=0),
                                     LAYOUT.valid_chars).any()
    rng = np.random.default_rng(2)
    for _ in range(300):
        damaged = bits.copy()
        damaged[rng.choice(len(bits), 2, replace=False)] ^= 1
        assert not core_accepts_wrong(np.packbits(damaged).tobytes(), frame[0].tobytes())
    counts = undetected.deck_counts(frame[:, 3:-2], LAYOUT.valid_chars, 8)
    assert counts[2] < 1e-9 and counts[3] < 1e-9 and counts[4] >= 1


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_the_20_column_strata_hold_the_theory(deck):
    """Four to eight flips: every even stratum meets a hundred wrong records accepted and holds the
    theory's P(undetected | k flips) inside its 95 % interval; odd strata have no even shape at all."""
    rows = vu.strata(DECKS[deck], 20, 100, seed=46, flips=range(4, 9))
    for row in rows:
        if row["flips"] % 2:
            assert row["share_even"] == 0 and row["theory"] < 1e-15
            continue
        assert row["events"] >= 100, row
        assert row["inside"], row
