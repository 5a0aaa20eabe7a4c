"""Issue 50 items 2, 3, 4 and part of 12: a deck is read one way by every command, a text deck that
simh 3.8 reads otherwise is told, and ``cards info`` and ``cards decode`` agree on the code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from emulator.formats import FORMAT_NAMES, get_format
from emulator.formats.ambiguity import CHARACTER_FORMAT_MODULES, character_formats
from ibm1013.cli.main import main

AMOUNTS = "    1200 CASH\n     12{ PLUS ZERO\n     15} MINUS ZERO\n"
"""Amounts as the 029 punches them: ``{`` is 12-0 (+0 over the last digit), ``}`` 11-0 (-0)."""


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def ebcdic_deck(tmp_path, capsys):
    """The README's deck: ``cards encode program.txt -o program.ebcdic --format ebcdic``."""
    (tmp_path / "program.txt").write_text("HELLO, WORLD\nPRINT 'A' (B)\n")
    deck = tmp_path / "program.ebcdic"
    assert run(capsys, "cards", "encode", str(tmp_path / "program.txt"), "-o", str(deck),
               "--format", "ebcdic")[0] == 0
    return deck


@pytest.mark.parametrize("command", [["simulate"], ["theory"], ["sweep", "--seeds", "1"]])
def test_a_deck_cards_reads_is_read_by_simulate_theory_and_sweep(capsys, ebcdic_deck, command):
    """They read the deck as text ("card 1, column 8: not UTF-8 text"): only the cards commands
    looked at the extension of a format that cannot be detected."""
    assert json.loads(run(capsys, "cards", "info", str(ebcdic_deck), "--json")[1])["format"] == "ebcdic"
    status, out, err = run(capsys, *command[:1], str(ebcdic_deck), *command[1:])
    assert (status, err) == (0, ""), err
    assert "2 cards" in out or "cards sent        2" in out or "1 runs" in out


def test_simulate_sends_the_cards_cards_decode_reads(capsys, ebcdic_deck, tmp_path):
    copy = tmp_path / "copy.txt"
    assert run(capsys, "simulate", str(ebcdic_deck), "-o", str(copy), "--format", "auto")[0] == 0
    assert copy.read_text() == "HELLO, WORLD\nPRINT 'A' (B)\n"


@pytest.fixture
def amounts_1401(tmp_path, capsys):
    """The 1401 recipe's data deck: ``cards encode amounts.txt --format i1401 -o amounts.txt``."""
    (tmp_path / "data.txt").write_text(AMOUNTS)
    deck = tmp_path / "amounts.txt"
    argv = ["cards", "encode", str(tmp_path / "data.txt"), "--format", "i1401", "-o", str(deck)]
    assert run(capsys, *argv)[0] == 0
    return deck


def test_a_1401_deck_read_without_its_format_is_told_naming_the_format(capsys, amounts_1401, tmp_path):
    """Read as 029 text, the 1401's plus zero ``?`` (12-0) became 0-7-8 and its minus zero ``!``
    11-8-2: a +120 came back from SIMH's SUM job as 1327, and a -150 was refused at column 8, with
    nothing said of the format."""
    status, out, err = run(capsys, "cards", "decode", str(amounts_1401))
    assert status == 0
    told = [line for line in err.splitlines() if "--format i1401" in line]
    assert len(told) == 1 and "simh 3.8" in told[0] and "card 2, column 8" in told[0], err
    assert str(amounts_1401) in told[0]


def test_the_1401_recipe_with_the_format_named_keeps_every_amount(capsys, amounts_1401, tmp_path):
    job = tmp_path / "job.txt"
    status, _, err = run(capsys, "cards", "cat", str(amounts_1401), "--format", "i1401", "--to", "i1401",
                         "-o", str(job))
    assert (status, err) == (0, "")
    assert job.read_bytes() == amounts_1401.read_bytes()  # card for card, the zeros with their signs
    assert "12?" in job.read_text() and "15!" in job.read_text()


@pytest.mark.parametrize("command", [["simulate"], ["theory"], ["cards", "info"], ["cards", "show"],
                                     ["cards", "show", "--card", "1"]])
def test_every_command_tells_the_other_reading_in_one_line(capsys, amounts_1401, command):
    """Read as 029 text, the minus zero ``!`` is 11-8-2, which four-of-eight cannot carry: simulate
    and theory refuse card 3, after the line that says why the deck reads so.  ``cards show --card
    1`` stops reading at card 1, before the column read otherwise (card 2): it said nothing (issue
    50); the rest of the file is now looked at as any reader looks at it."""
    status, _, err = run(capsys, *command, str(amounts_1401))
    assert len([line for line in err.splitlines() if "--format i1401" in line]) == 1, err
    assert status == 0 or f"{amounts_1401}: card 3, column 8" in err.splitlines()[-1]
    status, _, err = run(capsys, *command, str(amounts_1401), "--format", "i1401")
    assert (status, err) == (0, "")


def test_a_card_shown_from_a_big_deck_tells_the_other_reading_too(capsys, tmp_path):
    """``cards show --card 1`` of a deck bigger than a reader reads ahead stopped at card 1, and the
    end of the file, where the other reading is told, was never reached: it said nothing of a deck
    that every other reader names ``--format i1401`` for (issue 50).  The rest of the file is looked
    at (its bytes, not decoded), and the line said once."""
    deck = tmp_path / "amounts.txt"
    deck.write_text(AMOUNTS + "    1200 CASH\n" * 100_000)  # 1.4 MB
    for command in (["cards", "show", "--card", "1"], ["cards", "decode"]):
        status, _, err = run(capsys, *command, str(deck))
        told = [line for line in err.splitlines() if "--format i1401" in line]
        assert status == 0 and len(told) == 1 and "card 2, column 8" in told[0], (command, err)


def test_a_text_deck_that_reads_alike_in_every_format_is_read_without_a_word(capsys, tmp_path):
    deck = tmp_path / "plain.txt"
    deck.write_text("HELLO, WORLD 1.5\nPAY $12.00 - 3 * 4 / 2\n")
    for command in (["cards", "decode"], ["cards", "info"], ["simulate"]):
        status, _, err = run(capsys, *command, str(deck))
        assert (status, err) == (0, ""), (command, err)


def test_a_text_deck_with_simh4_control_lines_is_a_text_deck(capsys, tmp_path):
    """simh 3.8 has no ``~`` lines: a deck with an end-of-file card is SIMH 4.x text."""
    deck = tmp_path / "stacked.txt"
    deck.write_text("A (B)\n~\nC = D\n")
    status, _, err = run(capsys, "cards", "info", str(deck))
    assert (status, err) == (0, "")


def test_the_formats_with_a_character_table_are_all_watched():
    """CHARACTER_FORMAT_MODULES (named so that a small deck is checked without importing numpy) holds
    every registered format that reads text through a character table."""
    registered = {name for name in FORMAT_NAMES if get_format(name).characters}
    assert registered == set(character_formats()) == {"i1401", "i7094"}
    assert len(CHARACTER_FORMAT_MODULES) == 2


@pytest.fixture
def simh029_deck(tmp_path, capsys):
    """A ``simh029`` deck holding ``}``, which SIMH's 029 table punches 12-7-9: in the 029 (EBCDIC)
    card code that is the control character DEL, which no text shows."""
    (tmp_path / "s.txt").write_text("AB}C\n")
    deck = tmp_path / "s.cbn"
    argv = ["cards", "encode", str(tmp_path / "s.txt"), "--code", "simh029", "-o", str(deck)]
    assert run(capsys, *argv)[0] == 0
    return deck


def test_info_and_decode_agree_on_the_codes_a_deck_fits(capsys, simh029_deck):
    """info said the deck fits 029 (invalid_columns 0, codes_that_fit 029 first) and decode in 029
    refused column 3 without naming simh029."""
    report = json.loads(run(capsys, "cards", "info", str(simh029_deck), "--json", "--code", "029")[1])
    assert report["invalid_columns"] == 1 and report["first_invalid_columns"] == [[1, 3]]
    assert "029" not in report["codes_that_fit"] and report["codes_that_fit"][0] == "simh029"
    status, _, err = run(capsys, "cards", "decode", str(simh029_deck), "--code", "029")
    assert status == 2 and "card 1, column 3" in err and "(see above: --code simh029)" in err
    status, out, _ = run(capsys, "cards", "decode", str(simh029_deck), "--code", "simh029")
    assert (status, out) == (0, "AB}C\n")


def test_decode_names_the_code_only_for_a_code_error(capsys, tmp_path):
    """An 026-FORTRAN deck whose file ends on one byte too many: the parity error said "(see above:
    --code 026-fortran)", which has nothing to do with it.  (5000 cards: the advice comes from the
    first chunk, read before the bad byte.)"""
    (tmp_path / "f.txt").write_text("      FORMAT (13H HELLO, WORLD)\n" * 5000)
    deck = tmp_path / "f.cbn"
    argv = ["cards", "encode", str(tmp_path / "f.txt"), "--code", "026-fortran", "-o", str(deck)]
    assert run(capsys, *argv)[0] == 0
    with open(deck, "ab") as f:
        f.write(b"\x80")
    status, _, err = run(capsys, "cards", "decode", str(deck))
    assert status == 2 and "--code 026-fortran" in err.splitlines()[0]  # the advice stays
    assert "card 5001" in err.splitlines()[-1] and "see above" not in err.splitlines()[-1]


def test_a_tab_in_encode_input_skips_to_the_next_field_as_docs_cards_says(capsys, tmp_path):
    """A TAB became blanks without a word in docs/cards.md; it says so now, and does it."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "cards.md").read_text(encoding="utf-8")
    assert "`A<TAB>B` punches `A` in column 1 and `B` in column 9" in " ".join(page.split())
    (tmp_path / "t.txt").write_text("A\tB\n12345678\tC\n")
    deck = tmp_path / "t.cbn"
    assert run(capsys, "cards", "encode", str(tmp_path / "t.txt"), "-o", str(deck)) == (0, "", "")
    assert run(capsys, "cards", "decode", str(deck))[1] == "A       B\n12345678        C\n"
