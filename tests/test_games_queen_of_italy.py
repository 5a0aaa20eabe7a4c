"""Queen of Italy, or Terrace (seed 000; reference row 10): two packs, an 11-card terrace, the player
chooses the first foundation's base, foundations up in alternating colours round the corner."""

import pytest

from decks import engine as e
from decks import solver
from decks.deals import deal_order
from decks.engine import IllegalMove, make_state
from tests.twopack import corruption_test, pack_counts, round_trip_test, wins

FIVES = {"base": 5, "turned": 0}
OTHERS = {f"t{i}": "KC" for i in range(2, 10)}       # piles t2-t9 occupied, so only t1's gap is filled


def test_layout_terrace_of_eleven_four_cards_then_the_choice_makes_nine_piles():
    s = e.deal("queen-of-italy", 3)
    order = deal_order("double", 3)
    assert s.piles["r1"].cards == order[:11] and s.piles["r1"].hidden == 0
    assert [s.piles[f"t{i}"].cards for i in range(1, 5)] == [[c] for c in order[11:15]]
    assert all(not s.piles[f"t{i}"].cards for i in range(5, 10)) and s.counters["base"] == 0
    assert len(s.piles["s"]) == 104 - 15
    assert [str(m) for m in e.legal_moves(s)] == ["p t1", "p t2", "p t3", "p t4"]
    with pytest.raises(IllegalMove, match="first choose the first foundation's card"):
        e.apply(s, "s")
    with pytest.raises(IllegalMove, match="choose the first foundation's card from t1-t4"):
        e.apply(s, "p t5")
    chosen = e.apply(s, "p t2")
    assert chosen.piles["f1"].cards == [order[12]] and chosen.counters["base"] == order[12].rank
    assert [chosen.piles[f"t{i}"].cards for i in range(1, 10)] == [[c] for c in
                                                                   [order[11], order[15], *order[13:15],
                                                                    *order[16:21]]]
    with pytest.raises(IllegalMove, match="already been chosen"):
        e.apply(chosen, "p t1")
    pack_counts(chosen)


def test_foundations_up_in_alternating_colours_round_the_corner():
    s = make_state("queen-of-italy", {"f1": "QH", "t1": "KS", "t2": "AD", "t3": "2H", "t4": "5S"},
                   counters=FIVES | {"base": 12})
    s = e.apply(e.apply(s, "t1 f1"), "t2 f1")
    with pytest.raises(IllegalMove, match="alternating colours"):
        e.apply(s, "t3 f1")
    with pytest.raises(IllegalMove, match="starts with a card of rank 12"):
        e.apply(s, "t4 f2")


def test_tableau_down_in_alternating_colours_one_card_no_wrap_by_default():
    s = make_state("queen-of-italy", {"f1": "5C", "t1": "9H", "t2": "8S", "t3": "8D", "t4": "AS",
                                      "t5": "KD", "t6": "7C 6H", "t7": "8H"}, counters=FIVES)
    e.apply(s, "t2 t1")
    with pytest.raises(IllegalMove, match="alternating colours"):
        e.apply(s, "t3 t1")
    with pytest.raises(IllegalMove, match="one card moves at a time"):
        e.apply(s, "t6 t7 2")
    with pytest.raises(IllegalMove, match="alternating colours"):
        e.apply(s, "t5 t4")
    wrapped = make_state("queen-of-italy", {"f1": "5C", "t4": "AS", "t5": "KD"}, {"tableau_wrap": True},
                         counters=FIVES)
    e.apply(wrapped, "t5 t4")


def test_terrace_top_only_to_a_foundation():
    s = make_state("queen-of-italy", {"f1": "5C", "r1": "9S 6D", "t1": "7S"}, counters=FIVES)
    assert e.apply(s, "r1 f1").piles["f1"].top.name == "6D"
    with pytest.raises(IllegalMove, match="from the reserve to the tableau"):
        e.apply(s, "r1 t1")


def test_gaps_filled_at_once_from_stock_then_from_the_waste():
    s = make_state("queen-of-italy", {**OTHERS, "f1": "5C", "t1": "6D", "s": "-9C -8C -QS"}, counters=FIVES)
    s = e.apply(s, "t1 f1")
    assert s.piles["t1"].cards[0].name == "QS"               # from the stock before any turn
    s = e.apply(s, "s")
    assert [c.name for c in s.piles["w"].cards] == ["8C"]
    s2 = make_state("queen-of-italy", {**OTHERS, "f1": "5C", "t1": "6D", "w": "JH", "s": "-9C"},
                    counters={"base": 5, "turned": 1})
    s2 = e.apply(s2, "t1 f1")
    assert s2.piles["t1"].top.name == "JH" and not s2.piles["w"].cards


def test_one_card_at_a_time_to_the_waste_no_redeal():
    s = make_state("queen-of-italy", {"f1": "5C", "w": "4D"}, counters=FIVES | {"turned": 1})
    with pytest.raises(IllegalMove, match="the hand is empty"):
        e.apply(s, "s")
    with pytest.raises(IllegalMove, match="no redeal"):
        e.apply(s, "r")


# Found offline with a beam search over the engine's legal moves (width 30).
WIN_3 = """p t4; t6 f2; t6 f3; t4 t2; t4 t7; t1 t7; t1 f2; t9 f2; t8 f2; t9 f2; t1 t5; t8 t9
t8 f2; s; s; s; s; s; s; s; s; s; s; s
w f4; w f2; t3 f2; s; s; s; t3 f4; s; s; w f5; t9 f5; s
s; t9 f4; s; s; s; s; t9 f2; s; s; s; w f1; s
s; w f6; s; w f2; t4 f2; s; w f3; s; s; s; s; w f7
s; s; s; s; s; w f1; t6 f1; t4 f1; s; s; s; w f8
s; s; s; s; s; w f7; s; s; w f5; s; s; w f4
t2 f4; t2 f4; s; w f1; t5 f1; t5 f1; r1 f1; r1 f2; t1 f1; t3 f1; t3 f1; s
t4 f1; s; s; s; t5 f2; t5 f4; t3 f4; r1 f4; s; t5 f4; s; s
t1 f4; s; w f5; s; t3 f5; t3 f4; s; t3 f5; t3 f3; r1 f3; s; t1 f3
s; t1 f6; s; t1 f5; t1 f3; t3 f4; s; t3 f3; s; s; t4 f5; s
t4 f8; s; t4 f5; t4 f6; t4 f5; w f5; w f6; s; t2 f6; s; w f3; t1 f3
t5 f3; t4 f3; r1 f3; r1 f3; t4 f7; r1 f7; t5 t9; t6 t5; t4 t5; t3 t5; t2 t3; w t8
w f8; t9 f8; t9 f8; t9 f6; t3 f6; t8 f6; t8 f6; r1 f6; w f6; t4 f6; r1 f6; r1 f8
t4 f5; t2 f5; t6 f8; t3 f8; r1 f8; t6 f7; t5 f7; t5 f7; t5 f7; t5 f7; t1 f7; t7 f8
t7 f8; t7 f8; t8 f7; t2 f7; t4 f7; t9 f8"""


def test_deal_3_played_to_a_win():
    wins("queen-of-italy", 3, WIN_3)


def test_the_solver_walks_the_stock_as_the_engine_turns_it():
    """Turning the stock sets the counter that makes gaps fill from the waste: a search that lost it
    searched positions the game never reaches (and missed this win, 272 nodes deep)."""
    start = e.deal("queen-of-italy", 3)
    result = solver.solve(start, 2_000)
    assert result.won and e.is_won(e.replay("queen-of-italy", 3, start.options, result.moves))


test_random_positions_round_trip_through_a_deck = round_trip_test("queen-of-italy")
test_corrupted_decks_are_refused_naming_the_card = corruption_test("queen-of-italy")
