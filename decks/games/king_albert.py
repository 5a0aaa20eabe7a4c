"""King Albert ("Solitaire Card Game 4"; ``docs/games.md`` row 18).

Nine tableau piles of 1, 2, … 9 cards, all face up (45 cards), and the other seven cards as a
reserve ``r1``–``r7``, every one of them available.  The aces go to foundations ``f1``–``f4`` as
they become available and build up in suit to the kings.  Tableau piles build down in alternating
colours, one card at a time; a space may be filled by any available card (from the tableau or the
reserve).  Nothing is ever placed on the reserve.
"""

from __future__ import annotations

from decks.engine import GameState, PileGroup, Rules, deal_cards, register
from decks.packs import PlayingCard


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
    notes="9 piles 1-9 face up, 7 reserve cards all available; build down alternating colours, one card; "
          "any card into a space.",
))
