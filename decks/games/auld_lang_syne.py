"""Auld Lang Syne (the encyclopedia article; ``docs/games.md`` row 7).

The four aces are taken out of the pack as foundations ``f1``–``f4`` (in suit order C D H S).  The
foundations build up **regardless of suit** to the kings.  Four cards are dealt below the aces,
one on each tableau pile ``t1``–``t4``; only the top card of a pile can be played, and only to a
foundation — there is no building in the tableau, and a pile emptied by a play stays empty until
the next deal.  When nothing more can be played (or the player has played what they want, with the
option ``deal_any_time``) the stock ``s`` deals four more, one onto each pile.  No redeal.  Won when
all 52 cards are on the foundations.

Foundation plays are the player's choice (reference row 7): when two piles show cards of the same
rank and only one foundation can take one, which one goes first decides the game, so the search in
:func:`best_play_wins` matters.  The seed quotes about one win in 100 deals.
"""

from __future__ import annotations

from collections.abc import Sequence

from decks.engine import Action, GameState, Move, Option, PileGroup, Rules, register, rules_of
from decks.engine.dealing import deal_cards, deal_from_stock, deal_rest_to_stock
from decks.engine.legality import check_transfer
from decks.engine.play import stock_deal_check
from decks.engine.rules import stock
from decks.packs import PlayingCard

FOUNDATION_SUITS = "CDHS"


def take_out_aces(state: GameState, cards: list[PlayingCard], prefix: str = "f") -> None:
    """Move the four aces out of ``cards`` onto foundations ``f1``–``f4`` in suit order C D H S;
    the other cards keep their dealing order."""
    aces = {c.suit: c for c in cards if c.rank == 1}
    for i, suit in enumerate(FOUNDATION_SUITS, start=1):
        state.piles[f"{prefix}{i}"].cards.append(aces[suit])
    cards[:] = [c for c in cards if c.rank != 1]


def deal_auld_lang_syne(state: GameState, cards: list[PlayingCard]) -> None:
    take_out_aces(state, cards)
    for i in range(1, 5):
        deal_cards(state, cards, f"t{i}", 1, face_up=True)
    deal_rest_to_stock(state, cards)


def foundation_plays(state: GameState) -> list[Move]:
    """Every legal play of a top card to a foundation."""
    rules = rules_of(state)
    return [m for t in state.names("tableau") for f in state.names("foundation")
            if check_transfer(rules, state, m := Move("move", (t, f))) is None]


check_deal = stock_deal_check(foundation_plays,
                              "a new deal comes only when no card can be built on the foundations",
                              stuck_only=lambda s: not s.options["deal_any_time"],
                              used_up="the stock is used up (there is no redeal)")


def deal_round(state: GameState, move: Move) -> None:
    """Four cards from the stock, one face up onto each tableau pile."""
    deal_from_stock(state, state.names("tableau"))


AULD_LANG_SYNE = register(Rules(
    name="auld-lang-syne", title="Auld Lang Syne", seed="000", row=7,
    piles=(PileGroup("t", 4), PileGroup("f", 4), stock()),
    deal=deal_auld_lang_syne, build="none", unit="one", space="none",
    foundation_suit=False, to_foundation=("tableau",), to_tableau=(),
    actions={"stock": Action(check_deal, deal_round, lambda s: [Move("stock")])},
    options=(Option("deal_any_time", False,
                    help="the stock may be dealt while plays remain (seed: only when none is left)"),),
    symmetric=False,
    notes="Aces out; foundations up regardless of suit; deals of four; no building; no redeal.",
))


# ---------------------------------------------------------------------------------------------
# best play, exactly and fast (for the win-rate measurement)

def best_play_wins(ranks: Sequence[int], deal_any_time: bool = False) -> bool:
    """Whether a deal can be won with best play; ``ranks`` are its 48 non-ace ranks (2 … 13) in
    dealing order.  Dealing while a play remains only covers cards, so ``deal_any_time`` does not
    change the answer."""
    del deal_any_time
    played = [0] * 15
    played[1] = 4
    return _search(((), (), (), ()), list(ranks), played) is not None


def exact_solution(state: GameState) -> list[Move] | None:
    """A winning move list from ``state`` found by the exhaustive search, or None if no play wins.

    Plays are written ``t3 f`` (the engine puts the card on the first foundation that takes it —
    which one does not matter, as the foundations build regardless of suit) and deals ``s``.
    """
    piles = tuple(tuple(c.rank for c in state.piles[t].cards) for t in state.names("tableau"))
    stock = [c.rank for c in reversed(state.piles["s"].cards)]
    played = [0] * 15
    for f in state.names("foundation"):
        for c in state.piles[f].cards:
            played[c.rank] += 1
    path = _search(piles, stock, played)
    if path is None:
        return None
    return [Move("stock") if i < 0 else Move("move", (f"t{i + 1}", "f")) for i in path]


def _search(piles: tuple[tuple[int, ...], ...], stock: list[int], played: list[int]) -> list[int] | None:
    """Depth-first search over the player's choices; the path as pile indexes (−1 = deal).

    A position is the piles and how much of the stock was dealt; how high the foundations stand
    follows from it (the number of foundations at height ≥ r is the number of rank-r cards
    played, since they build regardless of suit), so positions already searched are remembered by
    piles and stock position alone.  The search deals only when no play is left.
    """
    seen: set[tuple[int, tuple[tuple[int, ...], ...]]] = set()
    played = played[:]
    played[0] = 99
    path: list[int] = []
    width = len(piles)

    def search(j: int, piles: tuple[tuple[int, ...], ...]) -> bool:
        key = (j, piles)
        if key in seen:
            return False
        seen.add(key)
        plays = [i for i, p in enumerate(piles) if p and played[p[-1] - 1] > played[p[-1]]]
        if not plays:
            if j >= len(stock):
                return not any(piles)
            dealt = stock[j:j + width]
            path.append(-1)
            if search(j + width, tuple(p + (dealt[i],) if i < len(dealt) else p
                                       for i, p in enumerate(piles))):
                return True
            path.pop()
            return False
        for i in plays:
            r = piles[i][-1]
            played[r] += 1
            path.append(i)
            if search(j, piles[:i] + (piles[i][:-1],) + piles[i + 1:]):
                return True
            path.pop()
            played[r] -= 1
        return False

    return path if search(0, piles) else None


def deal_ranks(deal_number: int) -> list[int]:
    """The 48 non-ace ranks of a deal in the order Auld Lang Syne deals them."""
    from decks.deals import deal_order

    return [c.rank for c in deal_order("standard", deal_number) if c.rank != 1]
