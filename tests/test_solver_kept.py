"""What the solver keeps from the last position asked (the very same bytes objects, found without
hashing): the foundations' wanted cards (:meth:`decks.solver.moves.Model.wanted`) and King Albert's
measure (:meth:`decks.solver.measures.Measures.buried_distance`), beside the Spider games' measures
(:meth:`decks.solver.measures.Measures.suit_run_distance`, ``spider_distance``: their run breaks
counted pair by pair, tests/test_solver_shortcuts.py checks them against the definition).  Asked
in any order, over positions real searches reach, each answers as a fresh object (nothing kept)
does."""

from __future__ import annotations

import random

import pytest

from decks import engine
from decks.solver.measures import Measures
from decks.solver.position import Pos
from decks.solver.tree import Search
from tests.test_solver_keys import reached


def positions(game: str, deal: int, count: int) -> tuple[Search, list[Pos]]:
    """A search of the deal and ``count`` positions its moves reach, in a shuffled order (each
    next to positions that share some of its piles and not others)."""
    search = Search(engine.deal(game, deal))
    root = search.model.pos(engine.deal(game, deal))
    found = reached(search, root, count)
    random.Random(deal).shuffle(found[count // 2:])      # siblings first, then any order
    return search, found


@pytest.mark.parametrize("game", ["king-albert", "spiderette", "klondike", "bisley"])
def test_the_measures_answer_as_a_fresh_object_does(game: str) -> None:
    for deal in (1, 2):
        search, found = positions(game, deal, 400)
        kept = search.measures
        for p in found:
            fresh = Measures(search.model)
            assert kept.buried_distance(p) == fresh.buried_distance(p)
            assert kept.suit_run_distance(p) == Measures(search.model).suit_run_distance(p)
            assert kept.spider_distance(p) == Measures(search.model).spider_distance(p)


@pytest.mark.parametrize("game", ["king-albert", "spiderette", "klondike", "bisley", "la-belle-lucie"])
def test_the_wanted_cards_are_the_fresh_ones(game: str) -> None:
    for deal in (1, 2):
        search, found = positions(game, deal, 400)
        m = search.model
        for p in found:
            kept = m.wanted(p)
            m._wanted_was = None                # nothing kept: made afresh
            assert kept == m.wanted(p)
        if m.by_top is None and not m.own_foundations and m.fnd:
            assert m.wanted(found[0]) is m.wanted(found[0])     # kept: the very same list
