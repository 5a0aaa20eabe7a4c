"""The solver's compact position: piles as ``bytes`` of card codes.

A :class:`~decks.engine.GameState` is friendly to read and slow to copy (a dict of lists of card
objects).  The search instead holds a position as a :class:`Pos`: one ``bytes`` per pile (each
byte a card's :attr:`~decks.packs.PlayingCard.code`, bottom to top), the face-down counts, and
the few integers a game keeps (redeals, counters, its generator).  Two copies of a card in a
two-pack game have the same code, so positions that differ only in which copy lies where *are*
the same position.

The game's rules are compiled for positions like these once per search, in three layers: the rules
as tables (:mod:`decks.solver.tables`), the judgement of which foundation plays are safe
(:mod:`decks.solver.safety`) and the moves (:mod:`decks.solver.moves`, whose :class:`Model` the
search holds).  What a position is worth is elsewhere: its transposition key in
:mod:`decks.solver.keys`, how far from a win it looks in :mod:`decks.solver.measures`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final, TypeVar, cast, final, overload

from decks.engine import GameState, Move, Pile, Rules
from decks.engine.play import do_transfer, flip_exposed
from decks.packs import PlayingCard, pack

if TYPE_CHECKING:
    from _collections_abc import dict_items, dict_values

_T = TypeVar("_T")


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

    def fields(self) -> tuple[tuple[bytes, ...], tuple[int, ...], int, tuple[tuple[str, int], ...], int]:
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


_NOWHERE: Final[list[int]] = []


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

_LOW_BIT: Final[list[int]] = [0] * 67
for _c in range(63):
    _LOW_BIT[(1 << _c) % 67] = _c
"""By a bit's remainder modulo 67 (each of 2**0 … 2**62 leaves a different one), its place: which
card a one-bit mask stands for (a set of cards as the bits of an i64, by code), without shifting
through the bits below it."""


def _kept(piles: tuple[bytes, ...], indexes: list[int], was: list[bytes]) -> bool:
    """Whether the piles ``indexes`` are the very bytes objects ``was`` holds, ``was`` then made
    them: a position's children share the piles a move leaves alone, so what was worked out from
    those piles alone (the foundations' wanted cards, say) holds again exactly when this says so."""
    same = True
    for j in range(len(indexes)):
        pile = piles[indexes[j]]
        if pile is not was[j]:
            was[j] = pile
            same = False
    return same


def _find(pile: bytes, c: int) -> int:
    """Where card ``c`` first lies in ``pile``, -1 if nowhere (``bytes.find``, without a method
    call)."""
    for j in range(len(pile)):
        if pile[j] == c:
            return j
    return -1


def _below(pile: bytes, t: int, place: int) -> bool:
    """Whether card ``t`` lies in ``pile`` beneath ``place``."""
    for j in range(min(place, len(pile))):
        if pile[j] == t:
            return True
    return False



@final
class Targets:
    """What the piles of a position would take (:meth:`Model.targets`): ``wanted``, by card code the
    foundations that take the card (:data:`Wanted`; None where the game has its own foundation
    rule); ``empty``, the empty tableau piles; and :meth:`onto`, the tableau piles a card would
    build on."""

    def __init__(self, wanted: Wanted | None, builds_on: list[list[int] | None],
                 empty: list[int], classes: list[int], tops: list[tuple[int, int]] | None = None,
                 builds: list[list[bool]] | None = None) -> None:
        # builds_on[classes[card]]: the piles the card builds on, None for none (or, where tops are
        # given, not worked out yet); cards of one build class (Tables.build_class) build on the
        # same piles
        self.wanted, self.builds_on, self.empty, self.classes = wanted, builds_on, empty, classes
        # where any card builds on many, each card's piles are worked out when first asked, from
        # the piles' top cards (``tops``: (pile, top card)) and the table ``builds[under][on]``
        # (each card its own class then)
        self.tops, self.builds = tops, builds

    def onto(self, c: int) -> list[int]:
        """The tableau piles card ``c`` would build on (their top cards take it)."""
        k = self.classes[c]
        out = self.builds_on[k]
        if out is None:
            if self.tops is None or self.builds is None:
                return _NOWHERE
            builds = self.builds
            out = self.builds_on[k] = [d for d, top in self.tops if builds[top][c]]
        return out


class _LazyPiles(dict[str, Pile]):
    """A ``GameState.piles`` dict whose piles are built from a position when first looked at (the
    game's hooks mostly read one or two piles); its values and items are all of them, built at once
    in the game's order (its names need none built).
    With ``shared`` the card lists are shared between positions (for hooks that only read)."""

    def __init__(self, model: Layout, p: Pos, shared: bool = True) -> None:
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

    @overload
    def get(self, name: str, default: None = None) -> Pile | None: ...
    @overload
    def get(self, name: str, default: Pile) -> Pile: ...
    @overload
    def get(self, name: str, default: _T) -> Pile | _T: ...
    def get(self, name: str, default: object = None) -> object:
        return self[name] if name in self._model.index else default

    def __contains__(self, name: object) -> bool:
        return name in self._model.index

    def __len__(self) -> int:
        return len(self._model.names)

    def __iter__(self) -> Iterator[str]:
        return iter(self._model.names)

    def keys(self) -> list[str]:  # type: ignore[override]  # the names, with no pile built
        return self._model.names

    def values(self) -> dict_values[str, Pile]:
        self._fill()
        return super().values()

    def items(self) -> dict_items[str, Pile]:
        self._fill()
        return super().items()


@final
class StateOf:
    """A position's engine ``GameState`` for the game's hooks, made when first asked for
    (:meth:`Layout.state`) and then kept: call it."""

    def __init__(self, model: Layout, p: Pos) -> None:
        self.model, self.p = model, p
        self.made: GameState | None = None

    def __call__(self) -> GameState:
        if self.made is None:
            self.made = self.model.state(self.p)
        return self.made





class Layout:
    """The game's piles and cards, read from the position a search starts at: what turns a
    :class:`Pos` into an engine ``GameState`` (:meth:`state`, for the game's hooks; :meth:`by_engine`,
    to make a move the solver leaves to the engine) and back (:meth:`pos`, :meth:`encode`)."""

    def __init__(self, root: GameState, rules: Rules) -> None:
        self.rules = rules
        self.game, self.options, self.deal_number = root.game, root.options, root.deal_number
        self.names = list(root.piles)
        self.index = {n: i for i, n in enumerate(self.names)}
        self.cards = {c.code: c for c in pack(rules.pack)}
        self.size = max(self.cards) + 1
        self.card_list = [self.cards.get(c) for c in range(self.size)]
        self._lists: dict[bytes, list[PlayingCard]] = {}

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
            # every code in a position's bytes is a card of the pack: no None among them
            cards = lists[b] = cast("list[PlayingCard]", list(map(self.card_list.__getitem__, b)))
        return cards if shared else list(cards)

    # ---- what a position is worth ----

    def engine_state(self, p: Pos) -> GameState:
        """A ``GameState`` of the position to make moves on (:meth:`engine_move`), its piles built as
        they are looked at (:meth:`encode` turns it back into a position)."""
        return GameState(self.game, self.options, self.deal_number, _LazyPiles(self, p, shared=False),
                         p.redeals, dict(p.counters), rng_state=p.rng)

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

    def by_engine(self, p: Pos, move: Move) -> Pos:
        """The position after any move, made by the engine on a ``GameState`` whose piles are built
        only as the move and the game's automatic moves look at them; only those are encoded back.
        (Turning up exposed cards looks only at those piles too: the others had none.)"""
        st = self.engine_state(p)
        self.engine_move(st, move)
        return self.encode(p, st)

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
