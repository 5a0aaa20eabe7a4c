"""La Belle Lucie, "the fan" ("Solitaire Card Game 4"; ``docs/games.md`` row 19).

The pack is dealt into seventeen fans of three face-up cards and one single card (``t1``–``t18``).
The aces go to foundations ``f1``–``f4`` as they become available and build up in suit to kings.
Only the top card of a fan moves, one at a time, onto a foundation or onto another fan's top card
one rank higher in the same suit.  A fan that is used up is never refilled.

Two redeals (``r``; option ``redeals``): all cards not on the foundations are picked up (fans in
order, each from the bottom up), shuffled with the game's own generator (so the deal number fixes
the redeals too) and dealt again in fans of three, with one or two odd cards in a last fan.
"""

from __future__ import annotations

from decks.engine import Action, GameState, Move, Option, PileGroup, Rules, SolverTuning, register
from decks.engine.dealing import deal_cards
from decks.engine.play import redeals_left
from decks.packs import PlayingCard


def deal_fans(state: GameState, cards: list[PlayingCard]) -> None:
    """Fans of three onto t1, t2, …; one or two odd cards make a last fan."""
    i = 1
    while cards:
        deal_cards(state, cards, f"t{i}", min(3, len(cards)), face_up=True)
        i += 1


def check_redeal(state: GameState, move: Move) -> str | None:
    if move.piles or move.count != 1:
        return "'r' takes no piles or count"
    allowed = state.options["redeals"]
    if not redeals_left(state, allowed):
        return f"only {allowed} redeal(s) are permitted"
    if not any(state.piles[t].cards for t in state.names("tableau")):
        return "there are no cards left to redeal"
    return None




def redeal(state: GameState, move: Move) -> None:
    """Gather the fans, shuffle with the game's generator, deal again in threes."""
    gathered: list[PlayingCard] = []
    for name in state.names("tableau"):
        gathered.extend(state.piles[name].take(len(state.piles[name].cards)))
    rng = state.rng()
    shuffled = rng.shuffle(gathered)
    state.save_rng(rng)
    deal_fans(state, shuffled)
    state.redeals += 1


LA_BELLE_LUCIE = register(Rules(
    name="la-belle-lucie", title="La Belle Lucie", seed="004", row=19,
    piles=(PileGroup("t", 18), PileGroup("f", 4)),
    deal=deal_fans, build="suit-down", unit="one", space="none",
    to_foundation=("tableau",), to_tableau=("tableau",),
    actions={"redeal": Action(check_redeal, redeal, lambda s: [Move("redeal")])},
    options=(Option("redeals", 2, "count", help="how many times the fans may be gathered and redealt"),),
    symmetric=False,
    solver=SolverTuning(redeal_check="redeals-left",
                        changed_since=("2026-12-03", "2026-12-02", "2026-12-01")),
    notes="17 fans of 3 and 1 card; build down in suit, one card; spaces never filled; two shuffled redeals.",
))
