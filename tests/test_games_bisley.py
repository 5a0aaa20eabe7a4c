"""Bisley (seed 000; reference row 9)."""

from __future__ import annotations

import pytest

from decks import engine
from decks.deals import deal_order
from decks.packs import cards

WIN_3 = """
t4 f1, t7 f3, t5 f3, t7 f7, t2 t11, t2 f3, t9 f3, t2 t4, t6 t13, t9 t4
t9 f7, t9 t12, t1 t12, t10 t1, t10 f4, t11 f4, t11 f4, t11 f1, t13 f1, t13 f1
t13 f6, t7 f6, t13 f8, t7 t8, t13 t5, t3 t10, t3 f6, t4 f6, t4 f6, t4 f6
t4 f8, t3 f8, t5 f6, t5 f6, t11 f6, t5 t10, t5 f5, t8 f5, t8 f5, t8 f1
t8 f5, t10 t12, t10 t12, t10 f8, t12 f8, t12 f8, t12 f8, t12 f8, t12 f4, t8 t10
t12 t11, t12 f3, t10 f3, t10 f3, t11 f3, t11 f3, t12 f6, t6 f6, t6 f5, t1 f5
t1 f1, t1 f3, t6 f2
"""


def position(**piles: str) -> engine.GameState:
    """Deal 1 with the named piles replaced (a hand-built position to exercise one rule)."""
    state = engine.deal("bisley", 1)
    for name, names in piles.items():
        state.piles[name] = engine.Pile(cards(names) if names else [])
    return state


def test_deal_layout_follows_the_rule_text():
    state = engine.deal("bisley", 1)
    assert [state.piles[f].cards for f in ("f1", "f2", "f3", "f4")] == [[c] for c in cards("AC AD AH AS")]
    assert all(not state.piles[f].cards for f in ("f5", "f6", "f7", "f8"))
    assert [len(state.piles[f"t{i}"].cards) for i in range(1, 14)] == [3] * 4 + [4] * 9
    assert all(state.piles[f"t{i}"].hidden == 0 for i in range(1, 14))
    # four rows of thirteen with the aces first: row 1 goes to columns 5–13, then three full rows
    order = [c for c in deal_order("standard", 1) if c.rank != 1]
    assert [state.piles[f"t{i}"].cards[0] for i in range(5, 14)] == order[:9]
    assert [state.piles[f"t{i}"].cards[0] for i in range(1, 5)] == order[9:13]


def test_builds_up_or_down_in_suit_one_card_at_a_time():
    state = position(t1="9S 6H", t2="5H", t3="7H", t4="7C")
    assert engine.apply(state, "t2 t1").piles["t1"].cards[-1].name == "5H"   # down
    assert engine.apply(state, "t3 t1").piles["t1"].cards[-1].name == "7H"   # up
    with pytest.raises(engine.IllegalMove, match="up or down in suit"):
        engine.apply(state, "t4 t1")
    with pytest.raises(engine.IllegalMove, match="one card moves at a time|only one"):
        engine.apply(state, "t1 t3 2")


def test_spaces_are_never_filled():
    state = position(t1="", t2="5H")
    with pytest.raises(engine.IllegalMove, match="space is never filled"):
        engine.apply(state, "t2 t1")


def test_kings_start_downward_foundations():
    state = position(t1="QC KC", t2="5H JC")
    with pytest.raises(engine.IllegalMove, match="starts with the king"):
        engine.apply(state, "t2 f5")
    state = engine.apply(state, "t1 f5")
    state = engine.apply(state, "t1 f5")          # the queen follows the king down
    assert [c.name for c in state.piles["f5"].cards] == ["KC", "QC"]
    state = engine.apply(state, "t2 f5")          # jack of clubs down on it
    with pytest.raises(engine.IllegalMove, match="takes only C cards"):
        engine.apply(state, "t2 f5")


def test_ace_foundations_build_up_in_suit():
    state = position(t1="2C", t2="2D 3C")
    with pytest.raises(engine.IllegalMove, match="f1 takes the 2C next"):
        engine.apply(state, "t2 f1")
    state = engine.apply(state, "t1 f1")
    assert engine.apply(state, "t2 f1").piles["f1"].cards[-1].name == "3C"


def test_recorded_win():
    state = engine.replay("bisley", 3, {}, engine.parse_moves(WIN_3))
    assert engine.is_won(state)
    assert sum(len(state.piles[f"f{i}"].cards) for i in range(1, 9)) == 52
