"""The bootable decks that ship (``examples/hercules``, ``examples/i1401``), run on the real emulators.

Each job deck is made as a user makes it: ``ibm1013 cards encode LISTING --listing`` for the
programs (and the S/370 loader), ``ibm1013 cards encode`` for the data cards.  Hercules 3.13 IPLs the
S/370 job from a 3505; SIMH 3.8 ``i1401`` boots the 1401 job.  What the punch and printer produce
is checked against what each program must produce, computed here from the data text alone (the
``cp037`` codec, Python's integers and f-strings), not by our writers.  Missing emulators skip, or
under CI fail (``tests/external.py``).
"""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import external
import pytest
from endpoints import until
from processes import finish, start

pytestmark = [pytest.mark.interop, pytest.mark.timeout(120)]

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PRINTABLE = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,./-"
"""Characters printed alike by Hercules' default codepage and SIMH's 1401 business set."""
MINUS_LAST = {c: d for d, c in enumerate("}JKLMNOPQR")}
"""An 11 punched over the last digit (the 029's characters for 11-0 … 11-9): a negative amount."""


def encode(source: Path, fmt: str, target: Path, *, listing: bool) -> Path:
    form = ("--listing",) if listing else ()
    code, _, err = finish(start("cards", "encode", str(source), *form, "--format", fmt, "-o", str(target)))
    assert code == 0, err
    return target


def job(tmp_path: Path, program: str, fmt: str, data: list[str]) -> Path:
    """The job deck of ``program``: (for Hercules) the loader, the program, then the data cards."""
    (tmp_path / "data.txt").write_text("".join(line + "\n" for line in data))
    machine = "hercules" if fmt == "ebcdic" else "i1401"
    parts = ([encode(EXAMPLES / machine / "loader.lst", fmt, tmp_path / "loader.deck", listing=True)]
             if machine == "hercules" else [])
    parts.append(encode(EXAMPLES / machine / f"{program}.lst", fmt, tmp_path / "program.deck", listing=True))
    parts.append(encode(tmp_path / "data.txt", fmt, tmp_path / "data.deck", listing=False))
    deck = tmp_path / "job.deck"
    deck.write_bytes(b"".join(p.read_bytes() for p in parts))  # decks of records join end to end
    return deck


def text_cards(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    cards = ["".join(rng.choice(PRINTABLE) for _ in range(rng.randint(1, 80))) for _ in range(n)]
    return [card.rstrip() or "X" for card in cards]


def amount_cards(seed: int, n: int) -> list[str]:
    """Columns 1-8: a number, blanks before it, negative ones with 11 over the last digit."""
    rng = random.Random(seed)
    cards = []
    for _ in range(n):
        value = rng.randint(0, 99_999_999) if rng.random() < 0.3 else rng.randint(0, 9999)
        digits = str(value).rjust(8, rng.choice(" 0"))
        if rng.random() < 0.3:
            digits = digits[:7] + "}JKLMNOPQR"[int(digits[7])]  # the 029's 11-0 ... 11-9
        cards.append(digits + " " + "".join(rng.choice(PRINTABLE) for _ in range(rng.randint(0, 40))))
    return cards


def amount(card: str) -> int:
    field = card[:8].replace(" ", "0")
    if field[7] in MINUS_LAST:
        return -int(field[:7] + str(MINUS_LAST[field[7]]))
    return int(field)


def listing_lines(data: list[str]) -> list[str]:
    return [f"{n:6d}  {card}".rstrip() for n, card in enumerate(data, start=1)]


def total_line(data: list[str]) -> str:
    total = sum(amount(card) for card in data)
    return f"{len(data):6d} CARDS, TOTAL{abs(total):16d}{'-' if total < 0 else ''}"


# -- Hercules: the S/370 loader and its three programs ----------------------------------------------

CONFIG = """ARCHMODE S/370
MAINSIZE 16
NUMCPU 1
CPUMODEL 3090
000C 3505 job.deck ebcdic eof
000D 3525 punch.ebcdic ebcdic
000E 1403 print.txt
"""


def run_hercules(tmp_path: Path) -> str:
    """IPL the job from 00C; return the PSW of the wait it stops in (its last 4 hex digits: the code)."""
    exe = external.program("hercules", "hercules")
    (tmp_path / "job.cnf").write_text(CONFIG)
    (tmp_path / "job.rc").write_text("ipl 00c\n")
    log = tmp_path / "hercules.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([exe, "-f", "job.cnf", "-d"], cwd=tmp_path, stdin=subprocess.DEVNULL,
                                stdout=out, stderr=subprocess.STDOUT, env={"HERCULES_RC": "job.rc",
                                                                           "PATH": "/usr/bin:/bin"})
        try:
            until(lambda: "Disabled wait state" in log.read_text(errors="replace") or proc.poll() is not None,
                  60, "the guest's disabled wait")
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    text = log.read_text(errors="replace")
    assert "Disabled wait state" in text, text[-3000:]
    return text.split("Disabled wait state")[1].split("\n")[1]


def printed(tmp_path: Path) -> list[str]:
    path = tmp_path / "print.txt"
    return path.read_text().splitlines() if path.exists() else []


def test_hercules_copy_punches_every_data_card(tmp_path):
    data = text_cards(1, 40)
    job(tmp_path, "copy", "ebcdic", data)
    assert run_hercules(tmp_path).endswith("D0E0")
    assert (tmp_path / "punch.ebcdic").read_bytes() == "".join(c.ljust(80) for c in data).encode("cp037")


def test_hercules_list_prints_every_data_card_with_its_number(tmp_path):
    data = text_cards(2, 30)
    job(tmp_path, "list", "ebcdic", data)
    assert run_hercules(tmp_path).endswith("D0E0")
    assert printed(tmp_path) == listing_lines(data)


@pytest.mark.parametrize(("seed", "last"), [(3, []), (4, ["9999999R A NEGATIVE TOTAL"])])
def test_hercules_sum_prints_the_total_of_columns_1_to_8(tmp_path, seed, last):
    data = amount_cards(seed, 25) + last
    job(tmp_path, "sum", "ebcdic", data)
    assert run_hercules(tmp_path).endswith("D0E0")
    assert printed(tmp_path) == [total_line(data)]


def test_hercules_sum_of_a_card_that_is_no_number_stops_in_the_loaders_wait(tmp_path):
    job(tmp_path, "sum", "ebcdic", ["     12", "ABCDEFGH"])  # a blank last digit: no valid sign
    assert run_hercules(tmp_path).endswith("0BAD")


# -- SIMH i1401: the same three jobs, self-loading 1401 decks -----------------------------------------

def run_1401(tmp_path: Path) -> str:
    exe = external.program("i1401", "simh")
    (tmp_path / "job.sim").write_text("attach cdr job.deck\nattach -n cdp punch.txt\nattach lpt print.txt\n"
                                      "boot cdr\nquit\n")
    proc = subprocess.run([exe, "job.sim"], cwd=tmp_path, capture_output=True, text=True, timeout=30,
                          stdin=subprocess.DEVNULL)
    assert "HALT instruction" in proc.stdout, proc.stdout + proc.stderr
    return proc.stdout


def test_1401_copy_punches_every_data_card(tmp_path):
    data = text_cards(5, 40)
    job(tmp_path, "copy", "i1401", data)
    run_1401(tmp_path)
    assert (tmp_path / "punch.txt").read_text().splitlines() == data


def test_1401_list_prints_every_data_card_with_its_number(tmp_path):
    data = text_cards(6, 30)
    job(tmp_path, "list", "i1401", data)
    run_1401(tmp_path)
    assert printed(tmp_path) == listing_lines(data)


@pytest.mark.parametrize(("seed", "last"), [(7, []), (8, ["9999999R A NEGATIVE TOTAL"])])
def test_1401_sum_prints_the_total_of_columns_1_to_8(tmp_path, seed, last):
    data = amount_cards(seed, 25) + last
    job(tmp_path, "sum", "i1401", data)
    run_1401(tmp_path)
    assert printed(tmp_path) == [total_line(data)]


@pytest.mark.parametrize("program", ["list", "sum"])
def test_1401_jobs_without_data_cards_stop_cleanly(tmp_path, program):
    job(tmp_path, program, "i1401", [])
    run_1401(tmp_path)
    assert printed(tmp_path) == ([] if program == "list" else [total_line([])])


def test_1401_sum_of_signed_zeros_built_by_the_recipe_of_the_page(tmp_path):
    """docs/machine-room.md's 1401 recipe joins the decks with ``cards cat --format i1401``.  Without
    the format, ``cat`` read the simh 3.8 decks as 029 text: the plus zero ``?`` (12-0) became 0-7-8,
    so +120 reached the 1401 as 1327, and the minus zero ``!`` was refused at column 8."""
    data = ["     12{ PLUS ZERO", "     15} MINUS ZERO", "    1200"]  # the 029's +0 and -0
    (tmp_path / "data.txt").write_text("".join(line + "\n" for line in data))
    program = encode(EXAMPLES / "i1401" / "sum.lst", "i1401", tmp_path / "sum.txt", listing=True)
    amounts = encode(tmp_path / "data.txt", "i1401", tmp_path / "amounts.txt", listing=False)
    code, _, err = finish(start("cards", "cat", str(program), str(amounts), "--format", "i1401",
                                "--to", "i1401", "-o", str(tmp_path / "job.deck")))
    assert (code, err) == (0, "")
    run_1401(tmp_path)
    assert printed(tmp_path) == ["     3 CARDS, TOTAL            1170"]  # 120 - 150 + 1200
