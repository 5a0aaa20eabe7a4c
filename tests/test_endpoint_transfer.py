"""Two endpoints in one process, over the virtual line: clean, noisy, cut and resumed, babbled at."""

import os
import random
import threading
import time

import pytest
from endpoints import InThread

from emulator.card import Card
from emulator.noise import make_noise
from emulator.serial import Link, PortError
from emulator.virtual_line import LineConfig, VirtualLine
from ibm1013.line import endpoint, station
from ibm1013.line.endpoint import EndpointConfig, TransferError, receive_deck, send_deck
from ibm1013.line.journal import cards_in, journal_path
from ibm1013.str.config import SessionConfig
from ibm1013.str.layout import ColumnLayout
from ibm1013.str.trailer import DeckCheckError

pytestmark = pytest.mark.timeout(60)

REPORT_KEYS = {"cards_sent", "cards_received", "cards_per_minute", "simulated_seconds",
               "characters_on_line", "retransmissions", "detected_errors", "undetected_errors",
               "failed_cards", "lost", "duplicated"}


def deck_of(n: int, tag: str = "CARD") -> list[Card]:
    return [Card.from_text(f"{tag} {i:05d} THE QUICK BROWN FOX {i * 7919 % 1000:03d}") for i in range(n)]


def fast(*, ack: float = 3.0, timeout: float = 30.0, **kw) -> EndpointConfig:
    """Unpaced ends with timers a busy machine does not outrun: the 1013's own 3 s reply timer
    (``ack``; three retries) and 30 s for the far end (``timeout``).  At 0.3 s, four replies late in
    a row gave a card up at a load average of 25 on two cores; a test of what happens when a timer
    runs out gives its own, short, and asserts only what a late timer cannot change."""
    session = SessionConfig(ack_timeout_s=ack, listen_s=0.5, **kw)
    return EndpointConfig(session=session, paced=False, timeout_s=timeout)


def read_text_deck(path) -> list[Card]:
    from emulator.formats import read_deck

    with open(path, "rb") as f:
        return list(read_deck(f, "text"))


def transfer(line: VirtualLine, deck, out, send_cfg, recv_cfg=None, fmt="text", feed=None):
    """Run receive (thread; into ``feed``'s card reader if given) and send (here); return (send
    result, receive result) — reports or errors."""
    a, b = (Link.open(p) for p in line.paths)
    rx = InThread(lambda: receive_deck(b, str(out), fmt, recv_cfg or send_cfg, feed=feed))
    rx.start()
    try:
        tx = send_deck(a, deck, send_cfg)
    except Exception as err:  # noqa: BLE001
        tx = err
    received = rx.outcome()
    a.close()
    b.close()
    return tx, received


def test_clean_transfer_writes_the_same_deck(tmp_path):
    deck = deck_of(40)
    out = tmp_path / "copy.txt"
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = transfer(line, deck, out, fast())
    assert REPORT_KEYS <= set(tx.to_dict()) and REPORT_KEYS <= set(rx.to_dict())
    assert tx.cards_sent == 40 and rx.cards_received == 40 and tx.ended == "complete"
    assert read_text_deck(out) == deck
    assert not os.path.exists(journal_path(str(out)))


def test_noise_and_dropped_characters_cost_retries_not_cards(tmp_path):
    deck = deck_of(30)
    out = tmp_path / "copy.txt"
    cfg = LineConfig(bit_rate=0, drop_rate=0.002, seed=5)
    noise = make_noise(ber=2e-4, seed=11)
    with VirtualLine(cfg, noise_ab=noise, noise_ba=make_noise(ber=2e-4, seed=12)) as line:
        tx, rx = transfer(line, deck, out, fast(ack=1.0))  # a lost reply costs a timer: 1 s, not 3
        stats = line.stats()
    assert not isinstance(tx, Exception), tx
    assert not isinstance(rx, Exception), rx
    assert stats["a->b"]["bits_flipped"] + stats["a->b"]["bytes_dropped"] > 0
    assert tx.retransmissions > 0
    assert read_text_deck(out) == deck


def test_partial_columns_and_the_trailer(tmp_path):
    deck = deck_of(12)
    out = tmp_path / "copy.txt"
    layout = ColumnLayout.parse("1-10,21-30")
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = transfer(line, deck, out, fast(columns=layout))
    assert not isinstance(rx, Exception), rx
    got = read_text_deck(out)
    assert len(got) == 12
    for sent, back in zip(deck, got, strict=True):
        assert back.columns[:10] == sent.columns[:10] and back.columns[20:30] == sent.columns[20:30]
        assert not any(back.columns[10:20]) and not any(back.columns[30:])
    assert tx.settings["trailer_cards"] == 4  # 67 characters over 20 columns


class CutAfter:
    """A line monitor that cuts the line for good once ``characters`` have gone from a to b: a cut
    at a point of the transfer, not at a time of the wall clock (which a busy machine stretches)."""

    def __init__(self, characters: int) -> None:
        self.characters, self.seen = characters, 0
        self.line: VirtualLine | None = None

    def __call__(self, direction: str, _seconds: float, sent: bytes, _arrives: bytes) -> None:
        if direction == "a->b" and self.line is not None and not self.line.is_cut():
            self.seen += len(sent)
            if self.seen >= self.characters:
                self.line.cut()


def test_cut_mid_deck_then_resume_loses_and_repeats_nothing(tmp_path):
    deck = deck_of(60)
    out = tmp_path / "copy.txt"
    cut = CutAfter(60 * 86 // 2)  # a card is about 86 characters on the line: about half the deck
    with VirtualLine(LineConfig(bit_rate=0), monitor=cut) as line:
        cut.line = line
        tx, rx = transfer(line, deck, out, fast(timeout=3.0))  # the silence after the cut: 3 s
    assert isinstance(tx, TransferError) and "--resume" in str(tx)
    assert isinstance(rx, TransferError) and "--resume" in str(rx)
    assert not out.exists()
    held = cards_in(journal_path(str(out)))
    assert 0 < held < 60
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        resumed = EndpointConfig(session=fast().session, paced=False, timeout_s=30.0, resume=True)
        tx, rx = transfer(line, deck, out, resumed)
    assert not isinstance(rx, Exception), rx
    assert tx.settings["resumed_from"] == held + 1
    assert read_text_deck(out) == deck


def test_resume_refuses_another_deck(tmp_path):
    from ibm1013.line.journal import Journal

    out = tmp_path / "copy.txt"
    journal = Journal.open(str(out), resume=False)  # as left by a cut after card 10
    for card in deck_of(40)[:10]:
        journal.append(card)
    journal.close()
    resumed = EndpointConfig(session=fast().session, paced=False, timeout_s=1.0, resume=True)
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = transfer(line, deck_of(40, "OTHER"), out, resumed)
    assert isinstance(tx, TransferError) and "another deck" in str(tx)
    assert isinstance(rx, Exception) and not out.exists()
    # and without --resume the receiver will not silently throw the journal away
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = transfer(line, deck_of(40), out, EndpointConfig(session=fast().session, paced=False,
                                                                 timeout_s=1.0))
    assert "--resume" in str(rx)


def test_wrong_trailer_fails_loudly_and_publishes_nothing(tmp_path, monkeypatch):
    real = endpoint.trailer_cards

    def lying(digest, columns=None):
        digest.update(Card.from_text("A CARD THAT NEVER WAS"))
        return real(digest, columns)

    monkeypatch.setattr(endpoint, "trailer_cards", lying)
    out = tmp_path / "copy.txt"
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = transfer(line, deck_of(5), out, fast())
    assert isinstance(rx, DeckCheckError) and "trailer says 6 cards but 5" in str(rx)
    assert not out.exists()


def _babbler(path: str, stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    with Link.open(path) as link:
        while not stop.is_set():
            link.write(bytes(rng.getrandbits(8) for _ in range(256)))
            time.sleep(0.005)


@pytest.mark.parametrize("role", ["receive", "send"])
def test_babbling_peer_is_refused_in_bounded_time(tmp_path, role):
    """Refused, not hung: the bound is the test's timeout (a wall-clock figure here would measure
    the machine's load, not the babble limit, which counts characters)."""
    out = tmp_path / "copy.txt"
    stop = threading.Event()
    short = fast(ack=0.3, timeout=3.0)  # what the timers do is what is tested
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        t = threading.Thread(target=_babbler, args=(line.paths[1], stop, 1))
        t.start()
        try:
            with Link.open(line.paths[0]) as link, pytest.raises((TransferError, PortError)) as err:
                if role == "receive":
                    receive_deck(link, str(out), "text", short)
                else:
                    send_deck(link, deck_of(3), short)
        finally:
            stop.set()
            t.join(5)
    assert "\n" not in str(err.value)
    assert not out.exists()
    assert os.listdir(tmp_path) in ([], [os.path.basename(journal_path(str(out)))])


def test_silent_peer_times_out(tmp_path):
    """Each end gives up on a silent line (the test's timeout guards against a hang)."""
    out = tmp_path / "copy.txt"
    with VirtualLine(LineConfig(bit_rate=0)) as line, Link.open(line.paths[0]) as link:
        cfg = fast(ack=0.3, timeout=1.0)
        with pytest.raises((TransferError, PortError)):
            receive_deck(link, str(out), "text", cfg)
        with pytest.raises((TransferError, PortError)):
            send_deck(link, deck_of(2), cfg)


class _Written:
    """A stand-in link that keeps what the pacer writes."""

    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> None:
        self.data += data


def test_the_pacer_puts_characters_out_on_the_line_clock_and_catches_up_when_late():
    """Character i of a paced stream is due (i + 1) character times after it was queued: at
    4800 bit/s, 150 of them 150.5/600 s later.  A flush that comes late (a busy machine) writes what
    is due by then, and no more."""
    link = _Written()
    pacer = station.Pacer(link, 4800, paced=True)
    assert pacer.queue(bytes(300), 0.0) == pytest.approx(0.5)  # the last character leaves at 0.5 s
    pacer.flush(0.5 / 600)
    assert len(link.data) == 0
    pacer.flush(150.5 / 600)
    assert len(link.data) == 150
    pacer.flush(250.5 / 600)  # 0.17 s late: the 100 characters due meanwhile, at once
    assert len(link.data) == 250 and pacer.next_due() == pytest.approx(251 / 600)
    pacer.flush(10.0)
    assert len(link.data) == 300 and pacer.next_due() is None


def test_paced_rate_agrees_with_the_simulator(tmp_path):
    """The one paced run (1200 bit/s): cards/min never above `simulate`'s for the same settings —
    each record and reply takes at least its line time, however late a busy machine runs the ends
    — and on an idle machine within 2 % of it (a busy one can only slow the ends down)."""
    from ibm1013.sim.transfer import TransferConfig, simulate

    deck = deck_of(5)
    predicted = simulate(deck, TransferConfig.build(bit_rate=1200)).cards_per_minute
    cfg = EndpointConfig(session=SessionConfig(bit_rate=1200), paced=True, timeout_s=30)
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = transfer(line, deck, tmp_path / "copy.txt", cfg)
        carried = line.stats()
    assert not isinstance(tx, Exception), tx
    assert read_text_deck(tmp_path / "copy.txt") == deck
    assert carried["a->b"]["bytes_out"] + carried["b->a"]["bytes_out"] > tx.characters_on_line
    assert tx.cards_per_minute / predicted < 1.02, (tx.cards_per_minute, predicted)
    if os.getloadavg()[0] < (os.cpu_count() or 1):  # how near it comes depends on the machine's load
        assert tx.cards_per_minute / predicted > 0.5, (tx.cards_per_minute, predicted)


def test_network_serial_port_socket_url(tmp_path):
    """`socket://host:port` at both ends, joined by a 20-line TCP bridge (ecosystem.md §2)."""
    import selectors
    import socket

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    stop = threading.Event()

    def bridge():
        conns = [server.accept()[0] for _ in range(2)]
        with selectors.DefaultSelector() as sel:
            for c in conns:
                sel.register(c, selectors.EVENT_READ)
            while not stop.is_set():
                for key, _ in sel.select(0.05):
                    data = key.fileobj.recv(65536)
                    if not data:
                        return
                    conns[1 - conns.index(key.fileobj)].sendall(data)
        for c in conns:
            c.close()

    t = threading.Thread(target=bridge, daemon=True)
    t.start()
    url = f"socket://127.0.0.1:{port}"
    deck = deck_of(20)
    a, b = Link.open(url), Link.open(url)
    out = tmp_path / "copy.txt"
    rx = InThread(lambda: receive_deck(b, str(out), "text", fast()))
    rx.start()
    try:
        report = send_deck(a, deck, fast())
    finally:
        received = rx.outcome(60)
        a.close()
        b.close()
        stop.set()
        server.close()
    assert report.cards_sent == 20 and received.cards_received == 20
    assert read_text_deck(out) == deck


def test_unlike_column_settings_are_caught_in_the_handshake(tmp_path):
    out = tmp_path / "copy.txt"
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        recv_cfg = EndpointConfig(session=fast(columns=ColumnLayout.parse("40")).session, paced=False,
                                  timeout_s=1.0)
        tx, rx = transfer(line, deck_of(3), out, fast(), recv_cfg)
    assert isinstance(tx, TransferError) and "--columns" in str(tx)
    assert isinstance(rx, Exception) and not out.exists()


def test_a_port_with_nothing_on_it_says_so_and_what_to_check(tmp_path):
    """send on a port where nothing answers (a /dev/ttyS0 with no cable): not "no transmitting
    terminal answered", but that nothing answered on that port, and what to check."""
    with VirtualLine(LineConfig(bit_rate=0)) as line, Link.open(line.paths[0]) as link:
        cfg = fast()
        cfg.timeout_s = 1.0
        with pytest.raises(TransferError) as err:
            send_deck(link, deck_of(2), cfg)
    text = str(err.value)
    assert text.startswith(f"nothing answered on {line.paths[0]} within 1 s: start `ibm1013 receive`")
    assert "--baud" in text and "transmitting terminal" not in text


def test_the_real_ends_report_only_what_they_can_know(tmp_path):
    """Issue 47, item 16: an end cannot count the bits the line flipped (unknown, not 0), and a
    transfer that was never resumed names no card it resumed from."""
    out = tmp_path / "copy.txt"
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = transfer(line, deck_of(4), out, fast())
    for report in (tx, rx):
        assert report.ended == "complete" or report.settings["verdict"] == "PUBLISHED"
        assert report.to_dict()["flipped_bits"] is None
        assert "resumed_from" not in report.settings


def test_a_one_card_deck_is_one_card_and_the_seconds_say_what_they_cover(tmp_path):
    """Issue 47, item 11: no "1 cards"; the report's seconds are the deck session's, named so, beside
    the whole run's."""
    out = tmp_path / "copy.txt"
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = transfer(line, deck_of(1), out, fast())
    assert tx.ended == "complete", tx
    assert rx.message.startswith("1 card checked") and "1 cards" not in tx.message + rx.message
    for report in (tx, rx):
        assert report.settings["run_seconds"] >= report.simulated_seconds
        assert "(the deck session; " in report.to_text() and " in all)" in report.to_text()
