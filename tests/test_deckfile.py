"""``emulator.read_deck`` and ``write_deck``: a deck file as a user meets it (``emulator/deckfile.py``)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from emulator import EOF_CARD, Card, CardError, Deck, read_deck, write_deck
from emulator.formats import read_deck as read_stream

HELLO = Path(__file__).resolve().parents[1] / "examples" / "sample-decks" / "hello.cbn"


def test_a_deck_read_is_the_formats_cards_with_its_format_and_code():
    with open(HELLO, "rb") as stream:
        cards = list(read_stream(stream, code="026-fortran"))
    deck = read_deck(HELLO, code="026-fortran")
    assert deck == cards and (deck.format, deck.code, deck.source) == ("cbn", "026-fortran", str(HELLO))
    with open(HELLO, "rb") as stream:
        assert read_deck(stream) == cards and read_deck(io.BytesIO(HELLO.read_bytes())).source is None


def test_the_format_is_the_names_and_the_deck_keeps_its_code(tmp_path):
    deck = Deck([Card.from_text("A(B)=C+D", "026-fortran")], code="026-fortran")
    write_deck(deck, tmp_path / "one.txt")  # text, from the extension, in the deck's code
    assert (tmp_path / "one.txt").read_bytes() == b"A(B)=C+D\n"
    again = read_deck(tmp_path / "one.txt", code="026-fortran")
    assert again == deck and again.format == "text"
    write_deck(deck, tmp_path / "one.deck")  # no format of that extension: cbn
    assert read_deck(tmp_path / "one.deck").format == "cbn"


def test_a_deck_the_format_cannot_hold_leaves_no_file(tmp_path):
    target = tmp_path / "out.ebcdic"
    with pytest.raises(CardError):
        write_deck([Card.from_text("FIRST"), EOF_CARD], target)
    assert list(tmp_path.iterdir()) == []  # nothing half-written, no temporary file


def test_a_damaged_deck_is_named_with_its_card_and_column_as_the_command_names_it(tmp_path, capsys):
    from ibm1013.cli.main import main

    damaged = bytearray(HELLO.read_bytes())
    damaged[160 + 10] ^= 0x01  # card 2, column 6: one bit, so its parity is wrong
    bad = tmp_path / "bad.cbn"
    bad.write_bytes(bytes(damaged))
    with pytest.raises(CardError, match=r"bad\.cbn: card 2, column 6: parity error") as refused:
        read_deck(bad)
    assert main(["cards", "decode", str(bad)]) == 2
    assert capsys.readouterr().err.strip() == f"ibm1013: {refused.value}"
