"""A registry of named things that the modules of a package fill in (card codes, deck formats).

Each module of the package registers what it defines when it is imported.  The registry imports
every public module of the package (not the ``_private`` ones) the first time a name is looked up,
so adding a code or a format is adding a module: no list of modules to keep up to date.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Generic, Protocol, TypeVar

from emulator.errors import CardError


class Named(Protocol):
    @property
    def name(self) -> str: ...


T = TypeVar("T", bound=Named)


class Registry(Generic[T]):
    """Things of one ``kind`` by name (and aliases), registered by the modules of ``package``.

    ``kind`` names them in errors: ``unknown deck format 'x' (known: bin, cbn, …)``.
    """

    def __init__(self, package: str, kind: str) -> None:
        self.package = package
        self.kind = kind
        self._by_name: dict[str, T] = {}
        self._loaded = False

    def add(self, item: T, *aliases: str) -> T:
        """Register ``item`` under its name and ``aliases``; a later item of the same name wins."""
        for key in (item.name, *aliases):
            self._by_name[key] = item
        return item

    def find(self, name: str) -> T | None:
        """The item called ``name`` (or aliased so), ``None`` if there is none."""
        self._load_all()
        return self._by_name.get(name)

    def get(self, name: str) -> T:
        """The item called ``name``; a clear :class:`CardError` listing the known names if none."""
        item = self.find(name)
        if item is None:
            raise CardError(f"unknown {self.kind} {name!r} (known: {', '.join(self.names())})")
        return item

    def names(self) -> list[str]:
        """The names of all items, sorted (without aliases)."""
        self._load_all()
        return sorted({item.name for item in self._by_name.values()})

    def _load_all(self) -> None:
        """Import every public module of the package once; each registers its items."""
        if self._loaded:
            return
        self._loaded = True
        for info in pkgutil.iter_modules(importlib.import_module(self.package).__path__):
            if not info.name.startswith("_"):
                importlib.import_module(f"{self.package}.{info.name}")
