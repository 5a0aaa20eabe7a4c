"""Statistics of games played, per game and options: played, won, streaks, fewest moves, best time.

Every interface a person plays on — the full-screen board (:mod:`ibm1013.tui`), the plain prompt,
each of them streamed or not — counts each game once through a :class:`Tally` on its session: a
game counts when it is won, or when it is left after a move (quit, a new deal, a restart).  A
replayed move script is no game played; an interrupted game is saved to be carried on, and counts
when it is finished there.  ``ibm1013 stats`` prints them.  They live in one JSON file,
``stats.json`` in the user's data directory (``platformdirs.user_data_dir("ibm1013")``, e.g.
``~/.local/share/ibm1013`` on Linux; ``IBM1013_DATA_DIR`` names another), rewritten atomically.
Games with different options are different games here: Klondike drawing three is not Klondike
drawing one.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING

from decks import engine
from emulator.atomic import atomic_output
from emulator.errors import IbmError

if TYPE_CHECKING:
    from decks.session import Session

FILE = "stats.json"


def data_dir() -> Path:
    """Where the statistics are kept (``IBM1013_DATA_DIR``, else the platform's user data dir)."""
    given = os.environ.get("IBM1013_DATA_DIR")
    if given:
        return Path(given)
    import platformdirs

    return Path(platformdirs.user_data_dir("ibm1013", appauthor=False))


def key(state: engine.GameState) -> str:
    """The name statistics are kept under: the game and its options, ``klondike draw=3 redeals=-1``."""
    options = " ".join(f"{k}={v}" for k, v in sorted(state.options.items()))
    return f"{state.game} {options}".strip()


@dataclass
class Record:
    """One game-and-options' figures (``best_moves``/``best_seconds``: of the games won)."""

    played: int = 0
    won: int = 0
    streak: int = 0
    best_streak: int = 0
    best_moves: int | None = None
    best_seconds: float | None = None

    def finished(self, won: bool, moves: int, seconds: float) -> None:
        self.played += 1
        if not won:
            self.streak = 0
            return
        self.won += 1
        self.streak += 1
        self.best_streak = max(self.best_streak, self.streak)
        self.best_moves = moves if self.best_moves is None else min(self.best_moves, moves)
        seconds = round(seconds, 1)
        self.best_seconds = seconds if self.best_seconds is None else min(self.best_seconds, seconds)

    def describe(self) -> str:
        rate = f" ({100 * self.won / self.played:.0f}%)" if self.played else ""
        best = "" if self.best_moves is None else (
            f", fewest moves {self.best_moves}, best time {self.best_seconds:g} s")
        return (f"played {self.played}, won {self.won}{rate}, streak {self.streak} "
                f"(best {self.best_streak}){best}")


class Stats:
    """The statistics file: :meth:`load`, :meth:`record` a finished game (saved at once)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or data_dir() / FILE
        self.records: dict[str, Record] = {}

    @classmethod
    def load(cls, path: Path | None = None) -> Stats:
        stats = cls(path)
        try:
            data = json.loads(stats.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return stats
        except (OSError, ValueError) as err:
            raise IbmError(f"{stats.path}: not a statistics file ({err})") from None
        names = {f.name for f in fields(Record)}
        try:
            stats.records = {k: Record(**{f: v for f, v in r.items() if f in names}) for k, r in data.items()}
        except (AttributeError, TypeError) as err:
            raise IbmError(f"{stats.path}: not a statistics file ({err})") from None
        return stats

    def record(self, state: engine.GameState, seconds: float) -> Record:
        """Count the game of ``state`` as finished (won or not) after ``seconds`` of play; saves."""
        rec = self.records.setdefault(key(state), Record())
        rec.finished(engine.is_won(state), len(state.history), seconds)
        self.save()
        return rec

    def save(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with atomic_output(self.path) as out:
                out.write(json.dumps(self.to_dict(), indent=1, sort_keys=True).encode())
        except OSError as err:
            raise IbmError(f"{self.path}: {err.strerror}") from None

    def to_dict(self) -> dict[str, dict[str, int | float | None]]:
        return {k: asdict(r) for k, r in sorted(self.records.items())}


class Tally:
    """Counts the games of one session in the statistics, each exactly once: when it is won (heard
    from the session), when a new deal or a restart leaves it after a move, or when the player
    leaves it after a move (:meth:`leave`).  Its time runs from the first change.  A statistics file
    that cannot be written goes to ``on_error`` (the game goes on)."""

    def __init__(self, session: Session, stats: Stats,
                 on_error: Callable[[str], None] | None = None) -> None:
        self.session = session
        self.stats = stats
        self.on_error = on_error
        self.started: float | None = None
        self.recorded = False
        session.listeners.append(self._heard)

    def _heard(self, before: engine.GameState, after: engine.GameState, line: str) -> None:
        if line.split()[:1] in (["deal"], ["restart"]):  # Session.new_deal / restart: a new game
            self._count(before)
            self.started, self.recorded = None, False
            return
        if self.started is None:
            self.started = time.monotonic()
        if engine.is_won(after):
            self._count(after)

    def leave(self) -> None:
        """The player left the game (quit, end of input, the window closed)."""
        self._count(self.session.state)

    def _count(self, state: engine.GameState) -> None:
        if self.recorded or not state.history:
            return
        self.recorded = True
        try:
            self.stats.record(state, time.monotonic() - (self.started or time.monotonic()))
        except IbmError as err:
            if self.on_error is None:
                raise
            self.on_error(f"statistics not kept: {err}")
