"""The registry of games: every game module under :mod:`decks.games` hands its rules record to
:func:`register` when imported, and :func:`get_game` finds a record by name (importing the game
modules on first use).

This module imports nothing else of the engine, so both :mod:`decks.engine.state` (which needs a
game's pack to read a saved state back) and :mod:`decks.engine.rules` import it without importing
each other.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING

from emulator.errors import IbmError

if TYPE_CHECKING:
    from decks.engine.rules import Rules


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
    import decks.games as games_pkg

    for info in pkgutil.iter_modules(games_pkg.__path__):
        name = f"decks.games.{info.name}"
        try:
            importlib.import_module(name)
        except Exception as err:  # noqa: BLE001 - one broken game module must not hide the others
            _LOAD_ERRORS[name] = f"{type(err).__name__}: {err}"
    if not _REGISTRY:
        raise IbmError(_no_games(list(games_pkg.__path__)))
    _loaded = True


def _no_games(where: list[str]) -> str:
    """Why the registry is empty: no game module loaded from ``where`` (usually a folder that shadows us)."""
    if _LOAD_ERRORS:
        return f"no solitaire game could be loaded: {_LOAD_ERRORS}"
    return (f"no solitaire games found: decks.games was imported from {', '.join(where) or 'nowhere'}, "
            "which holds no game modules (a folder named 'decks' beside your script or in the "
            "current directory hides the installed package: rename it)")


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
