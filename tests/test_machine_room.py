"""Every recipe of docs/machine-room.md runs as written: each ``sh`` block of the page, run by bash
in an empty directory with ``EXAMPLES`` naming this checkout's examples (as the page says), must
exit 0 within its time, and what it printed and wrote is checked against what the recipe promises,
computed here from the sample data.  A recipe added to the page without a check here fails.

The recipes need SIMH and Hercules: a missing one skips (under CI fails), ``tests/external.py``."""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import signal
import subprocess
from pathlib import Path

import external
import pytest
from processes import IBM1013
from test_interop_jobs import listing_lines, total_line

pytestmark = [pytest.mark.interop, pytest.mark.timeout(180)]

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "machine-room.md"
EXAMPLES = ROOT / "examples"
CARDS = (EXAMPLES / "data" / "cards.txt").read_text().splitlines()
AMOUNTS = (EXAMPLES / "data" / "amounts.txt").read_text().splitlines()


def recipes() -> list[str]:
    return re.findall(r"^```sh\n(.*?)^```", PAGE.read_text(encoding="utf-8"), flags=re.M | re.S)


def check_follow(work: Path, out: str) -> None:
    assert "site B holds SIMH's punch file, byte for byte" in out
    assert (work / "copy.txt").read_text().splitlines() == CARDS


def check_1401_sum(work: Path, out: str) -> None:
    assert out.splitlines() == ["9 cards to job.txt", total_line(AMOUNTS)]  # every line it prints,
    assert total_line(AMOUNTS) == "     5 CARDS, TOTAL            9931"  # as the page shows them
    assert "prints `9 cards to job.txt` (the `cards cat`), then `     5 CARDS, TOTAL" in PAGE.read_text()


def check_rje_1401(work: Path, out: str) -> None:
    assert (work / "rje" / "print.txt").read_text() == "HELLO FROM SITE A, RUN AT SITE B\n"


def check_hopper(work: Path, out: str) -> None:
    assert sorted(p.name for p in (work / "hopper").iterdir()) == ["0001.txt", "0002.txt"]
    assert (work / "punch.txt").read_text().splitlines() == CARDS + AMOUNTS
    assert (work / "simh.log").read_text().count("Card reader empty") == 2  # stopped at each deck's end


def check_rje_hercules(work: Path, out: str) -> None:
    assert (work / "rje-370" / "listing.txt").read_text().splitlines() == listing_lines(CARDS)


def check_hercules(work: Path, out: str) -> None:
    assert (work / "print.txt").read_text().splitlines() == listing_lines(CARDS)
    assert out.splitlines() == ["12 cards to job.ebcdic", *listing_lines(CARDS)]
    assert "It prints `12 cards to job.ebcdic` (the `cards cat`), then each" in PAGE.read_text()


CHECKS = {
    "--follow out.txt": check_follow,
    "i1401/sum.lst": check_1401_sum,
    "rje_1401.sh": check_rje_1401,
    "sockdev.cnf": check_hercules,
    "rje_hercules.sh": check_rje_hercules,
    "--hopper hopper": check_hopper,
}
"""Each recipe's check, found by a string only that recipe holds."""


def test_the_page_has_its_recipes():
    blocks = recipes()
    assert len(blocks) == len(CHECKS)
    for needle in CHECKS:
        assert sum(needle in block for block in blocks) == 1, needle


@pytest.mark.parametrize("number", range(len(CHECKS)))
def test_each_recipe_runs_as_written(tmp_path, number):
    block = recipes()[number]
    for program, package in (("i1401", "simh"), ("hercules", "hercules"), ("curl", "curl")):
        if re.search(rf"\b{program}\b", block):
            external.program(program, package)
    (tmp_path / "recipe.sh").write_text(block)
    work = tmp_path / "work"
    work.mkdir()
    bin_dir = tmp_path / "bin"  # `ibm1013` as the tests run it (this checkout's code)
    bin_dir.mkdir()
    (bin_dir / "ibm1013").write_text(f"#!/bin/sh\nexec {shlex.join(IBM1013)} \"$@\"\n")
    (bin_dir / "ibm1013").chmod(0o755)
    env = {**os.environ, "EXAMPLES": str(EXAMPLES),
           "PATH": f"{bin_dir}:{os.environ.get('PATH', '')}:{external.EXTRA_PATH}"}
    proc = subprocess.Popen(["bash", "-euo", "pipefail", str(tmp_path / "recipe.sh")], cwd=work, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=150)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"recipe {number + 1} did not end in 150 s:\n{block}\n{out}\n{err}")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # whatever the recipe left running
    assert proc.returncode == 0, f"recipe {number + 1} failed:\n{block}\n{out}\n{err}"
    [check] = [check for needle, check in CHECKS.items() if needle in block]
    check(work, out)
