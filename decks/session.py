"""A game being played, for any interface: commands in, a :class:`Result` (what changed, and text) out.

The line-mode ``ibm1013 play``, the streamed game (``play --stream``, ``watch``) and the full-screen
board (:mod:`ibm1013.tui`) all drive the same :class:`Session`; it knows nothing of argparse,
terminals or the line.  A command is a move in the engine's notation (``t3 f``, ``w t2``, ``s``) or
one of ``undo [N]``, ``redo [N]`` (N moves), ``hint [N]`` (the next N moves of the line the search
found), ``moves`` (the moves worth trying) or ``moves all`` (every legal move), ``save FILE``,
``help``/``?``/``h`` and ``rules``; :meth:`Session.run` answers with a :class:`Result` the board can
use (the kind of command, the move made, the states before and after), :meth:`Session.command` with
its text.  An illegal move raises :class:`~decks.engine.IllegalMove` (an
:class:`~emulator.errors.IbmError`) naming the rule; text that is no move at all is answered with
the move forms this game has.  What a
board needs besides commands is here too: the legal targets of a pile (:meth:`Session.targets`),
autoplay to the foundations, a new deal and a restart; ``listeners`` hear of every change (the
stream sends each one down the line, whichever interface made it).

Here too are the pieces the interfaces share around a session: reading and punching a game deck
(:func:`load_deck`, :func:`save_deck`), the board as text (:func:`layout`), the search behind
``solve`` and ``hint`` (:func:`find_solution`, :func:`hint`) and move scripts (:func:`read_script`,
:func:`timed_script`): one format for ``play --moves``, ``play --stream`` and ``simulate-play``, a
move or command a line (or several, separated by ``,`` or ``;``), ``#`` comments, and a think time
``+2.5`` before a move where it is streamed (a plain replay makes the moves at once).
"""

from __future__ import annotations

import dataclasses
import math
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from decks import board, compact, engine, punch, solver
from decks.deals import MAX_DEAL
from decks.engine.state import role_of
from emulator.atomic import atomic_output, open_input
from emulator.errors import CardError, IbmError
from emulator.words import cards, counted

if TYPE_CHECKING:
    from emulator.card import Card

HINT_NODES = 5_000
"""Positions a hint may search (with :data:`decks.solver.HINT_SECONDS`)."""


def parse_options(pairs: Iterable[str]) -> dict[str, str]:
    """Game options written ``NAME=VALUE`` (``draw=3``) as a dict; a clear error for anything else."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise IbmError(f"--option {pair!r}: write NAME=VALUE, e.g. --option draw=3")
        out[key.strip()] = value.strip()
    return out


def start(game: str, deal: int | None = None, options: Iterable[str] = (), load: str | None = None,
          cards: Iterable[Card] | None = None) -> engine.GameState:
    """The game to play: deal ``deal`` (default 1) of ``game`` with ``options`` (``NAME=VALUE``), or
    the game punched in the deck file ``load`` (which must hold a game of ``game``).  ``cards``: that
    deck's cards, read by the caller (the command line reads every deck file one way, in any format
    ``cards decode`` reads: ``ibm1013.cli.deckfiles``); without them the file is read here
    (:func:`load_deck`)."""
    name = engine.get_game(game).name
    pairs = list(options)
    values = parse_options(pairs)
    if load:
        if pairs:
            raise IbmError("--option cannot change a loaded game (its options are on the deck)")
        state = load_deck(load) if cards is None else game_of(cards, load)
        if state.game != name:
            raise IbmError(f"{load} holds a game of {state.game}, not {name}")
        return state
    return engine.deal(name, deal if deal is not None else 1, values)


def game_of(cards: Iterable[Card], source: str) -> engine.GameState:
    """The game state punched in ``cards`` (a readable or a compact deck), read from ``source``: a
    card that is no game's is a :class:`~emulator.errors.CardError` naming ``source`` and the card."""
    try:
        return compact.decode_any(cards)
    except CardError as err:
        raise err.located(source=source) from None


def load_deck(path: str) -> engine.GameState:
    """The game state punched in the deck file ``path`` (any deck format, detected)."""
    from emulator.formats import read_deck

    try:
        with open_input(path) as stream:
            return game_of(read_deck(stream, "auto", source=path), path)
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


def free_deck_path(stem: str, fmt: str) -> str:
    """``stem.EXT`` for a deck of format ``fmt``, or ``stem-2.EXT`` … when that file is there."""
    from emulator.formats import get_format

    ext = (get_format(fmt).extensions or (f".{fmt}",))[0]
    path, n = f"{stem}{ext}", 1
    while os.path.lexists(path):
        n += 1
        path = f"{stem}-{n}{ext}"
    return path


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
    best = solver.solve(state, max_nodes, max_seconds, progress)   # how far best play gets: its search
    return dataclasses.replace(best, status=solver.EXHAUSTED, moves=[],
                               searched_all=best.status != solver.LIMIT)


def hint(state: engine.GameState, count: int = 1) -> str:
    """The hint as text (:func:`hint_moves`)."""
    return hint_moves(state, count)[1]


def hint_moves(state: engine.GameState, count: int = 1,
               max_seconds: float | None = None) -> tuple[tuple[engine.Move, ...], str]:
    """The first ``count`` moves of a win if one is found within HINT_NODES nodes and
    solver.HINT_SECONDS (or within ``max_seconds``), else of the line towards the best position the
    search reached; and the hint as text, saying what the first move does
    (:func:`decks.solver.hints.hint_line`)."""
    from decks.solver.hints import hint_line

    if max_seconds is None:
        result = find_solution(state, HINT_NODES, max_seconds=solver.HINT_SECONDS)
    else:
        result = find_solution(state, solver.NO_NODE_LIMIT, max_seconds=max_seconds)
    return hint_line(state, result, count, lambda: solver.hint(state, 1))


def count_of(words: list[str]) -> int:
    """The N of ``undo N``, ``redo N``, ``hint N`` (1 when not given)."""
    if len(words) == 1:
        return 1
    if len(words) == 2 and words[1].isdecimal() and int(words[1]) >= 1:
        return int(words[1])
    raise IbmError(f"write: {words[0]}, or {words[0]} N (N a number from 1)")


def worth_trying(state: engine.GameState, words: list[str]) -> tuple[tuple[engine.Move, ...], str]:
    """``moves``: the legal moves worth trying (not those that only shuffle a whole pile from space
    to space); ``moves all``: every legal move; and the list as text."""
    if words[1:] not in ([], ["all"]):
        raise IbmError("write: moves (the moves worth trying), or moves all (every legal move)")
    every = tuple(engine.legal_moves(state))
    shown = every if words[1:] else tuple(engine.legal_moves(state, prune=True))
    text = "legal: " + (", ".join(map(str, shown)) or "none")
    left = len(every) - len(shown)
    return shown, text + (f" (and {left} more that only shuffle cards about: moves all)" if left > 0 else "")


def read_script(path: str) -> str:
    """A move script's text (``-``: standard input); one clear error if it cannot be read."""
    try:
        with open_input(path) as stream:
            return stream.read().decode("utf-8")
    except OSError as err:
        raise IbmError(f"{path}: {err.strerror}") from None
    except UnicodeDecodeError:
        raise IbmError(f"{path}: not a text file") from None


def timed_script(text: str, think: float = 0.0) -> list[tuple[int, float, str]]:
    """(line number, think seconds, command) of a move script; ``+SECONDS`` before a move sets its
    think time (else ``think``)."""
    out = []
    for number, command in script_lines(text):
        words = command.split()
        wait = think
        if words[0].startswith("+"):
            try:
                wait = float(words[0][1:])
            except ValueError:
                wait = math.nan
            if not (math.isfinite(wait) and wait >= 0):
                raise IbmError(f"line {number}: {words[0]!r} is no think time (write e.g. +2.5)")
            words = words[1:]
        if words:
            out.append((number, wait, " ".join(words)))
    return out


def script_lines(text: str) -> list[tuple[int, str]]:
    """(line number, command) pairs of a move script: '#' comments, ',' or ';' between moves."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        for part in line.split("#", 1)[0].replace(";", ",").split(","):
            if part.strip():
                out.append((number, part.strip()))
    return out


@dataclass(frozen=True)
class Result:
    """What one command did.  ``kind``: ``move``, ``undo``, ``redo``, ``hint``, ``moves``, ``save``,
    ``help``, ``rules``, ``autoplay``, ``deal`` or ``restart``; ``before`` and ``after``: the game
    states around it (the same object when nothing changed); ``moves``: the moves it made (a move,
    autoplay's moves) or suggests (hint, the legal moves); :attr:`text`: what a line interface
    prints (``message``, or the board after a change: drawn only when asked for, as a full-screen
    board never asks)."""

    kind: str
    before: engine.GameState
    after: engine.GameState
    message: str | None
    moves: tuple[engine.Move, ...] = ()
    symbols: bool = False

    @property
    def text(self) -> str:
        return self.message if self.message is not None else layout(self.after, self.symbols)

    @property
    def changed(self) -> bool:
        """Did the game state change (a move, undo, redo, autoplay, new deal, restart)?"""
        return self.after is not self.before


AUTOPLAY_LIMIT = 1_000
"""Most moves one autoplay makes (a bound; no game has this many cards)."""

Listener = Callable[[engine.GameState, engine.GameState, str], None]
"""Hears ``(before, after, command)`` of every change of a session's game state."""


class Session:
    """A game being played: commands in, results out (every interface shares it).

    ``saved_at`` is the length of the history when the game was last saved, so an interface can
    tell whether quitting would lose moves (:attr:`unsaved`).  ``listeners`` hear of every change."""

    def __init__(self, state: engine.GameState, fmt: str = "cbn", symbols: bool = False) -> None:
        self.state = state
        self.fmt = fmt
        self.symbols = symbols
        self.saved_at = len(state.history)
        self.listeners: list[Listener] = []
        self.hint_seconds: float | None = None      # the hint's time budget (None: HINT_SECONDS)

    @property
    def unsaved(self) -> bool:
        """Moves played since the last save, in a game not yet won."""
        return not engine.is_won(self.state) and len(self.state.history) != self.saved_at

    @property
    def won(self) -> bool:
        return engine.is_won(self.state)

    def command(self, line: str) -> str:
        """Carry out one command or move; returns what to print.  Illegal moves raise IllegalMove."""
        return self.run(line).text

    def run(self, line: str) -> Result:
        """Carry out one command or move (see the module docstring).  Illegal moves raise IllegalMove."""
        words = line.split()
        if not words:
            raise IbmError("empty command")
        head = words[0].lower()
        before = self.state
        if head in ("undo", "redo"):
            return self._change(head, self._back_and_forth(head, count_of(words)), line)
        if head == "hint":
            moves, text = hint_moves(before, count_of(words), self.hint_seconds)
            return Result("hint", before, before, text, moves)
        if head == "moves":
            moves, text = worth_trying(before, words)
            return Result("moves", before, before, text, moves)
        if head == "save":
            if len(words) != 2:
                raise IbmError("write: save FILE")
            return Result("save", before, before, self.save(words[1]))
        if head in ("help", "?") or words == ["h"]:       # 'h t2' is a move: the hand card h
            return Result("help", before, before, board.move_help(before))
        if head == "rules":
            return Result("rules", before, before, board.game_rules(before.game))
        try:
            move = engine.parse_move(line)
        except engine.NotUnderstood as err:
            forms = ", ".join(f"'{form}'" for form, _ in board.move_forms(before))
            title = engine.rules_of(before).title
            raise engine.NotUnderstood(err.text, f"in {title} write e.g. {forms} ('help' lists them)"
                                       ) from None
        return self._change("move", engine.apply(before, move), line, (move,))

    def _back_and_forth(self, head: str, count: int) -> engine.GameState:
        """The state ``count`` undos (or redos) away; refused whole if there are not that many."""
        have = len(self.state.history if head == "undo" else self.state.future)
        if count > have:
            raise IbmError(f"only {counted(have, 'move')} to {head}" if have else f"nothing to {head}")
        step = engine.undo if head == "undo" else engine.redo
        state = self.state
        for _ in range(count):
            state = step(state)
        return state

    def save(self, path: str) -> str:
        """Punch the game into the deck file ``path`` in the format its extension names (``x.txt``:
        text), else the session's; says how many cards."""
        from emulator.formats import output_format

        n = save_deck(self.state, path, output_format(path, None, self.fmt))
        self.saved_at = len(self.state.history)
        return f"saved {cards(n)} to {path}"

    def targets(self, src: str, count: int | None = None) -> list[engine.Move]:
        """The legal moves of cards from pile ``src`` (``count`` of them, if given), for lighting the
        piles they may go to."""
        return [m for m in engine.legal_moves(self.state) if m.kind == "move" and m.src == src
                and (count is None or m.count == count)]

    def autoplay(self) -> Result:
        """Move every card that can go to a foundation there, until none can (each move is one
        change the listeners hear of, so a stream sends them one by one)."""
        before, made = self.state, []
        for _ in range(AUTOPLAY_LIMIT):
            home = [m for m in engine.legal_moves(self.state)
                    if m.kind == "move" and role_of(m.dst) == "foundation"]
            if not home:
                break
            self._change("move", engine.apply(self.state, home[0]), str(home[0]), (home[0],))
            made.append(home[0])
        text = (f"autoplay: {counted(len(made), 'card')} to the foundations" if made
                else "autoplay: nothing goes home")
        return Result("autoplay", before, self.state, text, tuple(made))

    def new_deal(self, number: int | None = None) -> Result:
        """Deal ``number`` (default: the next deal) of the same game with the same options."""
        before = self.state
        if number is None:
            number = before.deal_number + 1 if before.deal_number < MAX_DEAL else 1
        return self._change("deal", engine.deal(before.game, number, before.options), f"deal {number}")

    def restart(self) -> Result:
        """The same deal again, from its first card."""
        before = self.state
        return self._change("restart", engine.deal(before.game, before.deal_number, before.options),
                            "restart")

    def _change(self, kind: str, after: engine.GameState, line: str,
                moves: tuple[engine.Move, ...] = ()) -> Result:
        before, self.state = self.state, after
        if kind in ("deal", "restart"):
            self.saved_at = 0
        for listener in self.listeners:
            listener(before, after, line)
        return Result(kind, before, after, None, moves, self.symbols)
