"""Colorado (seed 000; reference row 16): two packs, twenty waste piles, an ace and a king of each
suit as foundations, every stock card to a foundation or a waste pile."""

import pytest

from decks import engine as e
from decks.deals import deal_order
from decks.engine import IllegalMove, make_state
from tests.twopack import corruption_test, pack_counts, round_trip_test, wins

FULL = {f"t{i}": "5H" for i in range(1, 21)}       # every waste pile occupied (no gap to fill)


def test_layout_twenty_waste_piles_foundations_empty_rest_in_stock():
    s = e.deal("colorado", 3)
    order = deal_order("double", 3)
    assert [s.piles[f"t{i}"].cards for i in range(1, 21)] == [[c] for c in order[:20]]
    assert all(not s.piles[f"f{i}"].cards for i in range(1, 9)) and not s.piles["w"].cards
    assert len(s.piles["s"]) == 84 and s.piles["s"].cards[-1] == order[20]
    pack_counts(s)


def test_one_ace_and_one_king_of_each_suit_start_the_foundations():
    s = make_state("colorado", {**FULL, "t1": "AS", "t2": "KS", "t3": "AS", "t4": "2S", "s": "-9D -9D"})
    s = e.apply(e.apply(s, "t1 f"), "t2 f")
    assert s.piles["f4"].top.name == "AS" and s.piles["f8"].top.name == "KS"
    assert s.piles["t1"].top.name == "9D"                    # the gap took the next stock card
    with pytest.raises(IllegalMove, match="f4 takes the 2S next"):
        e.apply(s, "t3 f4")                                  # the second ace is an ordinary card
    e.apply(s, "t4 f4")


def test_the_dealt_card_goes_home_or_onto_any_waste_pile_before_the_next():
    s = make_state("colorado", {**FULL, "t1": "8C", "s": "-3D -JS"})
    s = e.apply(s, "s")
    assert s.piles["w"].top.name == "JS"
    with pytest.raises(IllegalMove, match="must go to a foundation or onto a waste pile"):
        e.apply(s, "s")
    s = e.apply(s, "w t1")                                   # any card on any card
    assert [c.name for c in s.piles["t1"].cards] == ["8C", "JS"]
    e.apply(s, "s")


def test_no_moves_between_waste_piles():
    s = make_state("colorado", {**FULL, "t1": "8C", "t2": "7C"})
    with pytest.raises(IllegalMove, match="cards do not go from the tableau to the tableau"):
        e.apply(s, "t2 t1")


def test_gaps_stay_once_the_stock_is_out():
    s = make_state("colorado", {**FULL, "t1": "AC"})
    s = e.apply(s, "t1 f")
    assert not s.piles["t1"].cards


test_random_positions_round_trip_through_a_deck = round_trip_test("colorado")
test_corrupted_decks_are_refused_naming_the_card = corruption_test("colorado")


# Found offline by a greedy player: every card home at once, else onto the waste pile whose top card
# is needed next after it.
WIN_25 = """t4 f4; t8 f2; t10 f3; t12 f1; t13 f3; t16 f7; t17 f3; t8 f8; t12 f7; t14 f3; t8 f6; s; w f5
t13 f5; s; w t1; s; w f4; s; w f1; t7 f1; t3 f1; s; w t2; s; w t1; s; w t4; s; w t20; s; w t8; s
w t2; s; w t2; s; w t4; s; w t4; s; w f4; t14 f4; s; w t19; s; w t5; s; w t5; s; w t19; s; w t20
s; w f3; s; w t3; s; w t16; s; w f5; t8 f5; t13 f5; s; w f3; t2 f3; s; w f2; s; w t16; s; w f4
s; w t15; s; w f8; t5 f8; s; w f3; s; w t6; s; w t1; s; w t1; s; w t16; s; w f6; t5 f6; t17 f6
t5 f4; t12 f6; t14 f6; t19 f6; t4 f6; t7 f6; t12 f2; t3 f2; t4 f4; t13 f4; t3 f3; t10 f3; t11 f4
t3 f1; t8 f1; t1 f1; s; w t1; s; w t20; s; w f6; t1 f6; t3 f6; s; w t5; s; w f3; t19 f3; t6 f3
s; w t5; s; w f2; s; w f2; t8 f2; s; w t15; s; w t15; s; w f1; t13 f1; t3 f1; s; w f7; t1 f7
t11 f7; t8 f7; t6 f7; t8 f4; t12 f4; t6 f8; t8 f2; t10 f4; t20 f4; t1 f8; t4 f8; t7 f2; t20 f6
t1 f5; t2 f2; t4 f8; t13 f8; t17 f2; t2 f5; t9 f5; t1 f5; t2 f8; t11 f5; t15 f5; t15 f7; t16 f7
t5 f7; t16 f1; t18 f7; t19 f1; t5 f2; t15 f1; t16 f5; t3 f2; t15 f8; t16 f7; t20 f7; t12 f8
t20 f5; t5 f8; t14 f8"""


def test_deal_25_played_to_a_win():
    wins("colorado", 25, WIN_25)
