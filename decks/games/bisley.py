"""Bisley (the encyclopedia article; ``docs/games.md`` row 9).

The four aces go out as foundations ``f1``–``f4`` (C D H S), building **up** in suit.  The other 48
cards are laid out face up in thirteen columns ``t1``–``t13``: four columns of three under the aces
(``t1``–``t4``) and nine of four to their right (``t5``–``t13``) — the same as four rows of thirteen
whose first row begins with the aces, and that is the order they are dealt in.

* Only the exposed (top) card of a column is available, and only one card moves at a time.
* The tableau builds up **or** down in suit (a 7♥ on a 6♥ or an 8♥).
* An emptied column stays empty for the rest of the game.
* A king that becomes available may start a foundation of its own above its ace (``f5``–``f8``,
  C D H S) that builds **down** in suit.  A card may go on either foundation of its suit, and the
  two may meet anywhere.

Won when all 52 cards are on the foundations.
"""

from __future__ import annotations

from decks.engine import GameState, PileGroup, Rules, SolverTuning, register
from decks.engine.dealing import deal_cards
from decks.games.auld_lang_syne import FOUNDATION_SUITS, take_out_aces
from decks.games.two_pack import rank_rule
from decks.packs import PlayingCard

ACE_FOUNDATIONS = ("f1", "f2", "f3", "f4")
KING_FOUNDATIONS = ("f5", "f6", "f7", "f8")


def foundation_suit(name: str) -> str:
    """The suit of foundation ``f1`` … ``f8`` (C D H S, then C D H S for the kings)."""
    return FOUNDATION_SUITS[(int(name[1:]) - 1) % 4]


def deal_bisley(state: GameState, cards: list[PlayingCard]) -> None:
    """Aces out; then row 1 across columns 5–13 and rows 2–4 across all thirteen columns."""
    take_out_aces(state, cards)
    for c in range(5, 14):
        deal_cards(state, cards, f"t{c}", 1, face_up=True)
    for _ in range(3):
        for c in range(1, 14):
            deal_cards(state, cards, f"t{c}", 1, face_up=True)


def accepts(state: GameState, name: str, c: PlayingCard) -> str | None:
    """Ace foundations build up in suit; king foundations start with their king and build down."""
    suit = foundation_suit(name)
    if c.suit != suit:
        return f"{name} takes only {suit} cards (foundations are built in suit)"
    pile = state.piles[name]
    if name in KING_FOUNDATIONS:
        if not pile.cards:
            return None if c.rank == 13 else f"{name} starts with the king of its suit"
        want = pile.cards[-1].rank - 1
        return None if c.rank == want else rank_rule(name, want, suit, False)
    if not pile.cards:
        return "an ace foundation starts with its ace"
    want = pile.cards[-1].rank + 1
    return None if c.rank == want else rank_rule(name, want, suit, True)




def render(state: GameState) -> str:
    """Foundations on two lines (aces up, kings down), then the thirteen columns."""
    def top(n: str) -> str:
        p = state.piles[n]
        return str(p.cards[-1]) if p.cards else "--"

    lines = ["kings down: " + "  ".join(f"{n}:{top(n)}" for n in KING_FOUNDATIONS),
             "aces up:    " + "  ".join(f"{n}:{top(n)}" for n in ACE_FOUNDATIONS)]
    for n in state.names("tableau"):
        lines.append(f"{n:>4}: " + " ".join(str(c) for c in state.piles[n].cards))
    return "\n".join(lines)


BISLEY = register(Rules(
    name="bisley", title="Bisley", seed="000", row=9,
    piles=(PileGroup("t", 13), PileGroup("f", 8)),
    deal=deal_bisley, build="suit-updown", unit="one", space="none",
    to_foundation=("tableau",), to_tableau=("tableau",),
    foundation_accepts=accepts, solver=SolverTuning(foundations="by-top"),
    notes="Aces out; 13 columns (4 of 3, 9 of 4) face up; build up or down in suit; kings start "
          "downward foundations; spaces never filled.",
))
