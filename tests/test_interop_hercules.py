"""Interoperability with Hercules 3.13: it reads our ``ebcdic`` deck byte for byte.

Hercules knows nothing of holes: a 3505 reader in ``ebcdic`` mode moves the 80 bytes of each record
into storage (``docs/cards.md`` §5).  The recipe IPLs from the
reader: card 1 is an IPL card whose two chained CCWs read cards 2 and 3 to 2000 and 2050, then the
PSW loads a disabled wait; ``r 2000.A0`` displays the 160 bytes.  They must be the EBCDIC bytes of
the text and byte patterns we punched — computed here independently (the ``cp037`` codec for text,
the byte list for the pattern card), not by our writer.

``receive -o sockdev://`` feeds a running Hercules' sockdev reader: a boot card and a copy program
of ours, IPLed from it, punch what the line brought, once each, even across a killed receiver.

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
from endpoints import until

from emulator.card import Card
from emulator.codes.ibm029 import EBCDIC_TO_WORD
from emulator.formats import get_format
from ibm1013.line.journal import cards_in

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


# --------------------------------------------------------------------------------------------------
# receive -o sockdev://: the deck goes over a noisy line straight into a running Hercules reader
# --------------------------------------------------------------------------------------------------
def hex_listing(listing: str) -> bytes:
    """The bytes of a listing: the hex at the start of each line, before its ``#`` comment."""
    return bytes.fromhex("".join(line.split("#")[0].strip() for line in listing.splitlines()))


BOOT = hex_listing("""
    0000000000000400  # PSW: no interruptions, run at 400
    0200040060000050  # CCW: read card 2 to 400, 80 bytes, SILI, command-chained
    0200045020000050  # CCW: read card 3 to 450, 80 bytes, SILI
""")
"""Card 1: what the IPL reads (24 bytes to address 0): the PSW and two CCWs loading cards 2 and 3."""

COPY_PROGRAM = hex_listing("""
    D2030048043C  # 400 LOOP   MVC  X'48'(4),CAWR   the CAW: read a card
    9C00000C      # 406        SIO  X'00C'
    47800412      # 40A        BC   8,WAITR          started: wait for its end
    47F0041A      # 40E        B    CHECK            status stored at once: look at it
    9D00000C      # 412 WAITR  TIO  X'00C'
    47200412      # 416        BC   2,WAITR          busy
    91010044      # 41A CHECK  TM   X'44',X'01'      unit exception: the end of the deck
    47100438      # 41E        BO   DONE
    D20300480440  # 422        MVC  X'48'(4),CAWP   the CAW: punch the card read
    9C00000D      # 428        SIO  X'00D'
    9D00000D      # 42C WAITP  TIO  X'00D'
    4720042C      # 430        BC   2,WAITP
    47F00400      # 434        B    LOOP
    82000458      # 438 DONE   LPSW WAITPSW
    00000448      # 43C CAWR
    00000450      # 440 CAWP
    00000000      # 444
    0200100020000050  # 448    CCW  read 80 bytes to 1000, SILI
    0100100020000050  # 450    CCW  write (punch) 80 bytes from 1000, SILI
    000200000000D0E0  # 458 WAITPSW  disabled wait, code D0E0
""")
"""Cards 2 and 3: a S/370 program copying every card after it from the reader 00C to the punch 00D,
then stopping in a disabled wait at the end of the deck."""

SOCKDEV_CONFIG = """ARCHMODE S/370
MAINSIZE 16
NUMCPU 1
CPUMODEL 3090
HTTPPORT {http} NOAUTH
000C 3505 127.0.0.1:{reader} sockdev ebcdic trunc eof
000D 3525 punch.ebcdic ebcdic
"""


def write_copy_job(path: Path, data: list[str]) -> None:
    """An ``ebcdic`` deck: the boot card, the copy program's two cards, then ``data`` as text cards."""
    deck = [card_of_bytes(BOOT.ljust(80, b"\x40")), card_of_bytes(COPY_PROGRAM[:80]),
            card_of_bytes(COPY_PROGRAM[80:].ljust(80, b"\x00"))] + [Card.from_text(t, "029") for t in data]
    with open(path, "wb") as out:
        get_format("ebcdic").write(deck, out)

def free_port() -> int:
    import socket

    with socket.create_server(("127.0.0.1", 0)) as probe:
        return probe.getsockname()[1]


class Hercules:
    """Hercules in daemon mode, its log in a file, commands through its HTTP server's cmd page."""

    def __init__(self, tmp_path: Path) -> None:
        exe = external.program("hercules", "hercules")
        self.reader, self.http = free_port(), free_port()
        (tmp_path / "sockdev.cnf").write_text(SOCKDEV_CONFIG.format(reader=self.reader, http=self.http))
        self.log_path = tmp_path / "hercules.log"
        self.log_file = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen([exe, "-f", "sockdev.cnf", "-d"], cwd=tmp_path, stdin=subprocess.DEVNULL,
                                     stdout=self.log_file, stderr=subprocess.STDOUT)
        self.wait_for("HHCSD004I Device 000C bound")
        self.wait_for(f"Waiting for HTTP requests on port {self.http}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for(self, text: str) -> None:
        until(lambda: text in self.log() or self.proc.poll() is not None, 60, text)
        assert text in self.log(), self.log()[-3000:]

    def command(self, text: str) -> str:
        import urllib.parse
        import urllib.request

        url = f"http://127.0.0.1:{self.http}/cgi-bin/tasks/cmd?cmd={urllib.parse.quote(text)}"
        with urllib.request.urlopen(url, timeout=30) as page:
            return page.read().decode(errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log_file.close()


def test_a_deck_received_over_a_noisy_line_goes_straight_into_a_running_hercules(tmp_path):
    """`receive -o sockdev://` feeds a running Hercules' sockdev 3505; IPL from it runs our copy
    program, and the 3525's punch file holds exactly the data cards sent over the line."""
    from processes import finish, start
    from test_cli_serial import VirtualLineProcess

    data = [f"CARD {i:03d} FROM THE BRANCH OFFICE, INTO THE 370 AT HEADQUARTERS".ljust(80) for i in range(20)]
    write_copy_job(tmp_path / "deck.ebcdic", data)
    hercules = Hercules(tmp_path)
    line = VirtualLineProcess("--bit-rate", "0", "--ber", "2e-4", "--seed", "3505")
    try:
        both = ("--format", "ebcdic", "--column-binary", "--bit-rate", "9600", "--json")
        rx = start("receive", line.b, "-o", f"sockdev://127.0.0.1:{hercules.reader}", *both, cwd=tmp_path)
        tx = start("send", line.a, str(tmp_path / "deck.ebcdic"), *both)
        (tc, _, terr), (rc, rout, rerr) = finish(tx, 120), finish(rx, 120)
        assert tc == 0 and rc == 0, terr + rerr
        assert "fed to the card reader" in rout
        assert not [p.name for p in tmp_path.iterdir() if "1013" in p.name]  # journal and count gone
        hercules.command("ipl 00c")
        hercules.wait_for("Disabled wait state")
        psw = hercules.command("psw")
        assert "D0E0" in psw.upper(), psw  # the copy program reached its end-of-deck wait
        punched = (tmp_path / "punch.ebcdic").read_bytes()
    finally:
        line.stop()
        hercules.stop()
    assert punched == "".join(data).encode("cp037")  # card for card, computed apart from our writer


def test_a_receiver_killed_mid_deck_resumes_and_hercules_gets_each_card_once(tmp_path):
    """`receive` is killed (SIGKILL) mid-deck.  The guest IPLs and copies the cards the reader was
    handed, up to the unit exception of that first connection's close; `receive --resume` feeds the
    rest through a second connection; a restart (new PSW at 0: the program again) copies them.  The
    punch holds every data card exactly once."""
    from processes import finish, start
    from test_cli_serial import VirtualLineProcess

    data = [f"CARD {i:03d} SENT ONCE, KILLED AND RESUMED".ljust(80) for i in range(60)]
    write_copy_job(tmp_path / "deck.ebcdic", data)
    hercules = Hercules(tmp_path)
    journal = tmp_path / f"sockdev-127.0.0.1-{hercules.reader}.1013part"
    both = ("--format", "ebcdic", "--column-binary", "--bit-rate", "9600", "--timeout", "5", "--json")
    reader = f"sockdev://127.0.0.1:{hercules.reader}"
    line = VirtualLineProcess("--bit-rate", "0")
    try:
        rx = start("receive", line.b, "-o", reader, *both, cwd=tmp_path)
        tx = start("send", line.a, str(tmp_path / "deck.ebcdic"), *both)
        until(lambda: cards_in(journal) >= 15 or rx.poll() is not None, 120, "15 cards journaled")
        rx.kill()
        finish(rx)
        assert finish(tx, 120)[0] == 2
        handed = int((tmp_path / (journal.name + ".1013fed")).read_text())
        assert 3 < handed < 63
        hercules.command("ipl 00c")
        hercules.wait_for("Disabled wait state")
        first = (tmp_path / "punch.ebcdic").read_bytes()
        rx = start("receive", line.b, "-o", reader, *both, "--resume", cwd=tmp_path)
        tx = start("send", line.a, str(tmp_path / "deck.ebcdic"), *both, "--resume")
        (tc, _, terr), (rc, _, rerr) = finish(tx, 120), finish(rx, 120)
        assert tc == 0 and rc == 0, terr + rerr
        hercules.command("restart")
        until(lambda: hercules.log().count("Disabled wait state") >= 2, 60, "the second end of deck")
        punched = (tmp_path / "punch.ebcdic").read_bytes()
    finally:
        line.stop()
        hercules.stop()
    assert first == "".join(data[:handed - 3]).encode("cp037")  # the first connection's cards
    assert punched == "".join(data).encode("cp037")  # each card once, in order
    assert hercules.log().count("HHCSD018I") == 2  # two submitters: the killed one, the resumed one
