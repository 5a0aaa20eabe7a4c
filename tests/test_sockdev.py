"""``receive -o sockdev://HOST:PORT``: each card fed once to a card reader listening on a socket.

The reader here is our own TCP listener standing in for a Hercules sockdev 3505 (which takes one
submitter at a time, never answers it, and takes the close as the end of the deck):
``tests/test_interop_hercules.py`` runs the real one.  Checked: the deck's EBCDIC records or text
lines arrive in order and the connection is closed at the end; a reader that is not there is one
line and nothing is lost; a reader that drops the connection, or a receiver cut mid-deck, leaves
the deck in the journal, and ``--resume`` feeds exactly the cards after the feed count.
"""

import io
import os
import socket
import threading

import pytest
from endpoints import InThread, until
from test_endpoint_transfer import CutAfter, deck_of, fast, transfer

from emulator.formats import get_format
from emulator.serial import Link
from emulator.sockdev import ReaderError, SockdevReader, parse_address
from emulator.virtual_line import LineConfig, VirtualLine
from ibm1013.line.endpoint import EndpointConfig, TransferError, receive_deck
from ibm1013.line.journal import journal_path
from ibm1013.line.reader_feed import FED_SUFFIX, ReaderFeed

pytestmark = pytest.mark.timeout(90)


def patient():
    """Unpaced ends whose timers outlast a busy machine's stalls (``test_endpoint_transfer.fast``): the
    reader's thread shares the test's process, and at 0.3 s a card was given up at load 13."""
    return fast()


class ListeningReader:
    """A socket card reader: accepts one submitter after another and keeps what each wrote until it
    closed; ``drop_after`` bytes into the first connection it closes that connection itself."""

    def __init__(self, drop_after: int | None = None) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.drop_after = drop_after
        self.connections: list[bytes] = []  # one entry per connection, once it has ended
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            limit = self.drop_after if not self.connections else None
            got = bytearray()
            with conn:
                while limit is None or len(got) < limit:
                    chunk = conn.recv(4096 if limit is None else min(4096, limit - len(got)))
                    if not chunk:
                        break
                    got += chunk
            self.connections.append(bytes(got))

    def close(self) -> None:
        self.server.close()


def records(cards, fmt="ebcdic") -> bytes:
    out = io.BytesIO()
    get_format(fmt).write(cards, out)
    return out.getvalue()


def feed_transfer(line, deck, journal_deck, reader, config, fmt="ebcdic"):
    """send (here) -> receive into ``reader`` (thread); (send result, receive result)."""
    feed = ReaderFeed(SockdevReader("127.0.0.1", reader.port), fmt)
    return transfer(line, deck, journal_deck, config, fmt=fmt, feed=feed)


def fed_count(journal_deck) -> int:
    with open(journal_path(str(journal_deck)) + FED_SUFFIX) as f:
        return int(f.read())


@pytest.mark.parametrize("fmt", ["ebcdic", "text"])
def test_the_deck_is_fed_card_by_card_and_the_close_ends_it(tmp_path, fmt):
    deck = deck_of(30)
    reader = ListeningReader()
    jd = tmp_path / "sockdev-test"
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = feed_transfer(line, deck, jd, reader, patient(), fmt)
    assert not isinstance(rx, Exception), rx
    assert tx.ended == "complete" and rx.cards_received == 30
    until(lambda: reader.connections, what="the reader to see the close")
    assert reader.connections == [records(deck, fmt)]  # the trailer never goes into the reader
    assert f"fed to the card reader sockdev://127.0.0.1:{reader.port}" in rx.message
    assert not os.path.exists(journal_path(str(jd)))
    assert not os.path.exists(journal_path(str(jd)) + FED_SUFFIX)
    reader.close()


def test_a_reader_not_listening_is_one_line_before_the_line_is_used(tmp_path):
    free = socket.create_server(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()  # nothing listens there now
    feed = ReaderFeed(SockdevReader("127.0.0.1", port), "ebcdic")
    with VirtualLine(LineConfig(bit_rate=0)) as line, Link.open(line.paths[1]) as b:
        with pytest.raises(ReaderError) as err:
            receive_deck(b, str(tmp_path / "sockdev-x"), "ebcdic", patient(), feed=feed)
    message = str(err.value)
    assert "\n" not in message and f"sockdev://127.0.0.1:{port}" in message
    assert "nothing listens there" in message
    assert not os.path.exists(journal_path(str(tmp_path / "sockdev-x")))  # no card, no journal
    assert os.listdir(tmp_path) == []  # nor a feed count (issue 47, item 5)


def test_a_busy_reader_that_closes_at_once_is_refused_before_any_card(tmp_path):
    """Hercules takes one submitter at a time: a second one is accepted and closed at once."""
    busy = socket.create_server(("127.0.0.1", 0))
    turned_away = InThread(lambda: busy.accept()[0].close())
    turned_away.start()
    feed = ReaderFeed(SockdevReader("127.0.0.1", busy.getsockname()[1]), "ebcdic")
    with VirtualLine(LineConfig(bit_rate=0)) as line, Link.open(line.paths[1]) as b:
        with pytest.raises(ReaderError, match="took the connection and closed it: it is busy"):
            receive_deck(b, str(tmp_path / "sockdev-x"), "ebcdic", patient(), feed=feed)
    turned_away.outcome()
    busy.close()
    assert os.listdir(tmp_path) == []  # no journal, no feed count (issue 47, item 5)


def test_a_dropped_reader_keeps_the_deck_and_resume_feeds_each_card_once(tmp_path):
    deck = deck_of(40)
    jd = tmp_path / "sockdev-test"
    dropping = ListeningReader(drop_after=10 * 80)  # closes after 10 cards, as a reader stopped
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        tx, rx = feed_transfer(line, deck, jd, dropping, patient())
    assert isinstance(rx, ReaderError), rx
    message = str(rx)
    assert "\n" not in message and "dropped the connection" in message and "--resume" in message
    assert isinstance(tx, TransferError)
    first = dropping.connections[0]
    assert first == records(deck[:10])
    handed = fed_count(jd)  # counted before each write: what went to the reader, or died with it
    assert 10 <= handed < 40
    dropping.close()

    reader = ListeningReader()
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        resumed = EndpointConfig(session=patient().session, paced=False, timeout_s=30.0, resume=True)
        tx, rx = feed_transfer(line, deck, jd, reader, resumed)
    assert not isinstance(rx, Exception), rx
    until(lambda: reader.connections, what="the reader to see the close")
    assert reader.connections == [records(deck[handed:])]  # never a card twice
    reader.close()


def test_a_receiver_cut_mid_deck_resumes_into_the_reader_without_a_repeat(tmp_path):
    deck = deck_of(60)
    jd = tmp_path / "sockdev-test"
    reader = ListeningReader()
    cut = CutAfter(60 * 86 // 2)
    with VirtualLine(LineConfig(bit_rate=0), monitor=cut) as line:
        cut.line = line
        tx, rx = feed_transfer(line, deck, jd, reader, fast(timeout=3.0))  # the silence after the cut
    assert isinstance(rx, TransferError) and "--resume" in str(rx)
    until(lambda: reader.connections, what="the first connection to close")
    handed = fed_count(jd)
    assert 0 < handed < 60
    assert reader.connections == [records(deck[:handed])]
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        resumed = EndpointConfig(session=patient().session, paced=False, timeout_s=30.0, resume=True)
        tx, rx = feed_transfer(line, deck, jd, reader, resumed)
    assert not isinstance(rx, Exception), rx
    until(lambda: len(reader.connections) == 2, what="the second connection to close")
    assert b"".join(reader.connections) == records(deck)  # the whole deck, each card once
    reader.close()


@pytest.mark.parametrize("url, needle", [
    ("sockdev://127.0.0.1:0", "port 0 is not from 1 to 65535"),
    ("sockdev://127.0.0.1:65536", "port 65536"),
    ("sockdev://:3505", "not sockdev://HOST:PORT"),
    ("sockdev://127.0.0.1", "not sockdev://HOST:PORT"),
    ("sockdev://host:x", "not sockdev://HOST:PORT"),
])
def test_a_bad_address_is_refused_when_parsed(capsys, url, needle):
    from ibm1013.cli.main import main

    assert main(["receive", "loop://", "-o", url]) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and "-o" in err and "\n" not in err, err


def test_only_ebcdic_or_text_go_into_a_reader(capsys):
    from ibm1013.cli.main import main

    assert main(["receive", "loop://", "-o", "sockdev://127.0.0.1:3505", "--format", "cbn"]) == 2
    err = capsys.readouterr().err.strip()
    assert "ebcdic" in err and "text" in err and "\n" not in err


def test_parse_address():
    assert parse_address("sockdev://127.0.0.1:3505") == ("127.0.0.1", 3505)
    assert parse_address("sockdev://[::1]:3505") == ("::1", 3505)


def test_a_journal_without_its_feed_count_is_not_fed_on_a_guess(tmp_path):
    from ibm1013.line.journal import Journal, JournalError

    jd = str(tmp_path / "sockdev-x")
    journal = Journal.open(jd, resume=False)
    journal.append(deck_of(1)[0])
    feed = ReaderFeed(SockdevReader("127.0.0.1", 1), "ebcdic")
    with pytest.raises(JournalError, match="is missing, so which of them the reader took is not known"):
        feed.start(journal, 1)
    feed.close()
    journal.close()
