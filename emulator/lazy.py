"""A package's public names, imported when first used (PEP 562), and the other imports put off
until their first use.

A package top names its public API in ``__all__`` and says which module holds each name; importing
the package then costs nothing (the command line's start-up imports every package top), and a name
is imported, and kept in the package, the first time a program asks for it.  :func:`imported`
imports a module by name; :func:`contextmanager` is :func:`contextlib.contextmanager` for a module
on the start-up path, with ``contextlib`` imported when such a context is first made.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing is not imported at run time: package tops are on every command's path
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping, Sequence
    from contextlib import AbstractContextManager
    from types import ModuleType
    from typing import ParamSpec, TypeVar

    P = ParamSpec("P")
    T = TypeVar("T")


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


def contextmanager(generator: Callable[P, Iterator[T]]) -> Callable[P, AbstractContextManager[T]]:
    """:func:`contextlib.contextmanager`, with :mod:`contextlib` imported the first time the function
    is called, not when it is decorated: ``contextlib`` costs more to import (a wheel install's
    ``cards decode`` of a few cards, which decorates the deck files' contexts and enters none of
    them) than the rest of a small module.  The function made has the generator's name and
    docstring (``__wrapped__``: the generator)."""
    made: list[Callable[P, AbstractContextManager[T]]] = []

    def context(*args: P.args, **kwargs: P.kwargs) -> AbstractContextManager[T]:
        if not made:
            from contextlib import contextmanager as decorate

            made.append(decorate(generator))
        return made[0](*args, **kwargs)

    for name in ("__module__", "__name__", "__qualname__", "__doc__"):
        setattr(context, name, getattr(generator, name))
    context.__wrapped__ = generator  # type: ignore[attr-defined]  # as functools.wraps sets it
    return context
