"""Counts in words (``emulator.words``), and a command that once said "1 cards"."""

from emulator.words import cards, counted
from ibm1013.cli.main import main


def test_one_is_singular_and_every_other_count_plural():
    assert [cards(n) for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert counted(1055, "position", thousands=True) == "1,055 positions"
    assert counted(1, "match", "matches") == "1 match" and counted(3, "match", "matches") == "3 matches"


def test_a_compact_game_deck_of_one_card_says_one_card(tmp_path, capsys):
    """Issue 47 item 11: ``deal --compact -o`` printed "k.cbn: 1 cards"."""
    deck = tmp_path / "k.cbn"
    assert main(["deal", "klondike", "--deal", "3", "--compact", "-o", str(deck)]) == 0
    assert f"{deck}: 1 card, klondike deal 3" in capsys.readouterr().err
