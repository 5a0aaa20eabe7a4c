"""Pieces the two-pack games share: setting cards out, the ace-up / king-down foundations, the hand.

Ten games of our rule texts use two packs (``double``: 104 cards, the standard order twice; British
Constitution ``double-88``: the same without kings and queens, see :mod:`decks.packs`).  The two
copies of a card are one value, so a position is a multiset of cards and either copy may stand for
the other.  What the two-pack games have in common lives here:

* :func:`take_out` — the cards a game sets out before the deal (aces, kings, twos), taken from the
  shuffled pack where they lie; the other cards keep their dealing order.
* Foundations ``f1``–``f4`` and ``f5``–``f8`` in suit order clubs, diamonds, hearts, spades.  In
  Parallels, Colorado and Louis the first four start with an ace and build **up** in suit, the last
  four start with a king and build **down** in suit (:func:`ace_king_accepts`); thirteen cards make
  a foundation complete, so each suit's 26 cards fill its two foundations.
* The hand: ``s`` turns one card face up onto the waste ``w`` (:func:`turn_one`).  Games that keep
  the card just turned "in the hand" (Indian, Limited, Lucas) have a one-card pile ``h``, the hand
  card: ``s`` first puts the card held there onto the waste, then turns the next card into ``h``,
  so the hand card and the waste's top card are both available.  Where the game allows a redeal
  (option ``redeals``), the turned cards — the waste and the hand card — are gathered to make the
  hand again, in the same order (the Klondike hooks).
* :func:`fill_from_stock` — the automatic move of games whose gaps are "immediately filled from the
  stock".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from decks.engine import Action, GameState, Move, Option, rules_of
from decks.engine.legality import builds_on
from decks.games.klondike import check_redeal, check_turn, redeal
from decks.packs import STANDARD_RANKS, STANDARD_SUITS, PlayingCard
from emulator.errors import IbmError

ACE_FOUNDATIONS = ("f1", "f2", "f3", "f4")
KING_FOUNDATIONS = ("f5", "f6", "f7", "f8")


def foundation_suit(name: str) -> str:
    """The suit of foundation ``f1`` … ``f8``: C D H S, then C D H S again."""
    return STANDARD_SUITS[(int(name[1:]) - 1) % 4]


def take_out(cards: list[PlayingCard], names: Iterable[str]) -> list[PlayingCard]:
    """Remove one copy of each named card from ``cards`` (the first in dealing order) and return
    them in the order named."""
    out = []
    for name in names:
        for i, c in enumerate(cards):
            if c.name == name:
                out.append(cards.pop(i))
                break
        else:
            raise IbmError(f"no {name} left in the pack to set out")
    return out


def set_out(state: GameState, cards: list[PlayingCard], ranks: str, first: int = 1) -> None:
    """Set out one card of each suit (C D H S) per rank letter in ``ranks`` onto consecutive
    foundations from ``f<first>``: ``set_out(state, cards, 'AK')`` puts the aces on f1–f4 and the
    kings on f5–f8."""
    names = [r + s for r in ranks for s in STANDARD_SUITS]
    for i, c in enumerate(take_out(cards, names), start=first):
        state.piles[f"f{i}"].cards.append(c)


def ace_king_accepts(state: GameState, name: str, c: PlayingCard) -> str | None:
    """Foundations f1–f4 start with the ace of their suit and build up; f5–f8 start with the king
    and build down; in suit; thirteen cards make one complete."""
    suit = foundation_suit(name)
    if c.suit != suit:
        return f"{name} takes only {suit} cards (foundations are built in suit)"
    pile = state.piles[name]
    up = name in ACE_FOUNDATIONS
    if not pile.cards:
        start = 1 if up else 13
        return None if c.rank == start else f"{name} starts with the {'ace' if up else 'king'} of its suit"
    if len(pile.cards) >= 13:
        return "that foundation is complete"
    step = 1 if up else -1
    if c.rank != pile.cards[-1].rank + step:
        return rank_rule(name, pile.cards[-1].rank + step, suit, up)
    return None


def rank_rule(name: str, rank: int, suit: str, up: bool) -> str:
    """The rank rule a card broke on an ace or king foundation, naming the card it takes next."""
    way = "ace foundations build up" if up else "king foundations build down"
    if not 1 <= rank <= 13:  # a reversal took it past its last card
        return f"{name} takes no card now ({way} by one rank)"
    return f"{name} takes the {STANDARD_RANKS[rank - 1]}{suit} next ({way} by one rank)"


def ace_king_wanted(state: GameState) -> set[tuple[int, str]]:
    """(rank, suit) of each card some ace or king foundation (:func:`ace_king_accepts`) takes now."""
    out = set()
    for name in ACE_FOUNDATIONS + KING_FOUNDATIONS:
        cards = state.piles[name].cards
        up = name in ACE_FOUNDATIONS
        if not cards:
            out.add((1 if up else 13, foundation_suit(name)))
        elif len(cards) < 13:
            out.add((cards[-1].rank + (1 if up else -1), foundation_suit(name)))
    return out




def fill_from_stock(state: GameState, names: Iterable[str]) -> None:
    """Fill each empty pile of ``names`` with the top card of the stock, face up, while it lasts."""
    hand = state.piles["s"]
    for name in names:
        pile = state.piles[name]
        if not pile.cards and hand.cards:
            pile.cards.append(hand.cards.pop())
    hand.hidden = len(hand.cards)


def gap_filler(piles: tuple[str, ...] | None = None) -> Callable[[GameState], None]:
    """An automatic move: each empty pile of ``piles`` (None: the tableau) takes the next stock card
    at once, face up, while the stock lasts (:func:`fill_from_stock`).  The solver makes this move
    itself where the game's ``SolverTuning.fill`` names the same piles."""
    def fill_gaps(state: GameState) -> None:
        fill_from_stock(state, state.names("tableau") if piles is None else piles)

    return fill_gaps


def turn_one(state: GameState, move: Move) -> None:
    """Turn the top card of the hand face up: onto the waste, or — where the game has a hand card
    ``h`` — into ``h``, after the card held there goes onto the waste."""
    hand, waste, held = state.piles["s"], state.piles["w"], state.piles.get("h")
    if held is None:
        waste.cards.append(hand.cards.pop())
    else:
        waste.cards.extend(held.cards)
        held.cards = [hand.cards.pop()]
    hand.hidden = len(hand.cards)




def hand_actions() -> dict[str, Action]:
    """``s`` turns one card (:func:`turn_one`); ``r`` gathers the turned cards to make the hand
    again (as many times as the option ``redeals`` allows)."""
    return {"stock": Action(check_turn, turn_one, lambda s: [Move("stock")]),
            "redeal": Action(check_redeal, redeal, lambda s: [Move("redeal")])}


def redeals_option(n: int) -> Option:
    return Option("redeals", n, "count", help="times the waste may be turned over to make the hand again")


def tidy_distance(state: GameState) -> int:
    """A solver measure (``Rules.distance``): cards not yet on a foundation, plus two for every
    card lying on a tableau card it does not build on (a break that must be undone to reach the
    cards below)."""
    rules = rules_of(state)
    total = 0
    for name, pile in state.piles.items():
        if name[0] == "f":
            continue
        total += len(pile.cards)
        if name[0] == "t":
            cards = pile.cards
            total += 2 * sum(1 for a, b in zip(cards, cards[1:], strict=False) if not builds_on(rules, a, b))
    return total


