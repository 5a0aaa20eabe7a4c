"""The Plot (``docs/games.md`` row 14).

Two packs (``double``, 104 cards; order in :mod:`decks.packs`, shuffle in :mod:`decks.deals`).
Thirteen cards are dealt squared up and face up as the reserve ``r1``; the next card goes to the
first foundation ``f1`` and its rank is the **base** (counter ``base``).  Then twelve cards, in
three rows of four, start the tableau piles ``t1``–``t12``.  The other 78 cards are the hand ``s``.

* The foundations ``f1``–``f8`` build up **regardless of suit**, round the corner (king, ace, two
  …), thirteen cards each.  The seven other foundations start with cards of the base rank — but
  only once ``f1`` holds thirteen cards (*the restriction*).
* The top card of the reserve plays only to a foundation.  The top cards of the tableau play to
  the foundations and onto each other: the tableau builds down regardless of suit, round the
  corner, one card at a time.  (The text says tableau cards play "on the foundations and on the
  reserve"; as nothing is ever built on a squared-up reserve, we read the second as the tableau,
  which the next sentence describes.)
* ``s`` turns one card onto the waste ``w``; its top card plays to a foundation, onto the tableau
  or into a space.  There is no redeal.
* A space is filled only from the waste (the card just turned from the hand), never from the
  tableau, and whenever the player likes.  During the restriction a space takes only a card of the
  base rank, and cards of the base rank in the tableau can neither be built on nor moved onto
  another pile; once ``f1`` is complete any waste card may fill a space.
"""

from __future__ import annotations

from decks.engine import GameState, Move, PileGroup, Rules, SolverTuning, register
from decks.engine.dealing import deal_cards, deal_rest_to_stock
from decks.engine.rules import stock, waste
from decks.games.two_pack import hand_actions, redeals_option, tidy_distance
from decks.packs import RANK_NAMES, PlayingCard

SIZE = 13


def deal_the_plot(state: GameState, cards: list[PlayingCard]) -> None:
    deal_cards(state, cards, "r1", SIZE, face_up=True)
    state.counters["base"] = cards[0].rank
    deal_cards(state, cards, "f1", 1, face_up=True)
    for i in range(1, 13):
        deal_cards(state, cards, f"t{i}", 1, face_up=True)
    deal_rest_to_stock(state, cards)


def restricted(state: GameState) -> bool:
    """True until the first foundation holds thirteen cards."""
    return len(state.piles["f1"].cards) < SIZE


def base_name(state: GameState) -> str:
    return RANK_NAMES[state.counters["base"] - 1]


def accepts(state: GameState, name: str, c: PlayingCard) -> str | None:
    pile = state.piles[name]
    if not pile.cards:
        if restricted(state):
            return "the other foundations open only when the first holds thirteen cards"
        if c.rank != state.counters["base"]:
            return f"a foundation starts with a {base_name(state)} (the first foundation's rank)"
        return None
    if len(pile.cards) >= SIZE:
        return "that foundation is complete"
    if c.rank % 13 != (pile.cards[-1].rank + 1) % 13:
        return "foundations build up by one rank regardless of suit (king, ace, two …)"
    return None


def check(state: GameState, move: Move, moving: list[PlayingCard]) -> str | None:
    """The space and restriction rules (building and the foundations are the record's)."""
    dst = move.dst
    if dst[0] != "t":
        return None
    c = moving[0]
    target = state.piles[dst]
    base = state.counters["base"]
    if not target.cards:
        if move.src != "w":
            return "a space is filled only from the waste (never from the tableau)"
        if restricted(state) and c.rank != base:
            return f"until the first foundation is complete a space takes only a {base_name(state)}"
        return None
    if restricted(state) and base in (c.rank, target.cards[-1].rank):
        return (f"until the first foundation is complete a {base_name(state)} in the tableau is neither "
                "built on nor moved onto another pile")
    return None


THE_PLOT = register(Rules(
    name="the-plot", title="The Plot", seed="000", row=14,
    piles=(PileGroup("r", 1), PileGroup("t", 12), PileGroup("f", 8), stock(), waste()),
    deal=deal_the_plot, pack="double", build="any-down", wrap=True, unit="one", space="any",
    to_foundation=("reserve", "tableau", "waste"), to_tableau=("tableau", "waste"),
    foundation_accepts=accepts, check=check, actions=hand_actions(), distance=tidy_distance,
    options=(redeals_option(0),),
    solver=SolverTuning(turn=1, turn_check="hand-left", redeal="gather", measure="tidy"),
    notes="Two packs; 13-card reserve; the first foundation card sets the base; 12 piles down any suit "
          "round the corner; f1 must be finished before the others open; spaces from the waste.",
))
