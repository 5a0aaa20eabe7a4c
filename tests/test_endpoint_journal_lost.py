"""A journal deleted or replaced under a running ``receive`` is lost, and both ends say so (issue 50,
item 11): the receiving end ends with ``NOTWRITTEN`` for the cards it still holds (none), naming its
journal and what became of it, and never says the cards are kept in a file that is gone; the
sending end says the far end lost the cards it had acknowledged, never that it holds the deck.
Over a real (unpaced) virtual line, both ends in this process."""

import os

import pytest
from endpoints import InThread
from test_endpoint_transfer import deck_of

from emulator.serial import Link
from emulator.virtual_line import LineConfig, VirtualLine
from ibm1013.line.endpoint import EndpointConfig, TransferError, receive_deck, send_deck
from ibm1013.line.journal import Journal, JournalError, journal_path
from ibm1013.str.config import SessionConfig

pytestmark = pytest.mark.timeout(120)


def patient() -> EndpointConfig:
    """Unpaced ends with timers far longer than a busy machine delays a reply."""
    return EndpointConfig(session=SessionConfig(ack_timeout_s=10.0, listen_s=0.5), paced=False,
                          timeout_s=60.0)


def run_both(deck, out):
    """Receive (thread) and send (here) over an unpaced virtual line: (send's outcome, receive's)."""
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        a, b = (Link.open(p) for p in line.paths)
        try:
            rx = InThread(lambda: receive_deck(b, str(out), "text", patient()))
            rx.start()
            try:
                tx = send_deck(a, deck, patient())
            except TransferError as err:
                tx = err
            return tx, rx.outcome(120)
        finally:
            a.close()
            b.close()


def after_card(monkeypatch, number: int, then) -> None:
    """Call ``then(journal)`` once the journal has made card ``number`` durable."""
    real = Journal.append_words

    def append_words(self, words):
        real(self, words)
        if self.count == number:
            then(self)

    monkeypatch.setattr(Journal, "append_words", append_words)


def delete(journal: Journal) -> None:
    os.unlink(journal.path)


def assert_lost_at_both_ends(tx, rx, out, how: str) -> None:
    assert isinstance(rx, JournalError), rx
    said = str(rx)
    assert f"{journal_path(str(out))}" in said and f"journal was {how}" in said, said
    assert "NOTWRITTEN" in said and "\n" not in said
    assert "kept in" not in said and "safe in" not in said and "--resume" not in said, said
    assert isinstance(tx, TransferError), tx
    told = str(tx)
    assert "lost its journal" in told and "NOTWRITTEN" in told and "\n" not in told, told
    assert "holds the whole deck" not in told and "safe in" not in told, told
    assert not out.exists()


def test_a_journal_deleted_between_cards_ends_the_transfer_saying_so(tmp_path, monkeypatch):
    after_card(monkeypatch, 5, delete)
    out = tmp_path / "copy.txt"
    tx, rx = run_both(deck_of(40), out)
    assert_lost_at_both_ends(tx, rx, out, "deleted")
    assert "the 6 cards it held are lost" in str(rx), rx  # the sixth written to the lost file
    assert "after 5 of 40 cards were acknowledged" in str(tx) and "from its first card" in str(tx), tx
    assert os.listdir(tmp_path) == []


def test_a_journal_deleted_after_the_trailer_is_not_published_from(tmp_path, monkeypatch):
    deck = deck_of(12)
    after_card(monkeypatch, len(deck) + 1, delete)  # the trailer's card: the deck checks out
    out = tmp_path / "copy.txt"
    tx, rx = run_both(deck, out)
    assert_lost_at_both_ends(tx, rx, out, "deleted")
    assert "not written" in str(rx) and "from its first card" in str(rx)
    assert "12 cards" in str(tx), tx
    assert os.listdir(tmp_path) == []


def test_a_journal_replaced_by_another_file_is_lost_and_the_other_file_kept(tmp_path, monkeypatch):
    def replace(journal: Journal) -> None:  # as a second receive would, once the first one's is gone
        os.unlink(journal.path)
        with open(journal.path, "wb") as other:
            other.write(b"another file")

    after_card(monkeypatch, 3, replace)
    out = tmp_path / "copy.txt"
    tx, rx = run_both(deck_of(20), out)
    assert_lost_at_both_ends(tx, rx, out, "replaced by another file")
    with open(journal_path(str(out)), "rb") as other:
        assert other.read() == b"another file"
