"""A registry of named things that the modules of a package fill in (card codes, deck formats, and
the packages built on this one: games).

Each module of the package registers what it defines when it is imported.  The registry imports
every public module of the package (not the ``_private`` ones) the first time a name is looked up,
so adding a code, a format or a game is adding a module: no list of modules to keep up to date.
A registry may also be told where each name lives (``homes``, written out beside a list of names the
command line offers without importing them): a lookup of such a name imports only its module.
"""

from __future__ import annotations

import os

from emulator.errors import CardError, IbmError
from emulator.lazy import imported

TYPE_CHECKING = False  # typing is not imported at run time: reading a deck goes through here
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Generic, Protocol, TypeVar

    class Named(Protocol):
        @property
        def name(self) -> str: ...

    T = TypeVar("T", bound=Named)
else:
    class Generic:
        """What ``Generic`` is at run time here: ``Registry[Code]`` is the plain class (annotations
        are not evaluated; only the type checker tells a registry of codes from one of formats)."""

        def __class_getitem__(cls, item: object) -> type:
            return cls

    T = None


class Registry(Generic[T]):
    """Things of one ``kind`` by name (and aliases), registered by the modules of ``package``.

    ``kind`` names them in errors: ``unknown deck format 'x' (known: bin, cbn, …)``, raised as
    ``error``.  With ``fold_case`` names are looked up in lower case.  With ``isolate`` a module
    that fails to import does not stop the others: its error is kept (:attr:`load_errors`) and
    named where a lookup fails; and where no module registered anything, ``empty(where)`` says why
    (``where``: the folders the package was imported from).  ``homes`` maps names (aliases too) to
    the module under ``package`` that registers them: looking one of those up imports that module
    alone (tests/test_registry.py checks such a map against every module's registrations).
    """

    def __init__(self, package: str, kind: str, *, error: type[IbmError] = CardError,
                 fold_case: bool = False, isolate: bool = False,
                 empty: Callable[[list[str]], str] | None = None,
                 homes: Mapping[str, str] | None = None) -> None:
        self.package = package
        self.kind = kind
        self.error = error
        self.fold_case = fold_case
        self.isolate = isolate
        self.empty = empty
        self.homes = homes or {}
        self.load_errors: dict[str, str] = {}
        self._by_name: dict[str, T] = {}
        self._loaded = False

    def add(self, item: T, *aliases: str) -> T:
        """Register ``item`` under its name and ``aliases``; a later item of the same name wins."""
        for key in (item.name, *aliases):
            self._by_name[key] = item
        return item

    def find(self, name: str) -> T | None:
        """The item called ``name`` (or aliased so), ``None`` if there is none."""
        key = name.lower() if self.fold_case else name
        if not self._loaded and key in self.homes:
            imported(f"{self.package}.{self.homes[key]}")
            if key in self._by_name:
                return self._by_name[key]
        self._load_all()
        return self._by_name.get(key)

    def get(self, name: str) -> T:
        """The item called ``name``; a clear :class:`CardError` listing the known names if none."""
        item = self.find(name)
        if item is None:
            failed = f"; modules that failed to load: {self.load_errors}" if self.load_errors else ""
            raise self.error(f"unknown {self.kind} {name!r} (known: {', '.join(self.names())}){failed}")
        return item

    def names(self) -> list[str]:
        """The names of all items, sorted (without aliases)."""
        self._load_all()
        return sorted({item.name for item in self._by_name.values()})

    def _load_all(self) -> None:
        """Import every public module of the package once; each registers its items."""
        if self._loaded:
            return
        where = list(imported(self.package).__path__)
        for module in module_names(where):
            if module.startswith("_"):
                continue
            name = f"{self.package}.{module}"
            try:
                imported(name)
            except Exception as err:
                if not self.isolate:
                    raise
                self.load_errors[name] = f"{type(err).__name__}: {err}"
        if not self._by_name and self.empty is not None:
            raise self.error(self.empty(where))
        self._loaded = True


def module_names(where: list[str]) -> list[str]:
    """The modules and packages in the folders ``where``, by name, as ``pkgutil.iter_modules`` lists
    them (each name once, in the order of the folders, then of the file names); without
    :mod:`pkgutil`, which imports :mod:`inspect` (slow to load) for every command reading a deck."""
    from importlib.machinery import all_suffixes

    suffixes = sorted(all_suffixes(), key=len, reverse=True)
    names: list[str] = []
    for folder in where:
        try:
            files = sorted(os.listdir(folder))
        except OSError:
            continue
        for file in files:
            path = os.path.join(folder, file)
            if os.path.isdir(path):
                name = file if "." not in file and os.path.isfile(os.path.join(path, "__init__.py")) else ""
            else:
                name = next((file[: -len(s)] for s in suffixes if file.endswith(s)), "")
            if name and "." not in name and name != "__init__" and name not in names:
                names.append(name)
    return names
