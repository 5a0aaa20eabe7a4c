"""Fuzzing in the suite: a few hundred mutated or random files per format (issue 13 §6).

Each file goes through :func:`~emulator.formats.read_deck` (strict and lenient: cards or a
``CardError``, nothing else) and some through ``ibm1013 cards decode`` and ``convert`` in-process
(exit 0 with the output written, or exit 2 with one ``ibm1013:`` line, no output and no temporary
file).  Seeded, so a failure repeats; ``python -m tools.fuzz_cards`` runs the long version.
"""

from __future__ import annotations

import os

import pytest

from tools import fuzz_cards

SEED = 1013
READ_CASES = 200
CLI_CASES = 30


@pytest.mark.parametrize("fmt", fuzz_cards.formats())
def test_fuzzed_files_read_as_cards_or_clean_errors(fmt):
    faults = [fault for i in range(READ_CASES)
              for _, fault in fuzz_cards.check_read(fuzz_cards.make_case(SEED, i, fmt)) if fault]
    assert not faults, "\n".join(faults[:5])


@pytest.mark.parametrize("fmt", fuzz_cards.formats())
def test_fuzzed_files_through_the_command_line_fail_cleanly(fmt, tmp_path, monkeypatch):
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # tmp_path is on a disk; nothing to make durable
    outcomes, faults = set(), []
    for i in range(CLI_CASES):
        for outcome, fault in fuzz_cards.check_cli(fuzz_cards.make_case(SEED, i, fmt), str(tmp_path)):
            outcomes.add(outcome.split(": ")[1])
            if fault:
                faults.append(fault)
    assert not faults, "\n".join(faults[:5])
    assert "clean error" in outcomes  # the mutations do break decks
    assert os.listdir(tmp_path) == ["in.deck"]


def test_a_case_is_the_same_every_time():
    assert fuzz_cards.make_case(7, 3) == fuzz_cards.make_case(7, 3)
    assert fuzz_cards.make_case(7, 3) != fuzz_cards.make_case(7, 4)


def test_the_checks_catch_a_reader_that_raises_something_else(monkeypatch):
    def broken(*args, **options):
        raise TypeError("read() got an unexpected keyword argument 'substitutions'")

    monkeypatch.setattr(fuzz_cards, "read_deck", broken)
    faults = [fault for _, fault in fuzz_cards.check_read(fuzz_cards.make_case(1, 1, "art")) if fault]
    assert len(faults) == 2 and "TypeError" in faults[0]


def test_the_checks_catch_a_command_that_leaves_a_file_or_says_two_lines(tmp_path):
    target = tmp_path / "out"
    target.write_bytes(b"half")
    judge = fuzz_cards._judge
    assert "output file was written" in judge(2, "", "ibm1013: bad\n", "", str(target), str(tmp_path))
    assert "not one" in judge(2, "", "ibm1013: a\nb\n", "", str(tmp_path / "x"), str(tmp_path))
    (tmp_path / ".~out.123").write_bytes(b"")
    assert "temporary file" in judge(0, "", "", "", str(target), str(tmp_path))


def test_the_tool_reports_counts_and_exits_0_without_faults(capsys, tmp_path):
    import json

    assert fuzz_cards.main(["--files", "30", "--seed", "5", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["files"] == 30 and report["faults"] == 0 and sum(report["formats"].values()) == 30
    assert sum(v for k, v in report["outcomes"].items() if k.startswith("read_deck lenient")) == 30
