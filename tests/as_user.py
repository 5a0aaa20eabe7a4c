"""Run a script the way a user does after the README's install: ``python examples/X.py`` from the
repository root, with no ``PYTHONPATH``.

Python puts a script's own folder first on ``sys.path``, and the editable install finds our packages
through a finder asked only *after* that path search; so a folder beside the script named like one of
our packages hides it (issue 25 §1: ``examples/decks/`` did).  Setting ``PYTHONPATH`` to the
repository hides the problem, because a real package on the path wins over such a folder.

When the installed package is this tree (CI: ``pip install -e .`` of the clone), the script runs with
``PYTHONPATH`` removed: exactly the user's case.  When it is another tree (a developer's worktree beside
the installed checkout), the script gets a ``sitecustomize`` that adds a finder for *this* tree at the
same place in the import order as the editable install's finder, right after the path search.  Either
way the script's folder comes first, as for the user, and the code under test is this tree's.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("emulator", "ibm1013", "decks")

_FINDER = '''"""Find {packages} in {root} after the path search, as an editable install of that tree does."""
import importlib.machinery
import importlib.util
import os
import sys


class _ThisTree:
    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        top, _, _ = fullname.partition(".")
        if top not in {packages!r}:
            return None
        base = os.path.join({root!r}, *fullname.split("."))
        init = os.path.join(base, "__init__.py")
        if os.path.exists(init):
            return importlib.util.spec_from_file_location(fullname, init, submodule_search_locations=[base])
        for suffix in importlib.machinery.all_suffixes():
            if os.path.exists(base + suffix):
                return importlib.util.spec_from_file_location(fullname, base + suffix)
        return None


_AT = next(i for i, f in enumerate(sys.meta_path) if f is importlib.machinery.PathFinder)
sys.meta_path.insert(_AT + 1, _ThisTree)
'''


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}


@functools.cache
def installed_is_this_tree() -> bool:
    """Whether a plain ``python`` (no ``PYTHONPATH``, outside the tree) imports our packages from here."""
    probe = "import decks, emulator, ibm1013; print(decks.__file__, emulator.__file__, ibm1013.__file__)"
    proc = subprocess.run([sys.executable, "-c", probe], env=_clean_env(), cwd=tempfile.gettempdir(),
                          capture_output=True, text=True, timeout=60)
    files = proc.stdout.split()
    return proc.returncode == 0 and files == [str(ROOT / p / "__init__.py") for p in PACKAGES]


@functools.cache
def env() -> dict[str, str]:
    """The environment of a user's shell for this tree (see the module's docstring)."""
    clean = _clean_env()
    if installed_is_this_tree():
        return clean
    site = Path(tempfile.mkdtemp(prefix="ibm1013-as-user-"))
    atexit.register(shutil.rmtree, site, True)
    (site / "sitecustomize.py").write_text(_FINDER.format(packages=PACKAGES, root=str(ROOT)))
    return {**clean, "PYTHONPATH": str(site)}


def run(script: str | os.PathLike[str], *args: str | os.PathLike[str], cwd: Path = ROOT,
        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python SCRIPT ARGS`` from ``cwd`` (the repository root), as a user runs it."""
    return subprocess.run([sys.executable, str(script), *map(str, args)], cwd=cwd, env=env(),
                          capture_output=True, text=True, timeout=timeout)
