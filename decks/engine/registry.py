"""The registry of games: every game module under :mod:`decks.games` hands its rules record to
:func:`register` when imported, and :func:`get_game` finds a record by name (importing the game
modules on first use; a module that fails to import is named, not fatal to the others).

It is the generic :class:`emulator.registry.Registry` that also keeps the card codes and deck
formats.  This module imports nothing else of the engine, so both :mod:`decks.engine.state` (which
needs a game's pack to read a saved state back) and :mod:`decks.engine.rules` import it without
importing each other; it knows a record only as something with a name and a pack
(:class:`Registered`), and :func:`decks.engine.rules.get_game` gives the full
:class:`~decks.engine.rules.Rules`.
"""

from __future__ import annotations

from typing import Protocol

from emulator.errors import IbmError
from emulator.registry import Registry


class Registered(Protocol):
    """What the registry knows of a game's rules record."""

    @property
    def name(self) -> str: ...

    @property
    def pack(self) -> str: ...


def _no_games(where: list[str]) -> str:
    """Why the registry is empty: no game module loaded from ``where`` (usually a folder that shadows us)."""
    if GAMES.load_errors:
        return f"no solitaire game could be loaded: {GAMES.load_errors}"
    return (f"no solitaire games found: decks.games was imported from {', '.join(where) or 'nowhere'}, "
            "which holds no game modules (a folder named 'decks' beside your script or in the "
            "current directory hides the installed package: rename it)")


GAMES: Registry[Registered] = Registry("decks.games", "game", error=IbmError, fold_case=True, isolate=True,
                                       empty=_no_games)
"""Every game's rules record, by name."""


def register(rules: Registered) -> Registered:
    """Add a game to the registry (each module under decks/games calls this at import)."""
    return GAMES.add(rules)


def game_names() -> list[str]:
    """The registered games' names, sorted."""
    return GAMES.names()


def get_game(name: str) -> Registered:
    """The record of a game by name (IbmError naming the known games if unknown)."""
    return GAMES.get(name)
