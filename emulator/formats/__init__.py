"""Deck files: one module per format, each a streaming reader and writer of cards.

A format module defines a :class:`DeckFormat` and registers it here.  Readers take a binary stream
and yield :class:`~emulator.card.Card` objects one by one (a 10 GB deck never sits in memory);
writers take any iterable of cards.  Where a format has a fast whole-chunk path (numpy arrays of
column words), the module offers it as ``read_arrays``/``write_arrays`` for the benchmarks and bulk
conversion.  Byte layouts: ``../shared/reference/cardformats.md`` §3.

``detect`` picks the format of a file from its first bytes, as SIMH's AUTO mode does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from emulator.card import Card
from emulator.errors import CardError


@dataclass(frozen=True)
class DeckFormat:
    """A deck file format.

    ``read(stream, code=..., lenient=..., source=...)`` yields cards; ``write(cards, stream,
    code=...)`` writes them.  ``sniff(head)`` says whether the first bytes look like this format
    (``None`` if the format is never auto-detected).  ``textual`` formats go through a character
    code; binary ones carry the holes themselves.
    """

    name: str
    description: str
    extensions: tuple[str, ...]
    read: Callable[..., Iterator[Card]]
    write: Callable[..., None]
    sniff: Callable[[bytes], bool] | None = None
    textual: bool = False


_REGISTRY: dict[str, DeckFormat] = {}
_loaded = False

DETECT_ORDER: tuple[str, ...] = ("bin", "cbn", "text")
"""Order in which ``detect`` tries formats; SIMH AUTO tries BIN, then CBN, then falls back to text."""


def register(fmt: DeckFormat) -> DeckFormat:
    _REGISTRY[fmt.name] = fmt
    return fmt


def get_format(name: str) -> DeckFormat:
    """The format called ``name``; a clear error if there is none."""
    _load_all()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise CardError(
            f"unknown deck format {name!r} (known: {', '.join(format_names())})"
        ) from None


def format_names() -> list[str]:
    _load_all()
    return sorted(_REGISTRY)


def detect(head: bytes) -> DeckFormat:
    """The format whose ``sniff`` accepts ``head`` first, in :data:`DETECT_ORDER`."""
    _load_all()
    for name in DETECT_ORDER:
        fmt = _REGISTRY.get(name)
        if fmt is not None and fmt.sniff is not None and fmt.sniff(head):
            return fmt
    return get_format("text")


def read_deck(
    stream: BinaryIO, fmt: str = "auto", *, code: str = "029", lenient: bool = False,
    source: str | None = None,
) -> Iterator[Card]:
    """Cards from ``stream`` in format ``fmt`` (``auto`` detects it from the first bytes)."""
    raise NotImplementedError  # filled in by the formats work (issue 2)


def write_deck(cards: Iterable[Card], stream: BinaryIO, fmt: str, *, code: str = "029") -> None:
    """Write ``cards`` to ``stream`` in format ``fmt``."""
    get_format(fmt).write(cards, stream, code=code)


def _load_all() -> None:
    import importlib
    import pkgutil

    global _loaded
    if _loaded:
        return
    _loaded = True
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
