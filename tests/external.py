"""What some tests need from outside the project, and the one guard every skip goes through.

Interoperability tests run external programs (simh, hercules, bsd ``bcd``, socat); others need zsh,
man, a tmpfs only root can mount, a Python module of the ``[test]`` extra (``distributed``), the
compiled solver core, or a git checkout.  On a developer's machine a missing one *skips* the test
that needs it, with one line saying what to install; ``tests/conftest.py`` repeats those lines once at
the end of the run.  Under CI a missing one *fails* the test, so CI can never pass by quietly skipping
it: ``.ci/run`` exports ``IBM1013_REQUIRE_INTEROP=1``, and most CI services set ``CI=true`` on their
own.  No test calls ``pytest.skip`` (or ``skipif``, ``importorskip``) but through :func:`unavailable`
(``tests/test_fresh_clone.py`` checks that).
"""

from __future__ import annotations

import importlib
import os
import shutil
from types import ModuleType
from typing import NoReturn

import pytest

REQUIRE_VARIABLE = "IBM1013_REQUIRE_INTEROP"
EXTRA_PATH = "/usr/games:/usr/local/games"
"""Where Debian puts programs a user's PATH may lack (bsd ``bcd`` lives in /usr/games)."""

SKIP_PREFIX = "not here: "
"""How the skip reasons of missing things start (the summary at the end collects them)."""


def required() -> bool:
    """Whether a missing program must fail the test (CI) rather than skip it."""
    return os.environ.get(REQUIRE_VARIABLE, "") not in ("", "0") or os.environ.get("CI", "").lower() == "true"


def unavailable(what: str) -> NoReturn:
    """Skip the test (or, at import, its module) because ``what`` is missing here — ``what`` says
    what and how to get it — or under CI fail it."""
    if required():
        pytest.fail(f"{what} ({REQUIRE_VARIABLE} or CI is set: these tests must run, not skip)")
    pytest.skip(SKIP_PREFIX + what, allow_module_level=True)


def program(name: str, package: str) -> str:
    """The path of ``name``; if it is missing, skip (or under CI fail) naming the Debian ``package``."""
    path = shutil.which(name) or shutil.which(name, path=EXTRA_PATH)
    if path is None:
        unavailable(f"{name} not found: install it with `apt-get install {package}`")
    return path


def module(name: str, extra: str = "test") -> ModuleType:
    """The Python module ``name``; if it is missing, skip (or under CI fail) naming the extra of
    pyproject.toml that installs it."""
    try:
        return importlib.import_module(name)
    except ImportError as err:
        unavailable(f"the Python module {name} is missing ({err}): install it with "
                    f"`pip install -e '.[{extra}]'`")
