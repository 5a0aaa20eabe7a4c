"""Mount Olympus (``docs/games.md`` row 13).

Two packs (``double``, 104 cards; order in :mod:`decks.packs`, shuffle in :mod:`decks.deals`).  All
sixteen aces and twos are set out as foundations (the aces on ``f1``–``f8``, the twos on
``f9``–``f16``, each eight in suit order C D H S twice).  They build up in suit by twos: on an ace
3 5 7 9 J K (seven cards), on a two 4 6 8 T Q (six).  Won when every card is on a foundation, the
kings and queens on top.

Nine cards start the nine tableau piles ``t1``–``t9`` (the text's inverted V is only their
picture).  The tableau builds down in suit by twos (a 5 on the 7 of its suit); a run built that
way (6 8 T of clubs) moves as a unit.  A gap is filled at once from the stock while it lasts;
after that spaces stay empty.  ``s`` deals nine more, one on each pile, whenever the player likes
(option ``deal_when_stuck`` makes it wait until no move is left).
"""

from __future__ import annotations

from decks.engine import Action, GameState, Move, Option, PileGroup, Rules, SolverTuning, register, rules_of
from decks.engine.dealing import deal_cards, deal_from_stock, deal_rest_to_stock
from decks.engine.play import stock_deal_check, transfer_candidates
from decks.engine.rules import stock
from decks.games.two_pack import foundation_suit, gap_filler, set_out, tidy_distance
from decks.packs import STANDARD_RANKS, PlayingCard

PILES = 9


def deal_mount_olympus(state: GameState, cards: list[PlayingCard]) -> None:
    set_out(state, cards, "AA22")
    for i in range(1, PILES + 1):
        deal_cards(state, cards, f"t{i}", 1, face_up=True)
    deal_rest_to_stock(state, cards)


def accepts(state: GameState, name: str, c: PlayingCard) -> str | None:
    """In suit, up by two: an ace foundation ends with its king, a two foundation with its queen."""
    suit = foundation_suit(name)
    if c.suit != suit:
        return f"{name} takes only {suit} cards (foundations are built in suit)"
    cards = state.piles[name].cards
    if not cards:
        return "the foundations are set out at the deal"
    top = cards[-1]
    if top.rank >= 12:
        return "that foundation is complete"
    if c.rank != top.rank + 2:
        return (f"{name} takes the {STANDARD_RANKS[top.rank + 1]}{suit} next (foundations build up by "
                "twos: 3 on the ace, 4 on the two …)")
    return None




fill_gaps = gap_filler()
"""Automatic move: an empty pile takes the next stock card at once while the stock lasts."""


check_deal = stock_deal_check(lambda s: transfer_candidates(rules_of(s), s),
                              "a new deal of nine comes only when no move is left (option deal_when_stuck)")


def deal_nine(state: GameState, move: Move) -> None:
    """One card face up on each of the nine piles (fewer if the stock runs out)."""
    deal_from_stock(state, state.names("tableau"))


MOUNT_OLYMPUS = register(Rules(
    name="mount-olympus", title="Mount Olympus", seed="000", row=13,
    piles=(PileGroup("t", PILES), PileGroup("f", 16), stock()),
    deal=deal_mount_olympus, pack="double", build="suit-down-2", unit="built-run", space="none",
    to_foundation=("tableau",), to_tableau=("tableau",), foundation_accepts=accepts,
    actions={"stock": Action(check_deal, deal_nine, lambda s: [Move("stock")])},
    automatic=(fill_gaps,), distance=tidy_distance,
    solver=SolverTuning(foundations="by-top", fill="tableau", measure="tidy"),
    options=(Option("deal_when_stuck", False, help="deal nine only when no move is left"),),
    symmetric=False,        # the stock deals onto the piles in order
    notes="Two packs; all aces and twos out, up in suit by twos; 9 piles down in suit by twos, runs move; "
          "gaps filled from the stock; deal 9 at will.",
))
