"""Remote job entry, 1961: ``examples/rje_1401.sh`` punches a self-loading 1401 program with our
`cards` tools, sends it over a noisy `ibm1013 line`, and the real SIMH ``i1401`` boots it at the far
end and prints.  A missing SIMH skips (under CI: fails) with a line saying what to install."""

import os
import shlex
import subprocess
from pathlib import Path

import external
import pytest
from processes import IBM1013

from emulator.card import Card
from emulator.formats import read_deck

pytestmark = [pytest.mark.interop, pytest.mark.timeout(120)]

SCRIPT = Path(__file__).resolve().parents[1] / "examples" / "rje_1401.sh"
JOB = ",008015,022029,030031M0802502.HELLO FROM SITE A, RUN AT SITE B"


def test_a_1401_job_sent_over_a_noisy_line_runs_at_the_far_end(tmp_path):
    i1401 = external.program("i1401", "simh")
    env = {**os.environ, "IBM1013": shlex.join(IBM1013),
           "PATH": f"{os.path.dirname(i1401)}:{os.environ.get('PATH', '')}"}
    proc = subprocess.run(["bash", str(SCRIPT), str(tmp_path)], env=env, capture_output=True, text=True,
                          timeout=110, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "site A: session           complete" in proc.stdout
    with open(tmp_path / "job.txt", "rb") as deck:  # what site B received, in SIMH's 1401 format
        assert list(read_deck(deck, "i1401")) == [Card.from_text(JOB)]
    assert (tmp_path / "print.txt").read_text() == "HELLO FROM SITE A, RUN AT SITE B\n"
    assert proc.stdout.rstrip().endswith("site B printed:\nHELLO FROM SITE A, RUN AT SITE B")


def test_without_simh_the_example_says_what_to_install(tmp_path):
    bare = tmp_path / "bin"  # a PATH holding bash and nothing else
    bare.mkdir()
    (bare / "bash").symlink_to(subprocess.run(["bash", "-c", "command -v bash"], capture_output=True,
                                              text=True).stdout.strip())
    proc = subprocess.run([str(bare / "bash"), str(SCRIPT), str(tmp_path / "w")], env={"PATH": str(bare)},
                          capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2 and "install SIMH (apt-get install simh)" in proc.stderr, proc.stderr


# -- examples/rje_hercules.sh: the job into a running Hercules, its printout back --------------------

HERCULES_SCRIPT = SCRIPT.parent / "rje_hercules.sh"


def test_a_370_job_goes_in_and_its_listing_comes_back_over_a_noisy_line(tmp_path):
    from test_interop_hercules import free_port
    from test_interop_jobs import listing_lines

    hercules = external.program("hercules", "hercules")
    data = ["FIRST CARD OF THE JOB", "", "0123456789 ,./- THE 1401 SET", "LAST CARD"]
    (tmp_path / "data.txt").write_text("".join(line + "\n" for line in data))
    env = {**os.environ, "IBM1013": shlex.join(IBM1013), "BIT_RATE": "9600",
           "READER_PORT": str(free_port()), "PRINTER_PORT": str(free_port()), "HTTP_PORT": str(free_port()),
           "PATH": f"{os.path.dirname(hercules)}:{os.environ.get('PATH', '')}"}
    proc = subprocess.run(["bash", str(HERCULES_SCRIPT), str(tmp_path / "work"), str(tmp_path / "data.txt")],
                          env=env, capture_output=True, text=True, timeout=110, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("session           complete") == 2  # the job in, the listing out
    assert (tmp_path / "work" / "listing.txt").read_text().splitlines() == listing_lines(data)


def test_without_hercules_the_example_says_what_to_install(tmp_path):
    bare = tmp_path / "bin"
    bare.mkdir()
    for tool in ("bash", "dirname"):
        (bare / tool).symlink_to(subprocess.run(["bash", "-c", f"command -v {tool}"], capture_output=True,
                                                text=True).stdout.strip())
    proc = subprocess.run([str(bare / "bash"), str(HERCULES_SCRIPT), str(tmp_path / "w")],
                          env={"PATH": str(bare)}, capture_output=True, text=True, timeout=30,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 2 and "install Hercules (apt-get install hercules)" in proc.stderr, proc.stderr
