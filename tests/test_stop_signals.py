"""Stop signals under ``nohup … &``: what the user ignored stays ignored, SIGTERM still stops a command,
and a test run started that way still stops the commands it starts (issue 47 §12)."""

import contextlib
import json
import signal
import subprocess
from collections.abc import Iterator

from processes import finish, start
from test_cli_serial import VirtualLineProcess, make_deck, wait_for_cards

from ibm1013.line.journal import journal_path
from ibm1013.line.stop_signals import catching

NOHUP = (signal.SIGINT, signal.SIGHUP)
"""What ``nohup CMD &`` in a script leaves ignored: SIGHUP (nohup) and SIGINT (``&`` without job control)."""


@contextlib.contextmanager
def ignored(*signals: int) -> Iterator[None]:
    """While inside, this (the test's) process ignores ``signals``, as under ``nohup … &``."""
    old = {sig: signal.signal(sig, signal.SIG_IGN) for sig in signals}
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def as_under_nohup() -> None:
    """``preexec_fn``: the child starts as ``nohup ibm1013 … &`` in a script starts it."""
    for sig in NOHUP:
        signal.signal(sig, signal.SIG_IGN)


def test_catching_leaves_an_ignored_signal_ignored_and_restores_the_rest():
    def handler(_signum, _frame):
        pass

    with ignored(signal.SIGHUP):
        term_before = signal.getsignal(signal.SIGTERM)
        with catching(handler):
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) is handler
        assert signal.getsignal(signal.SIGTERM) is term_before
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN


def test_catching_with_replaces_takes_only_the_signals_that_handler_has():
    """The sweep's pool notes only the stop signals that would raise KeyboardInterrupt (as Ctrl-C
    does; SIGTERM and SIGHUP too where the command line made them so): a SIGTERM left to its default
    (ending the process) stays so, and so does an ignored SIGHUP."""
    from ibm1013.line.stop_signals import AS_CTRL_C
    from ibm1013.sweep.lifecycle import stops_noted

    def handler(_signum, _frame):
        pass

    old = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        with catching(handler, replaces=AS_CTRL_C):
            assert signal.getsignal(signal.SIGINT) is handler
            assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        with stops_noted() as stops:
            signal.raise_signal(signal.SIGINT)          # noted, not raised
            assert stops == [signal.SIGINT]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        for sig, was in old.items():
            signal.signal(sig, was)


def test_catching_in_another_thread_catches_nothing():
    """Signals are caught in the main thread alone: elsewhere ``catching`` changes nothing, and
    says nothing."""
    import threading

    def handler(_signum, _frame):
        pass

    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    seen: list[object] = []

    def run() -> None:
        with catching(handler):
            seen.append({sig: signal.getsignal(sig) for sig in before})

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    assert seen == [before] and {sig: signal.getsignal(sig) for sig in before} == before


def test_a_test_run_under_nohup_still_stops_the_commands_it_starts_with_ctrl_c():
    """pytest itself ignoring SIGINT and SIGHUP (``nohup pytest &``): a command a test starts still
    gets the Ctrl-C the test sends, since an ignored signal would be inherited across ``exec``."""
    with ignored(*NOHUP):
        proc = start("play", "klondike", "--deal", "617", "--plain", stdin=subprocess.PIPE)
        try:
            proc.stdin.write("foo\n")  # once refused, the game is at its prompt
            proc.stdin.flush()
            while "refused: move 'foo'" not in (line := proc.stdout.readline()):
                assert line, "play ended early"
            proc.send_signal(signal.SIGINT)
            code, _, err = finish(proc, 30)
        finally:
            proc.kill()
    assert code == 130 and err.strip() == "ibm1013: interrupted; no move was left unsaved", err


def test_a_transfer_under_nohup_outlives_sighup_and_stops_on_sigterm(tmp_path):
    """``nohup ibm1013 send … &`` at both ends: the terminal closing (SIGHUP, to both) and a Ctrl-C
    at it (SIGINT) leave the transfer going, as nohup is for; ``kill`` (SIGTERM) still stops the
    sending end the usual way: status 130, the far end told, what was acknowledged."""
    src, out = tmp_path / "deck.cbn", tmp_path / "copy.cbn"
    make_deck(src, 300)
    paced = ("--bit-rate", "19200", "--timeout", "30")
    line = VirtualLineProcess("--bit-rate", "0")
    try:
        rx = start("receive", line.b, "-o", str(out), *paced, preexec_fn=as_under_nohup)
        tx = start("send", line.a, str(src), *paced, "--json", preexec_fn=as_under_nohup)
        wait_for_cards(journal_path(str(out)), 10)
        for sig in NOHUP:
            for end in (tx, rx):
                end.send_signal(sig)
        wait_for_cards(journal_path(str(out)), 60)  # a signal caught would have stopped it near card 10
        tx.send_signal(signal.SIGTERM)
        code, report, err = finish(tx, 15)
        peer_code, _, peer_err = finish(rx, 15)
    finally:
        line.stop()
    assert code == 130 and err.startswith("ibm1013: interrupted") and "Traceback" not in err, err
    assert json.loads(report)["ended"] == "interrupted" and json.loads(report)["resume_at"] >= 60
    assert peer_code == 2 and "--resume" in peer_err, peer_err
