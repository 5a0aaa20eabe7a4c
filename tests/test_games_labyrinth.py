"""Labyrinth (seed 000; reference row 6)."""

from __future__ import annotations

import pytest

from decks import engine
from decks.deals import deal_order
from decks.packs import cards

WIN_1 = """
t12 f2, s, t27 f4, s, s, t44 f4, t46 f4, s, t51 f1, s
t61 f2, t66 f3, p t23, t64 f4, p t26, t41 f3, t18 f3, t67 f3, t16 f3, p t34
p t35, t36 f1, t58 f1, t17 f1, t48 f3, t13 f3, t62 f1, t65 f1, t63 f1, t14 f1
t24 f1, p t21, p t42, t15 f2, t54 f2, t53 f2, t43 f4, t55 f4, t56 f2, t31 f2
t45 f2, t11 f2, p t22, t37 f4, t33 f4, t47 f3, t52 f3, t32 f2, t12 f2, t38 f3
t25 f3, t57 f4, t28 f4
"""


def position(stock: str = "", rows: int = 3, **cells: str) -> engine.GameState:
    """An empty grid with the named cells and stock filled (a hand-built position)."""
    state = engine.deal("labyrinth", 1)
    for name in state.piles:
        if name[0] == "t":
            state.piles[name] = engine.Pile()
    state.piles["s"] = engine.Pile(cards(stock), len(stock.split()))
    for name, c in cells.items():
        state.piles[name] = engine.Pile(cards(c))
    state.counters["rows"] = rows
    return state


def test_deal_layout_follows_the_rule_text():
    state = engine.deal("labyrinth", 1)
    assert [state.piles[f].cards for f in ("f1", "f2", "f3", "f4")] == [[c] for c in cards("AC AD AH AS")]
    order = [c for c in deal_order("standard", 1) if c.rank != 1]
    assert [state.piles[f"t1{c}"].cards for c in range(1, 9)] == [[c] for c in order[:8]]
    assert all(not state.piles[f"t{r}{c}"].cards for r in range(2, 7) for c in range(1, 9))
    assert len(state.piles["s"].cards) == 40 and state.piles["s"].cards[-1] == order[8]
    assert state.counters["rows"] == 1


def test_first_row_gap_is_filled_from_the_stock_at_once():
    state = engine.deal("labyrinth", 1)               # t12 is 2D
    nxt = state.piles["s"].cards[-1]
    state = engine.apply(state, "t12 f")
    assert state.piles["f2"].cards[-1].name == "2D"
    assert state.piles["t12"].cards == [nxt] and len(state.piles["s"].cards) == 39


def test_other_rows_are_not_refilled_and_only_top_and_bottom_cards_play():
    state = position(stock="9S", t11="KD", t21="2C", t31="3S", t32="2H")
    with pytest.raises(engine.IllegalMove, match="top and bottom rows"):
        engine.apply(state, "t21 f1")                # 2C is in the middle of column 1
    state = engine.apply(state, "t32 f3")            # the bottom card of column 2
    assert not state.piles["t32"].cards              # a gap below the first row stays open
    state.piles["t31"] = engine.Pile()               # once the bottom card is gone …
    assert engine.apply(state, "t21 f1").piles["f1"].cards[-1].name == "2C"   # … 2C is released


def test_new_row_only_when_no_move_is_left():
    state = engine.deal("labyrinth", 1)
    with pytest.raises(engine.IllegalMove, match="only when no more moves"):
        engine.apply(state, "s")
    state = engine.apply(state, "t12 f")
    assert engine.legal_moves(state) == [engine.Move("stock")]
    state = engine.apply(state, "s")
    assert all(state.piles[f"t2{c}"].cards for c in range(1, 9)) and state.counters["rows"] == 2


def test_last_resort_pick_when_stuck_after_the_stock_is_out():
    state = position(t11="KD", t21="2C", t31="9S")
    with pytest.raises(engine.IllegalMove, match="top and bottom rows"):
        engine.apply(state, "t21 f")
    assert engine.legal_moves(state) == [engine.Move("pick", ("t21",))]
    state = engine.apply(state, "p t21")
    assert state.piles["f1"].cards[-1].name == "2C" and state.counters["picks"] == 1
    with pytest.raises(engine.IllegalMove, match="does not fit"):
        engine.apply(state, "p t31")


def test_last_resort_refused_while_moves_or_stock_remain_or_switched_off():
    state = position(t11="2H", t21="2C", t31="9S")
    with pytest.raises(engine.IllegalMove, match="only when play is stuck"):
        engine.apply(state, "p t21")
    state = position(stock="9H", t11="KD", t21="2C", t31="9S")
    with pytest.raises(engine.IllegalMove, match="stock has run out"):
        engine.apply(state, "p t21")
    state = position(t11="KD", t21="2C", t31="9S")
    state.options["last_resort"] = False
    with pytest.raises(engine.IllegalMove, match="switched off"):
        engine.apply(state, "p t21")


def test_recorded_win():
    state = engine.replay("labyrinth", 1, {}, engine.parse_moves(WIN_1))
    assert engine.is_won(state)
