"""Little Spider ("Solitaire Card Game 4"; ``docs/games.md`` row 21).

Eight tableau piles in two rows: the upper row ``t1``–``t4`` and the lower row ``t5``–``t8``, with
the four foundations ``f1``–``f4`` between them (``f1`` is directly above ``t5``, … ``f4`` above
``t8``).  Eight cards are dealt face up, one to each pile; the other 44 are the hand ``s``.  Each
``s`` deals eight more, one on each pile or space; the last four go on the upper row.

Foundations: two aces of one colour and two kings of the other.  The player chooses the colours
with the first foundation card played (option ``aces``: ``choose``, or fix ``red`` / ``black``
aces).  Aces build up in suit to kings, kings build down in suit to aces.

While cards remain in the hand (*during the deal*): only the top cards play, and only to the
foundations; upper-row cards may go to any foundation, a lower-row card only onto the foundation
directly above its pile (an ace or king that starts a foundation may go to any empty one); nothing
is built on the tableau and spaces are filled only by the next deal.  Once the hand is used up, any
top card may go to any foundation, and top cards build on each other up or down regardless of
suit, ace and king adjacent; one card at a time; a space is never filled.
"""

from __future__ import annotations

from decks.engine import Action, GameState, Move, Option, PileGroup, Rules, register
from decks.engine.dealing import deal_cards, deal_from_stock, deal_rest_to_stock
from decks.engine.rules import stock
from decks.packs import PlayingCard

UPPER = ("t1", "t2", "t3", "t4")
LOWER = ("t5", "t6", "t7", "t8")
ABOVE = {"t5": "f1", "t6": "f2", "t7": "f3", "t8": "f4"}
BOARD_ROWS = (UPPER, tuple(ABOVE.values()), LOWER)
"""How a board draws the game: upper row, the foundations, lower row (:mod:`tools.board`)."""


def deal_little_spider(state: GameState, cards: list[PlayingCard]) -> None:
    for name in UPPER + LOWER:
        deal_cards(state, cards, name, 1, face_up=True)
    deal_rest_to_stock(state, cards)


def check_deal_eight(state: GameState, move: Move) -> str | None:
    if move.piles or move.count != 1:
        return "'s' takes no piles or count"
    return None if state.piles["s"].cards else "the pack is completely dealt"


def deal_eight(state: GameState, move: Move) -> None:
    """One card on each pile or space (upper row first); the last four go on the upper row."""
    deal_from_stock(state, UPPER + LOWER)


def ace_colour(state: GameState) -> str | None:
    """The colour the aces go up in: fixed by the option or by the first foundation card played."""
    fixed = str(state.options.get("aces", "choose"))
    if fixed != "choose":
        return fixed
    for f in state.names("foundation"):
        cards = state.piles[f].cards
        if cards:
            base = cards[0]
            if base.rank == 1:
                return base.colour
            return "red" if base.colour == "black" else "black"
    return None


def foundation_accepts(state: GameState, name: str, c: PlayingCard) -> str | None:
    pile = state.piles[name].cards
    if not pile:
        if c.rank not in (1, 13):
            return "a foundation starts with an ace or a king"
        aces = ace_colour(state)
        if aces is not None:
            wanted = aces if c.rank == 1 else ("red" if aces == "black" else "black")
            if c.colour != wanted:
                return f"the aces are {aces} and the kings the other colour"
        return None
    base, top = pile[0], pile[-1]
    if len(pile) >= 13:
        return "that foundation is complete"
    if c.suit != top.suit:
        return "foundations are built in suit"
    step = 1 if base.rank == 1 else -1
    if c.rank != top.rank + step:
        return "ace foundations build up and king foundations build down, by one rank"
    return None


def check_little_spider(state: GameState, move: Move, moving: list[PlayingCard]) -> str | None:
    """The deal-time restrictions (the building rules after the deal are in the record)."""
    if not state.piles["s"].cards:
        return None
    if move.dst[0] == "t":
        return "nothing is built on the tableau until the pack is completely dealt"
    if move.src in LOWER and state.piles[move.dst].cards and ABOVE[move.src] != move.dst:
        return "during the deal a lower-row card goes only to the foundation directly above its pile"
    return None


LITTLE_SPIDER = register(Rules(
    name="little-spider", title="Little Spider", seed="004", row=21,
    piles=(PileGroup("t", 8), PileGroup("f", 4), stock()),
    deal=deal_little_spider, build="any-updown", wrap=True, unit="one", space="none",
    to_foundation=("tableau",), to_tableau=("tableau",),
    actions={"stock": Action(check_deal_eight, deal_eight, lambda s: [Move("stock")])},
    check=check_little_spider, foundation_accepts=foundation_accepts,
    options=(Option("aces", "choose", "choice", ("choose", "red", "black"),
                    help="colour of the two ace foundations (the kings are the other colour)"),),
    symmetric=False,
    notes="8 piles in two rows; 2 aces up and 2 kings down of opposite colours; deal-time limits; then "
          "build up or down round the corner.",
))
