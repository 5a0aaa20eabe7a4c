"""Pair-removal patiences: Gay Gordons and Baroness (encyclopedia articles;
``docs/games.md`` rows 11 and 12).

Both are played by removing cards in pairs from the tops of piles to the discard ``d`` with the
move ``x t3 t7`` (Baroness also removes a king alone: ``x t2``).  Only the top card of each pile
(and each reserve card) is in play; nothing is built.

**Gay Gordons** (row 11): ten piles ``t1``–``t10`` of five cards, all face up, and two reserve
cards ``r1``, ``r2`` face up.  Pairs are two cards adding to eleven (ace = 1: A+10, 2+9 … 5+6),
two jacks, or a king and a queen — suits do not matter (option ``kq_suits``: ``any``, or
``different`` for a king and queen of different suits).  Empty piles are never refilled.

**Baroness** (row 12): five piles ``t1``–``t5`` of one card each; the rest is the stock ``s``.
Kings are removed singly, and pairs adding to 13 (jack 11, queen 12: Q+A, J+2, 10+3 … 7+6).  When
a pile becomes empty, the gap is filled by moving the top card of another pile (one that holds two
or more cards) into it — ``t3 t1``; when the tableau holds too few cards for that, the gaps are
filled from the stock at once.  When the gaps are filled and nothing can be removed, ``s`` deals
five more cards, one onto each pile.  The last two cards of the stock form a reserve of their own
(``r1``, ``r2``, both available; option ``last_two``: ``reserve``, or ``piles`` to deal them onto
``t1`` and ``t2``).  Option ``deal_when_stuck`` (default on) forbids dealing while a removal
remains.  Won when every card is discarded.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from decks.engine import Action, GameState, Move, Option, PileGroup, Rules, register
from decks.engine.dealing import deal_cards, deal_from_stock, deal_rest_to_stock
from decks.engine.rules import discard, stock
from decks.packs import PlayingCard

Pairing = Callable[[GameState, list[PlayingCard]], str | None]


def open_piles(state: GameState) -> list[str]:
    """Piles whose top card is in play (tableau and reserve)."""
    return [n for n, p in state.piles.items() if n[0] in "tr" and p.cards]


def make_remove(pairing: Pairing, singles: bool) -> Action:
    """The 'x' action: remove the top cards of the named piles if ``pairing`` allows them."""

    def check(state: GameState, move: Move) -> str | None:
        names = move.piles
        if move.count != 1 or not 1 <= len(names) <= 2 or len(set(names)) != len(names):
            return "'x' names one pile (a lone card) or two different piles (a pair)"
        if len(names) == 1 and not singles:
            return "cards are removed in pairs"
        for n in names:
            if n not in state.piles or n[0] not in "tr":
                return f"{n} is not a pile whose top card is in play"
            if not state.piles[n].cards:
                return f"{n} is empty"
        return pairing(state, [state.piles[n].cards[-1] for n in names])

    def run(state: GameState, move: Move) -> None:
        for n in move.piles:
            state.piles["d"].cards.append(state.piles[n].cards.pop())

    def moves(state: GameState) -> list[Move]:
        names = open_piles(state)
        out = [Move("remove", (n,)) for n in names] if singles else []
        out += [Move("remove", pair) for pair in combinations(names, 2)]
        return out

    return Action(check, run, moves)


# ---------------------------------------------------------------------------------------------
# Gay Gordons

def gay_gordons_pair(state: GameState, cards: list[PlayingCard]) -> str | None:
    """Eleven, jack + jack, or king + queen."""
    a, b = cards
    if a.rank <= 10 and b.rank <= 10:
        return None if a.rank + b.rank == 11 else f"{a} and {b} do not add up to eleven"
    ranks = sorted((a.rank, b.rank))
    if ranks == [11, 11]:
        return None
    if ranks == [12, 13]:
        if state.options["kq_suits"] == "different" and a.suit == b.suit:
            return "a king and a queen pair only in different suits (option kq_suits)"
        return None
    return f"{a} and {b} are not a pair (eleven, two jacks, or king and queen)"


def deal_gay_gordons(state: GameState, cards: list[PlayingCard]) -> None:
    """Ten piles of five, dealt row by row, then the two reserve cards."""
    for _ in range(5):
        for i in range(1, 11):
            deal_cards(state, cards, f"t{i}", 1, face_up=True)
    deal_cards(state, cards, "r1", 1, face_up=True)
    deal_cards(state, cards, "r2", 1, face_up=True)


GAY_GORDONS = register(Rules(
    name="gay-gordons", title="Gay Gordons", seed="000", row=11,
    piles=(PileGroup("t", 10), PileGroup("r", 2), discard()),
    deal=deal_gay_gordons, build="none", unit="one", space="none",
    to_foundation=(), to_tableau=(),
    actions={"remove": make_remove(gay_gordons_pair, singles=False)},
    options=(Option("kq_suits", "any", "choice", ("any", "different"),
                    help="a king pairs with a queen of any suit, or only of a different suit"),),
    symmetric=False,
    notes="10 piles of 5 and 2 reserve cards face up; remove pairs making 11, J+J, K+Q.",
))


# ---------------------------------------------------------------------------------------------
# Baroness

def baroness_pair(state: GameState, cards: list[PlayingCard]) -> str | None:
    """A king alone, or two cards adding up to thirteen."""
    if len(cards) == 1:
        return None if cards[0].rank == 13 else f"only a king is removed alone ({cards[0]} is not)"
    a, b = cards
    return None if a.rank + b.rank == 13 else f"{a} and {b} do not add up to thirteen"


def tableau_names(state: GameState) -> list[str]:
    return state.names("tableau")


def gaps_fillable(state: GameState) -> bool:
    """A gap that the top card of another pile (one holding two or more cards) can fill."""
    piles = [state.piles[n] for n in tableau_names(state)]
    return any(not p.cards for p in piles) and any(len(p.cards) >= 2 for p in piles)


def fill_from_stock(state: GameState) -> None:
    """Automatic move: gaps that no pile can fill take cards from the stock (not its last two when
    they are to form the reserve)."""
    hand = state.piles["s"]
    keep = reserve_kept(state)
    if gaps_fillable(state):
        return
    for n in tableau_names(state):
        if not state.piles[n].cards and len(hand.cards) > keep:
            state.piles[n].cards.append(hand.cards.pop())
    hand.hidden = len(hand.cards)


def check_fill(state: GameState, move: Move, moving: list[PlayingCard]) -> str | None:
    """Transfers in Baroness only fill a gap from a pile holding at least two cards."""
    if len(state.piles[move.src].cards) < 2:
        return "a gap is filled only from a pile with two or more cards (else the gap just moves)"
    return None


def removal_possible(state: GameState) -> bool:
    action = make_remove(baroness_pair, singles=True)
    return any(action.check(state, m) is None for m in action.moves(state))


def check_deal(state: GameState, move: Move) -> str | None:
    if move.piles or move.count != 1:
        return "'s' takes no piles or count"
    if len(state.piles["s"].cards) <= reserve_kept(state):
        return "the stock is used up"
    if gaps_fillable(state):
        return "fill the gaps from the other piles before dealing"
    if state.options["deal_when_stuck"] and removal_possible(state):
        return "five new cards are dealt only when no king or pair making thirteen can be removed"
    return None


def reserve_kept(state: GameState) -> int:
    """How many stock cards are kept back for the reserve (2 with ``last_two=reserve``)."""
    return 2 if state.options["last_two"] == "reserve" else 0


def deal_five(state: GameState, move: Move) -> None:
    """One card onto each pile, keeping back the last two cards when they are to be the reserve."""
    deal_from_stock(state, tableau_names(state), keep=reserve_kept(state))


def form_reserve(state: GameState) -> None:
    """Automatic move: the last two cards of the stock become the reserve ``r1``, ``r2``."""
    hand = state.piles["s"]
    if reserve_kept(state) and 0 < len(hand.cards) <= 2:
        for i in range(1, len(hand.cards) + 1):
            state.piles[f"r{i}"].cards.append(hand.cards.pop())
        hand.hidden = 0


def deal_baroness(state: GameState, cards: list[PlayingCard]) -> None:
    for i in range(1, 6):
        deal_cards(state, cards, f"t{i}", 1, face_up=True)
    deal_rest_to_stock(state, cards)


def _baroness_moves(state: GameState) -> list[Move]:
    return [Move("stock")]


BARONESS = register(Rules(
    name="baroness", title="Baroness", seed="000", row=12,
    piles=(PileGroup("t", 5), PileGroup("r", 2), stock(), discard()),
    deal=deal_baroness, build="none", unit="one", space="any",
    to_foundation=(), to_tableau=("tableau",), check=check_fill,
    actions={"remove": make_remove(baroness_pair, singles=True),
             "stock": Action(check_deal, deal_five, _baroness_moves)},
    automatic=(fill_from_stock, form_reserve),
    options=(Option("last_two", "reserve", "choice", ("reserve", "piles"),
                    help="the last two stock cards form a reserve, or are dealt onto piles 1 and 2"),
             Option("deal_when_stuck", True, help="deal only when no king or pair can be removed")),
    symmetric=False,
    notes="5 piles; remove kings and pairs making 13 from the tops; gaps filled from other piles, "
          "else from the stock; deal five when stuck; last two cards a reserve.",
))
