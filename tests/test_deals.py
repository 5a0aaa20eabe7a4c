"""Deal numbers: Microsoft FreeCell deals card for card, the Mersenne Twister scheme, game generators."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from decks.deals import GameRandom, deal_order, microsoft_order, shuffle_order
from decks.packs import PACK_KINDS, pack
from emulator.errors import IbmError


def names(deal, n=None):
    return " ".join(c.name for c in deal[:n])


def test_microsoft_deal_1():
    # the whole of FreeCell deal 1, in the order dealt (8 columns, row by row)
    assert names(deal_order("standard", 1)) == (
        "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H 2S KS 9D QD JS AS AH 3C "
        "4C 5C TS QH 4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H")


def test_microsoft_deal_617():
    # the whole of FreeCell deal 617 as published for that deal (8 columns, row by row)
    assert names(deal_order("standard", 617)) == (
        "7D AD 5C 3S 5S 8C 2D AH TD 7S QD AC 6D 8H AS KH TH QC 3H 9D 6S 8D 3D TC "
        "KD 5H 9S 3C 8S 7H 4D JS 4C QS 9C 9H 7C 6H 2C 2S 4S TS 2H 5D JC 6C JH QH JD KS KC 4H")


def test_reference_check_values():
    assert names(deal_order("standard", 1), 8) == "JD 2D 9H JC 5D 7H 7C 5H"
    assert names(deal_order("standard", 617), 8) == "7D AD 5C 3S 5S 8C 2D AH"


@pytest.mark.parametrize("kind", PACK_KINDS)
@pytest.mark.parametrize("number", [1, 2**31 - 1, 2**31, 2**63 - 1])
def test_every_deal_is_a_permutation(kind, number):
    d = deal_order(kind, number)
    assert sorted(c.code for c in d) == sorted(c.code for c in pack(kind))


def test_large_deals_use_the_mersenne_twister_and_are_stable():
    a, b = deal_order("standard", 2**31), deal_order("standard", 2**31)
    assert a == b and a != deal_order("standard", 2**31 + 1)
    assert a != microsoft_order(pack("standard"), 2**31 & 0x7FFFFFFF)


@pytest.mark.parametrize("bad", [0, -1, 2**63, "7"])
def test_bad_deal_numbers(bad):
    with pytest.raises(IbmError):
        shuffle_order(pack("standard"), bad)


@given(st.integers(0, 2**64 - 1), st.integers(1, 60))
def test_game_random_resumes_from_its_state(seed, k):
    a = GameRandom(seed)
    first = [a.below(k) for _ in range(5)]
    b = GameRandom(seed)
    assert [b.below(k) for _ in range(5)] == first and a.state == b.state
    assert all(0 <= x < k for x in first)
    items = list(range(20))
    assert sorted(GameRandom(seed).shuffle(items)) == items
