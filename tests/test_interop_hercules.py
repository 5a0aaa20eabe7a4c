"""Interoperability with Hercules 3.13: it reads our ``ebcdic`` deck byte for byte.

Hercules knows nothing of holes: a 3505 reader in ``ebcdic`` mode moves the 80 bytes of each record
into storage (``docs/cards.md`` §5).  The recipe IPLs from the
reader: card 1 is an IPL card whose two chained CCWs read cards 2 and 3 to 2000 and 2050, then the
PSW loads a disabled wait; ``r 2000.A0`` displays the 160 bytes.  They must be the EBCDIC bytes of
the text and byte patterns we punched — computed here independently (the ``cp037`` codec for text,
the byte list for the pattern card), not by our writer.

A missing Hercules skips these tests with a line saying what to install; under CI it is a failure
(``tests/external.py``).
"""

from __future__ import annotations

import os
import random
import re
import subprocess
from pathlib import Path

import external
import pytest

from emulator.card import Card
from emulator.codes.ibm029 import EBCDIC_TO_WORD
from emulator.formats import get_format

pytestmark = pytest.mark.interop

IPL = bytes.fromhex("00020000 00000000 02002000 40000050 02002050 00000050".replace(" ", ""))
"""PSW (disabled wait), CCW1 read 80 bytes to 2000 chained, CCW2 read 80 bytes to 2050."""

CONFIG = """ARCHMODE S/370
MAINSIZE 16
NUMCPU 1
CPUMODEL 3090
000C 3505 deck.ebcdic ebcdic
"""
COMMANDS = "ipl 00c\npause 1\nr 2000.A0\npause 1\nquit\n"  # the pause lets the log flush


def card_of_bytes(data: bytes) -> Card:
    return Card(EBCDIC_TO_WORD[b] for b in data)


def run_hercules(tmp_path: Path) -> str:
    exe = external.program("hercules", "hercules")
    (tmp_path / "hercules.cnf").write_text(CONFIG)
    (tmp_path / "hercules.rc").write_text(COMMANDS)
    proc = subprocess.run(
        [exe, "-f", "hercules.cnf", "-d"], cwd=tmp_path, capture_output=True, text=True, timeout=30,
        stdin=subprocess.DEVNULL, env={**os.environ, "HERCULES_RC": "hercules.rc"},
    )
    return proc.stdout + proc.stderr


def storage(log: str) -> bytes:
    """Bytes of the ``r`` display lines ``R:00002000:K:06=C8C5D3D3 …``, in address order."""
    rows = re.findall(r"R:([0-9A-F]{8}):K:[0-9A-F]{2}=((?:[0-9A-F]{8} ?){4})", log)
    assert rows, f"no storage display in the Hercules log:\n{log[-2000:]}"
    return b"".join(bytes.fromhex(hexes.replace(" ", "")) for _, hexes in sorted(rows))


def test_hercules_reads_our_ebcdic_deck_byte_for_byte(tmp_path):
    text = "HELLO, WORLD [1] {2} ¢¬¦ a|b\\c ~ 0123456789".ljust(80)
    patterns = bytes(random.Random(3505).randrange(256) for _ in range(80))
    cards = [card_of_bytes(IPL.ljust(80, b"\x40")), Card.from_text(text, "029"), card_of_bytes(patterns)]
    with open(tmp_path / "deck.ebcdic", "wb") as out:
        get_format("ebcdic").write(cards, out)
    deck = (tmp_path / "deck.ebcdic").read_bytes()
    expected = text.encode("cp037") + patterns
    assert deck[:24] == IPL and deck[80:] == expected  # our writer, checked independently
    log = run_hercules(tmp_path)
    assert "Disabled wait state" in log, log[-2000:]  # the IPL card ran: its PSW was loaded
    assert storage(log) == expected  # and what the 370 read
