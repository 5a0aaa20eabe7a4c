"""Little Spider (seed 004; reference row 21)."""

import pytest

from decks import engine as e
from decks.engine import IllegalMove, make_state

DEALING = {"s": "-9S -9D -9C -9H"}     # cards left in the hand: we are "during the deal"


def test_layout_two_rows_of_four_and_44_in_hand():
    s = e.deal("little-spider", 2)
    assert [len(s.piles[f"t{i}"]) for i in range(1, 9)] == [1] * 8
    assert len(s.piles["s"]) == 44 and s.piles["s"].hidden == 44


def test_each_deal_puts_one_card_on_every_pile_and_the_last_four_on_the_upper_row():
    s = e.apply(e.deal("little-spider", 2), "s")
    assert [len(s.piles[f"t{i}"]) for i in range(1, 9)] == [2] * 8
    for _ in range(4):
        s = e.apply(s, "s")
    s = e.apply(s, "s")
    assert [len(s.piles[f"t{i}"]) for i in range(1, 9)] == [7] * 4 + [6] * 4
    with pytest.raises(IllegalMove, match="completely dealt"):
        e.apply(s, "s")


def test_during_the_deal_lower_row_plays_only_to_the_foundation_above():
    s = make_state("little-spider", {**DEALING, "f1": "AD", "f2": "AH", "t5": "2D", "t6": "2D"})
    e.apply(s, "t5 f1")                                  # f1 is directly above t5
    with pytest.raises(IllegalMove, match="directly above"):
        e.apply(s, "t6 f1")                              # f2 is above t6
    up = make_state("little-spider", {**DEALING, "f3": "AH", "t2": "2H"})
    e.apply(up, "t2 f3")                                 # the upper row plays to any foundation
    base = make_state("little-spider", {**DEALING, "t8": "KS"})
    e.apply(base, "t8 f1")                               # a foundation's base card goes anywhere


def test_no_tableau_building_until_the_pack_is_dealt_then_up_or_down_round_the_corner():
    s = make_state("little-spider", {**DEALING, "t1": "5C", "t2": "4H"})
    with pytest.raises(IllegalMove, match="until the pack is completely dealt"):
        e.apply(s, "t2 t1")
    after = make_state("little-spider", {"t1": "5C", "t2": "4H", "t3": "6D", "t4": "AC", "t5": "KD",
                                         "t6": "9S"})
    e.apply(after, "t2 t1")
    e.apply(after, "t3 t1")
    e.apply(after, "t5 t4")                              # king on ace: the sequence is circular
    with pytest.raises(IllegalMove, match="up or down"):
        e.apply(after, "t6 t1")


def test_spaces_are_not_filled():
    s = make_state("little-spider", {"t2": "4H"})
    with pytest.raises(IllegalMove, match="never filled"):
        e.apply(s, "t2 t1")


def test_two_aces_of_one_colour_and_two_kings_of_the_other():
    s = make_state("little-spider", {"t1": "AH", "t2": "AC", "t3": "KC", "t4": "KH"})
    s = e.apply(s, "t1 f")                               # the player chooses: red aces
    with pytest.raises(IllegalMove, match="aces are red"):
        e.apply(s, "t2 f")
    with pytest.raises(IllegalMove, match="aces are red"):
        e.apply(s, "t4 f2")
    s = e.apply(s, "t3 f")
    fixed = make_state("little-spider", {"t1": "AH"}, {"aces": "black"})
    with pytest.raises(IllegalMove, match="aces are black"):
        e.apply(fixed, "t1 f")


def test_ace_foundations_build_up_and_king_foundations_down_in_suit():
    s = make_state("little-spider", {"f1": "KC", "f2": "AD", "t1": "QC", "t2": "2D", "t3": "QS"})
    e.apply(s, "t1 f1")
    e.apply(s, "t2 f2")
    with pytest.raises(IllegalMove, match="in suit"):
        e.apply(s, "t3 f1")


# Found offline with decks.solver.solve(e.deal('little-spider', 4), 20000).
DEAL_4 = """s; s; s; s; s; s; t4 f1; t4 f1; t1 t5; t2 t6; t1 t2; t1 t2
t1 t2; t1 t6; t3 t4; t3 f2; t3 t6; t3 t1; t3 t8; t1 t3; t1 t3; t8 t1; t8 t1; t2 t8
t2 t1; t2 t1; t2 t1; t2 t5; t2 t4; t2 t7; t2 t3; t2 f2; t5 t8; t5 t7; t5 t6; t5 t6
t5 t6; t4 t5; t4 t5; t4 t5; t6 t7; t6 t4; t6 t4; t6 t4; t6 t4; t6 t4; t6 t4; t3 t6
t3 t5; t3 t5; t1 t3; t1 f2; t1 f2; t1 t3; t1 t3; t1 f3; t3 f3; t3 t8; t3 t8; t3 t5
t3 f1; t5 t6; t5 t6; t5 t6; t5 t6; t5 t6; t4 t5; t4 t5; t4 t5; t4 t5; t4 t5; t4 t5
t7 t5; t7 t4; t5 t4; t5 t4; t5 t4; t5 t4; t5 t4; t5 t4; t5 t4; t5 t4; t5 t4; t5 f4
t5 t4; t6 t4; t6 t4; t6 t4; t6 t4; t6 t4; t8 t4; t7 t8; t7 t8; t4 t7; t4 t6; t4 t6
t4 t6; t4 t6; t4 t6; t4 t6; t4 t6; t4 t6; t4 t6; t4 t6; t4 t6; t4 t6; t4 t6; t4 t6
t4 t6; t4 f2; t6 t8; t6 t4; t6 t4; t6 t4; t6 t4; t6 t4; t6 t4; t6 t4; t6 t4; t6 t4
t6 t4; t6 t4; t6 t4; t6 t4; t6 t7; t4 t7; t4 t6; t4 t6; t4 t6; t4 t6; t4 t6; t4 t6
t4 t6; t4 t6; t4 t6; t4 t6; t4 t6; t4 t6; t8 t6; t8 t4; t6 t4; t6 t4; t6 t4; t6 t4
t6 t4; t6 t4; t6 t4; t6 t4; t6 t4; t6 t4; t6 t4; t6 t4; t6 t4; t6 t4; t6 t4; t7 t4
t7 t4; t7 t4; t7 t4; t6 t7; t4 t8; t4 t8; t4 t8; t4 t6; t4 f4; t4 t8; t4 t6; t4 f4
t8 t6; t8 t6; t8 t6; t8 t6; t8 t6; t8 t6; t8 t6; t8 t6; t8 t6; t4 t8; t4 t7; t4 f4
t4 t8; t4 t7; t4 t7; t4 t7; t4 t7; t4 t7; t4 t7; t4 t7; t4 t6; t4 t6; t8 t4; t8 t4
t8 t4; t6 t8; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7
t6 t4; t6 t4; t6 t4; t6 t8; t4 t7; t4 t6; t4 t6; t4 t6; t4 t6; t4 t6; t4 t6; t8 t4
t8 t4; t8 t4; t6 t8; t6 t8; t6 t8; t6 t8; t6 t8; t6 t8; t7 t8; t7 t6; t7 t6; t7 t6
t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t4 t7; t4 t6; t4 t6; t4 t6; t4 f3
t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7
t6 t7; t8 t7; t8 t6; t7 t6; t7 t8; t6 t8; t6 t7; t8 t7; t8 t6; t7 t6; t8 t7; t6 t8
t6 t8; t7 t8; t7 t6; t8 t6; t8 t7; t6 t7; t6 t8; t7 t8; t7 t8; t7 t8; t7 t6; t7 t6
t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6
t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 f4; t8 t7; t8 t7; t8 t7; t8 t7
t8 t7; t8 t6; t8 t6; t8 t6; t8 t6; t8 t6; t7 t8; t7 t8; t7 t8; t7 t8; t7 t8; t7 t8
t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7
t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 t7; t6 f3
t6 t8; t6 t7; t8 t7; t8 t6; t7 t6; t7 t8; t6 t8; t6 t7; t8 t7; t8 t7; t8 t7; t8 t6
t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6
t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t6; t7 t8; t6 t8
t6 t7; t6 f4; t7 t8; t7 t8; t7 t8; t7 t8; t7 t8; t6 t7; t6 t8; t6 t8; t6 t7; t6 f4
t6 t8; t6 t7; t6 f2; t6 t8; t6 f4; t6 f4; t6 t8; t6 f3; t6 f4; t6 t8; t6 t8; t6 f4
t8 f4; t8 t6; t8 t6; t8 t6; t7 t8; t7 f3; t8 f3; t8 t6; t8 f2; t7 t6; t7 f2; t7 f3
t8 t6; t8 f2; t8 f1; t8 f3; t8 f3; t8 f1; t6 f1; t6 f1; t6 f1; t6 f1; t6 f1; t6 f1
t6 f1; t6 f4; t8 f2; t8 f2; t8 f2; t6 f2; t8 t6; t8 t6; t8 f3; t6 f3; t6 f3; t6 f1"""


def test_deal_4_played_to_a_win():
    end = e.replay("little-spider", 4, {}, e.parse_moves(DEAL_4))
    assert e.is_won(end)
