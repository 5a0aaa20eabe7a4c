"""``ibm1013 sweep`` stopped from outside: SIGKILL, the stop signals and Ctrl-C leave the rows
written, say how to finish, and leave no process behind."""

import contextlib
import os
import signal
import subprocess
import sys
import time

import pytest
from test_sweep import ROOT, SEEDS

from ibm1013.sweep import ResultsFile
from ibm1013.sweep.grid import run_many
from tests.endpoints import until
from tests.processes import default_stop_signals


def stall_but_the_first(deck, runs):
    """Run the first point of VALUES; every other point's batch never ends (an hour of work)."""
    if runs[0].point["bit_rate"] != 1200 or runs[0].point["ber"] != 0:
        time.sleep(3600)
    return run_many(deck, runs)


def _alive_in_session(session: int) -> list[str]:
    """The processes of ``session`` still alive (zombies waiting to be reaped do not count)."""
    alive = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session and fields[0] != "Z":
            alive.append(pid)
    return alive


def _end_session(proc: subprocess.Popen) -> None:
    """After a failed test: end the process and any worker it left behind (its session)."""
    if proc.poll() is None:
        proc.kill()
        proc.communicate()
    for pid in _alive_in_session(proc.pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(pid), signal.SIGKILL)


def _die_with_the_tests() -> None:
    """In the sweep's process before it starts: the stop signals at their defaults (a test sends
    them), and (Linux) SIGKILL when the test run that started it dies, as a test that timed out and
    took the run with it does; the sweep's own watch then ends its workers, forkserver and resource
    tracker (the kill -9 test below)."""
    default_stop_signals()
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _sweep(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "ibm1013", "sweep", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env={**os.environ, "PYTHONPATH": ROOT}, preexec_fn=_die_with_the_tests)


def test_a_sweep_killed_with_sigkill_leaves_no_process_behind(tmp_path):
    """kill -9 gives the sweep no chance to stop anything: its workers (the forkserver's children,
    ignoring the stop signals) must notice by themselves, and with them gone the forkserver and the
    resource tracker leave too, so nothing holds the sweep's standard output open."""
    path = tmp_path / "runs.csv"
    proc = _sweep("--cards", "2000", "--bit-rate", "600,1200,2400", "--columns", "80,40,20,10", "--ber",
                  "0,1e-4,1e-3", "--seeds", "6", "--workers", "2", "-o", str(path))
    try:
        until(lambda: path.exists() and path.read_bytes().count(b"\n") >= 3, 60, "two rows")
        until(lambda: len(_alive_in_session(proc.pid)) >= 5, 30,
              "the sweep, its forkserver, two workers and the resource tracker")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        until(lambda: not _alive_in_session(proc.pid), 60, "every process the sweep started to end")
        proc.stdout.read()  # returns at once: no process holds the sweep's output open any more
    finally:
        _end_session(proc)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_stop_signal_keeps_the_rows_says_how_to_finish_and_leaves_no_process(tmp_path, sig):
    """Ctrl-C, SIGTERM (kill, a service manager) and SIGHUP (the terminal closed), sent to the whole
    group as a terminal or systemd does: one line, status 130, every finished row kept, and neither
    the workers nor multiprocessing's forkserver and resource tracker left running."""
    path = tmp_path / "runs.csv"
    args = ["--cards", "2000", "--bit-rate", "600,1200,2400", "--columns", "80,40,20,10", "--ber",
            "0,1e-4,1e-3", "--seeds", "6", "--workers", "2", "-o", str(path)]
    proc = _sweep(*args)
    try:
        until(lambda: path.exists() and path.read_bytes().count(b"\n") >= 3, 60, "two rows")
        seen = len(ResultsFile(str(path)).read())
        os.killpg(proc.pid, sig)
        out, err = proc.communicate(timeout=60)
    finally:
        _end_session(proc)
    kept = ResultsFile(str(path)).read()
    assert proc.returncode == 130 and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"ibm1013: interrupted: {len(kept)} runs written to {path}; run the same "
                          f"command with --resume")
    assert seen <= len(kept) < 216
    until(lambda: not _alive_in_session(proc.pid), 30, "every process of the sweep to end")
    if sig == signal.SIGINT:
        cmd = [sys.executable, "-m", "ibm1013", "sweep", *args, "--resume"]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and f"216 runs ({216 - len(kept)} simulated now" in done.stdout
        assert len(ResultsFile(str(path)).read()) == 216


def test_the_first_ctrl_c_stops_a_process_pool_sweep_at_once(tmp_path):
    """Both workers on batches that would take an hour: the first Ctrl-C ends the sweep in seconds
    with the rows of the point that did finish, instead of waiting for the running batches."""
    path = tmp_path / "runs.csv"
    here = os.path.dirname(os.path.abspath(__file__))
    script = ("from test_sweep import DECK, SEEDS, VALUES\nfrom test_sweep_stop import stall_but_the_first\n"
              "from ibm1013.sweep import grid, run_sweep\n"
              "from ibm1013.sweep.backends import ProcessPool\n"
              "try:\n"
              f"    run_sweep(DECK, grid(VALUES), SEEDS, backend=ProcessPool(2), outputs=[{str(path)!r}],\n"
              "              task=stall_but_the_first)\n"
              "except KeyboardInterrupt:\n"
              "    print('interrupted')\n")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, preexec_fn=default_stop_signals,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join([here, ROOT])})
    try:
        until(lambda: path.exists() and path.read_bytes().count(b"\n") > SEEDS, 240, "the first point")
        os.killpg(proc.pid, signal.SIGINT)
        t0 = time.monotonic()
        out, err = proc.communicate(timeout=60)
        stopped_in = time.monotonic() - t0
    finally:
        _end_session(proc)
    assert proc.returncode == 0 and out == "interrupted\n", err
    assert stopped_in < 50  # stopped, not left to its stalled tasks (a guard; a busy machine is slow)
    assert len(ResultsFile(str(path)).read()) == SEEDS
    until(lambda: not _alive_in_session(proc.pid), 30, "every process of the sweep to end")
