"""``rje-host`` restarted in the output phase: the job runs again and its whole output replaces the
one the receiving end held (``REFUSED ANEW``, then a second handshake), or, when it cannot run again,
the output phase is refused at both ends (``REFUSED SHORT``): never a resumed output called complete
when lines the computer printed may be missing."""

from __future__ import annotations

from dataclasses import replace

from test_endpoint_transfer import deck_of, fast, read_text_deck, transfer

from emulator.virtual_line import LineConfig, VirtualLine
from ibm1013.line.endpoint import TransferError
from ibm1013.line.handshake import SHORT_OUTPUT
from ibm1013.line.journal import Journal, cards_in, journal_path


def held_output(out, cards) -> None:
    """The receiving end's journal as a kill left it: ``cards`` of the first run's output."""
    journal = Journal.open(str(out), resume=False)
    for card in cards:
        journal.append(card)
    journal.close()


def test_the_output_sent_anew_replaces_the_cards_held_and_each_line_comes_once(tmp_path):
    out = tmp_path / "listing.txt"
    held_output(out, deck_of(10, "FIRST RUN"))  # not even the new output's first lines
    new_output = deck_of(7, "RERUN")
    receiving = replace(fast(), resume=True)
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = transfer(line, new_output, out, replace(fast(), rerun="ANEW"), receiving)
    assert not isinstance(tx, Exception) and tx.ended == "complete", tx
    assert not isinstance(rx, Exception) and rx.ended == "complete", rx
    assert rx.settings["dropped_for_output_anew"] == 10
    assert read_text_deck(out) == new_output  # the whole new output, nothing of the old
    assert not (tmp_path / "listing.txt.1013part").exists()


def test_the_same_lines_again_are_not_appended_to_those_held(tmp_path):
    """A rerun prints the same lines: the receiving end's 4 are dropped, not taken as the first 4 of
    the new output, which then comes whole (its first card is card 1 again)."""
    out = tmp_path / "listing.txt"
    output = deck_of(9, "LINE")
    held_output(out, output[:4])
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = transfer(line, output, out, replace(fast(), rerun="ANEW"), replace(fast(), resume=True))
    assert not isinstance(rx, Exception), rx
    assert rx.cards_received == 9 and read_text_deck(out) == output


def test_a_host_that_cannot_run_the_job_again_ends_both_with_the_output_may_be_short(tmp_path):
    out = tmp_path / "listing.txt"
    held_output(out, deck_of(3, "FIRST RUN"))
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = transfer(line, deck_of(5), out, replace(fast(), rerun="SHORT"), replace(fast(), resume=True))
    assert isinstance(tx, TransferError) and SHORT_OUTPUT in str(tx)
    assert isinstance(rx, TransferError) and "may be short" in str(rx) and "keeps the 3 cards" in str(rx)
    assert not out.exists() and cards_in(journal_path(str(out))) == 3  # what it held, kept
