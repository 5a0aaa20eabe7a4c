"""Settings at the seams between commands (issue 50 §12, §13): one answer, in one set of words."""

from __future__ import annotations

import pytest

from ibm1013.cli.main import main


@pytest.mark.parametrize("argv", [
    ["simulate", "{deck}"], ["theory", "{deck}"], ["sweep", "{deck}", "--seeds", "1"],
    ["send", "/nonexistent/port", "{deck}"],
])
def test_an_empty_deck_is_refused_by_every_command_that_sends_one(tmp_path, capsys, argv):
    """``simulate`` called an empty deck a complete transfer (exit 0), ``theory`` an error: every
    command that sends (or works out) a deck refuses it, in one line, before any work."""
    deck = tmp_path / "empty.txt"
    deck.write_bytes(b"")
    assert main([a.format(deck=deck) for a in argv]) == 2
    assert capsys.readouterr().err == f"ibm1013: {deck}: the deck has no cards\n"


@pytest.mark.parametrize("command", ["simulate", "theory", "sweep", "send", "receive"])
def test_a_column_range_that_runs_backwards_is_named_so(tmp_path, capsys, command):
    """``--columns 20-10`` said "not within 1-80": it is refused as the card room refuses a field
    that runs backwards (the same code: ``emulator.deckops.fields.Field``)."""
    extra = {"send": ["PORT", "DECK"], "receive": ["PORT", "-o", str(tmp_path / "x.cbn")]}.get(command, [])
    assert main([command, *extra, "--columns", "20-10"]) == 2
    said = capsys.readouterr().err
    assert "field 20-10: ends before it starts" in said and "within" not in said
    assert main(["cards", "select", "-", "-o", "-", "--where", "20-10=AB"]) == 2
    assert "field 20-10: ends before it starts" in capsys.readouterr().err
