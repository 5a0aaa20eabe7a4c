"""The solver's compact position: piles as ``bytes`` of card codes, and the rules compiled to tables.

A :class:`~decks.engine.GameState` is friendly to read and slow to copy (a dict of lists of card
objects).  The search instead holds a position as a :class:`Pos`: one ``bytes`` per pile (each
byte a card's :attr:`~decks.packs.PlayingCard.code`, bottom to top), the face-down counts, and
the few integers a game keeps (redeals, counters, its generator).  Two copies of a card in a
two-pack game have the same code, so positions that differ only in which copy lies where *are*
the same position.

:class:`Model` compiles a game's rules record once per search: which card builds on which (a
table), which foundation card follows which, how many copies of each card the pack holds.  From
it, :meth:`Model.transfers` lists legal card moves and :meth:`Model.move` makes one without ever
building a ``GameState``.  Whatever the record leaves to a hook (the game's own actions — stock,
redeal, pair removal —, ``check``, ``useless``, ``space_accepts``, ``foundation_accepts``,
automatic moves other than turning up cards) is run by the engine on a ``GameState`` built from
the position (:meth:`Model.state`), so every game the engine plays, the solver plays too.  A hook
that names how to make it without a game state (``solver_useless``, ``solver_fill``,
``solver_discard``, ``solver_foundations``, ``solver_measure``, ``solver_turn``, ``solver_redeal``,
``solver_action`` and ``solver_check`` on the hook function) is compiled instead (a ``"by-top"``
foundation hook is asked once for each top card and card, and its answers tabled).

What a position is worth is elsewhere: its transposition key in :mod:`decks.solver.keys`, how far
from a win it looks in :mod:`decks.solver.measures`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, final

from decks.engine import (
    BUILD_RULES,
    ROLE_OF_PREFIX,
    GameState,
    Move,
    Pile,
    Rules,
    do_transfer,
    flip_exposed,
    rules_of,
    space_allows,
)
from decks.packs import PlayingCard, pack


@final
class Pos:
    """A position: ``piles`` (bytes of card codes per pile, in the game's pile order), ``hidden``
    (face-down cards at the bottom of each pile), ``redeals``, ``counters`` (sorted items) and
    ``rng`` (the game's generator state).  (A plain class, not a named tuple: compiled, its
    fields are read directly.)"""

    __slots__ = ("piles", "hidden", "redeals", "counters", "rng")

    def __init__(self, piles: tuple[bytes, ...], hidden: tuple[int, ...], redeals: int,
                 counters: tuple[tuple[str, int], ...], rng: int) -> None:
        self.piles, self.hidden, self.redeals, self.counters, self.rng = piles, hidden, redeals, counters, rng

    def fields(self) -> tuple:
        return self.piles, self.hidden, self.redeals, self.counters, self.rng

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pos) and self.fields() == other.fields()

    __hash__ = None         # type: ignore[assignment]  # mutable fields; the search keys by Keys.of

    def __repr__(self) -> str:
        return f"Pos{self.fields()!r}"


Step = tuple[int, int, int]
"""A transfer as pile indexes: source, destination, number of cards."""
Wanted = list[list[int] | None]
"""By card code, the foundations that would take the card now, None for none (:meth:`Model.wanted`)."""


_ANY: Final = 0
_KING: Final = 1
_KING_ONLY: Final = 2
_NONE: Final = 3
_SPACE: Final = {"any": _ANY, "king": _KING, "king-only": _KING_ONLY, "none": _NONE}
"""The engine's SPACE_RULES the solver applies itself: what an empty tableau pile takes — anything,
a king (with what lies on it), a king alone, nothing."""


class _LazyPiles(dict):
    """A ``GameState.piles`` dict whose piles are built from a position when first looked at (the
    game's hooks mostly read one or two piles); its values and items are all of them, built at once
    in the game's order (its names need none built).
    With ``shared`` the card lists are shared between positions (for hooks that only read)."""

    def __init__(self, model: Model, p: Pos, shared: bool = True) -> None:
        super().__init__()
        self._model, self._pos, self._full, self._shared = model, p, False, shared

    def __missing__(self, name: str) -> Pile:
        m = self._model
        i = m.index.get(name)
        if i is None:
            raise KeyError(name)
        pile = Pile(m.card_objects(self._pos.piles[i], shared=self._shared), self._pos.hidden[i])
        dict.__setitem__(self, name, pile)
        return pile

    def _fill(self) -> None:
        if not self._full:
            piles = [(n, self[n]) for n in self._model.names]
            self.clear()
            self.update(piles)
            self._full = True

    def get(self, name: str, default: object = None) -> object:
        return self[name] if name in self._model.index else default

    def __contains__(self, name: object) -> bool:
        return name in self._model.index

    def __len__(self) -> int:
        return len(self._model.names)

    def __iter__(self):  # noqa: ANN204 - a dict's own iterator
        return iter(self._model.names)

    def keys(self):  # noqa: ANN201
        return self._model.names

    def values(self):  # noqa: ANN201
        self._fill()
        return super().values()

    def items(self):  # noqa: ANN201
        self._fill()
        return super().items()


_NOWHERE: Final[list[int]] = []
_BY_TOP: Final[dict[tuple, list[list[list[int]]]]] = {}
"""The foundation tables of :meth:`Model._compile_by_top`, by game and options (made once a process)."""


def _add(table: list[list[int] | None], c: int, pile: int) -> None:
    """Add ``pile`` to ``table[c]``, the piles card ``c`` may go to.  A first pile is a list shared
    by every table (:data:`_ONE`: the tables are only read), a second one makes a list of its own."""
    piles = table[c]
    if piles is None:
        table[c] = _ONE[pile] if pile < 256 else [pile]
    else:
        table[c] = [*piles, pile]


_ONE: Final[list[list[int]]] = [[i] for i in range(256)]
"""One-pile lists for :func:`_add`, shared: never changed."""


@final
class StateOf:
    """A position's engine ``GameState`` for the game's hooks, made when first asked for
    (:meth:`Model.state`) and then kept: call it."""

    def __init__(self, model: Model, p: Pos) -> None:
        self.model, self.p = model, p
        self.made: GameState | None = None

    def __call__(self) -> GameState:
        if self.made is None:
            self.made = self.model.state(self.p)
        return self.made


@final
class Targets:
    """What the piles of a position would take (:meth:`Model.targets`): ``wanted``, by card code the
    foundations that take the card (:data:`Wanted`; None where the game has its own foundation
    rule); ``empty``, the empty tableau piles; and :meth:`onto`, the tableau piles a card would
    build on."""

    def __init__(self, wanted: Wanted | None, builds_on: list[list[int] | None],
                 empty: list[int], tops: list[tuple[int, int]] | None = None,
                 builds: list[list[bool]] | None = None) -> None:
        # builds_on[card]: the piles it builds on, None for none (or, where tops are given, not
        # worked out yet)
        self.wanted, self.builds_on, self.empty = wanted, builds_on, empty
        # where any card builds on many, each card's piles are worked out when first asked, from
        # the piles' top cards (``tops``: (pile, top card)) and the table ``builds[under][on]``
        self.tops, self.builds = tops, builds

    def onto(self, c: int) -> list[int]:
        """The tableau piles card ``c`` would build on (their top cards take it)."""
        out = self.builds_on[c]
        if out is None:
            if self.tops is None or self.builds is None:
                return _NOWHERE
            builds = self.builds
            out = self.builds_on[c] = [d for d, top in self.tops if builds[top][c]]
        return out



class Model:
    """A game's rules compiled for fast search, from the position the search starts at."""

    def __init__(self, root: GameState, deep_safe: bool = True) -> None:
        """``deep_safe``: judge foundation plays safe the deeper way of :meth:`unneeded` too, where
        the game allows (false: the search of before, ``solve(..., restarts=False)``)."""
        rules = rules_of(root)
        self.rules = rules
        # the record's fields the search reads at every position, as typed fields of its own
        self.symmetric: bool = rules.symmetric
        self.unit: str = rules.unit
        self.foundation_size: int = rules.foundation_size
        self.foundation_base: int = rules.foundation_base
        self.own_foundations = rules.foundation_accepts is not None
        self.space_rule = _SPACE.get(rules.space, -1) if rules.space_accepts is None else -1
        self.useless_hook, self.check_hook = rules.useless, rules.check
        self.game, self.options, self.deal_number = root.game, root.options, root.deal_number
        self.names = list(root.piles)
        self.index = {n: i for i, n in enumerate(self.names)}
        self.letters = [n[0] for n in self.names]
        self.is_tab = [x == "t" for x in self.letters]      # by pile: a tableau pile
        self.is_fnd = [x == "f" for x in self.letters]      # by pile: a foundation
        by = {letter: [i for i, x in enumerate(self.letters) if x == letter] for letter in "tfrswdh"}
        self.tab, self.fnd, self.res, self.dis = by["t"], by["f"], by["r"], by["d"]
        self.stock = by["s"][0] if by["s"] else None
        self.waste = by["w"][0] if by["w"] else None
        self.held = by["h"][0] if by["h"] else None     # the hand card, where the game keeps one
        self.hand = [i for i in (self.stock, self.waste, self.held) if i is not None]
        self.home = self.fnd + self.dis
        self.others = [i for i, x in enumerate(self.letters) if x not in "tfrd"]    # stock, waste, rows …
        self.cards = {c.code: c for c in pack(rules.pack)}
        size = self.size = max(self.cards) + 1
        self.card_list = [self.cards.get(c) for c in range(size)]
        self._lists: dict[bytes, list] = {}
        self._step_moves: dict[Step, Move] = {}
        self._action_moves: dict[tuple[str, ...], Move] = {}
        self.rank = [self.cards[c].rank if c in self.cards else 0 for c in range(size)]
        self.suit = [self.cards[c].suit if c in self.cards else "" for c in range(size)]
        build, wrap = BUILD_RULES[rules.build][0], rules.wrap
        self.builds = [[c in self.cards and o in self.cards and build(self.cards[c], self.cards[o], wrap)
                        for o in range(size)] for c in range(size)]        # builds[under][on]
        self.onto = [list(col) for col in zip(*self.builds, strict=True)]   # onto[on][under]
        self.builders = [[o for o in range(size) if self.builds[c][o]] for c in range(size)]
        # when any card builds on many (Colorado's waste piles take any card), what a pile takes is
        # worked out only for the cards that could move there
        self.wide_builds = max(map(len, self.builders)) > 16
        self.copies = [0] * size
        for p in root.piles.values():
            for c in p.cards:
                self.copies[c.code] += 1
        self._compile_foundations(rules)
        self._compile_by_top(rules, root)
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
        self.total = sum(self.copies)
        self._compile_roles(rules)
        self._compile_automatic(rules)
        self._compile_actions(rules)
        self._compile_hand(rules, root.options)
        suits = sorted({self.suit[c] for c in self.cards})
        self.suit_number = [suits.index(x) if x else 0 for x in self.suit]     # by card code
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
        self.unlimited = root.options.get("redeals") == "unlimited"
        # face-down cards can only appear through the game's hooks
        self.track_hidden = bool(any(p.hidden for p in root.piles.values()) or rules.actions
                                 or not self.native)

    def _compile_automatic(self, rules: Rules) -> None:
        """The game's automatic moves, made natively when they are all ones the solver knows:
        turning up exposed cards, filling gaps from the stock (a hook whose ``solver_fill`` names
        the piles, None for the tableau: :func:`decks.games.two_pack.gap_filler`), and discarding
        a finished suit (a hook whose ``solver_discard`` names the option that turns it on:
        :func:`decks.games.spider.auto_discard`; see :meth:`_discard_runs`)."""
        self.fills: list[list[int]] = []
        self.native = True
        self.discarding = False
        # each suit's run king -> ace (bottom to top), as a pile's top 13 cards would hold it
        self.suit_runs = frozenset(bytes(c.code for c in sorted(
            (c for c in self.cards.values() if c.suit == suit), key=lambda c: -c.rank))
            for suit in {c.suit for c in self.cards.values()})
        for hook in rules.automatic:
            fill: Any = getattr(hook, "solver_fill", False)
            discard: Any = getattr(hook, "solver_discard", None)
            if fill is not False:
                self.fills.append(self.tab if fill is None else [self.index[n] for n in fill])
            elif discard is not None and self.dis:
                self.discarding = bool(self.options[discard])
            elif hook is not flip_exposed:
                self.native = False
        self.automatic = len(self.fills) > 0 or self.discarding    # besides turning up cards

    def _compile_actions(self, rules: Rules) -> None:
        """The game's actions the solver lists and makes itself, where the automatic moves are all
        native too: an action whose ``run`` says ``solver_action = "deal-round"`` (its check, run
        and moves are :meth:`deal_round`'s) or ``"discard-run"`` (:meth:`discard_moves`,
        :meth:`discard`).  ``self.native_actions``: their kinds, and what each is."""
        self.native_actions: dict[str, str] = {}
        for kind, action in rules.actions.items():
            how = getattr(action.run, "solver_action", None)
            if self.native and (how == "deal-round" and self.stock is not None
                                or how == "discard-run" and self.dis):
                self.native_actions[kind] = how

    def _compile_hand(self, rules: Rules, options: dict) -> None:
        """Turning the stock natively, where the game's actions say how (``solver_turn``: the
        option ``draw`` or a number of cards at a time, each onto the waste or, with a hand card,
        into ``h`` after the card held there goes onto the waste; ``solver_redeal = "gather"``:
        the turned cards make the hand again, as often as the option ``redeals`` allows) and when
        (the turn's check says ``solver_check = "hand-left"``: while the hand holds a card,
        :func:`decks.games.klondike.check_turn`; ``"waste-empty"``: and only onto an empty waste,
        :func:`decks.games.colorado.check_deal`).
        ``self.draw`` is the cards turned at a time (None: the engine turns the stock)."""
        stock, again = rules.actions.get("stock"), rules.actions.get("redeal")
        draw: Any = getattr(stock.run, "solver_turn", None) if stock else None
        check = getattr(stock.check, "solver_check", None) if stock else None
        if check not in ("hand-left", "waste-empty"):
            draw = None                 # a check of the game's own: the engine turns the stock
        if again is not None and getattr(again.run, "solver_redeal", None) != "gather":
            draw = None                 # a redeal of the game's own: the engine turns the stock
        self.draw: int | None = int(options["draw"]) if draw == "draw" else draw
        self.turn_onto_empty = check == "waste-empty"
        allowed = options.get("redeals", 0) if again else 0
        self.redeals_allowed = None if allowed == "unlimited" else int(allowed)

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
        """Whether the game's redeal is allowed (an action whose check says ``solver_check =
        "redeals-left"``): the option ``redeals`` allows another, and the tableau holds a card."""
        allowed = self.redeals_allowed
        if allowed is not None and p.redeals >= allowed:
            return False
        piles = p.piles
        for i in self.tab:
            if len(piles[i]) > 0:
                return True
        return False

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
        ace_king = getattr(rules.foundation_accepts, "solver_foundations", None) == "ace-king"
        self.tops_tell_foundations = self.equal_foundations and by_one or ace_king
        # by pile: whether its cards may go to a foundation, to the tableau
        self.is_to_f = [i in self.to_f for i in range(len(self.names))]
        self.is_to_t = [i in self.to_t for i in range(len(self.names))]
        self.spaces = rules.space != "none" or rules.space_accepts is not None   # may a space be filled
        self.plain = rules.useless is None and rules.check is None
        # Klondike's useless hook, made natively (by card code, whether it is a king; None: the
        # game's own hook, if any)
        native = (getattr(rules.useless, "solver_useless", None) == "king-space"
                  and rules.foundation_accepts is None)
        self.kings = [self.rank[c] == 13 for c in range(self.size)] if native else None
        # Spider's useless hook, made natively (:meth:`_splits_suit_run`)
        self.in_suit_useless = getattr(rules.useless, "solver_useless", None) == "in-suit"
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

    # ---- converting ----

    def pos(self, state: GameState) -> Pos:
        piles = tuple(bytes([c.code for c in state.piles[n].cards]) for n in self.names)
        hidden = tuple(state.piles[n].hidden for n in self.names)
        return Pos(piles, hidden, state.redeals, tuple(sorted(state.counters.items())), state.rng_state)

    def state(self, p: Pos, fresh: bool = False) -> GameState:
        """The position as an engine ``GameState``.  For the game's read-only hooks (``fresh``
        false) its piles are built when first looked at and their card lists are shared."""
        if not fresh:
            return GameState(self.game, self.options, self.deal_number, _LazyPiles(self, p), p.redeals,
                             dict(p.counters), rng_state=p.rng)
        piles = {n: Pile(self.card_objects(b), h)
                 for n, b, h in zip(self.names, p.piles, p.hidden, strict=True)}
        return GameState(self.game, self.options, self.deal_number, piles, p.redeals, dict(p.counters),
                         rng_state=p.rng)

    def card_objects(self, b: bytes, shared: bool = False) -> list[PlayingCard]:
        """The cards of a pile's bytes (a list shared between calls if ``shared``)."""
        lists = self._lists
        cards = lists.get(b)
        if cards is None:
            if len(lists) > 100_000:
                lists.clear()
            cards = lists[b] = list(map(self.card_list.__getitem__, b))
        return cards if shared else list(cards)

    # ---- what a position is worth ----

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

    # ---- moves ----

    def movable(self, pile: bytes, hidden: int) -> int:
        """How many top cards of a tableau pile move as a unit at most."""
        up = len(pile) - hidden
        if up <= 0:
            return 0
        unit = self.unit
        if unit == "one":
            return 1
        if unit in ("face-up", "tail"):
            return up
        n, i = 1, len(pile) - 1
        if unit == "suit-run":
            rank, suit = self.rank, self.suit
            while (i - 1 >= hidden and suit[pile[i - 1]] == suit[pile[i]]
                   and rank[pile[i - 1]] == rank[pile[i]] + 1):
                n, i = n + 1, i - 1
        else:           # built-run
            builds = self.builds
            while i - 1 >= hidden and builds[pile[i - 1]][pile[i]]:
                n, i = n + 1, i - 1
        return n

    def wanted(self, p: Pos) -> Wanted | None:
        """By card code, the foundations that would take the card now (None: none), by the record's
        own foundation rule (one empty foundation stands for all; None when the game has its own
        rule)."""
        if self.by_top is not None:
            return self._by_top_wanted(p)
        if self.own_foundations:
            return None
        out: Wanted = [None] * self.size
        empty_done = False
        piles, succ, size = p.piles, self.succ, self.foundation_size
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

    def _compile_by_top(self, rules: Rules, root: GameState) -> None:
        """Foundations whose hook says ``solver_foundations = "by-top"`` (or ``"ace-king"``,
        :func:`decks.games.two_pack.ace_king_accepts`): its verdict depends only on the foundation,
        its top card (or its being empty) and the card offered, so the hook is asked once for each
        and the answers kept as a table per foundation, top card → the cards it takes (index
        ``size``: an empty foundation), for the game and options (:data:`_BY_TOP`)."""
        self.by_top: list[tuple[int, list[list[int]]]] | None = None
        if getattr(rules.foundation_accepts, "solver_foundations", None) not in ("by-top", "ace-king"):
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
                last = self.movable(sp, hidden[s])
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
            return Targets(self.wanted(p), [None] * self.size, empty, tops, self.builds)
        builds_on: list[list[int] | None] = [None] * self.size
        builders = self.builders
        for d in self.tab:
            dp = piles[d]
            if len(dp) > 0:
                for o in builders[dp[-1]]:
                    _add(builds_on, o, d)
        return Targets(self.wanted(p), builds_on, empty)

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
        if hidden[s] >= len(sp) or self.automatic:     # else the face-down counts are as they were
            counts = list(hidden)
            if counts[s] >= len(sp):
                counts[s] = len(sp) - 1 if len(sp) > 0 and self.is_tab[s] else len(sp)
            if len(self.fills) > 0:
                self._fill_gaps(piles, counts)
            if self.discarding:
                self._discard_runs(piles, counts)
            hidden = tuple(counts)
        return Pos(tuple(piles), hidden, p.redeals, p.counters, p.rng)

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
        """Whether a round may be dealt (``solver_action = "deal-round"``:
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
        discarded (``solver_action = "discard-run"``: :func:`decks.games.spider.check_discard`)."""
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

    def by_engine(self, p: Pos, move: Move) -> Pos:
        """The position after any move, made by the engine on a ``GameState`` whose piles are built
        only as the move and the game's automatic moves look at them; only those are encoded back.
        (Turning up exposed cards looks only at those piles too: the others had none.)"""
        st = self.engine_state(p)
        self.engine_move(st, move)
        return self.encode(p, st)

    def engine_state(self, p: Pos) -> GameState:
        """A ``GameState`` of the position to make moves on (:meth:`engine_move`), its piles built as
        they are looked at (:meth:`encode` turns it back into a position)."""
        return GameState(self.game, self.options, self.deal_number, _LazyPiles(self, p, shared=False),
                         p.redeals, dict(p.counters), rng_state=p.rng)

    def engine_move(self, st: GameState, move: Move) -> None:
        """Make a (checked) move on an :meth:`engine_state`, with the game's automatic moves."""
        if move.kind == "move":
            do_transfer(st, move)
        else:
            self.rules.actions[move.kind].run(st, move)
        for hook in self.rules.automatic:
            if hook is flip_exposed and type(st.piles) is _LazyPiles:
                for name, pile in dict.items(st.piles):
                    if pile.cards and pile.hidden >= len(pile.cards) and name[0] == "t":
                        pile.hidden = len(pile.cards) - 1
            else:
                hook(st)

    def encode(self, p: Pos, st: GameState) -> Pos:
        """The position of an :meth:`engine_state` made from ``p``: the piles it built, encoded."""
        if type(st.piles) is not _LazyPiles:
            return self.pos(st)
        out, hidden, index = list(p.piles), list(p.hidden), self.index
        for name, pile in dict.items(st.piles):
            i = index[name]
            out[i] = bytes([c.code for c in pile.cards])
            hidden[i] = pile.hidden
        return Pos(tuple(out), tuple(hidden), st.redeals, tuple(sorted(st.counters.items())), st.rng_state)

    def safe_play(self, p: Pos, after: list[Step] | None = None) -> Step | None:
        """A foundation play that cannot be regretted (:meth:`unneeded`), if the position has one.
        ``after``: the foundation plays just made, when the position before them had none — then
        only the piles they left and the cards each played card follows or could carry need a look."""
        if not self.safe_kind:
            return None
        piles, hidden = p.piles, p.hidden
        for s in self.to_f:
            sp = piles[s]
            if hidden[s] >= len(sp):            # (also an empty pile)
                continue
            c = sp[-1]
            if after and not self._watched(piles, after, s, c):
                continue
            f = self._next_home(piles, c)
            if f >= 0 and self.unneeded(p, c, self.deep_at[s]):
                return (s, f, 1)
        return None

    def _next_home(self, piles: tuple[bytes, ...], c: int) -> int:
        """The first foundation (in the game's order) that takes card ``c`` next, -1 for none (an
        empty one takes an ace; one not full the card following its top)."""
        size, ace = self.foundation_size, self.is_ace
        before = self.before[c]
        for f in self.fnd:
            fp = piles[f]
            if len(fp) == 0:
                if ace[c]:
                    return f
            elif len(fp) < size and (fp[-1] == before if before >= 0
                                     else before == -2 and c in self.succ[fp[-1]]):
                return f
        return -1

    def _watched(self, piles: tuple[bytes, ...], after: list[Step], s: int, c: int) -> bool:
        """After the foundation plays ``after``: whether pile ``s`` is one they left, or card ``c``
        one that a card they played home lets go home safely (:attr:`watch`)."""
        watch = self.watch
        for step in after:
            if step[0] == s or watch[piles[step[1]][-1]][c]:
                return True
        return False

    def safe_top(self, p: Pos, s: int, wanted: Wanted | None) -> bool:
        """Whether pile ``s``'s top card is a safe foundation play, ``wanted`` being what the
        foundations take (:meth:`wanted`; None, where the game has its own rule: never)."""
        sp = p.piles[s]
        return (wanted is not None and self.is_to_f[s] and len(sp) > p.hidden[s]
                and wanted[sp[-1]] is not None
                and self.unneeded(p, sp[-1], self.deep_at[s]))

    def unneeded(self, p: Pos, c: int, deep: bool) -> bool:
        """Whether card ``c`` is of no more use in the tableau: every card that could be built on it
        (each copy) is already on a foundation, or, where ``deep`` (:attr:`deep_safe`; for the
        waste's top card :attr:`deep_waste`), could go there the moment it could be built on ``c``:
        the card before it on its foundation is home (one pack: that foundation takes it next) and
        it is itself of no more use, judged the same way.  A line of play that builds such cards on
        ``c`` can send them home instead, and the foundations only grow, so what is home now stays
        home."""
        copies, before = self.copies, self.before
        for o in self.needers[c]:
            if self._home_copies(p, o) >= copies[o]:
                continue
            if not (deep and before[o] >= 0 and self._home_copies(p, before[o]) >= 1
                    and self.unneeded(p, o, True)):
                return False
        return True

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

    def _home_copies(self, p: Pos, o: int) -> int:
        """How many copies of card ``o`` are on the foundations (built up in suit from the ace)."""
        rank, suit = self.rank, self.suit_number
        piles = p.piles
        want, at_least = suit[o], rank[o]
        n = 0
        for f in self.fnd:
            fp = piles[f]
            if len(fp) > 0:
                top = fp[-1]
                if suit[top] == want and rank[top] >= at_least:
                    n += 1
        return n
