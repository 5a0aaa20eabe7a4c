"""Card listings (``cards encode --listing``): bytes and characters column by column, comments,
and one-line errors naming the file and line."""

from __future__ import annotations

from pathlib import Path

import pytest
from processes import finish, one_line_error, start

from emulator.card import Card
from emulator.errors import FormatError
from emulator.listing import read_listing

ROOT = Path(__file__).resolve().parents[1]


def test_hex_is_ebcdic_bytes_and_text_is_keypunched():
    cards = read_listing([
        "# an IPL card",
        "card          # one",
        "hex 00020000 0000D0E0   # a PSW",
        "text |HELLO, 370|       # a label",
        "",
        "card",
    ])
    assert len(cards) == 2 and cards[1] == Card.blank()
    # EBCDIC 00 is 12-0-1-8-9, 02 is 12-2-9, D0 is 11-0, E0 is 0-2-8; C8 (H) is 12-8
    assert [cards[0].punches(c) for c in (1, 2, 7, 8, 9)] == ["12-0-1-8-9", "12-2-9", "11-0", "0-2-8", "12-8"]
    assert cards[0].text()[8:18] == "HELLO, 370" and cards[0].is_blank() is False


def test_the_code_chooses_the_punches_of_text():
    fortran = read_listing(["card", "text |+|"], code="026-fortran")[0]
    assert fortran.punches(1) == "12"  # the 026's plus; the 029's is 12-6-8
    assert read_listing(["card", "text |+|"])[0].punches(1) == "12-6-8"


@pytest.mark.parametrize(("lines", "needle"), [
    (["hex 00"], "line 1: a listing starts with 'card'"),
    (["card", "hex 0"], "line 2: hex needs whole bytes"),
    (["card", "hex 0G"], "line 2: not a listing line"),
    (["card", "text |ABC"], "line 2: not a listing line"),
    (["card", "text |\u20ac|"], "line 2: text: character"),
    (["card", "hex " + "40" * 60, "# a note", "text |" + "A" * 21 + "|"],
     "line 4: card 1 would have 81 columns"),
])
def test_bad_lines_are_named(lines, needle):
    with pytest.raises(FormatError) as err:
        read_listing(lines, source="job.lst")
    assert str(err.value).startswith("job.lst: ") and needle in str(err.value)


def test_cards_encode_from_listing_writes_the_bytes(tmp_path):
    listing = tmp_path / "ipl.lst"
    listing.write_text("card\nhex 0000000000000400  # PSW\ntext |IPL|\ncard\nhex FF\n")
    code, out, err = finish(start("cards", "encode", str(listing), "--listing", "--format", "ebcdic",
                                  "-o", str(tmp_path / "ipl.ebcdic")))
    assert (code, out, err) == (0, "", "")
    expected = bytes.fromhex("0000000000000400") + "IPL".encode("cp037")
    assert (tmp_path / "ipl.ebcdic").read_bytes() == expected.ljust(80, b"\x40") + b"\xff".ljust(80, b"\x40")


def test_cards_encode_from_a_bad_listing_is_one_line_and_writes_nothing(tmp_path):
    listing = tmp_path / "bad.lst"
    listing.write_text("card\nhex 123\n")
    target = tmp_path / "out.ebcdic"
    code, _, err = finish(start("cards", "encode", str(listing), "--listing", "-o", str(target)))
    one_line_error(code, err, "bad.lst: line 2: hex needs whole bytes")
    assert not target.exists() and not list(tmp_path.glob("*.tmp*"))
    code, _, err = finish(start("cards", "encode", str(listing), "--listing", "--truncate",
                                "-o", str(target)))
    one_line_error(code, err, "--truncate is for text")


@pytest.mark.parametrize("listing", sorted((ROOT / "examples").glob("*/*.lst")), ids=lambda p: p.parent.name
                         + "/" + p.name)
def test_every_shipped_listing_encodes(listing, tmp_path):
    fmt = "ebcdic" if listing.parent.name == "hercules" else "i1401"
    code, _, err = finish(start("cards", "encode", str(listing), "--listing", "--format", fmt,
                                "-o", str(tmp_path / "deck")))
    assert code == 0, err
    assert (tmp_path / "deck").stat().st_size > 0
