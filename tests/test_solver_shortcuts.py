"""The solver's shortcuts answer as the plain definitions they stand for, over positions real
searches reach (each next to siblings, then in a shuffled order): the piles a card builds on, listed
by build class (:meth:`decks.solver.moves.Model.targets`, :attr:`Tables.build_class`); the spider
measures' run breaks counted pair by pair (:meth:`decks.solver.measures.Measures._breaks_above`);
King Albert's key with its last three parts kept as one (:meth:`decks.solver.keys.Keys._reserve_key`)
and its reserve's part kept for the reserve asked before the last."""

from __future__ import annotations

import pytest

from decks.solver.keys import Keys
from decks.solver.measures import Measures
from tests.test_solver_kept import positions

GAMES = ["king-albert", "spiderette", "klondike", "bisley", "little-spider", "colorado", "agnes"]


@pytest.mark.parametrize("game", GAMES)
def test_the_piles_a_card_builds_on_are_those_whose_top_takes_it(game: str) -> None:
    search, found = positions(game, 1, 300)
    m = search.model
    for p in found:
        targets = m.targets(p)
        for c in range(m.size):
            want = [d for d in m.tab if len(p.piles[d]) > 0 and m.builds[p.piles[d][-1]][c]]
            assert targets.onto(c) == want, (game, c)


def breaks_from(m: Measures, pile: bytes, h: int) -> int:
    """By the definition: the cards above place ``h`` that lie on one not of their suit and one rank
    higher."""
    return sum(1 for j in range(h + 1, len(pile))
               if m.suit[pile[j - 1]] != m.suit[pile[j]] or m.rank[pile[j - 1]] != m.rank[pile[j]] + 1)


@pytest.mark.parametrize("game", ["spiderette", "little-spider", "klondike"])
def test_the_spider_measures_count_the_run_breaks_of_the_definition(game: str) -> None:
    for deal in (1, 2):
        search, found = positions(game, deal, 300)
        measures, m = search.measures, search.model
        for p in found:
            home = m.total - m.home_count(p)
            breaks = [2 * breaks_from(measures, p.piles[i], p.hidden[i]) for i in m.tab]
            hidden = [p.hidden[i] for i in m.tab]
            assert measures.suit_run_distance(p) == home + 3 * sum(hidden) + sum(breaks)
            assert measures.spider_distance(p) == home + 5 * sum(hidden) + sum(breaks)


def test_king_albert_keys_are_the_general_forms_bytes() -> None:
    for deal in (1, 2, 3):
        search, found = positions("king-albert", deal, 400)
        keys = search.keys
        assert keys.reserve_form
        plain = Keys(search.model, splits=True)
        plain.reserve_form = False      # the general one-pack form, which the key tests check
        made = 0
        for p in found + found[::-1]:
            quick = keys._reserve_key(p)
            if quick is None:           # a reserve pile of two cards: the general form
                continue
            made += 1
            assert quick == keys.of(p) == plain.of(p) == Keys(search.model, splits=True).of(p)
        assert made > 700


def test_king_albert_reserve_parts_alternate_as_made_afresh() -> None:
    search, found = positions("king-albert", 1, 200)
    keys = search.keys
    moved = [p for p in found if p.piles[9] != found[0].piles[9]][:5]
    assert moved
    for p in [x for q in moved for x in (found[0], q, found[0], q)]:
        assert keys.of(p) == Keys(search.model, splits=True).of(p)
