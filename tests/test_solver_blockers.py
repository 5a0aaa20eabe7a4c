"""The "goes home before" order of fixed cards (:mod:`decks.solver.blockers`), and the fact the
stuck-card test's waste shortcut rests on (:meth:`decks.solver.stuck.Stuck._held_in_waste`): fixed
cards that all lie in one pile make a cycle only where one of them lies over a lower card of its own
suit."""

from __future__ import annotations

import random

from decks.solver.blockers import Blockers, cycle

SUITS = 4
RANK = [0] + [r for _ in range(SUITS) for r in range(1, 14)]     # card 1 … 52: suit × 13 + rank
SUIT_NO = [0] + [s for s in range(SUITS) for _ in range(13)]


def _lowest_beneath(pile: list[int], place: int) -> list[int]:
    lowest = [99] * SUITS
    for c in pile[:place]:
        lowest[SUIT_NO[c]] = min(lowest[SUIT_NO[c]], RANK[c])
    return lowest


def _over_own(blockers: Blockers) -> bool:
    return any(lowest[SUIT_NO[c]] < RANK[c] for c, lowest in blockers)


def test_blockers_in_one_pile_make_a_cycle_only_over_a_lower_card_of_their_own_suit():
    rng = random.Random(52)
    cycles = 0
    for _ in range(3000):
        pile = rng.sample(range(1, 53), rng.randint(2, 24))
        places = [j for j in range(1, len(pile)) if rng.random() < 0.4]
        blockers = [(pile[j], _lowest_beneath(pile, j)) for j in places]
        assert cycle(blockers, SUIT_NO, RANK) == _over_own(blockers)
        cycles += _over_own(blockers)
    assert 300 < cycles < 2700             # both answers were asked often


def test_blockers_in_two_piles_make_cycles_no_card_makes_alone():
    # the 5 of suit 0 over the 3 of suit 1, the 4 of suit 1 over the 2 of suit 0: a cycle across
    # two piles, with no card over a lower one of its own suit
    five, three, four, two = 5, 13 + 3, 13 + 4, 2
    blockers = [(five, _lowest_beneath([three, five], 1)), (four, _lowest_beneath([two, four], 1))]
    assert not _over_own(blockers)
    assert cycle(blockers, SUIT_NO, RANK)
