"""A frozen value of named fields, as ``@dataclass(frozen=True)`` makes one, without
:mod:`dataclasses`.

Every command that reads a deck loads the card codes and the deck formats, and :mod:`dataclasses`
imports :mod:`inspect` (and with it :mod:`ast`, :mod:`dis`, :mod:`tokenize`): as long to load as a
small command takes to run.  So :class:`emulator.codes.Code` and
:class:`emulator.formats.DeckFormat` are :class:`Record` subclasses: each writes its ``__init__``
(the signature a dataclass would have) and names its ``_fields``; this gives what the dataclass
gave, comparison, hashing and ``repr`` by the fields, and no assignment after ``__init__``.
"""

from __future__ import annotations


class Record:
    """Compared, hashed and shown by the attributes named in ``_fields``; frozen (set them in
    ``__init__`` with :meth:`_set`)."""

    _fields: tuple[str, ...] = ()

    def _set(self, **values: object) -> None:
        """Set the fields (in ``__init__``: everywhere else they cannot be assigned)."""
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a {type(self).__name__} is frozen")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a {type(self).__name__} is frozen")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({fields})"
