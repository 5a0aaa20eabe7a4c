"""Which search this is, and which records of earlier searches it still finds again.

A search limited by positions is deterministic, so a record of one (a deal, the limit, the verdict and
the positions searched: ``docs/*.jsonl``) is what the same search finds again, and the tests search
the cheap records again to prove it (``tests/test_records.py``).  Each record names the search that
made it (:data:`SEARCH_VERSION`, with ``" compiled"`` where the compiled core ran).  A change to the
solver or to a game's rules that can change what a search finds gets a new version, and each game
whose searches it changed names the version before in its tuning (``SolverTuning.changed_since``),
so that its records of that version are made again while the other games' still stand
(:func:`same_search`).  What each version changed is told in docs/solver-changelog.md.
"""

from __future__ import annotations

from typing import Final

from decks.engine import get_game

SEARCH_VERSION: Final = "2026-12-05c"
"""Names the search's order and pruning: a node-limited result recorded with one version is what
the same version finds again (``python -m tools.measure_games --results`` resumes by it)."""
ONE_ORDER_VERSION: Final = "2026-11-30"
"""The search before the restarts (one run, the new order alone), still made by ``solve(...,
restarts=False)`` for every game whose tuning does not name it: the records of that version are
searched again with it."""
EARLIER_VERSIONS: Final = ("2026-12-05b", "2026-12-05", "2026-12-04d", "2026-12-04c", "2026-12-04b",
                           "2026-12-04", "2026-12-03e", "2026-12-03d", "2026-12-03c", "2026-12-03b",
                           "2026-12-03", "2026-12-02", "2026-12-01", ONE_ORDER_VERSION)
"""The earlier searches whose records may still stand: for a game whose tuning does not name the
version (``SolverTuning.changed_since``), today's search finds what they found (with the restarts,
or with ``restarts=False`` for :data:`ONE_ORDER_VERSION`)."""


def same_search(version: str, game: str) -> bool:
    """Whether a record of ``game`` made by search ``version`` is what today's search finds: with
    the restarts (:data:`SEARCH_VERSION`, or an earlier version the game's tuning does not name),
    or with ``restarts=False`` (:data:`ONE_ORDER_VERSION`, likewise)."""
    if version == SEARCH_VERSION:
        return True
    return version in EARLIER_VERSIONS and version not in get_game(game).solver.changed_since
