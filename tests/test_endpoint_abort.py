"""A card the sending end gives up aborts the transfer with TL EOT: both ends stop at once."""

import os
import time

import pytest
from endpoints import InThread

from emulator.card import Card
from emulator.serial import Link
from emulator.virtual_line import LineConfig, VirtualLine
from ibm1013.line import endpoint
from ibm1013.line.endpoint import EndpointConfig, TransferError, receive_deck, send_deck
from ibm1013.line.journal import journal_path
from ibm1013.str.config import SessionConfig

pytestmark = pytest.mark.timeout(60)


class SpoilsCardThree(endpoint.Transmitter):
    """Sends card 3 of a deck (not the one-card resume record) with a wrong LRC, every time."""

    def __init__(self, deck, config=None, *, first_card=1):
        super().__init__(deck, config, first_card=first_card)
        if self.total_cards > 1 and first_card <= 3:
            body = self._bodies[3 - first_card]
            self._bodies[3 - first_card] = body[:-1] + bytes([body[-1] ^ 0x0F])


def test_a_given_up_card_ends_both_ends_at_once(tmp_path, monkeypatch):
    monkeypatch.setattr(endpoint, "Transmitter", SpoilsCardThree)
    deck = [Card.from_text(f"CARD {i:03d}") for i in range(10)]
    out = tmp_path / "copy.txt"
    # the receiving end's idle timeout is 60 s: without the abort it would wait that long; the
    # reply timer is the 1013's 3 s (card 3 is refused at once, CL ERR: no timer runs out)
    cfg = EndpointConfig(session=SessionConfig(ack_timeout_s=3.0, listen_s=0.5), paced=False,
                         timeout_s=60.0)
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        a, b = (Link.open(p) for p in line.paths)
        rx = InThread(lambda: receive_deck(b, str(out), "text", cfg))
        rx.start()
        start = time.monotonic()
        with pytest.raises(TransferError, match="card 3 could not be sent") as tx:
            send_deck(a, deck, cfg)
        err = rx.outcome()
        rx_done = time.monotonic() - start
        a.close()
        b.close()
    assert "--resume" in str(tx.value)
    assert isinstance(err, TransferError) and "before the deck's trailer" in str(err)
    assert "2 cards are safe" in str(err) and "--resume" in str(err)
    assert rx_done < 30.0  # well inside the 60 s idle timeout: it was told, not timed out
    assert not out.exists() and os.path.exists(journal_path(str(out)))


def test_sending_end_started_first_waits_in_synchronize_mode(tmp_path):
    """The sending end's handshake receiver keeps cycling synchronize mode (the core's ``"sync"``
    timer) until the receiving end, started 2 s later, answers it."""
    deck = [Card.from_text(f"CARD {i:03d}") for i in range(5)]
    out = tmp_path / "copy.txt"
    cfg = EndpointConfig(session=SessionConfig(ack_timeout_s=3.0, listen_s=0.5), paced=False,
                         timeout_s=30.0)
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        a, b = (Link.open(p) for p in line.paths)
        tx = InThread(lambda: send_deck(a, deck, cfg))
        tx.start()
        time.sleep(2.0)  # past the first cycles: only a repeated end-of-idle can be heard now
        rx = receive_deck(b, str(out), "text", cfg)
        sent = tx.outcome()
        a.close()
        b.close()
    assert not isinstance(sent, Exception), sent
    assert rx.cards_received == 5 and sent.cards_sent == 5


def test_a_sending_end_whose_own_port_dies_says_how_to_go_on(tmp_path):
    from emulator.serial import PortError

    deck = [Card.from_text(f"CARD {i:03d}") for i in range(10)]
    out = tmp_path / "copy.txt"
    cfg = EndpointConfig(session=SessionConfig(ack_timeout_s=0.3, listen_s=0.5), paced=False, timeout_s=3.0)
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        a, b = (Link.open(p) for p in line.paths)

        def dead(_data: bytes) -> None:
            raise PortError(f"port {a.name}: the line is gone (adapter pulled)")

        def progress(done: int, _total: int) -> None:
            if done == 4:
                a.write = dead  # type: ignore[method-assign]

        rx = InThread(lambda: receive_deck(b, str(out), "text", cfg))
        rx.start()
        with pytest.raises(PortError) as tx:
            send_deck(a, deck, cfg, progress=progress)
        received = rx.outcome()
        a.close()
        b.close()
    message = str(tx.value)
    assert "the line is gone" in message and "--resume" in message
    assert "4 of 10 cards were acknowledged" in message
    assert "\n" not in message
    assert isinstance(received, TransferError) and "--resume" in str(received)
    assert not out.exists() and os.path.exists(journal_path(str(out)))


def test_resumable_errors_say_so_by_attribute_and_their_advice_is_composed_once():
    """Issue 42: an error a ``--resume`` can fix carries ``resumable``; nothing routes errors by text."""
    import pathlib

    from ibm1013.line.station import TransferError, resume_advice

    err = TransferError("the line went dead", resumable=True, resume_from=30)
    assert err.resumable and err.reason == "the line went dead"
    assert str(err) == f"the line went dead. {resume_advice(30)}" and "from card 30 (or 31" in str(err)
    plain = TransferError("settings differ")
    assert not plain.resumable and str(plain) == "settings differ"
    wrapped = err.again(f"{err.reason}; 3 cards are safe")
    assert wrapped.resumable and str(wrapped).count("--resume") == 1
    root = pathlib.Path(__file__).resolve().parents[1] / "ibm1013"
    routed = [p for p in root.rglob("*.py") if '"--resume" in str(' in p.read_text(encoding="utf-8")
              or '"--resume" not in str(' in p.read_text(encoding="utf-8")]
    assert routed == []


def test_a_receive_stopped_before_any_card_advises_no_resume(tmp_path):
    """Issue 47, item 11: with no card journaled there is no journal to resume from."""
    import threading

    from test_endpoint_transfer import fast

    from ibm1013.line.endpoint import Interrupted

    stop = threading.Event()
    stop.set()
    with VirtualLine(LineConfig(bit_rate=0)) as line, Link.open(line.paths[1]) as b:
        with pytest.raises(Interrupted) as err:
            receive_deck(b, str(tmp_path / "copy.txt"), "text", fast(), stop=stop)
    assert "no card had arrived" in str(err.value) and "--resume" not in str(err.value)
    assert not err.value.resumable and os.listdir(tmp_path) == []


def test_how_a_session_ended_is_said_once_in_one_parenthesis():
    """Issue 47, item 11: not "(CL EOT) (aborted by receiver)"."""
    from ibm1013.line.station import ended_text
    from ibm1013.str.events import SessionEnded

    by_receiver = SessionEnded("aborted by receiver", "the receiving terminal ended the session at card 4 "
                               "(CL EOT)")
    assert ended_text(by_receiver) == ("the receiving terminal ended the session at card 4 "
                                       "(CL EOT: aborted by receiver)")
    assert ended_text(SessionEnded("no answer", "no reply to the bid")) == "no reply to the bid (no answer)"
