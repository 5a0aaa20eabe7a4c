"""The text-format watch (:class:`emulator.formats.ambiguity.OtherReadings`) tells what it told when
it looked at every block line by line: its one-translate-a-block pass is only quicker.

The reference below is the watch as it was (each format's readable and alike bytes deleted from
every block, the lines split for their lengths); random decks of characters the simh 3.8 formats
read alike, otherwise or not at all, with ``~`` lines, CRs, long lines and no last newline, fed in
random pieces, must get the same verdict from both.
"""

from __future__ import annotations

import random

import pytest

from emulator.card import COLUMNS
from emulator.formats.ambiguity import OtherReadings, _position, character_formats


class LineByLine(OtherReadings):
    """The watch as it was before issue 52."""

    def _whole_lines(self, block: bytes) -> None:
        first_card = self._lines + 1
        self._lines += block.count(b"\n")
        block = block.replace(b"\r\n", b"\n")
        if block.startswith(b"~") or b"\n~" in block or max(map(len, block.split(b"\n"))) > COLUMNS:
            self._rule_out()
            return
        for reading in self.readings:
            if not reading.possible:
                continue
            if block.translate(None, reading.readable):
                reading.possible = False
            elif reading.first is None and block.translate(None, reading.alike):
                reading.first = _position(block, reading.alike, first_card)


PLAIN = "ABCXYZ0129 .,-/$*"
OTHERWISE = PLAIN * 4 + "()+=':;#@%&?<>"
"""Characters the formats read alike, and some they punch otherwise."""
RARE = "!<>[]{}\"\\^_`|ab~\r\té"
"""Characters some format cannot read, and the ones a reader treats specially."""


def deck(rng: random.Random) -> bytes:
    lines = []
    rare = rng.random() < 0.3
    for _ in range(rng.randrange(0, 60)):
        width = rng.choice([0, 80, 81, 90]) if rng.random() < 0.02 else rng.randrange(0, 81)
        pool = OTHERWISE if rng.random() < 0.2 else PLAIN
        line = "".join(rng.choice(pool) for _ in range(width))
        if rare and rng.random() < 0.1:
            at = rng.randrange(len(line) + 1)
            line = line[:at] + rng.choice(RARE) + line[at:]
        lines.append(line)
    text = "\n".join(lines) + ("\n" if rng.random() < 0.5 else "")
    return text.encode("utf-8")


@pytest.mark.parametrize("seed", range(300))
def test_the_verdict_is_the_line_by_line_watchs(seed):
    rng = random.Random(seed)
    data = deck(rng)
    code = rng.choice(["029", "026-fortran", "026-commercial"])
    fast, slow = OtherReadings(code, character_formats()), LineByLine(code, character_formats())
    at = 0
    while at < len(data):
        step = rng.randrange(1, 200)
        fast.feed(data[at : at + step])
        slow.feed(data[at : at + step])
        at += step
    assert fast.verdict() == slow.verdict()
