"""King Albert (seed 004; reference row 18)."""

import pytest

from decks import engine as e
from decks.engine import IllegalMove, make_state


def test_layout_nine_piles_one_to_nine_all_up_and_seven_reserve():
    s = e.deal("king-albert", 5)
    assert [len(s.piles[f"t{i}"]) for i in range(1, 10)] == list(range(1, 10))
    assert all(p.hidden == 0 for p in s.piles.values())
    assert [len(s.piles[f"r{i}"]) for i in range(1, 8)] == [1] * 7
    assert sum(len(p) for p in s.piles.values()) == 52


def test_alternating_colours_one_card_at_a_time():
    s = make_state("king-albert", {"t1": "8S", "t2": "9D 8C", "t3": "7H", "t4": "7C"})
    e.apply(s, "t3 t1")
    with pytest.raises(IllegalMove, match="alternating colours"):
        e.apply(s, "t4 t1")
    s2 = make_state("king-albert", {"t1": "9D 8C 7H", "t2": "9C"})
    with pytest.raises(IllegalMove, match="one card moves at a time"):
        e.apply(s2, "t1 t2 2")


def test_reserve_cards_all_available_but_never_built_on():
    s = make_state("king-albert", {"t1": "8S", "r3": "7D", "r5": "AS", "t2": "6C"})
    e.apply(s, "r3 t1")
    e.apply(s, "r5 f")
    with pytest.raises(IllegalMove, match="no cards may be placed on the reserve"):
        e.apply(s, "t2 r3")


def test_any_card_fills_a_space():
    s = make_state("king-albert", {"t1": "5H", "r1": "QC"})
    e.apply(s, "r1 t2")
    e.apply(s, "t1 t3")


# Found offline with decks.solver.solve(e.deal('king-albert', 3), 20000).
DEAL_3 = """t9 f1; r1 f1; t8 f1; t4 f1; r3 f1; t3 t1; r2 t1; t3 t4; r4 t4; t2 t3; t2 t6; t1 t2
t5 t9; t5 f2; t2 t1; t6 t7; t9 t2; t9 t5; t2 t5; t1 t2; t7 t6; t9 t5; t2 t1; t9 t2
t9 f2; t7 f2; r5 f2; r6 f2; t4 t7; t9 t2; t9 f3; t6 f3; t7 t4; t9 t3; t9 t4; t1 t9
t7 t3; t7 t4; t9 t1; t2 t9; t2 t7; t9 t7; r7 t2; t1 t9; t2 t7; t3 t2; t9 t1; t4 t9
t2 t3; t4 t2; t9 t2; t3 t9; t4 t9; t4 t3; t9 t3; t9 t4; t2 t9; t2 t3; t9 t3; t5 t2
t5 t9; t2 t9; t5 t2; t5 t3; t2 t3; t5 t2; t5 f2; t6 t5; t2 t6; t9 t2; t9 t3; t2 t3
t1 t2; t8 t9; t6 t8; t2 t1; t6 t2; t6 t8; t6 f1; t6 t4; t6 t9; t8 t6; t8 t2; t6 t2
t8 t6; t8 t1; t8 f4; t3 f4; t3 f3; t5 f4; t3 f4; t7 f4; t1 t5; t7 t8; t7 f2; t4 f2
t5 t1; t2 t5; t2 t6; t5 t6; t4 t5; t4 t6; t5 t6; t1 t4; t1 t5; t4 t5; t4 t1; t4 f1
t9 f1; t6 f1; t9 f2; t6 f2; t1 f2; t1 t4; t3 t9; t3 f4; t4 t1; t5 t4; t5 t1; t4 t1
t3 t4; t3 t5; t4 t5; t3 t4; t3 t6; t4 t6; t3 t4; t3 t2; t4 t2; t1 t3; t1 t4; t3 t4
t5 t3; t5 t6; t3 t6; t1 t3; t4 t5; t4 t3; t5 t3; t2 t4; t2 t5; t4 t5; t8 t4; t8 f4
t8 t1; t8 f3; t9 f3; t4 f3; t6 f3; t6 f4; t7 f3; t6 f3; t3 f3; t1 t4; t3 t4; t3 t1
t4 t1; t4 t7; t1 t3; t1 t4; t3 t7; t5 t3; t4 t1; t5 t2; t3 t2; t1 t3; t6 t2; t6 f3
t6 f2; t3 t1; t2 t3; t2 t4; t3 t4; t1 t3; t2 t5; t4 t8; t4 t5; t3 t1; t8 t5; t7 t1
t7 f3; t6 f3; t7 f2; t7 f4; t5 f4; t7 f1; t1 f4; t5 f1; t1 f1; t5 f4; t1 f4; t2 f1"""


def test_deal_3_played_to_a_win_and_undo_redo():
    end = e.replay("king-albert", 3, {}, e.parse_moves(DEAL_3))
    assert e.is_won(end)
    back = e.undo(e.undo(end))
    assert not e.is_won(back) and e.redo(e.redo(back)).to_dict() == end.to_dict()
