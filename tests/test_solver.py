"""The bounded solver: wins it finds replay to a won game; limits and dead ends are reported."""

import pytest

from decks import engine as e
from decks import solver
from decks.engine import make_state

NEAR_WIN = {"t1": "-KH -QH JH", "t2": "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
            "f1": "AH 2H 3H 4H 5H 6H 7H 8H 9H TH", "f2": "AS", "f3": "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
            "f4": "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"}


def test_solver_wins_a_position_built_by_hand_and_the_moves_replay():
    s = make_state("klondike", NEAR_WIN)
    result = solver.solve(s, 1000)
    assert result.won and result.status == "won"
    for m in result.moves:
        s = e.apply(s, m)
    assert e.is_won(s)


def test_solver_reports_a_dead_end_and_a_limit():
    dead = make_state("klondike", {"t1": "-AS 5C", "t2": "-2S 9H", "s": "-KD"})
    assert solver.solve(dead, 1000).status == solver.EXHAUSTED
    assert solver.solve(e.deal("klondike-flip3", 5), 50).status == solver.LIMIT


@pytest.mark.parametrize("game, number", [("klondike-flip3", 1), ("agnes", 1), ("king-albert", 3)])
def test_solver_wins_real_deals_within_its_limit(game, number):
    start = e.deal(game, number)
    result = solver.solve(start, 20_000)
    assert result.won and e.is_won(e.replay(game, number, start.options, result.moves))


def test_solver_leaves_the_state_alone_and_is_deterministic():
    s = e.deal("klondike-flip3", 2)
    before = s.to_dict()
    a, b = solver.solve(s, 5000), solver.solve(s, 5000)
    assert s.to_dict() == before and a.moves == b.moves and a.nodes == b.nodes


def test_hint_is_a_legal_move_on_the_way_to_a_win():
    s = make_state("klondike", NEAR_WIN)
    move = solver.hint(s)
    assert move is not None
    e.apply(s, move)
    assert solver.hint(make_state("klondike", {"t1": "5C"})) is None


def test_safe_foundation_play_is_made_without_branching():
    s = make_state("klondike", {"t1": "-9D AS", "t2": "QH", "t3": "JS"})
    assert solver.ordered_moves(s) == [[e.Move("move", ("t1", "f1"))]]
