"""A fresh clone runs its tests: nothing a test reads lies outside the repository (issue 13 §1)."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
OUTSIDE = re.compile(r"""parents\[[2-9]\]|["']/work/|["']\.\./|["']shared["']""")
"""Ways a test could reach a file beside or above the repository."""


def test_no_test_reads_a_path_outside_the_repository():
    offenders = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted(TESTS.glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE.search(line) and path.name != Path(__file__).name
    ]
    assert not offenders, "\n".join(offenders)


def test_the_reference_data_is_in_the_repository():
    data = TESTS / "data"
    for name in ("ebcdic_card_code.csv", "special_characters.csv", "026_commercial_fortran.csv",
                 "h_set_7094.txt", "fourofeight.csv"):
        assert (data / name).is_file(), name
        assert name in (data / "README.md").read_text(encoding="utf-8"), f"{name} has no source in the README"
