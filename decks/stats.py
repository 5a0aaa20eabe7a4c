"""Statistics of games played, per game and options: played, won, streaks, fewest moves, best time.

A full-screen game (:mod:`ibm1013.tui`) records each game it finishes — won, or left with moves
made (quit, a new deal, a restart) — and ``ibm1013 stats`` prints them.  They live in one JSON file,
``stats.json`` in the user's data directory (``platformdirs.user_data_dir("ibm1013")``, e.g.
``~/.local/share/ibm1013`` on Linux; ``IBM1013_DATA_DIR`` names another), rewritten atomically.
Games with different options are different games here: Klondike drawing three is not Klondike
drawing one.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from decks import engine
from emulator.atomic import atomic_output
from emulator.errors import IbmError

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

    def to_dict(self) -> dict[str, Any]:
        return {k: asdict(r) for k, r in sorted(self.records.items())}
