"""The rules engine: a game is a rules record plus a few small hooks; play is data in, data out.

How to use it (the API the command line, the card-deck encoder and the solver rely on)::

    from decks import engine
    state = engine.deal("klondike", 617, {"draw": 3})      # a GameState, cards dealt
    moves = engine.legal_moves(state)                       # [Move('t4 f'), Move('s'), …]
    state = engine.apply(state, engine.parse_move("t4 t1"))  # new state; raises IllegalMove
    state = engine.undo(state); state = engine.redo(state)
    engine.is_won(state), engine.is_stuck(state)
    engine.get_game("klondike"), engine.game_names()

**Game state** (:class:`GameState`, a plain mutable dataclass — :func:`apply` returns a new one and
leaves its argument alone): ``game`` (registry name), ``options`` (every option of the game, resolved
to its value: bool, int or str), ``deal_number``, ``piles`` (an ordered ``dict`` name → :class:`Pile`;
a pile is ``cards`` bottom → top plus ``hidden``, the number of face-down cards at the bottom —
in every game of our seeds face-down cards lie under the face-up ones; ``Pile.faces()`` gives
(card, face_up) pairs and ``Pile.from_faces`` builds a pile back), ``redeals`` (redeals used),
``counters`` (per-game integers, e.g. ``deals`` made from the stock, ``base`` rank of Agnes'
foundations), ``history`` (the player's moves since the deal), ``future`` (moves undone, for redo)
and ``rng_state`` (the game's own generator, :class:`decks.deals.GameRandom`, so a loaded game
continues identically).  ``GameState.to_dict()`` / ``GameState.from_dict()`` give a JSON-ready
form with cards as short names.

**Pile names.**  A letter for the pile's role and a number: ``t1`` … tableau, ``f1`` … foundations,
``r1`` … reserve piles; single piles have the letter alone: ``s`` stock (the hand), ``w`` waste,
``d`` discard (completed suits, removed pairs).  Games with rows may add their own letters.

**Move notation** (:func:`parse_move`, ``str(move)``), one move per line, tokens separated by spaces:

=================  ==========================================================================
``t3 f``           top card of tableau 3 to a foundation (the first one that takes it; the
                   move is recorded with the foundation it went to, e.g. ``t3 f2``)
``w t2``           top card of the waste onto tableau 2; ``r5 t1`` from reserve 5
``t1 t4 3``        the top three cards of tableau 1, as a unit, onto tableau 4
``s``              the stock: turn card(s) to the waste, or deal a round onto the piles
``r``              redeal (gather the waste back into the stock, or La Belle Lucie's shuffle)
``x t3 t5``        remove the top cards of tableau 3 and 5 as a pair (``x t2``: one card)
``p c4 2``         a game's special pick (e.g. Labyrinth's last-resort free card): kind letter,
                   pile names, then an optional number
=================  ==========================================================================

The move kinds are ``move`` (a transfer between piles, checked by the engine from the rules
record), ``stock``, ``redeal``, ``remove``, ``pick`` and any a game adds; all but ``move`` are
:class:`Action` hooks of the game.  Illegal moves raise :class:`IllegalMove`, whose message names
the move and the rule that forbids it.

**Rules record** (:class:`Rules`): the piles and their roles, the deal hook, tableau building
(``build`` + ``wrap``), what moves as a unit (``unit``), what fills a space (``space``), the
foundations (``foundation_suit``, ``foundation_step``, ``foundation_wrap``, ``foundation_base``),
which piles may play where, the actions (stock, redeal, pair removal …), automatic moves run after
every move (``automatic``), extra checks (``check``), the win test, the options (:class:`Option`,
the seed's reading as default) and ``configure`` to derive a variant record from option values.
Two-pack games use the same record: ``pack='double'``, eight foundations, rows as their own piles.

**Positions by hand**: ``make_state('klondike', {'t1': '-9D 8S 7H', 'f1': 'AH'})`` (face-down cards
with a leading '-'; other piles empty) — for tests, puzzles and the card-deck decoder.  A state's
``options`` dict is fixed once dealt (copies share it).

**For the solver** (:mod:`decks.solver`) a record may add ``useless(state, move)`` (a legal move never
worth trying, left out of ``legal_moves(state, prune=True)``) and ``distance(state)`` (how far from a
win a position looks; smaller is tried first).

**Automatic moves** happen inside :func:`apply` (turning up exposed face-down cards, discarding a
finished suit, …); only the player's moves go into ``history``, so replaying the history from the
deal reproduces the state (that is how :func:`undo` works).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from decks.deals import GameRandom, check_deal_number, deal_order
from decks.packs import PlayingCard, card, pack
from emulator.errors import IbmError

# ---------------------------------------------------------------------------------------------
# Errors, piles, moves, state


class IllegalMove(IbmError):
    """A move the rules forbid; ``rule`` says which rule, ``move`` is the move as written."""

    def __init__(self, move: Move | str, rule: str) -> None:
        self.move = str(move)
        self.rule = rule
        super().__init__(f"illegal move {self.move!r}: {rule}")


ROLE_OF_PREFIX = {"t": "tableau", "f": "foundation", "r": "reserve", "s": "stock", "w": "waste",
                  "d": "discard"}


@dataclass
class Pile:
    """Cards from bottom (index 0) to top (index −1); the bottom ``hidden`` cards are face down."""

    cards: list[PlayingCard] = field(default_factory=list)
    hidden: int = 0

    @property
    def top(self) -> PlayingCard | None:
        return self.cards[-1] if self.cards else None

    @property
    def face_up(self) -> list[PlayingCard]:
        """The face-up cards, bottom to top."""
        return self.cards[self.hidden:]

    def faces(self) -> list[tuple[PlayingCard, bool]]:
        """(card, face_up) pairs from bottom to top."""
        return [(c, i >= self.hidden) for i, c in enumerate(self.cards)]

    @classmethod
    def from_faces(cls, faces: Iterable[tuple[PlayingCard, bool]]) -> Pile:
        """Build a pile from (card, face_up) pairs; face-down cards must lie under face-up ones."""
        faces = list(faces)
        hidden = 0
        while hidden < len(faces) and not faces[hidden][1]:
            hidden += 1
        if any(not up for _, up in faces[hidden:]):
            raise IbmError("a face-down card lies on a face-up card; no game here allows that")
        return cls([c for c, _ in faces], hidden)

    def copy(self) -> Pile:
        return Pile(self.cards[:], self.hidden)

    def __len__(self) -> int:
        return len(self.cards)

    def take(self, n: int) -> list[PlayingCard]:
        """Remove and return the top ``n`` cards (bottom to top)."""
        moved = self.cards[len(self.cards) - n:]
        del self.cards[len(self.cards) - n:]
        self.hidden = min(self.hidden, len(self.cards))
        return moved


@dataclass(frozen=True)
class Move:
    """One player move: ``kind`` ('move', 'stock', 'redeal', 'remove', 'pick', …), the pile names it
    touches (for 'move': source then destination) and a count (cards moved, or a game's number)."""

    kind: str
    piles: tuple[str, ...] = ()
    count: int = 1

    @property
    def src(self) -> str:
        return self.piles[0] if self.piles else ""

    @property
    def dst(self) -> str:
        return self.piles[1] if len(self.piles) > 1 else ""

    def __str__(self) -> str:
        if self.kind == "move":
            text = f"{self.src} {self.dst}"
            return text + (f" {self.count}" if self.count != 1 else "")
        letter = KIND_LETTER.get(self.kind, self.kind)
        parts = [letter, *self.piles]
        if self.count != 1:
            parts.append(str(self.count))
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"


KIND_LETTER = {"stock": "s", "redeal": "r", "remove": "x", "pick": "p"}
LETTER_KIND = {v: k for k, v in KIND_LETTER.items()}


def transfer(src: str, dst: str, count: int = 1) -> Move:
    """The move of ``count`` cards from pile ``src`` to pile ``dst``."""
    return Move("move", (src, dst), count)


def parse_move(text: str) -> Move:
    """A move from its notation (see the module docstring), e.g. ``parse_move('t1 t4 3')``."""
    tokens = text.split()
    if not tokens:
        raise IbmError("empty move")
    count = 1
    if len(tokens) > 1 and tokens[-1].isdigit():
        count = int(tokens.pop())
        if count < 1:
            raise IbmError(f"move {text!r}: the count must be at least 1")
    for tok in tokens:
        if not tok.isalnum() or not tok[0].isalpha():
            raise IbmError(f"move {text!r}: {tok!r} is not a pile name or move letter")
    head = tokens[0].lower()
    rest = tuple(t.lower() for t in tokens[1:])
    if head in LETTER_KIND and (len(tokens) == 1 or head in ("x", "p")):
        return Move(LETTER_KIND[head], rest, count)
    if len(tokens) == 2:
        return Move("move", (head, rest[0]), count)
    raise IbmError(f"move {text!r} not understood: write e.g. 't3 f', 't1 t4 3', 's', 'r', 'x t3 t5'")


def parse_moves(text: str) -> list[Move]:
    """Moves one per line (or separated by ';' or ','); '#' starts a comment."""
    moves = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        for part in line.replace(";", ",").split(","):
            if part.strip():
                moves.append(parse_move(part))
    return moves


@dataclass
class GameState:
    """Everything about a game in progress (see the module docstring)."""

    game: str
    options: dict[str, Any]
    deal_number: int
    piles: dict[str, Pile]
    redeals: int = 0
    counters: dict[str, int] = field(default_factory=dict)
    history: list[Move] = field(default_factory=list)
    future: list[Move] = field(default_factory=list)
    rng_state: int = 0

    def copy(self) -> GameState:
        """An independent copy (the options dict, fixed once dealt, is shared)."""
        new = GameState(self.game, self.options, self.deal_number,
                        {n: Pile(p.cards[:], p.hidden) for n, p in self.piles.items()}, self.redeals,
                        dict(self.counters), self.history[:], self.future[:], self.rng_state)
        cached = self.__dict__.get("_rules")
        if cached is not None:
            new.__dict__["_rules"] = cached
        return new

    def pile(self, name: str) -> Pile:
        try:
            return self.piles[name]
        except KeyError:
            raise IbmError(f"{self.game} has no pile {name!r} (piles: {' '.join(self.piles)})") from None

    def names(self, role: str) -> list[str]:
        """The names of the piles of one role ('tableau', 'foundation', …) in order."""
        return [n for n in self.piles if role_of(n) == role]

    def rng(self) -> GameRandom:
        """The game's generator at its current state (call :meth:`save_rng` after using it)."""
        return GameRandom(self.rng_state)

    def save_rng(self, rng: GameRandom) -> None:
        self.rng_state = rng.state

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (cards as short names, face-down ones prefixed with '-')."""
        return {
            "game": self.game, "options": dict(self.options), "deal": self.deal_number,
            "piles": {n: [c.name if up else "-" + c.name for c, up in p.faces()]
                      for n, p in self.piles.items()},
            "redeals": self.redeals, "counters": dict(self.counters),
            "history": [str(m) for m in self.history], "future": [str(m) for m in self.future],
            "rng_state": self.rng_state,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        """The inverse of :meth:`to_dict` (IbmError naming the problem if ``data`` is malformed)."""
        try:
            return cls._from_dict(data)
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise IbmError(f"malformed game state: {type(err).__name__}: {err}") from None

    @classmethod
    def _from_dict(cls, data: Mapping[str, Any]) -> GameState:
        kind = get_game(data["game"]).pack
        piles = {n: Pile.from_faces((card(x.lstrip("-"), kind), not x.startswith("-")) for x in names)
                 for n, names in data["piles"].items()}
        return cls(data["game"], dict(data["options"]), int(data["deal"]), piles, int(data["redeals"]),
                   {k: int(v) for k, v in data["counters"].items()},
                   [parse_move(m) for m in data["history"]], [parse_move(m) for m in data["future"]],
                   int(data["rng_state"]))

    def show(self) -> str:
        """A plain-text picture: one line per pile, face-down cards as '##'."""
        lines = []
        for n, p in self.piles.items():
            shown = ["##"] * p.hidden + [c.name for c in p.face_up]
            lines.append(f"{n:>4}: {' '.join(shown)}")
        return "\n".join(lines)


_ROLE = ROLE_OF_PREFIX.get


def role_of(name: str) -> str:
    """The role of a pile from its name's leading letter ('t3' → 'tableau')."""
    return ROLE_OF_PREFIX.get(name[0], "other") if name else "other"


# ---------------------------------------------------------------------------------------------
# Rules record


@dataclass(frozen=True)
class Option:
    """A named game option: ``kind`` is 'bool', 'int', 'count' (an int or 'unlimited') or 'choice'."""

    name: str
    default: Any
    kind: str = "bool"
    choices: tuple[str, ...] = ()
    help: str = ""

    def parse(self, value: Any) -> Any:
        """The option's value from a Python value or a command-line string; IbmError if invalid."""
        text = str(value).strip().lower()
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
        elif self.kind in ("int", "count"):
            if self.kind == "count" and text in ("unlimited", "inf", "-1"):
                return "unlimited"
            if text.isdigit():
                return int(text)
        elif self.kind == "choice" and text in self.choices:
            return text
        expect = {"bool": "true or false", "int": "a number", "count": "a number or 'unlimited'",
                  "choice": " / ".join(self.choices)}[self.kind]
        raise IbmError(f"option {self.name}={value!r}: expected {expect}")


@dataclass(frozen=True)
class PileGroup:
    """``count`` piles of one role named ``prefix`` + 1 … count (or just ``prefix`` if ``single``)."""

    prefix: str
    count: int = 1
    single: bool = False

    def names(self) -> list[str]:
        if self.single:
            return [self.prefix]
        return [f"{self.prefix}{i}" for i in range(1, self.count + 1)]


def stock() -> PileGroup:
    return PileGroup("s", 1, True)


def waste() -> PileGroup:
    return PileGroup("w", 1, True)


def discard() -> PileGroup:
    return PileGroup("d", 1, True)


@dataclass(frozen=True)
class Action:
    """A move kind other than a transfer, as three hooks over the state.

    ``check(state, move)`` returns None when legal, else the rule that forbids it; ``run(state,
    move)`` performs it in place; ``moves(state)`` lists the candidate moves of this kind (the engine
    keeps those that ``check`` allows).
    """

    check: Callable[[GameState, Move], str | None]
    run: Callable[[GameState, Move], None]
    moves: Callable[[GameState], list[Move]]


DealHook = Callable[[GameState, list[PlayingCard]], None]
StateHook = Callable[[GameState], None]
CheckHook = Callable[[GameState, Move, list[PlayingCard]], str | None]


@dataclass(frozen=True)
class Rules:
    """A game as data.  See the module docstring; the hooks have sensible engine defaults."""

    name: str
    title: str
    seed: str                               # which rule text: '000', '001', '003', '004'
    row: int                                # row of ../shared/reference/solitaire-rules.md
    piles: tuple[PileGroup, ...]
    deal: DealHook
    pack: str = "standard"
    build: str = "none"                     # key of BUILD_RULES: how tableau cards go on each other
    wrap: bool = False                      # ace and king adjacent in tableau building
    unit: str = "one"                       # key of UNIT_RULES: which tails of a pile move together
    space: str = "any"                      # key of SPACE_RULES: what may fill an empty tableau pile
    foundation_suit: bool = True            # foundations built in suit
    foundation_step: int = 1                # +1 up, −1 down
    foundation_wrap: bool = False           # K→A continues
    foundation_base: int = 1                # rank of an empty foundation's first card; 0: counters['base']
    foundation_size: int = 13               # cards on a finished foundation
    to_foundation: tuple[str, ...] = ("tableau", "waste", "reserve")   # roles that play to foundations
    to_tableau: tuple[str, ...] = ("tableau", "waste", "reserve")      # roles that build on the tableau
    actions: Mapping[str, Action] = field(default_factory=dict)
    automatic: tuple[StateHook, ...] = ()   # run after each move, in order
    check: CheckHook | None = None          # extra restrictions on transfers
    foundation_accepts: Callable[[GameState, str, PlayingCard], str | None] | None = None
    space_accepts: Callable[[GameState, PlayingCard], str | None] | None = None
    won: Callable[[GameState], bool] | None = None
    options: tuple[Option, ...] = ()
    configure: Callable[[Rules, Mapping[str, Any]], Rules] | None = None
    symmetric: bool = True                  # tableau piles interchangeable (for solver keys)
    useless: Callable[[GameState, Move], bool] | None = None   # solver: legal but never worth trying
    distance: Callable[[GameState], int] | None = None         # solver: how far from a win it looks
    notes: str = ""

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        known = ", ".join(o.name for o in self.options) or "none"
        raise IbmError(f"{self.name} has no option {name!r} (options: {known})")

    def pile_names(self) -> list[str]:
        return [n for g in self.piles for n in g.names()]


# ---- building rules: can card ``on`` go onto card ``under`` in the tableau? ----


def _adjacent(under: PlayingCard, on: PlayingCard, step: int, wrap: bool) -> bool:
    diff = (under.rank - on.rank) * step    # step +1: 'on' one below 'under'
    if diff == 1:
        return True
    return wrap and diff == -12


def _down(under: PlayingCard, on: PlayingCard, wrap: bool) -> bool:
    return _adjacent(under, on, 1, wrap)


def _updown(under: PlayingCard, on: PlayingCard, wrap: bool) -> bool:
    return _adjacent(under, on, 1, wrap) or _adjacent(under, on, -1, wrap)


BuildRule = Callable[[PlayingCard, PlayingCard, bool], bool]
BUILD_RULES: dict[str, tuple[BuildRule, str]] = {
    "none": (lambda u, o, w: False, "no building on the tableau"),
    "alt-down": (lambda u, o, w: u.colour != o.colour and _down(u, o, w),
                 "the tableau builds down in alternating colours"),
    "suit-down": (lambda u, o, w: u.suit == o.suit and _down(u, o, w), "the tableau builds down in suit"),
    "any-down": (lambda u, o, w: _down(u, o, w), "the tableau builds down regardless of suit"),
    "suit-updown": (lambda u, o, w: u.suit == o.suit and _updown(u, o, w),
                    "the tableau builds up or down in suit"),
    "any-updown": (lambda u, o, w: _updown(u, o, w), "the tableau builds up or down regardless of suit"),
    "other-suit-down": (lambda u, o, w: u.suit != o.suit and _down(u, o, w),
                        "the tableau builds down in any suit but its own"),
}


def builds_on(rules: Rules, under: PlayingCard, on: PlayingCard) -> bool:
    """True if ``on`` may be placed on ``under`` by the game's tableau building rule."""
    return BUILD_RULES[rules.build][0](under, on, rules.wrap)


# ---- move units: the longest tail of a tableau pile that may move at once ----


def _run_length(cards: list[PlayingCard], hidden: int, ok: Callable[[PlayingCard, PlayingCard], bool]) -> int:
    n = 1 if len(cards) > hidden else 0
    i = len(cards) - 1
    while i - 1 >= hidden and ok(cards[i - 1], cards[i]):
        n += 1
        i -= 1
    return n


def movable_tail(rules: Rules, pile: Pile) -> int:
    """How many top cards of a tableau pile may move as a unit at most (0 if none)."""
    if not pile.cards or pile.hidden >= len(pile.cards):
        return 0
    unit = rules.unit
    if unit == "one":
        return 1
    if unit in ("face-up", "tail"):
        return len(pile.cards) - pile.hidden
    if unit == "suit-run":
        return _run_length(pile.cards, pile.hidden, lambda u, o: u.suit == o.suit and _down(u, o, False))
    if unit == "built-run":
        return _run_length(pile.cards, pile.hidden, lambda u, o: builds_on(rules, u, o))
    raise IbmError(f"unknown move unit {unit!r}")


UNIT_RULES = {
    "one": "only one card moves at a time",
    "face-up": "all face-up cards of a pile move as a unit (or the top card alone to a foundation)",
    "tail": "any number of face-up cards may move",
    "suit-run": "only a descending run in one suit moves as a unit",
    "built-run": "only a built group (in sequence by the building rule) moves as a unit",
}


def unit_allows(rules: Rules, pile: Pile, n: int, to_foundation: bool) -> str | None:
    """None if ``n`` top cards of this tableau pile may move together, else the rule that forbids it."""
    longest = movable_tail(rules, pile)
    if n > len(pile.cards) - pile.hidden:
        return "face-down cards cannot be moved"
    if to_foundation:
        return None if n == 1 else "cards go to a foundation one at a time"
    if rules.unit == "face-up":
        return None if n == longest else UNIT_RULES["face-up"]
    if n <= longest:
        return None
    return UNIT_RULES[rules.unit]


# ---- spaces ----

SPACE_RULES = {
    "any": "a space may be filled by any card",
    "king": "a space may be filled only by a king or a build headed by a king",
    "king-only": "a space may be filled only by a lone king",
    "none": "a space is never filled",
}


def space_allows(rules: Rules, state: GameState, moving: list[PlayingCard]) -> str | None:
    if rules.space_accepts is not None:
        return rules.space_accepts(state, moving[0])
    if rules.space == "any":
        return None
    if rules.space == "king":
        return None if moving[0].rank == 13 else SPACE_RULES["king"]
    if rules.space == "king-only":
        return None if moving[0].rank == 13 and len(moving) == 1 else SPACE_RULES["king-only"]
    return SPACE_RULES.get(rules.space, f"space rule {rules.space}")


# ---- foundations ----


def foundation_base_rank(rules: Rules, state: GameState) -> int:
    return rules.foundation_base or state.counters.get("base", 1)


def default_foundation_accepts(rules: Rules, state: GameState, name: str, c: PlayingCard) -> str | None:
    """The record's foundation rule: base rank on an empty foundation, then in steps (in suit)."""
    pile = state.piles[name]
    if not pile.cards:
        base = rules.foundation_base or state.counters.get("base", 1)
        if c.rank != base:
            return f"a foundation starts with a card of rank {base}"
        return None
    top = pile.cards[-1]
    if len(pile.cards) >= rules.foundation_size:
        return "that foundation is complete"
    if rules.foundation_suit and top.suit != c.suit:
        return "foundations are built in suit"
    if not _adjacent(c, top, rules.foundation_step, rules.foundation_wrap):
        way = "up" if rules.foundation_step > 0 else "down"
        wrap = " (king and ace adjacent)" if rules.foundation_wrap else ""
        return f"foundations build {way} by one rank{wrap}"
    return None


def foundation_allows(rules: Rules, state: GameState, name: str, c: PlayingCard) -> str | None:
    if rules.foundation_accepts is not None:
        return rules.foundation_accepts(state, name, c)
    return default_foundation_accepts(rules, state, name, c)


# ---------------------------------------------------------------------------------------------
# Registry

_REGISTRY: dict[str, Rules] = {}
_LOAD_ERRORS: dict[str, str] = {}
_loaded = False


def register(rules: Rules) -> Rules:
    """Add a game to the registry (each module under decks/games calls this at import)."""
    _REGISTRY[rules.name] = rules
    return rules


def _load_games() -> None:
    """Import every module of decks.games once (a broken module is reported, not fatal to others)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import decks.games as games_pkg

    for info in pkgutil.iter_modules(games_pkg.__path__):
        name = f"decks.games.{info.name}"
        try:
            importlib.import_module(name)
        except Exception as err:  # noqa: BLE001 - one broken game module must not hide the others
            _LOAD_ERRORS[name] = f"{type(err).__name__}: {err}"


def game_names() -> list[str]:
    """The registered games' names, sorted."""
    _load_games()
    return sorted(_REGISTRY)


def get_game(name: str) -> Rules:
    """The rules record of a game by name (IbmError naming the known games if unknown)."""
    _load_games()
    try:
        return _REGISTRY[name.lower()]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        extra = f"; modules that failed to load: {_LOAD_ERRORS}" if _LOAD_ERRORS else ""
        raise IbmError(f"unknown game {name!r} (known: {known}){extra}") from None


def resolve_options(rules: Rules, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every option of the game with its value: the given ones parsed, the rest at their defaults."""
    values = {o.name: o.default for o in rules.options}
    for key, value in (given or {}).items():
        values[key] = rules.option(key).parse(value)
    return values


_CONFIGURED: dict[tuple[str, tuple[tuple[str, Any], ...]], Rules] = {}


def rules_of(state: GameState) -> Rules:
    """The game's rules record with the state's options applied (cached)."""
    cached = state.__dict__.get("_rules")
    if cached is not None and cached[0] is state.options:
        return cached[1]
    key = (state.game, tuple(sorted(state.options.items())))
    rules = _CONFIGURED.get(key)
    if rules is None:
        base = get_game(state.game)
        rules = base.configure(base, state.options) if base.configure else base
        _CONFIGURED[key] = rules
    state.__dict__["_rules"] = (state.options, rules)
    return rules


# ---------------------------------------------------------------------------------------------
# Dealing


def empty_state(rules: Rules, deal_number: int, options: Mapping[str, Any]) -> GameState:
    piles = {n: Pile() for n in rules.pile_names()}
    return GameState(rules.name, dict(options), deal_number, piles,
                     rng_state=GameRandom.for_deal(deal_number).state)


def make_state(game: str, piles: Mapping[str, str], options: Mapping[str, Any] | None = None,
               deal_number: int = 1, counters: Mapping[str, int] | None = None) -> GameState:
    """A position built by hand (for tests and puzzles): ``piles`` maps pile names to card names
    bottom to top, face-down cards written with a leading '-' (``{'t1': '-KS -2H 7C', 's': '-AC'}``);
    piles not named are empty."""
    base = get_game(game)
    state = empty_state(base, deal_number, resolve_options(base, options))
    for name, text in piles.items():
        pile = state.pile(name)
        new = Pile.from_faces((card(x.lstrip("-"), base.pack), not x.startswith("-")) for x in text.split())
        pile.cards, pile.hidden = new.cards, new.hidden
    state.counters.update(counters or {})
    return state


def deal(game: str, deal_number: int = 1, options: Mapping[str, Any] | None = None) -> GameState:
    """A new game: the pack shuffled by deal number (:mod:`decks.deals`) and laid out by the rules."""
    base = get_game(game)
    check_deal_number(deal_number)
    values = resolve_options(base, options)
    state = empty_state(base, deal_number, values)
    rules = rules_of(state)
    rules.deal(state, deal_order(rules.pack, deal_number))
    run_automatic(rules, state)
    return state


def deal_cards(state: GameState, cards: list[PlayingCard], name: str, n: int, face_up: bool) -> None:
    """Move ``n`` cards from the front of ``cards`` onto pile ``name`` (face up or down)."""
    pile = state.piles[name]
    for _ in range(n):
        c = cards.pop(0)
        if not face_up and pile.hidden == len(pile.cards):
            pile.hidden += 1
        elif not face_up:
            raise IbmError("cannot deal a face-down card onto a face-up one")
        pile.cards.append(c)


def deal_from_stock(state: GameState, names: Iterable[str], keep: int = 0) -> None:
    """One card from the stock ``s``, face up, onto each of the piles ``names`` in turn, while the
    stock holds more than ``keep`` cards (the cards left stay face down)."""
    hand = state.piles["s"]
    for name in names:
        if len(hand.cards) <= keep:
            break
        state.piles[name].cards.append(hand.cards.pop())
    hand.hidden = len(hand.cards)


def deal_rest_to_stock(state: GameState, cards: list[PlayingCard], name: str = "s") -> None:
    """The undealt cards become the stock, face down, first undealt card on top (dealt next)."""
    pile = state.piles[name]
    pile.cards = list(reversed(cards)) + pile.cards
    pile.hidden = len(pile.cards)
    cards.clear()


def deal_triangle(state: GameState, cards: list[PlayingCard], prefix: str = "t", n: int = 7) -> None:
    """The Klondike layout: row by row, one card face up on the first pile of the row and one face
    down on each pile to its right, until pile i holds i cards with its top card up."""
    for row in range(1, n + 1):
        for col in range(row, n + 1):
            deal_cards(state, cards, f"{prefix}{col}", 1, face_up=(col == row))


# ---------------------------------------------------------------------------------------------
# Checking and applying moves


def check_transfer(rules: Rules, state: GameState, move: Move) -> str | None:
    """None if the transfer ``move`` is legal, else the rule that forbids it."""
    src, dst = move.piles
    piles = state.piles
    sp, dp = piles.get(src), piles.get(dst)
    if sp is None or dp is None:
        return f"there is no pile {src if sp is None else dst!r} in {rules.name}"
    if src == dst:
        return "a pile cannot move onto itself"
    n = move.count
    if n > len(sp.cards) or n < 1:
        return f"{src} holds only {len(sp.cards)} card(s)" if n > 0 else "at least one card must move"
    srole, drole = _ROLE(src[0], "other"), _ROLE(dst[0], "other")
    moving = sp.cards[-n:]
    if drole == "foundation":
        if srole not in rules.to_foundation:
            return f"cards do not go from the {srole} to a foundation"
    elif drole == "tableau":
        if srole not in rules.to_tableau:
            return f"cards do not go from the {srole} to the tableau"
    else:
        return f"no cards may be placed on the {drole} ({dst})"
    if srole == "tableau":
        why = unit_allows(rules, sp, n, drole == "foundation")
        if why:
            return why
    else:
        if n != 1:
            return f"only the top card of the {srole} may be moved"
        if sp.hidden >= len(sp.cards):
            return f"the top card of {src} is face down"
        if srole == "foundation" and len(sp.cards) == 1:
            return "a foundation's base card stays on the foundation"
    if drole == "foundation":
        why = foundation_allows(rules, state, dst, moving[0])
    elif not dp.cards:
        why = space_allows(rules, state, moving)
    else:
        why = None if builds_on(rules, dp.cards[-1], moving[0]) else (
            f"{moving[0]} cannot go on {dp.cards[-1]}: {BUILD_RULES[rules.build][1]}")
    if why is None and rules.check is not None:
        why = rules.check(state, move, moving)
    return why


def _resolve(rules: Rules, state: GameState, move: Move) -> Move:
    """'t3 f' → the first foundation that takes the card (or the move unchanged)."""
    if move.kind != "move" or move.dst != "f":
        return move
    reasons = []
    src = state.piles.get(move.src)
    moving = src.cards[-1] if src is not None and src.cards else None
    for name in state.names(ROLE_OF_PREFIX[move.dst]):
        candidate = Move("move", (move.src, name), move.count)
        why = check_transfer(rules, state, candidate)
        if why is None:
            return candidate
        top = state.piles[name].top
        # the most telling reason: from a foundation of the card's suit, else from an empty one
        weight = 0 if (top and moving and top.suit == moving.suit) else (1 if top is None else 2)
        reasons.append((weight, len(reasons), why))
    raise IllegalMove(move, min(reasons)[2] if reasons else f"no {ROLE_OF_PREFIX[move.dst]} pile takes it")


def check_move(state: GameState, move: Move) -> Move:
    """The move resolved to concrete piles if legal; otherwise :class:`IllegalMove`."""
    rules = rules_of(state)
    if is_won(state):
        raise IllegalMove(move, "the game is already won")
    move = _resolve(rules, state, move)
    if move.kind == "move":
        why = check_transfer(rules, state, move)
    elif move.kind in rules.actions:
        why = rules.actions[move.kind].check(state, move)
    else:
        why = f"{rules.title} has no '{KIND_LETTER.get(move.kind, move.kind)}' move"
    if why is not None:
        raise IllegalMove(move, why)
    return move


def do_transfer(state: GameState, move: Move) -> None:
    """Perform a (checked) transfer in place."""
    cards = state.piles[move.src].take(move.count)
    state.piles[move.dst].cards.extend(cards)


def flip_exposed(state: GameState) -> None:
    """Automatic move: turn up the top card of any tableau pile whose top card is face down."""
    for name, pile in state.piles.items():
        if pile.cards and pile.hidden >= len(pile.cards) and name[0] == "t":
            pile.hidden = len(pile.cards) - 1


def run_automatic(rules: Rules, state: GameState) -> None:
    for hook in rules.automatic:
        hook(state)


def apply_in_place(state: GameState, move: Move, *, record: bool = True, checked: bool = False) -> Move:
    """Check (unless ``checked``) and perform ``move`` on ``state`` itself; returns the resolved move."""
    rules = rules_of(state)
    if not checked:
        move = check_move(state, move)
    if move.kind == "move":
        do_transfer(state, move)
    else:
        rules.actions[move.kind].run(state, move)
    run_automatic(rules, state)
    if record:
        state.history.append(move)
    return move


def apply(state: GameState, move: Move | str) -> GameState:
    """A new state with ``move`` (a Move or its notation) made; the redo list is cleared."""
    if isinstance(move, str):
        move = parse_move(move)
    new = state.copy()
    apply_in_place(new, move)
    new.future = []
    return new


def replay(game: str, deal_number: int, options: Mapping[str, Any], moves: Iterable[Move | str]) -> GameState:
    """The state after dealing and playing ``moves`` in order (IllegalMove names the move number)."""
    state = deal(game, deal_number, options)
    for i, move in enumerate(moves, 1):
        if isinstance(move, str):
            move = parse_move(move)
        try:
            apply_in_place(state, move)
        except IllegalMove as err:
            raise IllegalMove(err.move, f"(move {i}) {err.rule}") from None
    return state


def undo(state: GameState) -> GameState:
    """The state before the last move (replayed from the deal); the move goes onto the redo list."""
    if not state.history:
        raise IbmError("nothing to undo")
    try:
        explained = replay(state.game, state.deal_number, state.options, state.history).piles == state.piles
    except IllegalMove:
        explained = False
    if not explained:
        raise IbmError(f"this position was not reached from deal {state.deal_number} by its move "
                       "history (a position set up by hand?), so it cannot be undone")
    new = replay(state.game, state.deal_number, state.options, state.history[:-1])
    new.future = state.future + [state.history[-1]]
    return new


def redo(state: GameState) -> GameState:
    """The state with the last undone move made again."""
    if not state.future:
        raise IbmError("nothing to redo")
    new = state.copy()
    move = new.future.pop()
    apply_in_place(new, move)
    return new


# ---------------------------------------------------------------------------------------------
# Listing moves, winning, being stuck


def transfer_candidates(rules: Rules, state: GameState, prune: bool = False) -> list[Move]:
    """Every legal transfer.  With ``prune`` (for the solver): moves that only shuffle a whole pile
    into a space, and copies of a move into several interchangeable empty piles, are left out."""
    moves: list[Move] = []
    piles = state.piles
    build_ok, wrap = BUILD_RULES[rules.build][0], rules.wrap
    tableau = [n for n in piles if n[0] == "t"]
    foundations = [n for n in piles if n[0] == "f"]
    sources = [n for n in piles if role_of(n) in rules.to_foundation or role_of(n) in rules.to_tableau]
    for src in sources:
        sp = piles[src]
        if not sp.cards or sp.hidden >= len(sp.cards):
            continue
        srole = role_of(src)
        if srole in rules.to_foundation:
            seen_empty = False
            for f in foundations:
                if not piles[f].cards:
                    if seen_empty:
                        continue
                if foundation_allows(rules, state, f, sp.cards[-1]) is not None:
                    continue
                m = Move("move", (src, f), 1)
                if check_transfer(rules, state, m) is None:
                    moves.append(m)
                    if not piles[f].cards:
                        seen_empty = True
        if srole not in rules.to_tableau:
            continue
        if srole == "tableau":
            longest = movable_tail(rules, sp)
            counts = [longest] if rules.unit == "face-up" else range(1, longest + 1)
        else:
            counts = [1]
        for n in counts:
            empty_done = False
            for dst in tableau:
                if dst == src:
                    continue
                dp = piles[dst]
                if not dp.cards:
                    if prune and (empty_done and rules.symmetric):
                        continue
                    if prune and srole == "tableau" and n == len(sp.cards):
                        continue
                    if space_allows(rules, state, sp.cards[len(sp.cards) - n:]) is not None:
                        continue
                elif not build_ok(dp.cards[-1], sp.cards[-n], wrap):
                    continue
                m = Move("move", (src, dst), n)
                if prune and rules.useless is not None and rules.useless(state, m):
                    continue
                if check_transfer(rules, state, m) is None:
                    moves.append(m)
                    if not dp.cards:
                        empty_done = True
    return moves


def legal_moves(state: GameState, prune: bool = False) -> list[Move]:
    """Every legal move in the state (transfers first, then the game's actions)."""
    if is_won(state):
        return []
    rules = rules_of(state)
    moves = transfer_candidates(rules, state, prune)
    for action in rules.actions.values():
        for m in action.moves(state):
            if action.check(state, m) is None:
                moves.append(m)
    return moves


def is_won(state: GameState) -> bool:
    """True when the game's goal is reached (default: every card on a foundation or discarded)."""
    rules = rules_of(state)
    if rules.won is not None:
        return rules.won(state)
    return all(not p.cards for n, p in state.piles.items() if role_of(n) not in ("foundation", "discard"))


CYCLE_KINDS = ("stock", "redeal")


def is_stuck(state: GameState, limit: int = 500) -> bool:
    """True when the game is not won and nothing but going round the stock is possible: no state
    reachable by stock turns and redeals alone offers any other move."""
    if is_won(state):
        return False
    seen = set()
    frontier = [state]
    while frontier and len(seen) < limit:
        s = frontier.pop()
        key = state_key(s)
        if key in seen:
            continue
        seen.add(key)
        for m in legal_moves(s):
            if m.kind not in CYCLE_KINDS:
                return False
            nxt = s.copy()
            nxt.history = []
            apply_in_place(nxt, m, record=False, checked=True)
            if is_won(nxt):
                return False
            frontier.append(nxt)
    return True


def state_key(state: GameState) -> tuple:
    """A canonical, hashable key of the position (history left out); interchangeable tableau and
    foundation piles are sorted when the rules say the tableau is symmetric."""
    rules = rules_of(state)
    tab, found, other = [], [], []
    for name, p in state.piles.items():
        k = "".join([c.char for c in p.cards]) + "|" + str(p.hidden)
        first = name[0]
        if first == "t":
            tab.append(k)
        elif first == "f":
            found.append(k)
        else:
            other.append(k)
    if rules.symmetric:
        tab.sort()
        found.sort()
    redeals = 0 if state.options.get("redeals") == "unlimited" else state.redeals
    return (tuple(tab), tuple(found), tuple(other), redeals, tuple(sorted(state.counters.items())),
            state.rng_state)


def redeals_left(state: GameState, allowed: int | str) -> bool:
    """Whether another redeal is allowed when ``allowed`` redeals (or 'unlimited') are permitted."""
    return allowed == "unlimited" or state.redeals < int(allowed)


def standard_pack_size(rules: Rules) -> int:
    return len(pack(rules.pack))


__all__ = [
    "Action", "GameState", "IllegalMove", "Move", "Option", "Pile", "PileGroup", "Rules", "apply",
    "apply_in_place", "check_move", "deal", "game_names", "get_game", "is_stuck", "is_won",
    "legal_moves", "parse_move", "parse_moves", "redo", "register", "replace", "replay", "rules_of",
    "state_key", "transfer", "undo",
]
