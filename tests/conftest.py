"""Test-run hooks: one line per missing program or module at the end (see ``tests/external.py``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from external import SKIP_PREFIX


@pytest.fixture(autouse=True)
def _statistics_kept_apart(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every game a test plays is counted (decks/stats.py): in a folder of the test run's, never in
    the user's own statistics (``IBM1013_DATA_DIR``, inherited by the processes a test starts).
    (Not with ``monkeypatch``: its undoing would come after the working-directory check below.)"""
    before = os.environ.get("IBM1013_DATA_DIR")
    os.environ["IBM1013_DATA_DIR"] = str(tmp_path_factory.mktemp("data"))
    yield
    if before is None:
        os.environ.pop("IBM1013_DATA_DIR", None)
    else:
        os.environ["IBM1013_DATA_DIR"] = before


@pytest.fixture(autouse=True)
def _working_directory_kept() -> Iterator[None]:
    """A test that changes the working directory (``os.chdir`` instead of ``monkeypatch.chdir``)
    fails by name: the tests after it would run their subprocesses from its temporary folder."""
    before = os.getcwd()
    yield
    after = os.getcwd()
    if after != before:
        os.chdir(before)
        pytest.fail(f"the test left the working directory at {after} (use monkeypatch.chdir)")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say once per missing thing what to install, however many tests it skipped."""
    hints: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else ""
        if SKIP_PREFIX in reason:
            hint = reason.split(SKIP_PREFIX, 1)[1]
            hints[hint] = hints.get(hint, 0) + 1
    for hint, count in hints.items():
        terminalreporter.write_line(f"skipped {count} test{'s' if count != 1 else ''}: {hint}")
