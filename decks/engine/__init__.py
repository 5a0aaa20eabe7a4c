"""The rules engine: a game is a rules record plus a few small hooks; play is data in, data out.

How to use it (the API the command line, the card-deck encoder and the solver rely on)::

    from decks import engine
    state = engine.deal("klondike", 617, {"draw": 3})      # a GameState, cards dealt
    moves = engine.legal_moves(state)                       # [Move('t4 f'), Move('s'), …]
    state = engine.apply(state, engine.parse_move("t4 t1"))  # new state; raises IllegalMove
    state = engine.undo(state); state = engine.redo(state)
    engine.is_won(state), engine.is_stuck(state)
    engine.get_game("klondike"), engine.game_names()

**Game state** (:class:`GameState`, a plain mutable dataclass — :func:`apply` returns a new one and
leaves its argument alone): ``game`` (registry name), ``options`` (every option of the game, resolved
to its value: bool, int or str), ``deal_number``, ``piles`` (an ordered ``dict`` name → :class:`Pile`;
a pile is ``cards`` bottom → top plus ``hidden``, the number of face-down cards at the bottom —
in every game of our seeds face-down cards lie under the face-up ones; ``Pile.faces()`` gives
(card, face_up) pairs and ``Pile.from_faces`` builds a pile back), ``redeals`` (redeals used),
``counters`` (per-game integers, e.g. ``deals`` made from the stock, ``base`` rank of Agnes'
foundations), ``history`` (the player's moves since the deal), ``future`` (moves undone, for redo)
and ``rng_state`` (the game's own generator, :class:`decks.deals.GameRandom`, so a loaded game
continues identically).  ``GameState.to_dict()`` / ``GameState.from_dict()`` give a JSON-ready
form with cards as short names.

**Pile names.**  A letter for the pile's role and a number: ``t1`` … tableau, ``f1`` … foundations,
``r1`` … reserve piles; single piles have the letter alone: ``s`` stock (the hand), ``w`` waste,
``d`` discard (completed suits, removed pairs), ``h`` the hand card (the card just turned from the
hand, where a game keeps it playable beside the waste).  Games with rows may add their own letters.

**Move notation** (:func:`parse_move`, ``str(move)``), one move per line, tokens separated by spaces:

=================  ==========================================================================
``t3 f``           top card of tableau 3 to a foundation (the first one that takes it; the
                   move is recorded with the foundation it went to, e.g. ``t3 f2``)
``w t2``           top card of the waste onto tableau 2; ``r5 t1`` from reserve 5
``t1 t4 3``        the top three cards of tableau 1, as a unit, onto tableau 4
``s``              the stock: turn card(s) to the waste, or deal a round onto the piles
``r``              redeal (gather the waste back into the stock, or La Belle Lucie's shuffle)
``x t3 t5``        remove the top cards of tableau 3 and 5 as a pair (``x t2``: one card)
``p c4 2``         a game's special pick (e.g. Labyrinth's last-resort free card): kind letter,
                   pile names, then an optional number
=================  ==========================================================================

The move kinds are ``move`` (a transfer between piles, checked by the engine from the rules
record), ``stock``, ``redeal``, ``remove``, ``pick`` and any a game adds; all but ``move`` are
:class:`Action` hooks of the game.  Illegal moves raise :class:`IllegalMove`, whose message names
the move and the rule that forbids it.

**Rules record** (:class:`Rules`): the piles and their roles, the deal hook, tableau building
(``build`` + ``wrap``), what moves as a unit (``unit``), what fills a space (``space``), the
foundations (``foundation_suit``, ``foundation_alternate``, ``foundation_step``, ``foundation_wrap``,
``foundation_base``), which piles may play where, the actions (stock, redeal, pair removal …),
automatic moves run after every move (``automatic``), extra checks (``check``), the win test, the
options (:class:`Option`, the seed's reading as default) and ``configure`` to derive a variant
record from option values.
Two-pack games use the same record: ``pack='double'``, eight foundations, rows as their own piles.

A game's options may change its piles (``configure`` returns a record with other ``piles``): a
state always has the piles of the record its options give (:func:`configured`).

**Positions by hand**: ``make_state('klondike', {'t1': '-9D 8S 7H', 'f1': 'AH'})`` (face-down cards
with a leading '-'; other piles empty) — for tests, puzzles and the card-deck decoder.  A state's
``options`` dict is fixed once dealt (copies share it).

**For the solver** (:mod:`decks.solver`) a record may add ``useless(state, move)`` (a legal move never
worth trying, left out of ``legal_moves(state, prune=True)``) and ``distance(state)`` (how far from a
win a position looks; smaller is tried first).

**Automatic moves** happen inside :func:`apply` (turning up exposed face-down cards, discarding a
finished suit, …); only the player's moves go into ``history``, so replaying the history from the
deal reproduces the state (that is how :func:`undo` works).

**Where things are.**  This package is the public face: import everything from ``decks.engine``.
The code lives in six modules, each importing only from those listed before it:

* :mod:`decks.engine.registry` — the games by name (:func:`register`, :func:`get_game`,
  :func:`game_names`);
* :mod:`decks.engine.state` — :class:`Pile`, :class:`Move` and its notation, :class:`GameState`,
  :class:`IllegalMove`, pile roles;
* :mod:`decks.engine.rules` — the rules record (:class:`Rules`, :class:`Option`,
  :class:`PileGroup`, :class:`Action`) and :func:`rules_of`;
* :mod:`decks.engine.legality` — tableau building, move units, spaces and foundations: whether a
  move is legal and which rule forbids it (:func:`check_move`), and :func:`is_won`;
* :mod:`decks.engine.dealing` — :func:`deal`, :func:`make_state` and the layout helpers the games'
  deal hooks use;
* :mod:`decks.engine.play` — :func:`apply`, :func:`undo`, :func:`redo`, :func:`replay`,
  :func:`legal_moves`, :func:`is_stuck`, :func:`state_key`, and :func:`stock_deal_check` (the check
  of a stock dealt "only when no move is left").
"""

# Every name below was importable from the single-file decks.engine and stays so (re-exported).
# ruff: noqa: F401
from dataclasses import replace

from decks.engine.dealing import (
    deal,
    deal_cards,
    deal_from_stock,
    deal_rest_to_stock,
    deal_triangle,
    empty_state,
    make_state,
)
from decks.engine.legality import (
    BUILD_RULES,
    SPACE_RULES,
    UNIT_RULES,
    BuildRule,
    builds_on,
    check_move,
    check_transfer,
    default_foundation_accepts,
    foundation_allows,
    foundation_base_rank,
    is_won,
    movable_tail,
    space_allows,
    unit_allows,
)
from decks.engine.play import (
    CYCLE_KINDS,
    apply,
    apply_in_place,
    do_transfer,
    flip_exposed,
    is_stuck,
    legal_moves,
    redeals_left,
    redo,
    replay,
    standard_pack_size,
    state_key,
    stock_deal_check,
    transfer_candidates,
    undo,
)
from decks.engine.registry import game_names
from decks.engine.rules import (
    Action,
    CheckHook,
    DealHook,
    Option,
    PileGroup,
    Rules,
    SolverTuning,
    StateHook,
    configured,
    discard,
    get_game,
    register,
    resolve_options,
    rules_of,
    run_automatic,
    stock,
    waste,
)
from decks.engine.state import (
    KIND_LETTER,
    LETTER_KIND,
    ROLE_OF_PREFIX,
    GameState,
    IllegalMove,
    Move,
    NotUnderstood,
    OptionValue,
    Pile,
    StateDict,
    parse_move,
    parse_moves,
    role_of,
    transfer,
)

__all__ = [
    "Action", "GameState", "IllegalMove", "Move", "NotUnderstood", "Option", "OptionValue", "Pile",
    "PileGroup", "Rules", "SolverTuning", "StateDict",
    "apply", "apply_in_place", "check_move", "deal", "game_names", "get_game", "is_stuck", "is_won",
    "legal_moves", "parse_move", "parse_moves", "redo", "register", "replace", "replay", "rules_of",
    "state_key", "transfer", "undo",
]
