"""Louis (``docs/games.md`` row 22), a slightly easier St. Helena.

Two packs (``double``, 104 cards; :mod:`decks.packs` gives the order, :mod:`decks.deals` the
shuffle).  One ace and one king of each suit are set out first (the first copy of each in dealing
order): foundations ``f1``–``f4`` (aces, C D H S) build up in suit to the kings, ``f5``–``f8``
(kings) build down in suit to the aces.

The other 96 cards are dealt one at a time round twelve piles ``t1``–``t12``, all face up.  During
the deal of the first twelve cards a card that fits a foundation is played there at once, and the
pile it would have gone to is skipped in that round (option ``first_deal_to_foundations``, on).

After the deal the top card of each pile plays to a foundation or onto another pile: building is in
suit, up **or** down, not round the corner (only a two goes on an ace, only a queen on a king); one
card at a time.  A space may be filled by any top card of the tableau.

Two redeals (option ``redeals``), at any time: ``r`` picks the piles up in order — ``t1`` first,
each pile from the bottom card to the top — and deals them again one at a time round the twelve
piles (no automatic foundation play this time).
"""

from __future__ import annotations

from decks.engine import Action, GameState, Move, Option, PileGroup, Rules, SolverTuning, register
from decks.engine.dealing import deal_cards
from decks.games.la_belle_lucie import check_redeal
from decks.games.two_pack import ace_king_accepts, set_out, tidy_distance
from decks.packs import PlayingCard

PILES = 12


def _home(state: GameState, c: PlayingCard) -> str | None:
    for f in state.names("foundation"):
        if ace_king_accepts(state, f, c) is None:
            return f
    return None


def deal_louis(state: GameState, cards: list[PlayingCard]) -> None:
    set_out(state, cards, "AK")
    auto = state.options["first_deal_to_foundations"]
    for i in range(len(cards)):
        home = _home(state, cards[0]) if auto and i < PILES else None
        if home is not None:
            state.piles[home].cards.append(cards.pop(0))
        else:
            deal_cards(state, cards, f"t{i % PILES + 1}", 1, face_up=True)


def redeal(state: GameState, move: Move) -> None:
    """Gather t1 … t12 (each bottom to top) and deal them one at a time round the twelve piles."""
    names = state.names("tableau")
    cards = [c for t in names for c in state.piles[t].cards]
    for t in names:
        state.piles[t].cards = []
    for i, c in enumerate(cards):
        state.piles[names[i % PILES]].cards.append(c)
    state.redeals += 1


LOUIS = register(Rules(
    name="louis", title="Louis", seed="004", row=22,
    piles=(PileGroup("t", PILES), PileGroup("f", 8)),
    deal=deal_louis, pack="double", build="suit-updown", unit="one", space="any",
    to_foundation=("tableau",), to_tableau=("tableau",), foundation_accepts=ace_king_accepts,
    actions={"redeal": Action(check_redeal, redeal, lambda s: [Move("redeal")])},
    options=(Option("redeals", 2, "count", help="times the piles may be gathered and dealt again"),
             Option("first_deal_to_foundations", True,
                    help="cards that fit a foundation during the first twelve go there, skipping "
                         "their pile")),
    distance=tidy_distance,
    solver=SolverTuning(redeal_check="redeals-left", foundations="ace-king", measure="tidy"),
    symmetric=False,        # a redeal gathers the piles in order, so their places matter
    notes="Two packs; an ace and a king of each suit out; 12 piles; build up or down in suit, one card; "
          "any tableau card into a space; two redeals.",
))
