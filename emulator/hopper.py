"""A card hopper on disk: decks received one after another, kept in arrival order for a reader.

A real card reader's operator put each deck into the hopper as it came, behind the ones waiting.
``receive --hopper DIR`` does that with files: each deck received becomes ``DIR/0001.EXT``,
``DIR/0002.EXT`` … (four digits, more when needed), the next number after the highest there, so the
names sort in arrival order.  A deck appears under its name only when it is whole (``receive``
writes it atomically, with its journal ``NNNN.EXT.1013part`` beside it until then), so whatever
takes decks from DIR takes names of digits and the extension only, and never a half deck.  A
transfer left unfinished keeps its number: its journal names the deck ``--resume`` continues.
"""

from __future__ import annotations

import os
import re

from emulator.errors import IbmError

JOURNAL_SUFFIX = ".1013part"
_LINE_FORMATS = ("i1401", "i1401-cbn", "i7094", "i7094-cbn")


def extension(fmt: str) -> str:
    """The extension of a deck in ``fmt``: the format's own, ``.txt`` for SIMH 3.8's line decks."""
    from emulator.formats import get_format

    own = get_format(fmt).extensions
    return own[0] if own else (".txt" if fmt in _LINE_FORMATS else f".{fmt}")


def next_deck(directory: str, fmt: str) -> str:
    """The path the next deck received goes to (an unfinished one's, if its journal is there)."""
    ext = extension(fmt)
    os.makedirs(directory, exist_ok=True)
    names = os.listdir(directory)
    unfinished = sorted(n for n in names if re.fullmatch(rf"\d{{4,}}{re.escape(ext + JOURNAL_SUFFIX)}", n))
    if len(unfinished) > 1:
        raise IbmError(f"--hopper {directory}: {len(unfinished)} unfinished decks ({', '.join(unfinished)}): "
                       "resume or remove all but one")
    if unfinished:
        return os.path.join(directory, unfinished[0][: -len(JOURNAL_SUFFIX)])
    numbers = [int(m.group(1)) for n in names if (m := re.fullmatch(rf"(\d{{4,}}){re.escape(ext)}", n))]
    return os.path.join(directory, f"{max(numbers, default=0) + 1:04d}{ext}")
