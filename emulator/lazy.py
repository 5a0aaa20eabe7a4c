"""A package's public names, imported when first used (PEP 562).

A package top names its public API in ``__all__`` and says which module holds each name; importing
the package then costs nothing (the command line's start-up imports every package top), and a name
is imported, and kept in the package, the first time a program asks for it.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing is not imported at run time: package tops are on every command's path
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from types import ModuleType


def imported(name: str) -> ModuleType:
    """Module ``name`` (absolute), imported if need be: what :func:`importlib.import_module` gives,
    without importing :mod:`importlib`, which costs every command's start-up more than this."""
    __import__(name)
    return sys.modules[name]


def exports(namespace: dict[str, object], homes: Mapping[str, str],
            public: Sequence[str]) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of the package whose ``globals()`` is ``namespace``:
    each name of ``homes`` is imported from the module ``homes`` gives it when first asked for;
    ``dir()`` lists what is loaded and every ``public`` name (the package's ``__all__``)."""
    package = namespace["__name__"]

    def __getattr__(name: str) -> object:
        if name in homes:
            value = getattr(imported(homes[name]), name)
            namespace[name] = value
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted({*namespace, *public})

    return __getattr__, __dir__
