"""Moves on compact positions (:class:`Model`): listing the legal ones and making them.

:meth:`Model.transfers` lists the legal card moves worth trying and :meth:`Model.move` makes one
without ever building a ``GameState``; the game's actions the solver knows (dealing a round,
discarding a suit, turning the stock) are made natively too, the rest by the engine on a state built
from the position (:meth:`Model.by_engine`).  :class:`Model` is the whole model the search holds:
the rules' tables (:mod:`decks.solver.tables`), the safety judgement (:mod:`decks.solver.safety`)
and the moves.
"""

from __future__ import annotations

from collections.abc import Callable

from decks.engine import GameState, Move
from decks.engine.legality import space_allows
from decks.solver.position import _NOWHERE, _ONE, Pos, Step, Targets, Wanted, _add, _kept
from decks.solver.safety import Safety
from decks.solver.tables import _ALL_UP, _ANY, _KING, _NONE, _ONE_CARD, _SUIT_RUN


class Model(Safety):
    """A game's rules compiled for fast search (:class:`~decks.solver.tables.Tables`), the
    safety of foundation plays (:class:`~decks.solver.safety.Safety`) and the moves."""

    def turn_hand(self, cards: tuple[bytes, ...], redeals: int) -> tuple[tuple[bytes, ...], int, bool] | None:
        """One turn of the stock natively (:meth:`_compile_hand`): the hand's piles (stock, waste
        and hand card if any) and redeals after it, and whether it was a redeal; None when the
        stock can be turned no more."""
        stock, waste, *held = cards
        if stock:
            if self.turn_onto_empty and waste:
                return None
            if held:
                return (stock[:-1], waste + held[0], stock[-1:]), redeals, False
            assert self.draw is not None
            k = min(self.draw, len(stock))
            return (stock[:-k], waste + stock[-k:][::-1]), redeals, False
        turned = waste + held[0] if held else waste
        if not turned or self.redeals_allowed is not None and redeals >= self.redeals_allowed:
            return None
        return (turned[::-1], b"", *[b"" for _ in held]), redeals + 1, True

    def redeal_left(self, p: Pos) -> bool:
        """Whether the game's redeal is allowed (its tuning says ``SolverTuning.redeal_check =
        "redeals-left"``): the option ``redeals`` allows another, and the tableau holds a card."""
        allowed = self.redeals_allowed
        if allowed is not None and p.redeals >= allowed:
            return False
        piles = p.piles
        for i in self.tab:
            if len(piles[i]) > 0:
                return True
        return False

    # ---- moves ----

    def movable(self, pile: bytes, hidden: int) -> int:
        """How many top cards of a tableau pile move as a unit at most."""
        up = len(pile) - hidden
        if up <= 0:
            return 0
        unit = self.unit_kind
        if unit == _ONE_CARD:
            return 1
        if unit == _ALL_UP:
            return up
        n, i = 1, len(pile) - 1
        if unit == _SUIT_RUN:
            rank, suit = self.rank, self.suit
            while (i - 1 >= hidden and suit[pile[i - 1]] == suit[pile[i]]
                   and rank[pile[i - 1]] == rank[pile[i]] + 1):
                n, i = n + 1, i - 1
        else:           # built-run
            builds = self.builds
            while i - 1 >= hidden and builds[pile[i - 1]][pile[i]]:
                n, i = n + 1, i - 1
        return n

    def _movable_at(self, s: int, pile: bytes, hidden: int) -> int:
        """:meth:`movable` of pile ``s``: the last answer for that place where the pile is the very
        same bytes object with the same face-down count (a position expanded next is most often
        a child of the last one, which shares all but two of its piles)."""
        if self._was_pile[s] is pile and self._was_hidden[s] == hidden:
            return self._was_movable[s]
        n = self.movable(pile, hidden)
        self._was_pile[s], self._was_hidden[s], self._was_movable[s] = pile, hidden, n
        return n

    def wanted(self, p: Pos) -> Wanted | None:
        """By card code, the foundations that would take the card now (None: none), by the record's
        own foundation rule (one empty foundation stands for all; None when the game has its own
        rule)."""
        if self.by_top is not None:
            return self._by_top_wanted(p)
        if self.own_foundations:
            return None
        if len(self.fnd) == 0:
            return self._no_wanted      # no foundations (the Spider games): one list, only read
        # the last answer where the foundations are the very same bytes objects and the counters
        # the same tuple (a move on the tableau leaves them as they were): the lists are only read
        piles = p.piles
        same = _kept(piles, self.fnd, self._wanted_fnd)
        if same and p.counters is self._wanted_counters and self._wanted_was is not None:
            return self._wanted_was
        out: Wanted = [None] * self.size
        self._wanted_counters, self._wanted_was = p.counters, out
        empty_done = False
        succ, size = self.succ, self.foundation_size
        for f in self.fnd:
            pile = piles[f]
            if len(pile) > 0:
                if len(pile) >= size:
                    continue
                codes = succ[pile[-1]]
            elif empty_done:
                continue
            else:
                empty_done = True
                codes = self.base_codes.get(self.foundation_base or dict(p.counters).get("base", 1), [])
            for c in codes:
                _add(out, c, f)
        return out

    def _by_top_wanted(self, p: Pos) -> Wanted:
        out: Wanted = [None] * self.size
        piles, empty = p.piles, self.size
        for f, table in self.by_top:  # type: ignore[union-attr]
            pile = piles[f]
            for c in table[pile[-1] if pile else empty]:
                _add(out, c, f)
        return out

    def transfers(self, p: Pos, state: Callable[[], GameState], targets: Targets | None = None,
                  sources: list[int] | None = None) -> list[Step]:
        """Every legal transfer worth trying (the engine's ``legal_moves(prune=True)`` transfers),
        given what the piles take now (:meth:`targets`, computed if not given)."""
        out: list[Step] = []
        t = targets or self.targets(p)
        wanted, empty = t.wanted, t.empty
        piles, hidden, is_tab, is_fnd = p.piles, p.hidden, self.is_tab, self.is_fnd
        to_f, to_t, plain, fast_f = self.is_to_f, self.is_to_t, self.plain, self.fast_foundation
        some_empty = len(empty) > 0
        by_one, face_up = self.unit == "one", self.unit == "face-up"
        for s in self.sources if sources is None else sources:
            sp = piles[s]
            size = len(sp)
            if hidden[s] >= size:               # (also an empty pile)
                continue
            if to_f[s] and not (size == 1 and is_fnd[s]):     # a base card stays
                if fast_f and wanted is not None:
                    fs = wanted[sp[-1]]
                    if fs is not None and len(fs) > 0:
                        out.append((s, fs[0], 1))
                else:
                    self._to_foundation(p, s, state, wanted, out)
            if not to_t[s]:
                continue
            first = last = 1            # how many cards may move: first … last
            if not is_tab[s]:
                if is_fnd[s] and size == 1:
                    continue
            elif not by_one:
                last = self._movable_at(s, sp, hidden[s])
                first = last if face_up else 1
            for n in range(first, last + 1):
                for d in t.onto(sp[-n]):
                    if d != s and (plain or self._worth(p, wanted, state, s, d, n)):
                        out.append((s, d, n))
                if some_empty and not (is_tab[s] and n == size):
                    if not self.space_takes(sp, n, state):
                        continue
                    for d in empty:
                        if d != s and (plain or self._worth(p, wanted, state, s, d, n)):
                            out.append((s, d, n))
                            if self.symmetric:
                                break
        return out

    def targets(self, p: Pos) -> Targets:
        """What the piles would take now (:class:`Targets`): foundations by card (:meth:`wanted`),
        tableau piles by the card that would build on their top, and the empty tableau piles."""
        piles = p.piles
        empty = [d for d in self.tab if len(piles[d]) == 0] if self.spaces else []
        if self.wide_builds:
            tops = [(d, piles[d][-1]) for d in self.tab if len(piles[d]) > 0]
            return Targets(self.wanted(p), [None] * self.size, empty, self.card_classes, tops, self.builds)
        # by build class (Tables.build_class: the cards that build on the same tops), the piles
        builds_on: list[list[int] | None] = [None] * self.classes
        builders = self.class_builders
        for d in self.tab:
            dp = piles[d]
            if len(dp) > 0:
                alone = _ONE[d] if d < 256 else [d]     # as _add makes it, without a call a card
                for o in builders[dp[-1]]:
                    was = builds_on[o]
                    builds_on[o] = alone if was is None else [*was, d]
        return Targets(self.wanted(p), builds_on, empty, self.build_class)

    def space_takes(self, pile: bytes, n: int, state: Callable[[], GameState]) -> bool:
        """Whether an empty tableau pile takes the top ``n`` cards of ``pile``."""
        rule = self.space_rule
        if rule >= 0:
            return rule == _ANY or rule != _NONE and self.rank[pile[-n]] == 13 and (rule == _KING or n == 1)
        moving = [self.cards[c] for c in pile[-n:]]
        return space_allows(self.rules, state() if self.rules.space_accepts else None, moving) is None  # type: ignore[arg-type]

    def _worth(self, p: Pos, wanted: Wanted | None, state: Callable[[], GameState], s: int, d: int,
               n: int) -> bool:
        """The game's ``useless`` and ``check`` hooks let this transfer through."""
        useless = self.useless_hook
        if self.kings is not None:
            if self._king_space_useless(p, wanted, s, d, n):
                return False
        elif self.in_suit_useless:
            if self._splits_suit_run(p, s, n):
                return False
        elif useless is not None and useless(state(), self.step_move(s, d, n)):
            return False
        return self._checked(p, state, s, d, n)

    def _splits_suit_run(self, p: Pos, s: int, n: int) -> bool:
        """Spider's ``useless`` (:func:`decks.games.spider.useless`), natively: the top ``n`` cards
        of pile ``s`` would leave a face-up card of their suit one rank above the first of them."""
        sp = p.piles[s]
        at = len(sp) - n
        if at <= p.hidden[s]:
            return False
        a, b = sp[at - 1], sp[at]
        return self.suit[a] == self.suit[b] and self.rank[a] == self.rank[b] + 1

    def _king_space_useless(self, p: Pos, wanted: Wanted | None, s: int, d: int, n: int) -> bool:
        """Klondike's ``useless`` (:func:`decks.games.klondike.useless`), natively: a partial move
        whose uncovered card cannot go home, or a whole pile moved onto another pile when no king
        waits for the space (in the stock or waste, or above the bottom of a tableau pile)."""
        if not self.is_tab[s]:
            return False
        piles = p.piles
        sp = piles[s]
        below = len(sp) - n - 1
        if below >= p.hidden[s]:
            return wanted is None or wanted[sp[below]] is None
        if n != len(sp) or len(piles[d]) == 0:
            return False
        king = self.kings
        assert king is not None
        for i in self.hand:
            for c in piles[i]:
                if king[c]:
                    return False
        for i in self.tab:
            pile = piles[i]
            for j in range(1, len(pile)):
                if king[pile[j]]:
                    return False
        return True

    def _to_foundation(self, p: Pos, s: int, state: Callable[[], GameState], wanted: Wanted | None,
                       out: list[Step]) -> None:
        """The plays of pile ``s``'s top card to the foundations: one empty foundation stands for
        all, and one foundation for all when they are interchangeable."""
        top = p.piles[s][-1]
        if wanted is not None:
            targets = wanted[top] or _NOWHERE
        else:
            accepts = self.rules.foundation_accepts
            assert accepts is not None
            targets = [f for f in self.fnd if accepts(state(), self.names[f], self.cards[top]) is None]
        empty_seen = False
        for f in targets:
            empty = not p.piles[f]
            if empty and empty_seen:
                continue
            if self._checked(p, state, s, f, 1):
                out.append((s, f, 1))
                if self.equal_foundations:
                    return
                empty_seen = empty_seen or empty

    def _checked(self, p: Pos, state: Callable[[], GameState], s: int, d: int, n: int) -> bool:
        """The game's ``check`` hook lets this transfer through."""
        check = self.check_hook
        if check is None:
            return True
        return check(state(), self.step_move(s, d, n), self.card_objects(p.piles[s][-n:])) is None

    def step_move(self, s: int, d: int, n: int) -> Move:
        """The engine's move of a transfer (made once for each)."""
        step = (s, d, n)
        mv = self._step_moves.get(step)
        if mv is None:
            mv = self._step_moves[step] = Move("move", (self.names[s], self.names[d]), n)
        return mv

    def move(self, p: Pos, step: Step) -> Pos:
        """The position after a transfer (with the game's automatic moves)."""
        s, d, n = step
        if not self.native:
            return self.by_engine(p, self.step_move(s, d, n))
        piles = list(p.piles)
        sp = piles[s]
        piles[d] = piles[d] + sp[-n:]
        sp = piles[s] = sp[:-n]
        hidden = p.hidden
        # else the face-down counts are as they were (the child keeps the parent's tuple of them)
        if hidden[s] >= len(sp) or self.automatic:
            up = len(sp) - 1 if len(sp) > 0 and self.is_tab[s] else len(sp)     # after turning up
            if hidden[s] < len(sp) or up == hidden[s]:      # no card to turn up
                # (a run to discard needs 13 face-up cards: most piles are told by their length)
                if len(self.fills) == 0 and not (self.discarding and (
                        len(sp) - hidden[s] >= 13 and self._run_on_top(piles, hidden, s)
                        or len(piles[d]) - hidden[d] >= 13 and self._run_on_top(piles, hidden, d))):
                    return Pos(tuple(piles), hidden, p.redeals, p.counters, p.rng)
            counts = list(hidden)
            if counts[s] >= len(sp):
                counts[s] = up
            if len(self.fills) > 0:
                self._fill_gaps(piles, counts)
            if self.discarding:
                self._discard_runs(piles, counts)
            hidden = tuple(counts)
        return Pos(tuple(piles), hidden, p.redeals, p.counters, p.rng)

    def _run_on_top(self, piles: list[bytes], hidden: tuple[int, ...], i: int) -> bool:
        """Whether pile ``i`` is a tableau pile whose top 13 cards, face up, run king -> ace in one suit
        (:meth:`_discard_runs` would discard them).  A move changes only its two piles, and no pile
        of the position it was made on held such a run (they are discarded at once), so only those
        two need a look."""
        pile = piles[i]
        return self.is_tab[i] and len(pile) - hidden[i] >= 13 and pile[-13:] in self.suit_runs

    def _discard_runs(self, piles: list[bytes], hidden: list[int]) -> None:
        """The automatic discard (:meth:`_compile_automatic`): a run king -> ace of one suit, face up
        at the top of a tableau pile, goes to the discard pile; then the card it lay on is turned up
        if it was face down."""
        runs = self.suit_runs
        for i in self.tab:
            while len(piles[i]) - hidden[i] >= 13 and piles[i][-13:] in runs:
                self._discard(piles, hidden, i)

    def _discard(self, piles: list[bytes], hidden: list[int], i: int) -> None:
        """The top 13 cards of pile ``i`` onto the discard pile, and the card they lay on turned up."""
        d, pile = self.dis[0], piles[i]
        piles[d] = piles[d] + pile[-13:]
        pile = piles[i] = pile[:-13]
        if hidden[i] >= len(pile):
            hidden[i] = len(pile) - 1 if pile else 0

    # ---- the game's actions, natively (:meth:`_compile_actions`) ----

    def action_moves(self, p: Pos, kind: str) -> list[Move]:
        """The legal moves of a native action (:meth:`_compile_actions`), as its ``moves`` and
        ``check`` would list them."""
        if self.native_actions[kind] == "deal-round":
            return [self.action_move(kind)] if self.may_deal_round(p) else []
        return [self.action_move(kind, (self.names[i],)) for i in self.discard_moves(p)]

    def action_move(self, kind: str, piles: tuple[str, ...] = ()) -> Move:
        """The move of an action (made once for each)."""
        key = (kind, *piles)
        mv = self._action_moves.get(key)
        if mv is None:
            mv = self._action_moves[key] = Move(kind, piles)
        return mv

    def act(self, p: Pos, move: Move) -> Pos:
        """The position after a (legal) move of one of the game's actions, with the automatic
        moves: natively where the solver knows the action (:meth:`_compile_actions`), else by the
        engine (:meth:`by_engine`)."""
        how = self.native_actions.get(move.kind)
        if how is None:
            return self.by_engine(p, move)
        piles, hidden = list(p.piles), list(p.hidden)
        counters = p.counters
        if how == "deal-round":
            self._deal_round(piles, hidden)
            count = dict(counters)
            count["deals"] = count.get("deals", 0) + 1
            counters = tuple(sorted(count.items()))
        else:
            self._discard(piles, hidden, self.index[move.piles[0]])
        if self.discarding:
            self._discard_runs(piles, hidden)
        return Pos(tuple(piles), tuple(hidden), p.redeals, counters, p.rng)

    def may_deal_round(self, p: Pos) -> bool:
        """Whether a round may be dealt (``SolverTuning.actions``: ``"deal-round"``,
        :func:`decks.games.spider.check_deal_round`): the stock holds a card and no tableau pile is
        empty."""
        s = self.stock
        assert s is not None
        piles = p.piles
        if len(piles[s]) == 0:
            return False
        for i in self.tab:
            if len(piles[i]) == 0:
                return False
        return True

    def _deal_round(self, piles: list[bytes], hidden: list[int]) -> None:
        """A round from the stock (:func:`decks.games.spider.deal_round`): its top card face up onto
        each tableau pile in turn, while it lasts.  (The action also counts the rounds, as the
        counter ``deals``.)"""
        s = self.stock
        assert s is not None
        stock = piles[s]
        for i in self.tab:
            if not stock:
                break
            piles[i] = piles[i] + stock[-1:]
            stock = stock[:-1]
        piles[s], hidden[s] = stock, len(stock)

    def discard_moves(self, p: Pos) -> list[int]:
        """The tableau piles whose top 13 cards, face up, run king -> ace in one suit: each may be
        discarded (``SolverTuning.actions``: ``"discard-run"``, :func:`decks.games.spider.check_discard`)."""
        piles, hidden, runs = p.piles, p.hidden, self.suit_runs
        return [i for i in self.tab if len(piles[i]) - hidden[i] >= 13 and piles[i][-13:] in runs]

    def _fill_gaps(self, piles: list[bytes], hidden: list[int]) -> None:
        """The gap-filling automatic moves: each empty pile they name takes the stock's top card."""
        i = self.stock
        assert i is not None
        stock = piles[i]
        for fill in self.fills:
            for d in fill:
                if stock and not piles[d]:
                    piles[d], stock = stock[-1:], stock[:-1]
        piles[i], hidden[i] = stock, len(stock)
