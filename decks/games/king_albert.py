"""King Albert ("Solitaire Card Game 4"; ``docs/games.md`` row 18).

Nine tableau piles of 1, 2, … 9 cards, all face up (45 cards), and the other seven cards as a
reserve ``r1``–``r7``, every one of them available.  The aces go to foundations ``f1``–``f4`` as
they become available and build up in suit to the kings.  Tableau piles build down in alternating
colours, one card at a time; a space may be filled by any available card (from the tableau or the
reserve).  Nothing is ever placed on the reserve.
"""

from __future__ import annotations

from typing import Final

from decks.engine import GameState, PileGroup, Rules, SolverTuning, register
from decks.engine.dealing import deal_cards
from decks.packs import PlayingCard

KING_ORDERS: Final = ("best", "new")
"""The move orders the solver's restarts go over in King Albert: best first by buried cards
(:meth:`decks.solver.measures.Measures.buried_distance`, as the Spider games' *best*:
:data:`decks.games.spider.SPIDER_ORDERS`), and the depth-first new order.  The best-first run goes on
where its last run stopped, so it never searches a position twice, and it proves a deal lost only
when every position reachable has been expanded, cycles and all; the new order's runs, which play
home and empty piles first, still prove positions lost that the best-first run then never enters.

King Albert has no face-down cards and no measure of its own, so the old order's generic measure
(cards not home) was the new order's, and the two runs of each round searched nearly the same tree;
*buried* also counts the cards lying out of sequence and those over the next card each foundation
wants."""


def deal_king_albert(state: GameState, cards: list[PlayingCard]) -> None:
    """Row by row, like Klondike but all face up: pile i gets i cards; then one card per reserve."""
    for row in range(1, 10):
        for col in range(row, 10):
            deal_cards(state, cards, f"t{col}", 1, face_up=True)
    for i in range(1, 8):
        deal_cards(state, cards, f"r{i}", 1, face_up=True)


KING_ALBERT = register(Rules(
    name="king-albert", title="King Albert", seed="004", row=18,
    piles=(PileGroup("t", 9), PileGroup("r", 7), PileGroup("f", 4)),
    deal=deal_king_albert, build="alt-down", unit="one", space="any",
    to_foundation=("tableau", "reserve"), to_tableau=("tableau", "reserve"),
    solver=SolverTuning(measure="buried", orders=KING_ORDERS, free_seconds_per_node=1e-6,
                        changed_since=("2026-12-03d", "2026-12-03c", "2026-12-03b", "2026-12-03",
                                       "2026-12-02", "2026-12-01")),
    notes="9 piles 1-9 face up, 7 reserve cards all available; build down alternating colours, one card; "
          "any card into a space.",
))
