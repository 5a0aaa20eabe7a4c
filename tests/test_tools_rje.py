"""The tools a user is told to run around remote job entry, checked without Hercules: a run the harness
could not carry out is counted "not run", its logs kept, and the series goes on (``tools.rje_kills``);
a process that sits out SIGTERM, as Hercules 3.13 can, is still ended (``tools.measure_sockdev.stop``)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tools import measure_sockdev, rje_kills

GOOD = {"killed": "rje", "phase": "job", "at": 3, "rje_status": 0, "host_status": 0, "lines": 4,
        "lost": 0, "repeated": 0, "in_order": True, "errors": ""}


def test_a_run_the_harness_could_not_carry_out_is_not_run_and_the_series_goes_on(monkeypatch, capsys):
    works: list[Path] = []

    def one_run(work: Path, cards: int, rng) -> dict:
        works.append(work)
        (work / "hercules.log").write_text("HHCCP011I CPU0000: Disabled wait state\n")
        if len(works) == 2:
            raise SystemExit(f"rje_kills: hercules never said 'bound': see {work / 'hercules.log'}")
        return dict(GOOD)

    monkeypatch.setattr(rje_kills, "one_run", one_run)
    monkeypatch.setattr(rje_kills.shutil, "which", lambda name: f"/usr/bin/{name}")
    status = rje_kills.main(["--runs", "3", "--cards", "4"])
    out = capsys.readouterr().out.splitlines()
    assert len(works) == 3  # the third run ran after the second could not
    assert out[1] == (f"run  2: not run (hercules never said 'bound': see {works[1] / 'hercules.log'}); "
                      f"its logs are kept in {works[1]}")
    assert (works[1] / "hercules.log").exists()  # the log it points at is there to read
    assert not works[0].exists() and not works[2].exists()  # a run that ran cleans up
    assert out[-1] == "2 of 2 runs with every card and line once; 1 not run (the harness's trouble, above)"
    assert status == 2
    works[1].joinpath("hercules.log").unlink()
    works[1].rmdir()


def test_stop_ends_a_process_that_sits_out_sigterm():
    stubborn = subprocess.Popen([sys.executable, "-c", "import signal, time\n"
                                 "signal.signal(signal.SIGTERM, signal.SIG_IGN)\nprint('ready', flush=True)\n"
                                 "time.sleep(120)"], stdout=subprocess.PIPE, text=True)
    assert stubborn.stdout.readline() == "ready\n"  # SIGTERM is ignored from here on
    t0 = time.monotonic()
    measure_sockdev.stop(stubborn, None)
    assert stubborn.returncode is not None and time.monotonic() - t0 < 10
