"""The best-first run of a search (:class:`_Best`): a move order a game's tuning may name (*best*
in ``SolverTuning.orders``, and the runs of ``SolverTuning.prelude``), resumable from one of its
runs to the next (:func:`decks.solver.search.solve`).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Final

from decks.solver.keys import Key
from decks.solver.position import Pos
from decks.solver.tree import (
    DEAD,
    EXHAUSTED,
    LIMIT,
    PROGRESS_EVERY,
    TIMED_OUT,
    WON,
    Search,
    _Done,
    _past,
    _Tally,
)

_COUNT_BITS: Final = 40
_LAST_COUNT: Final = (1 << _COUNT_BITS) - 1
"""A frontier entry of :class:`_Best` is one int, ``far`` above ``_LAST_COUNT - count``: the heap
compares ints, not tuples, and pops the closest first, the latest reached first among equals."""


class _Best:
    """The best-first order's resumable search (*best* in ``SolverTuning.orders``, and the
    prelude's runs): a frontier (a heap of the positions reached and not yet expanded, closest to a
    win first, the latest reached first among equals), every key reached, and each expanded
    position's parent and the moves to it (a win's path is walked back from them).  Of every
    position reached and not yet expanded, the one that looks closest to a win is expanded next,
    whichever branch it lies in: closest by :meth:`Measures.spider_distance` where the game
    measures suit runs, else :meth:`Measures.buried_distance`.  Positions the depth-first runs
    proved lost are never entered, nor those the stock's turns prove lost at sight, nor those the
    stuck-card test proves lost: that test is asked of a position when it comes to the frontier's
    top (:meth:`live_top`), not when it is pushed, since most positions pushed are never expanded
    (flip 3's prelude spent about 30 % of its instructions judging them).  The positions
    expanded are the same as when each was judged as it was pushed: a dead one dropped at the top
    would never have been pushed, and the stuck cards' verdict does not change with how far the
    stock is turned (measured: the 2,366 positions the stock's turns reach from the dead ones
    waiting after flip 3 deals 1-29's first runs are all dead), so what the stock's turns prove
    lost meanwhile is the same (flip 3 deals
    1-200 at 10,000 positions and 1-100 at 50,000: the same verdicts, positions and moves; only
    ``SolveResult.dead`` and ``unique`` count fewer positions proved lost).  When the frontier runs
    dry, every position reachable from the root has been expanded without a win: the deal is
    lost."""

    def __init__(self, search: Search, root: Pos, start: _Done, tally: _Tally) -> None:
        self.search, self.tally = search, tally
        self.heap: list[int] = []
        self.waiting: list[tuple[int, _Done, Pos] | None] = [None]  # by count: the heap's payloads
        self.closed: set[Key] = {search.keys.of(root)}
        self.parents: list[int] = [-1]
        self.dones: list[_Done] = [start]
        self.count = 0
        self.dead_closed = 0                # keys in closed only because they were proved lost
        self.tested = 0                     # the count of the frontier's top, once found alive
        self.won: list[_Done] | None = None
        # the measure closest first goes by: spider_distance in the Spider games, else buried_distance
        self.buried = search.old_measure != "suit-runs"
        self.expand(root, 0)

    def path(self, index: int, done: _Done | None = None) -> list[_Done]:
        """The moves from the root to expanded position ``index`` (then ``done``)."""
        out: list[_Done] = [] if done is None else [done]
        while index >= 0:
            out.append(self.dones[index])
            index = self.parents[index]
        out.reverse()
        return out

    def expand(self, p: Pos, index: int) -> None:
        """Push the children of expanded position ``index`` not reached before (a win: ``won``)."""
        search, tally = self.search, self.tally
        m, closed, dead = search.model, self.closed, search.seen
        keys, measures = search.keys, search.measures
        heap, total = self.heap, m.total
        targets = m.targets(p)
        wanted = targets.wanted
        turns = search.dead_turns
        for _prio, _turns, base, mv, done in search.sequences(p, targets):
            made = search.make(p, base, mv, done, wanted, False)
            if made is None:
                continue
            child, done, _far = made
            key = keys.of(child)
            size = len(closed)
            closed.add(key)                 # one look-up, as Search.children's
            if len(closed) == size:
                continue
            if dead.get(key, 0) == DEAD:    # proved lost by a depth-first run: never entered
                self.dead_closed += 1
                continue
            home = m.home_count(child)
            if home == total:
                self.won = self.path(index, done)
                return
            if home > tally.best:
                tally.best, tally.best_path = home, self.path(index, done)
            if turns is not None and search.turned_dead(key):
                search.lost(key)            # lost by the stock's turns: never entered
                self.dead_closed += 1
                continue
            self.count += 1
            far = measures.buried_distance(child) if self.buried else measures.spider_distance(child)
            self.waiting.append((index, done, child))
            heapq.heappush(heap, (far << _COUNT_BITS) + _LAST_COUNT - self.count)

    def run(self, stop: int, max_nodes: int, deadline: float | None,
            progress: Callable[[int], None] | None) -> tuple[str, list[_Done]]:
        """Expand positions until ``tally.nodes`` reaches ``stop``: as :func:`_run`."""
        tally, heap = self.tally, self.heap
        free = self.search.free_per_node
        judged = self.search.stuck is not None     # else the top is always one to expand
        nodes = tally.nodes
        while True:
            if self.won is not None:
                tally.nodes = nodes
                return WON, self.won
            if not heap or judged and not self.live_top():
                tally.nodes = nodes
                return EXHAUSTED, []
            if nodes >= stop:
                tally.nodes = nodes
                return (LIMIT if stop >= max_nodes else ""), []
            if progress is not None and nodes % PROGRESS_EVERY == 0:
                progress(nodes)
            if deadline is not None and nodes % 16 == 0 and _past(deadline, nodes, free):
                tally.nodes = nodes
                return TIMED_OUT, []
            count = _LAST_COUNT - (heapq.heappop(heap) & _LAST_COUNT)
            entry = self.waiting[count]
            assert entry is not None
            self.waiting[count] = None  # expanded: its position is not kept twice
            parent, done, child = entry
            index = len(self.parents)
            self.parents.append(parent)
            self.dones.append(done)
            self.expand(child, index)
            nodes += 1

    def live_top(self) -> bool:
        """Whether the frontier holds a position to expand: the stuck-card test
        (:meth:`Stuck.dead`) is asked of a position when it comes to the top, not when it is pushed
        (most pushed are never expanded), and one it proves lost is dropped and never entered."""
        search = self.search
        heap, stuck = self.heap, search.stuck
        while heap:
            count = _LAST_COUNT - (heap[0] & _LAST_COUNT)
            if stuck is None or count == self.tested:
                return True
            entry = self.waiting[count]
            assert entry is not None
            if not stuck.dead(entry[2]):
                self.tested = count     # alive: not asked again when a later run resumes here
                return True
            heapq.heappop(heap)
            self.waiting[count] = None
            search.lost(search.keys.of(entry[2]))     # lost by its stuck cards: never entered
            self.dead_closed += 1
        return False
