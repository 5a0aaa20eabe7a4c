"""Limited (seed 004; reference row 20): two packs, 12 piles of 3 face up, down in suit, one pass."""

import pytest

from decks import engine as e
from decks.deals import deal_order
from decks.engine import IllegalMove, make_state
from tests.twopack import corruption_test, pack_counts, round_trip_test, wins


def test_layout_twelve_piles_of_three_face_up_foundations_empty():
    s = e.deal("limited", 9)
    order = deal_order("double", 9)
    assert [s.piles[f"t{i}"].cards for i in range(1, 13)] == [order[i:36:12] for i in range(12)]
    assert all(s.piles[f"t{i}"].hidden == 0 for i in range(1, 13))
    assert all(not s.piles[f"f{i}"].cards for i in range(1, 9))
    assert len(s.piles["s"]) == 68 and s.piles["s"].cards[-1] == order[36]
    pack_counts(s)


def test_aces_start_any_of_the_eight_foundations_and_build_up_in_suit():
    s = make_state("limited", {"t1": "AH", "t2": "AH", "t3": "2H", "t4": "3S"})
    s = e.apply(e.apply(s, "t1 f"), "t2 f")
    assert s.piles["f1"].top.name == s.piles["f2"].top.name == "AH"
    s = e.apply(s, "t3 f2")
    with pytest.raises(IllegalMove, match="starts with a card of rank 1"):
        e.apply(s, "t4 f3")


def test_build_down_in_suit_one_card_at_a_time():
    s = make_state("limited", {"t1": "TD", "t2": "9D", "t3": "9C", "t4": "8C 7C", "t5": "8C"})
    e.apply(s, "t2 t1")
    with pytest.raises(IllegalMove, match="builds down in suit"):
        e.apply(s, "t3 t1")
    with pytest.raises(IllegalMove, match="one card moves at a time"):
        e.apply(s, "t4 t3 2")


def test_space_from_tableau_or_waste_and_one_pass_only():
    s = make_state("limited", {"t1": "4S", "w": "KH", "s": "-5D"})
    e.apply(s, "w t2")
    e.apply(s, "t1 t3")
    s = e.apply(s, "s")
    with pytest.raises(IllegalMove, match="no redeal is allowed"):
        e.apply(s, "r")
    with pytest.raises(IllegalMove, match="the hand is empty"):
        e.apply(s, "s")


# Found offline with a beam search over the engine's legal moves (width 30).
WIN_4 = """s; s; s; s; s; s; w f1; s; s; w f2; t1 f3; t12 f4
t12 f4; s; s; s; s; s; s; s; s; w f5; s; s
s; s; s; w f4; t3 f6; s; s; s; s; s; s; s
w f7; t5 f1; s; s; s; s; s; s; s; s; w f1; t6 f4
t10 f1; t12 f3; s; w f2; s; s; w f3; s; s; w f5; s; w f7
s; s; w f3; s; s; w f2; s; s; s; s; s; s
s; s; s; s; s; s; s; w f2; t2 f2; s; w f5; t10 f6
s; w f8; s; s; w f6; w f1; s; s; s; w f3; t1 f8; s
t9 t12; t9 f7; t4 f7; t4 f4; t2 f4; t2 f2; w f4; s; t3 t2; t3 f2; t11 f2; t10 f2
t11 t3; t11 f2; t8 t10; t8 t11; t8 f5; t9 f5; t3 t6; t5 t3; t7 t8; w t5; t10 t5; w t9
w t1; w t5; w f1; t6 f1; t6 f1; t5 f1; t5 f1; t5 f1; t5 f1; t3 f1; t6 t7; w t3
w t5; w t8; w t6; w t10; w t8; w f4; w f2; t1 f2; w f5; t10 f5; w f7; t2 f7
w f4; t12 f4; w t2; w f2; w f5; w f5; w f5; t9 t7; w t9; w t10; t2 t10; w t2
w t4; w t6; w t12; w f4; t6 f4; t6 f4; w t6; w f6; t11 f6; w t5; w f8; t10 f8
t10 f8; w t6; w f6; t4 f6; t4 f6; t2 f6; w f7; t8 f7; t8 f7; t8 f7; t5 f7; t5 f7
w f5; w f7; w t2; w f5; w t4; w t5; w f3; t7 f3; t7 f3; t7 f3; t2 f3; t3 f3
t7 f6; w t2; w t3; w f3; t9 f3; w t1; w f6; t1 f6; t1 f6; w f8; t4 f8; t2 f8
t5 f8; t12 f8; t3 f8; t6 f8; t6 f8; w f5"""


def test_deal_4_played_to_a_win():
    wins("limited", 4, WIN_4)


test_random_positions_round_trip_through_a_deck = round_trip_test("limited")
test_corrupted_decks_are_refused_naming_the_card = corruption_test("limited")
