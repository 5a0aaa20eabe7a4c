"""Gay Gordons and Baroness (seed 000; reference rows 11 and 12)."""

from __future__ import annotations

import pytest

from decks import engine
from decks.deals import deal_order
from decks.packs import cards

GAY_GORDONS_WIN_1 = """
x t3 t6, x t2 t3, x t3 t6, x t1 t6, x t1 t2, x t2 t8, x t2 t5, x t2 t10, x t5 t10, x t6 t7
x t5 t6, x t4 t5, x t3 t4, x t3 t8, x t4 t7, x t5 t9, x t1 t9, x t7 t10, x t1 t7, x t7 t9
x t9 r1, x t8 t9, x t8 t10, x t4 t10, x t1 t4, x t8 r2
"""
BARONESS_WIN_1 = """
x t1 t2, s, x t2, x t3, s, x t1 t2, x t3, s, x t3 t5, x t4 t5
x t1, s, x t2 t5, x t2 t3, s, x t1 t3, x t2 t3, t1 t3, s, x t1 t2
x t1 t5, s, x t1 t2, x t1 t4, t4 t1, s, s, x t1 t4, x t3 t4, x t1 t4
x t1 t4, t3 t1, x t1 t3, x t3 t4, x t4 r1, t2 t1, x t2 t3, x t1 t2, t5 t1, t5 t2
x t5 r2, x t1 t5, x t2 t5
"""


def position(game: str, options=None, **piles: str) -> engine.GameState:
    state = engine.deal(game, 1, options)
    for name, names in piles.items():
        hidden = len(names.split()) if name == "s" else 0
        state.piles[name] = engine.Pile(cards(names) if names else [], hidden)
    return state


# ---- Gay Gordons ------------------------------------------------------------------------------

def test_gay_gordons_deal():
    state = engine.deal("gay-gordons", 1)
    assert [len(state.piles[f"t{i}"].cards) for i in range(1, 11)] == [5] * 10
    assert [len(state.piles[r].cards) for r in ("r1", "r2")] == [1, 1]
    assert all(p.hidden == 0 for p in state.piles.values())
    order = deal_order("standard", 1)
    assert [state.piles[f"t{i}"].cards[0] for i in range(1, 11)] == order[:10]   # dealt row by row
    assert state.piles["r2"].cards == [order[51]] and not state.piles["d"].cards


def test_gay_gordons_pairs():
    state = position("gay-gordons", t1="AC", t2="TH", t3="9D", t4="JS", t5="JH", t6="KD", t7="QD", r1="4C",
                     r2="7S")
    assert engine.apply(state, "x t1 t2").piles["d"].cards == cards("AC TH")    # eleven, any suits
    assert len(engine.apply(state, "x r1 r2").piles["d"].cards) == 2          # reserve cards too
    assert len(engine.apply(state, "x t4 t5").piles["d"].cards) == 2          # two jacks
    assert len(engine.apply(state, "x t6 t7").piles["d"].cards) == 2          # king and queen
    with pytest.raises(engine.IllegalMove, match="do not add up to eleven"):
        engine.apply(state, "x t1 t3")
    with pytest.raises(engine.IllegalMove, match="not a pair"):
        engine.apply(state, "x t4 t6")
    with pytest.raises(engine.IllegalMove, match="in pairs"):
        engine.apply(state, "x t6")
    strict = position("gay-gordons", {"kq_suits": "different"}, t6="KD", t7="QD", t8="QS")
    with pytest.raises(engine.IllegalMove, match="different suits"):
        engine.apply(strict, "x t6 t7")
    assert len(engine.apply(strict, "x t6 t8").piles["d"].cards) == 2


def test_gay_gordons_no_building_and_no_refilling():
    state = position("gay-gordons", t1="", t2="5C 6D")
    with pytest.raises(engine.IllegalMove):
        engine.apply(state, "t2 t1")
    with pytest.raises(engine.IllegalMove, match="empty"):
        engine.apply(state, "x t1 t2")


def test_gay_gordons_recorded_win():
    assert engine.is_won(engine.replay("gay-gordons", 1, {}, engine.parse_moves(GAY_GORDONS_WIN_1)))


# ---- Baroness ---------------------------------------------------------------------------------

def test_baroness_deal():
    state = engine.deal("baroness", 1)
    order = deal_order("standard", 1)
    assert [state.piles[f"t{i}"].cards for i in range(1, 6)] == [[c] for c in order[:5]]
    assert len(state.piles["s"].cards) == 47 and state.piles["s"].cards[-1] == order[5]
    assert not state.piles["r1"].cards and not state.piles["r2"].cards


def test_baroness_kings_alone_and_pairs_of_thirteen():
    state = position("baroness", t1="5C KH", t2="QD", t3="AS", t4="8H", t5="9C")
    assert engine.apply(state, "x t1").piles["d"].cards == cards("KH")
    assert engine.apply(state, "x t2 t3").piles["d"].cards == cards("QD AS")
    with pytest.raises(engine.IllegalMove, match="only a king"):
        engine.apply(state, "x t2")
    with pytest.raises(engine.IllegalMove, match="do not add up to thirteen"):
        engine.apply(state, "x t4 t5")


def test_baroness_gaps_filled_from_other_piles_then_from_the_stock():
    state = position("baroness", t1="", t2="4C 9D", t3="JH", t4="7S", t5="3D")
    with pytest.raises(engine.IllegalMove, match="two or more cards"):
        engine.apply(state, "t3 t1")
    with pytest.raises(engine.IllegalMove, match="fill the gaps"):
        engine.apply(state, "s")
    state = engine.apply(state, "t2 t1")
    assert state.piles["t1"].cards == cards("9D")
    # a gap no pile can fill takes the top card of the stock at once
    state = position("baroness", t1="QC", t2="AD", t3="JH", t4="7S", t5="3D", s="6C 5C 4C 2H")
    state = engine.apply(state, "x t1 t2")
    assert state.piles["t1"].cards == cards("2H") and state.piles["t2"].cards == cards("4C")


def test_baroness_deals_five_only_when_stuck_and_last_two_form_the_reserve():
    state = position("baroness", t1="QC", t2="AD", t3="JH", t4="7S", t5="3D", s="9H 8H 7H 6H 5H 4H 3H")
    with pytest.raises(engine.IllegalMove, match="only when no king or pair"):
        engine.apply(state, "s")
    state = position("baroness", t1="QC", t2="4D", t3="JH", t4="7S", t5="3D", s="9H 8H 7H 6H 5H 4H 3H")
    state = engine.apply(state, "s")
    assert [len(state.piles[f"t{i}"].cards) for i in range(1, 6)] == [2] * 5
    assert not state.piles["s"].cards
    assert state.piles["r1"].cards == cards("8H") and state.piles["r2"].cards == cards("9H")
    with pytest.raises(engine.IllegalMove, match="used up"):
        engine.apply(state, "s")
    piles = position("baroness", {"last_two": "piles"}, t1="QC", t2="4D", t3="JH", t4="7S", t5="3D",
                     s="8H 7H 6H 5H 4H 3H")
    piles = engine.apply(piles, "s")
    assert len(piles.piles["s"].cards) == 1 and not piles.piles["r1"].cards


def test_baroness_recorded_win():
    assert engine.is_won(engine.replay("baroness", 1, {}, engine.parse_moves(BARONESS_WIN_1)))
