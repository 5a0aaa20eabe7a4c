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


def test_space_from_tableau_waste_or_hand_card_and_one_pass_only():
    s = make_state("limited", {"t1": "4S", "w": "KH", "h": "QS", "s": "-5D"})
    e.apply(s, "w t2")
    e.apply(s, "h t2")
    e.apply(s, "t1 t3")
    s = e.apply(s, "s")
    assert s.piles["w"].top.name == "QS" and s.piles["h"].top.name == "5D"
    with pytest.raises(IllegalMove, match="no redeal is allowed"):
        e.apply(s, "r")
    with pytest.raises(IllegalMove, match="the hand is empty"):
        e.apply(s, "s")


def test_hand_card_and_waste_top_both_play_to_foundations_and_piles():
    s = make_state("limited", {"f1": "AD 2D", "t1": "9C", "w": "3D", "h": "8C", "s": "-KH"})
    s = e.apply(e.apply(s, "w f"), "h t1")
    assert s.piles["f1"].top.name == "3D" and s.piles["t1"].top.name == "8C" and not s.piles["h"].cards
    s = e.apply(s, "s")                             # no hand card to put on the waste
    assert s.piles["h"].top.name == "KH" and not s.piles["w"].cards
    with pytest.raises(IllegalMove, match="builds down in suit"):
        e.apply(s, "h t1")


def test_option_hand_card_off_only_the_waste_top_plays():
    s = make_state("limited", {"t1": "9C", "t2": "9H", "s": "-8C -8H"}, {"hand_card": False})
    s = e.apply(e.apply(s, "s"), "s")
    assert [c.name for c in s.piles["w"].cards] == ["8H", "8C"]
    e.apply(s, "w t1")
    with pytest.raises(IllegalMove, match="8C cannot go on 9H"):
        e.apply(s, "w t2")


# Found offline with a beam search over the engine's legal moves (width 30, ordered by
# two_pack.tidy_distance): 268 moves, the hand card played 28 times and the waste's top 40 times.
WIN_4 = """t1 f1; t3 f2; t12 f3; t12 f3; t12 f1; t3 t12; t3 t11; t9 t3; t9 t4; s; s; s; s; s; s; h f4
t5 f4; t1 t4; t6 t9; s; s; h f5; s; s; s; s; s; s; s; s; h f6; s; s; s; s; s; h f3; t9 f3; t9 f3
t2 t9; t2 f3; t2 t11; t10 t2; t10 f2; t9 t11; t7 t9; t7 t8; t6 t8; t10 t7; t5 t10; s; s; s
h t11; t5 t10; s; s; h t5; s; s; h f7; t4 f7; t4 f7; t4 f7; t3 t5; t4 t3; s; s; s; s; h f7
t12 f7; t4 t7; t8 t4; t8 t12; t4 t12; t8 t4; s; s; s; s; h f1; t2 f1; t8 t2; s; h f5; s; s; h f4
s; s; h f6; s; s; s; h f4; s; s; h f2; t11 f2; t11 f2; t11 f2; t11 f2; t7 f2; t7 f2; t7 f2
t11 t7; t11 t6; s; s; s; h f2; s; s; s; h f3; t8 t3; w t8; w f3; s; s; h t9; t8 t9; t12 t8
t12 t4; t3 t12; t8 t4; t5 t8; s; s; t8 t5; t4 t8; h t10; t12 t3; t4 t12; t4 t10; t3 t4; t12 t10
t5 t12; t8 t10; t6 t8; s; h t8; t4 t3; t12 t5; s; h t4; t3 t12; t6 t4; t8 t6; t8 t4; t5 t8
t4 t10; t6 t10; t4 t6; s; t8 t5; t12 t3; t9 t8; h t2; t6 t4; t9 t6; t3 t12; t8 t6; t10 t8
t10 t4; t8 t4; t2 t8; s; h f6; s; s; h f1; t4 f1; t4 f1; t10 f1; t10 f1; t10 f1; t10 f1; t10 f1
t10 f1; t12 f6; t3 f6; s; h f5; t8 f5; s; h f2; t2 f5; w f8; w t2; w t3; w f6; w t8; w f3; t5 f3
t5 f3; w t8; w f8; w f2; w t5; w t10; w t12; t10 t12; w t10; w t11; w t7; w f3; t3 f3; t5 t12
w t3; w t5; w t2; w f8; t8 f8; t8 f8; w t5; w f5; t7 f5; t7 f5; t11 f5; t11 f5; w f7; t6 f7
t6 f7; t3 f7; t2 f7; t5 f7; t5 f7; s; s; h f4; s; h f6; t12 f6; t12 f6; t12 f6; w t3; w f6; w t5
w t6; w f6; w t7; w t8; w f4; t3 f4; t4 f4; t4 f4; t6 f4; s; h f4; w t3; w t2; w f4; t10 f4
w t1; w f5; t1 f5; t1 f5; w f8; t7 f8; t3 f8; t8 f8; t9 f8; t2 f8; t2 f8; t5 f8; w f6"""


def test_deal_4_played_to_a_win():
    wins("limited", 4, WIN_4)


test_random_positions_round_trip_through_a_deck = round_trip_test("limited")
test_corrupted_decks_are_refused_naming_the_card = corruption_test("limited")
