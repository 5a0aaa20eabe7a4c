"""Colorado (``docs/games.md`` row 16).

Two packs (``double``, 104 cards; order in :mod:`decks.packs`, shuffle in :mod:`decks.deals`).
Twenty cards are dealt face up in two rows of ten: the bases of twenty waste piles ``t1``–``t20``.
The foundations are one ace and one king of each suit, played as they become available: ``f1``–
``f4`` (C D H S) start with an ace and build up in suit, ``f5``–``f8`` start with a king and build
down in suit.  (The second ace and king of a suit are ordinary cards: they end the king's and the
ace's foundation.)

* The top card of each waste pile plays only to a foundation: there is no building, and no card
  moves from one waste pile to another.
* A waste pile that becomes empty takes the next card of the stock at once, while the stock lasts
  (the text's "filled with a card from the wastepile" is the card being dealt).
* ``s`` deals the next stock card face up into the hand ``w``; it must go to a foundation or onto
  any waste pile (``w f``, ``w t7``) before the next is dealt.  Won with every card on the
  foundations.
"""

from __future__ import annotations

from decks.engine import Action, GameState, Move, PileGroup, Rules, SolverTuning, register
from decks.engine.dealing import deal_cards, deal_rest_to_stock
from decks.engine.rules import stock, waste
from decks.games.two_pack import ace_king_accepts, gap_filler, turn_one
from decks.packs import STANDARD_SUITS as SUITS
from decks.packs import PlayingCard

PILES = 20


def deal_colorado(state: GameState, cards: list[PlayingCard]) -> None:
    for i in range(1, PILES + 1):
        deal_cards(state, cards, f"t{i}", 1, face_up=True)
    deal_rest_to_stock(state, cards)


fill_gaps = gap_filler()
"""Automatic move: an empty waste pile takes the next stock card while the stock lasts."""


def check_deal(state: GameState, move: Move) -> str | None:
    if move.piles or move.count != 1:
        return "'s' takes no piles or count"
    if state.piles["w"].cards:
        return "the card dealt must go to a foundation or onto a waste pile before the next is dealt"
    return None if state.piles["s"].cards else "the stock is used up"




def need(state: GameState, c: PlayingCard) -> int:
    """How many cards of its suit must go home before ``c`` can (on the nearer of its two
    foundations)."""
    up, down = state.piles[f"f{SUITS.index(c.suit) + 1}"], state.piles[f"f{SUITS.index(c.suit) + 5}"]
    after_up = c.rank - (up.cards[-1].rank if up.cards else 0) - 1
    after_down = (down.cards[-1].rank if down.cards else 14) - c.rank - 1
    return min(n for n in (after_up, after_down) if n >= 0) if max(after_up, after_down) >= 0 else 0


def distance(state: GameState) -> int:
    """A solver measure: cards not home, plus two for each card lying on a card needed sooner."""
    total = 0
    for name, pile in state.piles.items():
        if name[0] == "f":
            continue
        total += len(pile.cards)
        if name[0] == "t":
            needs = [need(state, c) for c in pile.cards]
            total += 2 * sum(1 for a, b in zip(needs, needs[1:], strict=False) if a < b)
    return total




COLORADO = register(Rules(
    name="colorado", title="Colorado", seed="000", row=16,
    piles=(PileGroup("t", PILES), PileGroup("f", 8), stock(), waste()),
    deal=deal_colorado, pack="double", build="any-card", unit="one", space="any",
    to_foundation=("tableau", "waste"), to_tableau=("waste",),
    foundation_accepts=ace_king_accepts,
    actions={"stock": Action(check_deal, turn_one, lambda s: [Move("stock")])},
    automatic=(fill_gaps,), distance=distance,
    solver=SolverTuning(turn=1, turn_check="waste-empty", foundations="ace-king", fill="tableau",
                        measure="nearer-foundation", changed_since=("2026-12-01", "2026-11-30")),
    notes="Two packs; 20 waste piles; an ace and a king of each suit as foundations (up / down in suit); "
          "every stock card goes to a foundation or any waste pile; no moves between waste piles.",
))
