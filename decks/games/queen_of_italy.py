"""Queen of Italy, also called Terrace (``docs/games.md`` row 10).

Two packs (``double``, 104 cards; order in :mod:`decks.packs`, shuffle in :mod:`decks.deals`).
Eleven cards are dealt overlapping as the terrace ``r1`` (face up; only its top card is
available, and only to a foundation).  Four cards go to the tableau ``t1``–``t4``.

* **The choice** (``p t3``): before anything else the player chooses one of the four to start the
  first foundation ``f1``; its rank is the **base** (counter ``base``).  Its gap is filled from the
  stock and five more cards make the nine piles ``t1``–``t9``.
* The foundations ``f1``–``f8`` start with a card of the base rank and build up in alternating
  colours, round the corner (king, ace, two …), thirteen cards each.
* The tableau builds down in alternating colours, one card at a time (only the top card of a pile
  is available).  Option ``tableau_wrap`` lets the tableau build round the corner too (the text
  says so only of the foundations).
* A gap is filled at once: from the stock until the first card has been turned to the waste, from
  the waste's top card after that (from the stock while the waste is empty).
* ``s`` turns one card onto the waste ``w``, whose top card plays to a foundation or the tableau.
  The player may turn a card at any time (the text's "when there are no more possible moves"
  describes when one would, not a rule it states).  There is no redeal; the game ends when play is
  stuck after the stock is out.
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
)
from decks.engine.dealing import deal_cards, deal_rest_to_stock
from decks.engine.rules import stock, waste
from decks.games.two_pack import fill_from_stock, hand_actions, redeals_option, tidy_distance
from decks.packs import PlayingCard

TERRACE = 11
FIRST = ("t1", "t2", "t3", "t4")


def deal_queen_of_italy(state: GameState, cards: list[PlayingCard]) -> None:
    deal_cards(state, cards, "r1", TERRACE, face_up=True)
    for name in FIRST:
        deal_cards(state, cards, name, 1, face_up=True)
    deal_rest_to_stock(state, cards)
    state.counters.update(base=0, turned=0)


def chosen(state: GameState) -> bool:
    return state.counters.get("base", 0) > 0


def check_choice(state: GameState, move: Move) -> str | None:
    if chosen(state):
        return "the first foundation's base has already been chosen"
    if len(move.piles) != 1 or move.count != 1 or move.src not in FIRST:
        return "choose the first foundation's card from t1-t4, e.g. 'p t3'"
    return None


def choose(state: GameState, move: Move) -> None:
    """The chosen card starts f1 and sets the base; its gap is filled and five more piles dealt."""
    c = state.piles[move.src].cards.pop()
    state.piles["f1"].cards.append(c)
    state.counters["base"] = c.rank
    fill_from_stock(state, state.names("tableau"))


def choice_moves(state: GameState) -> list[Move]:
    return [] if chosen(state) else [Move("pick", (t,)) for t in FIRST]


def check(state: GameState, move: Move, moving: list[PlayingCard]) -> str | None:
    if not chosen(state):
        return "first choose the first foundation's card from t1-t4 ('p tN')"
    return None


def fill_gaps(state: GameState) -> None:
    """Automatic move: a gap takes the stock's next card, or the waste's top once cards are turned."""
    if not chosen(state):
        return
    for name in state.names("tableau"):
        pile = state.piles[name]
        if pile.cards:
            continue
        if state.counters.get("turned") and state.piles["w"].cards:
            pile.cards.append(state.piles["w"].cards.pop())
        else:
            fill_from_stock(state, [name])


def _check_turn(state: GameState, move: Move) -> str | None:
    if not chosen(state):
        return "first choose the first foundation's card from t1-t4 ('p tN')"
    return hand_actions()["stock"].check(state, move)


def _turn(state: GameState, move: Move) -> None:
    hand_actions()["stock"].run(state, move)
    state.counters["turned"] = 1


def configure(rules: Rules, options: Mapping[str, OptionValue]) -> Rules:
    return replace(rules, wrap=bool(options["tableau_wrap"]))


QUEEN_OF_ITALY = register(Rules(
    name="queen-of-italy", title="Queen of Italy (Terrace)", seed="000", row=10,
    piles=(PileGroup("r", 1), PileGroup("t", 9), PileGroup("f", 8), stock(), waste()),
    deal=deal_queen_of_italy, pack="double", build="alt-down", unit="one", space="any",
    to_foundation=("reserve", "tableau", "waste"), to_tableau=("tableau", "waste"),
    foundation_suit=False, foundation_alternate=True, foundation_wrap=True, foundation_base=0,
    check=check,
    actions={"pick": Action(check_choice, choose, choice_moves),
             "stock": Action(_check_turn, _turn, lambda s: [Move("stock")]),
             "redeal": hand_actions()["redeal"]},
    automatic=(fill_gaps,), configure=configure, distance=tidy_distance,
    solver=SolverTuning(redeal="gather", measure="tidy"),
    options=(redeals_option(0),
             Option("tableau_wrap", False,
                    help="the tableau also builds round the corner (ace on two, king on ace)")),
    notes="Two packs; 11-card terrace; choose the first foundation's base from 4 cards; foundations up in "
          "alternating colours round the corner; 9 piles down alternating, one card; gaps filled at once.",
))
