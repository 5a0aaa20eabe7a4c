"""Spiderette and Will o' the Wisp: one-pack Spider (the encyclopedia articles; ``docs/games.md`` rows 4–5).

Seven tableau piles.  Cards build down regardless of suit (a 6 of any suit on any 7), but only a
run that is also in one suit (9-8-7-6 of hearts) moves as a unit.  Exposed face-down cards are
turned up; any card or run may go into a space.  The stock ``s`` deals one card face up onto each
pile, but only when no pile is empty; the last three cards go onto piles 1–3.  A full run king → ace
in one suit is discarded to ``d`` (automatically; with ``auto_discard=false`` by the move ``x tN``).
The game is won when all four suits are discarded.  There are no foundations to build on.

* Spiderette: the Klondike layout of 28 cards (pile i holds i cards, the top one face up);
  24 in the stock: three deals of 7, then 3.
* Will o' the Wisp: seven piles of three, only the top card face up; 31 in the stock: four deals of
  7, then 3.
"""

from __future__ import annotations

from typing import Final

from decks.engine import Action, GameState, Move, Option, PileGroup, Rules, SolverTuning, register
from decks.engine.dealing import deal_cards, deal_from_stock, deal_rest_to_stock, deal_triangle
from decks.engine.play import flip_exposed
from decks.engine.rules import DealHook, discard, stock
from decks.packs import PlayingCard

# ---- the stock deals a round ----


def check_deal_round(state: GameState, move: Move) -> str | None:
    if move.piles or move.count != 1:
        return "'s' takes no piles or count"
    if not state.piles["s"].cards:
        return "the stock is used up"
    if any(not state.piles[t].cards for t in state.names("tableau")):
        return "a new round is dealt only when no pile is empty"
    return None


def deal_round(state: GameState, move: Move) -> None:
    """One card face up onto each pile in turn (the last short round onto the first piles)."""
    deal_from_stock(state, state.names("tableau"))
    state.counters["deals"] = state.counters.get("deals", 0) + 1




# ---- discarding a finished suit ----


def complete_suit_at_top(cards: list[PlayingCard], hidden: int) -> bool:
    """True if the top 13 cards are face up and run king → ace in one suit."""
    if len(cards) - hidden < 13:
        return False
    run = cards[-13:]
    return all(c.suit == run[0].suit and c.rank == 13 - i for i, c in enumerate(run))


def check_discard(state: GameState, move: Move) -> str | None:
    if len(move.piles) != 1 or move.piles[0] not in state.names("tableau"):
        return "'x' names one tableau pile"
    p = state.piles[move.piles[0]]
    if not complete_suit_at_top(p.cards, p.hidden):
        return "only a full king-to-ace run in one suit is discarded"
    return None


def do_discard(state: GameState, move: Move) -> None:
    state.piles["d"].cards.extend(state.piles[move.piles[0]].take(13))


def discard_moves(state: GameState) -> list[Move]:
    return [Move("remove", (t,)) for t in state.names("tableau")]




def auto_discard(state: GameState) -> None:
    """Automatic move (option ``auto_discard``): discard every finished suit, then turn up cards."""
    if state.options.get("auto_discard", True):
        for name in state.names("tableau"):
            p = state.piles[name]
            while complete_suit_at_top(p.cards, p.hidden):
                state.piles["d"].cards.extend(p.take(13))
    flip_exposed(state)




# ---- hints for the solver ----


def _in_suit(under: PlayingCard, on: PlayingCard) -> bool:
    return under.suit == on.suit and under.rank == on.rank + 1


def useless(state: GameState, move: Move) -> bool:
    """Moving a run off the card of its own suit one rank higher never helps in a one-pack game
    (there is no second card of that suit and rank to go to)."""
    src = state.piles[move.src]
    at = len(src.cards) - move.count
    if at <= src.hidden:
        return False
    return _in_suit(src.cards[at - 1], src.cards[at])




def distance(state: GameState) -> int:
    """Cards not discarded, face-down cards three times more, and each break in a same-suit run
    counted twice (so the stock is dealt only when that pays)."""
    total = 52 - len(state.piles["d"].cards)
    for name in state.names("tableau"):
        p = state.piles[name]
        total += 3 * p.hidden
        up = p.cards[p.hidden:]
        total += sum(2 for a, b in zip(up, up[1:], strict=False) if not _in_suit(a, b))
    return total




# ---- the two layouts ----


def deal_spiderette(state: GameState, cards: list[PlayingCard]) -> None:
    deal_triangle(state, cards, "t", 7)
    deal_rest_to_stock(state, cards)


def deal_will_o_the_wisp(state: GameState, cards: list[PlayingCard]) -> None:
    for row in range(3):
        for i in range(1, 8):
            deal_cards(state, cards, f"t{i}", 1, face_up=(row == 2))
    deal_rest_to_stock(state, cards)


SPIDER_ORDERS: Final = ("best", "old")
"""The move orders the solver's restarts go over in the Spider games:

* *best* — best first: of every position reached and not yet expanded, the one that looks closest
  to a win (cards not discarded, five per face-down card, two per break in a same-suit run:
  :meth:`decks.solver.measures.Measures.spider_distance`) is expanded next, whichever branch it lies
  in.  The run is resumable: its frontier is kept from one of its runs to the next, so each
  continues where the last stopped;
* *old* — the depth-first old order (:data:`decks.solver.search.ORDERS`).

A depth-first search in these games spends its budget deep in the first branch it tries, where a
face-down card turned up early decides the deal; best first spreads it over every branch."""
SOLVER = SolverTuning(useless="in-suit", actions=(("stock", "deal-round"), ("remove", "discard-run")),
                      discard="auto_discard", measure="suit-runs", orders=SPIDER_ORDERS,
                      free_seconds_per_node=1.5e-6, changed_since=("2026-12-02", "2026-12-01"))
"""How the solver searches the Spider games: it deals, discards and judges the moves never worth
trying (:func:`useless`) itself, measures by :func:`distance` natively, and restarts over
:data:`SPIDER_ORDERS` (its best-first runs keep every position they reach, so freeing them takes
longer: 0.31-1.26 µs a position, measured compiled)."""


def _spider(name: str, title: str, row: int, deal: DealHook, notes: str) -> Rules:
    return Rules(
        name=name, title=title, seed="000", row=row,
        piles=(PileGroup("t", 7), stock(), discard()),
        deal=deal, build="any-down", unit="suit-run", space="any",
        to_foundation=(), to_tableau=("tableau",),
        actions={"stock": Action(check_deal_round, deal_round, lambda s: [Move("stock")]),
                 "remove": Action(check_discard, do_discard, discard_moves)},
        automatic=(auto_discard,), useless=useless, distance=distance, notes=notes, solver=SOLVER,
        symmetric=False,        # the stock deals onto the piles in order, so their places matter
        options=(Option("auto_discard", True, help="a finished king-to-ace suit is discarded at once"),),
    )


SPIDERETTE = register(_spider("spiderette", "Spiderette", 4, deal_spiderette,
                                "Klondike layout; build down any suit, suit runs move; deal 7 when no "
                                "pile is empty; discard K-A suits."))
WILL_O_THE_WISP = register(_spider("will-o-the-wisp", "Will o' the Wisp", 5, deal_will_o_the_wisp,
                                     "As Spiderette, but 7 piles of 3 with the top card up; stock 31."))
