"""Indian, Limited and Lucas: two-pack games of the Forty Thieves family (``docs/games.md``
rows 17, 20, 23).

Two packs (the ``double`` pack, 104 cards: AC AD AH AS 2C … KS twice, shuffled by deal number as
:mod:`decks.deals` describes).  Eight foundations ``f1``–``f8`` start with the aces and build up in
suit to the kings.  The tableau piles ``t1`` … are dealt in rows, one card on each pile per row;
only the top card of a pile is available and only one card moves at a time.  A space may be filled
by any available card — from the tableau, the waste or the hand.  The rest of the pack is the hand
``s``.  The text: "Turn up cards from the hand one by one, placing unplayable cards face up on the
wastepile.  The top card of the wastepile, as well as the card in the hand, is available for
play."  So the card just turned stays in the hand — the one-card pile ``h``, the *hand card* —
and ``s`` first puts it onto the waste ``w``, then turns the next card into ``h``.  The hand card
and the waste's top card both play to a foundation, onto the tableau or into a space.  When the
hand is empty, ``s`` is refused: no card is left to turn, so the hand card stays available (on
the waste it would only cover the waste's top).

* **Indian** (row 17): ten piles of three; the first row face down, the other two face up (an
  exposed face-down card is turned up).  A card goes on the next higher card of any suit but its
  own.  One pass through the hand.
* **Limited** (row 20): twelve piles of three, all face up; building down in suit.  One pass.
* **Lucas** (row 23): the eight aces are set out on the foundations first (f1–f8: C D H S twice,
  the first copy of each ace in dealing order); thirteen piles of three face up; building down in
  suit.  One redeal, once the hand is used up: the waste and the hand card are gathered to make the
  hand again, in the same order.

Options: ``redeals`` (the text's count by default) changes the passes through the hand;
``hand_card`` (true by default) keeps the card just turned in ``h`` as above — false turns each
card straight onto the waste, whose top card alone is then available (no pile ``h``).
"""

from __future__ import annotations

from collections.abc import Mapping

from decks.engine import GameState, Option, OptionValue, PileGroup, Rules, SolverTuning, register, replace
from decks.engine.dealing import deal_cards, deal_rest_to_stock
from decks.engine.play import flip_exposed
from decks.engine.rules import DealHook, stock, waste
from decks.games.two_pack import hand_actions, redeals_option, set_out, tidy_distance
from decks.packs import PlayingCard


def deal_rows(state: GameState, cards: list[PlayingCard], piles: int, rows: int, down_rows: int = 0) -> None:
    """``rows`` rows of one card on each of ``piles`` piles, the first ``down_rows`` face down; the
    rest of the pack becomes the hand."""
    for row in range(rows):
        for i in range(1, piles + 1):
            deal_cards(state, cards, f"t{i}", 1, face_up=row >= down_rows)
    deal_rest_to_stock(state, cards)


def deal_indian(state: GameState, cards: list[PlayingCard]) -> None:
    deal_rows(state, cards, 10, 3, down_rows=1)


def deal_limited(state: GameState, cards: list[PlayingCard]) -> None:
    deal_rows(state, cards, 12, 3)


def deal_lucas(state: GameState, cards: list[PlayingCard]) -> None:
    set_out(state, cards, "AA")
    deal_rows(state, cards, 13, 3)


HAND_CARD = PileGroup("h", 1, True)
PLAYS = ("tableau", "waste", "hand card")
"""Where cards play from, to the foundations and onto the tableau."""


def configure(rules: Rules, options: Mapping[str, OptionValue]) -> Rules:
    """Without the hand card (option ``hand_card`` false) there is no pile ``h``."""
    if options["hand_card"]:
        return rules
    plays = tuple(r for r in PLAYS if r != "hand card")
    return replace(rules, piles=tuple(g for g in rules.piles if g != HAND_CARD), to_foundation=plays,
                   to_tableau=plays)


def _game(name: str, title: str, row: int, piles: int, deal: DealHook, build: str, redeals: int,
          notes: str) -> Rules:
    return Rules(
        name=name, title=title, seed="004", row=row,
        piles=(PileGroup("t", piles), PileGroup("f", 8), stock(), HAND_CARD, waste()),
        deal=deal, pack="double", build=build, unit="one", space="any",
        to_foundation=PLAYS, to_tableau=PLAYS, actions=hand_actions(), automatic=(flip_exposed,),
        options=(redeals_option(redeals),
                 Option("hand_card", True, help="the card just turned stays in the hand card h, playable "
                                                "beside the waste's top (false: it goes onto the waste)")),
        configure=configure, distance=tidy_distance, notes=notes,
        solver=SolverTuning(turn=1, turn_check="hand-left", redeal="gather", measure="tidy"),
    )


INDIAN = register(_game("indian", "Indian", 17, 10, deal_indian, "other-suit-down", 0,
                        "Two packs; 10 piles of 3, first row face down; build down in any suit but its "
                        "own, one card; any card into a space; turn one, hand card and waste top "
                        "playable; one pass."))
LIMITED = register(_game("limited", "Limited", 20, 12, deal_limited, "suit-down", 0,
                         "Two packs; 12 piles of 3 face up; build down in suit, one card; any card into "
                         "a space; turn one, hand card and waste top playable; one pass."))
LUCAS = register(_game("lucas", "Lucas", 23, 13, deal_lucas, "suit-down", 1,
                       "Two packs; 8 aces out; 13 piles of 3 face up; build down in suit, one card; any "
                       "card into a space; turn one, hand card and waste top playable; one redeal."))
