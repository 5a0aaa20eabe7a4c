"""Playing-card packs, reproducible deals, the solitaire games of our rule texts, and game state
as a deck of punched cards that a 1013 can send.

The public API is what ``__all__`` names (``CHANGELOG.md`` states the version policy): the games
(:func:`game_names`, :func:`get_game`), a :func:`deal` by its shareable number, play on a
:class:`GameState` (:func:`legal_moves`, :func:`apply`), the solver (:func:`solve`), and a game as
punched cards (:func:`punch_game`, :func:`read_game`) — the code ``ibm1013 deal``, ``play`` and
``solve`` run.  The names load when first used (PEP 562), so importing the package costs nothing.

>>> import decks
>>> state = decks.deal("klondike", 617)
>>> [str(move) for move in decks.legal_moves(state)][:2]
['t2 f1', 's']
>>> cards = decks.punch_game(state)
>>> len(cards), decks.read_game(cards) == state
(21, True)
"""

from __future__ import annotations

from collections.abc import Iterable

from emulator.lazy import exports

TYPE_CHECKING = False  # typing is not imported at run time: package tops are on every command's path
if TYPE_CHECKING:
    from decks.engine import (
        GameState,
        IllegalMove,
        Move,
        OptionValue,
        Rules,
        StateDict,
        apply,
        deal,
        game_names,
        get_game,
        legal_moves,
    )
    from decks.solver import SolveResult, solve
    from emulator.card import Card

__all__ = ["GameState", "IllegalMove", "Move", "OptionValue", "Rules", "SolveResult", "StateDict", "apply",
           "deal", "game_names", "get_game", "legal_moves", "punch_game", "read_game", "solve"]

_LAZY = {**dict.fromkeys(["GameState", "IllegalMove", "Move", "OptionValue", "Rules", "StateDict", "apply",
                          "deal", "game_names", "get_game", "legal_moves"], "decks.engine"),
         "SolveResult": "decks.solver", "solve": "decks.solver"}


__getattr__, __dir__ = exports(globals(), _LAZY, __all__)


def punch_game(state: GameState, *, compact: bool = False, label: str | None = None) -> list[Card]:
    """``state`` punched into cards, as ``ibm1013 deal`` writes it: readable text cards (header,
    options, piles, moves, trailer: :mod:`decks.punch`), or with ``compact`` a few bit-packed cards
    (:mod:`decks.compact`).  ``label``: the four characters in columns 73-76 (default: the game's).

    >>> from decks import deal
    >>> cards = punch_game(deal("spiderette", 5), compact=True)
    >>> len(cards), cards[0].text()[72:80]
    (1, 'SPID0001')
    """
    from decks import compact as packed
    from decks import punch

    return packed.encode(state, label) if compact else punch.encode(state, label)


def read_game(cards: Iterable[Card]) -> GameState:
    """The game a deck holds, readable or compact (its trailer checked), as ``ibm1013 play --load``
    reads it; a :class:`~emulator.errors.CardError` names the card that is wrong.

    >>> from decks import deal
    >>> state = read_game(punch_game(deal("klondike", 617)))
    >>> state.game, state.deal_number
    ('klondike', 617)
    """
    from decks.compact import decode_any

    return decode_any(cards)
