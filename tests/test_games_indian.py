"""Indian (seed 004; reference row 17): two packs, 10 piles of 3 (first row face down), build down in
any suit but its own, one pass."""

import pytest

from decks import engine as e
from decks.deals import deal_order
from decks.engine import IllegalMove, make_state
from tests.twopack import corruption_test, pack_counts, round_trip_test, wins


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


def test_the_hand_card_and_the_waste_top_both_play():
    """The text: "The top card of the wastepile, as well as the card in the hand, is available"."""
    s = make_state("indian", {"t1": "6S", "t2": "6H", "w": "4C 5H", "h": "5S", "s": "-9C"})
    assert e.apply(s, "w t1").piles["t1"].top.name == "5H"
    assert e.apply(s, "h t2").piles["t2"].top.name == "5S"
    assert e.apply(e.apply(s, "h t2"), "w t1").piles["w"].top.name == "4C"
    with pytest.raises(IllegalMove, match="any suit but its own"):
        e.apply(s, "h t1")
    with pytest.raises(IllegalMove, match="only the top card of the waste"):
        e.apply(s, "w t1 2")


def test_turning_puts_the_hand_card_on_the_waste_and_the_next_card_in_the_hand():
    s = make_state("indian", {"w": "4C", "h": "5S", "s": "-9C -8D"})
    s = e.apply(s, "s")
    assert [c.name for c in s.piles["w"].cards] == ["4C", "5S"] and s.piles["h"].top.name == "8D"
    s = e.apply(s, "s")
    assert s.piles["w"].top.name == "8D" and s.piles["h"].top.name == "9C" and not s.piles["s"].cards
    with pytest.raises(IllegalMove, match="the hand is empty"):     # the hand card stays in play
        e.apply(s, "s")
    assert e.apply(s, "h t1").piles["t1"].top.name == "9C"


def test_first_turn_with_no_hand_card_covers_nothing():
    s = e.deal("indian", 12)
    top = s.piles["s"].top
    s = e.apply(s, "s")
    assert s.piles["h"].cards == [top] and not s.piles["w"].cards and len(s.piles["s"]) == 73


def test_space_from_tableau_waste_or_hand_and_one_pass():
    s = make_state("indian", {"t1": "4S", "w": "KH", "h": "QD", "s": "-5D"})
    e.apply(s, "w t2")
    e.apply(s, "h t2")
    e.apply(s, "t1 t2")
    s = e.apply(s, "s")
    assert e.apply(s, "h t2").piles["t2"].top.name == "5D"     # the card from the hand
    assert e.apply(s, "w t2").piles["t2"].top.name == "QD"     # the hand card before it
    with pytest.raises(IllegalMove, match="no redeal is allowed"):
        e.apply(s, "r")


def test_option_hand_card_off_turns_straight_onto_the_waste():
    s = e.deal("indian", 12, {"hand_card": False})
    assert "h" not in s.piles
    top = s.piles["s"].top
    s = e.apply(s, "s")
    assert s.piles["w"].cards == [top]
    with pytest.raises(IllegalMove, match="no pile 'h'"):
        e.apply(s, "h t1")


test_random_positions_round_trip_through_a_deck = round_trip_test("indian")
test_corrupted_decks_are_refused_naming_the_card = corruption_test("indian")


# Found offline with decks.solver.solve(e.deal('indian', 4), 50000): 227 moves, the hand card
# played 22 times and the waste's top 49 times.
WIN_4 = """t5 f1; t7 f2; t2 f2; t2 f1; s; s; s; s; s; s; h f3; t4 f3; s; s; s; s; s; s; h f4; t9 f4; t4 t3
t1 t10; t9 t1; t6 t3; t6 t2; t8 t2; s; s; h f5; s; s; s; s; s; s; s; s; h f6; s; s; s; s; s
h f3; s; s; s; s; s; s; s; h f7; s; s; s; s; s; s; s; s; h f1; s; h f5; s; s; h f4; s; s; h f6
s; h f7; t10 f7; t2 f7; t10 f3; t10 t5; t8 t10; t2 f3; s; s; h f1; s; s; h f2; s; h f7; s; h f3
s; s; s; s; h f3; s; s; s; s; s; s; s; h f2; t3 f2; t2 f2; t7 t2; s; h f6; t8 f6; t9 f6; t3 f6
t3 t4; s; h f8; t3 f8; t3 f2; s; h f1; s; h f5; s; s; s; s; h f6; w t3; w t8; w t2; w t7; w f1
t4 f1; t4 f2; t6 f1; t1 f1; t1 t4; w t2; t4 t2; w t1; w t2; w t4; w t7; w f3; t8 t7; w t1; w f3
w t3; w t6; w f6; w f6; w f3; w t8; w t9; w f2; w t10; w t6; w t1; w f3; t6 f3; t4 f3; w t4
w f5; t5 f5; t5 f7; w t5; w f8; t3 f8; t9 f8; w t6; w f5; t10 f5; w f7; w t6; w t9; w f1; s
h f1; w t4; w t10; t1 t6; t1 t4; t1 t8; t4 t8; t4 t1; t5 t1; t5 f1; w t5; w t10; w f7; t2 f7
t2 f2; t6 f7; t1 f7; t8 f2; t8 f7; t4 f7; t8 f1; w t1; w t9; w f2; w t9; w f8; w t4; w f5; w f4
t3 f4; t10 f4; t7 f4; t10 f8; t7 f8; t10 f4; t5 f8; t7 f4; t10 f5; t7 f5; w f6; w f4; w f8
t1 f8; t2 f4; t6 f6; t9 f5; t1 f6; t2 f5; t6 f8; t9 f4; t1 f2; t2 f4; t4 f6; t6 f5; t9 f8"""


def test_deal_4_played_to_a_win():
    wins("indian", 4, WIN_4)


# Recorded before the hand card (decks.solver, deal 4): only the waste's top plays.
WIN_4_NO_HAND_CARD = """
t5 f1; t7 f2; t2 f2; t2 f1; t5 t3; t1 t10; t4 t10; t6 t3; t6 t2; t8 t2; s; s; s; s; s; s; w f3
t10 f3; t9 t10; t9 t1; s; s; s; s; s; s; w f4; t10 f4; s; s; w f5; s; s; s; s; s; s; s; s; w f6
s; s; s; s; s; w f3; s; s; s; s; s; s; s; w f7; s; s; s; s; s; s; s; s; w f1; s; w f5; s; s
w f4; s; s; w f6; s; w f7; t10 f7; t2 f7; t10 f3; t10 t4; t8 t10; t2 f3; s; s; w f1; s; s; w f2
s; w f7; s; w f3; s; s; s; s; w f3; s; s; s; s; s; s; s; w f2; t3 f2; t2 f2; t7 t2; t3 f7; s
w f6; t8 f6; t3 t8; t9 f6; t3 t9; t3 f2; s; w f8; t9 f8; s; w f1; s; w f5; w t3; w f1; t8 f1
t6 f1; t1 f1; t1 t6; t3 t6; t5 t1; w t3; t7 t3; w t2; w t3; w t5; w t6; w f3; w t1; w f3; w t4
w t7; w t3; w t8; w f3; s; w t5; s; w t3; s; s; w t6; s; w t2; t1 t9; t2 t5; t9 t2; t1 t9; t2 t9
t2 t1; t5 t1; t5 t2; t1 t2; t1 t5; t2 t5; t6 t10; t3 t6; t5 t2; t5 t1; t2 t1; t2 t5; t1 t5
t1 t2; t5 t2; t6 t3; t6 t8; t2 t5; t2 t1; t3 t8; t3 t6; t1 t2; t5 t2; t8 t6; t10 t8; t2 t5
t2 t1; t5 t1; t5 t2; t1 t2; t1 t5; t2 t5; t8 t10; t6 t8; t5 t2; t5 t1; t2 t1; t6 t3; t8 t3
t1 t2; t1 t5; t9 t5; t9 t1; t2 t9; t3 t8; t3 t6; t9 t2; t3 t9; t3 t2; t9 t2; w t9; t4 t9; t5 t1
t3 t5; t1 t3; t6 t2; t8 t2; t3 t1; t2 t3; t8 t6; t3 t6; t1 t3; t9 t4; t6 t2; t3 t1; t4 t3
t10 t6; t3 t9; t1 t3; t10 t8; t6 t8; t3 t1; t2 t3; t2 t10; t3 t6; t1 t3; t6 t10; t8 t6; t3 t1
t2 t3; t2 t5; t3 t5; t1 t3; t6 t8; t9 t4; t3 t1; t2 t3; t4 t9; t10 t6; t3 t2; t4 t3; t4 f6
t4 f2; t8 f6; t10 f6; t10 f2; w t4; w t10; t8 t5; t8 f6; w t8; w t5; w t4; w t1; w f3; t4 f3
t8 t1; w t8; w f5; t3 f5; w t3; w f8; t9 f8; t10 f8; w t4; w f5; t5 f5; w f7; w t4; w t10; w f1
t2 f1; t3 t2; w t3; w t5; t3 t7; w t3; w t5; w f7; t3 f7; w t3; w f1; t3 t7; w t3; t2 t3; t2 t8
t2 f1; w t2; w f8; w f3; w f5; t1 f5; t1 f7; t3 f7; w f4; t9 f4; t5 f4; t5 f8; t6 f4; t5 f4
t6 f8; t5 f8; t5 f2; t1 f2; t3 f2; t6 f4; t6 f5; t2 f5; t8 f5; w f6; t4 f6; t4 f7; t8 f7; w f4
t5 f4; t1 f4; t1 f2; t4 f4; w f8; t7 f8; t5 f8; t7 f6; t5 f6; t7 f5; t10 f8"""


def test_deal_4_played_to_a_win_without_the_hand_card():
    wins("indian", 4, WIN_4_NO_HAND_CARD, {"hand_card": False})
    with pytest.raises(IllegalMove, match="move 17"):      # 'w f3' there is the hand card here
        e.replay("indian", 4, {}, e.parse_moves(WIN_4_NO_HAND_CARD))
