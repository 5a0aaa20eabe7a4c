"""A game being played, for any interface: commands in, text and a new game state out.

The line-mode ``ibm1013 play``, the streamed game (``play --stream``, ``watch``) and a full-screen
board all drive the same :class:`Session`; it knows nothing of argparse, terminals or the line.
A command is a move in the engine's notation (``t3 f``, ``w t2``, ``s``) or one of ``undo``,
``redo``, ``hint``, ``moves``, ``save FILE``, ``help``/``?``/``h`` and ``rules``.  An illegal move
raises :class:`~decks.engine.IllegalMove` (an :class:`~emulator.errors.IbmError`) naming the rule.

Here too are the pieces the interfaces share around a session: reading and punching a game deck
(:func:`load_deck`, :func:`save_deck`), the board as text (:func:`layout`), the search behind
``solve`` and ``hint`` (:func:`find_solution`, :func:`hint`) and move scripts (:func:`script_lines`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from decks import board, compact, engine, punch, solver
from emulator.atomic import atomic_output, open_input
from emulator.errors import CardError, IbmError

HINT_NODES = 5_000
"""Positions a hint may search (with :data:`decks.solver.HINT_SECONDS`)."""


def load_deck(path: str) -> engine.GameState:
    """The game state punched in the deck file ``path`` (any deck format, detected)."""
    from emulator.formats import read_deck

    try:
        with open_input(path) as stream:
            return compact.decode_any(read_deck(stream, "auto", source=path))
    except CardError as err:
        raise err.located(source=path) from None
    except OSError as err:
        raise IbmError(f"{path}: {err.strerror}") from None


def save_deck(state: engine.GameState, path: str, fmt: str, label: str | None = None,
              compact_form: bool = False) -> int:
    """Punch ``state`` into a deck file (written atomically; compact cards if ``compact_form``);
    returns the number of cards."""
    from emulator.formats import get_format, write_deck

    get_format(fmt)  # an unknown format is an error before anything is written
    cards = (compact.encode if compact_form else punch.encode)(state, label)
    try:
        with atomic_output(path) as stream:
            write_deck(cards, stream, fmt)
    except OSError as err:
        raise IbmError(f"{path}: {err.strerror}") from None
    return len(cards)


def layout(state: engine.GameState, symbols: bool = False) -> str:
    """The board for a person, as plain text (piles in columns; :mod:`decks.board`)."""
    return board.board(state, symbols).plain


def exact_search(state: engine.GameState) -> Callable[[engine.GameState], list[engine.Move] | None] | None:
    """The game's own exhaustive search (``exact_solution`` in its module), if it has one."""
    module = sys.modules.get(engine.rules_of(state).deal.__module__)
    return getattr(module, "exact_solution", None)


def find_solution(state: engine.GameState, max_nodes: int, generic: bool = False,
                  max_seconds: float | None = None,
                  progress: Callable[[int], None] | None = None) -> solver.SolveResult:
    """A winning move list: the game's exact search where it has one, else the bounded solver.
    When the exact search finds no win, the bounded solver still says how far best play gets."""
    exact = None if generic else exact_search(state)
    if exact is None:
        return solver.solve(state, max_nodes, max_seconds, progress)
    moves = exact(state)
    if moves is not None:
        return solver.SolveResult(solver.WON, moves, 0)
    best = solver.solve(state, max_nodes, max_seconds, progress)
    return solver.SolveResult(solver.EXHAUSTED, [], best.nodes, best.best_home, best.total, best.best_moves,
                              best.timed_out, best.status != solver.LIMIT, best.home)


def hint(state: engine.GameState) -> str:
    """The first move of a win if one is found within HINT_NODES nodes and solver.HINT_SECONDS,
    else the first move towards the best position the search reached."""
    result = find_solution(state, HINT_NODES, max_seconds=solver.HINT_SECONDS)
    if result.won and result.moves:
        return f"hint: {result.moves[0]} (leads to a win)"
    move = result.best_moves[0] if result.best_moves else solver.hint(state, 1)
    if move is None:
        return "hint: no legal move"
    if result.status == solver.EXHAUSTED:
        return f"hint: no play wins from here; try {move} ({result.explain()})"
    return f"hint: {move}"


def script_lines(text: str) -> list[tuple[int, str]]:
    """(line number, command) pairs of a move script: '#' comments, ',' or ';' between moves."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        for part in line.split("#", 1)[0].replace(";", ",").split(","):
            if part.strip():
                out.append((number, part.strip()))
    return out


class Session:
    """A game being played: commands in, text out (every interface shares it).

    ``saved_at`` is the length of the history when the game was last saved, so an interface can
    tell whether quitting would lose moves (:attr:`unsaved`)."""

    def __init__(self, state: engine.GameState, fmt: str = "cbn", symbols: bool = False) -> None:
        self.state = state
        self.fmt = fmt
        self.symbols = symbols
        self.saved_at = len(state.history)

    @property
    def unsaved(self) -> bool:
        """Moves played since the last save, in a game not yet won."""
        return not engine.is_won(self.state) and len(self.state.history) != self.saved_at

    def command(self, line: str) -> str:
        """Carry out one command or move; returns what to print.  Illegal moves raise IllegalMove."""
        words = line.split()
        head = words[0].lower()
        if head == "undo":
            self.state = engine.undo(self.state)
        elif head == "redo":
            self.state = engine.redo(self.state)
        elif head == "hint":
            return hint(self.state)
        elif head == "moves":
            return "legal: " + (", ".join(str(m) for m in engine.legal_moves(self.state)) or "none")
        elif head == "save":
            if len(words) != 2:
                raise IbmError("write: save FILE")
            n = save_deck(self.state, words[1], self.fmt)
            self.saved_at = len(self.state.history)
            return f"saved {n} cards to {words[1]}"
        elif head in ("help", "?") or words == ["h"]:       # 'h t2' is a move: the hand card h
            return board.move_help(self.state)
        elif head == "rules":
            return board.game_rules(self.state.game)
        else:
            self.state = engine.apply(self.state, line)
        return layout(self.state, self.symbols)
