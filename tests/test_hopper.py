"""``receive --hopper DIR``: decks named in arrival order, an unfinished one keeps its number."""

from __future__ import annotations

import pytest
from processes import finish, one_line_error, start

from emulator.errors import IbmError
from emulator.hopper import next_deck


def test_the_next_number_after_the_highest_and_the_format_s_extension(tmp_path):
    hopper = tmp_path / "hopper"
    assert next_deck(str(hopper), "i1401") == str(hopper / "0001.txt")  # made when missing
    (hopper / "0001.txt").write_text("")
    (hopper / "0007.txt").write_text("")
    (hopper / "0009.cbn").write_text("")  # another format's: not counted for .txt
    (hopper / "notes.txt").write_text("")
    assert next_deck(str(hopper), "i1401") == str(hopper / "0008.txt")
    assert next_deck(str(hopper), "cbn") == str(hopper / "0010.cbn")
    (hopper / "9999.txt").write_text("")
    assert next_deck(str(hopper), "text") == str(hopper / "10000.txt")


def test_an_unfinished_deck_keeps_its_number_and_two_are_refused(tmp_path):
    (tmp_path / "0003.txt").write_text("")
    (tmp_path / "0002.txt.1013part").write_text("")
    assert next_deck(str(tmp_path), "i1401") == str(tmp_path / "0002.txt")
    (tmp_path / "0004.txt.1013part").write_text("")
    with pytest.raises(IbmError, match="2 unfinished decks"):
        next_deck(str(tmp_path), "i1401")


def test_hopper_needs_a_format_and_excludes_o(tmp_path):
    code, _, err = finish(start("receive", "/nonexistent-port", "--hopper", str(tmp_path)))
    one_line_error(code, err, "--hopper needs --format")
    code, _, err = finish(start("receive", "/nonexistent-port", "--hopper", str(tmp_path), "-o", "x.cbn"))
    assert code == 2 and "not allowed with argument" in err
