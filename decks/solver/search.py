"""A bounded solver: depth-first search with a transposition table, a node limit and a time budget.

``solve(state, max_nodes, max_seconds=None)`` looks for a sequence of moves from ``state`` to a
won game.  It sees every card, face-down ones included (a "thoughtful" solver, as in the published
"thoughtful solitaire" figures for Klondike: Bjarnason, Fern and Tadepalli, ICAPS 2009), so a
solution it finds is a proof that the deal can be won, and its first move is a hint.

How it searches (positions are compact: :mod:`decks.solver.position`):

* Each position is reduced to a key that forgets what cannot matter: the order of interchangeable
  piles, which copy of a two-pack card lies where, which of several equal foundations holds what.
  A position already seen is not searched again, so cycles end by themselves.
* A foundation play that can never be regretted is made at once, inside the move that allows it,
  without branching: in games whose foundations build up in suit from the ace and never give cards
  back, a card is played home once every card that could be built on it (every copy) is home.  In
  the Klondike family (one pack; cards reach the tableau only from the tableau and the waste) such a
  card need not be home if it could go home at once, as could every card that could be built on it
  in turn (:meth:`Model.unneeded`, with the restarts): a red 3 goes home once both black aces are.
  Where the stock is turned three at a time, a card played home from the waste changes how later
  passes fall in threes, which the proof of either rule does not follow: there the waste's top card
  is judged only the first way (the deeper way called a won position of flip 3 lost), and even so
  it is very nearly a proof, like the moves left out below.
* Where the stock is turned three at a time with unlimited redeals (Klondike's flip-3 rules), a
  position proved lost proves lost, unsearched, the same position with the stock turned on from
  where it stands, since every line of play from there is one from it (:meth:`Search.lost`); and
  a position's key forgets how far the stock is turned where turning on comes round to every turn
  (with one card at a time, as in the online rules, always: :mod:`decks.solver.keys`).  Both with
  the restarts only.
* Moves that cannot differ are tried once: a card into one empty pile stands for all empty piles,
  onto one of several equal foundations for all; moving a whole pile into a space is never tried.
* Children are tried most promising first (fewest cards away from home, face-down ones counted four
  times; then foundation plays, moves that turn up a card or empty a pile, other builds, the stock,
  redeals).  In games with a stock turned onto a waste, "turn the stock until a card can be played,
  then play it" is one move (where the game keeps the card just turned as a hand card ``h``, the
  card played is the hand card).
* The search is a series of runs over two move orders with doubling budgets (:data:`ORDERS`,
  :func:`schedule`); a position a run proves lost (its whole subtree searched, hanging on no
  position still undecided) is never searched again by a later run.  A game's tuning may name
  other orders (``SolverTuning.orders``: the Spider games restart over a best-first order and the
  old one, King Albert over a best-first order and the new one); the best-first run
  (:class:`_Best`) goes on where its last run stopped.  A tuning's prelude starts each of the first
  rounds with a best-first run (``SolverTuning.prelude``: Klondike flip 3).
* Every position expanded counts as one node.  At ``max_nodes`` (or after ``max_seconds``) the
  search stops and reports "none found within the limit"; if the whole tree is searched without a
  win it reports that no solution exists.  The tree leaves out the moves a game marks as never
  worth trying (``Rules.useless``); those rules are heuristics, so "no solution exists" is exact
  for games without them and very nearly so for the others (Klondike and Spider: the result says
  so, ``SolveResult.pruned``).

The time budget does not make a result depend on the machine's speed in any other way: the search
order is fixed, so a search stopped by the clock after N nodes returns exactly what a search with
``max_nodes=N`` returns (``SolveResult.nodes`` says N).  Every result also carries the best
position reached (most cards home) and the moves to it, which :func:`hint` falls back on and
``ibm1013 solve`` uses to explain a loss.  Which search this is, and which records of earlier ones
it still finds again, is :mod:`decks.solver.versions`' to say (the history: docs/solver-changelog.md).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Final

from decks.engine import GameState, Move, is_won
from decks.solver.best import _Best
from decks.solver.keys import Key
from decks.solver.measures import Measures
from decks.solver.moves import Model
from decks.solver.position import Pos, Step
from decks.solver.stuck import Stuck
from decks.solver.tree import (
    DEAD,
    EXHAUSTED,
    FREE_SECONDS_PER_NODE,
    LIMIT,
    PROGRESS_EVERY,
    TIMED_OUT,
    WON,
    Search,
    _Done,
    _moves,
    _past,
    _Tally,
)
from emulator.words import counted

DEFAULT_MAX_NODES = 50_000
SOLVE_SECONDS = 5.0
"""The time budget of ``ibm1013 solve`` when neither ``--seconds`` nor ``--max-nodes`` is given."""
NO_NODE_LIMIT: Final = 10**12
"""A node limit no search reaches: the clock alone bounds it."""
HINT_SECONDS = 0.7
"""The time budget of ``play``'s hint: it answers within a second on every game."""

ORDERS_DEFAULT: Final = ("new", "old")
"""The move orders of most games (:data:`ORDERS`)."""


@dataclass
class SolveResult:
    """The outcome: ``status`` is one of "won", "none found within the limit", "no solution exists".

    ``best_home`` is the most cards on the foundations (or discarded) in any position reached, of
    ``total`` cards, and ``best_moves`` the moves that reach it; ``timed_out`` says the clock, not
    the node limit, stopped the search.  What was searched: ``nodes`` positions expanded in all,
    over ``runs`` runs (:func:`schedule`), ``unique`` positions in the last run's table (with those
    earlier runs proved lost), ``dead`` positions proved lost, in ``seconds`` (wall clock).  A
    depth-first run's table holds the positions it proved lost; a best-first run's only those it
    entered, not those it proved lost at sight, so after one ``dead`` may exceed ``unique`` (flip 3
    deal 12: the root entered, its 3 children proved lost at sight).  A best-first run asks the
    stuck-card test of a position only when it comes to the top of its frontier, so ``dead`` leaves
    out the positions still waiting there that the test would prove lost (since 7 December)."""

    status: str
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    best_home: int = 0
    total: int = 0
    best_moves: list[Move] = field(default_factory=list)
    timed_out: bool = False
    searched_all: bool = False
    home: str = "on the foundations"
    pruned: bool = False
    """The tree searched leaves out moves the game marks as never worth trying (``Rules.useless``: a
    heuristic), so "no solution exists" is very nearly, not strictly, a proof."""
    runs: int = 0
    unique: int = 0
    dead: int = 0
    seconds: float = 0.0
    orders: tuple[str, ...] = ORDERS_DEFAULT

    @property
    def won(self) -> bool:
        """Whether the search found a winning line."""
        return self.status == WON

    def notation(self) -> str:
        """The winning moves, one per line, in the engine's notation."""
        return "\n".join(str(m) for m in self.moves)

    def searched(self) -> str:
        """What the search looked at: positions, runs over the move orders, seconds."""
        if not self.runs:
            return "searched no positions (an exact search, or a game already won)"
        orders = self.orders[:min(self.runs, len(self.orders))]
        named = f" {orders[0]}" if len(orders) == 1 else f"s {', '.join(orders[:-1])} and {orders[-1]}"
        runs = f"{counted(self.runs, 'run', thousands=True)}, move order{named}"
        positions = counted(self.nodes, "position", thousands=True)
        return (f"searched {positions} in {self.seconds:.1f} s ({runs}; "
                f"{self.unique:,} in the last run's table, {self.dead:,} proved lost)")

    def explain(self) -> str:
        """The outcome in a player's words: what the best play found reaches."""
        if self.won:
            return f"won in {counted(len(self.moves), 'move', thousands=True)}"
        after = counted(len(self.best_moves), "move", thousands=True)
        best = f"{self.best_home} of {self.total} cards {self.home} (after {after})"
        if self.searched_all and self.pruned and self.status == EXHAUSTED:
            return ("no line of play the solver tries wins (it leaves out moves the game's rules judge "
                    "never worth trying, so this is very nearly, not strictly, a proof); "
                    f"the best puts {best}")
        if self.searched_all:
            return f"no line of play wins; the best puts {best}"
        stop = "time limit" if self.timed_out else "node limit"
        lost = "no line of play wins; " if self.status == EXHAUSTED else f"no win found before the {stop}; "
        return f"{lost}the best line found puts {best}"


# ---------------------------------------------------------------------------------------------
# Children of a position

ORDERS: Final = ORDERS_DEFAULT
"""The move orders the search restarts over, one after the other (:func:`solve`).  Both try a
position's children closest to a win first; they measure the distance differently:

* *new* — cards not home, face-down tableau cards four times (:meth:`Model.distance`), measured
  after the safe foundation plays a move allows;
* *old* — the order of the solver before issue 10 (the baseline ``tools.bench_decks`` compares
  with): the game's own ``Rules.distance`` where it has one, else cards not home with every
  face-down card counted twice, measured before the safe plays.

Each finds at once deals the other loses itself in (Klondike flip-3 deal 2: the old order wins in
a few hundred positions, the new one needs about a hundred thousand)."""
FIRST_RUN = 1000
"""The positions of the first run of each order; every round after doubles them."""


def schedule(orders: tuple[str, ...] = ORDERS, prelude: int = 0) -> Iterator[tuple[str, int]]:
    """The runs of a search: each order in turn, with budgets doubling every round
    (1,000 positions for each, then 2,000, 4,000 …).  The same whatever the limit, so a search
    stopped early is the start of a longer one.  ``prelude`` (``SolverTuning.prelude``): a
    best-first run first in each round whose budget is at most that."""
    budget = FIRST_RUN
    while True:
        if budget <= prelude:
            yield "best", budget
        for order in orders:
            yield order, budget
        budget *= 2


def solve(state: GameState, max_nodes: int = DEFAULT_MAX_NODES, max_seconds: float | None = None,
          progress: Callable[[int], None] | None = None, restarts: bool = True,
          prune_stuck: bool = True) -> SolveResult:
    """Search for a win from ``state`` expanding at most ``max_nodes`` positions in all, and for at
    most ``max_seconds`` if given (see the module docstring: still deterministic).
    ``progress(nodes)`` is called every :data:`PROGRESS_EVERY` positions, for a progress bar.

    The search is a series of runs (:func:`schedule`), each with one of the :data:`ORDERS` (or the
    game's own: ``SolverTuning.orders``) and a budget of positions; what one run proves lost the
    next never searches again.  A win found by any run is a win; when a run searches the whole
    tree, no line wins.  ``restarts=False``: one run of the new order, the search of
    :data:`decks.solver.versions.ONE_ORDER_VERSION`.  With the restarts, a position whose stuck
    cards prove it dead (:mod:`decks.solver.stuck`) is proved lost at sight and never expanded,
    unless ``prune_stuck`` is false (the search of before, which the tests use to find lines of
    play the test must let through).

    Python's cycle collector is paused meanwhile: the search makes no reference cycles, and the
    collector would otherwise walk the whole transposition table again and again as it grows."""
    collecting = gc.isenabled()
    gc.disable()
    started = time.monotonic()
    try:
        result = _search(state, max_nodes, max_seconds, progress, restarts, restarts and prune_stuck)
    finally:
        if collecting:
            gc.enable()
    result.seconds = time.monotonic() - started
    return result


def _search(state: GameState, max_nodes: int, max_seconds: float | None,
            progress: Callable[[int], None] | None, restarts: bool, prune_stuck: bool) -> SolveResult:
    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    if is_won(state):
        return SolveResult(WON, [], 0)
    search = Search(state, deep_safe=restarts)
    m = search.model
    if prune_stuck:
        stuck = Stuck(m)
        if stuck.applies:
            search.stuck = stuck
    start: list[Step | Move] = []
    root = search.settle(m.pos(state), start)
    tally = _Tally(m.home_count(root), [tuple(start)])
    orders: tuple[str, ...] = ORDERS
    tuning = search.tuning
    if restarts:
        orders = tuning.orders
        search.free_per_node = tuning.free_seconds_per_node or FREE_SECONDS_PER_NODE
    if m.won(root):
        return _result(search, WON, tally.best_path, tally, orders)
    best: _Best | None = None
    prelude = tuning.prelude
    runs = schedule(orders, prelude)
    if prelude and restarts:
        orders = ("best", *orders)          # as the runs come (SolveResult.orders)
    for order, budget in runs if restarts else iter([(ORDERS[0], max_nodes)]):
        search.old = order == "old"
        if tally.runs and (order != "best" or best is None):
            tally.nodes += 1                # the root, expanded again
        tally.runs += 1
        stop = min(tally.nodes + budget, max_nodes)
        if order == "best":
            if best is None:
                best = _Best(search, root, tuple(start), tally)
            status, path = best.run(stop, max_nodes, deadline, progress)
            if status != "":
                return _result(search, status, path, tally, orders, len(best.closed) - best.dead_closed)
            continue
        status, path = _run(search, root, tuple(start), stop, max_nodes, deadline, progress, tally)
        if status == "" and deadline is not None and _past(deadline, search.table_size(tally.nodes),
                                                           search.free_per_node):
            status = TIMED_OUT  # before the next run expands its root: what LIMIT here gives
        if status != "":
            return _result(search, status, path, tally, orders)
    raise AssertionError("unreachable: the schedule never ends")


def _run(search: Search, root: Pos, start: _Done, stop: int, max_nodes: int, deadline: float | None,
         progress: Callable[[int], None] | None, tally: _Tally) -> tuple[str, list[_Done]]:
    """One depth-first run until ``tally.nodes`` reaches ``stop``: the verdict (WON, LIMIT when the
    search as a whole must stop, EXHAUSTED, or "" to go on with the next run) and the path.

    A position's subtree searched to the end without a win proves it lost only if every child
    skipped as seen before was proved lost too; a child seen before but not yet decided (on the
    path, or waiting in the children of a position on the path) makes its fate hang on that
    position's.  As in Tarjan's strongly connected components, each position on the path keeps the
    lowest number it hangs on (``lows``), and when a position finishes hanging on none before it,
    it and every position finished under it are proved lost together (``DEAD``).  A position the
    stuck-card test proves dead (``search.stuck``: :mod:`decks.solver.stuck`) is proved lost when its
    turn to be expanded comes, without being expanded or counted."""
    m = search.model
    seen = search.seen
    root_key = search.keys.of(root)
    fresh = search.fresh = tally.nodes - 1  # the root's number: every earlier run's are below it
    seen[root_key] = fresh
    order: list[Key] = [root_key]         # the keys of the positions expanded and not yet decided
    path: list[_Done] = [start]
    first, low = search.children(root, fresh)
    stack, tried = [first], [0]             # the children of each position on the path
    marks, lows, at = [fresh], [low], [0]   # each one's number, what it hangs on, its place in order
    nodes = tally.nodes
    hook_free = m.rules.won is None
    stuck = search.stuck
    free = search.free_per_node
    while stack:
        children, i = stack[-1], tried[-1]
        if i >= len(children):
            stack.pop()
            tried.pop()
            path.pop()
            mark, low, place = marks.pop(), lows.pop(), at.pop()
            if low >= mark:                     # hangs on nothing undecided before it: lost
                for key in order[place:]:
                    search.lost(key)
                del order[place:]
            elif low < lows[-1]:
                lows[-1] = low
            continue
        tried[-1] = i + 1
        entry = children[i]
        child, done = entry[4], entry[5]
        path.append(done)
        home = m.home_count(child)
        if (home == m.total) if hook_free else m.won(child):
            tally.nodes = nodes
            return WON, path
        if home > tally.best:
            tally.best, tally.best_path = home, list(path)
        if stuck is not None and stuck.dead(child):
            search.lost(entry[6])               # stuck cards: proved lost at sight, not expanded
            path.pop()
            continue
        if nodes >= stop:
            tally.nodes = nodes
            return (LIMIT if stop >= max_nodes else ""), path
        if progress is not None and nodes % PROGRESS_EVERY == 0:
            progress(nodes)
        if deadline is not None and nodes % 16 == 0 and _past(deadline, search.table_size(nodes), free):
            tally.nodes = nodes
            return TIMED_OUT, path
        key = entry[6]
        seen[key] = nodes
        marks.append(nodes)
        at.append(len(order))
        order.append(key)
        grandchildren, low = search.children(child, nodes)
        stack.append(grandchildren)
        lows.append(low)
        tried.append(0)
        nodes += 1
    tally.nodes = nodes
    return EXHAUSTED, path


def _result(search: Search, status: str, path: list[_Done], tally: _Tally,
            orders: tuple[str, ...] = ORDERS, unique: int | None = None) -> SolveResult:
    m = search.model
    timed_out = status == TIMED_OUT
    if timed_out:
        status = LIMIT
    moves = [mv for done in path for mv in _moves(m, done)] if status == WON else []
    best_moves = moves if status == WON else [mv for done in tally.best_path for mv in _moves(m, done)]
    home = m.total if status == WON else tally.best
    where = "on the foundations" if m.fnd else "discarded"
    nodes = tally.nodes if tally.runs else 0
    reached, dead = _table_counts(search)
    return SolveResult(status, moves, nodes, home, m.total, best_moves, timed_out=timed_out,
                       searched_all=status != LIMIT, home=where, pruned=m.rules.useless is not None,
                       runs=tally.runs, unique=reached if unique is None else unique,
                       dead=dead, orders=orders)


def _table_counts(search: Search) -> tuple[int, int]:
    """In one pass over the table: the positions the last depth-first run reached, and every one
    proved lost before it; and the positions proved lost."""
    fresh = search.fresh
    reached = dead = 0
    for v in search.seen.values():
        if v >= fresh:
            reached += 1
            if v == DEAD:
                dead += 1
    return reached, dead


def hint(state: GameState, max_nodes: int = 5_000, max_seconds: float | None = None) -> Move | None:
    """A suggested next move: the first move of a win found within ``max_nodes`` (and
    ``max_seconds``, e.g. :data:`HINT_SECONDS` for a player waiting), else the first move towards
    the best position the search reached, else the move the solver would try first; None if there
    is no legal move."""
    result = solve(state, max_nodes, max_seconds)
    if result.moves:
        return result.moves[0]
    if result.best_moves:
        return result.best_moves[0]
    seqs = ordered_moves(state)
    return seqs[0][0] if seqs else None


def ordered_moves(state: GameState, cache: dict[object, object] | None = None) -> list[list[Move]]:
    """The move sequences the solver tries from ``state``, best first (one safe play alone if
    there is one); ``cache`` is accepted for compatibility and unused."""
    del cache
    if is_won(state):
        return []
    search = Search(state)
    m = search.model
    p = m.pos(state)
    safe = m.safe_play(p)
    if safe is not None:
        return [_moves(m, (safe,))]
    seqs = sorted(search.sequences(p, m.targets(p)), key=lambda t: t[:2])
    return [_moves(m, done) for *_, done in seqs]


def distance(state: GameState) -> int:
    """How far the position looks from a win (see :meth:`decks.solver.measures.Measures.distance`)."""
    m = Model(state)
    return Measures(m).distance(m.pos(state))


def safe_move(rules: object, state: GameState, moves: list[Move]) -> Move | None:
    """A foundation play that cannot be regretted, if the position has one (``rules`` and
    ``moves`` are accepted for compatibility: the position decides)."""
    del rules, moves
    m = Model(state)
    step = m.safe_play(m.pos(state))
    return None if step is None else _moves(m, (step,))[0]


__all__ = ["DEFAULT_MAX_NODES", "EXHAUSTED", "FREE_SECONDS_PER_NODE", "LIMIT", "PROGRESS_EVERY", "WON",
           "Search", "SolveResult", "distance", "hint", "ordered_moves", "safe_move", "solve"]
