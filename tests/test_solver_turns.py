"""How far the stock is turned, with unlimited redeals (search 2026-12-04b): the key forgets it where
turning on comes round to every turn, and a position proved lost proves lost, unsearched, those it
reaches by turning the stock on (:meth:`decks.solver.keys.Keys.turned`,
:meth:`decks.solver.search.Search.lost`)."""

from __future__ import annotations

import pytest

from decks import engine, solver
from decks.solver.keys import Keys
from decks.solver.moves import Model
from decks.solver.position import Pos
from decks.solver.tree import DEAD
from tests.test_solver_stuck import verdicts_agree


def turned(p: Pos, m: Model, t: int) -> Pos:
    """``p`` with its hand turned so that ``t`` cards lie on the waste (the same cards, in the order
    a redeal turns them: the waste, then the stock from its top)."""
    stock_at, waste_at = m.hand_piles()
    order = p.piles[waste_at] + p.piles[stock_at][::-1]
    piles, hidden = list(p.piles), list(p.hidden)
    piles[waste_at], piles[stock_at] = order[:t], order[t:][::-1]
    hidden[waste_at], hidden[stock_at] = 0, len(order) - t
    return Pos(tuple(piles), tuple(hidden), p.redeals, p.counters, p.rng)


def hands(game: str) -> tuple[Model, list[Pos]]:
    m = Model(engine.deal(game, 1))
    p = m.pos(engine.deal(game, 1))
    return m, [turned(p, m, t) for t in range(25)]


def test_flip3_keys_forget_the_turn_only_where_turning_on_comes_round_to_every_turn():
    m, by_turn = hands("klondike-flip3")
    keys = Keys(m, splits=True)
    aligned = {keys.of(by_turn[t]) for t in (0, 3, 12, 21, 24)}
    assert len(aligned) == 1                     # a multiple of three, or all turned: one position
    assert len({keys.of(by_turn[t]) for t in (1, 4, 2, 5, 0)}) == 5
    assert [keys.turned(keys.of(by_turn[t])) for t in (0, 1, 5, 24)] == [0, 1, 5, 0]
    plain = Keys(m)                              # the search without restarts keeps every turn
    assert len({plain.of(by_turn[t]) for t in (0, 3, 24)}) == 3 and plain.turned(plain.of(by_turn[1])) == -1


def test_online_keys_forget_the_turn_and_klondike_keeps_it():
    m, by_turn = hands("klondike-online")
    keys = Keys(m, splits=True)
    assert len({keys.of(p) for p in by_turn}) == 1  # one at a time: every turn comes round
    m, by_turn = hands("klondike")                # no redeal: turning on never comes back
    keys = Keys(m, splits=True)
    assert keys.step == 0 and len({keys.of(by_turn[t]) for t in (0, 3, 24)}) == 3


def test_a_lost_position_proves_lost_what_turning_on_reaches():
    search = solver.Search(engine.deal("klondike-flip3", 1))
    m, keys = search.model, search.keys
    p = m.pos(engine.deal("klondike-flip3", 1))
    key = {t: keys.of(turned(p, m, t)) for t in range(25)}
    assert not any(search.turned_dead(key[t]) for t in range(25))
    search.lost(key[4])
    assert search.seen[key[4]] == DEAD
    chain = {t for t in range(25) if search.turned_dead(key[t])}
    assert chain == {4, 7, 10, 13, 16, 19, 22} | {0, 3, 6, 9, 12, 15, 18, 21, 24}
    search.lost(key[2])                          # the other remainder
    assert {t for t in range(25) if search.turned_dead(key[t])} == chain | {2, 5, 8, 11, 14, 17, 20, 23}
    search.lost(key[7])                          # further on than one already lost: nothing new
    assert not search.turned_dead(key[1])
    search.lost(key[1])
    assert all(search.turned_dead(key[t]) for t in range(25))


@pytest.mark.parametrize("game", ["klondike-flip3", "klondike-online"])
def test_positions_of_random_play_get_the_same_verdict_with_and_without_the_turns(game):
    """On positions of random play (deals 1-30, every 20th move, seeded), wherever both the search
    with restarts (which uses the turns) and the search without (which does not) decide within
    4,000 positions, they decide alike."""
    decided = verdicts_agree(game, range(1, 31), 4_000, seed=11)
    assert decided >= 60


FLIP3_288 = ("s; s; w f1; s; s; w t3; s; s; s; t7 t3; s; r; s; w t5; s; s; w t7; s; s; w t2; t1 t7; t7 t1 3; "
             "s; w t3; t2 t7 2; s; s; w t5; r; s; t3 t5 4; w t6; s; s; s; s; s; r; s; w f2")
"""Forty moves of seeded random play on flip 3 deal 288: a position that can be won."""


def test_a_won_flip3_position_is_not_called_lost_by_a_safe_play_from_the_waste():
    """Search 2026-12-04 judged the waste's top card safe to play home the deeper way in flip 3 too,
    and so called this position lost: played home, the card changed how the later turns of three
    fell.  Since 2026-12-04d the waste's top card is judged the first way only there."""
    state = engine.deal("klondike-flip3", 288)
    for move in engine.parse_moves(FLIP3_288):
        state = engine.apply(state, move)
    assert solver.solve(state, 20_000).status == solver.WON
    assert solver.solve(state, 20_000, restarts=False).status == solver.WON
    m = Model(state)
    assert m.deep_safe and not m.deep_waste                  # three at a time: the waste the first way
    assert Model(engine.deal("klondike-online", 1)).deep_waste  # one at a time: the deeper way
