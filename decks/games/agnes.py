"""Agnes (as GNOME AisleRiot's help describes it; ``docs/games.md`` row 24).

Other programs call this game Agnes Bernauer.  The layout is Klondike's: seven tableau piles of
1 … 7 cards, the top card of each face up.  Then one card face up on each of seven reserve piles
``r1``–``r7``, and one card onto the first foundation ``f1``: its rank is the *base* of all four
foundations.  The other 16 cards are the stock ``s``.

* Foundations build up in suit from the base rank, king followed by ace, thirteen cards each; a new
  foundation starts with a card of the base rank.  Foundation cards are still in play: the top card
  may come back onto the tableau (a foundation's first card stays).
* The tableau builds down in alternating colours, ace followed by king; a group built that way
  moves as a unit.  A space takes only a card one rank below the base (or a group headed by one).
* The top card of each reserve pile is available; nothing is built on the reserve.
* ``s`` deals one card onto each reserve pile; the last two cards go onto ``r1`` and ``r2`` so that
  both are available.
"""

from __future__ import annotations

from decks.engine import Action, GameState, Move, PileGroup, Rules, register
from decks.engine.dealing import deal_cards, deal_from_stock, deal_rest_to_stock, deal_triangle
from decks.engine.play import flip_exposed
from decks.engine.rules import stock
from decks.packs import RANK_NAMES, PlayingCard


def deal_agnes(state: GameState, cards: list[PlayingCard]) -> None:
    deal_triangle(state, cards, "t", 7)
    for i in range(1, 8):
        deal_cards(state, cards, f"r{i}", 1, face_up=True)
    base = cards[0]
    deal_cards(state, cards, "f1", 1, face_up=True)
    state.counters["base"] = base.rank
    deal_rest_to_stock(state, cards)


def space_rank(state: GameState) -> int:
    """The rank one below the base (a king when the base is an ace)."""
    return (state.counters["base"] - 2) % 13 + 1


def space_accepts(state: GameState, c: PlayingCard) -> str | None:
    rank = space_rank(state)
    if c.rank != rank:
        return f"a space takes only a {RANK_NAMES[rank - 1]} (one below the base) or a group headed by one"
    return None


def check_reserve_deal(state: GameState, move: Move) -> str | None:
    if move.piles or move.count != 1:
        return "'s' takes no piles or count"
    return None if state.piles["s"].cards else "the stock is used up"


def deal_reserve(state: GameState, move: Move) -> None:
    """One card face up onto each reserve pile (the last two onto r1 and r2)."""
    deal_from_stock(state, state.names("reserve"))


AGNES = register(Rules(
    name="agnes", title="Agnes", seed="001", row=24,
    piles=(PileGroup("t", 7), PileGroup("r", 7), PileGroup("f", 4), stock()),
    deal=deal_agnes, build="alt-down", wrap=True, unit="built-run",
    foundation_base=0, foundation_wrap=True,
    to_foundation=("tableau", "reserve"), to_tableau=("tableau", "reserve", "foundation"),
    space_accepts=space_accepts,
    actions={"stock": Action(check_reserve_deal, deal_reserve, lambda s: [Move("stock")])},
    automatic=(flip_exposed,),
    notes="Klondike layout, 7 reserve cards; first foundation card sets the base; alternating colours round "
          "the corner; stock deals to the reserve.",
))
