"""Agnes, called Agnes Bernauer elsewhere (seed 001; reference row 24)."""

import pytest

from decks import engine as e
from decks.deals import deal_order
from decks.engine import IllegalMove, make_state

BASE_Q = {"base": 12}        # a queen on the first foundation: every foundation starts with a queen


def test_layout_klondike_tableau_seven_reserve_one_base_card_sixteen_in_stock():
    s = e.deal("agnes", 6)
    for i in range(1, 8):
        assert len(s.piles[f"t{i}"]) == i and s.piles[f"t{i}"].hidden == i - 1
        assert len(s.piles[f"r{i}"]) == 1 and s.piles[f"r{i}"].hidden == 0
    order = deal_order("standard", 6)
    assert s.piles["f1"].cards == [order[35]] and s.counters["base"] == order[35].rank
    assert len(s.piles["s"]) == 16


def test_foundations_build_up_in_suit_from_the_base_round_the_corner():
    s = make_state("agnes", {"f1": "QH", "t1": "KH", "t2": "5S", "t3": "QS"}, counters=BASE_Q)
    s = e.apply(s, "t1 f1")
    wrapped = e.apply(make_state("agnes", {"f1": "QH KH", "t1": "AH"}, counters=BASE_Q), "t1 f")
    assert wrapped.piles["f1"].top.name == "AH"
    with pytest.raises(IllegalMove, match="starts with a card of rank 12"):
        e.apply(s, "t2 f")
    assert e.apply(s, "t3 f").piles["f2"].top.name == "QS"


def test_tableau_down_in_alternating_colours_round_the_corner_and_groups_move():
    s = make_state("agnes", {"t1": "AC", "t2": "KH", "t3": "9S 8H 7C", "t4": "TD", "t5": "-3C 9S 8S",
                             "t6": "TH"}, counters=BASE_Q)
    e.apply(s, "t2 t1")                                      # king on ace
    e.apply(s, "t3 t4 3")                                    # a built group moves as a unit
    with pytest.raises(IllegalMove, match="built group"):
        e.apply(s, "t5 t6 2")


def test_a_space_takes_only_the_rank_below_the_base():
    s = make_state("agnes", {"t1": "-4C JC TH", "t2": "-4D 5S"}, counters=BASE_Q)
    e.apply(s, "t1 t3 2")                                    # jack (one below the queen) and its group
    with pytest.raises(IllegalMove, match="only a jack"):
        e.apply(s, "t2 t3")
    ace_base = make_state("agnes", {"t1": "-4C KC"}, counters={"base": 1})
    e.apply(ace_base, "t1 t2")                               # base ace: a king fills a space


def test_reserve_tops_available_but_no_building_on_the_reserve():
    s = make_state("agnes", {"r1": "2D 9C", "t1": "TH", "t2": "8H"}, counters=BASE_Q)
    e.apply(s, "r1 t1")
    with pytest.raises(IllegalMove, match="placed on the reserve"):
        e.apply(s, "t2 r1")


def test_foundation_cards_come_back_into_play_but_the_base_stays():
    s = make_state("agnes", {"f1": "QH KH", "f2": "QS", "t1": "-2C AS", "t2": "KD"}, counters=BASE_Q)
    back = e.apply(s, "f1 t1")
    assert back.piles["t1"].top.name == "KH"
    with pytest.raises(IllegalMove, match="base card stays"):
        e.apply(s, "f2 t2")


def test_stock_deals_one_card_per_reserve_and_the_last_two_to_r1_r2():
    s = e.deal("agnes", 6)
    s = e.apply(s, "s")
    assert [len(s.piles[f"r{i}"]) for i in range(1, 8)] == [2] * 7
    s = e.apply(e.apply(s, "s"), "s")
    assert [len(s.piles[f"r{i}"]) for i in range(1, 8)] == [4, 4, 3, 3, 3, 3, 3]
    with pytest.raises(IllegalMove, match="used up"):
        e.apply(s, "s")


# Found offline with decks.solver.solve(e.deal('agnes', 1), 20000).
DEAL_1 = """s; s; s; r5 f2; t1 t3; r4 t4; r4 t4; r6 t4; t2 t4; r7 t1; r7 t1; r4 t1
r2 t1; t6 t1; t2 t6; t4 t2 5; t3 t4 2; r7 t2; r3 t2; r3 f1; t7 f1; t7 f3; r3 t1; t6 t1 2
t6 f3; t5 t6; t6 t2 2; t1 t6 3; t2 t7 3; t4 t3 2; t4 f1; t7 f1; t5 t4; t5 t2; t1 t5 4; t6 t5 3
t7 t2; t5 t1 7; f1 t2; t4 t2 2; t4 f2; t5 t4; t7 t5 2; t3 t7 3; t7 t1 4; r6 t3; r6 f4; t1 f4
t1 f2; t2 f4; t1 f4; t2 f2; t2 f1; r1 f1; r1 f3; t7 f3; t7 f4; t1 f3; t1 f4; t2 f3
t2 f1; t5 f4; r1 t4; r1 f1; t7 t4; r5 t4; r5 f3; t2 f3; t6 f3; t2 f1; t2 f3; t6 t3
r2 t2; t5 t2 2; t1 t4 3; t1 f1; t1 f3; t3 f1; t3 f3; t2 t3 5; t4 t1 5; t4 f1; t4 f3; t3 t2 5
t3 f1; f3 t3; t1 t3 6; f1 t4; f1 t1; t2 t4 5; t3 t1 5; f3 t2; t4 t2 4; t1 t3 5; t1 f1; t2 t4 4
f4 t4; t2 f3; r2 t4; r2 f2; t4 f2; t3 f2; t4 f4; t3 f4; t4 f2; t3 f2; t4 f4; t3 f4
t4 f2; t3 f2; t4 f4; t3 f4; t2 f4; t3 f3; t4 f2; t1 f2; t4 f1"""


def test_deal_1_played_to_a_win():
    end = e.replay("agnes", 1, {}, e.parse_moves(DEAL_1))
    assert e.is_won(end)
