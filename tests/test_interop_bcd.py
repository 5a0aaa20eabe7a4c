"""Interoperability with bsd ``bcd`` (Debian bsdgames, ``/usr/games/bcd``): the GE-635 card code.

``bcd TEXT`` draws a 48-column card in ASCII art (``docs/cards.md`` §3, format ``art``).
Each drawing is read back with our ``art`` format — which reads holes only — and must equal the card
our ``ge635`` code punches for the same text; our own ``art`` drawing of that card must match
``bcd``'s line for line (rows and edges) over its 48 columns.

Debian 2.17 does **not** punch nine characters as the reference (OpenBSD ``bcd.c`` r1.26, which our
``ge635`` code follows) says: it still has the older table of OpenBSD ``bcd.c`` r1.13.  Observed on
bookworm: backslash 12-4-8, ``]`` 11-0, ``^`` 0-2-8, ``_`` 0-1-6-7-8-9, backquote 12-1,
``{`` 12-7-8, ``|`` 12-4-8, ``}`` 11-0, ``~`` 0-2-8.  Those nine are checked against that observed
table (:data:`DEBIAN_OLD_TABLE`); all the other characters must equal ``ge635``.

A missing ``bcd`` skips these tests with a line saying what to install; under CI it is a failure
(``tests/external.py``).
"""

from __future__ import annotations

import io
import subprocess

import external
import pytest

from emulator.card import Card, punches_to_word
from emulator.codes import get_code
from emulator.formats import get_format
from emulator.formats.art import draw

pytestmark = pytest.mark.interop

WIDTH = 48
"""Debian's bcd draws 48 columns and has no ``-l``."""


def bcd(text: str) -> str:
    exe = external.program("bcd", "bsdgames")
    proc = subprocess.run([exe, text], capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.decode("ascii")


def chunks(text: str) -> list[str]:
    return [text[i:i + WIDTH] for i in range(0, len(text), WIDTH)]


ALL_CHARACTERS = "".join(sorted(get_code("ge635").encoding))

DEBIAN_OLD_TABLE = {
    "\\": "12-4-8", "]": "11-0", "^": "0-2-8", "_": "0-1-6-7-8-9", "`": "12-1",
    "{": "12-7-8", "|": "12-4-8", "}": "11-0", "~": "0-2-8",
}
"""Where Debian's bcd (old table, observed) differs from the reference table behind ``ge635``."""


def expected_card(text: str) -> Card:
    ge635 = Card.from_text(text, "ge635")
    return Card(
        punches_to_word(DEBIAN_OLD_TABLE[ch]) if ch in DEBIAN_OLD_TABLE else word
        for ch, word in zip(text, ge635.columns, strict=False)
    )


@pytest.mark.parametrize("text", chunks(ALL_CHARACTERS) + ["hello, world (lower case folds)"])
def test_bcd_punches_what_our_ge635_code_punches(text):
    drawing = bcd(text)
    cards = list(get_format("art").read(io.BytesIO(drawing.encode())))
    assert len(cards) == 1
    ours = expected_card(text)
    assert cards[0] == ours, f"{text!r}: bcd {cards[0]} vs expected {ours}"
    theirs = drawing.splitlines()
    mine = draw(ours, "ge635", width=WIDTH)
    assert theirs[0] == mine[0]  # top edge
    assert theirs[2:] == mine[2:]  # the 12 rows (']' holes, digits 1-9) and the bottom edge


def test_every_ge635_character_was_checked():
    assert len(ALL_CHARACTERS) > 64 and sum(map(len, chunks(ALL_CHARACTERS))) == len(ALL_CHARACTERS)
    agreeing = [ch for ch in ALL_CHARACTERS if ch not in DEBIAN_OLD_TABLE]
    assert len(agreeing) == len(ALL_CHARACTERS) - 9 and set(DEBIAN_OLD_TABLE) <= set(ALL_CHARACTERS)
