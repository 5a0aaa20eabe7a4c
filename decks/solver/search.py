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
  back, a card is played home once every card that could be built on it (every copy) is home.
* Moves that cannot differ are tried once: a card into one empty pile stands for all empty piles,
  onto one of several equal foundations for all; moving a whole pile into a space is never tried.
* Children are tried most promising first (fewest cards away from home, face-down ones counted four
  times; then foundation plays, moves that turn up a card or empty a pile, other builds, the stock,
  redeals).  In games with a stock turned onto a waste, "turn the stock until a card can be played,
  then play it" is one move (where the game keeps the card just turned as a hand card ``h``, the
  card played is the hand card).
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
``ibm1013 solve`` uses to explain a loss.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Final

from decks.engine import CYCLE_KINDS, Action, GameState, IllegalMove, Move, is_won
from decks.solver.position import Model, Pos, StateOf, Step, Targets

DEFAULT_MAX_NODES = 50_000
SEARCH_VERSION = "2026-11-30"
"""Names the search's order and pruning: a node-limited result recorded with one version is what
the same version finds again (``python -m tools.measure_games --results`` resumes by it).  Changed
whenever a change to the solver or to a game's rules can change what a search finds."""
HINT_SECONDS = 0.7
"""The time budget of ``play``'s hint: it answers within a second on every game."""

WON, LIMIT, EXHAUSTED = "won", "none found within the limit", "no solution exists"


@dataclass
class SolveResult:
    """The outcome: ``status`` is one of "won", "none found within the limit", "no solution exists".

    ``best_home`` is the most cards on the foundations (or discarded) in any position reached, of
    ``total`` cards, and ``best_moves`` the moves that reach it; ``timed_out`` says the clock, not
    the node limit, stopped the search."""

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

    @property
    def won(self) -> bool:
        return self.status == WON

    def notation(self) -> str:
        """The winning moves, one per line, in the engine's notation."""
        return "\n".join(str(m) for m in self.moves)

    def explain(self) -> str:
        """The outcome in a player's words: what the best play found reaches."""
        if self.won:
            return f"won in {len(self.moves)} moves"
        best = f"{self.best_home} of {self.total} cards {self.home} (after {len(self.best_moves)} moves)"
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

_Done = tuple[Step | Move, ...]
_TURN: Final = Move("stock")
_REDEAL: Final = Move("redeal")
_Seq = tuple[int, int, Pos, Step | Move, _Done]
"""A move sequence worth trying (:meth:`Search.sequences`)."""
_Turn = tuple[Move, tuple[bytes, ...], int, tuple]
"""A turn of the stock: the move, then the hand's piles, redeals and counters after it."""
_Shown = tuple[tuple[Move, ...], tuple[bytes, ...], int, tuple]
"""A card the stock shows: the turns up to it, then the hand's piles, redeals and counters."""


def _priority(model: Model, p: Pos, step: Step) -> int:
    """The baseline's order of move kinds: foundation plays, turning up a card, emptying a pile,
    other moves off the reserve or waste, builds, moves off a foundation."""
    s, d, n = step
    letters = model.letters
    if letters[d] == "f":
        return 0
    if letters[s] == "t":
        left = len(p.piles[s]) - n
        if left == 0:
            return 2
        return 1 if left == p.hidden[s] else 4
    return 6 if letters[s] == "f" else 3


class Search:
    """One search: the model, the transposition table and the stock-walk cache."""

    def __init__(self, root: GameState) -> None:
        self.model = Model(root)
        self.seen: set[tuple] = set()
        self.walks: dict[tuple, list[_Shown]] = {}
        self.rules = self.model.rules
        self.walk_stock = self.model.waste is not None and "stock" in self.rules.actions
        # the game's actions tried at each position, with their priority (turning the stock and
        # redealing are walked instead where there is a waste); a redeal whose check says
        # solver_check = "redeals-left" is legal where the option redeals allows another and a
        # card lies in the tableau, with the same moves everywhere: checked natively
        # (:meth:`Model.redeal_left`)
        self.actions: list[tuple[str, Action, int]] = []
        self.redeals: list[tuple[list[Move], int]] = []
        for kind, action in self.rules.actions.items():
            prio = {"remove": 0, "stock": 5, "redeal": 7}.get(kind, 3)
            if self.walk_stock and kind in CYCLE_KINDS:
                continue
            if kind == "redeal" and getattr(action.check, "solver_check", None) == "redeals-left":
                self.redeals.append((action.moves(root), prio))
            else:
                self.actions.append((kind, action, prio))

    def settle(self, p: Pos, done: list, after: Step | None = None) -> Pos:
        """Make every safe foundation play (recorded in ``done``); ``after`` as for
        :meth:`Model.safe_play`."""
        m = self.model
        plays = [after] if after is not None and m.native else None
        while (step := m.safe_play(p, plays)) is not None:
            p = m.move(p, step)
            done.append(step)
            if plays is not None:
                plays.append(step)
        return p

    def sequences(self, p: Pos, targets: Targets) -> list[_Seq]:
        """(priority, turns, position, move, moves) for every move sequence worth trying from
        ``p``: the child is ``move`` made on ``position`` (``p`` itself, or ``p`` with the stock
        turned), reached by ``moves``.  Tried in order of priority, then turns, then as listed."""
        m = self.model
        state = StateOf(m, p)
        out: list[_Seq] = [(_priority(m, p, st), 0, p, st, (st,)) for st in m.transfers(p, state, targets)]
        for _kind, action, prio in self.actions:
            for mv in action.moves(state()):
                if action.check(state(), mv) is None:
                    out.append((prio, 0, p, mv, (mv,)))
        if self.redeals and m.redeal_left(p):
            for moves, prio in self.redeals:
                out += [(prio, 0, p, mv, (mv,)) for mv in moves]
        if self.walk_stock:
            out += self._stock_walk(p, state, targets)
        return out

    def children(self, p: Pos) -> list[tuple[int, int, int, int, Pos, _Done]]:
        """The unseen children of a position, most promising first; marks them seen.

        Safe foundation plays are made inside each child.  ``p`` had none, so after a move onto
        the tableau only the top card left on the source pile can be one (the foundations are as
        they were; after turning the stock, the card played from the waste too), and after a
        foundation play only the cards it concerns (:meth:`Model.safe_play`)."""
        m, seen = self.model, self.seen
        targets = m.targets(p)
        wanted = targets.wanted
        quick = m.native and m.safe_kind
        letters = m.letters
        scored = []
        for rank, (prio, turns, base, mv, done) in enumerate(self.sequences(p, targets)):
            if not isinstance(mv, Move):
                child = m.move(base, mv)
                if quick and letters[mv[1]] != "f":
                    if (m.safe_top(child, mv[0], wanted)
                            or base is not p and m.safe_top(child, mv[1], wanted)):
                        extra = list(done)
                        child = self.settle(child, extra)
                        done = tuple(extra)
                elif m.safe_kind:
                    extra = list(done)
                    child = self.settle(child, extra, mv if letters[mv[1]] == "f" else None)
                    done = tuple(extra)
            else:
                try:
                    child = m.by_engine(base, mv)
                except IllegalMove:
                    continue
                extra = list(done)
                child = self.settle(child, extra)
                done = tuple(extra)
            size = len(seen)
            seen.add(m.key(child))
            if len(seen) == size:       # seen before (one look-up: a key's hash is not kept)
                continue
            scored.append((m.distance(child), prio, turns, rank, child, done))
        scored.sort()           # by distance, priority, turns, then as listed (no two ranks are equal)
        return scored

    # ---- the stock, turned until a card can be played ----

    def _stock_walk(self, p: Pos, state: Callable[[], GameState], targets: Targets) -> list:
        """"Turn until a card can be played, then play it": the card each turn shows is the waste's
        top, or the hand card where the game keeps one (then the waste's top is the card the hand
        card was a turn before, so playing it is the same as playing that card one turn earlier)."""
        m = self.model
        shows = m.hand_piles()[-1]
        out = []
        walk = self._walk(p, state, targets) if m.native else self._walk_by_engine(p, state, targets)
        for turns, q in walk:
            for step in m.transfers(q, StateOf(m, q), targets, sources=[shows]):
                out.append((_priority(m, q, step), len(turns), q, step, (*turns, step)))
        return out

    def _playable(self, shown: bytes, targets: Targets, state: Callable[[], GameState]) -> bool:
        """Whether the top card of ``shown`` has somewhere to go (:meth:`Model.targets`): worth a
        closer look."""
        wanted, top = targets.wanted, shown[-1]
        return (bool(targets.onto(top)) or wanted is None or wanted[top] is not None
                or bool(targets.empty) and self.model.space_takes(shown, 1, state))

    def _walk(self, p: Pos, state: Callable[[], GameState], targets: Targets) -> list[tuple[tuple, Pos]]:
        """Each new card that turning the stock (and redealing) shows and that is playable, with
        the turns taken and the position then; fewest turns first.  The turns are made on the
        hand's piles alone (the game's automatic moves are only turning up tableau cards, which
        these do not touch)."""
        m = self.model
        hand = m.hand_piles()
        out = []
        for turns, cards, redeals, counters in self._walk_hand(p, state):
            if not self._playable(cards[-1], targets, state):
                continue
            piles, hidden = list(p.piles), list(p.hidden)
            for j in range(len(hand)):
                piles[hand[j]] = cards[j]
            hidden[hand[0]] = len(cards[0])
            out.append((turns, Pos(tuple(piles), tuple(hidden), redeals, counters, p.rng)))
        return out

    def _walk_by_engine(self, p: Pos, state: Callable[[], GameState],
                        targets: Targets) -> list[tuple[tuple, Pos]]:
        """As :meth:`_walk`, each turn made by the engine with the game's automatic moves (Queen
        of Italy's gaps, filled from the waste once a card has been turned)."""
        m = self.model
        out, tops, turns, positions = [], set(), [], set()
        st = m.engine_state(p)
        assert m.stock is not None
        s, shows = m.names[m.stock], m.names[m.hand_piles()[-1]]
        while True:
            turn = Move("stock") if st.piles[s].cards else Move("redeal")
            action = self.rules.actions.get(turn.kind)
            if action is None or action.check(st, turn) is not None:
                break
            m.engine_move(st, turn)
            turns.append(turn)
            position = (len(st.piles[s].cards), st.redeals)
            if position in positions:
                break
            positions.add(position)
            shown = st.piles[shows].cards
            if shown and shown[-1].code not in tops:
                tops.add(shown[-1].code)
                if self._playable(bytes((shown[-1].code,)), targets, state):
                    out.append((tuple(turns), m.encode(p, st)))
        return out

    def _walk_hand(self, p: Pos, state: Callable[[], GameState]) -> list[_Shown]:
        """:meth:`_walk` on the hand's piles (stock, waste, hand card): the turns, those piles,
        redeals and counters after each; cached by the hand's piles and the counters."""
        m = self.model
        hand = m.hand_piles()
        key = (*[p.piles[i] for i in hand], 0 if m.unlimited else p.redeals, p.counters)
        hit = self.walks.get(key)
        if hit is None:
            turns = self._turns_native(p) if m.draw is not None else self._turns_by_engine(p, state)
            hit = self.walks[key] = _shown_once(turns, m.unlimited)
        return hit

    def _turns_native(self, p: Pos) -> Iterator[_Turn]:
        """Each turn of the stock, made natively (:meth:`Model.turn_hand`)."""
        m = self.model
        cards, redeals = tuple(p.piles[i] for i in m.hand_piles()), p.redeals
        while (turned := m.turn_hand(cards, redeals)) is not None:
            cards, redeals, gathered = turned
            yield _REDEAL if gathered else _TURN, cards, redeals, p.counters

    def _turns_by_engine(self, p: Pos, state: Callable[[], GameState]) -> Iterator[_Turn]:
        """As :meth:`_turns_native`, each turn made by the game's actions on a scratch game state."""
        m = self.model
        st = state()
        names = [m.names[i] for i in m.hand_piles()]
        scratch = GameState(st.game, st.options, st.deal_number, {n: st.piles[n].copy() for n in names},
                            st.redeals, dict(st.counters), rng_state=st.rng_state)
        while True:
            turn = _TURN if scratch.piles[names[0]].cards else _REDEAL
            action = self.rules.actions.get(turn.kind)
            if action is None or action.check(scratch, turn) is not None:
                return
            action.run(scratch, turn)
            yield (turn, tuple(bytes(c.code for c in scratch.piles[n].cards) for n in names), scratch.redeals,
                   tuple(sorted(scratch.counters.items())))


def _shown_once(turns: Iterable[_Turn], unlimited: bool) -> list[_Shown]:
    """From the turns of the stock (:meth:`Search._turns_native`), each that shows a card not shown
    before: the moves up to it, the hand's piles, redeals and counters then; until the hand comes
    round to where it stood (with unlimited redeals, whatever the count)."""
    out, tops, made, positions = [], set(), [], set()
    for turn, cards, redeals, counters in turns:
        made.append(turn)
        position = (len(cards[0]), 0 if unlimited else redeals)
        if position in positions:
            break
        positions.add(position)
        shown = cards[-1]
        if shown and shown[-1] not in tops:
            tops.add(shown[-1])
            out.append((tuple(made), cards, redeals, counters))
    return out


# ---------------------------------------------------------------------------------------------
# The search


def _moves(model: Model, done: _Done) -> list[Move]:
    return [model.step_move(*x) if isinstance(x, tuple) else x for x in done]


PROGRESS_EVERY = 4096
"""How often (in positions expanded) :func:`solve` tells its ``progress`` callback how far it is."""


def solve(state: GameState, max_nodes: int = DEFAULT_MAX_NODES, max_seconds: float | None = None,
          progress: Callable[[int], None] | None = None) -> SolveResult:
    """Search for a win from ``state`` expanding at most ``max_nodes`` positions (depth first),
    and for at most ``max_seconds`` if given (see the module docstring: still deterministic).
    ``progress(nodes)`` is called every :data:`PROGRESS_EVERY` positions, for a progress bar.

    Python's cycle collector is paused meanwhile: the search makes no reference cycles, and the
    collector would otherwise walk the whole transposition table again and again as it grows."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _search(state, max_nodes, max_seconds, progress)
    finally:
        if collecting:
            gc.enable()


def _search(state: GameState, max_nodes: int, max_seconds: float | None,
            progress: Callable[[int], None] | None) -> SolveResult:
    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    if is_won(state):
        return SolveResult(WON, [], 0)
    search = Search(state)
    m = search.model
    start: list = []
    root = search.settle(m.pos(state), start)
    search.seen.add(m.key(root))
    path: list[_Done] = [tuple(start)]
    best, best_path = m.home_count(root), list(path)
    if m.won(root):
        return _result(m, WON, path, 0, best, best_path)
    stack, tried = [search.children(root)], [0]       # the children of each position on the path
    nodes = 1
    hook_free = m.rules.won is None
    while stack:
        children, i = stack[-1], tried[-1]
        if i >= len(children):
            stack.pop()
            tried.pop()
            path.pop()
            continue
        tried[-1] = i + 1
        child, done = children[i][4], children[i][5]
        path.append(done)
        home = m.home_count(child)
        if (home == m.total) if hook_free else m.won(child):
            return _result(m, WON, path, nodes, best, best_path)
        if home > best:
            best, best_path = home, list(path)
        if nodes >= max_nodes:
            return _result(m, LIMIT, path, nodes, best, best_path)
        if progress is not None and nodes % PROGRESS_EVERY == 0:
            progress(nodes)
        if deadline is not None and nodes % 16 == 0 and time.monotonic() > deadline:
            result = _result(m, LIMIT, path, nodes, best, best_path)
            result.timed_out = True
            return result
        nodes += 1
        stack.append(search.children(child))
        tried.append(0)
    return _result(m, EXHAUSTED, path, nodes, best, best_path)


def _result(m: Model, status: str, path: list[_Done], nodes: int, best: int,
            best_path: list[_Done]) -> SolveResult:
    moves = [mv for done in path for mv in _moves(m, done)] if status == WON else []
    best_moves = moves if status == WON else [mv for done in best_path for mv in _moves(m, done)]
    home = m.total if status == WON else best
    where = "on the foundations" if m.fnd else "discarded"
    return SolveResult(status, moves, nodes, home, m.total, best_moves, searched_all=status != LIMIT,
                       home=where, pruned=m.rules.useless is not None)


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


def ordered_moves(state: GameState, cache: dict | None = None) -> list[list[Move]]:
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
    """How far the position looks from a win (see :meth:`decks.solver.position.Model.distance`)."""
    m = Model(state)
    return m.distance(m.pos(state))


def safe_move(rules: object, state: GameState, moves: list[Move]) -> Move | None:
    """A foundation play that cannot be regretted, if the position has one (``rules`` and
    ``moves`` are accepted for compatibility: the position decides)."""
    del rules, moves
    m = Model(state)
    step = m.safe_play(m.pos(state))
    return None if step is None else _moves(m, (step,))[0]


__all__ = ["DEFAULT_MAX_NODES", "EXHAUSTED", "LIMIT", "SEARCH_VERSION", "WON", "SolveResult", "distance",
           "hint", "ordered_moves", "safe_move", "solve"]
