"""External programs the interoperability tests run (simh, hercules, bsd ``bcd``, socat).

On a developer's machine a missing program *skips* the test that needs it, with one line saying what
to install; ``tests/conftest.py`` repeats those lines once at the end of the run.  Under CI a missing
program *fails* the test, so CI can never pass by quietly skipping them: ``.ci/run`` exports
``IBM1013_REQUIRE_INTEROP=1``, and most CI services set ``CI=true`` on their own.
"""

from __future__ import annotations

import os
import shutil

import pytest

REQUIRE_VARIABLE = "IBM1013_REQUIRE_INTEROP"
EXTRA_PATH = "/usr/games:/usr/local/games"
"""Where Debian puts programs a user's PATH may lack (bsd ``bcd`` lives in /usr/games)."""

SKIP_PREFIX = "interop: "
"""How the skip reasons of missing programs start (the summary at the end collects them)."""


def required() -> bool:
    """Whether a missing program must fail the test (CI) rather than skip it."""
    return os.environ.get(REQUIRE_VARIABLE, "") not in ("", "0") or os.environ.get("CI", "").lower() == "true"


def program(name: str, package: str) -> str:
    """The path of ``name``; if it is missing, skip (or under CI fail) naming the Debian ``package``."""
    path = shutil.which(name) or shutil.which(name, path=EXTRA_PATH)
    if path is not None:
        return path
    hint = f"{name} not found: install it with `apt-get install {package}`"
    if required():
        pytest.fail(f"{hint} ({REQUIRE_VARIABLE} or CI is set: interop tests must run, not skip)")
    pytest.skip(SKIP_PREFIX + hint)
