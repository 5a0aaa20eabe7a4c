"""Small decks read as text without numpy, so that ``ibm1013 cards decode`` of a few cards starts fast.

The deck formats move cards as numpy arrays (:mod:`emulator.deck`), and importing numpy alone takes
about three times as long as starting Python.  For a handful of cards that import is nearly all the
work.  So ``cards decode`` first offers the deck here.  A file of at most :data:`SMALL_BYTES` bytes,
in one of the two usual formats, is decoded in plain Python when every card in it is plain:

* **CBN** (``docs/cards.md`` §3): every record starts with a record mark, has an even number of
  bytes (at most 160), and every byte has odd parity.  An auto-detected deck must also be at least
  160 bytes long, as SIMH's CBN test needs.  Column ``k`` is bytes ``2k`` (rows 12-3) and ``2k+1``
  (rows 4-9), six bits each.
* **Text**: lines of printable ASCII of at most 80 characters, none starting with ``~`` (the control
  lines) and none that reads as a card drawing (``art``), and (detected) no deck another text format
  punches otherwise (the bulk path says so: :mod:`emulator.formats.ambiguity`); each character goes
  through the code's ``encoding`` table (folded to upper case if the code folds).

Each card is then printed through the code's ``decoding`` table, as the bulk writer does: trailing
blanks trimmed, a blank card as one space.  Both tables are the code's own data; nothing here is a
second table.  Anything else returns ``None``, and the deck goes the bulk way, which also gives the
errors: another format, an EOF card, a TAB, a long line, a bad byte, a punch the code does not
print as ASCII.  ``tests/test_formats_small.py`` checks, on random decks, that whatever this path
decodes comes out byte for byte as from the bulk path, and that it does take the plain decks.

It lives beside :mod:`emulator.formats`, not in it: importing that package (every format's
:class:`~emulator.formats.DeckFormat` and registry) would cost a small CBN deck's ``cards decode``
about a fortieth of a wheel install's ``python -c pass``; a text deck loads it (to ask
:mod:`emulator.formats.ambiguity`).
"""

from __future__ import annotations

import os

from emulator.codes import Code

COLUMNS = 80
"""Columns of a card (:data:`emulator.punches.COLUMNS`, written out: importing that module would cost
``cards decode`` of a few cards more than the decoding here; tests/test_formats_small.py checks the
two agree)."""

SMALL_BYTES = 1 << 14
"""The largest deck read here: 102 CBN cards, or a few hundred lines of text."""

UNDETECTED_EXTENSIONS = (".ebc", ".ebcdic", ".rbn")
"""Extensions that make ``cards decode --format auto`` read a file in a format that is never detected
(the command line resolves them by extension); such files go the bulk way.  tests/test_formats_small.py checks
the list against the formats' own."""

RECORD = 2 * COLUMNS


def _odd_table() -> bytes:
    """``bytes.translate`` table: 1 where the low seven bits of a byte hold an odd number of ones.
    Built by doubling (a top bit flips the parity of the bits below it), not byte by byte: this is
    on the path of the fastest command."""
    table, flip = b"\x00", b"\x01\x00".ljust(256, b"\x00")
    for _ in range(7):
        table += table.translate(flip)
    return table * 2  # the eighth bit (the record mark) is not counted


_ODD = _odd_table()
"""``bytes.translate`` table: 1 where the low seven bits of a byte hold an odd number of ones."""
_TEXT = bytes(0x0A) + b"\x01" + bytes(0x20 - 0x0B) + b"\x01" * (0x7F - 0x20) + bytes(0x100 - 0x7F)
"""``bytes.translate`` table: 1 for printable ASCII (0x20-0x7E) and the newline (0x0A)."""
_MARKS = bytes(0x80) + b"\x01" * 0x80
"""``bytes.translate`` table: 1 for a byte with the top bit set (a CBN record mark)."""
_LOW6 = bytes(range(0x40)) * 4
"""``bytes.translate`` table: the low six bits of each byte (the rows a CBN byte holds)."""


def may_read(path: str, fmt: str) -> bool:
    """Whether a deck at ``path``, named format ``fmt``, is one this module may read."""
    if fmt == "auto":
        return os.path.splitext(path)[1].lower() not in UNDETECTED_EXTENSIONS
    return fmt in ("cbn", "text")


def decode(data: bytes, fmt: str, code: Code) -> bytes | None:
    """The lines ``cards decode`` prints for the deck ``data`` in format ``fmt`` (``auto``, ``cbn``
    or ``text``), or ``None`` if this deck is not one for this module (see the module's docstring)."""
    cards = columns(data, fmt, code)
    return None if cards is None else lines(cards, code)


def binary(data: bytes) -> bool:
    """Whether ``data``, a deck :func:`columns` read, is CBN (else it is text)."""
    return data[:1] >= b"\x80"


def columns(data: bytes, fmt: str, code: Code) -> list[list[int]] | None:
    """The column words of each card of the deck ``data`` (``code`` punches a text deck), or ``None``
    if this deck is not one for this module."""
    if len(data) > SMALL_BYTES:
        return None
    if binary(data) and fmt in ("auto", "cbn"):
        return _cbn(data, detected=fmt == "auto")
    if not binary(data) and fmt in ("auto", "text"):
        return _text(data, code, detected=fmt == "auto")
    return None


def _one_reading(data: bytes, code: Code) -> bool:
    """Whether the text deck ``data`` reads alike in every text format it can be (else the bulk
    path reads it, and says so: :mod:`emulator.formats.ambiguity`)."""
    from emulator.formats.ambiguity import other_reading

    return other_reading(data, code.name) is None


def _cbn(data: bytes, detected: bool) -> list[list[int]] | None:
    if (detected and len(data) < RECORD) or data.translate(_ODD).count(0):
        return None
    marks, flags = [], data.translate(_MARKS)  # found by bytes.find, not by a loop over the bytes
    at = flags.find(1)
    while at >= 0:
        marks.append(at)
        at = flags.find(1, at + 1)
    cards = []
    for start, end in zip(marks, [*marks[1:], len(data)], strict=True):
        if (end - start) % 2 or end - start > RECORD:
            return None
        record = data[start:end].translate(_LOW6)
        words = [hi << 6 | lo for hi, lo in zip(record[::2], record[1::2], strict=True)]
        cards.append(words + [0] * (COLUMNS - len(words)))
    return cards


def _text(data: bytes, code: Code, detected: bool) -> list[list[int]] | None:
    if data.translate(_TEXT).count(0) or (detected and data.startswith(b" _")):
        return None
    if detected and not _one_reading(data, code):
        return None
    lines = data.decode("ascii").split("\n")
    if lines[-1] == "":
        lines.pop()  # the newline ends the last line; it does not start another
    encoding, fold = code.encoding, code.fold_case
    cards: list[list[int]] = []
    for line in lines:
        if len(line) > COLUMNS or line.startswith("~"):
            return None
        found = [encoding.get(ch.upper() if fold else ch) for ch in line]
        words = [word for word in found if word is not None]
        if len(words) < len(found):
            return None
        cards.append(words + [0] * (COLUMNS - len(words)))
    return cards


def lines(cards: list[list[int]], code: Code) -> bytes | None:
    """The lines of ``cards`` printed in ``code``, or ``None`` if one holds a punch the code does
    not print as ASCII."""
    decoding = code.decoding
    out = []
    for words in cards:  # each column one printable ASCII character (string methods, not a loop)
        chars = list(map(decoding.get, words))  # None for a pattern the code has no character for
        if None in chars or "" in chars:
            return None
        line = "".join(chars)  # type: ignore[arg-type]  # no None: asked above
        if len(line) != len(chars) or not (line.isascii() and line.isprintable()) or line[0] == "~":
            return None
        out.append(line.rstrip(" ") or " ")
    return ("\n".join(out) + "\n").encode("ascii") if out else b""
