"""Dealing: a new game from its deal number, positions set up by hand, and the layout helpers.

:func:`deal` shuffles the game's pack by deal number (:mod:`decks.deals`), gives the cards to the
record's ``deal`` hook and runs the automatic moves once.  The hooks lay the cards out with the
small helpers here (:func:`deal_cards`, :func:`deal_triangle`, :func:`deal_rest_to_stock`; during
play :func:`deal_from_stock` deals a round from the stock).  :func:`make_state` builds a position
from card names, for tests, puzzles and the card-deck decoder.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from decks.deals import GameRandom, check_deal_number, deal_order
from decks.engine.rules import Rules, configured, get_game, resolve_options, rules_of, run_automatic
from decks.engine.state import GameState, OptionValue, Pile
from decks.packs import PlayingCard
from emulator.errors import IbmError


def empty_state(rules: Rules, deal_number: int, options: Mapping[str, OptionValue]) -> GameState:
    """A state with no cards dealt: the piles of the record the options give (:func:`configured`)."""
    piles = {n: Pile() for n in configured(rules, options).pile_names()}
    return GameState(rules.name, dict(options), deal_number, piles,
                     rng_state=GameRandom.for_deal(deal_number).state)


def make_state(game: str, piles: Mapping[str, str], options: Mapping[str, object] | None = None,
               deal_number: int = 1, counters: Mapping[str, int] | None = None) -> GameState:
    """A position built by hand (for tests and puzzles): ``piles`` maps pile names to card names
    bottom to top, face-down cards written with a leading '-' (``{'t1': '-KS -2H 7C', 's': '-AC'}``);
    piles not named are empty."""
    base = get_game(game)
    state = empty_state(base, deal_number, resolve_options(base, options))
    for name, text in piles.items():
        pile = state.pile(name)
        new = Pile.from_names(text.split(), base.pack)
        pile.cards, pile.hidden = new.cards, new.hidden
    state.counters.update(counters or {})
    return state


def deal(game: str, deal_number: int = 1, options: Mapping[str, object] | None = None) -> GameState:
    """A new game: the pack shuffled by deal number (:mod:`decks.deals`) and laid out by the rules."""
    base = get_game(game)
    check_deal_number(deal_number)
    values = resolve_options(base, options)
    state = empty_state(base, deal_number, values)
    rules = rules_of(state)
    rules.deal(state, deal_order(rules.pack, deal_number))
    run_automatic(rules, state)
    return state


def deal_cards(state: GameState, cards: list[PlayingCard], name: str, n: int, face_up: bool) -> None:
    """Move ``n`` cards from the front of ``cards`` onto pile ``name`` (face up or down)."""
    pile = state.piles[name]
    for _ in range(n):
        c = cards.pop(0)
        if not face_up and pile.hidden == len(pile.cards):
            pile.hidden += 1
        elif not face_up:
            raise IbmError("cannot deal a face-down card onto a face-up one")
        pile.cards.append(c)


def deal_from_stock(state: GameState, names: Iterable[str], keep: int = 0) -> None:
    """One card from the stock ``s``, face up, onto each of the piles ``names`` in turn, while the
    stock holds more than ``keep`` cards (the cards left stay face down)."""
    hand = state.piles["s"]
    for name in names:
        if len(hand.cards) <= keep:
            break
        state.piles[name].cards.append(hand.cards.pop())
    hand.hidden = len(hand.cards)


def deal_rest_to_stock(state: GameState, cards: list[PlayingCard], name: str = "s") -> None:
    """The undealt cards become the stock, face down, first undealt card on top (dealt next)."""
    pile = state.piles[name]
    pile.cards = list(reversed(cards)) + pile.cards
    pile.hidden = len(pile.cards)
    cards.clear()


def deal_triangle(state: GameState, cards: list[PlayingCard], prefix: str = "t", n: int = 7) -> None:
    """The Klondike layout: row by row, one card face up on the first pile of the row and one face
    down on each pile to its right, until pile i holds i cards with its top card up."""
    for row in range(1, n + 1):
        for col in range(row, n + 1):
            deal_cards(state, cards, f"{prefix}{col}", 1, face_up=(col == row))
