"""Builds the compiled cores: mypyc compiles the solver's modules (``decks/solver/position.py``,
``keys.py``, ``measures.py``, ``stuck.py`` and ``search.py``) to C extension modules (see
:mod:`decks.solver`), and, as a second group ``ibm1013._sim``, the modules every simulated card
passes through (see :mod:`emulator.compiled`).
Everything else is in ``pyproject.toml``.  ``IBM1013_PURE_PYTHON=1 pip install ...`` skips the
compilation; a machine without a C compiler skips it too (the extensions are optional) and runs the
same code as Python.

A build in place (``pip install -e .``, ``setup.py build_ext --inplace``) is reused when nothing it
was made from has changed: each group records, beside its compiled modules, a fingerprint of what
went into it (the group's sources and every project module they import, this file, the mypy
version, the Python version and its extension ABI) and the files it produced.  When the
fingerprint is the same and every file is there, the group is not compiled again (mypyc takes
minutes); its files are touched, so that :mod:`emulator.compiled` sees them newer than the sources
they match.  Any difference compiles the group again, and its record is written only once every
file of the new build is there, so a failed or partial build is never taken for a fresh one.
"""

import ast
import hashlib
import json
import os
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

CORE = ["decks/solver/position.py", "decks/solver/tables.py", "decks/solver/safety.py",
        "decks/solver/moves.py", "decks/solver/keys.py", "decks/solver/measures.py",
        "decks/solver/relaxed.py", "decks/solver/blockers.py", "decks/solver/stuck.py",
        "decks/solver/tree.py", "decks/solver/best.py", "decks/solver/search.py"]
SIM = ["ibm1013/str/fourofeight.py", "ibm1013/str/events.py", "ibm1013/str/transmitter.py",
       "ibm1013/str/receiver.py", "emulator/sim/kernel.py", "emulator/sim/timers.py", "emulator/sim/line.py",
       "ibm1013/sim/terminal.py", "ibm1013/sim/books.py"]
"""The simulation's hot path (see :mod:`emulator.compiled`): the STR core, four-of-eight, the
terminal model and its timers."""

GROUPS = {"decks.solver._core": CORE, "ibm1013._sim": SIM}
ROOT = os.path.dirname(os.path.abspath(__file__))
PACKAGES = ("emulator", "ibm1013", "decks")


def _module_file(name: str) -> str | None:
    """The project file of module ``name`` (a package's ``__init__.py``), if it is one of ours."""
    if name.split(".")[0] not in PACKAGES:
        return None
    base = os.path.join(ROOT, *name.split("."))
    for path in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(path):
            return path
    return None


def _imported(path: str) -> set[str]:
    """The modules ``path`` imports (and the packages above them), by name."""
    package = os.path.relpath(os.path.dirname(path), ROOT).replace(os.sep, ".")
    names: set[str] = set()
    for node in ast.walk(ast.parse(open(path, "rb").read(), path)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)  # a submodule, maybe
    return {".".join(name.split(".")[:i]) for name in names for i in range(1, name.count(".") + 2)}


def followed(sources: list[str]) -> list[str]:
    """``sources`` and every project file they import, directly or not: what mypy reads to compile
    them (``--follow-imports=silent``), so what the compiled code may depend on."""
    seen: set[str] = set()
    todo = [os.path.join(ROOT, source) for source in sources]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo.extend(f for f in map(_module_file, _imported(path)) if f is not None and f not in seen)
    return sorted(os.path.relpath(path, ROOT) for path in seen)


def fingerprint(sources: list[str]) -> str:
    """What a group's build is made of, hashed (see the module's docstring)."""
    import mypy.version

    digest = hashlib.sha256()
    for part in (mypy.version.__version__, sys.version, sysconfig.get_config_var("EXT_SUFFIX") or "",
                 sys.platform):
        digest.update(part.encode() + b"\0")
    for path in ["setup.py", *followed(sources)]:
        with open(os.path.join(ROOT, path), "rb") as file:
            digest.update(path.encode() + b"\0" + hashlib.sha256(file.read()).digest())
    return digest.hexdigest()


def record_path(group: str) -> str:
    """Where the build of ``group`` in place records its fingerprint and files."""
    return os.path.join(ROOT, *group.split(".")) + "__mypyc.build.json"


def _in(name: str, group: str) -> bool:
    return name in _modules(group)


def _modules(group: str) -> list[str]:
    return [f"{group}__mypyc", *(source[:-3].replace("/", ".") for source in GROUPS[group])]


def placeholders() -> list[Extension]:
    """The extension modules the groups build, named but not yet generated: mypyc runs only when a
    group is built (:class:`BuildExt`), not each time setuptools reads this file."""
    return [Extension(name, sources=[], optional=True) for group in GROUPS for name in _modules(group)]


class BuildExt(build_ext):
    """``build_ext`` that runs mypyc for the groups to build, and reuses a fresh build in place."""

    def run(self) -> None:
        if os.environ.get("IBM1013_PURE_PYTHON"):
            return
        inplace = bool(self.inplace or getattr(self, "editable_mode", False))
        stale = []
        # taken before mypyc reads the sources: a file edited while the build runs leaves a record
        # that does not match it, so the next build compiles it again
        prints = {group: fingerprint(sources) for group, sources in GROUPS.items()} if inplace else {}
        for group in GROUPS:
            if inplace and self._reuse(group, prints[group]):
                print(f"{group}: the compiled modules in place match their sources; not compiled again")
            else:
                stale.append(group)
        reused = [ext for ext in self.extensions if not any(_in(ext.name, group) for group in stale)]
        self.extensions = self._finalized(compiled(stale))
        self._failed: set[str] = set()
        if self.extensions:
            super().run()
        if inplace:
            for group in stale:
                self._record(group, prints[group])
        self.extensions = [*reused, *self.extensions]  # what get_outputs() tells the editable install

    def _finalized(self, extensions: list[Extension]) -> list[Extension]:
        """``extensions`` (mypyc's, made after options were finalized) with what setuptools' own
        ``finalize_options`` set on the placeholders of the same names."""
        placeholder = {ext.name: ext for ext in self.extensions}
        for ext in extensions:
            if ext.name not in placeholder:
                raise RuntimeError(f"mypyc built {ext.name}, which setup.py does not name: add it to GROUPS")
            for attribute in ("_full_name", "_links_to_dynamic", "_needs_stub", "_file_name"):
                if hasattr(placeholder[ext.name], attribute):
                    setattr(ext, attribute, getattr(placeholder[ext.name], attribute))
            full = getattr(ext, "_full_name", ext.name)
            self.ext_map[full] = self.ext_map[full.split(".")[-1]] = ext
        return extensions

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception:
            self._failed.add(ext.name)  # an optional module: setuptools says so and goes on
            raise

    def _outputs(self, group: str) -> list[str]:
        return [os.path.relpath(self.get_ext_fullpath(name), ROOT) for name in _modules(group)]

    def _reuse(self, group: str, wanted: str) -> bool:
        """Whether the build in place of ``group`` is fresh (its files touched if so)."""
        try:
            with open(record_path(group)) as file:
                record = json.load(file)
        except (OSError, ValueError):
            return False
        files = [os.path.join(ROOT, path) for path in record.get("files", [])]
        if record.get("fingerprint") != wanted or not files or not all(map(os.path.isfile, files)):
            return False
        for path in files:
            os.utime(path)  # newer than the sources they were built from (emulator.compiled)
        return True

    def _record(self, group: str, made_from: str) -> None:
        """Record ``group``'s build (``made_from``: the fingerprint of the sources it was compiled
        from), if none of its modules failed and every file is there."""
        files = self._outputs(group)
        paths = [os.path.join(ROOT, path) for path in files]
        if self._failed.intersection(_modules(group)) or not all(map(os.path.isfile, paths)):
            return
        for path in paths:
            os.utime(path)  # up to date (setuptools may have kept one): newer than its sources
        with open(record_path(group), "w") as file:
            json.dump({"fingerprint": made_from, "files": files}, file, indent=1)


def compiled(groups: list[str]) -> list[Extension]:
    """mypyc's extension modules for ``groups`` (their C generated now); none when
    ``IBM1013_PURE_PYTHON`` is set.  A group about to be built loses its record first."""
    if os.environ.get("IBM1013_PURE_PYTHON") or not groups:
        return []
    from mypyc.build import mypycify

    # --config-file= : not pyproject.toml's [tool.mypy] (the strict check of tests/test_types.py); the
    # compiled modules are built with these flags alone.
    flags = ["--ignore-missing-imports", "--follow-imports=silent", "--config-file="]
    modules = []
    for group in groups:
        if os.path.exists(record_path(group)):
            os.unlink(record_path(group))
        modules += mypycify([*GROUPS[group], *flags], opt_level="3", group_name=group)
    for module in modules:
        module.optional = True          # no C compiler: the source runs instead
    return modules


if __name__ == "__main__":  # as setuptools runs it (tests/test_setup_reuse.py imports it without building)
    setup(ext_modules=[] if os.environ.get("IBM1013_PURE_PYTHON") else placeholders(),
          cmdclass={"build_ext": BuildExt})
