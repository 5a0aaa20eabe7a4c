"""The plain, line-by-line game interface: the board printed after every move, a ``>`` prompt.

It is what ``ibm1013 play --plain`` runs, and what ``play`` and ``watch`` fall back to when standard
input or output is not a terminal (a pipe, a script, a test).  The loop only reads lines and prints
what the :class:`~decks.session.Session` answers; the session does the rest.
"""

from __future__ import annotations

import contextlib
import os
import sys

from decks import board, engine
from decks.session import Session
from emulator.errors import IbmError


def chosen(plain: bool) -> bool:
    """Is the plain interface the one to use: asked for (``--plain``), or standard input or output
    not a terminal (a pipe, a script, a test), or a terminal that cannot draw (``TERM=dumb``)?"""
    tty = sys.stdin.isatty() and sys.stdout.isatty()
    return plain or not tty or os.environ.get("TERM", "dumb") == "dumb"


def interactive(session: Session, offer_save: bool = True) -> None:
    """The terminal loop: the board after every move, line editing and history, help on '?'.
    A stream hears of every change through ``session.listeners``."""
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401 - input() gains arrow keys, editing and history
    out = board.console()
    out.print(board.board(session.state, session.symbols))
    print(board.move_help(session.state))
    while True:
        try:
            line = input("> ").strip()
        except EOFError:  # Ctrl-D; Ctrl-C is the caller's (keep_interrupted_game)
            print()
            line = "quit"
        if not line:
            continue
        if line.lower() in ("quit", "exit", "q"):
            if offer_save:
                offer_to_save(session)
            return
        try:
            result = session.run(line)
        except IbmError as err:
            print(f"refused: {err}")
            continue
        if result.changed:  # a move, undo or redo: draw the board
            out.print(board.board(session.state, session.symbols))
        else:
            print(result.text)
        if engine.is_won(session.state):
            return


def offer_to_save(session: Session) -> None:
    """A game left with moves not yet saved: ask whether to punch it into a deck first."""
    if not session.unsaved:
        return
    state = session.state
    default = f"{state.game}-{state.deal_number}.{session.fmt}"
    try:
        answer = input(f"save the game before quitting? file [{default}], or 'n': ").strip()
    except EOFError:
        print()
        return
    if answer.lower() in ("n", "no"):
        return
    try:
        print(session.save(answer or default))
    except IbmError as err:
        print(f"not saved: {err}")
