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
import heapq
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Final

from decks.engine import CYCLE_KINDS, Action, GameState, IllegalMove, Move, is_won
from decks.solver.keys import Keys
from decks.solver.measures import Measures
from decks.solver.moves import Model
from decks.solver.position import Pos, StateOf, Step, Targets, Wanted
from decks.solver.stuck import Stuck

DEFAULT_MAX_NODES = 50_000
SOLVE_SECONDS = 5.0
"""The time budget of ``ibm1013 solve`` when neither ``--seconds`` nor ``--max-nodes`` is given."""
NO_NODE_LIMIT: Final = 10**12
"""A node limit no search reaches: the clock alone bounds it."""
HINT_SECONDS = 0.7
"""The time budget of ``play``'s hint: it answers within a second on every game."""

ORDERS_DEFAULT: Final = ("new", "old")
"""The move orders of most games (:data:`ORDERS`)."""
WON, LIMIT, EXHAUSTED = "won", "none found within the limit", "no solution exists"
TIMED_OUT: Final = "timed out"
"""A run's verdict when the clock stopped it (reported as LIMIT, with ``timed_out``)."""
DEAD: Final = 1 << 60
"""A transposition table's mark of a position proved lost (no line of play from it wins)."""


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
    deal 12: the root entered, its 3 children proved lost at sight)."""

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
        runs = f"{_n(self.runs, 'run')}, move order{named}"
        return (f"searched {_n(self.nodes, 'position')} in {self.seconds:.1f} s ({runs}; "
                f"{self.unique:,} in the last run's table, {self.dead:,} proved lost)")

    def explain(self) -> str:
        """The outcome in a player's words: what the best play found reaches."""
        if self.won:
            return f"won in {_n(len(self.moves), 'move')}"
        after = _n(len(self.best_moves), "move")
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

_Done = tuple[Step | Move, ...]
_TURN: Final = Move("stock")
_REDEAL: Final = Move("redeal")
_Seq = tuple[int, int, Pos, Step | Move, _Done]
"""A move sequence worth trying (:meth:`Search.sequences`)."""
_Child = tuple[int, int, int, int, Pos, _Done, tuple]
"""A child (:meth:`Search.children`): distance, priority, turns, rank, position, moves, key."""
_Turn = tuple[Move, tuple[bytes, ...], int, tuple]
"""A turn of the stock: the move, then the hand's piles, redeals and counters after it."""
_Shown = tuple[tuple[Move, ...], tuple[bytes, ...], int, tuple]
"""A card the stock shows: the turns up to it, then the hand's piles, redeals and counters."""


_NO_TURNS: Final = (1 << 56) - 1
"""A value of ``Search.dead_turns`` where no position of the hand's is proved lost yet."""


def _n(count: int, word: str) -> str:
    """``count`` and ``word``, plural unless one: "1 position", "1,055 positions"."""
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def _priority(model: Model, p: Pos, step: Step) -> int:
    """The baseline's order of move kinds: foundation plays, turning up a card, emptying a pile,
    other moves off the reserve or waste, builds, moves off a foundation."""
    s, d, n = step
    is_fnd = model.is_fnd
    if is_fnd[d]:
        return 0
    if model.is_tab[s]:
        left = len(p.piles[s]) - n
        if left == 0:
            return 2
        return 1 if left == p.hidden[s] else 4
    return 6 if is_fnd[s] else 3


class Search:
    """One search: the model, the transposition table and the stock-walk cache."""

    def __init__(self, root: GameState, deep_safe: bool = True) -> None:
        self.model = Model(root, deep_safe)
        self.keys = Keys(self.model, splits=deep_safe)  # the transposition key (decks.solver.keys)
        self.measures = Measures(self.model)      # how far from a win (decks.solver.measures)
        # the transposition table: a key's value is the number of the position whose expansion it
        # waits under or is, or DEAD once proved lost (kept from one run to the next); a number
        # below ``fresh``, the current run's root's, was left by an earlier run: not seen in this one
        self.seen: dict[tuple, int] = {}
        self.fresh = 0
        self.walks: dict[tuple, list[_Shown]] = {}
        self.rules = self.model.rules
        self.old = False                        # the run's order is the old one (ORDERS)
        # the dead-position test (decks.solver.stuck), where the search prunes by it (:func:`_run`)
        self.stuck: Stuck | None = None
        # where turning the stock alone leads from a position proved lost (Keys.turned: turned k
        # at a time, with unlimited redeals): by the key of the hand turned to a multiple of k (a
        # lost position), for each remainder r = 1 … k - 1 the fewest cards turned, t = r mod k, of
        # a lost one (8 bits from bit 8r; 255: none): with t, t + k, t + 2k … turned it is lost too
        self.dead_turns: dict[tuple, int] | None = {} if self.keys.step > 1 else None
        self.free_per_node = FREE_SECONDS_PER_NODE  # freeing the tables (_past)
        self.tuning = self.rules.solver
        self.old_measure: str = self.tuning.measure or ("generic" if self.rules.distance is None else "hook")
        self.walk_stock = self.model.waste is not None and "stock" in self.rules.actions
        # the game's actions tried at each position, with their priority (turning the stock and
        # redealing are walked instead where there is a waste); a redeal the tuning says is
        # allowed while redeals are left (SolverTuning.redeal_check) is legal where the option
        # redeals allows another and a card lies in the tableau, with the same moves everywhere:
        # checked natively (:meth:`Model.redeal_left`)
        self.actions: list[tuple[str, Action, int]] = []
        self.redeals: list[tuple[list[Move], int]] = []
        for kind, action in self.rules.actions.items():
            prio = {"remove": 0, "stock": 5, "redeal": 7}.get(kind, 3)
            if self.walk_stock and kind in CYCLE_KINDS:
                continue
            if kind == "redeal" and self.tuning.redeal_check == "redeals-left":
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
        for kind, action, prio in self.actions:
            if kind in m.native_actions:
                out += [(prio, 0, p, mv, (mv,)) for mv in m.action_moves(p, kind)]
                continue
            for mv in action.moves(state()):
                if action.check(state(), mv) is None:
                    out.append((prio, 0, p, mv, (mv,)))
        if self.redeals and m.redeal_left(p):
            for moves, prio in self.redeals:
                out += [(prio, 0, p, mv, (mv,)) for mv in moves]
        if self.walk_stock:
            out += self._stock_walk(p, state, targets)
        return out

    def children(self, p: Pos, mark: int) -> tuple[list[_Child], int]:
        """The unseen children of a position, most promising first (by the run's order: see
        :data:`ORDERS`), each with its key; marks them seen, as waiting under position number
        ``mark``.  Also the lowest mark of the children seen before and not proved lost (what the
        position's fate hangs on: :func:`_run`).

        Safe foundation plays are made inside each child.  ``p`` had none, so after a move onto
        the tableau only the top card left on the source pile can be one (the foundations are as
        they were; after turning the stock, the card played from the waste too), and after a
        foundation play only the cards it concerns (:meth:`make`)."""
        m, seen, fresh = self.model, self.seen, self.fresh
        keys, measures = self.keys, self.measures
        targets = m.targets(p)
        wanted = targets.wanted
        old = self.old
        dead_turns = self.dead_turns
        low = DEAD
        scored: list[_Child] = []
        for rank, (prio, turns, base, mv, done) in enumerate(self.sequences(p, targets)):
            made = self.make(p, base, mv, done, wanted, old)
            if made is None:
                continue
            child, done, far = made
            key = keys.of(child)
            size = len(seen)
            was = seen.setdefault(key, mark)
            if len(seen) == size:       # seen before (one look-up: a key's hash is not kept)
                if was >= fresh:
                    if was < low:
                        low = was
                    continue
                seen[key] = mark        # seen by an earlier run only: new to this one
            elif dead_turns is not None and self.turned_dead(key):
                seen[key] = DEAD        # a position lost reaches it by turning the stock
                continue
            scored.append((far if old else measures.distance(child), prio, turns, rank, child, done, key))
        scored.sort()           # by distance, priority, turns, then as listed (no two ranks are equal)
        return scored, low

    def make(self, p: Pos, base: Pos, mv: Step | Move, done: _Done, wanted: Wanted | None,
             old: bool) -> tuple[Pos, _Done, int] | None:
        """The child of ``p`` a move sequence makes (:meth:`sequences`: ``mv`` made on ``base``,
        the moves ``done``), with its safe foundation plays; the moves to it; and where ``old``, the
        old order's measure of it before those plays (:meth:`old_distance`; else -1).  None where
        the game's action turns out illegal.  ``p`` had no safe play, so after a move onto the
        tableau only the top card left on the source pile can be one (the foundations are as they
        were; after turning the stock, the card played from the waste too), and after a foundation
        play only the cards it concerns (:meth:`Model.safe_play`); ``wanted``: what the foundations
        of ``p`` take (:meth:`Model.wanted`)."""
        m = self.model
        far = -1
        if not isinstance(mv, Move):
            child = m.move(base, mv)
            if old:
                far = self.old_distance(child)
            if m.native and m.safe_kind and not m.is_fnd[mv[1]]:
                if m.safe_top(child, mv[0], wanted) or base is not p and m.safe_top(child, mv[1], wanted):
                    extra = list(done)
                    child = self.settle(child, extra)
                    done = tuple(extra)
            elif m.safe_kind:
                extra = list(done)
                child = self.settle(child, extra, mv if m.is_fnd[mv[1]] else None)
                done = tuple(extra)
            return child, done, far
        try:
            child = m.act(base, mv)
        except IllegalMove:
            return None
        if old:
            far = self.old_distance(child)
        extra = list(done)
        child = self.settle(child, extra)
        return child, tuple(extra), far

    def table_size(self, nodes: int) -> int:
        """What freeing the tables costs, in positions expanded (:func:`_past`): ``nodes``, or where
        positions are proved lost by turning the stock unexpanded, the entries of both tables."""
        if self.dead_turns is None:
            return nodes
        return len(self.seen) + len(self.dead_turns)

    def lost(self, key: tuple) -> None:
        """Mark the position of ``key`` proved lost, and what it reaches by turning the stock
        (``dead_turns``)."""
        self.seen[key] = DEAD
        turns = self.dead_turns
        if turns is None:
            return
        turned = self.keys.turned(key)
        if turned <= 0:
            return                              # the key is the redealt one: DEAD in the table
        redealt = self.keys.redealt(key)
        shift = turned % self.keys.step * 8
        was = turns.get(redealt, _NO_TURNS)
        if turned < was >> shift & 255:
            turns[redealt] = was & ~(255 << shift) | turned << shift

    def turned_dead(self, key: tuple) -> bool:
        """Whether a position proved lost reaches ``key``'s by turning the stock (``dead_turns``).
        A position's moves are its own turns of the stock and what it does on the tableau, so
        every line of play from the position reached is one from the position before."""
        turns = self.dead_turns
        assert turns is not None
        turned = self.keys.turned(key)
        if turned < 0:
            return False
        if turned == 0:
            return key in turns
        was = turns.get(self.keys.redealt(key), _NO_TURNS)
        return was >> turned % self.keys.step * 8 & 255 <= turned

    def old_distance(self, p: Pos) -> int:
        """The old order's measure (:data:`ORDERS`), of a child before its safe plays: the game's
        own ``Rules.distance`` (natively where the solver knows it), else the cards not home with
        every face-down card counted twice."""
        m, measures = self.model, self.measures
        measure = self.old_measure
        if measure == "tidy":
            return measures.tidy_distance(p)
        if measure == "klondike":
            return measures.distance(p)
        if measure == "suit-runs":
            return measures.suit_run_distance(p)
        if measure == "nearer-foundation":
            return measures.nearer_distance(p)
        if measure == "buried":
            return measures.buried_distance(p)
        if measure == "hook":
            return self.rules.distance(m.state(p))  # type: ignore[misc]
        far = m.total - m.home_count(p)
        for h in p.hidden:
            far += h
        return far

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


class _Tally:
    """What the runs of one search have done so far: positions expanded, runs, the best position
    reached (most cards home) and the moves to it."""

    def __init__(self, best: int, best_path: list[_Done]) -> None:
        self.nodes, self.runs, self.best, self.best_path = 1, 0, best, best_path


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
    start: list = []
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


FREE_SECONDS_PER_NODE: Final = 5e-7
"""At most about how long freeing a depth-first search's tables takes, a position expanded (a
game's tuning may say more: ``SolverTuning.free_seconds_per_node``, where best-first runs keep
every position they reach).  Measured with the compiled search, 300,000-1,000,000 positions: the
Klondike family 0.29-0.32 µs, since a restart keeps its table as it is (0.135 s for Klondike deal 54
at 409,600 positions, 0.076 s for flip 3 deal 65 at 266,240, on a machine whose speed moves by a
third within an hour).  A search with a time budget stops that much before its deadline, so that
``solve`` returns within the budget, not a second after it with a million positions to free."""


def _past(deadline: float, nodes: int, per_node: float) -> bool:
    """Whether a search of ``nodes`` positions, freed at ``per_node`` seconds each, must stop now to
    return by ``deadline``."""
    return time.monotonic() + nodes * per_node > deadline


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
    proved lost are never entered, nor those the stock's turns or the stuck-card test prove lost at
    sight; when the frontier runs dry, every position reachable from the root has been expanded
    without a win: the deal is lost."""

    def __init__(self, search: Search, root: Pos, start: _Done, tally: _Tally) -> None:
        self.search, self.tally = search, tally
        self.heap: list[int] = []
        self.waiting: list[tuple[int, _Done, Pos] | None] = [None]  # by count: the heap's payloads
        self.closed: set[tuple] = {search.keys.of(root)}
        self.parents: list[int] = [-1]
        self.dones: list[_Done] = [start]
        self.count = 0
        self.dead_closed = 0                # keys in closed only because they were proved lost
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
        turns, stuck = search.dead_turns, search.stuck
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
            if turns is not None and search.turned_dead(key) or stuck is not None and stuck.dead(child):
                search.lost(key)            # lost by the stock's turns or stuck cards: never entered
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
        nodes = tally.nodes
        while True:
            if self.won is not None:
                tally.nodes = nodes
                return WON, self.won
            if not heap:
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
    order: list[tuple] = [root_key]         # the keys of the positions expanded and not yet decided
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


__all__ = ["DEFAULT_MAX_NODES", "EXHAUSTED", "LIMIT", "WON", "SolveResult", "distance", "hint",
           "ordered_moves", "safe_move", "solve"]
