"""La Belle Lucie (seed 004; reference row 19)."""

import pytest

from decks import engine as e
from decks.engine import IllegalMove, make_state


def test_layout_seventeen_fans_of_three_and_one_card():
    s = e.deal("la-belle-lucie", 9)
    assert [len(s.piles[f"t{i}"]) for i in range(1, 19)] == [3] * 17 + [1]
    assert all(p.hidden == 0 for p in s.piles.values())


def test_build_down_in_suit_one_card_at_a_time():
    s = make_state("la-belle-lucie", {"t1": "9H", "t2": "8H", "t3": "8C", "t4": "QD 7H"})
    e.apply(s, "t2 t1")
    with pytest.raises(IllegalMove, match="down in suit"):
        e.apply(s, "t3 t1")
    s2 = make_state("la-belle-lucie", {"t1": "9H 8H", "t2": "TH"})
    with pytest.raises(IllegalMove, match="one card moves at a time"):
        e.apply(s2, "t1 t2 2")


def test_space_never_filled():
    s = make_state("la-belle-lucie", {"t1": "9H", "t2": "KC"})
    with pytest.raises(IllegalMove, match="never filled"):
        e.apply(s, "t1 t3")


def test_two_redeals_shuffle_with_the_game_generator():
    s = e.deal("la-belle-lucie", 9)
    s = e.apply(s, "r")
    assert s.redeals == 1
    sizes = [len(s.piles[f"t{i}"]) for i in range(1, 19)]
    assert sizes == [3] * 17 + [1]
    again = e.apply(e.deal("la-belle-lucie", 9), "r")      # the same deal number: the same redeal
    assert again.to_dict() == s.to_dict()
    other = e.apply(e.deal("la-belle-lucie", 10), "r")
    assert other.to_dict()["piles"] != s.to_dict()["piles"]
    s = e.apply(s, "r")
    with pytest.raises(IllegalMove, match="only 2 redeal"):
        e.apply(s, "r")


def test_redeal_of_fewer_cards_puts_odd_cards_in_a_last_fan():
    s = make_state("la-belle-lucie", {"t1": "9H 8H 7H", "t5": "2C", "t9": "KD 5S", "f1": "AC"})
    s = e.apply(s, "r")
    assert [len(s.piles[f"t{i}"]) for i in range(1, 4)] == [3, 3, 0]
    s = make_state("la-belle-lucie", {"t1": "9H 8H 7H", "t5": "2C"})
    assert [len(e.apply(s, "r").piles[f"t{i}"]) for i in range(1, 3)] == [3, 1]


# Found offline with decks.solver.solve(e.deal('la-belle-lucie', 1), 20000).
DEAL_1 = """t10 f1; t18 t2; t1 t12; t9 t7; t9 t15; t9 t15; t8 t15; t8 f2; t8 f3; t17 f2; t17 t16; t4 t17
t4 t7; t14 t7; r; t9 f1; t3 f1; t1 f1; t7 f1; t14 f1; t5 f1; t11 f1; t5 f1; t7 t3
t1 t7; t10 t9; t10 t16; t11 t1; t13 t2; t13 f4; t1 f4; t1 f4; t11 t2; t12 t13; t14 t15; t14 f1
t4 f1; r; t9 f1; t6 t11; t3 t6; t8 t3; t8 t4; t8 f3; t6 f3; t6 f3; t3 f3; t3 f3
t6 t12; t10 t3; t2 t10; t2 f3; t2 f2; t5 f3; t1 t10; t1 f3; t7 f3; t7 f4; t7 f2; t9 f2
t10 f2; t10 f2; t10 f2; t11 f4; t11 f4; t9 f4; t11 f1; t11 f3; t1 f3; t12 f2; t12 f2; t5 f2
t3 f2; t3 f2; t5 f4; t10 f4; t4 f4; t4 f4; t4 f4; t4 f4; t12 f3"""


def test_deal_1_played_to_a_win():
    end = e.replay("la-belle-lucie", 1, {}, e.parse_moves(DEAL_1))
    assert e.is_won(end)
