"""A game as data: the rules record (:class:`Rules`), its options and action hooks, and the registry.

Every game module under :mod:`decks.games` builds one :class:`Rules` record — which piles there
are (:class:`PileGroup`), how the tableau builds, what fills a space, how the foundations go, which
extra move kinds it has (:class:`Action`: check / run / list hooks), the automatic moves run after
every move, its :class:`Option` s — and hands it to :func:`register`.  :func:`get_game` finds a
record by name (importing the game modules on first use; the registry is
:mod:`decks.engine.registry`, re-exported here) and :func:`rules_of` gives the record a
state is played by, with the state's option values applied through the record's ``configure``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal, cast

from decks.engine import registry
from decks.engine.registry import game_names  # noqa: F401 - re-exported
from decks.engine.state import GameState, Move, OptionValue
from decks.packs import PlayingCard
from emulator.errors import IbmError

# ---------------------------------------------------------------------------------------------
# Rules record


@dataclass(frozen=True)
class Option:
    """A named game option: ``kind`` is 'bool', 'int', 'count' (an int or 'unlimited') or 'choice'."""

    name: str
    default: OptionValue
    kind: str = "bool"
    choices: tuple[str, ...] = ()
    help: str = ""

    def parse(self, value: object) -> OptionValue:
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
            if self.kind == "count" and text in ("unlimited", "inf"):
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


Measure = Literal["tidy", "face-down", "suit-runs", "nearer-foundation", "buried"]
"""A measure of how far from a win a position looks that the solver computes itself
(:mod:`decks.solver.measures`): the record's ``distance`` hook natively (``"tidy"``:
:func:`decks.games.two_pack.tidy_distance`; ``"face-down"``: cards not home, face-down ones four
times, Klondike's; ``"suit-runs"``, ``"nearer-foundation"``: the Spider games' and Colorado's), or
``"buried"``, in place of the hook."""


@dataclass(frozen=True)
class SolverTuning:
    """How the solver (:mod:`decks.solver`) searches a game: the hooks of its record it may make
    natively, without a game state (each names what the hook does, so the solver does the same on
    its compact positions), and how its search with restarts runs.  The defaults leave every hook
    to the engine and search as most games do.

    Made natively: ``turn`` — the ``stock`` action turns this many cards at a time onto the waste
    (or into the hand card ``h``), ``"draw"`` the option ``draw``'s number; ``turn_check`` — the
    stock may be turned while the hand holds a card (``"hand-left"``), and only onto an empty waste
    (``"waste-empty"``); ``redeal`` — the ``redeal`` action gathers the turned cards to make the hand
    again (``"gather"``), as often as the option ``redeals`` allows; ``redeal_check`` — a redeal is
    allowed while the option ``redeals`` allows another and a card lies in the tableau
    (``"redeals-left"``); ``useless`` — the ``useless`` hook is Klondike's (``"king-space"``) or
    Spider's (``"in-suit"``); ``foundations`` — the ``foundation_accepts`` verdict depends only on the
    foundation's top card and the card (``"by-top"``: asked once for each and tabled), or is
    :func:`decks.games.two_pack.ace_king_accepts` (``"ace-king"``); ``actions`` — by kind, an action
    that deals a round (``"deal-round"``) or discards a suit's run (``"discard-run"``); ``discard`` —
    an automatic move discards a finished suit while this option is on; ``fill`` — an automatic
    move fills each empty pile named (``"tableau"``: the tableau's) from the stock.  The automatic
    moves besides turning up cards must be exactly those ``fill`` and ``discard`` name, else the
    engine makes them all.

    The search: ``measure`` — the old move order's measure (:data:`Measure`; None: the record's
    ``distance`` hook, or cards not home); ``orders`` — the move orders the restarts go over
    (``"new"``, ``"old"``, ``"best"``: best first); ``prelude`` — the budget up to which each round
    of runs starts with a best-first run; ``free_seconds_per_node`` — at most about how long freeing
    the search's tables takes a position expanded, which a search with a time budget stops that
    much before its deadline (None: a depth-first search's,
    :data:`decks.solver.tree.FREE_SECONDS_PER_NODE`); ``changed_since`` — the earlier search versions
    (:data:`decks.solver.versions.EARLIER_VERSIONS`) whose records of this game today's search no
    longer finds (docs/solver-changelog.md)."""

    turn: int | Literal["draw"] | None = None
    turn_check: Literal["hand-left", "waste-empty"] | None = None
    redeal: Literal["gather"] | None = None
    redeal_check: Literal["redeals-left"] | None = None
    useless: Literal["king-space", "in-suit"] | None = None
    foundations: Literal["by-top", "ace-king"] | None = None
    actions: tuple[tuple[str, Literal["deal-round", "discard-run"]], ...] = ()
    discard: str | None = None
    fill: tuple[str, ...] | Literal["tableau"] | None = None
    measure: Measure | None = None
    orders: tuple[Literal["new", "old", "best"], ...] = ("new", "old")
    prelude: int = 0
    free_seconds_per_node: float | None = None
    changed_since: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rules:
    """A game as data.  See the module docstring; the hooks have sensible engine defaults."""

    name: str
    title: str
    seed: str                               # which rule text: '000', '001', '003', '004'
    row: int                                # row of the games table in docs/games.md
    piles: tuple[PileGroup, ...]
    deal: DealHook
    pack: str = "standard"
    build: str = "none"                     # key of BUILD_RULES: how tableau cards go on each other
    wrap: bool = False                      # ace and king adjacent in tableau building
    unit: str = "one"                       # key of UNIT_RULES: which tails of a pile move together
    space: str = "any"                      # key of SPACE_RULES: what may fill an empty tableau pile
    foundation_suit: bool = True            # foundations built in suit
    foundation_alternate: bool = False      # foundations built in alternating colours
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
    configure: Callable[[Rules, Mapping[str, OptionValue]], Rules] | None = None
    symmetric: bool = True                  # tableau piles interchangeable (for solver keys)
    useless: Callable[[GameState, Move], bool] | None = None   # solver: legal but never worth trying
    distance: Callable[[GameState], int] | None = None         # solver: how far from a win it looks
    solver: SolverTuning = SolverTuning()   # solver: the hooks it makes natively, how it searches
    notes: str = ""

    def option(self, name: str) -> Option:
        """The option named ``name``; an error naming the game's options if it has none of that name."""
        for opt in self.options:
            if opt.name == name:
                return opt
        known = ", ".join(o.name for o in self.options) or "none"
        raise IbmError(f"{self.name} has no option {name!r} (options: {known})")

    def pile_names(self) -> list[str]:
        """Every pile's name in layout order (``s``, ``w``, ``f1`` … ``t1`` …)."""
        return [n for g in self.piles for n in g.names()]


def run_automatic(rules: Rules, state: GameState) -> None:
    """Run the record's automatic moves on ``state``, in order (after the deal and after every move)."""
    for hook in rules.automatic:
        hook(state)


def resolve_options(rules: Rules, given: Mapping[str, object] | None = None) -> dict[str, OptionValue]:
    """Every option of the game with its value: the given ones parsed, the rest at their defaults."""
    values = {o.name: o.default for o in rules.options}
    for key, value in (given or {}).items():
        values[key] = rules.option(key).parse(value)
    return values


_CONFIGURED: dict[tuple[str, tuple[tuple[str, OptionValue], ...]], Rules] = {}


def configured(base: Rules, options: Mapping[str, OptionValue]) -> Rules:
    """The record ``base`` with option values applied through its ``configure`` hook (cached)."""
    key = (base.name, tuple(sorted(options.items())))
    rules = _CONFIGURED.get(key)
    if rules is None:
        rules = base.configure(base, options) if base.configure else base
        _CONFIGURED[key] = rules
    return rules


def register(rules: Rules) -> Rules:
    """Add a game to the registry (each module under decks/games calls this at import)."""
    registry.register(rules)
    return rules


def get_game(name: str) -> Rules:
    """The rules record of a game by name (IbmError naming the known games if unknown)."""
    return cast(Rules, registry.get_game(name))


def rules_of(state: GameState) -> Rules:
    """The game's rules record with the state's options applied (cached)."""
    cached: tuple[object, Rules] | None = state.__dict__.get("_rules")  # (options, their record)
    if cached is not None and cached[0] is state.options:
        return cached[1]
    rules = configured(get_game(state.game), state.options)
    state.__dict__["_rules"] = (state.options, rules)
    return rules
