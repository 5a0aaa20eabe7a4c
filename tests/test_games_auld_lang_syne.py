"""Auld Lang Syne (seed 000; reference row 7): the deal, each rule allowed and refused, a recorded
win, and the exact best-play search against the general solver."""

from __future__ import annotations

import pytest

from decks import engine, solver
from decks.deals import deal_order
from decks.games.auld_lang_syne import best_play_wins, deal_ranks, exact_solution
from decks.packs import cards

WIN_246 = """
t4 f1, t1 f1, t3 f1, s, t1 f1, t2 f2, s, t3 f2, s, t4 f2
t4 f2, s, t3 f3, t1 f3, t4 f1, s, t4 f3, s, t2 f2, t3 f3
t4 f4, s, t2 f3, t4 f1, s, t1 f2, t3 f1, t4 f3, t4 f1, t2 f1
s, t1 f1, t3 f4, s, t3 f4, t2 f4, t3 f4, t1 f4, t4 f1, t1 f1
s, t3 f2, t2 f2, t3 f2, t2 f2, t3 f3, t3 f3, t2 f3, t2 f4, t2 f4
t2 f2, t1 f2, t2 f3, t1 f3, t1 f3, t4 f4, t1 f4, t1 f4, t4 f4
"""


def test_deal_layout_follows_the_rule_text():
    state = engine.deal("auld-lang-syne", 246)
    # the four aces are separated out as the foundations
    assert [state.piles[f].cards for f in ("f1", "f2", "f3", "f4")] == [[c] for c in cards("AC AD AH AS")]
    # four cards dealt below the aces, one starting each tableau pile, face up
    order = [c for c in deal_order("standard", 246) if c.rank != 1]
    assert [state.piles[f"t{i}"].cards for i in range(1, 5)] == [[c] for c in order[:4]]
    assert all(state.piles[f"t{i}"].hidden == 0 for i in range(1, 5))
    # the other 44 wait face down in the stock, the next card on top
    stock = state.piles["s"]
    assert len(stock.cards) == 44 and stock.hidden == 44 and stock.cards[-1] == order[4]


def test_foundations_build_up_regardless_of_suit():
    state = engine.deal("auld-lang-syne", 246)      # t4 shows 2S, t2 shows JH
    state = engine.apply(state, "t4 f1")             # a spade two on the ace of clubs
    assert state.piles["f1"].cards[-1].name == "2S"
    with pytest.raises(engine.IllegalMove, match="foundations build up by one rank"):
        engine.apply(state, "t2 f2")


def test_no_building_in_the_tableau():
    state = engine.deal("auld-lang-syne", 246)
    with pytest.raises(engine.IllegalMove, match="do not go from the tableau to the tableau"):
        engine.apply(state, "t1 t2")


def test_gap_waits_for_the_next_deal_which_comes_only_when_stuck():
    state = engine.deal("auld-lang-syne", 246)
    with pytest.raises(engine.IllegalMove, match="only when no card can be built"):
        engine.apply(state, "s")
    for move in ("t4 f1", "t1 f1", "t3 f1"):          # 2S, then 3D, then 4C
        state = engine.apply(state, move)
    assert not state.piles["t1"].cards and not state.piles["t4"].cards   # gaps stay open
    assert engine.legal_moves(state) == [engine.Move("stock")]
    state = engine.apply(state, "s")
    assert all(len(state.piles[f"t{i}"].cards) == 1 for i in (1, 3, 4))
    assert len(state.piles["t2"].cards) == 2 and len(state.piles["s"].cards) == 40


def test_option_deal_any_time():
    state = engine.deal("auld-lang-syne", 246, {"deal_any_time": True})
    state = engine.apply(state, "s")
    assert all(len(state.piles[f"t{i}"].cards) == 2 for i in range(1, 5))


def test_no_redeal_when_the_stock_is_out():
    state = engine.deal("auld-lang-syne", 1, {"deal_any_time": True})
    for _ in range(11):
        state = engine.apply(state, "s")
    with pytest.raises(engine.IllegalMove, match="stock is used up"):
        engine.apply(state, "s")
    with pytest.raises(engine.IllegalMove, match="no 'r' move"):
        engine.apply(state, "r")


def test_recorded_win():
    state = engine.replay("auld-lang-syne", 246, {}, engine.parse_moves(WIN_246))
    assert engine.is_won(state)
    assert [len(state.piles[f].cards) for f in ("f1", "f2", "f3", "f4")] == [13] * 4


def test_lost_deal_is_stuck():
    state = engine.deal("auld-lang-syne", 1, {"deal_any_time": True})
    for _ in range(11):
        state = engine.apply(state, "s")
    while True:
        moves = engine.legal_moves(state)
        if not moves:
            break
        state = engine.apply(state, moves[0])
    assert not engine.is_won(state) and engine.is_stuck(state)


@pytest.mark.parametrize("deal", [4, 14, 20, 26, 29, 246, 765])
def test_exact_search_agrees_with_the_general_solver(deal):
    """Deals the general solver settles within a few thousand nodes: both searches agree."""
    result = solver.solve(engine.deal("auld-lang-syne", deal), 4000)
    assert result.status != solver.LIMIT
    assert result.won == best_play_wins(deal_ranks(deal))


def test_exact_search_finds_the_rare_wins():
    wins = [deal for deal in range(1, 801) if best_play_wins(deal_ranks(deal))]
    assert wins == [246, 765]     # both confirmed by the general solver above


def test_exact_solution_from_the_middle_of_a_game():
    state = engine.replay("auld-lang-syne", 246, {}, ["t4 f1", "t1 f1"])
    moves = exact_solution(state)
    assert moves is not None
    assert engine.is_won(engine.replay("auld-lang-syne", 246, {}, ["t4 f1", "t1 f1", *moves]))
    assert exact_solution(engine.deal("auld-lang-syne", 4)) is None     # the general solver agrees
