"""A card the sending end gives up aborts the transfer with TL EOT: both ends stop at once."""

import os
import time

import pytest
from endpoints import InThread

from emulator.card import Card
from emulator.serial import LineConfig, Link, VirtualLine
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
    # the receiving end's idle timeout is 20 s: without the abort it would wait that long
    cfg = EndpointConfig(session=SessionConfig(ack_timeout_s=0.3, listen_s=0.5), paced=False,
                         timeout_s=20.0)
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
    assert rx_done < 10.0  # well inside the 20 s idle timeout
    assert not out.exists() and os.path.exists(journal_path(str(out)))


def test_sending_end_started_first_waits_in_synchronize_mode(tmp_path):
    """The sending end's handshake receiver keeps cycling synchronize mode (the core's ``"sync"``
    timer) until the receiving end, started 2 s later, answers it."""
    deck = [Card.from_text(f"CARD {i:03d}") for i in range(5)]
    out = tmp_path / "copy.txt"
    cfg = EndpointConfig(session=SessionConfig(ack_timeout_s=0.3, listen_s=0.5), paced=False,
                         timeout_s=10.0)
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
