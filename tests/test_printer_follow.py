"""A sockdev printer's lines as cards (:mod:`emulator.printer`), against a local socket standing in
for Hercules' 1403: one card a line, cut at 80, CR and FF dropped, the spool kept for --resume."""

from __future__ import annotations

import os
import socket

import pytest
from endpoints import until

from emulator.card import Card
from emulator.follow import FollowError
from emulator.printer import PrinterFollower, open_follower, spool_name


@pytest.fixture
def printer():
    with socket.create_server(("127.0.0.1", 0)) as server:
        yield server


def follow(server: socket.socket, idle_s: float | None = None) -> tuple[PrinterFollower, socket.socket]:
    follower = PrinterFollower("127.0.0.1", server.getsockname()[1], idle_s=idle_s)
    client, _ = server.accept()
    return follower, client


def drain(follower: PrinterFollower) -> list[Card]:
    cards: list[Card] = []
    until(lambda: cards.extend(follower.poll()) or follower.finished, 10, "the deck's end")
    return cards


def test_each_line_is_a_card_cut_at_80_until_the_printer_closes(printer, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    follower, client = follow(printer)
    long = "X" * 100
    client.sendall(b"  1  FIRST LINE\r\n\fNEW PAGE\n\n" + long.encode()
                   + b"\nlower case\nA\x01B\nLAST, NO LF")
    client.close()
    cards = drain(follower)
    assert [card.text().rstrip() for card in cards] == ["  1  FIRST LINE", "NEW PAGE", "", "X" * 80,
                                                         "lower case", "A\x01B", "LAST, NO LF"]
    assert follower.notes() == ["1 printed line longer than 80 columns cut at column 80"]
    assert "closed the connection" in follower.why_ended
    assert os.path.exists(spool_name("127.0.0.1", printer.getsockname()[1]))


def test_half_a_line_waits_for_its_end_and_idle_ends_the_deck(printer, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    follower, client = follow(printer, idle_s=0.3)
    client.sendall(b"HALF")
    until(lambda: follower.poll() == [] and follower.spool._pending == b"HALF", 10, "the half line read")
    client.sendall(b" A LINE\n")
    cards = drain(follower)
    assert [card.text().rstrip() for card in cards] == ["HALF A LINE"]
    assert "printed no line for 0.3 s" in follower.why_ended
    client.close()


def test_a_second_follower_finds_the_lines_the_first_spooled(printer, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first, client = follow(printer)
    client.sendall(b"ONE\nTWO\n")
    until(lambda: len(first.poll()) == 2 or first.cards_read == 2, 10, "two lines")
    first.close()  # the sender killed: the spool stays
    client.close()
    second, client = follow(printer)
    client.sendall(b"THREE\n")
    client.close()
    assert [card.text().rstrip() for card in drain(second)] == ["ONE", "TWO", "THREE"]


def test_a_character_the_code_lacks_is_its_substitute_and_counted(printer, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    follower = PrinterFollower("127.0.0.1", printer.getsockname()[1], code="026-fortran")
    client, _ = printer.accept()
    client.sendall(b"A`B\n")  # the 026 has no grave accent
    client.close()
    cards = drain(follower)
    assert len(cards) == 1 and cards[0].punches(2) != ""  # the 026's substitute, punched
    assert follower.notes() == ["1 printed character not in the code punched as its substitute"]


def test_a_printer_not_listening_and_a_format_that_does_not_apply_are_refused(tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    with pytest.raises(FollowError, match="nothing listens there"):
        PrinterFollower("127.0.0.1", port)
    with pytest.raises(FollowError, match="--format ebcdic does not apply"):
        open_follower(f"sockdev://127.0.0.1:{port}", "ebcdic")
