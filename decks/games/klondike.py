"""Klondike, the best-known patience, in the three readings of our rule texts.

The layout: seven tableau piles of 1 … 7 cards, the top card of each face up
("Solitaire Card Game 4").  The other 24 cards are the hand (stock ``s``).  Foundations ``f1``–``f4``
start with the aces and build up in suit to the kings.  On the tableau, face-up cards build down in
alternating colours (a red 6 on a black 7).  When a face-down card is uncovered it is turned up at
once.  A space (empty pile) takes only a king or a build headed by a king.  From the hand, cards are
turned onto the waste ``w``; the top waste card can be played.

Which variant (``docs/games.md`` rows 1–3):

* ``klondike`` (row 1, seed 004): one card at a time from the hand, **no redeal**; only the whole
  face-up part of a pile moves as a unit (a single top card may still go to a foundation).
* ``klondike-flip3`` (row 2, seed 004): three cards at a time, unlimited redeals.
* ``klondike-online`` (row 3, seed 003): one at a time, unlimited redeals in the same order, any
  face-up tail may move, kings only into spaces.

Options (all three games accept all of them; defaults as above):
``draw`` (1 or 3), ``redeals`` (a number or ``unlimited``), ``partial_moves`` (move any face-up
tail), ``space`` (``king``: a king or a build headed by one; ``king-only``: a lone king),
``auto_foundation`` (every card that can go to a foundation goes there automatically).
"""

from __future__ import annotations

from collections.abc import Mapping

from decks.engine import (
    Action,
    GameState,
    Move,
    Option,
    OptionValue,
    PileGroup,
    Rules,
    SolverTuning,
    register,
    replace,
    rules_of,
)
from decks.engine.dealing import deal_rest_to_stock, deal_triangle
from decks.engine.legality import check_transfer, foundation_allows
from decks.engine.play import do_transfer, flip_exposed, redeals_left
from decks.engine.rules import stock, waste
from decks.packs import PlayingCard
from emulator.errors import IbmError

# ---- the hand: turn cards to the waste, and redeal ----


def turned(state: GameState) -> list[PlayingCard]:
    """The cards turned from the hand so far, in turning order: the waste, then the hand card ``h``
    of the games that keep one (Indian, Limited, Lucas: :mod:`decks.games.two_pack`)."""
    held = state.piles.get("h")
    return state.piles["w"].cards + (held.cards if held is not None else [])


def check_turn(state: GameState, move: Move) -> str | None:
    if move.piles or move.count != 1:
        return "'s' takes no piles or count"
    if not state.piles["s"].cards:
        if turned(state) and redeals_left(state, state.options["redeals"]):
            return "the hand is empty: redeal with 'r'"
        return "the hand is empty"
    return None




def turn(state: GameState, move: Move) -> None:
    """Turn ``draw`` cards (or what is left) one by one from the hand onto the waste, face up."""
    hand, pile = state.piles["s"], state.piles["w"]
    for _ in range(min(int(state.options["draw"]), len(hand.cards))):
        pile.cards.append(hand.cards.pop())
    hand.hidden = len(hand.cards)




def check_redeal(state: GameState, move: Move) -> str | None:
    if move.piles or move.count != 1:
        return "'r' takes no piles or count"
    allowed = state.options["redeals"]
    if not redeals_left(state, allowed):
        return "no redeal is allowed" if allowed == 0 else f"only {allowed} redeal(s) are allowed"
    if state.piles["s"].cards:
        return "redeal only when the hand is used up"
    if not turned(state):
        return "the waste is empty; there is nothing to redeal"
    return None


def redeal(state: GameState, move: Move) -> None:
    """Turn the turned cards (:func:`turned`) over to make the hand again, so the cards come round
    in the same order."""
    hand = state.piles["s"]
    hand.cards = turned(state)[::-1]
    hand.hidden = len(hand.cards)
    for name in ("w", "h"):
        if name in state.piles:
            state.piles[name].cards = []
    state.redeals += 1




def _single(kind: str) -> list[Move]:
    return [Move(kind)]


# ---- automatic play to the foundations (online option) ----


def auto_foundation(state: GameState) -> None:
    """Move every top card that fits a foundation there, until none does."""
    rules = rules_of(state)
    progress = True
    while progress:
        progress = False
        for src in [n for n in state.piles if n[0] in "tw"]:
            if not state.piles[src].cards:
                continue
            for f in state.names("foundation"):
                m = Move("move", (src, f))
                if check_transfer(rules, state, m) is None:
                    do_transfer(state, m)
                    flip_exposed(state)
                    progress = True
                    break


# ---- hints for the solver ----


def king_waiting(state: GameState) -> bool:
    """Is there a king that a space could help: anywhere but at the bottom of a pile?"""
    for name, pile in state.piles.items():
        if name[0] in "sw":
            if any(c.rank == 13 for c in pile.cards):
                return True
        elif name[0] == "t":
            if any(c.rank == 13 for c in pile.cards[1:]):
                return True
    return False


def useless(state: GameState, move: Move) -> bool:
    """Moves the solver leaves out: emptying a pile onto another pile when no king could use the
    space, and (with partial moves) splitting a build unless the card it uncovers can go home."""
    src = state.piles[move.src]
    if move.src[0] != "t":
        return False
    below = len(src.cards) - move.count - 1
    if below >= src.hidden:                 # a partial move: face-up cards stay behind
        rules = rules_of(state)
        return not any(foundation_allows(rules, state, f, src.cards[below]) is None
                       for f in state.names("foundation"))
    if move.count != len(src.cards) or not state.piles[move.dst].cards:
        return False
    return not king_waiting(state)




def distance(state: GameState) -> int:
    """Cards not yet home, each face-down tableau card counted four times (turning them up is what
    wins Klondike)."""
    total = 0
    for name, pile in state.piles.items():
        if name[0] != "f":
            total += len(pile.cards) + 3 * pile.hidden * (name[0] == "t")
    return total




def deal_klondike(state: GameState, cards: list[PlayingCard]) -> None:
    deal_triangle(state, cards, "t", 7)
    deal_rest_to_stock(state, cards)


def configure(rules: Rules, options: Mapping[str, OptionValue]) -> Rules:
    if options["draw"] not in (1, 3):
        raise IbmError(f"option draw={options['draw']}: Klondike turns 1 or 3 cards at a time")
    automatic = (flip_exposed, auto_foundation) if options["auto_foundation"] else (flip_exposed,)
    return replace(rules, unit="tail" if options["partial_moves"] else "face-up", space=str(options["space"]),
                   automatic=automatic)


def _options(draw: int, redeals: int | str, partial: bool) -> tuple[Option, ...]:
    return (
        Option("draw", draw, "int", help="cards turned from the hand at a time (1 or 3)"),
        Option("redeals", redeals, "count", help="times the waste may be turned back into the hand"),
        Option("partial_moves", partial, help="any face-up tail may move, not only the whole face-up part"),
        Option("space", "king", "choice", ("king", "king-only"),
               help="king: a king or a build headed by one fills a space; king-only: a lone king"),
        Option("auto_foundation", False, help="cards that fit a foundation go there automatically"),
    )


SOLVER = SolverTuning(turn="draw", turn_check="hand-left", redeal="gather", useless="king-space",
                      measure="face-down",
                      changed_since=("2026-12-05b", "2026-12-05", "2026-12-04d", "2026-12-04c", "2026-12-04b",
                                     "2026-12-04", "2026-12-03e", "2026-12-03d", "2026-12-03c", "2026-12-03b",
                                     "2026-12-03", "2026-12-02", "2026-12-01"))
"""How the solver searches the Klondike games: it turns the stock, redeals and judges the moves
never worth trying (:func:`useless`) itself, and measures by :func:`distance` natively."""
PRELUDE = 4000
"""Flip 3's prelude (``SolverTuning.prelude``): each of its first three rounds of runs (1,000, 2,000
and 4,000 positions, 7,000 in all) starts with a best-first run, measured by buried cards.  Best first
finds at once some wins that the depth-first orders lose themselves in (flip 3 deal 50: won in 3,272
positions, undecided at 50,000 without), but proves a loss only by reaching every position; a prelude
this small costs the depth-first runs little (deals 1–1,000 at 50,000 positions a deal: 38 more deals
decided, 7 fewer)."""


def _klondike(name: str, title: str, seed: str, row: int, options: tuple[Option, ...], notes: str,
              solver: SolverTuning = SOLVER) -> Rules:
    return Rules(
        name=name, title=title, seed=seed, row=row,
        piles=(PileGroup("t", 7), PileGroup("f", 4), stock(), waste()),
        deal=deal_klondike, build="alt-down", unit="face-up", space="king",
        to_foundation=("tableau", "waste"), to_tableau=("tableau", "waste"),
        actions={"stock": Action(check_turn, turn, lambda s: _single("stock")),
                 "redeal": Action(check_redeal, redeal, lambda s: _single("redeal"))},
        automatic=(flip_exposed,), options=options, configure=configure, useless=useless,
        distance=distance, notes=notes, solver=solver,
    )


KLONDIKE = register(_klondike("klondike", "Klondike", "004", 1, _options(1, 0, False),
                                "7 piles 1-7, top up; down in alternating colours; whole face-up part "
                                "moves; kings into spaces; turn one, no redeal."))
KLONDIKE_FLIP3 = register(_klondike("klondike-flip3", "Klondike (flip 3)", "004", 2,
                                    _options(3, "unlimited", False),
                                    "As Klondike, but three at a time to the waste, unlimited redeals.",
                                    replace(SOLVER, prelude=PRELUDE)))
KLONDIKE_ONLINE = register(_klondike("klondike-online", "Klondike (online rules)", "003", 3,
                                     _options(1, "unlimited", True),
                                     "Turn one, unlimited redeals in the same order, any face-up tail moves, "
                                     "kings only into spaces."))

