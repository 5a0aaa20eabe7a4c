"""A deck file as a user meets it: :func:`read_deck` gives a :class:`Deck`, :func:`write_deck` writes
one, whole or not at all.

A :class:`Deck` is a list of :class:`~emulator.card.Card` that remembers the format it was read in
and the code its text is punched in, so that in a notebook it shows its count, its format and its
picture (the renderer of :mod:`emulator.render`, loaded only when a picture is asked for).  The
reading and writing are the formats' own (:mod:`emulator.formats`: the format detected as SIMH's
AUTO mode does), as every command reads and writes decks.
"""

from __future__ import annotations

import html
import os
from collections.abc import Iterable
from typing import BinaryIO

from emulator.card import Card

PICTURED = 12
"""Cards a deck shows in a notebook: a page of a contact sheet (``cards show --png`` pages so)."""


class Deck(list[Card]):
    """Cards in order, with the ``format`` they were read in and their ``code``.

    >>> deck = Deck([Card.from_text("HELLO"), Card.from_text("WORLD")], format="cbn")
    >>> deck
    Deck(2 cards, format='cbn', code='029')
    >>> deck[1].text().rstrip()
    'WORLD'
    """

    def __init__(self, cards: Iterable[Card] = (), *, format: str | None = None, code: str = "029",
                 source: str | None = None) -> None:
        super().__init__(cards)
        self.format = format
        """The format the deck was read in (``None`` for a deck made in memory)."""
        self.code = code
        """The card code its text is read in (``029`` unless said)."""
        self.source = source
        """The file it came from, if any."""

    def __repr__(self) -> str:
        count = f"{len(self)} card{'' if len(self) == 1 else 's'}"
        return f"Deck({count}, format={self.format!r}, code={self.code!r})"

    def describe(self) -> str:
        """``hello.cbn: 5 cards, format cbn, code 029``."""
        count = f"{len(self)} card{'' if len(self) == 1 else 's'}"
        where = f"{self.source}: " if self.source else ""
        return f"{where}{count}, format {self.format or 'none (in memory)'}, code {self.code}"

    def _repr_svg_(self) -> str:
        """The first :data:`PICTURED` cards as a contact sheet (Jupyter shows it)."""
        from emulator.render import contact_sheet_svg

        shown = self[:PICTURED]
        title = os.path.basename(self.source) if self.source else ""
        if len(self) > PICTURED:
            title = f"{title + ': ' if title else ''}the first {PICTURED} of {len(self)} cards"
        return contact_sheet_svg(shown, code=self.code, title=title)

    def _repr_html_(self) -> str:
        """Its count, format and code above its picture (Jupyter shows it)."""
        return (f'<div class="ibm1013-deck"><p>{html.escape(self.describe())}</p>\n'
                f"{self._repr_svg_() if len(self) else ''}</div>")


def read_deck(source: str | os.PathLike[str] | BinaryIO, format: str = "auto", *, code: str = "029",
              lenient: bool = False) -> Deck:
    """The deck in ``source`` (a file's name, ``-`` for standard input, or a binary stream), in
    ``format`` (``auto``: detected from its first bytes).  A card the code cannot read is a
    :class:`~emulator.errors.CardError` naming the file, the card and the column.

    >>> deck = read_deck("examples/sample-decks/hello.cbn")
    >>> deck
    Deck(5 cards, format='cbn', code='029')
    >>> deck[0].text("026-fortran").rstrip()
    'C     HELLO, WORLD FOR THE IBM 7090 FORTRAN II COMPILER'
    """
    from emulator.atomic import open_input
    from emulator.formats import open_deck

    if isinstance(source, str | os.PathLike):
        name: str | None = os.fspath(source)
        stream = open_input(source)
    else:
        name, stream = None, source
    try:
        deck_format, body = open_deck(stream, format)
        cards = deck_format.read(body, code=code, lenient=lenient, source=name)
        return Deck(cards, format=deck_format.name, code=code, source=name)
    finally:
        if name is not None and name != "-":
            stream.close()


def write_deck(cards: Iterable[Card], target: str | os.PathLike[str] | BinaryIO, format: str | None = None,
               *, code: str | None = None) -> None:
    """Write ``cards`` to ``target`` (a file's name, written whole or not at all; or a binary
    stream) in ``format`` (default: the one the name's extension says, else ``cbn``; a
    :class:`Deck`'s code unless ``code`` is given).

    >>> import io
    >>> out = io.BytesIO()
    >>> write_deck([Card.from_text("HELLO")], out, "text")
    >>> out.getvalue()
    b'HELLO\\n'
    """
    from emulator.atomic import atomic_output
    from emulator.formats import output_format
    from emulator.formats import write_deck as write

    code = code or (cards.code if isinstance(cards, Deck) else "029")
    if not isinstance(target, str | os.PathLike):
        write(cards, target, format or "cbn", code=code)
        return
    path = os.fspath(target)
    with atomic_output(path) as out:
        write(cards, out, output_format(path, format), code=code)
