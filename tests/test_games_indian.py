"""Indian (seed 004; reference row 17): two packs, 10 piles of 3 (first row face down), build down in
any suit but its own, one pass."""

import pytest

from decks import engine as e
from decks.deals import deal_order
from decks.engine import IllegalMove, make_state
from tests.twopack import corruption_test, pack_counts, round_trip_test


def test_layout_ten_piles_of_three_first_row_face_down():
    s = e.deal("indian", 12)
    order = deal_order("double", 12)
    assert [s.piles[f"t{i}"].cards for i in range(1, 11)] == [order[i:30:10] for i in range(10)]
    assert all(s.piles[f"t{i}"].hidden == 1 for i in range(1, 11))
    assert len(s.piles["s"]) == 74 and all(not s.piles[f"f{i}"].cards for i in range(1, 9))
    pack_counts(s)


def test_build_down_in_any_suit_but_its_own():
    s = make_state("indian", {"t1": "9H", "t2": "8S", "t3": "8H", "t4": "7D"})
    e.apply(s, "t2 t1")
    with pytest.raises(IllegalMove, match="any suit but its own"):
        e.apply(s, "t3 t1")
    with pytest.raises(IllegalMove, match="any suit but its own"):
        e.apply(s, "t4 t1")


def test_one_card_at_a_time_and_an_exposed_face_down_card_turns_up():
    s = make_state("indian", {"t1": "-KC 9H", "t2": "TS 9D 8C", "t3": "TC"})
    s = e.apply(s, "t1 t3")
    assert s.piles["t1"].hidden == 0 and s.piles["t1"].top.name == "KC"
    with pytest.raises(IllegalMove, match="one card moves at a time"):
        e.apply(s, "t2 t1 2")


def test_space_from_tableau_waste_or_hand_and_one_pass():
    s = make_state("indian", {"t1": "4S", "w": "KH", "s": "-5D"})
    e.apply(s, "w t2")
    e.apply(s, "t1 t2")
    s = e.apply(s, "s")
    assert e.apply(s, "w t2").piles["t2"].top.name == "5D"     # the card from the hand
    with pytest.raises(IllegalMove, match="no redeal is allowed"):
        e.apply(s, "r")


test_random_positions_round_trip_through_a_deck = round_trip_test("indian")
test_corrupted_decks_are_refused_naming_the_card = corruption_test("indian")
