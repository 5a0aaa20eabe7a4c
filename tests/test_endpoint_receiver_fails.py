"""A receiving end that fails after the line is up (disk full, an I/O error, the card reader gone)
tells the sending end at once: it ends the deck session (``CL EOT``) and sends its ``NOTWRITTEN``
verdict, so the sending end stops within 2 s naming the cause, not after its whole --timeout with
advice that cannot help (issue 47, item 1)."""

import errno
import os
import subprocess
import time

import external
import pytest
from endpoints import InThread
from test_endpoint_transfer import deck_of, read_text_deck

from emulator.serial import Link
from emulator.sockdev import ReaderError
from emulator.virtual_line import LineConfig, VirtualLine
from ibm1013.line.endpoint import EndpointConfig, TransferError, receive_deck, send_deck
from ibm1013.line.journal import Journal, JournalError, journal_path
from ibm1013.str.config import SessionConfig

pytestmark = pytest.mark.timeout(60)


def patient() -> EndpointConfig:
    """Unpaced ends whose --timeout (30 s) is far longer than the sending end may take."""
    return EndpointConfig(session=SessionConfig(ack_timeout_s=3.0, listen_s=0.5), paced=False,
                          timeout_s=30.0)


LONG_BEFORE_ITS_TIMEOUT = 15.0
"""Seconds within which the sending end stops after the receiving end failed: half its 30 s
--timeout, so it was told (verdict NOTWRITTEN) and did not time out; 2 s on an idle machine, the
rest is room for a busy one."""


def run_both(line: VirtualLine, deck, out, feed=None):
    """Receive (thread) and send (here): (send result, receive result, seconds the sending end took
    after the receiving end failed)."""
    failed_at: list[float] = []
    a, b = (Link.open(p) for p in line.paths)

    def receive():
        try:
            return receive_deck(b, str(out), "text", patient(), feed=feed)
        finally:
            failed_at.append(time.monotonic())

    rx = InThread(receive)
    rx.start()
    try:
        tx = send_deck(a, deck, patient())
    except TransferError as err:
        tx = err
    stopped = time.monotonic()
    received = rx.outcome()
    a.close()
    b.close()
    return tx, received, stopped - failed_at[0]


def test_a_full_disk_at_the_receiving_end_stops_the_sending_end_at_once(tmp_path, monkeypatch):
    real = Journal.append_words

    def full_after_five(self, words):
        if self.count == 5:
            raise JournalError(f"{self.path}: cannot write card 6 ({os.strerror(errno.ENOSPC)})")
        real(self, words)

    monkeypatch.setattr(Journal, "append_words", full_after_five)
    out = tmp_path / "copy.txt"
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx, late = run_both(line, deck_of(18), out)
    assert isinstance(rx, JournalError), rx
    assert "No space left on device" in str(rx) and "verdict NOTWRITTEN" in str(rx)
    assert "5 cards are safe" in str(rx) and "--resume" in str(rx)
    assert isinstance(tx, TransferError) and tx.resumable
    message = str(tx)
    assert "could not keep card 6" in message and "NOTWRITTEN" in message and "disk full" in message
    assert "let no card through" not in message and "\n" not in message
    assert late < LONG_BEFORE_ITS_TIMEOUT, f"the sending end went on {late:.1f} s after the other failed"
    assert not out.exists() and os.path.exists(journal_path(str(out)))


def test_a_failure_at_the_first_card_advises_no_resume_and_leaves_no_journal(tmp_path, monkeypatch):
    def broken(self, words):
        raise JournalError(f"{self.path}: cannot write card 1 ({os.strerror(errno.EIO)})")

    monkeypatch.setattr(Journal, "append_words", broken)
    out = tmp_path / "copy.txt"
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx, late = run_both(line, deck_of(3), out)
    assert isinstance(rx, JournalError) and "Input/output error" in str(rx) and "--resume" not in str(rx)
    assert isinstance(tx, TransferError) and "could not keep card 1" in str(tx)
    assert late < LONG_BEFORE_ITS_TIMEOUT
    assert os.listdir(tmp_path) == []


class GoneReader:
    """A card reader feed whose reader went away after ``after`` cards (as a Hercules stopped)."""

    class reader:  # noqa: N801 - what ReaderFeed's reader answers
        name = "sockdev://127.0.0.1:1"

    def __init__(self, after: int) -> None:
        self.after, self.fed = after, 0

    def start(self, journal, held_back):
        pass

    def card_safe(self, card):
        if self.fed == self.after:
            raise ReaderError("the card reader sockdev://127.0.0.1:1 dropped the connection")
        self.fed += 1

    def close(self, *, discard=False):
        pass


def test_a_card_reader_gone_stops_the_sending_end_at_once(tmp_path):
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx, late = run_both(line, deck_of(12), tmp_path / "sockdev-x", feed=GoneReader(4))
    assert isinstance(rx, ReaderError) and "dropped the connection" in str(rx)
    assert isinstance(tx, TransferError) and "NOTWRITTEN" in str(tx)
    assert late < LONG_BEFORE_ITS_TIMEOUT


@pytest.fixture
def small_disk(tmp_path):
    """A 12 KB tmpfs (root only: else skipped, naming what is missing)."""
    if os.geteuid() != 0:
        external.unavailable("root, to mount a 12 KB tmpfs")
    where = tmp_path / "small"
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=12k", "tmpfs", str(where)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        external.unavailable(f"a tmpfs mount ({done.stderr.strip()})")
    yield where
    subprocess.run(["umount", str(where)], check=False)


def test_a_small_deck_fits_a_small_disk(small_disk):
    """The journal grows in steps: 18 cards need no 86 KB of room written ahead."""
    deck = deck_of(18)
    out = small_disk / "copy.txt"
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx, _late = run_both(line, deck, out)
    assert tx.ended == "complete", tx
    assert read_text_deck(out) == deck


def test_a_deck_larger_than_the_disk_stops_both_ends_saying_so(small_disk):
    out = small_disk / "copy.txt"
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx, late = run_both(line, deck_of(120), out)
    assert isinstance(rx, JournalError) and "No space left on device" in str(rx), rx
    assert isinstance(tx, TransferError) and "NOTWRITTEN" in str(tx) and "disk full" in str(tx)
    assert late < LONG_BEFORE_ITS_TIMEOUT
