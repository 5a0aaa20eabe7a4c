"""Play: making moves, undo and redo, listing the legal moves, and the tests the solver leans on.

:func:`apply` checks a move (:func:`~decks.engine.legality.check_move`), performs it on a copy
of the state, runs the game's automatic moves and records it in the history; :func:`undo`
replays that history from the deal, so only the player's moves are ever stored.
:func:`legal_moves` lists every legal move (transfers, then the game's own actions), pruned for the
solver on request; :func:`is_stuck` looks round the stock for any other move; :func:`state_key`
reduces a position to a hashable key so the solver can tell positions it has seen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from decks.engine.dealing import deal
from decks.engine.legality import (
    BUILD_RULES,
    check_move,
    check_transfer,
    foundation_allows,
    is_won,
    movable_tail,
    space_allows,
)
from decks.engine.rules import Rules, rules_of, run_automatic
from decks.engine.state import GameState, IllegalMove, Move, parse_move, role_of
from decks.packs import pack
from emulator.errors import IbmError

# ---------------------------------------------------------------------------------------------
# Making moves


def do_transfer(state: GameState, move: Move) -> None:
    """Perform a (checked) transfer in place."""
    cards = state.piles[move.src].take(move.count)
    state.piles[move.dst].cards.extend(cards)


def flip_exposed(state: GameState) -> None:
    """Automatic move: turn up the top card of any tableau pile whose top card is face down."""
    for name, pile in state.piles.items():
        if pile.cards and pile.hidden >= len(pile.cards) and name[0] == "t":
            pile.hidden = len(pile.cards) - 1


def apply_in_place(state: GameState, move: Move, *, record: bool = True, checked: bool = False) -> Move:
    """Check (unless ``checked``) and perform ``move`` on ``state`` itself; returns the resolved move."""
    rules = rules_of(state)
    if not checked:
        move = check_move(state, move)
    if move.kind == "move":
        do_transfer(state, move)
    else:
        rules.actions[move.kind].run(state, move)
    run_automatic(rules, state)
    if record:
        state.history.append(move)
    return move


def apply(state: GameState, move: Move | str) -> GameState:
    """A new state with ``move`` (a Move or its notation) made; the redo list is cleared."""
    if isinstance(move, str):
        move = parse_move(move)
    new = state.copy()
    apply_in_place(new, move)
    new.future = []
    return new


def replay(game: str, deal_number: int, options: Mapping[str, object],
           moves: Iterable[Move | str]) -> GameState:
    """The state after dealing and playing ``moves`` in order (IllegalMove names the move number)."""
    state = deal(game, deal_number, options)
    for i, move in enumerate(moves, 1):
        if isinstance(move, str):
            move = parse_move(move)
        try:
            apply_in_place(state, move)
        except IllegalMove as err:
            raise IllegalMove(err.move, f"(move {i}) {err.rule}") from None
    return state


def undo(state: GameState) -> GameState:
    """The state before the last move (replayed from the deal); the move goes onto the redo list."""
    if not state.history:
        raise IbmError("nothing to undo")
    try:
        explained = replay(state.game, state.deal_number, state.options, state.history).piles == state.piles
    except IllegalMove:
        explained = False
    if not explained:
        raise IbmError(f"this position was not reached from deal {state.deal_number} by its move "
                       "history (a position set up by hand?), so it cannot be undone")
    new = replay(state.game, state.deal_number, state.options, state.history[:-1])
    new.future = state.future + [state.history[-1]]
    return new


def redo(state: GameState) -> GameState:
    """The state with the last undone move made again."""
    if not state.future:
        raise IbmError("nothing to redo")
    new = state.copy()
    move = new.future.pop()
    apply_in_place(new, move)
    return new


# ---------------------------------------------------------------------------------------------
# Listing moves, being stuck, keys of positions


def transfer_candidates(rules: Rules, state: GameState, prune: bool = False) -> list[Move]:
    """Every legal transfer.  With ``prune`` (for the solver): moves that only shuffle a whole pile
    into a space, and copies of a move into several interchangeable empty piles, are left out."""
    moves: list[Move] = []
    piles = state.piles
    build_ok, wrap = BUILD_RULES[rules.build][0], rules.wrap
    tableau = [n for n in piles if n[0] == "t"]
    foundations = [n for n in piles if n[0] == "f"]
    sources = [n for n in piles if role_of(n) in rules.to_foundation or role_of(n) in rules.to_tableau]
    for src in sources:
        sp = piles[src]
        if not sp.cards or sp.hidden >= len(sp.cards):
            continue
        srole = role_of(src)
        if srole in rules.to_foundation:
            seen_empty = False
            for f in foundations:
                if not piles[f].cards:
                    if seen_empty:
                        continue
                if foundation_allows(rules, state, f, sp.cards[-1]) is not None:
                    continue
                m = Move("move", (src, f), 1)
                if check_transfer(rules, state, m) is None:
                    moves.append(m)
                    if not piles[f].cards:
                        seen_empty = True
        if srole not in rules.to_tableau:
            continue
        if srole == "tableau":
            longest = movable_tail(rules, sp)
            counts = [longest] if rules.unit == "face-up" else range(1, longest + 1)
        else:
            counts = [1]
        for n in counts:
            empty_done = False
            for dst in tableau:
                if dst == src:
                    continue
                dp = piles[dst]
                if not dp.cards:
                    if prune and (empty_done and rules.symmetric):
                        continue
                    if prune and srole == "tableau" and n == len(sp.cards):
                        continue
                    if space_allows(rules, state, sp.cards[len(sp.cards) - n:]) is not None:
                        continue
                elif not build_ok(dp.cards[-1], sp.cards[-n], wrap):
                    continue
                m = Move("move", (src, dst), n)
                if prune and rules.useless is not None and rules.useless(state, m):
                    continue
                if check_transfer(rules, state, m) is None:
                    moves.append(m)
                    if not dp.cards:
                        empty_done = True
    return moves


def legal_moves(state: GameState, prune: bool = False) -> list[Move]:
    """Every legal move in the state (transfers first, then the game's actions)."""
    if is_won(state):
        return []
    rules = rules_of(state)
    moves = transfer_candidates(rules, state, prune)
    for action in rules.actions.values():
        for m in action.moves(state):
            if action.check(state, m) is None:
                moves.append(m)
    return moves


CYCLE_KINDS = ("stock", "redeal")


def is_stuck(state: GameState, limit: int = 500) -> bool:
    """True when the game is not won and nothing but going round the stock is possible: no state
    reachable by stock turns and redeals alone offers any other move."""
    if is_won(state):
        return False
    seen: set[StateKey] = set()
    frontier = [state]
    while frontier and len(seen) < limit:
        s = frontier.pop()
        key = state_key(s)
        if key in seen:
            continue
        seen.add(key)
        for m in legal_moves(s):
            if m.kind not in CYCLE_KINDS:
                return False
            nxt = s.copy()
            nxt.history = []
            apply_in_place(nxt, m, record=False, checked=True)
            if is_won(nxt):
                return False
            frontier.append(nxt)
    return True


StateKey = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], int, tuple[tuple[str, int], ...], int]
"""What :func:`state_key` gives: the tableau, foundation and other piles (each ``cards|hidden``), the
redeals that count, the game's counters and its generator's state."""


def state_key(state: GameState) -> StateKey:
    """A canonical, hashable key of the position (history left out); interchangeable tableau and
    foundation piles are sorted when the rules say the tableau is symmetric."""
    rules = rules_of(state)
    tab, found, other = [], [], []
    for name, p in state.piles.items():
        k = "".join([c.char for c in p.cards]) + "|" + str(p.hidden)
        first = name[0]
        if first == "t":
            tab.append(k)
        elif first == "f":
            found.append(k)
        else:
            other.append(k)
    if rules.symmetric:
        tab.sort()
        found.sort()
    redeals = 0 if state.options.get("redeals") == "unlimited" else state.redeals
    return (tuple(tab), tuple(found), tuple(other), redeals, tuple(sorted(state.counters.items())),
            state.rng_state)


def stock_deal_check(plays: Callable[[GameState], object], refusal: str, *,
                     stuck_only: Callable[[GameState], bool] = lambda s: bool(s.options["deal_when_stuck"]),
                     used_up: str = "the stock is used up") -> Callable[[GameState, Move], str | None]:
    """The check hook of an ``s`` that deals from the stock ``s`` onto the piles, in games whose
    text deals "only when no move is left": ``s`` takes no piles or count, needs a stock (else
    ``used_up``), and, when ``stuck_only(state)`` (by default the option ``deal_when_stuck``), is
    refused with ``refusal`` while ``plays(state)`` finds a play (anything true: a list of moves, a
    flag)."""
    def check(state: GameState, move: Move) -> str | None:
        if move.piles or move.count != 1:
            return "'s' takes no piles or count"
        if not state.piles["s"].cards:
            return used_up
        if stuck_only(state) and plays(state):
            return refusal
        return None
    return check


def redeals_left(state: GameState, allowed: int | str) -> bool:
    """Whether another redeal is allowed when ``allowed`` redeals (or 'unlimited') are permitted."""
    return allowed == "unlimited" or state.redeals < int(allowed)


def standard_pack_size(rules: Rules) -> int:
    return len(pack(rules.pack))
