"""Short solutions: a win the search found, stripped of its detours.

A depth-first search wins by the first line it finds, and that line wanders: it moves a card and
moves it back, builds a run only to take it apart, turns the stock round while the cards it needs
lie elsewhere.  :func:`shorten` takes the line apart again, on the solver's compact positions
(:mod:`decks.solver.position`), by a search of the line's neighbourhood:

* every position of the line is a node of a graph, and each move of the line an edge;
* from each position, breadth first, the moves the search itself would try are listed (a stock
  turned until a card plays counts as its turns and the play), a few positions around each one
  (:data:`FIRST_AROUND`), and the positions they reach join the graph;
* the shortest way through the graph from the start to a won position is the new line: every loop
  (a position reached twice), every move undone later, every move that changes nothing the rest
  needs, and every shortcut between two positions of the line that the neighbourhood holds is
  gone at once;
* the next round searches around the new line, in the same graph, so a line never gets longer;
  when a round finds nothing shorter, the next lists twice as many positions around each.

The budget is a count of positions listed (:data:`PER_MOVE` per move of the line as found, at most
:data:`SHORTEN_POSITIONS`), so the short line is the
same on any machine; a time limit is only a guard.  Last, a card moved twice is moved once where
the moves between allow it (:func:`_merge`).  The short line is replayed through the engine from
the start, and only a line that wins is returned; otherwise the line as found.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass

from decks.engine import GameState, IllegalMove, Move, apply_in_place, is_won
from decks.solver.keys import Key
from decks.solver.moves import Model
from decks.solver.position import Pos, StateOf
from decks.solver.tree import Search, _Done, _moves

SHORTEN_POSITIONS = 40_000
"""The positions :func:`shorten` lists at most, by default (its budget: the same on any machine)."""
PER_MOVE = 20
"""By default :func:`shorten` lists at most this many positions per move of the line as found
(and :data:`SHORTEN_POSITIONS` in all), so a short line is not searched around for long."""
SHORTEN_SECONDS = 10.0
"""The time :func:`shorten` spends at most, by default: a guard, the budget is the positions."""
FIRST_AROUND = 16
"""The positions listed around each position of the line in the first round; doubled whenever a
round finds nothing shorter."""


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
    return m.act(p, move)


def _line(m: Model, p: Pos, moves: list[Move]) -> list[Pos]:
    out = [p]
    for move in moves:
        out.append(_after(m, out[-1], move))
    return out


def _steps(search: Search, p: Pos) -> list[tuple[_Done, Pos]]:
    """Every move (or stock walk) the search would try from ``p``, with the position after it (the
    moves as the search keeps them: :func:`decks.solver.search._moves` makes them engine moves)."""
    m = search.model
    out = []
    for _prio, _turns, base, mv, done in search.sequences(p, m.targets(p)):
        try:
            child = m.move(base, mv) if isinstance(mv, tuple) else m.act(base, mv)
        except IllegalMove:
            continue
        out.append((done, child))
    return out


class _Neighbourhood:
    """The positions around a line of play and the moves between them: a graph in which the
    shortest way from the start to a won position is a short line (plan-neighbourhood search).

    Positions are told apart exactly (:meth:`Pos.fields`), so every edge's moves can be made from
    the position it leaves; each gets a number when first met (position 0 is the start), and the
    graph is kept on the numbers.  ``expanded`` counts the positions whose moves have been listed,
    the unit of the budget."""

    def __init__(self, search: Search, start: Pos) -> None:
        self.search, self.start = search, start
        self.number: dict[Key, int] = {}
        self.pos: list[Pos] = []
        self.won: list[bool] = []
        self.edges: list[list[tuple[_Done, int]]] = []
        self.listed: list[bool] = []
        self.expanded = 0
        self.add(start)

    def add(self, p: Pos) -> int:
        """The position's number (a new one if it was not met before)."""
        f = p.fields()
        n = self.number.get(f)
        if n is None:
            n = self.number[f] = len(self.pos)
            self.pos.append(p)
            self.won.append(self.search.model.won(p))
            self.edges.append([])
            self.listed.append(False)
        return n

    def add_line(self, moves: list[Move]) -> list[int]:
        """The numbers of the line's positions, each taken in with the move to the next."""
        line = [self.add(p) for p in _line(self.search.model, self.start, moves)]
        for a, b, move in zip(line, line[1:], moves, strict=False):
            self.edges[a].append(((move,), b))
        return line

    def expand(self, n: int) -> list[tuple[_Done, int]]:
        """The moves from position ``n`` (the search's own, :func:`_steps`), listed once."""
        out = self.edges[n]
        if not self.listed[n]:
            self.listed[n] = True
            self.expanded += 1
            out += [(more, self.add(child)) for more, child in _steps(self.search, self.pos[n])]
        return out

    def around(self, n: int, count: int, stop: int) -> None:
        """Breadth first from position ``n``, until ``count`` more positions are listed (or
        ``stop`` in all); positions listed before are passed through."""
        stop = min(stop, self.expanded + count)
        seen, frontier = {n}, [n]
        while frontier and self.expanded < stop:
            later = []
            for n in frontier:
                if self.expanded >= stop:
                    break
                for _more, g in self.expand(n):
                    if g not in seen:
                        seen.add(g)
                        later.append(g)
            frontier = later

    def shortest(self) -> list[Move] | None:
        """The fewest moves from the start to a won position (Dijkstra: an edge costs its moves)."""
        far = 1 << 60
        dist = [far] * len(self.pos)
        came: list[tuple[int, _Done]] = [(0, ())] * len(self.pos)
        dist[0] = 0
        heap = [(0, 0)]
        while heap:
            d, n = heapq.heappop(heap)
            if d > dist[n]:
                continue
            if self.won[n]:
                line: list[_Done] = []
                while n:
                    n, more = came[n]
                    line.append(more)
                return _moves(self.search.model, tuple(x for more in reversed(line) for x in more))
            for more, g in self.edges[n]:
                if d + len(more) < dist[g]:
                    dist[g], came[g] = d + len(more), (n, more)
                    heapq.heappush(heap, (d + len(more), g))
        return None


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


def shorten(state: GameState, moves: list[Move], max_seconds: float | None = None,
            max_positions: int | None = None) -> Shortened:
    """``moves``, a win from ``state``, without its detours (see the module docstring): rounds of
    the neighbourhood search, then merging, listing at most ``max_positions`` positions (by default
    :data:`PER_MOVE` per move, at most :data:`SHORTEN_POSITIONS`: the budget that makes the result
    the same on any machine) and for at most ``max_seconds`` (a guard; by default
    :data:`SHORTEN_SECONDS`)."""
    if max_positions is None:
        max_positions = min(SHORTEN_POSITIONS, PER_MOVE * len(moves))
    deadline = time.monotonic() + (SHORTEN_SECONDS if max_seconds is None else max_seconds)
    search = Search(state)
    graph = _Neighbourhood(search, search.model.pos(state))
    short, count = list(moves), FIRST_AROUND
    while graph.expanded < max_positions and time.monotonic() < deadline:
        listed = graph.expanded
        for p in graph.add_line(short):
            if graph.expanded >= max_positions or time.monotonic() >= deadline:
                break
            graph.around(p, count, max_positions)
        shorter = graph.shortest()
        if shorter is None or len(shorter) >= len(short):
            if graph.expanded == listed:
                break                           # every position near enough is listed
            count *= 2                          # nothing shorter this near the line: look further
        else:
            short = shorter
    short = _merges(search, graph.start, short, deadline)
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
