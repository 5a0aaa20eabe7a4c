"""Short solutions: a win the search found, stripped of its detours.

A depth-first search wins by the first line it finds, and that line wanders: it moves a card and
moves it back, builds a run only to take it apart, turns the stock round while the cards it needs
lie elsewhere.  :func:`shorten` takes the line apart again.  It replays the moves on the solver's
compact positions (:mod:`decks.solver.position`), then walks the line from the start; from each
position it tries every move the search would try (one or two moves deep, and a stock turned
until a card plays counts as its turns and the play), and where one of those reaches, exactly,
a position further along the line than the moves it replaces, it takes that shortcut instead:

* a loop (a position reached twice) is a shortcut of no moves at all;
* a move undone later, with whatever lay between, is skipped when the position after the undoing
  can be reached without it;
* a move that changes nothing the rest of the line needs is skipped the same way, where the rest
  of the line reaches the same position without it.

Walks are repeated until one finds nothing to cut (or the time given runs out).  The short line
is replayed through the engine from the start, and only a line that wins is returned; otherwise
the line as found.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from decks.engine import GameState, IllegalMove, Move, apply_in_place, is_won
from decks.solver.position import Model, Pos, StateOf
from decks.solver.search import Search

SHORTEN_SECONDS = 2.0
"""The time :func:`shorten` spends at most, by default."""


@dataclass
class Shortened:
    """The line found (``found`` moves) and the short one (``moves``), which wins when replayed."""

    moves: list[Move]
    found: int

    @property
    def cut(self) -> int:
        return self.found - len(self.moves)


def _after(m: Model, p: Pos, move: Move) -> Pos:
    """The position after one engine move (``IllegalMove`` where the engine refuses it)."""
    if move.kind == "move":
        return m.move(p, (m.index[move.src], m.index[move.dst], move.count))
    return m.by_engine(p, move)


def _line(m: Model, p: Pos, moves: list[Move]) -> list[Pos]:
    out = [p]
    for move in moves:
        out.append(_after(m, out[-1], move))
    return out


def _steps(search: Search, p: Pos) -> list[tuple[list[Move], Pos]]:
    """Every move (or stock walk) the search would try from ``p``, with the position after it."""
    m = search.model
    out = []
    for _prio, _turns, base, mv, done in search.sequences(p, m.targets(p)):
        moves = [m.step_move(*x) if isinstance(x, tuple) else x for x in done]
        try:
            child = m.move(base, mv) if isinstance(mv, tuple) else m.by_engine(base, mv)
        except IllegalMove:
            continue
        out.append((moves, child))
    return out


def _walk(search: Search, line: list[Pos], moves: list[Move], depth: int, deadline: float) -> list[Move]:
    """One walk along the line, taking at each position the shortcut that saves most moves."""
    where = {p.fields(): i for i, p in enumerate(line)}
    out: list[Move] = []
    i = 0
    while i < len(moves):
        best_j, best = i, list[Move]()
        if time.monotonic() < deadline:
            frontier = [(list[Move](), line[i])]
            for _ in range(depth):
                later = []
                for made, q in frontier:
                    for more, child in _steps(search, q):
                        path = made + more
                        j = where.get(child.fields(), -1)
                        if j - len(path) > best_j - len(best):
                            best_j, best = j, path
                        later.append((path, child))
                frontier = later
        if best_j - i > len(best):          # fewer moves than the line between
            out += best
            i = best_j
        else:
            out.append(moves[i])
            i += 1
    return out


def _legal(search: Search, p: Pos, move: Move) -> bool:
    """Whether ``move`` may be made from ``p``: a transfer the search would try there, or an action
    the game's check allows."""
    m = search.model
    if move.kind == "move":
        step = (m.index[move.src], m.index[move.dst], move.count)
        return step in m.transfers(p, StateOf(m, p))
    action = search.rules.actions.get(move.kind)
    return action is not None and action.check(m.state(p), move) is None


def _merge(search: Search, line: list[Pos], moves: list[Move], i: int) -> list[Move] | None:
    """The line with move ``i`` and the next move of the same cards made as one (a card moved from
    A to B and later from B to C goes from A to C when it is moved the second time; from B back to
    A, neither move is made), if the moves between are still legal and the line comes to the same
    position; None if not."""
    m = search.model
    first = moves[i]
    s, n = m.index[first.src], first.count
    card, bottom = line[i].piles[s][-n], len(line[i + 1].piles[m.index[first.dst]]) - n
    if bottom < 0:
        return None                         # the game took the cards away at once (a discard)
    for k in range(i + 1, len(moves)):
        later = moves[k]
        pile = line[k].piles[m.index[first.dst]]
        if len(pile) <= bottom or pile[bottom] != card:
            return None                     # the cards were covered up or moved with others
        if later.kind != "move" or later.src != first.dst or len(pile) - later.count > bottom:
            continue
        if len(pile) - later.count < bottom:
            return None
        again = [] if later.dst == first.src else [Move("move", (first.src, later.dst), later.count)]
        between = moves[i + 1:k] + again
        p = line[i]
        for move in between:
            if not _legal(search, p, move):
                return None
            p = _after(m, p, move)
        return moves[:i] + between + moves[k + 1:] if p == line[k + 1] else None
    return None


def _merges(search: Search, start: Pos, moves: list[Move], deadline: float) -> list[Move]:
    """Every merge :func:`_merge` finds, walking the line once."""
    line = _line(search.model, start, moves)
    i = 0
    while i < len(moves) and time.monotonic() < deadline:
        merged = _merge(search, line, moves, i) if moves[i].kind == "move" else None
        if merged is None:
            i += 1
        else:
            moves = merged
            line = line[:i + 1] + _line(search.model, line[i], moves[i:])[1:]
    return moves


def shorten(state: GameState, moves: list[Move], max_seconds: float = SHORTEN_SECONDS,
            depth: int = 3) -> Shortened:
    """``moves``, a win from ``state``, without its detours (see the module docstring): shortcuts
    one move deep until none is left, then ``depth`` moves deep, for at most ``max_seconds``."""
    deadline = time.monotonic() + max_seconds
    search = Search(state)
    m = search.model
    start = m.pos(state)
    short = list(moves)
    while time.monotonic() < deadline:
        before = len(short)
        short = _merges(search, start, short, deadline)
        for reach in sorted({1, depth}):
            while time.monotonic() < deadline:
                shorter = _walk(search, _line(m, start, short), short, reach, deadline)
                if len(shorter) >= len(short):
                    break
                short = shorter
        if len(short) >= before:
            break
    if len(short) < len(moves) and not _wins(state, short):
        short = list(moves)
    return Shortened(short, len(moves))


def _wins(state: GameState, moves: list[Move]) -> bool:
    """Whether ``moves`` made from ``state`` win, checked move by move by the engine."""
    end = state.copy()
    try:
        for move in moves:
            apply_in_place(end, move, record=False)
    except IllegalMove:
        return False
    return is_won(end)
