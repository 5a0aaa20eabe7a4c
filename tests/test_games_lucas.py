"""Lucas (seed 004; reference row 23): two packs, the eight aces out, 13 piles of 3, down in suit."""

import pytest

from decks import engine as e
from decks.deals import deal_order
from decks.engine import IllegalMove, make_state
from tests.twopack import corruption_test, pack_counts, round_trip_test, wins


def test_layout_eight_aces_out_thirteen_piles_of_three_face_up_rest_in_hand():
    s = e.deal("lucas", 8)
    assert [c.name for f in s.names("foundation") for c in s.piles[f].cards] == \
        ["AC", "AD", "AH", "AS"] * 2
    assert [len(s.piles[f"t{i}"]) for i in range(1, 14)] == [3] * 13
    assert all(s.piles[f"t{i}"].hidden == 0 for i in range(1, 14))
    assert len(s.piles["s"]) == 104 - 8 - 39 and not s.piles["w"].cards
    order = [c for c in deal_order("double", 8) if c.rank != 1]
    assert [s.piles[f"t{i}"].cards[0] for i in range(1, 14)] == order[:13]
    pack_counts(s)


def test_build_down_in_suit_one_card_and_either_copy_will_do():
    s = make_state("lucas", {"t1": "9H", "t2": "8H", "t3": "8H", "t4": "8S", "t5": "7H 6H"})
    e.apply(s, "t2 t1")
    e.apply(s, "t3 t1")                                  # the other eight of hearts goes as well
    with pytest.raises(IllegalMove, match="builds down in suit"):
        e.apply(s, "t4 t1")
    with pytest.raises(IllegalMove, match="one card moves at a time"):
        e.apply(s, "t5 t2 2")


def test_any_available_card_fills_a_space_from_tableau_or_waste():
    s = make_state("lucas", {"t1": "5C", "t2": "QD", "w": "JS", "s": "-2C"})
    e.apply(s, "t2 t3")
    e.apply(s, "w t3")


def test_two_foundations_of_a_suit_both_build_to_the_king():
    s = make_state("lucas", {"f1": "AC", "f5": "AC 2C", "t1": "2C", "t2": "3C"})
    s = e.apply(s, "t1 f")
    assert s.piles["f1"].top.name == "2C"
    with pytest.raises(IllegalMove, match="build up by one rank"):
        e.apply(make_state("lucas", {"f1": "AC", "t1": "3C"}), "t1 f1")


def test_hand_turns_one_card_and_one_redeal():
    s = e.deal("lucas", 8)
    top = s.piles["s"].cards[-1]
    s = e.apply(s, "s")
    assert s.piles["w"].cards == [top]
    with pytest.raises(IllegalMove, match="redeal only when the hand is used up"):
        e.apply(s, "r")
    for _ in range(len(s.piles["s"])):
        s = e.apply(s, "s")
    first = s.piles["w"].cards[0]
    s = e.apply(s, "r")
    assert s.piles["s"].cards[-1] == first and s.redeals == 1
    for _ in range(len(s.piles["s"])):
        s = e.apply(s, "s")
    with pytest.raises(IllegalMove, match="only 1 redeal"):
        e.apply(s, "r")


# Found offline with a beam search over the engine's legal moves (width 30).
WIN_3 = """t9 f1; t9 f4; t6 f4; t10 f2; s; s; s; s; s; w f5; t10 f3; s
s; s; s; s; w f3; t11 f4; s; s; s; s; s; s
s; s; w f4; s; s; s; s; s; w f6; s; w f8; t9 f1
s; w f1; s; s; s; s; s; s; w f3; s; s; w f2
t7 f2; t7 f1; t1 f1; s; w f7; s; w f4; s; s; s; s; s
s; s; s; s; s; s; s; w f5; t8 f8; s; s; s
s; s; s; s; s; w f4; s; s; t3 t9; t3 f2; t3 f5; t4 t3
t4 f6; t4 f4; t6 t4; t6 f7; t1 t6; t5 t12; t7 t6; t5 t7; t5 f8; t4 t8; t13 t4; t13 t5
t13 f5; t11 f5; t6 t12; t8 t13; t8 t5; w t8; r; s; s; s; w f1; s
s; s; s; s; s; s; s; w f4; t11 f4; s; s; s
w f2; w f2; t12 f2; t12 f2; t12 f2; t12 f4; w f2; t8 f2; t8 f2; s; s; s
s; s; w f3; s; w f4; t10 f4; s; w f5; s; s; s; w f8
t4 f8; s; s; w f6; s; s; s; w f1; w f1; t9 f1; s; s
s; s; s; s; s; s; w f8; w f5; s; w f3; t2 f3; t5 f3
t5 f3; w f5; w f5; s; s; w f3; s; s; s; s; w f1; t7 f8
t12 f1; t1 f1; w t1; w t4; w t5; w t7; w f3; t2 f3; t1 f3; t2 t7; t6 t7; w t1
w t2; w t6; t1 t6; w t1; w t3; w t8; t2 t8; t4 t13; w t2; t5 t2; t3 t4; t6 t5
t7 t9; t7 t10; t8 t11; t2 t12; w t9; t1 t9; t2 t11; t4 t3; w t1; w t2; w f8; t12 f8
t11 f8; t11 f8; t8 f8; w t4; w f5; t3 f5; t3 f5; t5 t6; t1 t6; t9 t1; t2 t1; w t2
w t3; w t5; w f7; t5 f7; t13 f7; t13 f7; t6 f7; t6 f7; t6 f7; w t2; w f6; t1 f6
t1 f6; t9 f6; t9 f6; t10 f6; t7 f6; t3 f6; t4 f6; w f7; t2 f7; t2 f7"""


def test_deal_3_played_to_a_win():
    wins("lucas", 3, WIN_3)


test_random_positions_round_trip_through_a_deck = round_trip_test("lucas")
test_corrupted_decks_are_refused_naming_the_card = corruption_test("lucas")
