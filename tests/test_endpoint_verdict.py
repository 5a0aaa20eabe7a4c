"""The receiving end's verdict travels back: the sending end says "complete" only for a deck that was
checked and written at the far end, and "delivered, not confirmed" when that last word is lost."""

import errno
import os

import pytest
from endpoints import InThread, until
from test_endpoint_transfer import deck_of, fast, read_text_deck, transfer

import emulator.formats
from emulator.serial import Link
from emulator.virtual_line import LineConfig, VirtualLine
from ibm1013.line import endpoint
from ibm1013.line.endpoint import NOT_CONFIRMED, EndpointConfig, NotConfirmed, TransferError, receive_deck
from ibm1013.line.journal import Journal, JournalError, journal_path
from ibm1013.str import fourofeight as fo
from ibm1013.str.config import SessionConfig
from ibm1013.str.events import Send
from ibm1013.str.trailer import REFUSALS, DeckCheckError, parse_mark, refusal_cards, verdict_cards

pytestmark = pytest.mark.timeout(60)


def config(*, ack: float = 3.0, listen: float = 0.5, timeout: float = 30.0, resume: bool = False):
    """Unpaced ends; the timers a busy machine does not outrun unless a test is about one of them
    (see ``test_endpoint_transfer.fast``)."""
    return EndpointConfig(session=SessionConfig(ack_timeout_s=ack, listen_s=listen), paced=False,
                          timeout_s=timeout, resume=resume)


def test_verdict_record_round_trip():
    (card,) = verdict_cards("NOTWRITTEN", 12, "0123456789ABCDEF0123456789ABCDEF")
    mark = parse_mark([card])
    assert (mark.kind, mark.count, mark.status) == ("VERDICT", 12, "NOTWRITTEN")
    with pytest.raises(ValueError):
        verdict_cards("MAYBE", 1, "0" * 32)


def test_complete_means_the_far_end_wrote_the_deck_and_its_message_counts_deck_cards(tmp_path):
    deck = deck_of(9)
    out = tmp_path / "copy.txt"
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = transfer(line, deck, out, fast())
    assert tx.ended == "complete" and tx.settings["verdict"] == "PUBLISHED"
    assert "all 9 cards" in tx.message and tx.cards_received == 9
    assert rx.settings["verdict"] == "PUBLISHED"
    assert rx.message.startswith("9 cards checked against the trailer") and "card 10" not in rx.message
    assert read_text_deck(out) == deck


def test_a_lost_end_confirmation_is_not_a_failure(tmp_path, monkeypatch):
    """The receiving end answers TL EOT and publishes, but its CL EOT is lost, and the sending end's
    --timeout is shorter than its ack timeout: the stall guard used to give up ("run again with
    --resume", exit 2) although the far end had written the whole deck."""

    class LosesFirstEndReply(endpoint.Receiver):
        def _on_sequence(self, code):
            out = super()._on_sequence(code)
            if code == fo.EOT and self.cards_accepted > 1 and not getattr(self, "lost", False):
                self.lost = True
                out = [a for a in out if not isinstance(a, Send)]
            return out

    monkeypatch.setattr(endpoint, "Receiver", LosesFirstEndReply)
    deck = deck_of(6)
    out = tmp_path / "copy.txt"
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = transfer(line, deck, out, config(ack=1.0, timeout=0.8),  # what the timers do is tested
                          config(ack=1.0, listen=2.0, timeout=10.0))
    assert not isinstance(rx, Exception), rx
    assert not isinstance(tx, Exception), tx
    assert tx.ended == "complete" and tx.settings["verdict"] == "PUBLISHED"
    assert read_text_deck(out) == deck


def test_a_trailer_given_up_although_received_is_complete(tmp_path, monkeypatch):
    """Every acknowledgement of the trailer is lost: the sending end gives the card up and aborts,
    yet the receiving end holds the whole deck and writes it — its verdict says so."""
    deck = deck_of(5)
    records = len(deck) + 1

    class LosesTrailerAcks(endpoint.Receiver):
        def _on_good_record(self, data, sor, layout):  # every record accepted passes here
            out = super()._on_good_record(data, sor, layout)
            if self.next_card > records:
                out = [a for a in out if not isinstance(a, Send)]
            return out

    monkeypatch.setattr(endpoint, "Receiver", LosesTrailerAcks)
    out = tmp_path / "copy.txt"
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = transfer(line, deck, out, fast())
    assert not isinstance(rx, Exception), rx
    assert not isinstance(tx, Exception), tx
    assert tx.ended == "complete" and tx.failed_cards == [] and tx.retransmissions >= 3
    assert read_text_deck(out) == deck


def test_a_lost_verdict_is_delivered_not_confirmed(tmp_path, monkeypatch):
    monkeypatch.setattr(endpoint, "send_verdict", lambda *args: False)  # the last word is lost
    deck = deck_of(4)
    out = tmp_path / "copy.txt"
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = transfer(line, deck, out, config(timeout=5.0))  # the wait for the verdict
    assert isinstance(tx, NotConfirmed) and tx.exit_status == 3
    assert str(tx).startswith(f"{NOT_CONFIRMED}: ") and "--resume" in str(tx) and "\n" not in str(tx)
    assert tx.report.ended == NOT_CONFIRMED and tx.report.settings["verdict"] is None
    assert not isinstance(rx, Exception) and read_text_deck(out) == deck


def test_disk_full_while_publishing_keeps_the_cards_and_resume_finishes(tmp_path, monkeypatch):
    real = emulator.formats.write_deck_arrays

    def disk_full(arrays, out, fmt, **kw):
        out.write(b"HALF A DECK\n")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(emulator.formats, "write_deck_arrays", disk_full)
    deck = deck_of(7)
    out = tmp_path / "copy.txt"
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = transfer(line, deck, out, fast())
    assert isinstance(rx, JournalError)
    message = str(rx)
    assert "No space left on device" in message and "kept in" in message and "--resume" in message
    assert "\n" not in message
    assert isinstance(tx, TransferError) and not isinstance(tx, NotConfirmed)
    assert "could not write it" in str(tx) and "--resume" in str(tx)
    assert sorted(os.listdir(tmp_path)) == [os.path.basename(journal_path(str(out)))]  # no temp file

    monkeypatch.setattr(emulator.formats, "write_deck_arrays", real)  # room again
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = transfer(line, deck, out, config(resume=True))
    assert not isinstance(rx, Exception), rx
    assert tx.ended == "complete" and tx.settings["resumed_from"] == len(deck) + 2  # only TL EOT left
    assert read_text_deck(out) == deck and not os.path.exists(journal_path(str(out)))


def test_a_trailer_mismatch_reaches_the_sending_end(tmp_path, monkeypatch):
    real = endpoint.trailer_cards

    def lying(digest, columns=None):
        digest.update(deck_of(1, "NEVER")[0])
        return real(digest, columns)

    monkeypatch.setattr(endpoint, "trailer_cards", lying)
    out = tmp_path / "copy.txt"
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = transfer(line, deck_of(5), out, fast())
    assert isinstance(rx, DeckCheckError)
    assert isinstance(tx, TransferError) and "does not match" in str(tx) and "complete" not in str(tx)
    assert not out.exists()


def test_one_output_one_receiver(tmp_path):
    out = str(tmp_path / "copy.txt")
    first = Journal.open(out, resume=False)
    with pytest.raises(JournalError, match="in use: another receive"):
        Journal.open(out, resume=True)
    first.append(deck_of(1)[0])
    first.close()
    again = Journal.open(out, resume=True)  # the lock goes with the holder
    assert again.count == 1
    again.close()


def _locked(path: str) -> bool:
    """Whether some process holds an flock on ``path`` (as a receiving end holds its journal's),
    read from ``/proc/locks`` without taking the lock: a probe that took it, even for a moment, could
    make the receiver it watches find its journal "in use" and stop."""
    try:
        inode = os.stat(path).st_ino
    except FileNotFoundError:
        return False
    with open("/proc/locks", encoding="ascii") as locks:
        return any(line.split()[1] == "FLOCK" and line.split()[5].endswith(f":{inode}") for line in locks)


def test_a_second_receive_on_the_same_output_is_refused_at_once(tmp_path):
    """The first receive waits (up to 60 s) and holds the lock; the second, whose own timeout is
    20 s, is refused before it sends anything — long before it could have timed out."""
    import threading

    out = tmp_path / "copy.txt"
    stop = threading.Event()
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        a, b = (Link.open(p) for p in line.paths)
        rx = InThread(lambda: receive_deck(b, str(out), "text", config(timeout=60.0, resume=True),
                                           stop=stop))
        rx.start()
        until(lambda: _locked(journal_path(str(out))), what="the first receive to lock its journal")
        with pytest.raises(JournalError, match="in use"):
            receive_deck(a, str(out), "text", config(timeout=20.0, resume=True))
        assert a.bytes_written == 0  # refused before any transfer, not after a timeout
        stop.set()
        assert isinstance(rx.outcome(), endpoint.Interrupted)
        a.close()
        b.close()


@pytest.mark.parametrize("where", ["dir", "missing"])
def test_a_bad_output_is_refused_before_anything_is_sent(tmp_path, where):
    out = tmp_path if where == "dir" else tmp_path / "nope" / "copy.txt"
    with Link.open("loop://") as link, pytest.raises(JournalError) as err:
        receive_deck(link, str(out), "text", config())
    assert link.bytes_written == 0
    assert ("is a directory" if where == "dir" else "no such directory") in str(err.value)


def test_a_port_that_dies_after_the_last_acknowledgement_is_not_confirmed(tmp_path):
    """Everything was acknowledged, then the sending end's port died before TL EOT: the far end may
    well hold (or even write) the whole deck, so this is not a plain failure."""
    from emulator.serial import PortError

    deck = deck_of(5)
    out = tmp_path / "copy.txt"
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        a, b = (Link.open(p) for p in line.paths)
        calls = []

        def dead(_data: bytes) -> None:
            raise PortError(f"port {a.name}: the line is gone (adapter pulled)")

        def progress(done: int, total: int) -> None:
            calls.append(done)
            if calls.count(total) == 2:  # the trailer, too, was acknowledged
                a.write = dead  # type: ignore[method-assign]

        rx = InThread(lambda: receive_deck(b, str(out), "text", config(timeout=5.0)))
        rx.start()
        with pytest.raises(NotConfirmed) as tx:
            endpoint.send_deck(a, deck, config(), progress=progress)
        received = rx.outcome()
        a.close()
        b.close()
    assert tx.value.exit_status == 3 and "the line is gone" in str(tx.value) and "--resume" in str(tx.value)
    assert tx.value.report.ended == NOT_CONFIRMED and tx.value.report.cards_sent == 5
    assert isinstance(received, TransferError) and "--resume" in str(received)
    assert "all 5 cards and the trailer are safe in" in str(received)  # not "6 cards"


@pytest.mark.parametrize("reason", REFUSALS)
def test_every_refusal_is_one_card_at_any_bit_rate_a_resume_record_names(reason):
    """A refusal is read from the first card alone: at 99,999 bit/s a LAYOUT or RESUME refusal, bit
    rate and all, took 81 columns and went on a second card, which no receiving end read."""
    for rate in (600, 99_999):
        cards = refusal_cards(reason, rate)
        mark = parse_mark(cards[:1])
        assert len(cards) == 1 and (mark.kind, mark.status) == ("REFUSED", reason)
        assert mark.bit_rate == (rate if reason == "RATE" else None)


def test_a_card_given_up_after_lost_acknowledgements_names_where_the_resume_starts(tmp_path, monkeypatch):
    """Issue 47, item 16: every acknowledgement of card 3 is lost, so the sending end gives it up,
    although the receiving end holds it: the resume starts at card 4, and the advice says so (it
    said "go on from card 3")."""

    class LosesCard3Acks(endpoint.Receiver):
        def _on_good_record(self, data, sor, layout):  # every record accepted passes here
            out = super()._on_good_record(data, sor, layout)
            if self.next_card == 4:  # card 3 is in: its acknowledgements never reach the sender
                out = [a for a in out if not isinstance(a, Send)]
            return out

    monkeypatch.setattr(endpoint, "Receiver", LosesCard3Acks)
    out = tmp_path / "copy.txt"
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = transfer(line, deck_of(6), out, config(ack=2.0))
    assert isinstance(tx, TransferError) and "card 3 could not be sent" in str(tx), tx
    assert "or 4, if card 3 arrived" in str(tx)
    assert isinstance(rx, TransferError)
    assert Journal.open(str(out), resume=True).count == 3  # the resume starts at card 4
