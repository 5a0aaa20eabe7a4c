"""The position of a game in progress: piles, moves as written, and the game state itself.

A pile is a list of cards from bottom to top with the face-down ones at the bottom (:class:`Pile`);
its name says its role (``t3`` tableau, ``f1`` foundation, ``s`` stock …; :func:`role_of`).  A
player's move is a small frozen value (:class:`Move`) with a one-line notation (:func:`parse_move`,
``str(move)``; the table is in :mod:`decks.engine`).  :class:`GameState` holds the piles, the
options, the move history and the game's own random generator, and converts to and from a
JSON-ready dict.  Nothing here knows a game's rules: those are in :mod:`decks.engine.rules` (the
record) and :mod:`decks.engine.legality` (what it allows).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from decks.deals import GameRandom
from decks.engine.registry import get_game
from decks.packs import PlayingCard, card
from emulator.errors import IbmError

OptionValue = bool | int | str
"""A game option's value (:class:`~decks.engine.rules.Option`): true or false, a number, or a word:
``"unlimited"`` for a count without limit, or one of the option's choices."""


class StateDict(TypedDict):
    """:meth:`GameState.to_dict`'s JSON-ready form: cards by their short names, face-down ones
    prefixed with ``-``, moves in their notation."""

    game: str
    options: dict[str, OptionValue]
    deal: int
    piles: dict[str, list[str]]
    redeals: int
    counters: dict[str, int]
    history: list[str]
    future: list[str]
    rng_state: int


class NotUnderstood(IbmError):
    """Text that is no move in the notation at all (the game in hand can say which forms it has)."""

    def __init__(self, text: str, forms: str = "write a pile and where it goes ('t3 f'), a count "
                                               "after them for several cards, or a move letter") -> None:
        super().__init__(f"move {text!r} not understood: {forms}")
        self.text = text


class IllegalMove(IbmError):
    """A move the rules forbid; ``rule`` says which rule, ``move`` is the move as written."""

    def __init__(self, move: Move | str, rule: str) -> None:
        self.move = str(move)
        self.rule = rule
        super().__init__(f"illegal move {self.move!r}: {rule}")


ROLE_OF_PREFIX = {"t": "tableau", "f": "foundation", "r": "reserve", "s": "stock", "w": "waste",
                  "d": "discard", "h": "hand card"}


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

    @classmethod
    def from_names(cls, names: Iterable[str], kind: str) -> Pile:
        """Build a pile from card names of pack ``kind``, bottom to top, face-down ones written with a
        leading '-' (the form :meth:`GameState.to_dict` writes)."""
        return cls.from_faces((card(x.lstrip("-"), kind), not x.startswith("-")) for x in names)

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
        """The pile the move takes from (empty for an action such as dealing the stock)."""
        return self.piles[0] if self.piles else ""

    @property
    def dst(self) -> str:
        """The pile the move puts onto (empty for a move with one pile)."""
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
    raise NotUnderstood(text)


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
    options: dict[str, OptionValue]
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
        """The pile named ``name``; an error naming the game's piles if there is none."""
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
        """Keep ``rng``'s state as the game's, after a move that drew from it (a redeal's shuffle)."""
        self.rng_state = rng.state

    def to_dict(self) -> StateDict:
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
    def from_dict(cls, data: Mapping[str, object]) -> GameState:
        """The inverse of :meth:`to_dict` (IbmError naming the problem if ``data`` is malformed)."""
        try:
            return cls._from_dict(data)
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise IbmError(f"malformed game state: {type(err).__name__}: {err}") from None

    @classmethod
    def _from_dict(cls, data: Mapping[str, Any]) -> GameState:
        kind = get_game(data["game"]).pack
        piles = {n: Pile.from_names(names, kind) for n, names in data["piles"].items()}
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


def role_of(name: str) -> str:
    """The role of a pile from its name's leading letter ('t3' → 'tableau')."""
    return ROLE_OF_PREFIX.get(name[0], "other") if name else "other"
