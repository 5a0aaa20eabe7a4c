"""The ``ibm1013`` command run as real processes, and what the serial tests read back from them."""

import os
import signal
import subprocess
import sys

import pytest

from emulator.card import Card
from emulator.formats import read_deck, write_deck

_BIN = os.path.join(os.path.dirname(sys.executable), "ibm1013")
IBM1013 = [_BIN] if os.path.exists(_BIN) else [sys.executable, "-m", "ibm1013"]


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def default_stop_signals() -> None:
    """``preexec_fn`` of every process a test may stop with a signal: SIGINT, SIGTERM and SIGHUP at
    their defaults, as a command typed at a terminal has them.  The test run may have them ignored
    (``nohup pytest … &`` ignores SIGHUP, and ``&`` in a script SIGINT); an ignored signal stays
    ignored across ``exec``, and the command keeps it ignored on purpose (``ibm1013/line/stop_signals.py``),
    so a Ctrl-C the test sends would never arrive.  pytest's own process keeps what it was given."""
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_DFL)


def start(*args: str, **kw) -> subprocess.Popen:
    """``ibm1013 ARGS`` in the background, its output captured as text, with the stop signals at
    their defaults (:func:`default_stop_signals`)."""
    kw.setdefault("preexec_fn", default_stop_signals)
    return subprocess.Popen([*IBM1013, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, **kw)


def finish(proc: subprocess.Popen, timeout: float = 120) -> tuple[int, str, str]:
    """Exit status, stdout and stderr; the test fails (and the process is killed) after ``timeout``
    (a guard against a hang, long enough for a machine at a load of 25 on two cores)."""
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"{proc.args} did not finish in {timeout} s: {err}")
    return proc.returncode, out, err


def one_line_error(code: int, err: str, *needles: str) -> str:
    """Assert exit status 2 with one ``ibm1013: …`` line holding every needle; return the line."""
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ibm1013: ") and "Traceback" not in err, err
    for needle in needles:
        assert needle in lines[0], err
    return lines[0]




def write_cbn(path, cards: list[Card]) -> None:
    with open(path, "wb") as f:
        write_deck(cards, f, "cbn")


def read_cbn(path) -> list[Card]:
    with open(path, "rb") as f:
        return list(read_deck(f, "cbn"))
