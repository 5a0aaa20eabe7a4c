"""The game's rules compiled to tables, once per search (:class:`Tables`).

:class:`Tables` reads a game's rules record and the position the search starts at, and keeps what
the search asks at every position as plain lists indexed by card code or pile: which card builds on
which, which foundation card follows which, how many copies of each card the pack holds, which piles
play where.  Whatever the record leaves to a hook (the game's own actions — stock, redeal, pair
removal —, ``check``, ``useless``, ``space_accepts``, ``foundation_accepts``, automatic moves other
than turning up cards) is run by the engine on a ``GameState`` built from the position
(:meth:`~decks.solver.position.Layout.state`), so every game the engine plays, the solver plays
too.  A hook the game's :class:`~decks.engine.rules.SolverTuning` (``Rules.solver``) names is
compiled instead (a ``"by-top"`` foundation hook is asked once for each top card and card, and its
answers tabled).

The tables are read by the safety judgement (:mod:`decks.solver.safety`) and the moves
(:mod:`decks.solver.moves`), which build on this class.
"""

from __future__ import annotations

from typing import Any, Final

from decks.engine import GameState, Move, Pile, Rules, rules_of
from decks.engine.legality import BUILD_RULES
from decks.engine.play import flip_exposed
from decks.engine.state import ROLE_OF_PREFIX
from decks.solver.position import _NOWHERE, Layout, Pos, Step

_ANY: Final = 0
_KING: Final = 1
_KING_ONLY: Final = 2
_NONE: Final = 3
_SPACE: Final = {"any": _ANY, "king": _KING, "king-only": _KING_ONLY, "none": _NONE}
"""The engine's SPACE_RULES the solver applies itself: what an empty tableau pile takes — anything,
a king (with what lies on it), a king alone, nothing."""


_ONE_CARD: Final = 0
_ALL_UP: Final = 1
_SUIT_RUN: Final = 2
_BUILT_RUN: Final = 3
_UNITS: Final = {"one": _ONE_CARD, "face-up": _ALL_UP, "tail": _ALL_UP, "suit-run": _SUIT_RUN}
"""``Rules.unit`` as a number (any other unit is a built run): what moves as a unit off a tableau
pile — one card, every face-up card, a run in suit, a run built by the game's rule."""


_BY_TOP: Final[dict[tuple[str, tuple[tuple[str, Any], ...]], list[list[list[int]]]]] = {}
"""The foundation tables of :meth:`Model._compile_by_top`, by game and options (made once a process)."""


class Tables(Layout):
    """A game's rules compiled for fast search, from the position the search starts at."""

    def __init__(self, root: GameState, deep_safe: bool = True) -> None:
        """``deep_safe``: judge foundation plays safe the deeper way of :meth:`unneeded` too, where
        the game allows (false: the search of before, ``solve(..., restarts=False)``)."""
        rules = rules_of(root)
        super().__init__(root, rules)
        # the record's fields the search reads at every position, as typed fields of its own
        self.symmetric: bool = rules.symmetric
        self.unit: str = rules.unit
        self.unit_kind = _UNITS.get(rules.unit, _BUILT_RUN)    # the unit as a number, for Model.movable
        # Model._movable_at's last pile at each place (the very bytes object), its face-down count
        # and how many of its cards move as a unit (an empty pile: none)
        piles = len(root.piles)
        self._was_pile, self._was_hidden, self._was_movable = [b""] * piles, [0] * piles, [0] * piles
        self.foundation_size: int = rules.foundation_size
        # Model.wanted where there are no foundations: no card goes anywhere (one list, only read)
        self._no_wanted: list[list[int] | None] = [None] * self.size
        # Model.wanted's last foundations (a pile no position holds to begin with), counters, answer
        self._wanted_counters: tuple[tuple[str, int], ...] = ()
        self._wanted_was: list[list[int] | None] | None = None
        self.foundation_base: int = rules.foundation_base
        self.own_foundations = rules.foundation_accepts is not None
        self.space_rule = _SPACE.get(rules.space, -1) if rules.space_accepts is None else -1
        self.useless_hook, self.check_hook = rules.useless, rules.check
        self.letters = [n[0] for n in self.names]
        self.is_tab = [x == "t" for x in self.letters]      # by pile: a tableau pile
        self.is_fnd = [x == "f" for x in self.letters]      # by pile: a foundation
        by = {letter: [i for i, x in enumerate(self.letters) if x == letter] for letter in "tfrswdh"}
        self.tab, self.fnd, self.res, self.dis = by["t"], by["f"], by["r"], by["d"]
        self._wanted_fnd: list[bytes] = [b"\xff"] * len(self.fnd)     # (Model.wanted's)
        self.stock = by["s"][0] if by["s"] else None
        self.waste = by["w"][0] if by["w"] else None
        self.held = by["h"][0] if by["h"] else None     # the hand card, where the game keeps one
        self.hand = [i for i in (self.stock, self.waste, self.held) if i is not None]
        self.home = self.fnd + self.dis
        self.others = [i for i, x in enumerate(self.letters) if x not in "tfrd"]    # stock, waste, rows …
        size = self.size
        self._step_moves: dict[Step, Move] = {}
        self._action_moves: dict[tuple[str, ...], Move] = {}
        self.rank = [self.cards[c].rank if c in self.cards else 0 for c in range(size)]
        self.suit = [self.cards[c].suit if c in self.cards else "" for c in range(size)]
        build, wrap = BUILD_RULES[rules.build][0], rules.wrap
        self.builds = [[c in self.cards and o in self.cards and build(self.cards[c], self.cards[o], wrap)
                        for o in range(size)] for c in range(size)]        # builds[under][on]
        self.onto = [list(col) for col in zip(*self.builds, strict=True)]   # onto[on][under]
        self.builders = [[o for o in range(size) if self.builds[c][o]] for c in range(size)]
        # cards that build on the very same top cards are one build class (by card code, its
        # class): Model.targets lists the piles each class builds on, by the classes of the cards
        # that build on each top card (``class_builders``), one entry where a rule like Spider's
        # (any suit, one rank lower) makes four cards alike
        columns: dict[tuple[bool, ...], int] = {}
        self.build_class = [columns.setdefault(tuple(row[c] for row in self.builds), len(columns))
                            for c in range(size)]
        self.class_builders = [sorted({self.build_class[o] for o in row}) for row in self.builders]
        self.classes = len(columns)
        self.card_classes = list(range(size))       # (each card its own class: the wide targets)
        # when any card builds on many (Colorado's waste piles take any card), what a pile takes is
        # worked out only for the cards that could move there
        self.wide_builds = max(map(len, self.builders)) > 16
        self.copies = [0] * size
        for p in root.piles.values():
            for c in p.cards:
                self.copies[c.code] += 1
        self._compile_foundations(rules)
        self._compile_by_top(rules, root)
        self.total = sum(self.copies)
        self._compile_roles(rules)
        self._compile_automatic(rules)
        self._compile_actions(rules)
        self._compile_hand(rules, root.options)
        suits = sorted({self.suit[c] for c in self.cards})
        self.suit_number = [suits.index(x) if x else 0 for x in self.suit]     # by card code
        self._compile_safety(rules, deep_safe)
        self.unlimited = root.options.get("redeals") == "unlimited"
        # face-down cards can only appear through the game's hooks
        self.track_hidden = bool(any(p.hidden for p in root.piles.values()) or rules.actions
                                 or not self.native)

    def _compile_safety(self, rules: Rules, deep_safe: bool) -> None:
        """The tables :class:`decks.solver.safety.Safety` judges foundation plays by: which cards
        could need each card in the tableau, which card each follows home, how deep to look, and
        which cards to look at again after a card goes home."""
        size = self.size
        # the cards that could need each card in the tableau, but for aces: an ace can always go to
        # an empty foundation (there is one per ace), so none ever needs a place in the tableau
        aces_go_home = len(self.fnd) >= sum(n for c, n in enumerate(self.copies) if self.rank[c] == 1)
        self.needers = [[o for o in row if not (aces_go_home and self.rank[o] == 1)] for row in self.builders]
        # by card code, whether an empty foundation takes it (the base cards of a safe_kind game)
        self.is_ace = [c in self.base_codes.get(1, _NOWHERE) for c in range(size)]
        # by card code, the one card it follows on a foundation (-1: none; -2: more than one,
        # _next_home then asks succ)
        self.before = [-1] * size
        for top in range(size):
            for after in self.succ[top]:
                self.before[after] = top if self.before[after] == -1 else -2
        self.safe_kind = self._safe_kind(rules)
        # one pack, and cards reach the tableau only from the tableau and the waste, where they may
        # go home from too (the Klondike family): a card's needers that could go home at once need
        # not be home already (:meth:`unneeded`)
        self.deep_safe = deep_safe and self.safe_kind and max(self.copies) <= 1 and all(
            self.is_to_f[i] and (self.is_tab[i] or i == self.waste) for i in self.to_t)
        # the waste's top card is judged so only where the stock is turned one card at a time: turned
        # three at a time, a card played home from the waste changes how the later turns fall (a card
        # they showed may then lie inside a three), and a line that needed the card to stay a while
        # is lost (a position of flip 3 deal 288's random play, won, was called lost)
        self.deep_waste = self.deep_safe and self.draw == 1
        # by pile, how :meth:`unneeded` judges its top card (``deep``)
        self.deep_at: list[bool] = [self.deep_waste if i == self.waste else self.deep_safe
                                    for i in range(len(self.names))]
        # after card c goes home: the cards that may then go home safely (the next of its suit and
        # those whose safety asks whether c is home)
        watch = [set(self.succ[c]) for c in range(size)]
        for x in range(size):
            for asked in self._safety_asks(x):
                watch[asked].add(x)
        self.watch = [[x in watch[c] for x in range(size)] for c in range(size)]    # watch[c][x]

    def _compile_automatic(self, rules: Rules) -> None:
        """The game's automatic moves, made natively when they are all ones the solver knows:
        turning up exposed cards, filling gaps from the stock (``SolverTuning.fill`` names the
        piles: :func:`decks.games.two_pack.gap_filler`), and discarding a finished suit
        (``SolverTuning.discard`` names the option that turns it on:
        :func:`decks.games.spider.auto_discard`; see :meth:`Model._discard_runs`).  The hooks
        besides turning up cards must be exactly those the tuning names, else the engine makes them
        all."""
        self.fills: list[list[int]] = []
        self.native = True
        self.discarding = False
        # each suit's run king -> ace (bottom to top), as a pile's top 13 cards would hold it
        self.suit_runs = frozenset(bytes(c.code for c in sorted(
            (c for c in self.cards.values() if c.suit == suit), key=lambda c: -c.rank))
            for suit in {c.suit for c in self.cards.values()})
        tuning = rules.solver
        known = 0                       # the automatic moves the tuning names
        fill = tuning.fill
        if fill is not None:
            self.fills.append([self.index[n] for n in fill] if isinstance(fill, tuple) else self.tab)
            known += 1
        if tuning.discard is not None and self.dis:
            self.discarding = bool(self.options[tuning.discard])
            known += 1
        self.native = sum(1 for hook in rules.automatic if hook is not flip_exposed) == known
        self.automatic = len(self.fills) > 0 or self.discarding    # besides turning up cards

    def _compile_actions(self, rules: Rules) -> None:
        """The game's actions the solver lists and makes itself, where the automatic moves are all
        native too: an action that ``SolverTuning.actions`` says deals a round (``"deal-round"``:
        :meth:`Model.may_deal_round`, :meth:`Model._deal_round`) or discards a suit's run
        (``"discard-run"``: :meth:`Model.discard_moves`, :meth:`Model._discard`).
        ``self.native_actions``: their kinds, and what each is."""
        self.native_actions: dict[str, str] = {}
        known = dict(rules.solver.actions)
        for kind in rules.actions:
            how = known.get(kind)
            if self.native and (how == "deal-round" and self.stock is not None
                                or how == "discard-run" and self.dis):
                self.native_actions[kind] = how

    def _compile_hand(self, rules: Rules, options: dict[str, Any]) -> None:
        """Turning the stock natively, where the game's tuning says how (``SolverTuning.turn``:
        the option ``draw`` or a number of cards at a time, each onto the waste or, with a hand
        card, into ``h`` after the card held there goes onto the waste; ``SolverTuning.redeal =
        "gather"``: the turned cards make the hand again, as often as the option ``redeals``
        allows) and when (``SolverTuning.turn_check = "hand-left"``: while the hand holds a card,
        :func:`decks.games.klondike.check_turn`; ``"waste-empty"``: and only onto an empty waste,
        :func:`decks.games.colorado.check_deal`).
        ``self.draw`` is the cards turned at a time (None: the engine turns the stock)."""
        tuning = rules.solver
        stock, again = rules.actions.get("stock"), rules.actions.get("redeal")
        draw: Any = tuning.turn if stock else None
        check = tuning.turn_check if stock else None
        if check not in ("hand-left", "waste-empty"):
            draw = None                 # a check of the game's own: the engine turns the stock
        if again is not None and tuning.redeal != "gather":
            draw = None                 # a redeal of the game's own: the engine turns the stock
        self.draw: int | None = int(options["draw"]) if draw == "draw" else draw
        self.turn_onto_empty = check == "waste-empty"
        allowed = options.get("redeals", 0) if again else 0
        self.redeals_allowed = None if allowed == "unlimited" else int(allowed)

    def hand_piles(self) -> list[int]:
        """The piles turning the stock changes: the stock, the waste and the hand card if any (the
        last of them shows the card just turned)."""
        return self.hand

    def _compile_roles(self, rules: Rules) -> None:
        role = ROLE_OF_PREFIX
        self.to_f = [i for i, x in enumerate(self.letters) if role.get(x) in rules.to_foundation]
        self.to_t = [i for i, x in enumerate(self.letters) if role.get(x) in rules.to_tableau]
        self.sources = sorted(set(self.to_f) | set(self.to_t))
        # foundations that never give cards back and follow the record's own rule are interchangeable:
        # only each one's height and top card matter (the top's rank alone when suits do not count)
        self.equal_foundations = rules.foundation_accepts is None and "foundation" not in rules.to_tableau
        self.sort_reserve = rules.symmetric and not rules.actions
        by_one = rules.foundation_suit or rules.foundation_alternate
        ace_king = rules.solver.foundations == "ace-king"
        self.tops_tell_foundations = self.equal_foundations and by_one or ace_king
        # by pile: whether its cards may go to a foundation, to the tableau
        self.is_to_f = [i in self.to_f for i in range(len(self.names))]
        self.is_to_t = [i in self.to_t for i in range(len(self.names))]
        self.spaces = rules.space != "none" or rules.space_accepts is not None   # may a space be filled
        self.plain = rules.useless is None and rules.check is None
        # Klondike's useless hook, made natively (by card code, whether it is a king; None: the
        # game's own hook, if any)
        native = (rules.solver.useless == "king-space"
                  and rules.foundation_accepts is None)
        self.kings = [self.rank[c] == 13 for c in range(self.size)] if native else None
        # Spider's useless hook, made natively (:meth:`_splits_suit_run`)
        self.in_suit_useless = rules.solver.useless == "in-suit"
        # the first foundation that takes a card is the only one worth trying
        self.fast_foundation = self.equal_foundations and rules.check is None

    def _compile_foundations(self, rules: Rules) -> None:
        """Which card follows which on a foundation (by the record's fields), and the base cards."""
        self.base_codes: dict[int, list[int]] = {}
        for c in self.cards.values():
            self.base_codes.setdefault(c.rank, []).append(c.code)
        self.succ: list[list[int]] = [[] for _ in self.rank]
        for top in self.cards.values():
            for c in self.cards.values():
                diff = (c.rank - top.rank) * rules.foundation_step
                if (not rules.foundation_suit or c.suit == top.suit) and (
                        not rules.foundation_alternate or c.colour != top.colour) and (
                        diff == 1 or rules.foundation_wrap and diff == -12):
                    self.succ[top.code].append(c.code)

    @staticmethod
    def _safe_kind(rules: Rules) -> bool:
        """Whether foundation plays can be judged safe here: foundations built up in suit from the
        ace that never give cards back, no extra checks."""
        return (rules.foundation_accepts is None and rules.foundation_suit and rules.foundation_base == 1
                and rules.foundation_step == 1 and not rules.foundation_wrap and rules.check is None
                and "foundation" not in rules.to_tableau and rules.won is None)

    def home_count(self, p: Pos) -> int:
        """Cards on the foundations or discarded."""
        piles = p.piles
        n = 0
        for i in self.home:
            n += len(piles[i])
        return n

    def won(self, p: Pos) -> bool:
        if self.rules.won is not None:
            return self.rules.won(self.state(p))
        return self.home_count(p) == self.total

    def _compile_by_top(self, rules: Rules, root: GameState) -> None:
        """Foundations whose tuning says ``SolverTuning.foundations = "by-top"`` (or ``"ace-king"``,
        :func:`decks.games.two_pack.ace_king_accepts`): its verdict depends only on the foundation,
        its top card (or its being empty) and the card offered, so the hook is asked once for each
        and the answers kept as a table per foundation, top card → the cards it takes (index
        ``size``: an empty foundation), for the game and options (:data:`_BY_TOP`)."""
        self.by_top: list[tuple[int, list[list[int]]]] | None = None
        if rules.solver.foundations not in ("by-top", "ace-king") or rules.foundation_accepts is None:
            return
        key = (root.game, tuple(sorted(root.options.items())))
        tables = _BY_TOP.get(key)
        if tables is None:
            tables = _BY_TOP[key] = [self._ask_foundation(rules, root, f) for f in self.fnd]
        self.by_top = list(zip(self.fnd, tables, strict=True))

    def _ask_foundation(self, rules: Rules, root: GameState, f: int) -> list[list[int]]:
        """Foundation ``f``'s table (:meth:`_compile_by_top`), from its hook on bare game states."""
        accepts, name, cards = rules.foundation_accepts, self.names[f], list(self.cards.values())
        assert accepts is not None
        table: list[list[int]] = []
        for top in [*self.card_list, None]:
            if top is None and len(table) < self.size:      # no card has this code
                table.append([])
                continue
            piles = {n: Pile([], 0) for n in self.names}
            piles[name] = Pile([top] if top is not None else [], 0)
            st = GameState(root.game, root.options, root.deal_number, piles, counters=dict(root.counters))
            table.append([c.code for c in cards if accepts(st, name, c) is None])
        return table

    def _safety_asks(self, x: int) -> set[int]:
        """The cards whose being home :meth:`unneeded` may ask about when judging card ``x``."""
        out: set[int] = set()
        todo = list(self.needers[x])
        while todo:
            o = todo.pop()
            if o in out:
                continue
            out.add(o)
            if self.deep_safe:
                if self.before[o] >= 0:
                    out.add(self.before[o])
                todo.extend(self.needers[o])
        return out
