"""The Plot (seed 000; reference row 14): two packs, a 13-card reserve, the first foundation card sets
the base, the first foundation must be finished before the others open."""

import pytest

from decks import engine as e
from decks.deals import deal_order
from decks.engine import IllegalMove, make_state
from tests.twopack import corruption_test, pack_counts, round_trip_test, wins

SEVENS = {"base": 7}
F1_FULL = "7C 8D 9S TH JC QC KD AS 2H 3C 4D 5S 6H"


def test_layout_reserve_of_thirteen_base_card_twelve_piles_rest_in_hand():
    s = e.deal("the-plot", 1)
    order = deal_order("double", 1)
    assert s.piles["r1"].cards == order[:13] and s.piles["r1"].hidden == 0
    assert s.piles["f1"].cards == [order[13]] and s.counters["base"] == order[13].rank
    assert [s.piles[f"t{i}"].cards for i in range(1, 13)] == [[c] for c in order[14:26]]
    assert len(s.piles["s"]) == 78 and not s.piles["w"].cards
    pack_counts(s)


def test_foundations_up_regardless_of_suit_round_the_corner():
    s = make_state("the-plot", {"f1": "QS", "t1": "KH", "t2": "AD", "t3": "3C"}, counters={"base": 12})
    s = e.apply(e.apply(s, "t1 f1"), "t2 f1")                # king, then ace: round the corner
    with pytest.raises(IllegalMove, match="up by one rank regardless of suit"):
        e.apply(s, "t3 f1")


def test_other_foundations_open_only_after_the_first_holds_thirteen():
    s = make_state("the-plot", {"f1": "7C 8D", "t1": "7H"}, counters=SEVENS)
    with pytest.raises(IllegalMove, match="open only when the first holds thirteen"):
        e.apply(s, "t1 f2")
    full = make_state("the-plot", {"f1": F1_FULL, "t1": "7H", "t2": "8H"}, counters=SEVENS)
    full = e.apply(full, "t1 f")
    assert full.piles["f2"].top.name == "7H"
    with pytest.raises(IllegalMove, match="starts with a seven"):
        e.apply(make_state("the-plot", {"f1": F1_FULL, "t2": "8H"}, counters=SEVENS), "t2 f2")


def test_reserve_top_goes_only_to_a_foundation():
    s = make_state("the-plot", {"f1": "7C", "r1": "5D 8S", "t1": "9H"}, counters=SEVENS)
    assert e.apply(s, "r1 f1").piles["f1"].top.name == "8S"
    with pytest.raises(IllegalMove, match="from the reserve to the tableau"):
        e.apply(s, "r1 t1")
    with pytest.raises(IllegalMove, match="placed on the reserve"):
        e.apply(s, "t1 r1")


def test_tableau_down_regardless_of_suit_round_the_corner_one_card():
    s = make_state("the-plot", {"f1": "7C", "t1": "AS", "t2": "KD", "t3": "2H", "t4": "5C 4D 3S"},
                   counters=SEVENS)
    e.apply(s, "t2 t1")                                      # king on ace
    e.apply(s, "t1 t3")                                      # ace on two
    with pytest.raises(IllegalMove, match="one card moves at a time"):
        e.apply(s, "t4 t3 2")


def test_spaces_from_the_waste_only_and_base_cards_held_during_the_restriction():
    s = make_state("the-plot", {"f1": "7C", "t1": "9D", "w": "7H", "t3": "8S"}, counters=SEVENS)
    with pytest.raises(IllegalMove, match="filled only from the waste"):
        e.apply(s, "t1 t2")
    e.apply(s, "w t2")                                       # a seven from the waste
    odd = make_state("the-plot", {"f1": "7C", "w": "9H"}, counters=SEVENS)
    with pytest.raises(IllegalMove, match="space takes only a seven"):
        e.apply(odd, "w t2")
    with pytest.raises(IllegalMove, match="seven in the tableau is neither built on"):
        e.apply(make_state("the-plot", {"f1": "7C", "t1": "8S", "t2": "7D"}, counters=SEVENS), "t2 t1")
    with pytest.raises(IllegalMove, match="neither built on"):
        e.apply(make_state("the-plot", {"f1": "7C", "t1": "7S", "t2": "6D"}, counters=SEVENS), "t2 t1")
    free = make_state("the-plot", {"f1": F1_FULL, "w": "9H", "t1": "8S", "t2": "7D"}, counters=SEVENS)
    e.apply(free, "w t3")
    e.apply(free, "t2 t1")


def test_hand_one_at_a_time_no_redeal():
    s = make_state("the-plot", {"f1": "7C", "s": "-4D"}, counters=SEVENS)
    s = e.apply(s, "s")
    with pytest.raises(IllegalMove, match="no redeal"):
        e.apply(s, "r")


# Found offline with a beam search over the engine's legal moves (width 30).
WIN_1 = """s; s; s; s; s; s; s; w f1; s; w f1; s; w f1
t2 f1; t7 f1; t3 f1; r1 f1; t1 f1; s; s; s; s; s; w f1; s
s; s; s; w f1; t4 f1; t8 f1; t6 f2; s; w f2; s; s; s
s; w f3; s; w f3; s; s; s; s; s; w f2; s; s
s; w f3; s; s; s; s; s; s; s; s; s; s
w f2; s; s; s; s; s; s; s; s; s; s; s
s; s; w f4; w f4; s; s; s; w f2; t9 f2; t11 f2; r1 f2; t5 f2
s; s; w f3; s; s; s; s; w f3; r1 f2; w f2; s; w f2
r1 f3; s; s; s; s; s; w f3; t12 f3; s; w f4; w f4; s
s; w f5; r1 f4; s; s; s; s; s; w t1; w t2; w t3; w t4
w t5; w t6; w f5; w f4; t1 f4; w t1; w t4; w t7; w f2; w f4; w t7; w t8
w t9; w t11; w f3; r1 f3; t2 f3; t10 f3; t9 f3; w t2; w t9; w t10; w f5; t5 f5
t1 t8; w t1; w t5; w t12; w t11; w f5; t2 f5; t9 f5; t5 f5; w f4; r1 f4; r1 f6
r1 f4; t11 f4; t11 f4; t1 t6; w t1; w t1; w t2; w t5; w t3; w t9; t4 t9; t1 t9
t1 t4; t3 t5; t9 t4; w t1; w t2; t3 t2; t1 t2; w t1; w t3; w f5; t1 f5; t7 f5
t7 f5; w f5; w t1; w t7; w f6; t6 f6; t6 f6; t4 f6; t4 f6; t4 f6; t3 f6; t1 f6
t2 f6; t2 f6; t2 f6; t2 f6; t5 t10; w t1; w t2; w t3; w t2; w t4; w f7; t4 f7
r1 f7; w f7; t1 f7; t8 f7; t8 f7; t2 f7; r1 f7; r1 f8; t3 f7; t5 f7; w f7; t7 f7
w t1; w t3; w f8; w f8; r1 f8; t1 f8; t9 f8; t9 f8; t12 f8; t2 f8; t10 f8; t10 f8
t3 f8; w f8"""


def test_deal_1_played_to_a_win():
    wins("the-plot", 1, WIN_1)


test_random_positions_round_trip_through_a_deck = round_trip_test("the-plot")
test_corrupted_decks_are_refused_naming_the_card = corruption_test("the-plot")
