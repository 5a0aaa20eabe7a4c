"""Hints that say why: the move a search suggests and what it does on the board.

:func:`what_it_does` names a move's effect in a player's words — it plays a card to a foundation,
turns up a face-down card, empties a pile, turns the stock, or builds one card on another — from
the position before and after it (made by the engine).  :func:`hint_line` is ``play``'s hint: the
first move of the line a search found, what it does, and "wins in N moves" when that line is a
proved win (N counted on the line stripped of its detours, :mod:`decks.solver.shorten`, within a
budget of positions, so the same hint on any machine).
"""

from __future__ import annotations

from collections.abc import Callable

from decks.engine import GameState, IllegalMove, Move, apply
from decks.engine.state import role_of
from decks.packs import PlayingCard
from decks.solver.search import EXHAUSTED, SolveResult
from decks.solver.shorten import PER_MOVE, shorten

HINT_SHORTEN_POSITIONS = 2_000
"""The positions a hint lists at most while shortening a win before counting its moves (and
:data:`decks.solver.shorten.PER_MOVE` per move of the win): its budget, the same on any machine.
About 0.1-0.8 s of CPU time (Spiderette the slowest)."""
HINT_SHORTEN_SECONDS = 2.0
"""A guard on the time a hint spends shortening: the budget is :data:`HINT_SHORTEN_POSITIONS`."""


def what_it_does(state: GameState, move: Move) -> str:
    """What ``move`` does from ``state``, in words ("plays 5H to a foundation, turns up a card in
    t3"); "" for a move the engine refuses."""
    try:
        after = apply(state, move)
    except IllegalMove:
        return ""
    if move.kind != "move":
        return {"stock": "turns the stock", "redeal": "redeals the stock",
                "remove": "removes a pair"}.get(move.kind, f"makes the {move.kind}")
    src, dst = state.piles[move.src], state.piles[move.dst]
    cards = src.cards[-move.count:]
    what = [f"plays {cards[-1]} to a foundation" if role_of(move.dst) == "foundation"
            else f"moves {_cards(cards)} onto {dst.cards[-1]}" if dst.cards
            else f"moves {_cards(cards)} into the empty {move.dst}"]
    left = after.piles[move.src]
    if role_of(move.src) == "tableau":
        if not left.cards:
            what.append(f"empties {move.src}")
        elif left.hidden < src.hidden or len(left.cards) == src.hidden:
            what.append(f"turns up a face-down card in {move.src}")
    return ", ".join(what)


def _cards(cards: list[PlayingCard]) -> str:
    return str(cards[0]) if len(cards) == 1 else f"{cards[0]} and the {len(cards) - 1} on it"


def hint_line(state: GameState, result: SolveResult, count: int = 1,
              fallback: Callable[[], Move | None] = lambda: None) -> tuple[tuple[Move, ...], str]:
    """``play``'s hint from a search's ``result``: the first ``count`` moves of its win (stripped
    of detours, with "wins in N moves"), else of its best line, else ``fallback()``; and the hint as
    text, what the first move does in brackets."""
    if result.won and result.moves:
        budget = min(HINT_SHORTEN_POSITIONS, PER_MOVE * len(result.moves))
        moves = shorten(state, result.moves, HINT_SHORTEN_SECONDS, budget).moves
        line = tuple(moves[:count])
        why = f"{what_it_does(state, line[0])}; wins in {len(moves)} moves"
        return line, f"hint: {', '.join(map(str, line))} ({why})"
    line = tuple(result.best_moves[:count])
    if not line:
        first = fallback()
        line = (first,) if first is not None else ()
    if not line:
        return line, "hint: no legal move"
    listed, does = ", ".join(map(str, line)), what_it_does(state, line[0])
    if result.status == EXHAUSTED:
        return line, f"hint: no play wins from here; try {listed} ({does}; {result.explain()})"
    return line, f"hint: {listed} ({does}; no win found within the hint's budget)"
