"""Spiderette and Will o' the Wisp (seed 000; reference rows 4-5)."""

import pytest

from decks import engine as e
from decks.engine import IllegalMove, make_state

RUN_KS_TO_2S = "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"


def test_spiderette_layout_is_klondike_with_24_in_stock():
    s = e.deal("spiderette", 3)
    for i in range(1, 8):
        assert len(s.piles[f"t{i}"]) == i and s.piles[f"t{i}"].hidden == i - 1
    assert len(s.piles["s"]) == 24


def test_will_o_the_wisp_layout_seven_piles_of_three_top_up_31_in_stock():
    s = e.deal("will-o-the-wisp", 3)
    assert all(len(s.piles[f"t{i}"]) == 3 and s.piles[f"t{i}"].hidden == 2 for i in range(1, 8))
    assert len(s.piles["s"]) == 31


@pytest.mark.parametrize("game, rounds", [("spiderette", [7, 7, 7, 3]), ("will-o-the-wisp", [7, 7, 7, 7, 3])])
def test_stock_rounds_of_seven_then_three_onto_piles_one_to_three(game, rounds):
    s = e.deal(game, 3)
    for n in rounds:
        before = [len(s.piles[f"t{i}"]) for i in range(1, 8)]
        s = e.apply(s, "s")
        after = [len(s.piles[f"t{i}"]) for i in range(1, 8)]
        assert [a - b for a, b in zip(after, before, strict=True)] == [1] * n + [0] * (7 - n)
    with pytest.raises(IllegalMove, match="used up"):
        e.apply(s, "s")


def test_no_deal_while_a_pile_is_empty():
    s = make_state("spiderette", {"t1": "5C", "s": "-2H -3H -4H -5H -6H -7H -8H"})
    with pytest.raises(IllegalMove, match="no pile is empty"):
        e.apply(s, "s")


def test_build_down_regardless_of_suit_but_only_suit_runs_move():
    s = make_state("spiderette", {"t1": "9H", "t2": "-2C 8C", "t3": "-3C 8H 7H", "t4": "-4C 9S 8D 7C",
                                  "t5": "TS"})
    e.apply(s, "t2 t1")                                   # 8C on 9H: any suit
    e.apply(s, "t3 t1 2")                                 # 8H 7H, a heart run, moves together
    with pytest.raises(IllegalMove, match="one suit"):
        e.apply(s, "t4 t5 2")                             # 8D 7C is not in one suit
    with pytest.raises(IllegalMove, match="regardless of suit"):
        e.apply(s, "t2 t5")                               # 8C cannot go on a ten


def test_any_card_or_run_into_a_space():
    s = make_state("spiderette", {"t1": "-2C 8H 7H", "t2": "5D"})
    e.apply(s, "t1 t3 2")
    e.apply(s, "t2 t3")


def test_full_suit_is_discarded_automatically_and_the_card_below_turned_up():
    s = make_state("spiderette", {"t1": "-5D " + RUN_KS_TO_2S, "t2": "AS"})
    s = e.apply(s, "t2 t1")
    assert len(s.piles["d"]) == 13 and [c.name for c in s.piles["t1"].cards] == ["5D"]
    assert s.piles["t1"].hidden == 0


def test_manual_discard_when_auto_discard_is_off():
    s = make_state("spiderette", {"t1": "-5D " + RUN_KS_TO_2S, "t2": "AS", "t3": "9C"},
                   {"auto_discard": False})
    s = e.apply(s, "t2 t1")
    assert len(s.piles["t1"]) == 14
    with pytest.raises(IllegalMove, match="full king-to-ace run"):
        e.apply(s, "x t3")
    s = e.apply(s, "x t1")
    assert len(s.piles["d"]) == 13


def test_won_when_four_suits_are_discarded():
    s = make_state("spiderette", {"d": " ".join(f"{r}{u}" for u in "CDH" for r in "KQJT98765432A"),
                                  "t1": RUN_KS_TO_2S, "t2": "AS"})
    assert not e.is_won(s)
    assert e.is_won(e.apply(s, "t2 t1"))


# Found offline with decks.solver.solve(e.deal('spiderette', 1), 20000).
SPIDERETTE_1 = """t1 t3; t2 t1; t5 t2; t3 t5; s; t5 t7; t6 t5; t3 t6; s; t1 t4; t6 t5; t5 t2 2
t1 t2 2; t5 t1 3; t5 t2; t7 t5; t5 t1 2; t6 t5; t1 t4 2; t3 t2; t7 t6 2; t2 t6; t4 t1 2; t4 t7 2
t4 t1; t4 t7; t3 t4; t4 t3; t6 t2; s; s; t1 t6; t5 t6; t4 t5; t5 t3 3; t1 t5
t7 t1; t5 t7; t1 t5 4; t7 t1 2; t2 t3; t1 t4 5; t3 t1; t3 t5 3; t1 t5; t6 t1 3; t5 t6; t5 t3 3
t5 t7 4; t4 t5 5; t3 t7 3; t6 t7; t5 t4 5; t6 t5 2; t6 t3; t7 t6; t5 t3 2; t6 t3; t6 t5; t6 t2
t6 t5; t3 t7; t3 t6 2; t5 t6; t7 t5; t1 t2 3; t6 t1 4; t5 t7; t6 t2; t3 t6; t3 t2; t6 t3
t2 t6 2; t7 t5; t7 t6 3; t1 t7 4; t6 t1 3; t5 t1; t6 t2 2; t1 t6; t2 t4 2; t1 t4 3; t2 t1 3; t6 t4
t7 t6 8; t4 t5; t1 t2 3; t7 t1 3; t6 t7 8; t7 t6 9; t7 t3; t7 t6; t5 t4; t5 t3; t7 t5; t7 t4
t3 t7 4; t7 t2 5; t2 t7 8; t2 t5 2; t6 t5 10; t2 t5; t2 t6 3; t5 t7; t2 t5 2; t4 t7; t4 t6; t4 t5 3
t4 t2 2; t5 t4 5; t2 t5 3; t6 t5 4; t2 t6; t2 t5; t7 t2; t2 t4 2; t3 t2; t4 t3 12; t1 t4 3; t4 t1 4
t2 t4; t4 t2 2; t3 t1; t5 t1 8; t4 t2; t6 t7; t7 t2 10"""

# Found offline with decks.solver.solve(e.deal('will-o-the-wisp', 2), 20000).
WILL_O_THE_WISP_2 = """t5 t2; t2 t3 2; s; t1 t2; t3 t6; t7 t3; t4 t7; t4 t6; t7 t5 2; t7 t3; s; t4 t6
t7 t4; s; t1 t2; t5 t6; t5 t6; t4 t3; t5 t3 2; t5 t4; t5 t3; t2 t5 2; t6 t2 3; t6 t4
t7 t5; s; t3 t1 2; t6 t4; t3 t6 2; t4 t3 2; t1 t4 3; t1 t6; t1 t2; t1 t6; t1 t5; t2 t1 2
t2 t4 4; t2 t6; t1 t6 2; t2 t1; t2 t1; t6 t1 2; t7 t1; t5 t7; t2 t5; t3 t2 2; t4 t3 8; t2 t4 2
t1 t2; s; t6 t1; t3 t5; t3 t2 9; t4 t3 3; t4 t5; t4 t7; t2 t7 10; t3 t5 3; t4 t1; t6 t4
t6 t3 4; t7 t6 10; t4 t3; t5 t4 3; t5 t7; t6 t5 10; t4 t7 3; t5 t4 11; t6 t5; t4 t6 11; t5 t4 2; t6 t5 12
t4 t6 2; t3 t4; t3 t6 5; t4 t6; t5 t4; t2 t5; t1 t2; t5 t1 3; t2 t5; t1 t2 5; t4 t1; t3 t4
t3 t7; t1 t7 5; t3 t1 3; t7 t3 9; t1 t7 3; t3 t1 10; t1 t3 10; t3 t1 11; t5 t6 2; t6 t5 3; t2 t6 5; t6 t2 10
t6 t3 2; t7 t3 4; t2 t7 10; t6 t2; t6 t3; t6 t2; t7 t2 11; t1 t7 11; t4 t6; t5 t3 3; t6 t3 2"""


@pytest.mark.parametrize("game, number, moves", [("spiderette", 1, SPIDERETTE_1),
                                                 ("will-o-the-wisp", 2, WILL_O_THE_WISP_2)])
def test_deal_played_to_a_win(game, number, moves):
    end = e.replay(game, number, {}, e.parse_moves(moves))
    assert e.is_won(end) and len(end.piles["d"]) == 52
