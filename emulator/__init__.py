"""Generic unit-record hardware: punched cards, card codes, deck files, pictures, SimPy devices.

Nothing in here knows about the IBM 1013 or about solitaire; those packages build on this one.

The public API is what ``__all__`` names (``CHANGELOG.md`` states the version policy): the
:class:`Card`, a :class:`Deck` read and written by :func:`read_deck` and :func:`write_deck` in any
of the deck formats (:func:`format_names`, :func:`get_format`), the keypunch codes
(:func:`code_names`, :func:`get_code`) and the errors a user can act on.  The names load when first
used (PEP 562), so importing the package costs nothing.

>>> from emulator import Card
>>> card = Card.from_text("HELLO")
>>> card.punches(1)
'12-8'
"""

from __future__ import annotations

from emulator.lazy import exports

TYPE_CHECKING = False  # typing is not imported at run time: package tops are on every command's path
if TYPE_CHECKING:
    from emulator.card import EOF_CARD, Card
    from emulator.codes import Code, code_names, get_code
    from emulator.deckfile import Deck, read_deck, write_deck
    from emulator.errors import CardError, IbmError
    from emulator.formats import DeckFormat, format_names, get_format

__all__ = ["EOF_CARD", "Card", "CardError", "Code", "Deck", "DeckFormat", "IbmError", "code_names",
           "format_names", "get_code", "get_format", "read_deck", "write_deck"]

_LAZY = {"Card": "emulator.card", "EOF_CARD": "emulator.card",
         "Code": "emulator.codes", "code_names": "emulator.codes", "get_code": "emulator.codes",
         "Deck": "emulator.deckfile", "read_deck": "emulator.deckfile", "write_deck": "emulator.deckfile",
         "CardError": "emulator.errors", "IbmError": "emulator.errors",
         "DeckFormat": "emulator.formats", "format_names": "emulator.formats",
         "get_format": "emulator.formats"}


__getattr__, __dir__ = exports(globals(), _LAZY, __all__)
