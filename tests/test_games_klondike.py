"""Klondike in its three readings (seed 004, seed 003; reference rows 1-3)."""

import pytest

from decks import engine as e
from decks.engine import IllegalMove, make_state

GAMES = ("klondike", "klondike-flip3", "klondike-online")


@pytest.mark.parametrize("game", GAMES)
def test_layout_seven_piles_top_card_up(game):
    s = e.deal(game, 11)
    for i in range(1, 8):
        p = s.piles[f"t{i}"]
        assert len(p) == i and p.hidden == i - 1
    assert len(s.piles["s"]) == 24 and s.piles["s"].hidden == 24
    assert not s.piles["w"].cards and all(not s.piles[f"f{i}"].cards for i in range(1, 5))


def test_deal_follows_the_deal_order_row_by_row():
    from decks.deals import deal_order
    order = deal_order("standard", 1)
    s = e.deal("klondike", 1)
    assert s.piles["t1"].cards == [order[0]]
    assert [s.piles[f"t{i}"].cards[0] for i in range(1, 8)] == order[:7]
    assert s.piles["t2"].cards[1] == order[7]
    assert s.piles["s"].cards[-1] == order[28]          # the next card dealt is on top of the hand


def test_default_options_per_reference_row():
    assert e.deal("klondike").options == {"draw": 1, "redeals": 0, "partial_moves": False,
                                          "space": "king", "auto_foundation": False}
    assert e.deal("klondike-flip3").options["draw"] == 3
    assert e.deal("klondike-flip3").options["redeals"] == "unlimited"
    online = e.deal("klondike-online").options
    assert online["redeals"] == "unlimited" and online["partial_moves"] is True and online["draw"] == 1


def test_build_down_in_alternating_colours():
    s = make_state("klondike", {"t1": "-9D 7S", "t2": "6H", "t3": "6C"})
    e.apply(s, "t2 t1")
    with pytest.raises(IllegalMove, match="alternating colours"):
        e.apply(s, "t3 t1")


def test_whole_face_up_part_moves_as_a_unit():
    s = make_state("klondike", {"t1": "-9D 8S 7H", "t2": "8C", "t3": "9H"})
    with pytest.raises(IllegalMove, match="move as a unit"):
        e.apply(s, "t1 t2")                           # 7H alone
    moved = e.apply(s, "t1 t3 2")                     # 8S 7H together
    assert [c.name for c in moved.piles["t3"].cards] == ["9H", "8S", "7H"]
    assert moved.piles["t1"].hidden == 0              # 9D was turned up automatically
    partial = make_state("klondike", {"t1": "-9D 8S 7H", "t2": "8C"}, {"partial_moves": True})
    e.apply(partial, "t1 t2")


def test_top_card_goes_to_foundation_even_inside_a_unit():
    s = make_state("klondike", {"t1": "-9D 3S 2H", "f1": "AH"})
    assert e.apply(s, "t1 f").piles["f1"].top.name == "2H"
    with pytest.raises(IllegalMove, match="built in suit"):
        e.apply(make_state("klondike", {"t1": "2S", "f1": "AH"}), "t1 f1")


def test_space_takes_a_king_or_king_headed_build():
    s = make_state("klondike", {"t1": "-5C KH QS", "t3": "-4C QD"})
    e.apply(s, "t1 t2 2")
    with pytest.raises(IllegalMove, match="only by a king"):
        e.apply(s, "t3 t2")
    only = make_state("klondike", {"t1": "-5C KH QS", "t3": "-4C KD"}, {"space": "king-only"})
    e.apply(only, "t3 t2")
    with pytest.raises(IllegalMove, match="lone king"):
        e.apply(only, "t1 t2 2")


def test_turning_one_or_three_and_redeals():
    s = make_state("klondike", {"s": "-2C -3C -4C -5C"})
    one = e.apply(s, "s")
    assert [c.name for c in one.piles["w"].cards] == ["5C"]
    three = make_state("klondike", {"s": "-2C -3C -4C -5C"}, {"draw": 3})
    three = e.apply(three, "s")
    assert [c.name for c in three.piles["w"].cards] == ["5C", "4C", "3C"]
    three = e.apply(three, "s")
    with pytest.raises(IllegalMove, match="no redeal is allowed"):
        e.apply(three, "r")
    with pytest.raises(IllegalMove, match="hand is empty"):
        e.apply(three, "s")
    again = make_state("klondike", {"s": "-2C -3C -4C -5C"}, {"draw": 3, "redeals": 1})
    again = e.apply(e.apply(again, "s"), "s")
    with pytest.raises(IllegalMove, match="only when the hand is used up"):
        e.apply(make_state("klondike", {"s": "-2C", "w": "3C"}, {"redeals": 1}), "r")
    again = e.apply(again, "r")
    assert again.redeals == 1 and [c.name for c in e.apply(again, "s").piles["w"].cards] == ["5C", "4C", "3C"]
    again = e.apply(e.apply(again, "s"), "s")
    with pytest.raises(IllegalMove, match="only 1 redeal"):
        e.apply(again, "r")


def test_no_building_on_the_waste_or_stock():
    s = make_state("klondike", {"t1": "5C", "w": "6H"})
    with pytest.raises(IllegalMove, match="no cards may be placed on the waste"):
        e.apply(s, "t1 w")


def test_auto_foundation_option():
    s = make_state("klondike", {"t1": "-AS 2D", "t2": "3C", "f1": "AD"}, {"auto_foundation": True})
    after = e.apply(s, "t1 f")        # 2D home, AS turned up and sent home automatically
    assert {p.top.name for n, p in after.piles.items() if n[0] == "f" and p.cards} == {"2D", "AS"}


# Found offline with decks.solver.solve(e.deal('klondike-flip3', 1), 20000); stored as notation.
FLIP3_DEAL_1 = """t5 f1; s; w t6; w f2; s; s; s; s; s; s; s; r
s; s; s; s; s; s; s; w f1; t1 t3; s; r; s
s; s; s; s; s; w t3; t4 t3; t3 t4 4; t3 t1; w t3; s; r
s; s; s; s; w t4; s; s; s; r; s; w t6; s
s; s; s; s; r; s; s; s; s; w t1; s; s
r; s; s; s; w t3; s; w t3; t2 t3; t2 t6; t4 t2 6; t7 t4; t3 t7 5
t4 t3 2; t4 t3; s; s; r; s; w t3; s; s; s; s; r
s; s; s; s; w t3; s; r; s; s; s; w t3; s
r; s; s; w f2; s; s; r; s; s; w t1; t7 t1 6; t7 t1
t7 f3; t5 t7; t5 f1; t7 t4 2; t7 f4; t6 f4; s; s; w t7; t6 t7 3; t6 f2; t1 f2
t6 t4; t6 f3; t7 f3; t7 t3 4; r; s; w f3; s; s; r; s; s
w f4; t3 f4; t6 f3; s; w f3; t3 f2; t6 t2; r; s; w t4; w f3; w f1
t1 f1; t3 f1; s; w t3; t1 f2; t2 f1; t2 f3; t5 f3; t5 f4; t3 f4; t1 f4; t3 f2
t1 f2; t3 f4; t2 f4; w f1; t1 f1; t1 f3; t3 f2; t2 f2; t3 f4; t2 f4; t4 f1; t1 f1
t3 f2; t2 f2; t4 f3; t1 f3; t3 f1; t2 f1; t4 f4; t1 f4; t3 f2; t4 f3"""


def test_flip3_deal_1_played_to_a_win():
    end = e.replay("klondike-flip3", 1, {}, e.parse_moves(FLIP3_DEAL_1))
    assert e.is_won(end) and not e.is_stuck(end)


def test_stuck_detection():
    dead = make_state("klondike", {"t1": "5C", "s": "-9H", "w": "8D"})
    assert e.is_stuck(dead)
    assert not e.is_stuck(make_state("klondike", {"t1": "5C", "s": "-4H"}))
    assert not e.is_stuck(make_state("klondike", {"t1": "5C", "s": "-9H", "w": "4D"}, {"redeals": 1}))


# Found offline with decks.solver.solve(e.deal('klondike', 23), 5000): one pass, turn one.
KLONDIKE_23 = """t2 t6; t4 t6; t2 t5; s; s; s; w t4; t5 t4 2; s; s; w t5; s
s; s; s; s; w f1; w t5; w t7; w t6; t4 t6 4; t4 t3; t4 f2; s
w t2; s; s; s; w t2; s; w t2; s; w t5; s; s; w t4
t7 t4 2; t7 f3; s; w t4; s; s; s; s; s; w t2; t6 t2 8; t6 t5
t6 t7; t6 t4; t6 f2; t6 f4; t2 f4; t1 f4; t2 f2; t7 f2; w f4; w t1; t3 t1 2; t3 t5
w t5; t7 t5; t7 f1; t7 t1; t7 f2; w t6; t5 t6 8; w t3; w f3; t5 t3; t5 t7; t5 f3
t2 f3; t6 f3; t6 f2; w t4; w t1; w t6; w t4; w f1; t7 f1; t2 f1; t2 f3; t7 f4
t3 f4; t3 f2; t6 f1; t2 f1; t4 f3; t3 f3; t6 f4; t2 f4; t4 f1; t2 f1; t6 f2; t1 f2
t4 f3; t1 f3; t6 f4; t2 f4; t4 f1; t1 f1; t6 f2; t2 f2; t4 f4; t2 f4; t6 f3; t1 f3
t4 f2; t1 f2; t6 f1; t2 f1; t4 f4; t6 f3"""

# Found offline with decks.solver.solve(e.deal('klondike-online', 4), 5000).
ONLINE_4 = """t5 t1; t2 t5; t5 t6 2; s; s; s; s; s; s; s; s; s
s; s; s; s; s; s; s; s; s; s; s; s
s; s; s; w f1; r; s; s; s; s; s; s; s
s; s; s; s; s; s; s; s; s; w f1; s; w t3
s; s; s; w t2; s; s; w t3; s; r; s; s; s
s; s; w t2; t3 t2 3; s; s; w t7; s; s; s; w t6; s
w t4; s; s; w t1; w t1; s; s; s; w t7; t5 t7; t4 t5 2; t4 t2
t4 f2; t3 f2; t3 f1; t5 t3 3; s; s; s; r; s; s; s; s
w f2; s; s; s; s; s; s; s; s; r; s; s
w f2; t7 f2; t6 t7 4; t2 f2; s; s; w t4; s; s; s; s; s
s; w t1; t7 t1 7; t7 f3; t7 t4; t7 f3; t7 t3; t7 f4; t1 f4; t1 f3; t1 f1; t5 f1
s; w f3; t1 f3; t7 f3; t6 f3; r; s; s; s; w f4; t6 f4; t6 f1
t2 f1; w f4; t1 f4; t1 f2; w f1; t6 f2; t2 f3; t2 f1; t4 f3; t3 f3; s; w f4
t1 f4; t1 f2; t1 f1; t2 f2; t2 f1; t1 f2; t2 f2; s; w f1; t6 f1; s; w f2
s; w f4; t4 f4; t3 f4; t4 f3; t1 f4; t3 f3; t1 f3; t3 f4"""


@pytest.mark.parametrize("game, number, moves", [("klondike", 23, KLONDIKE_23),
                                                 ("klondike-online", 4, ONLINE_4)])
def test_more_deals_played_to_a_win(game, number, moves):
    end = e.replay(game, number, {}, e.parse_moves(moves))
    assert e.is_won(end)
