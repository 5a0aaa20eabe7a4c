"""Which build of a group of modules this process runs: the mypyc-compiled modules or their
Python source.

``pip install`` compiles groups of modules with mypyc (``setup.py``); each package that has one
names its modules and asks :func:`choose` once, before they load.  Both builds run the same code, so
they give the same results; :func:`choose` says which one this process loaded:

* ``"compiled"`` — the modules mypyc built;
* ``"python"`` — the source: where nothing was compiled (no C compiler at install time, or
  ``IBM1013_PURE_PYTHON=1`` when installing), where ``IBM1013_PURE_PYTHON=1`` is set when running,
  where the build is partial, or where a source file is newer than its compiled module (an edit not
  yet rebuilt; the source is loaded, with a one-line warning, rather than code that no longer
  matches it).

It is all or nothing: the compiled modules of a group call each other natively, so a group is never
half compiled.  Where the source is chosen but compiled files exist, a finder placed first on
``sys.meta_path`` loads each module of the group from its ``.py`` file (Python would otherwise
prefer the extension module next to it).
"""

from __future__ import annotations

import os
import sys
from _imp import extension_suffixes

TYPE_CHECKING = False  # typing is not imported at run time: this is on the path of every command
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

EXTENSION_SUFFIXES = extension_suffixes()
"""What an extension module's file name ends with here (``importlib.machinery.EXTENSION_SUFFIXES``,
taken from where it takes it: importing :mod:`importlib.machinery` costs every command's start-up)."""

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""The directory holding the packages (``emulator`` and those built on it)."""



def compiled_file(base: str, listings: dict[str, frozenset[str]] | None = None) -> str | None:
    """The extension module built for ``base`` (a path without suffix), if there is one.

    ``listings`` keeps the names in each directory looked in, listed once: :func:`choose` asks for
    every module of a group, and a listing per directory costs less than a failed ``stat`` per
    suffix per module (this runs at every command's start-up)."""
    directory, name = os.path.split(base)
    listings = {} if listings is None else listings
    if directory not in listings:
        try:
            listings[directory] = frozenset(os.listdir(directory))
        except OSError:  # no such directory: nothing built there
            listings[directory] = frozenset()
    for suffix in EXTENSION_SUFFIXES:
        if name + suffix in listings[directory]:
            return base + suffix
    return None


def edited(source: str, compiled: str, group_lib: str | None, root: str = ROOT) -> bool:
    """In a source checkout (an editable install: a ``setup.py`` in ``root``, beside the packages), whether
    ``source`` changed after it was compiled: after the group module that holds the compiled code
    (or, with no group, after its own module).  The group module is the one to ask: a build that
    changed only the code rewrites only it, and a build whose group failed to compile (an optional
    extension: setuptools says "failed" and goes on) leaves the old group behind fresh per-module
    stubs.  An installed wheel's files are as built, whatever their times say."""
    checkout = os.path.exists(os.path.join(root, "setup.py"))
    built = os.stat(group_lib if group_lib is not None else compiled).st_mtime
    return checkout and os.stat(source).st_mtime > built


class SourceFirst:
    """A meta path finder loading the named modules from their ``.py`` files."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = frozenset(names)

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in self.names:
            return None
        from importlib.machinery import SourceFileLoader
        from importlib.util import spec_from_file_location

        source = os.path.join(ROOT, *fullname.split(".")) + ".py"
        return spec_from_file_location(fullname, source, loader=SourceFileLoader(fullname, source))


def choose(names: tuple[str, ...], group: str) -> str:
    """``"compiled"`` or ``"python"`` for the group ``group`` of modules ``names``; where it is the
    source and compiled files exist, make the imports of ``names`` load the source."""
    bases = [os.path.join(ROOT, *name.split(".")) for name in names]
    listings: dict[str, frozenset[str]] = {}
    found = [compiled_file(base, listings) for base in bases]
    group_lib = compiled_file(os.path.join(ROOT, *group.split(".")) + "__mypyc", listings)
    if not any(found) and group_lib is None:
        return "python"                                 # nothing built: plain imports load the source
    if not os.environ.get("IBM1013_PURE_PYTHON"):
        missing = [name for name, f in zip(names, found, strict=True) if f is None]
        stale = [os.path.relpath(base + ".py", ROOT) for base, f in zip(bases, found, strict=True)
                 if f is not None and edited(base + ".py", f, group_lib)]
        if group_lib is not None and not missing and not stale:
            return "compiled"
        import warnings

        why = f"{', '.join(stale)} edited since compiled" if stale else \
            f"compiled build partial (no {', '.join(missing) or group + '__mypyc'})"
        warnings.warn(f"{group}: {why}; running the Python source (pip install -e . compiles it again)",
                      stacklevel=3)
    sys.meta_path.insert(0, SourceFirst(names))
    return "python"

