"""The search tree (:class:`Search`): a position's children, most promising first, and what the
runs of a search share (the transposition table, the positions proved lost, the stock's walks).

The runs themselves are :mod:`decks.solver.search`'s (depth first) and :mod:`decks.solver.best`'s
(best first); how a search goes as a whole is told there.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import Final, cast

from decks.engine import Action, GameState, IllegalMove, Move
from decks.engine.play import CYCLE_KINDS
from decks.solver.keys import Key, Keys
from decks.solver.measures import Measures
from decks.solver.moves import Model
from decks.solver.position import Pos, StateOf, Step, Targets, Wanted
from decks.solver.stuck import Stuck

WON, LIMIT, EXHAUSTED = "won", "none found within the limit", "no solution exists"
TIMED_OUT: Final = "timed out"
"""A run's verdict when the clock stopped it (reported as LIMIT, with ``timed_out``)."""
DEAD: Final = 1 << 60
"""A transposition table's mark of a position proved lost (no line of play from it wins)."""


_Done = tuple[Step | Move, ...]
_TURN: Final = Move("stock")
_REDEAL: Final = Move("redeal")
_Seq = tuple[int, int, Pos, Step | Move, _Done]
"""A move sequence worth trying (:meth:`Search.sequences`)."""
_Child = tuple[int, int, int, int, Pos, _Done, Key]
"""A child (:meth:`Search.children`): distance, priority, turns, rank, position, moves, key."""
_Turn = tuple[Move, tuple[bytes, ...], int, tuple[tuple[str, int], ...]]
"""A turn of the stock: the move, then the hand's piles, redeals and counters after it."""
_Shown = tuple[tuple[Move, ...], tuple[bytes, ...], int, tuple[tuple[str, int], ...]]
"""A card the stock shows: the turns up to it, then the hand's piles, redeals and counters."""


_NO_TURNS: Final = (1 << 56) - 1
"""A value of ``Search.dead_turns`` where no position of the hand's is proved lost yet."""


def _boxed(steps: list[Step]) -> list[Step | Move]:
    """The transfers as the objects they are: compiled, a ``Step`` read from a ``list[Step]`` is
    unpacked into three native ints and packed into a new tuple wherever it is stored as an object
    (twice for each sequence: its move and its moves), which reading it as ``Step | Move`` avoids."""
    return cast("list[Step | Move]", steps)


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
        self.seen: dict[Key, int] = {}
        self.fresh = 0
        self.walks: dict[Key, list[_Shown]] = {}
        self.rules = self.model.rules
        self.old = False                        # the run's order is the old one (ORDERS)
        # the dead-position test (decks.solver.stuck), where the search prunes by it (:func:`_run`)
        self.stuck: Stuck | None = None
        # where turning the stock alone leads from a position proved lost (Keys.turned: turned k
        # at a time, with unlimited redeals): by the key of the hand turned to a multiple of k (a
        # lost position), for each remainder r = 1 … k - 1 the fewest cards turned, t = r mod k, of
        # a lost one (8 bits from bit 8r; 255: none): with t, t + k, t + 2k … turned it is lost too
        self.dead_turns: dict[Key, int] | None = {} if self.keys.step > 1 else None
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

    def settle(self, p: Pos, done: list[Step | Move], after: Step | None = None) -> Pos:
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
        out: list[_Seq] = []
        for st in _boxed(m.transfers(p, state, targets)):
            out.append((_priority(m, p, cast(Step, st)), 0, p, st, (st,)))
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
        if isinstance(mv, tuple):      # a transfer (a Step); else one of the game's actions
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

    def lost(self, key: Key) -> None:
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

    def turned_dead(self, key: Key) -> bool:
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
        if measure == "face-down":
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

    def _stock_walk(self, p: Pos, state: Callable[[], GameState], targets: Targets) -> list[_Seq]:
        """"Turn until a card can be played, then play it": the card each turn shows is the waste's
        top, or the hand card where the game keeps one (then the waste's top is the card the hand
        card was a turn before, so playing it is the same as playing that card one turn earlier)."""
        m = self.model
        shows = m.hand_piles()[-1]
        out: list[_Seq] = []
        walk = self._walk(p, state, targets) if m.native else self._walk_by_engine(p, state, targets)
        for turns, q in walk:
            for step in _boxed(m.transfers(q, StateOf(m, q), targets, sources=[shows])):
                out.append((_priority(m, q, cast(Step, step)), len(turns), q, step, (*turns, step)))
        return out

    def _playable(self, shown: bytes, targets: Targets, state: Callable[[], GameState]) -> bool:
        """Whether the top card of ``shown`` has somewhere to go (:meth:`Model.targets`): worth a
        closer look."""
        wanted, top = targets.wanted, shown[-1]
        return (bool(targets.onto(top)) or wanted is None or wanted[top] is not None
                or bool(targets.empty) and self.model.space_takes(shown, 1, state))

    def _walk(self, p: Pos, state: Callable[[], GameState],
              targets: Targets) -> list[tuple[tuple[Move, ...], Pos]]:
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
                        targets: Targets) -> list[tuple[tuple[Move, ...], Pos]]:
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
            if m.draw is not None and len(hand) == 2 and not m.turn_onto_empty:
                hit = _shown_by_count(p.piles[hand[0]], p.piles[hand[1]], p.redeals, p.counters, m.draw,
                                      m.redeals_allowed, m.unlimited)
            else:
                turns = self._turns_native(p) if m.draw is not None else self._turns_by_engine(p, state)
                hit = _shown_once(turns, m.unlimited)
            self.walks[key] = hit
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


def _shown_by_count(stock: bytes, waste: bytes, redeals: int, counters: tuple[tuple[str, int], ...],
                    draw: int, allowed: int | None, unlimited: bool) -> list[_Shown]:
    """:func:`_shown_once` of :meth:`Search._turns_native`'s turns where ``draw`` cards are turned
    at a time onto the waste (no hand card, any waste), counted rather than made: the hand's cards
    in the order a redeal turns them (the waste, then the stock from its top) stand ``t`` turned,
    the waste their first ``t`` and the stock the rest from the last; a turn takes ``t`` on by
    ``draw`` (the last turn to all of them), a redeal (where ``allowed`` allows another and a
    card is there) back to none.  Only the turns that show a new card make their piles: the
    same piles, redeals and counters as turning them one by one."""
    order = waste + stock[::-1]
    n, t = len(order), len(waste)
    out: list[_Shown] = []
    made: list[Move] = []
    tops: set[int] = set()
    positions: set[int] = set()     # cards left in the stock, and the redeals unless unlimited
    while True:
        if t < n:
            t = min(t + draw, n)
            made.append(_TURN)
        else:
            if n == 0 or allowed is not None and redeals >= allowed:
                break
            t = 0
            redeals += 1
            made.append(_REDEAL)
        position = n - t + (0 if unlimited else redeals << 8)
        if position in positions:
            break
        positions.add(position)
        if t > 0 and order[t - 1] not in tops:
            tops.add(order[t - 1])
            out.append((tuple(made), (order[t:][::-1], order[:t]), redeals, counters))
    return out


def _moves(model: Model, done: _Done) -> list[Move]:
    return [model.step_move(*x) if isinstance(x, tuple) else x for x in done]


PROGRESS_EVERY = 4096
"""How often (in positions expanded) :func:`solve` tells its ``progress`` callback how far it is."""


class _Tally:
    """What the runs of one search have done so far: positions expanded, runs, the best position
    reached (most cards home) and the moves to it."""

    def __init__(self, best: int, best_path: list[_Done]) -> None:
        self.nodes, self.runs, self.best, self.best_path = 1, 0, best, best_path


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
